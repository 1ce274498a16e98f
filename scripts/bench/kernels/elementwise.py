# Element-wise add and exp over 10^7 elements with NumPy into a preallocated
# output; prints the best of 5 runs of the operation named by argv[1].
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
op = sys.argv[1] if len(sys.argv) > 1 else "add"
n = 10_000_000
A = np.full((n, 1), 0.25)
B = np.full((n, 1), 0.5)
out = np.empty((n, 1))
best = float("inf")
for _ in range(5):
    t0 = time.perf_counter()
    if op == "add":
        np.add(A, B, out=out)
    else:
        np.exp(A, out=out)
    best = min(best, time.perf_counter() - t0)
print("time", best)
