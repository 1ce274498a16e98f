-- 10^7 normal draws into a new matrix, against NumPy's default generator (issue 35 target: luma/peer <= 0.8; issue 4's was 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "10^7 standard normal draws (xoshiro256** + ziggurat vs NumPy's PCG64 + ziggurat)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/randn.lua" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/randn.py" },
    check = { env.python, "-c", "import numpy" },
  },
  -- g:normal(10^7, 1) writes a new 10^7 x 1 float64 matrix: 8e7 bytes
  -- (the ziggurat's tables stay in cache; the page faults of the new
  -- matrix are part of the time).
  limit = { kind = "bandwidth", bytes = 8 * 1e7 },
  target = { max_ratio = 0.8 },
}
