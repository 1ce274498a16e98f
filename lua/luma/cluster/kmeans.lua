--- luma.cluster.kmeans: KMeans and kmeans_plusplus (docs/CLUSTER.md).
--
-- k-means (notes 002 §1.12 U4–U7, 001 §G "k-means / Lloyd's algorithm",
-- 000 Ch. 10): assign each row to its nearest centre, move each centre to
-- the (weighted) mean of its rows, repeat.  The iterations run in C
-- (src/ml/cluster/kmeans.c): Lloyd's with BLAS products per block of
-- rows, or Elkan's with triangle-inequality bounds; both as scikit-learn
-- 1.2.1 does them, including the stopping rule.
--
-- Stopping: the notes (002 U6) stop when sum_k |mu_k^(j+1) - mu_k^(j)| <
-- tau, a sum of Euclidean norms with an absolute tau.  We follow
-- scikit-learn instead, so that results match it: stop when no label
-- changes, or when sum_k |mu_k^(j+1) - mu_k^(j)|^2 <= tol * (the mean of
-- the columns' variances of X), a relative tolerance that does not depend
-- on the data's scale.  docs/CLUSTER.md states the mapping.
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.cluster.native")
local dcommon = require("luma.decomposition.common")

local M = {}

local fail = dcommon.fail

-- X for fit / predict: finite (an error names the first NaN or infinity).
local check_X = dcommon.check_finite

-- ---------------------------------------------------------- k-means++

-- sample_weight-weighted k-means++ (Arthur and Vassilvitskii 2007), the
-- greedy variant of scikit-learn's _kmeans_plusplus: 2 + floor(ln k)
-- candidates per centre drawn with probability proportional to w_i D(x_i)^2,
-- the one that lowers the potential sum_i w_i D(x_i)^2 most is kept.
-- Returns the k x d centres and their row numbers (a table).
local function plusplus(X, k, rng, w)
  local n = X:rows()
  local trials = 2 + math.floor(math.log(k))
  local first
  if w then
    local cum = w:cumsum(1)
    first = math.min(math.tointeger(cum:lt(rng:uniform() * cum:get(n, 1)):sum()) + 1, n)
  else
    first = rng:integers(1, n)
  end
  local indices = { first }
  local closest = luma.pairwise.distances(X, X:row(first), "sqeuclidean") -- n x 1
  local function potential(D) -- 1 x m: sum_i w_i D_ij
    return w and w:t() * D or D:sum(1)
  end
  local pot = potential(closest):get(1, 1)
  for c = 2, k do
    local cum = (w and closest:mul(w) or closest):cumsum(1)
    local candidates = {}
    for t = 1, trials do
      -- numpy's searchsorted: the first row whose cumulated value reaches
      -- the draw, clipped to the last row
      local r = rng:uniform() * pot
      candidates[t] = math.min(math.tointeger(cum:lt(r):sum()) + 1, n)
    end
    local D = luma.matrix.minimum(luma.pairwise.distances(X, X:take(candidates), "sqeuclidean"),
      closest) -- n x trials
    local pots = potential(D)
    local best = math.tointeger(pots:argmin())
    pot = pots:get(1, best)
    closest = D:col(best):copy()
    indices[c] = candidates[best]
  end
  return X:take(indices), indices
end

--- kmeans_plusplus(X, n_clusters [, {seed, sample_weight}]) -> centers, indices
function M.kmeans_plusplus(X, k, opts)
  opts = opts or {}
  if not luma.ismatrix(X) then
    fail("bad argument #1 to 'kmeans_plusplus' (X must be a luma.Matrix, got %s)", type(X))
  end
  if math.type(k) ~= "integer" or k < 1 or k > X:rows() then
    fail("bad argument #2 to 'kmeans_plusplus' (n_clusters must be an integer in 1..%d, got %s)",
      X:rows(), tostring(k))
  end
  for key in pairs(opts) do
    if key ~= "seed" and key ~= "sample_weight" then
      fail("bad argument #3 to 'kmeans_plusplus' (unknown option '%s'; valid: seed, "
        .. "sample_weight)", tostring(key))
    end
  end
  check_X("luma.cluster.kmeans_plusplus", "kmeans_plusplus", X)
  local centers, indices = plusplus(X, k, estimator.rng(opts.seed), opts.sample_weight)
  return centers, luma.matrix(indices)
end

-- -------------------------------------------------------------- KMeans

-- Whether labels a and b give the same partition up to renumbering
-- (scikit-learn's _is_same_clustering: a maps to b as a function).
local function same_clustering(a, b, k)
  local pairs_ = (a - 1) * k + b
  return pairs_:unique():rows() == a:unique():rows()
end

-- The initial centres of one run (X centred, mean its removed mean).
local function initial_centers(self, X, rng, w, mean)
  local p = self.params
  local k = p.n_clusters
  if luma.ismatrix(p.init) then return p.init - mean end
  if p.init == "random" then
    return X:take(rng:permutation(X:rows()):sub(1, k))
  end
  return (plusplus(X, k, rng, w))
end

local function check_init(self, d)
  local init, k = self.params.init, self.params.n_clusters
  if not luma.ismatrix(init) then return end
  if init:rows() ~= k or init:cols() ~= d then
    fail("%s: init must be a %d x %d matrix (n_clusters x n_features), got %d x %d",
      self.__class.name, k, d, init:rows(), init:cols())
  end
  if not init:isfinite():all() then fail("%s: init has a non-finite element", self.__class.name) end
end

-- The number of distinct labels.
local function distinct(labels)
  return labels:unique():rows()
end

local function kmeans_fit(self, X, _, sample_weight)
  local p = self.params
  local name = self.__class.name
  local w = estimator.check_sample_weight(X, sample_weight)
  check_X(name, "fit", X)
  local n, d, k = X:rows(), X:cols(), p.n_clusters
  if n < k then
    fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d rows of X)", name,
      k, n)
  end
  check_init(self, d)
  -- centring loses no digits in |x|^2 - 2 x.c + |c|^2 (scikit-learn does it)
  local mean = X:mean(1)
  local Xc = X - mean
  local tol = p.tol * X:var(1):mean()
  local rng = estimator.rng(p.seed)
  local runs = luma.ismatrix(p.init) and 1 or p.n_init
  local best
  for _ = 1, runs do
    local init = initial_centers(self, Xc, rng, w, mean)
    local labels, centers, inertia, n_iter, _, relocated = native.kmeans_fit(Xc, init,
      { weights = w, algorithm = p.algorithm, max_iter = p.max_iter, tol = tol })
    if not best or (inertia < best.inertia and not same_clustering(labels, best.labels, k)) then
      best = { labels = labels, centers = centers, inertia = inertia, n_iter = n_iter,
               relocated = relocated }
    end
  end
  self.labels = best.labels
  self.cluster_centers = best.centers + mean
  self.inertia = best.inertia
  self.n_iter = best.n_iter
  local found = distinct(best.labels)
  if found < k then
    warn(string.format("%s: only %d distinct clusters found for n_clusters = %d (X has fewer "
      .. "distinct rows than clusters?)", name, found, k))
  end
