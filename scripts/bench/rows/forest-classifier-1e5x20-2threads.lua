-- RandomForestClassifier, 100 trees, fit + predict on make_classification
-- 100,000 x 20 with 2 threads on both sides (luma.config{threads = 2},
-- scikit-learn n_jobs = 2); issue 19 target: luma/peer <= 1.
-- SPDX-License-Identifier: MIT
local env = ...

local args = { "forest", "100000", "20", env.build .. "/bench-data" }
return {
  about = "RandomForestClassifier 100 trees fit + predict, make_classification 100,000 x 20, 2 threads",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/trees.lua", args[1], args[2], args[3], args[4],
    env.python, "2" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/trees.py", args[1], args[2], args[3], args[4], "2" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
