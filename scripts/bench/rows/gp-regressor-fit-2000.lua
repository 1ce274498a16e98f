-- GaussianProcessRegressor fit (hyperparameters by L-BFGS-B from the same start, no restarts),
-- 2,000 points x 2 features, ConstantKernel * RBF([1, 1]) + WhiteKernel, against scikit-learn
-- on the same data (issue 17 target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "GaussianProcessRegressor fit (L-BFGS-B hyperparameters), 2,000 x 2, C * RBF(ARD) + White",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/gp_fit.lua", "2000" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/gp_fit.py", "2000" },
    check = { env.python, "-c", "import sklearn.gaussian_process" },
  },
  target = { max_ratio = 1.0 },
}
