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
-- SPDX-License-Identifier: MIT
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

-- ------------------------------------------------ sparse X (Lloyd)

-- Squared distances from the rows of a sparse X (row norms xsq) to the
-- centres C: |x|^2 - 2 x.c + |c|^2 by the threaded sparse product; the
-- labels (the nearest centre, the lowest on ties) and the distances.
local function sparse_assign(X, xsq, C)
  local D = (X * C:t()) * -2 + C:pow(2):sum(2):t() + xsq
  local labels = D:argmin(2)
  return labels, D:min(2):clamp(0, math.huge)
end

-- Lloyd's iterations on a sparse X, step for step as the native kernel
-- runs them on a dense one (src/ml/cluster/kmeans.c): sums and weights of
-- each cluster (X^T Y, Y the weighted one-hot labels), an emptied cluster
-- re-seeded with the rows farthest from their old centres, a stop when no
-- label changes or the summed squared shifts are at most tol, the labels
-- of the final centres.  Returns labels, centres, inertia, iterations.
local function sparse_lloyd(X, C, w, max_iter, tol)
  local n, k = X:rows(), C:rows()
  local xsq = X:pow(2):sum(2)
  local labels, strict, it = nil, false, 0
  while it < max_iter do
    local old = C
    local lab, far = sparse_assign(X, xsq, old)
    local changed = labels == nil or not (lab == labels)
    local Y = luma.zeros(n, k)
    for i = 1, n do Y:set(i, math.tointeger(lab:get(i, 1)), w and w:get(i, 1) or 1) end
    local sums, weights = X:tmatmul(Y):t(), Y:sum(1):t()
    if weights:eq(0):any() and far:max() > 0 then
      far = far:copy()
      for c = 1, k do
        if weights:get(c, 1) == 0 then
          local at = math.tointeger(far:argmax())
          if not (far:get(at, 1) > 0) then break end
          far:set(at, 1, -1)
          local wi = w and w:get(at, 1) or 1
          local row = X:row(at):todense() * wi
          local from = math.tointeger(lab:get(at, 1))
          sums:row(from):subtract(row, sums:row(from))
          sums:row(c):assign(row)
          weights:set(c, 1, wi)
          weights:set(from, 1, weights:get(from, 1) - wi)
        end
      end
    end
    local keep = weights:eq(0)
    C = luma.matrix.where(keep, old, sums:div(luma.matrix.where(keep, 1, weights)))
    local moved = (C - old):pow(2):sum()
    labels = lab
    it = it + 1
    if not changed then
      strict = true
      break
    end
    if moved <= tol then break end
  end
  local dist
  labels, dist = sparse_assign(X, xsq, C)
  local inertia = w and (w:t() * dist):get(1, 1) or dist:sum()
  return labels, C, inertia, it
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
  local sparse = luma.sparse.issparse(X)
  -- centring loses no digits in |x|^2 - 2 x.c + |c|^2 (scikit-learn does
  -- it; not for a sparse X, which would fill in)
  local mean = sparse and luma.zeros(1, d) or X:mean(1)
  local Xc = sparse and X or X - mean
  local var = sparse and X:pow(2):mean(1) - X:mean(1):pow(2) or X:var(1)
  local tol = p.tol * var:mean()
  local rng = estimator.rng(p.seed)
  local runs = luma.ismatrix(p.init) and 1 or p.n_init
  local best
  for _ = 1, runs do
    local init = initial_centers(self, Xc, rng, w, mean)
    local labels, centers, inertia, n_iter
    if sparse then
      labels, centers, inertia, n_iter = sparse_lloyd(Xc, luma.sparse.issparse(init)
        and init:todense() or init, w, p.max_iter, tol)
    else
      labels, centers, inertia, n_iter = native.kmeans_fit(Xc, init,
        { weights = w, algorithm = p.algorithm, max_iter = p.max_iter, tol = tol })
    end
    if not best or (inertia < best.inertia and not same_clustering(labels, best.labels, k)) then
      best = { labels = labels, centers = centers, inertia = inertia, n_iter = n_iter }
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
  if luma.sparse.issparse(X) then
    return (sparse_assign(X, X:pow(2):sum(2), self.cluster_centers))
  end
  return (native.kmeans_assign(X, self.cluster_centers))
end

