-- HistGradientBoostingClassifier, 100 iterations, fit on 160,000 of
-- make_classification 200,000 x 20 vs XGBoost's hist method (31 leaves,
-- loss-guided, learning rate 0.1, 100 rounds), both on 2 threads; issue 19
-- target: luma/peer <= 1.5, test accuracies (stderr) within 0.5 points.
-- XGBoost is Debian's python3-xgboost (skipped when it is missing).
local env = ...

local args = { "200000", "20", env.build .. "/bench-data" }
return {
  about = "HistGradientBoostingClassifier 100 iterations fit vs XGBoost hist, 160,000 x 20, 2 threads",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/trees.lua", "hgb", args[1], args[2], args[3],
    env.python, "2" } },
  peer = {
    name = "xgboost",
    argv = { env.python, env.dir .. "/kernels/trees.py", "xgb", args[1], args[2], args[3], "2" },
    check = { env.python, "-c", "import xgboost" },
  },
  target = { max_ratio = 1.5 },
}
