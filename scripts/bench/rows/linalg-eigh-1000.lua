-- eigh of a 1000 x 1000 matrix through LAPACK, against NumPy on the same data (issue 3 target: luma/peer <= 1.1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "linalg.eigh, 1000 x 1000 (LAPACK via OpenBLAS on both sides)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/linalg.lua", "eigh" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/linalg.py", "eigh" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max_ratio = 1.1 },
}
