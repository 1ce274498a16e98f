-- 5-fold cross-validated ridge on diabetes, start to printed score, against
-- python3 + scikit-learn (issue 5: expect far below 0.2, start-up dominates).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "5-fold CV of ridge regression on diabetes, whole process",
  kind = "wall",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/cv_ridge.lua" } },
  peer = {
    name = "python3 + sklearn",
    argv = { env.python, env.dir .. "/kernels/cv_ridge.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 0.2 },
}
