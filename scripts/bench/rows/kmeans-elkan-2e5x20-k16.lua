-- KMeans (elkan, k = 16, n_init = 1, same initial centres) fit on 200,000 x 20 vs scikit-learn (issue 20 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "KMeans fit, algorithm = \"elkan\", k = 16, n_init = 1, 200,000 rows x 20 features, same initial centres",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/kmeans_fit.lua", "elkan" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/kmeans_fit.py", "elkan" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
