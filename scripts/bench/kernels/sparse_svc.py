# The peer of sparse_svc.lua: the same sparse matrix and labels (built from
# the same formula with NumPy and scipy.sparse), fitted by scikit-learn's
# SVC (rbf, C = 1, gamma "scale"; LIBSVM on sparse rows); best of 2 fits.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
import scipy.sparse as sp
from sklearn.svm import SVC
n, m, per = 5000, 20000, 20
e = np.arange(n * per, dtype=float)
a = e * 0.6180339887498949
f = a - np.floor(a)
S = sp.csr_matrix((e % 3 + 1, (np.floor(e / per).astype(np.int64),
                               np.floor(f ** 2 * m).astype(np.int64))), shape=(n, m))
S.sum_duplicates()
norms = np.sqrt(np.asarray(S.multiply(S).sum(axis=1)).ravel())
S = sp.csr_matrix(sp.diags(1 / norms) @ S)
j = np.arange(m, dtype=float)
w = (j * 7 % 11) / 11 - 0.45
y = (S @ w > 0).astype(int)
best = float("inf")
for _ in range(2):
    t0 = time.perf_counter()
    model = SVC().fit(S, y)
    best = min(best, time.perf_counter() - t0)
print("support vectors %d accuracy %.4f" % (model.support_.size, model.score(S, y)), file=sys.stderr)
print("time", best)
