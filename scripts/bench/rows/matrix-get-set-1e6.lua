-- X:get(i, j) and X:set(i, j, v) from a script loop, 10^6 calls each, per
-- call, against NumPy's X[i, j] (issue 35 target: at most 40 ns).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "X:get / X:set from a script loop on 100 x 100, per call (NumPy: X[i, j])",
  kind = "internal",
  unit = "ns",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/scalar_access.lua" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/scalar_access.py" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max = 40 },
}
