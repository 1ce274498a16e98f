-- Forward and backward of a 3 x 3 matmul and add, per pass, against
-- PyTorch 1.13's autograd (issue 30 target: luma/peer <= 0.5, a Lua call
-- against Python's dispatcher).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "forward + backward of (A B + C):sum() on 3 x 3, per pass (PyTorch: float64)",
  kind = "internal",
  unit = "us",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/autograd_small.lua" } },
  peer = {
    name = "torch",
    argv = { env.python, env.dir .. "/kernels/autograd_small.py" },
    check = { env.python, "-c", "import torch" },
  },
  target = { max_ratio = 0.5 },
}
