-- One AltMin iteration (both half-sweeps of ridge solves), k = 32, on
-- 1,000,000 ratings of 20,000 users x 5,000 items, vs the same updates
-- written with NumPy (issue 33: at most 1.0x).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "AltMin iteration, 1e6 ratings, 2e4 users x 5e3 items, k = 32, 1 thread",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/als.lua", "1" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/als.py" },
    env = { OPENBLAS_NUM_THREADS = "1" },
    check = { env.python, "-c", "import scipy" },
  },
  target = { max_ratio = 1.0 },
}
