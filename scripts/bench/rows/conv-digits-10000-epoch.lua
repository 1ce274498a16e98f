-- One epoch of Adam (batch 64) for a 2-conv + 2-linear network on 10,000
-- 8 x 8 digit images (the bundled digits tiled and perturbed), against
-- PyTorch 1.13 on CPU, both on one thread (issue 31 target: luma/peer <= 1.2).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "CNN conv16-pool-conv32-pool-64-10 on 10,000 8x8 digits, one epoch of Adam, batch 64, 1 thread (PyTorch: float64, same layers)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/conv_digits.lua" } },
  peer = {
    name = "torch",
    argv = { env.python, env.dir .. "/kernels/conv_digits.py" },
    check = { env.python, "-c", "import torch, sklearn" },
  },
  target = { max_ratio = 1.2 },
}
