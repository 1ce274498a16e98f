-- Reading a 100,000 x 23 CSV (20 numeric, 3 text columns) into a
-- luma.Table, against pandas.read_csv on the same file.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "read_csv of 100,000 rows x (20 numeric + 3 categorical) into a Table vs pandas.read_csv",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/read_csv_table.lua", env.build } },
  peer = {
    name = "pandas.read_csv",
    argv = { env.python, env.dir .. "/kernels/read_csv_table.py", env.build },
    check = { env.python, "-c", "import pandas" },
  },
  target = { max_ratio = 1.0 },
}
