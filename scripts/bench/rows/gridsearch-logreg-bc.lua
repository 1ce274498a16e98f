-- Grid search, 20 candidates x 5 folds of a scaler + logistic regression
-- pipeline on breast_cancer, one job each, against scikit-learn's
-- GridSearchCV (issue 5 target: luma/peer <= 0.5).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "grid search 20 C values x 5 folds, scaler + logistic regression, breast_cancer, n_jobs = 1",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/gridsearch_logreg.lua", "1" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/gridsearch_logreg.py", "1" },
    check = { env.python, "-c", "import sklearn.model_selection" },
  },
  target = { max_ratio = 0.5 },
}
