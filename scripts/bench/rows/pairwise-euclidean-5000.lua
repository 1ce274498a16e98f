-- Euclidean distances of 5000 x 50 points with themselves, against
-- sklearn.metrics.pairwise_distances on the same data (issue 3 target:
-- luma/peer <= 1.0, no slower than scikit-learn).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "euclidean distances, 5000 x 50 points with themselves (5000 x 5000 result)",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/pairwise.lua" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/pairwise.py" },
    check = { env.python, "-c", "import sklearn.metrics" },
  },
  target = { max_ratio = 1.0 },
}
