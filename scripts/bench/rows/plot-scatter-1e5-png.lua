-- A scatter of 100,000 points saved to PNG through rsvg-convert (issue 22 target: under 2 s), against
-- matplotlib's savefig on the same points (Agg rasterizes in-process; rsvg-convert is a
-- separate program parsing the SVG, so this ratio stays above 1).
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
