-- The same grid search with n_jobs = 2 against itself with n_jobs = 1
-- (issue 5 target: at least 1.7x faster, luma/peer <= 1/1.7).  Needs two
-- idle cores to mean anything.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "grid search 20 x 5 logistic regression on breast_cancer: n_jobs = 2 vs n_jobs = 1",
  kind = "internal",
  unit = "ms",
  runs = 7,
  luma = { argv = { env.luma, env.dir .. "/kernels/gridsearch_logreg.lua", "2" } },
  peer = {
    name = "luma n_jobs = 1",
    argv = { env.luma, env.dir .. "/kernels/gridsearch_logreg.lua", "1" },
  },
  target = { max_ratio = 1 / 1.7 },
}
