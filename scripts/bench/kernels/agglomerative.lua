-- Fit time of AgglomerativeClustering (n_clusters = 8) with the linkage
-- given as the first argument (default ward) on 10,000 x 10; best of 3.
-- The data come from a deterministic formula that agglomerative.py repeats
-- with NumPy (0-based i, j, c = i mod 7):
-- X[i][j] = (c + 1) sin(0.731 i + 1.37 j + 0.011 i j) + 3 cos(2.1 j + c).
-- SPDX-License-Identifier: MIT
local linkage = arg and arg[1] or "ward"
local n, d = 10000, 10
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local c = i - (i / 7):floor() * 7
local X = (i * 0.731 + j * 1.37 + i * j:mul(0.011)):sin():mul(c + 1) + (j * 2.1 + c):cos() * 3
local best = math.huge
for _ = 1, 3 do
  local model = luma.cluster.AgglomerativeClustering{ n_clusters = 8, linkage = linkage }
  local t0 = luma.now()
  model:fit(X)
  best = math.min(best, luma.now() - t0)
  assert(model.labels:max() == 8)
end
print("time " .. best)
