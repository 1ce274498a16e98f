-- HistGradientBoostingClassifier, 100 iterations (no early stopping), fit
-- on 160,000 of make_classification 200,000 x 20 vs scikit-learn's, both
-- on 2 threads (luma.config{threads = 2}, OMP_NUM_THREADS=2); issue 19
-- target: luma/peer <= 1, test accuracies (stderr) within 0.5 points.
-- SPDX-License-Identifier: MIT
local env = ...

local args = { "hgb", "200000", "20", env.build .. "/bench-data" }
return {
  about = "HistGradientBoostingClassifier 100 iterations fit, 160,000 x 20, 2 threads",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/trees.lua", args[1], args[2], args[3], args[4],
    env.python, "2" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/trees.py", args[1], args[2], args[3], args[4], "2" },
    env = { OMP_NUM_THREADS = "2" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
