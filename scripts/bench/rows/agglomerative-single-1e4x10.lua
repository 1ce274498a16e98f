-- AgglomerativeClustering (single linkage, n_clusters = 8) fit on 10,000 x 10 vs scikit-learn.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "AgglomerativeClustering fit, single linkage, 10,000 rows x 10 features",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/agglomerative.lua", "single" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/agglomerative.py", "single" },
    check = { env.python, "-c", "import sklearn" },
  },
}