local function score(self, X, _, sample_weight)
  check_X(self.__class.name, "score", X)
  if sample_weight ~= nil then
    sample_weight = estimator.check_sample_weight(X, sample_weight)
  end
  if luma.sparse.issparse(X) then
    local _, dist = sparse_assign(X, X:pow(2):sum(2), self.cluster_centers)
    return -(sample_weight and (sample_weight:t() * dist):get(1, 1) or dist:sum())
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
    .. "distinct rows than clusters gives a warning and fewer clusters. A sparse X runs "
    .. "Lloyd's iterations (whatever algorithm says) on the threaded sparse products.",
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
  sparse = true,
  fit = kmeans_fit,
  fit_predict = function(self, X, y, sample_weight)
    kmeans_fit(self, X, y, sample_weight)
    return self.labels
  end,
  predict = predict,
  transform = transform,
  score = score,
}

-- ---------------------------------------------------- MiniBatchKMeans

-- Sculley's mini-batch step (Web-scale k-means clustering, WWW 2010, alg.
-- 1, with per-centre learning rate 1 / (the weight the centre has seen)),
-- as scikit-learn's _mini_batch_step: the batch's rows are assigned, each
-- centre moves to the weighted mean of its old position (weighted by its
-- count) and its new rows, then centres whose count is below
-- reassignment_ratio times the largest are moved to random rows of the
-- batch.  Returns the batch's inertia.
local function minibatch_step(self, B, w, reassign, rng)
  local p = self.params
  local _, _, inertia, sums, wsum = native.kmeans_assign(B, self.cluster_centers,
    { weights = w, sums = true })
  local counts = self.counts
  local new_counts = counts + wsum
  local moved = wsum:gt(0)
  local updated = (self.cluster_centers:mul(counts) + sums):div(luma.matrix.maximum(new_counts, 1e-300))
  self.cluster_centers = luma.matrix.where(moved, updated, self.cluster_centers)
  self.counts = new_counts
  if reassign and p.reassignment_ratio > 0 then
    local low = self.counts:lt(p.reassignment_ratio * self.counts:max())
    local idx = luma.matrix.find(low)
    local limit = math.floor(0.5 * B:rows())
    if idx:rows() > 0 and idx:rows() <= B:rows() then
      if idx:rows() > limit then idx = idx:take(self.counts:take(idx):argsort(1):sub(1, limit)) end
      local m = idx:rows()
      if m > 0 then
        local pick = rng:choice(B:rows(), m, { replace = false,
          p = w and (w / w:sum()):flatten() or nil })
        local C = self.cluster_centers:copy()
        local kept = self.counts:select(low:eq(0), 1)
        for r = 1, m do
          local c = math.tointeger(idx:get(r, 1))
          C:row(c):assign(B:row(math.tointeger(pick:get(r, 1))))
          self.counts:set(c, 1, kept:rows() > 0 and kept:min() or 0)
        end
        self.cluster_centers = C
      end
    end
  end
  return inertia
end

-- scikit-learn's _random_reassign: every 10 k rows seen, or while a
-- centre has seen nothing.
local function due_reassign(self, batch)
  self.n_since_reassign = self.n_since_reassign + batch
  if self.counts:eq(0):any() or self.n_since_reassign >= 10 * self.params.n_clusters then
    self.n_since_reassign = 0
    return true
  end
  return false
end

local function minibatch_start(self, X, w, rng)
  local p = self.params
  local n, k = X:rows(), p.n_clusters
  check_init(self, X:cols())
  local init_size = p.init_size or 3 * p.batch_size
  if init_size < k then init_size = 3 * k end
  init_size = math.min(init_size, n)
  local rows = rng:integers(1, n, init_size, 1)
  local Xi = X:take(rows)
  local wi = w and w:take(rows)
  local best, best_inertia
  local runs = luma.ismatrix(p.init) and 1 or p.n_init
  for _ = 1, runs do
    local C = luma.ismatrix(p.init) and p.init:copy() or p.init == "random"
      and Xi:take(rng:permutation(init_size):sub(1, k)) or (plusplus(Xi, k, rng, wi))
    local _, _, inertia = native.kmeans_assign(Xi, C, { weights = wi })
    if not best or inertia < best_inertia then best, best_inertia = C, inertia end
  end
  self.cluster_centers = best
  self.counts = luma.zeros(k, 1)
  self.n_since_reassign = 0
  self.n_steps = 0
