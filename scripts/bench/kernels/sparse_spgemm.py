# The peer of sparse_spgemm.lua: the same two CSR matrices (built from the
# same formula with NumPy) multiplied with scipy.sparse's csr @ csr (one
# thread); best of 3.
# SPDX-License-Identifier: MIT
import sys
import time
import numpy as np
import scipy.sparse as sp

n, per = 200000, 10
e = np.arange(n * per, dtype=float)
rows = np.floor(e / per).astype(np.int64)


def column(ratio):
    a = e * ratio
    return np.floor((a - np.floor(a)) * n).astype(np.int64)


A = sp.csr_matrix((e % 7 + 1, (rows, column(0.6180339887498949))), shape=(n, n))
B = sp.csr_matrix((e % 5 + 1, (rows, column(0.7548776662466927))), shape=(n, n))
A.sum_duplicates()
B.sum_duplicates()
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    C = A @ B
    best = min(best, time.perf_counter() - t0)
print("nnz %d sum %.10g" % (C.nnz, C.sum()), file=sys.stderr)
print("time", best)
