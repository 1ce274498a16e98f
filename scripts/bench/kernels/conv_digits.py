# One epoch of Adam (batch 64) for a 2-conv + 2-linear network on 10,000
# 8 x 8 digit images with PyTorch 1.13 (float64, as Luma computes; best of
# 3), on the data and network of conv_digits.lua (scikit-learn's digits
# are the bundled ones, in the same order), on one thread as Luma.
# SPDX-License-Identifier: MIT
import time
import torch
from sklearn.datasets import load_digits

torch.manual_seed(1)
torch.set_num_threads(1)
digits = load_digits()
D = torch.tensor(digits.data, dtype=torch.float64)
t = torch.tensor(digits.target)
n = 10000
i = torch.arange(n, dtype=torch.float64)[:, None]
j = torch.arange(64, dtype=torch.float64)[None, :]
src = torch.arange(n) % 1797
X = (D[src] / 16 + 0.1 * torch.sin(0.37 * i + 1.91 * j)).reshape(n, 1, 8, 8).contiguous()
y = t[src]
nn = torch.nn
best = float("inf")
for _ in range(3):
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10)).double()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    t0 = time.perf_counter()
    for start in range(0, n, 64):
        xb, yb = X[start:start + 64], y[start:start + 64]
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
    best = min(best, time.perf_counter() - t0)
print("time", best)
