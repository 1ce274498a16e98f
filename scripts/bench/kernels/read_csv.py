# Reads the same 100,000 x 20 CSV with numpy.loadtxt; prints the best of 3 runs.
# The file is written by read_csv.lua (run first by the bench row's luma side).
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
path = (sys.argv[1] if len(sys.argv) > 1 else "build") + "/bench-100000x20.csv"
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    X = np.loadtxt(path, delimiter=",", skiprows=1)
    best = min(best, time.perf_counter() - t0)
    assert X.shape == (100000, 20)
print("time", best)
