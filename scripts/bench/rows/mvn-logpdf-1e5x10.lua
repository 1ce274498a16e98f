-- MultivariateNormal logpdf for 10^5 points in 10 dimensions vs SciPy (issue 4 target: luma/peer <= 1).
local env = ...

return {
  about = "MultivariateNormal logpdf, 10^5 points x 10 dimensions",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/mvn_logpdf.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/mvn_logpdf.py" },
    check = { env.python, "-c", "import scipy" },
  },
  target = { max_ratio = 1.0 },
}
