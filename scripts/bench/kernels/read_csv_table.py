# Reads the same 100,000 x 23 CSV with pandas.read_csv (default options);
# prints the best of 3 runs.  The file is written by read_csv_table.lua
# (run first by the bench row's luma side).
# SPDX-License-Identifier: MIT
import sys, time
import pandas as pd
path = (sys.argv[1] if len(sys.argv) > 1 else "build") + "/bench-100000x23.csv"
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    T = pd.read_csv(path)
    best = min(best, time.perf_counter() - t0)
    assert T.shape == (100000, 23) and T["code"].nunique() == 100
print("time", best)
