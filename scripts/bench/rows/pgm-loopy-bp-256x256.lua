-- 50 iterations of sum-product loopy belief propagation on a 256 x 256
-- binary denoising MRF (beta 1, eta 2.1), flooding schedule, in C with a
-- parallel loop, vs the same schedule and messages with NumPy arrays
-- (kernels/pgm_grid.*; both print the same mean belief).  No installed
-- library does grid BP (pgmpy and libDAI are not here), so NumPy is the
-- peer; issue 32's target is absolute: under 1 s.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "loopy BP (sum-product), 256 x 256 denoising MRF, 50 iterations, vs NumPy",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/pgm_grid.lua", "bp" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/pgm_grid.py", "bp" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max = 1000 },
}
