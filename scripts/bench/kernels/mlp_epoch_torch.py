# One epoch of Adam (batch 128) for an MLP 64-256-256-10 on 50,000 x 64
# with PyTorch 1.13 (float64, as Luma computes; best of 3), on the data of
# mlp_epoch.lua: Linear-ReLU-Linear-ReLU-Linear and cross-entropy.
# SPDX-License-Identifier: MIT
import time
import torch

torch.manual_seed(1)
n, d = 50000, 64
i = torch.arange(n, dtype=torch.float64)[:, None]
j = torch.arange(d, dtype=torch.float64)[None, :]
X = torch.sin(0.37 * i + 1.91 * j + 0.0013 * i * j)
y = torch.arange(n) % 10
best = float("inf")
for _ in range(3):
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256),
                                torch.nn.ReLU(), torch.nn.Linear(256, 10)).double()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    t0 = time.perf_counter()
    for start in range(0, n, 128):
        xb, yb = X[start:start + 128], y[start:start + 128]
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
    best = min(best, time.perf_counter() - t0)
print("time", best)
