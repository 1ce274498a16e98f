-- PCA (svd_solver "randomized", 20 components) fit on 50,000 x 1,000 vs scikit-learn (issue 21 target: luma/peer <= 1).
local env = ...

return {
  about = "PCA fit, randomized solver, k = 20, 50,000 rows x 1,000 features",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/pca_fit.lua", "randomized" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/pca_fit.py", "randomized" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
