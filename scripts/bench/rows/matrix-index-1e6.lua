-- X[i][j] from a script loop, 10^6 reads, per read, against NumPy's
-- X[i][j] (issue 35 target: at most twice matrix-get-set's get).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "X[i][j] reads from a script loop on 100 x 100, per read (NumPy: X[i][j])",
  kind = "internal",
  unit = "ns",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/scalar_access.lua" },
           env = { SCALAR_ACCESS = "index" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/scalar_access.py" },
    env = { SCALAR_ACCESS = "index" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max = 160 },
}
