-- Principal component analysis of the wine data (luma.decomposition.PCA;
-- docs/DECOMPOSITION.md).
--
-- 178 wines, 13 chemical measurements on very different scales, three
-- cultivars.  PCA of the standardized columns: the variance each component
-- explains, how many components keep 90% of it, the loadings of the first
-- component, and a 1-nearest-neighbour classifier's cross-validated
-- accuracy on 2 components against all 13 columns.  Draws the explained
-- variance and the wines in the first two components (pca_wine.png in
-- OUTDIR):
--   build/luma scripts/examples/pca_decomposition.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]

local X, y, info = luma.datasets.load("wine")
local Z = luma.preprocessing.StandardScaler():fit_transform(X)
local pca = luma.decomposition.PCA():fit(Z)
local ratio = pca.explained_variance_ratio
local cumulative, keep = 0, nil
print("component  explained variance  cumulative")
for k = 1, 6 do
  cumulative = cumulative + ratio:get(k, 1)
  print(string.format("%9d  %18.3f  %10.3f", k, ratio:get(k, 1), cumulative))
end
cumulative = 0
for k = 1, ratio:rows() do
  cumulative = cumulative + ratio:get(k, 1)
  if cumulative >= 0.9 then keep = k break end
end
print(string.format("%d of 13 components keep 90%% of the variance", keep))

-- the three largest loadings of the first component
local order = {}
for j = 1, 13 do order[j] = j end
local first = pca.components:row(1)
table.sort(order, function(a, b) return math.abs(first:get(1, a)) > math.abs(first:get(1, b)) end)
for r = 1, 3 do
  local j = order[r]
  print(string.format("component 1 loading %-28s %+.3f", info.feature_names[j], first:get(1, j)))
end

local knn = luma.neighbors.KNeighborsClassifier{ n_neighbors = 1 }
local cv = luma.model_selection.StratifiedKFold{ n_splits = 5, shuffle = true, seed = 0 }
local pipe2 = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler(),
  luma.decomposition.PCA{ n_components = 2 }, knn:clone())
local pipe13 = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler(), knn:clone())
print(string.format("1-NN accuracy (5-fold): 2 components %.3f, all 13 columns %.3f",
  luma.model_selection.cross_val_score(pipe2, X, y, { cv = cv }):mean(),
  luma.model_selection.cross_val_score(pipe13, X, y, { cv = cv }):mean()))

if outdir then
  local fig = luma.plot.figure{ cols = 2, width = 1000, height = 440,
    title = "PCA of the standardized wine data" }
  local ks = luma.arange(13)
  fig:axes(1, 1):bar(ks, ratio, { label = "per component" })
  fig:axes(1, 1):set{ xlabel = "component", ylabel = "explained variance ratio" }
  local P = pca:transform(Z)
  local names = {}
  for i = 1, y:rows() do names[i] = info.target_names[y:get(i, 1) + 1] end
  fig:axes(1, 2):scatter(P:col(1), P:col(2), { labels = names, size = 5 })
  fig:axes(1, 2):set{ xlabel = "component 1", ylabel = "component 2" }
  print("wrote " .. fig:save(outdir .. "/pca_wine.png"))
end
