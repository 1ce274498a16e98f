# The peer of als.lua: one AltMin iteration written with NumPy and SciPy's
# CSR, each row's normal equations (V_I' V_I + reg I) u = V_I' r solved
# by np.linalg.solve in a loop over the rows (the same updates).  Same
# ratings and starting factors; prints the best of 3.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
import scipy.sparse as sp

n_users, n_items, m, k, reg = 20000, 5000, 1000000, 32, 0.1
e = np.arange(m, dtype=float)
frac = lambda x: x - np.floor(x)
users = np.floor(e / 50).astype(np.int64)
items = np.floor(frac(e * 0.6180339887498949) ** 2 * n_items).astype(np.int64)
values = np.floor(frac(e * 0.7548776662466927) * 5) + 1
R = sp.csr_matrix((values, (users, items)), shape=(n_users, n_items))
R.sum_duplicates()
Rt = R.T.tocsr()
j = np.arange(1, n_items + 1, dtype=float)[:, None]
f = np.arange(1, k + 1, dtype=float)[None, :]
V0 = frac((j * f) * (0.01 * np.sqrt(2))) - 0.5
eye = reg * np.eye(k)


def sweep(R, V, U):
    for r in range(R.shape[0]):
        lo, hi = R.indptr[r], R.indptr[r + 1]
        Vi = V[R.indices[lo:hi]]
        U[r] = np.linalg.solve(Vi.T @ Vi + eye, Vi.T @ R.data[lo:hi])


best = float("inf")
for _ in range(3):
    U, V = np.zeros((n_users, k)), V0.copy()
    t0 = time.perf_counter()
    sweep(R, V, U)
    sweep(Rt, U, V)
    best = min(best, time.perf_counter() - t0)
rows, cols = R.nonzero()
pred = (U[rows] * V[cols]).sum(1)
obj = ((np.asarray(R[rows, cols]).ravel() - pred) ** 2).sum() + reg * ((U ** 2).sum() + (V ** 2).sum())
sys.stderr.write("nnz %d objective %.12g\n" % (R.nnz, obj))
print("time", best)