end

local function minibatch_fit(self, X, _, sample_weight)
  local p = self.params
  local name = self.__class.name
  local w = estimator.check_sample_weight(X, sample_weight)
  check_X(name, "fit", X)
  local n, k = X:rows(), p.n_clusters
  if n < k then
    fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d rows of X)", name, k, n)
  end
  local rng = estimator.rng(p.seed)
  minibatch_start(self, X, w, rng)
  local batch = math.min(p.batch_size, n)
  local tol = p.tol * X:var(1):mean()
  local steps = (p.max_iter * n) // batch
  local ewa, ewa_min, no_improvement = nil, nil, 0
  local i = 0
  while i < steps do
    i = i + 1
    local rows = rng:integers(1, n, batch, 1)
    local old = self.cluster_centers
    local inertia = minibatch_step(self, X:take(rows), w and w:take(rows),
      due_reassign(self, batch), rng) / batch
    -- scikit-learn's _mini_batch_convergence: an exponentially weighted
    -- average of the batch inertia, stop after max_no_improvement batches
    -- without a new minimum, or when the centres move less than tol
    if i > 1 then
      local alpha = math.min(batch * 2 / (n + 1), 1)
      ewa = ewa and ewa * (1 - alpha) + inertia * alpha or inertia
      if tol > 0 and (self.cluster_centers - old):pow(2):sum() <= tol then break end
      if not ewa_min or ewa < ewa_min then
        ewa_min, no_improvement = ewa, 0
      else
        no_improvement = no_improvement + 1
      end
      if no_improvement >= p.max_no_improvement then break end
    end
  end
  self.n_steps = i
  self.n_iter = math.ceil(i * batch / n)
  if p.compute_labels then
    local labels, _, inertia = native.kmeans_assign(X, self.cluster_centers, { weights = w })
    self.labels, self.inertia = labels, inertia
  end
end

-- partial_fit: one mini-batch step on X (the first call seeds the centres
-- from X); the estimator contract does not wrap it, so it checks for
-- itself and keeps its generator between calls.
local function partial_fit(self, X, _, sample_weight)
  local name = self.__class.name
  if not luma.ismatrix(X) then
    fail("bad argument #1 to 'partial_fit' (X must be a luma.Matrix, got %s)", type(X))
  end
  check_X(name, "partial_fit", X)
  local w = estimator.check_sample_weight(X, sample_weight)
  local k = self.params.n_clusters
  if not self:is_fitted() or not self.counts then
    if X:rows() < k then
      fail("bad argument #1 to 'partial_fit' (%s: the first batch needs at least n_clusters = "
        .. "%d rows, got %d)", name, k, X:rows())
    end
    self.rng = estimator.rng(self.params.seed):copy()
    minibatch_start(self, X, w, self.rng)
    rawset(self, "n_features_in", X:cols())
    rawset(self, "__fitted", true)
  elseif X:cols() ~= self.n_features_in then
    fail("bad argument #1 to 'partial_fit' (X has %d columns but %s was fitted on %d)", X:cols(),
      name, self.n_features_in)
  end
  minibatch_step(self, X, w, due_reassign(self, X:rows()), self.rng)
  self.n_steps = self.n_steps + 1
  if self.params.compute_labels then
    local labels, _, inertia = native.kmeans_assign(X, self.cluster_centers, { weights = w })
    self.labels, self.inertia = labels, inertia
  end
  return self
end

