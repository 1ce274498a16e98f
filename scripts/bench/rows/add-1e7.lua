-- element-wise add of 10^7 elements into out, against NumPy on the same data (issue 3 target: luma/peer <= 1.2).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "element-wise add of 10^7 elements into out",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/elementwise.lua", "add" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/elementwise.py", "add" },
    check = { env.python, "-c", "import numpy" },
  },
  -- A:add(B, out) over 10^7 float64: reads A and B, writes out (already
  -- faulted in by the kernel), 3 x 8e7 bytes, STREAM's add.  The three
  -- arrays (240 MB) fit in a large last-level cache, where the fraction of
  -- bandwidth can pass 100%.
  limit = { kind = "bandwidth", bytes = 3 * 8 * 1e7 },
  target = { max_ratio = 1.2 },
}
