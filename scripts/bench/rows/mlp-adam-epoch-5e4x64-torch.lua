-- One epoch of Adam, batch 128, MLP 64-256-256-10 on 50,000 x 64 (float64),
-- against PyTorch 1.13 on CPU (issue 30 target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "MLP 64-256-256-10, one epoch of Adam, batch 128, 50,000 x 64 (PyTorch: float64, same layers)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/mlp_epoch.lua" } },
  peer = {
    name = "torch",
    argv = { env.python, env.dir .. "/kernels/mlp_epoch_torch.py" },
    check = { env.python, "-c", "import torch" },
  },
  target = { max_ratio = 1.0 },
}