M.MiniBatchKMeans = estimator.class{
  name = "luma.cluster.MiniBatchKMeans",
  kind = "clusterer",
  doc = "Mini-batch k-means (Sculley, Web-scale k-means clustering, WWW 2010), as "
    .. "scikit-learn's MiniBatchKMeans: centres seeded on init_size random rows (the best "
    .. "of n_init seedings), then batches of batch_size random rows, each centre moving to "
    .. "the weighted mean of its old position (weighted by the rows it has seen) and its "
    .. "new rows; centres that see few rows are moved to random rows (reassignment_ratio). "
    .. "Stops after max_iter passes' worth of batches, when the smoothed batch inertia has "
    .. "not improved for max_no_improvement batches, or when the centres move less than "
    .. "tol. partial_fit(X) runs one step on X. Fitted: cluster_centers, counts (weight "
    .. "seen per centre), labels and inertia (compute_labels), n_steps, n_iter.",
  params = {
    { name = "n_clusters", type = "integer", default = 8, min = 1, doc = "number of clusters k" },
    { name = "init", type = "string|matrix", default = "k-means++",
      doc = "\"k-means++\", \"random\" or a k x d matrix of centres" },
    { name = "max_iter", type = "integer", default = 100, min = 1,
      doc = "passes over the data's worth of batches at most" },
    { name = "batch_size", type = "integer", default = 1024, min = 1, doc = "rows per batch" },
    { name = "compute_labels", type = "boolean", default = true,
      doc = "label all rows (and compute the inertia) after fitting" },
    { name = "tol", type = "number", default = 0, min = 0,
      doc = "stop when the squared centre moves of a batch sum to at most tol times the "
        .. "mean column variance (0: off)" },
    { name = "max_no_improvement", type = "integer", default = 10, min = 1,
      doc = "stop after this many batches without a lower smoothed inertia" },
    { name = "init_size", type = "integer", min = 1,
      doc = "rows the seeding sees (nil: 3 batch_size, at least 3 k)" },
    { name = "n_init", type = "integer", default = 3, min = 1,
      doc = "seedings tried on the init rows; the lowest inertia there is kept" },
    { name = "reassignment_ratio", type = "number", default = 0.01, min = 0,
      doc = "centres with fewer than this fraction of the largest count are re-seeded" },
    { name = "seed", type = "seed", doc = "generator of the seeding and the batches" },
  },
  example = function()
    return M.MiniBatchKMeans{ n_clusters = 2, seed = 1, batch_size = 4 }, example_data()
  end,
  method_docs = {
    predict = KMEANS_DOCS.predict, transform = KMEANS_DOCS.transform, score = KMEANS_DOCS.score,
    partial_fit = { signature = "est:partial_fit(X [, y = nil [, sample_weight = nil]]) -> est",
      doc = "One mini-batch step on the rows of X (the first call seeds the centres from X). "
        .. "Returns est." },
  },
  fit = minibatch_fit,
  predict = predict,
  transform = transform,
  score = score,
  partial_fit = partial_fit,
}

-- ------------------------------------------------------------- KMedians

-- k-medians (Bradley, Mangasarian and Street, Clustering via concave
-- minimization, NIPS 1996; notes 000 Ch. 10 as the robust alternative):
-- rows go to the nearest centre in L1 distance, each centre moves to the
-- coordinate-wise median of its rows, which minimizes their summed L1
-- distance; the inertia is sum_i |x_i - c(x_i)|_1.
local function kmedians_run(X, C, max_iter, tol)
  local k = C:rows()
  local labels, n_iter = nil, 0
  for _ = 1, max_iter do
    n_iter = n_iter + 1
    local D = luma.pairwise.distances(X, C, "manhattan")
    local new = D:argmin(2)
    local stable = labels and new:eq(labels):all()
    labels = new
    if stable then break end
    local moved = C:copy()
    local dmin = D:min(2)
    for c = 1, k do
      local mask = labels:eq(c)
      if mask:any() then
        moved:row(c):assign(luma.stats.median(X:select(mask, 1)))
      else -- empty: the row farthest from its centre, as KMeans
        local far = math.tointeger(dmin:argmax())
        moved:row(c):assign(X:row(far))
        dmin:set(far, 1, -1)
      end
    end
    local shift = (moved - C):pow(2):sum()
    C = moved
    if shift <= tol then
      labels = luma.pairwise.distances(X, C, "manhattan"):argmin(2)
      break
    end
  end
  local inertia = (X - C:take(labels)):abs():sum()
  return labels, C, inertia, n_iter
end

