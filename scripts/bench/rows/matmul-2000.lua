-- 2000 x 2000 matrix product (dgemm), against NumPy on the same data (issue 3 target: luma/peer <= 1.05).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "2000 x 2000 matrix product (dgemm)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/matmul.lua" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/matmul.py" },
    check = { env.python, "-c", "import numpy" },
  },
  -- one 2000 x 2000 by 2000 x 2000 dgemm: n^3 multiply-adds, 2 n^3 flops.
  limit = { kind = "flops", flops = 2 * 2000 ^ 3 },
  target = { max_ratio = 1.05 },
}
