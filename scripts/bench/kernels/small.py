# Per-call overhead on 3 x 3 matrices with NumPy: add, product and item
# get/set, 10^5 calls each; prints the total seconds of the three loops.
# SPDX-License-Identifier: MIT
import time
import numpy as np
A = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]], dtype=float)
B = np.array([[2, 0, 1], [1, 3, 0], [0, 1, 4]], dtype=float)
out = np.zeros((3, 3))
calls = 100_000
t0 = time.perf_counter()
for _ in range(calls):
    np.add(A, B, out=out)
for _ in range(calls):
    np.matmul(A, B, out=out)
for i in range(calls):
    v = out[1, 2]
    out[1, 2] = v + i
print("time", time.perf_counter() - t0)
