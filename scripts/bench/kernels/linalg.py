# One LAPACK operation on an n x n matrix with NumPy; prints the best of 3 runs.
# Usage: python3 linalg.py OP [n]; the matrices match linalg.lua.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
op = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
i = np.arange(1, n + 1, dtype=float).reshape(n, 1)
j = i.T
A = 1.0 / (1.0 + np.abs(i - j)) + np.eye(n) * n
C = A + (j > i) * 0.5
b = np.ones((n, 1))
run = {
    "solve": lambda: np.linalg.solve(C, b),
    "cholesky": lambda: np.linalg.cholesky(A),
    "svd": lambda: np.linalg.svd(C, full_matrices=False),
    "eigh": lambda: np.linalg.eigh(A),
}[op]
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    run()
    best = min(best, time.perf_counter() - t0)
print("time", best)
