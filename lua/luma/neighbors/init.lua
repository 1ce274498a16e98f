--- luma.neighbors: nearest-neighbour searches and models (notes 000 Ch. 5,
-- 001 §G and §K), with scikit-learn's names.
--
-- The parts: indexes (luma.neighbors.index, KDTree, BallTree and their
-- persistence), nearest_neighbors (NearestNeighbors, kneighbors_graph,
-- radius_neighbors_graph), classification (KNeighborsClassifier,
-- RadiusNeighborsClassifier), regression (KNeighborsRegressor,
-- RadiusNeighborsRegressor), kernel_knn (KernelKNeighborsClassifier and
-- Regressor) and multilabel (MultiLabelKNeighbors); common holds what they
-- share.  The index structures are native (luma.neighbors.native,
-- src/ml/neighbors); docs/NEIGHBORS.md describes them.  This file merges
-- the parts into one table.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local neighbors = {}
local names = {}
for _, part in ipairs({ "luma.neighbors.indexes", "luma.neighbors.nearest_neighbors",
                        "luma.neighbors.classification", "luma.neighbors.regression",
                        "luma.neighbors.kernel_knn", "luma.neighbors.multilabel" }) do
  for name, value in pairs(require(part)) do
    if name ~= "is_index" then
      neighbors[name] = value
      names[#names + 1] = name
    end
  end
end
table.sort(names)
-- The functions (kneighbors_graph, radius_neighbors_graph, index) raise
-- their checks with no location: at their caller's line here.
args.relay_functions(neighbors)

luma.doc.set(neighbors, { name = "luma.neighbors",
  doc = "Nearest neighbours: " .. table.concat(names, ", ") .. ". Indexes: brute force "
    .. "through BLAS, KD-tree, ball tree, Orchard, AESA and linear AESA, all returning the "
    .. "same neighbours; see docs/NEIGHBORS.md." })

return neighbors
