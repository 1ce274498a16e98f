# Scalar access from a script loop with NumPy: X[i, j] read and written
# on a 100 x 100 array, 10^6 times each; prints the seconds per access
# (the mean of the two).  With SCALAR_ACCESS=index it times X[i][j].
import os
import time
import numpy as np
X = np.random.default_rng(1).standard_normal((100, 100))
calls = 1_000_000
mode = os.environ.get("SCALAR_ACCESS", "getset")
total = 0.0
t0 = time.perf_counter()
if mode == "index":
    for k in range(1, calls + 1):
        i = k % 100
        total += X[i][(k * 7) % 100]
    print("time", (time.perf_counter() - t0) / calls)
else:
    for k in range(1, calls + 1):
        total += X[k % 100, (k * 7) % 100]
    for k in range(1, calls + 1):
        X[k % 100, (k * 7) % 100] = k
    print("time", (time.perf_counter() - t0) / (2 * calls))
