-- Forward and backward of a 2-layer LSTM, hidden 128, 50 steps, batch 32,
-- input 32 (float64), against PyTorch 1.13 on CPU (issue 31 target:
-- luma/peer <= 1.2).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "LSTM 2 layers x 128, 50 steps, batch 32, input 32: forward + backward (PyTorch: float64)",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/lstm.lua" } },
  peer = {
    name = "torch",
    argv = { env.python, env.dir .. "/kernels/lstm.py" },
    check = { env.python, "-c", "import torch" },
  },
  target = { max_ratio = 1.2 },
}
