# The peer of sparse_logreg_saga.lua: the same sparse matrix and labels
# (built from the same formula with NumPy and scipy.sparse), fitted by
# scikit-learn's LogisticRegression(solver="saga") with its defaults
# (l2, C = 1, tol 1e-4, max_iter 100); best of 2 fits.
# SPDX-License-Identifier: MIT
import sys, time, warnings
import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
warnings.simplefilter("ignore")
argv = [int(float(a)) for a in sys.argv[1:]]
n, m, per = (argv + [100000, 100000, 20][len(argv):])[:3]
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
    model = LogisticRegression(solver="saga", random_state=1).fit(S, y)
    best = min(best, time.perf_counter() - t0)
print("nnz %d epochs %d accuracy %.4f coef[0] %.6g" % (S.nnz, model.n_iter_[0],
      model.score(S, y), model.coef_[0, 0]), file=sys.stderr)
print("time", best)
