-- A scatter of 100,000 points saved to PNG (issue 22 target: under 2 s, at most 1.0x
-- matplotlib), against matplotlib's savefig on the same points: both rasterize in-process
-- (luma.plot's native canvas with marker sprites, FreeType text and zlib; Agg).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "luma.plot scatter of 100,000 points saved to PNG, vs matplotlib savefig",
  kind = "internal",
  unit = "s",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/plot_scatter.lua", "png" } },
  peer = {
    name = "matplotlib",
    argv = { env.python, env.dir .. "/kernels/plot_scatter.py", "png" },
    check = { env.python, "-c", "import matplotlib" },
  },
  target = { max = 2 },
}