end

local function predict(self, X)
  check_X(self.__class.name, "predict", X)
  return (native.kmeans_assign(X, self.cluster_centers))
end

local function score(self, X, _, sample_weight)
  check_X(self.__class.name, "score", X)
  if sample_weight ~= nil then
    sample_weight = estimator.check_sample_weight(X, sample_weight)
  end
  local _, _, inertia = native.kmeans_assign(X, self.cluster_centers, { weights = sample_weight })
  return -inertia
end

local function transform(self, X)
  check_X(self.__class.name, "transform", X)
  return luma.pairwise.distances(X, self.cluster_centers, "euclidean")
end

-- Example data for the save/load walk: two groups of three points.
local function example_data()
  return luma.matrix{ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 9, 9 }, { 9, 10 }, { 10, 9 } }
end

local KMEANS_DOCS = {
  predict = { signature = "est:predict(X) -> labels",
    doc = "The nearest cluster centre of each row of X (Voronoi cells; ties go to the lower "
      .. "number). Returns an n x 1 matrix of labels 1..k." },
  fit_predict = { signature = "est:fit_predict(X [, y = nil [, sample_weight = nil]]) -> labels",
    doc = "Fits to X and returns the labels of its rows (est.labels). Returns an n x 1 matrix." },
  transform = { signature = "est:transform(X) -> matrix",
    doc = "The Euclidean distances of each row of X to every cluster centre. Returns an n x k "
      .. "matrix." },
  score = { signature = "est:score(X [, y = nil [, sample_weight = nil]]) -> number",
    doc = "Minus the inertia of X: -sum_i w_i |x_i - c(x_i)|^2 with c(x_i) the nearest "
      .. "centre (greater is better). Returns a number." },
}

