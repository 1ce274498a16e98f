-- Choosing k for a k-nearest-neighbour classifier by cross-validation
-- (luma.neighbors.KNeighborsClassifier, luma.model_selection.validation_curve;
-- docs/NEIGHBORS.md).
--
-- The digits (1,797 8 x 8 images) with k from 1 to 25: the training
-- accuracy falls as k grows (k = 1 memorizes the training set) while the
-- 5-fold cross-validated accuracy peaks at a small k.  Distance-weighted
-- votes are compared at the chosen k.  Draws the validation curve
-- (knn_validation.png in OUTDIR):
--   build/luma scripts/examples/neighbors_knn.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local ms = luma.model_selection

local X, y = luma.datasets.load("digits")
local ks = { 1, 2, 3, 5, 7, 10, 15, 20, 25 }
local cv = ms.StratifiedKFold{ n_splits = 5, shuffle = true, seed = 0 }
local knn = luma.neighbors.KNeighborsClassifier()
local train, test = ms.validation_curve(knn, X, y, { param_name = "n_neighbors",
  param_range = ks, cv = cv, verbose = 0 })
print("   k  training  cross-validated")
local best = 1
for i, k in ipairs(ks) do
  local tr, te = train:row(i):mean(), test:row(i):mean()
  if te > test:row(best):mean() then best = i end
  print(string.format("%4d  %8.4f  %15.4f", k, tr, te))
end
local k = ks[best]
print(string.format("best k = %d (cross-validated accuracy %.4f)", k, test:row(best):mean()))
local weighted = ms.cross_val_score(luma.neighbors.KNeighborsClassifier{ n_neighbors = k,
  weights = "distance" }, X, y, { cv = cv, verbose = 0 }):mean()
print(string.format("k = %d with distance-weighted votes: %.4f", k, weighted))

if outdir then
  local fig = luma.plot.validation_curve(knn, X, y, { param_name = "n_neighbors",
    param_range = ks, cv = cv, title = "k-NN on the digits: accuracy against k" })
  print("wrote " .. fig:save(outdir .. "/knn_validation.png"))
end
