-- LogisticRegression (lbfgs, C = 1) fit on 100,000 x 50 with 10 classes,
-- against scikit-learn on the same data (issue 7 target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "LogisticRegression lbfgs fit, 100,000 x 50, 10 classes",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/logreg_fit.lua", "10" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/logreg_fit.py", "10" },
    check = { env.python, "-c", "import sklearn.linear_model" },
  },
  target = { max_ratio = 1.0 },
}
