-- Fit time of SpectralClustering (2 clusters, nearest_neighbors affinity
-- with 10 neighbours, k-means with 10 restarts) on 5,000 points of two
-- interleaved half circles with deterministic jitter of amplitude arg[1]
-- (default 0.1: two separate moons; 0.6 joins them into one connected
-- graph), the same formula as spectral_fit.py so both sides cluster the
-- same points; one fit.  The agreement with the true moons (adjusted Rand
-- index) goes to stderr.
-- SPDX-License-Identifier: MIT
local amp = tonumber(arg[1] or "0.1")
local n = 5000
local h = n // 2
local X, y = luma.zeros(n, 2), luma.zeros(n, 1)
local function jitter(i) -- in [-amp/2, amp/2), the same in Python
  local v = math.sin(i * 12.9898) * 43758.5453
  return amp * (v - math.floor(v)) - amp / 2
end
for i = 0, h - 1 do
  local t = math.pi * i / (h - 1)
  X:set(i + 1, 1, math.cos(t) + jitter(4 * i))
  X:set(i + 1, 2, math.sin(t) + jitter(4 * i + 1))
  X:set(h + i + 1, 1, 1 - math.cos(t) + jitter(4 * i + 2))
  X:set(h + i + 1, 2, 0.5 - math.sin(t) + jitter(4 * i + 3))
  y:set(h + i + 1, 1, 1)
end
local t0 = luma.now()
local model = luma.cluster.SpectralClustering{ n_clusters = 2, affinity = "nearest_neighbors",
  n_neighbors = 10, n_init = 10, seed = 0 }
model:fit(X)
local elapsed = luma.now() - t0
io.stderr:write(string.format("adjusted Rand index %.4f\n",
  luma.metrics.adjusted_rand_score(y, model.labels)))
print("time " .. elapsed)
