# Euclidean distances between the rows of a 5000 x 50 matrix and themselves
# with scikit-learn; prints the best of 3 runs.  Same data as pairwise.lua:
# X[i][j] = sin(0.37 i + 0.71 j + 0.013 i j) with 1-based i, j.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.metrics import pairwise_distances
n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
d = int(sys.argv[2]) if len(sys.argv) > 2 else 50
i = np.arange(1, n + 1, dtype=float)[:, None]
j = np.arange(1, d + 1, dtype=float)[None, :]
X = np.sin(0.37 * i + 0.71 * j + 0.013 * i * j)
best = float("inf")
for _ in range(3):
    D = None
    t0 = time.perf_counter()
    D = pairwise_distances(X, metric="euclidean")
    best = min(best, time.perf_counter() - t0)
assert abs(D[0, 1] - np.sqrt(((X[0] - X[1]) ** 2).sum())) < 1e-9
print("time", best)
