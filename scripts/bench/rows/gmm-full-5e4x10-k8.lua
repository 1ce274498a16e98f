-- GaussianMixture (full covariances, k = 8) fit on 50,000 x 10, same initialization, 100 EM iterations, vs scikit-learn (issue 21 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "GaussianMixture fit, full covariances, k = 8, 50,000 rows x 10 features, 100 iterations",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/gmm_fit.lua" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/gmm_fit.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
