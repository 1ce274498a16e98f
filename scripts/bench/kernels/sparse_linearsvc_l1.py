# The peer of sparse_linearsvc_l1.lua: the same sparse matrix and labels
# (tfidf_data.py), fitted by scikit-learn's LinearSVC(penalty="l1",
# dual=False) (LIBLINEAR); best of 2 fits.
# SPDX-License-Identifier: MIT
import os, sys, time, warnings
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfidf_data  # noqa: E402
from sklearn.svm import LinearSVC
warnings.simplefilter("ignore")
argv = [int(float(a)) for a in sys.argv[1:]]
n, m, per = (argv + [50000, 50000, 20][len(argv):])[:3]
S, y = tfidf_data.make(n, m, per)
best = float("inf")
for _ in range(2):
    t0 = time.perf_counter()
    model = LinearSVC(penalty="l1", dual=False, random_state=1).fit(S, y)
    best = min(best, time.perf_counter() - t0)
print("passes %d accuracy %.4f zero weights %d" % (model.n_iter_, model.score(S, y),
      int((model.coef_ == 0).sum())), file=sys.stderr)
print("time", best)
