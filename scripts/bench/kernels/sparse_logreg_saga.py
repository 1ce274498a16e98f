# The peer of sparse_logreg_saga.lua: the same sparse matrix and labels
# (tfidf_data.py), fitted by scikit-learn's LogisticRegression(solver=
# "saga") with its defaults (l2, C = 1, tol 1e-4, max_iter 100); best of 2
# fits.
# SPDX-License-Identifier: MIT
import os, sys, time, warnings
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfidf_data  # noqa: E402
from sklearn.linear_model import LogisticRegression
warnings.simplefilter("ignore")
argv = [int(float(a)) for a in sys.argv[1:]]
n, m, per = (argv + [100000, 100000, 20][len(argv):])[:3]
S, y = tfidf_data.make(n, m, per)
best = float("inf")
for _ in range(2):
    t0 = time.perf_counter()
    model = LogisticRegression(solver="saga", random_state=1).fit(S, y)
    best = min(best, time.perf_counter() - t0)
print("nnz %d epochs %d accuracy %.4f coef[0] %.6g" % (S.nnz, model.n_iter_[0],
      model.score(S, y), model.coef_[0, 0]), file=sys.stderr)
print("time", best)
