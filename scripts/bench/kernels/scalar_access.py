# Scalar access from a script loop with NumPy: X[i, j] read and written
# at a fixed element of a 100 x 100 array, 10^6 times each; prints the
# seconds per access (the mean of the two), loop included.  With
# SCALAR_ACCESS=index it times X[i][j] reads.
# SPDX-License-Identifier: MIT
import os
import time
import numpy as np
X = np.random.default_rng(1).standard_normal((100, 100))
calls = 1_000_000
mode = os.environ.get("SCALAR_ACCESS", "getset")
i, j = 36, 41
total = 0.0
t0 = time.perf_counter()
if mode == "index":
    for _ in range(calls):
        total += X[i][j]
    print("time", (time.perf_counter() - t0) / calls)
else:
    for _ in range(calls):
        total += X[i, j]
    for k in range(calls):
        X[i, j] = k
    print("time", (time.perf_counter() - t0) / (2 * calls))
