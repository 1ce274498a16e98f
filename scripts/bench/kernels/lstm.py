# Forward and backward of a 2-layer LSTM (input 32, hidden 128) over 50
# steps of a batch of 32 with PyTorch 1.13 (float64), as lstm.lua: the loss
# the sum of the last step's outputs; prints the best time of 5.
# SPDX-License-Identifier: MIT
import time
import torch

torch.manual_seed(1)
T, batch, inp, hidden = 50, 32, 32, 128
t = torch.arange(T, dtype=torch.float64)[:, None, None]
i = torch.arange(batch, dtype=torch.float64)[None, :, None]
j = torch.arange(inp, dtype=torch.float64)[None, None, :]
x = torch.sin(0.1 * t + 0.37 * i + 1.91 * j).transpose(0, 1).contiguous()  # batch x T x input
lstm = torch.nn.LSTM(inp, hidden, num_layers=2, batch_first=True).double()
best = float("inf")
for _ in range(5):
    lstm.zero_grad()
    t0 = time.perf_counter()
    out, _ = lstm(x)
    out[:, -1, :].sum().backward()
    best = min(best, time.perf_counter() - t0)
print("time", best)
