-- Three clusterings of the same points: k-means, DBSCAN and
-- single-linkage agglomerative clustering (luma.cluster; docs/CLUSTER.md).
--
-- Two data sets of 300 points: three round blobs, and two interleaving
-- half moons.  k-means finds the blobs but cuts the moons with a straight
-- line; DBSCAN and single linkage follow the moons' shapes.  Prints each
-- method's adjusted Rand index against the true groups (1 is perfect, 0
-- is chance) and draws the six clusterings (cluster_compare.png in
-- OUTDIR):
--   build/luma scripts/examples/cluster_compare.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local cluster, ari = luma.cluster, luma.metrics.adjusted_rand_score

local blobs_X, blobs_y = luma.datasets.make_blobs{ n_samples = 300, centers = 3,
  cluster_std = 0.8, seed = 3 }
local moons_X, moons_y = luma.datasets.make_moons{ n_samples = 300, noise = 0.06, seed = 3 }
local data = {
  { "blobs", luma.preprocessing.StandardScaler():fit_transform(blobs_X), blobs_y, 3 },
  { "moons", luma.preprocessing.StandardScaler():fit_transform(moons_X), moons_y, 2 },
}
local methods = {
  { "k-means", function(k) return cluster.KMeans{ n_clusters = k, seed = 0 } end },
  { "DBSCAN", function() return cluster.DBSCAN{ eps = 0.3, min_samples = 5 } end },
  { "single linkage", function(k)
    return cluster.AgglomerativeClustering{ n_clusters = k, linkage = "single" } end },
}

local fig = luma.plot.figure{ rows = 2, cols = 3, width = 1050, height = 640,
  title = "Clusterings of blobs and moons (standardized)" }
print(string.format("%-15s %8s %8s", "adjusted Rand", "blobs", "moons"))
local scores = {}
for j, m in ipairs(methods) do
  scores[j] = {}
  for i, d in ipairs(data) do
    local name, X, y, k = d[1], d[2], d[3], d[4]
    local model = m[2](k):fit(X)
    local labels = model.labels
    scores[j][i] = ari(y, labels)
    local ax = fig:axes(i, j)
    ax:scatter(X:col(1), X:col(2), { labels = labels, size = 4 })
    ax:set{ title = string.format("%s on %s: ARI %.2f", m[1], name, scores[j][i]) }
  end
  print(string.format("%-15s %8.3f %8.3f", m[1], scores[j][1], scores[j][2]))
end
if outdir then print("wrote " .. fig:save(outdir .. "/cluster_compare.png")) end
