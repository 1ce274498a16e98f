--- luma.cluster.selection: choosing the number of clusters (docs/CLUSTER.md).
--
-- elbow(X, opts) fits a clusterer for each k and tabulates its inertia
-- (Thorndike, Who belongs in the family?, Psychometrika 1953: look for the
-- bend); silhouette_over_k(X, opts) tabulates the mean silhouette
-- (Rousseeuw, Silhouettes, J. Comput. Appl. Math. 1987: the largest is
-- best) through luma.metrics.silhouette_score.  Both return a luma.Table
-- with one row per k; luma.plot.elbow draws the first.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local dcommon = require("luma.decomposition.common")

local fail = dcommon.fail

-- The options of both functions, checked; the clusterer (a KMeans with
-- opts.seed when none is given) and the list of ks.
local function sweep_options(fname, X, opts, default_ks)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to '%s' (X must be a luma.Matrix, got %s)", fname, type(X))
  end
  opts = opts or {}
  if type(opts) ~= "table" then
    fail("bad argument #2 to '%s' (options table expected, got %s)", fname, type(opts))
  end
  for key in pairs(opts) do
    if key ~= "ks" and key ~= "estimator" and key ~= "param" and key ~= "seed" then
      fail("bad argument #2 to '%s' (unknown option '%s'; valid: ks, estimator, param, seed)",
        fname, tostring(key))
    end
  end
  local est = opts.estimator
  if est == nil then
    est = require("luma.cluster.kmeans").KMeans{ seed = opts.seed or 0 }
  elseif not estimator.is_estimator(est) then
    fail("bad argument #2 to '%s' (estimator must be an estimator)", fname)
  end
  local ks = opts.ks or default_ks
  if type(ks) ~= "table" or #ks == 0 then
    fail("bad argument #2 to '%s' (ks must be a non-empty list of cluster counts)", fname)
  end
  for i, k in ipairs(ks) do
    if math.type(k) ~= "integer" or k < 1 or k > X:rows() then
      fail("bad argument #2 to '%s' (ks[%d] must be an integer in 1..%d, got %s)", fname, i,
        X:rows(), tostring(k))
    end
  end
  return est, ks, opts.param or "n_clusters"
end

-- Fits a clone of est for each k; calls record(i, fitted, labels).
local function sweep(est, param, ks, X, record)
  for i, k in ipairs(ks) do
    local m = est:clone()
    m:set_params{ [param] = k }
    local labels = m:fit_predict(X)
    record(i, m, labels)
  end
end

local function inertia_of(m, X)
  if type(m.inertia) == "number" then return m.inertia end
  return -m:score(X)
end

local function silhouette_of(X, labels)
  local distinct = labels:unique():rows()
  if distinct < 2 or distinct > X:rows() - 1 then return 0 / 0 end
  return luma.metrics.silhouette_score(X, labels)
end

local M = {}

--- elbow(X [, {ks, estimator, param, seed}]) -> Table(k, inertia)
function M.elbow(X, opts)
  local est, ks, param = sweep_options("elbow", X, opts, { 1, 2, 3, 4, 5, 6, 7, 8 })
  local inertia = {}
  sweep(est, param, ks, X, function(i, m) inertia[i] = inertia_of(m, X) end)
  return luma.Table({ k = luma.matrix(ks), inertia = luma.matrix(inertia) },
    { columns = { "k", "inertia" } })
end

--- silhouette_over_k(X [, {ks, estimator, param, seed}]) -> Table(k, silhouette, inertia)
function M.silhouette_over_k(X, opts)
  local est, ks, param = sweep_options("silhouette_over_k", X, opts, { 2, 3, 4, 5, 6, 7, 8 })
  local sil, inertia = {}, {}
  sweep(est, param, ks, X, function(i, m, labels)
    sil[i] = silhouette_of(X, labels)
    inertia[i] = inertia_of(m, X)
  end)
  return luma.Table({ k = luma.matrix(ks), silhouette = luma.matrix(sil),
    inertia = luma.matrix(inertia) }, { columns = { "k", "silhouette", "inertia" } })
end

luma.doc.set(M.elbow, { name = "luma.cluster.elbow",
  signature = "elbow(X [, {ks = {1, ..., 8}, estimator = KMeans{seed = seed}, param = "
    .. "\"n_clusters\", seed = 0}]) -> Table",
  doc = "The elbow method (Thorndike 1953): fits a clone of the clusterer with param = k for "
    .. "each k in ks and records its inertia (minus its score when it has none). Look for "
    .. "the k where the decrease levels off; luma.plot.elbow draws it. Returns a luma.Table "
    .. "with columns k and inertia." })

luma.doc.set(M.silhouette_over_k, { name = "luma.cluster.silhouette_over_k",
  signature = "silhouette_over_k(X [, {ks = {2, ..., 8}, estimator = KMeans{seed = seed}, "
    .. "param = \"n_clusters\", seed = 0}]) -> Table",
  doc = "The mean silhouette (Rousseeuw 1987) of the labels of a clone of the clusterer "
    .. "fitted with param = k, for each k in ks (NaN when the labels have fewer than 2 or "
    .. "more than n - 1 clusters); the largest suggests k. Returns a luma.Table with "
    .. "columns k, silhouette and inertia." })

return M
