-- A scatter of 100,000 points saved to SVG (issue 22 target: under 0.5 s), against
-- matplotlib's savefig on the same points.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "luma.plot scatter of 100,000 points saved to SVG, vs matplotlib savefig",
  kind = "internal",
  unit = "s",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/plot_scatter.lua", "svg" } },
  peer = {
    name = "matplotlib",
    argv = { env.python, env.dir .. "/kernels/plot_scatter.py", "svg" },
    check = { env.python, "-c", "import matplotlib" },
  },
  target = { max = 0.5 },
}
