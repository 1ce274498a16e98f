-- RandomForestClassifier, 100 trees, fit + predict on make_classification
-- 100,000 x 20 with 1 thread on both sides (luma.config{threads = 1},
-- scikit-learn n_jobs = 1); issue 19 target: luma/peer <= 1.
-- SPDX-License-Identifier: MIT
local env = ...

local args = { "forest", "100000", "20", env.build .. "/bench-data" }
return {
  about = "RandomForestClassifier 100 trees fit + predict, make_classification 100,000 x 20, 1 thread",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/trees.lua", args[1], args[2], args[3], args[4],
    env.python, "1" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/trees.py", args[1], args[2], args[3], args[4], "1" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
