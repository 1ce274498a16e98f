-- DecisionTreeClassifier (full depth, gini) fit on make_classification
-- 100,000 x 20 vs scikit-learn (issue 19 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

local args = { "tree", "100000", "20", env.build .. "/bench-data" }
return {
  about = "DecisionTreeClassifier fit, make_classification 100,000 x 20, full depth",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/trees.lua", args[1], args[2], args[3], args[4],
    env.python } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/trees.py", table.unpack(args) },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
