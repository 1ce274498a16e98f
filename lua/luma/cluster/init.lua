--- luma.cluster: clustering (docs/CLUSTER.md).
--
-- One part per concern, merged here into the table users get as
-- luma.cluster (every public member of a part: classes and functions):
--   kmeans        KMeans, MiniBatchKMeans, KMedians, KMedoids
--   kernel        KernelKMeans
--   graph         similarity graphs and graph Laplacians
--   spectral      SpectralClustering, spectral_embedding
--   hierarchical  AgglomerativeClustering, linkage, fcluster, minimum_spanning_tree
--   density       DBSCAN, MeanShift
--   community     modularity, Louvain, the spectral min-cut
--   selection     elbow and silhouette tables over k
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local cluster = {}
local names = {}

for _, part in ipairs{ "kmeans", "kernel", "graph", "spectral", "hierarchical", "density",
                       "community", "selection" } do
  for name, member in pairs(require("luma.cluster." .. part)) do
    assert(cluster[name] == nil, "luma.cluster: two parts define " .. name)
    cluster[name] = member
    names[#names + 1] = name
  end
end
table.sort(names)
-- The functions (graphs, linkage, community detection, selection) share
-- checks that raise with no location: each raises them at its caller's
-- line.  (The classes relay their methods under the estimator contract.)
args.relay_functions(cluster)

luma.doc.set(cluster, { name = "luma.cluster",
  doc = "Clustering (scikit-learn's sklearn.cluster and more): "
    .. table.concat(names, ", ") .. ". Labels are 1-based." })

return cluster
