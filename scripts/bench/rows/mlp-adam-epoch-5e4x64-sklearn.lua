-- One epoch of Adam, batch 128, MLP 64-256-256-10 on 50,000 x 64, against
-- scikit-learn's MLPClassifier with max_iter = 1 (issue 30 target:
-- luma/peer <= 0.3).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "MLPClassifier 64-256-256-10, one epoch of Adam, batch 128, 50,000 x 64",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/mlp_epoch.lua" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/mlp_epoch.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 0.3 },
}
