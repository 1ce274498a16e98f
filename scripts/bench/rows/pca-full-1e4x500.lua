-- PCA (svd_solver "full", every component) fit on 10,000 x 500 vs scikit-learn (issue 21 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "PCA fit, full SVD solver, 10,000 rows x 500 features",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/pca_fit.lua", "full" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/pca_fit.py", "full" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
