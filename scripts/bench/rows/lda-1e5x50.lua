-- LinearDiscriminantAnalysis (svd solver) fit on 10^5 x 50, 3 classes, vs scikit-learn (issue 7 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "LinearDiscriminantAnalysis (svd solver) fit, 10^5 rows x 50 features, 3 classes",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/generative_fit.lua", "lda" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/generative_fit.py", "lda" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