M.KMedians = estimator.class{
  name = "luma.cluster.KMedians",
  kind = "clusterer",
  doc = "k-medians (Bradley, Mangasarian and Street, Clustering via concave minimization, "
    .. "NIPS 1996; Hastie, Tibshirani and Friedman, sec. 14.3.10 on robust alternatives): "
    .. "rows go to the nearest centre in L1 (Manhattan) distance and each centre moves to "
    .. "the coordinate-wise median of its rows, minimizing sum_i |x_i - c(x_i)|_1, which "
    .. "outliers pull less than k-means' squares. k-means++ or random seeding, n_init runs "
    .. "keeping the lowest inertia; stops when no label changes or the summed squared "
    .. "centre moves are at most tol times the mean column variance. Fitted: "
    .. "cluster_centers, labels, inertia (summed L1 distances), n_iter.",
  params = {
    { name = "n_clusters", type = "integer", default = 8, min = 1, doc = "number of clusters k" },
    { name = "init", type = "string|matrix", default = "k-means++",
      doc = "\"k-means++\", \"random\" or a k x d matrix of centres (one run)" },
    { name = "n_init", type = "integer", default = 10, min = 1, doc = "runs; the lowest inertia is kept" },
    { name = "max_iter", type = "integer", default = 300, min = 1, doc = "iterations per run" },
    { name = "tol", type = "number", default = 1e-4, min = 0,
      doc = "stop when the summed squared centre moves are at most tol times the mean column variance" },
    { name = "seed", type = "seed", doc = "generator of the seeding" },
  },
  example = function() return M.KMedians{ n_clusters = 2, seed = 1, n_init = 2 }, example_data() end,
  method_docs = {
    predict = { signature = "est:predict(X) -> labels",
      doc = "The nearest centre in L1 distance of each row of X. Returns an n x 1 matrix of "
        .. "labels 1..k." },
    transform = { signature = "est:transform(X) -> matrix",
      doc = "The L1 distances of each row of X to every centre. Returns an n x k matrix." },
    score = { signature = "est:score(X [, y = nil]) -> number",
      doc = "Minus the summed L1 distance of the rows of X to their nearest centres. Returns a "
        .. "number (greater is better)." },
  },
  fit = function(self, X)
    local p = self.params
    check_X(self.__class.name, "fit", X)
    local n, k = X:rows(), p.n_clusters
    if n < k then
      fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d rows of X)",
        self.__class.name, k, n)
    end
    check_init(self, X:cols())
    local tol = p.tol * X:var(1):mean()
    local rng = estimator.rng(p.seed)
    local runs = luma.ismatrix(p.init) and 1 or p.n_init
    for _ = 1, runs do
      local C = initial_centers(self, X, rng, nil, 0)
      local labels, centers, inertia, n_iter = kmedians_run(X, C, p.max_iter, tol)
      if not self.inertia or inertia < self.inertia then
        self.labels, self.cluster_centers, self.inertia, self.n_iter = labels, centers, inertia, n_iter
      end
    end
  end,
  predict = function(self, X)
    check_X(self.__class.name, "predict", X)
    return luma.pairwise.distances(X, self.cluster_centers, "manhattan"):argmin(2)
  end,
  transform = function(self, X)
    check_X(self.__class.name, "transform", X)
    return luma.pairwise.distances(X, self.cluster_centers, "manhattan")
  end,
  score = function(self, X)
    check_X(self.__class.name, "score", X)
    return -luma.pairwise.distances(X, self.cluster_centers, "manhattan"):min(2):sum()
  end,
}

-- ------------------------------------------------------------- KMedoids

local PAIRWISE_METRICS = { "euclidean", "sqeuclidean", "manhattan", "chebyshev", "cosine",
  "precomputed" }

-- The dissimilarities of the rows of X to the rows of Y under the
-- estimator's metric (X itself when precomputed).
local function dissimilarities(self, X, Y)
  local metric = self.params.metric
  if metric == "precomputed" then return X end
  return luma.pairwise.distances(X, Y, metric)
end

