-- lasso path of 100 alphas, 10,000 x 200, against scikit-learn on the same data (issue 7 target:
-- luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "lasso path of 100 alphas, 10,000 x 200",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/linear_fit.lua", "lasso_path", "10000", "200" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/linear_fit.py", "lasso_path", "10000", "200" },
    check = { env.python, "-c", "import sklearn.linear_model" },
  },
  target = { max_ratio = 1.0 },
}
