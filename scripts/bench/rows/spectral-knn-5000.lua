-- SpectralClustering, nearest_neighbors affinity, on 5,000 points vs scikit-learn (issue 20 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "SpectralClustering fit, 2 clusters, nearest_neighbors affinity (10), 5,000 x 2 two moons",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/spectral_fit.lua" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/spectral_fit.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
