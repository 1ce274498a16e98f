-- SpectralClustering, nearest_neighbors affinity, on 5,000 points whose graph is connected (the Lanczos solver at work) vs scikit-learn (issue 20 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "SpectralClustering fit, 2 clusters, nearest_neighbors affinity (10), 5,000 x 2 noisy two moons (one connected graph)",
  kind = "internal",
  unit = "s",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/spectral_fit.lua", "0.6" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/spectral_fit.py", "0.6" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
