-- element-wise exp of 10^7 elements into out, against NumPy on the same data (issue 3 target: luma/peer <= 1.2).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "element-wise exp of 10^7 elements into out",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/elementwise.lua", "exp" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/elementwise.py", "exp" },
    check = { env.python, "-c", "import numpy" },
  },
  -- A:exp(out) over 10^7 float64: reads A, writes out, 2 x 8e7 bytes.
  limit = { kind = "bandwidth", bytes = 2 * 8 * 1e7 },
  target = { max_ratio = 1.2 },
}
