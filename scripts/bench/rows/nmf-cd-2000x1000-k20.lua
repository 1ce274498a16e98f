-- NMF (coordinate descent, k = 20) fit on 2,000 x 1,000 non-negative data, 200 iterations, vs scikit-learn (issue 21 target: luma/peer <= 1).
local env = ...

return {
  about = "NMF fit, cd solver, k = 20, 2,000 x 1,000, 200 iterations",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/nmf_fit.lua" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/nmf_fit.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
