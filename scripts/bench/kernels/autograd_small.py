# Small-op overhead of PyTorch's autograd: 10^4 forward and backward
# passes of (A @ B + C).sum(), A, B, C 3 x 3 float64 tensors requiring
# gradients; prints the seconds per pass (best of 3), as
# autograd_small.lua.
# SPDX-License-Identifier: MIT
import time
import torch

torch.manual_seed(1)
A = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
B = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
C = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
passes = 10000
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    for _ in range(passes):
        A.grad = B.grad = C.grad = None
        out = (A @ B + C).sum()
        out.backward()
    best = min(best, (time.perf_counter() - t0) / passes)
print("time", best)
