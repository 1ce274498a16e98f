-- Reading a 100,000 x 20 numeric CSV, against numpy.loadtxt on the same file.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "read_csv of a 100,000 x 20 numeric CSV vs numpy.loadtxt",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/read_csv.lua", env.build } },
  peer = {
    name = "numpy.loadtxt",
    argv = { env.python, env.dir .. "/kernels/read_csv.py", env.build },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max_ratio = 1.0 },
}