local function kmedoids_fit(self, X)
  local p = self.params
  local name = self.__class.name
  check_X(name, "fit", X)
  local n, k = X:rows(), p.n_clusters
  if n < k then
    fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d rows of X)", name, k, n)
  end
  local D
  if p.metric == "precomputed" then
    if X:cols() ~= n then
      fail("bad argument #1 to 'fit' (%s: a precomputed dissimilarity matrix must be square, "
        .. "got %d x %d)", name, n, X:cols())
    end
    if X:min() < 0 then fail("bad argument #1 to 'fit' (%s: dissimilarities must be >= 0)", name) end
    if not X:allclose(X:t(), 1e-10, 1e-12) then
      fail("bad argument #1 to 'fit' (%s: the precomputed dissimilarity matrix is not symmetric)", name)
    end
    D = X
  else
    D = luma.pairwise.distances(X, nil, p.metric)
  end
  local start
  if p.init == "random" then
    start = estimator.rng(p.seed):permutation(n):sub(1, k)
  elseif p.init == "k-medoids++" then
    -- k-means++ seeding on the dissimilarities: D(x)^2 weights
    local rng = estimator.rng(p.seed)
    local first = rng:integers(1, n)
    local idx = { first }
    local closest = D:col(first):pow(2)
    for c = 2, k do
      local cum = closest:cumsum(1)
      local r = rng:uniform() * cum:get(n, 1)
      idx[c] = math.min(math.tointeger(cum:lt(r):sum()) + 1, n)
      closest = luma.matrix.minimum(closest, D:col(idx[c]):pow(2))
    end
    start = luma.matrix(idx)
  end
  local medoids, labels, total, n_iter = native.kmedoids(D, k,
    { medoids = start, max_iter = p.max_iter })
  self.medoid_indices = medoids
  self.labels = labels
  self.inertia = total
  self.n_iter = n_iter
  if p.metric ~= "precomputed" then self.cluster_centers = X:take(medoids) end
end

local function medoid_distances(self, method, X)
  check_X(self.__class.name, method, X)
  -- precomputed: X holds dissimilarities to the fitted rows (the
  -- contract has checked its width)
  if self.params.metric == "precomputed" then return X:take(self.medoid_indices, 2) end
  return dissimilarities(self, X, self.cluster_centers)
end

M.KMedoids = estimator.class{
  name = "luma.cluster.KMedoids",
  kind = "clusterer",
  doc = "k-medoids by PAM (Kaufman and Rousseeuw, Finding Groups in Data, 1990, ch. 2): "
    .. "the centres are rows of X (medoids) minimizing the summed dissimilarity of every "
    .. "row to its nearest medoid, for any luma.pairwise metric or a precomputed "
    .. "dissimilarity matrix. BUILD picks medoids greedily, SWAP exchanges a medoid and a "
    .. "non-medoid while that lowers the total (evaluated as FastPAM1, Schubert and "
    .. "Rousseeuw 2019). Fitted: medoid_indices (k x 1 row numbers), cluster_centers (the "
    .. "medoid rows; not for precomputed), labels, inertia (summed dissimilarities), n_iter "
    .. "(swaps made).",
  params = {
    { name = "n_clusters", type = "integer", default = 8, min = 1, doc = "number of clusters k" },
    { name = "metric", type = "string", default = "euclidean", values = PAIRWISE_METRICS,
      doc = "a luma.pairwise metric, or \"precomputed\" (X is the n x n dissimilarity matrix)" },
    { name = "init", type = "string", default = "build", values = { "build", "k-medoids++", "random" },
      doc = "PAM's BUILD, k-means++-style seeding, or k random rows" },
    { name = "max_iter", type = "integer", default = 300, min = 0, doc = "swaps at most" },
    { name = "seed", type = "seed", doc = "generator of the random seedings" },
  },
  example = function() return M.KMedoids{ n_clusters = 2 }, example_data() end,
  method_docs = {
    predict = { signature = "est:predict(X) -> labels",
      doc = "The nearest medoid of each row of X (precomputed: X is n_test x n_fit "
        .. "dissimilarities to the fitted rows). Returns an n x 1 matrix of labels 1..k." },
    transform = { signature = "est:transform(X) -> matrix",
      doc = "The dissimilarities of each row of X to the medoids. Returns an n x k matrix." },
    score = { signature = "est:score(X [, y = nil]) -> number",
      doc = "Minus the summed dissimilarity of the rows of X to their nearest medoids. "
        .. "Returns a number (greater is better)." },
  },
  fit = kmedoids_fit,
  predict = function(self, X) return medoid_distances(self, "predict", X):argmin(2) end,
  transform = function(self, X) return medoid_distances(self, "transform", X) end,
  score = function(self, X) return -medoid_distances(self, "score", X):min(2):sum() end,
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
  MiniBatchKMeans = M.MiniBatchKMeans,
  KMedians = M.KMedians,
  KMedoids = M.KMedoids,
  kmeans_plusplus = M.kmeans_plusplus,
}
