-- AgglomerativeClustering (ward linkage, n_clusters = 8) fit on 10,000 x 10 vs scikit-learn (issue 20 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "AgglomerativeClustering fit, ward linkage, 10,000 rows x 10 features",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/agglomerative.lua", "ward" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/agglomerative.py", "ward" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
