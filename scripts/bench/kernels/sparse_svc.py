# The peer of sparse_svc.lua: the same sparse matrix and labels
# (tfidf_data.py), fitted by scikit-learn's SVC (rbf, C = 1, gamma
# "scale"; LIBSVM on sparse rows); best of 2 fits.
# SPDX-License-Identifier: MIT
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfidf_data  # noqa: E402
from sklearn.svm import SVC
n, m, per = 5000, 20000, 20
S, y = tfidf_data.make(n, m, per)
best = float("inf")
for _ in range(2):
    t0 = time.perf_counter()
    model = SVC().fit(S, y)
    best = min(best, time.perf_counter() - t0)
print("support vectors %d accuracy %.4f" % (model.support_.size, model.score(S, y)), file=sys.stderr)
print("time", best)