M.KMeans = estimator.class{
  name = "luma.cluster.KMeans",
  kind = "clusterer",
  doc = "k-means clustering (Lloyd, Least squares quantization in PCM, 1982; Hastie, "
    .. "Tibshirani and Friedman, The Elements of Statistical Learning, sec. 14.3.6), as "
    .. "scikit-learn's KMeans: Lloyd's iterations or Elkan's triangle-inequality "
    .. "acceleration (Elkan 2003), k-means++ seeding (Arthur and Vassilvitskii 2007), "
    .. "n_init restarts keeping the lowest inertia, sample weights (fit's third argument). "
    .. "Stops when no label changes or the summed squared centre shifts are at most tol "
    .. "times the mean variance of X's columns. Fitted: cluster_centers (k x d), labels "
    .. "(n x 1, 1..k), inertia (weighted sum of squared distances to the centres), n_iter. "
    .. "A cluster that empties is re-seeded with the row farthest from its centre; fewer "
    .. "distinct rows than clusters gives a warning and fewer clusters.",
  params = {
    { name = "n_clusters", type = "integer", default = 8, min = 1, doc = "number of clusters k" },
    { name = "init", type = "string|matrix", default = "k-means++",
      doc = "\"k-means++\", \"random\" (k distinct rows) or a k x d matrix of centres (one run)" },
    { name = "n_init", type = "integer", default = 10, min = 1,
      doc = "runs from different seeds; the one of lowest inertia is kept" },
    { name = "max_iter", type = "integer", default = 300, min = 1, doc = "iterations per run" },
    { name = "tol", type = "number", default = 1e-4, min = 0,
      doc = "stop when the summed squared centre shifts are at most tol times the mean "
        .. "column variance of X" },
    { name = "algorithm", type = "string", default = "lloyd", values = { "lloyd", "elkan" },
      doc = "Lloyd's iterations, or Elkan's (same result, fewer distances)" },
    { name = "seed", type = "seed", doc = "generator of the seeding (integer or Generator)" },
  },
  example = function() return M.KMeans{ n_clusters = 2, seed = 1, n_init = 2 }, example_data() end,
  method_docs = KMEANS_DOCS,
  fit = kmeans_fit,
  fit_predict = function(self, X, y, sample_weight)
    kmeans_fit(self, X, y, sample_weight)
    return self.labels
  end,
  predict = predict,
  transform = transform,
  score = score,
}

luma.doc.set(M.kmeans_plusplus, { name = "luma.cluster.kmeans_plusplus",
  signature = "kmeans_plusplus(X, n_clusters [, {seed = nil, sample_weight = nil}]) -> "
    .. "centers, indices",
  doc = "k-means++ seeding (Arthur and Vassilvitskii, k-means++: the advantages of careful "
    .. "seeding, 2007), scikit-learn's greedy variant: 2 + floor(ln k) candidates per centre "
    .. "drawn with probability proportional to w_i D(x_i)^2, keeping the one that lowers "
    .. "sum_i w_i D(x_i)^2 most. Returns the k x d centres and their row numbers (k x 1)." })

return {
  KMeans = M.KMeans,
  kmeans_plusplus = M.kmeans_plusplus,
}
