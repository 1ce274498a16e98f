# The peer of sparse_matmul.lua: the same CSR matrix (built from the same
# formula with NumPy) times the same dense matrix with scipy.sparse's
# csr_matrix @ ndarray (one thread); best of 5.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
import scipy.sparse as sp

# optional arguments as sparse_matmul.lua's: rows, columns, entries per
# row, dense columns, repeats
argv = [int(float(a)) for a in sys.argv[1:]]
n, m, per, k, repeats = (argv + [100000, 10000, 10, 64, 5][len(argv):])[:5]
e = np.arange(n * per, dtype=float)
a = e * 0.6180339887498949
f = a - np.floor(a)
S = sp.csr_matrix((e % 7 + 1, (np.floor(e / per).astype(np.int64),
                                np.floor(f * m).astype(np.int64))), shape=(n, m))
S.sum_duplicates()
q = np.arange(m * k, dtype=float)
B = ((q % 13) / 13 - 0.5).reshape(m, k)
best = float("inf")
for _ in range(repeats):
    t0 = time.perf_counter()
    out = S @ B
    best = min(best, time.perf_counter() - t0)
print("nnz %d sum %.10g" % (S.nnz, out.sum()), file=sys.stderr)
print("time", best)
