--- luma.cluster.density: DBSCAN, MeanShift and estimate_bandwidth
-- (docs/CLUSTER.md), as scikit-learn 1.2.1 has them.
--
-- Both search neighbourhoods through a luma.neighbors index (radius
-- queries, inclusive).  DBSCAN's expansion of core points runs in C
-- (luma.cluster.native.dbscan); MeanShift moves all unconverged seeds one
-- step per batch of radius queries and averages their neighbours with
-- luma.neighbors.native.average.  Labels are 1-based; noise (DBSCAN) and
-- orphans (MeanShift with cluster_all = false) get label 0.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.cluster.native")
local nnative = require("luma.neighbors.native")
local ncommon = require("luma.neighbors.common")
local dcommon = require("luma.decomposition.common")
local gcommon = require("luma.cluster.graph_common")

local fail = dcommon.fail

local M = {}

-- Radius neighbourhoods of the rows of Q among the rows of X (flat
-- columns and counts, each row of X its own neighbour when Q is X).
local function radius_query(name, p, X, Q, r)
  local index = ncommon.build(name, p, X, "fit")
  local ok, dist, ind, counts = pcall(index.query_radius, index, Q, r)
  if not ok then fail("%s: %s", name, tostring(dist)) end
  return dist, ind, counts
end

-- ------------------------------------------------------------------ DBSCAN

local DBSCAN_NAME = "DBSCAN"

-- The eps-neighbourhoods of a precomputed distance matrix, as flat columns.
local function precomputed_neighbourhoods(D, eps)
  local n = D:rows()
  if D:cols() ~= n then
    fail("bad argument #1 to 'fit' (%s: a precomputed distance matrix must be square, got %d x %d)",
      DBSCAN_NAME, n, D:cols())
  end
  if (D - D:t()):abs():max() > 1e-10 * math.max(1, D:abs():max()) then
    fail("bad argument #1 to 'fit' (%s: the precomputed distance matrix is not symmetric)",
      DBSCAN_NAME)
  end
  if D:lt(0):any() then
    fail("bad argument #1 to 'fit' (%s: distances must be >= 0)", DBSCAN_NAME)
  end
  local within = D:le(eps)
  local counts = within:sum(2)
  local ind = luma.matrix.find(within) -- row-major positions of the neighbours
  ind = ind - ((ind - 1) / n):floor() * n
  return ind, counts
end

local function dbscan_fit(self, X, _, sample_weight)
  local p = self.params
  dcommon.check_finite(DBSCAN_NAME, "fit", X)
  sample_weight = estimator.check_sample_weight(X, sample_weight)
  local ind, counts
  if p.metric == "precomputed" then
    ind, counts = precomputed_neighbourhoods(X, p.eps)
  else
    _, ind, counts = radius_query(DBSCAN_NAME, p, X, X, p.eps)
  end
  local labels, core = native.dbscan(ind, counts, p.min_samples, sample_weight)
  self.labels = labels
  self.core_sample_indices = core
  self.components = p.metric == "precomputed" and luma.zeros(core:rows(), 0) or X:take(core)
end

M.DBSCAN = estimator.class{
  name = "luma.cluster.DBSCAN",
  kind = "clusterer",
  doc = "Density-based clustering (Ester, Kriegel, Sander and Xu, A density-based algorithm "
    .. "for discovering clusters in large spatial databases with noise, KDD 1996), as "
    .. "scikit-learn's DBSCAN: a core point has at least min_samples points (itself included; "
    .. "their sample weights summed when given to fit) within eps; clusters are the core points "
    .. "joined through each other's neighbourhoods plus the points those reach. Labels: 1..k in "
    .. "the order of each cluster's first core point, 0 for noise (scikit-learn's -1). "
    .. "Neighbourhoods come from a luma.neighbors index (metric and algorithm as "
    .. "NearestNeighbors), or from an n x n distance matrix with metric = \"precomputed\". "
    .. "Fitted: labels (n x 1), core_sample_indices (1-based), components (the core rows).",
  params = ncommon.with({
    { name = "eps", type = "number", default = 0.5, gt = 0,
      doc = "radius of a neighbourhood (inclusive)" },
    { name = "min_samples", type = "number", default = 5, gt = 0,
      doc = "points (or total sample weight) within eps, the point itself included, that "
        .. "make a core point" },
  }, ncommon.index_params()),
  example = function()
    return M.DBSCAN{ eps = 0.5, min_samples = 2 }, (ncommon.example_data())
  end,
  method_docs = {
    fit = { signature = "est:fit(X [, y = nil [, sample_weight = nil]]) -> est",
      doc = "Clusters the rows of X (or a precomputed distance matrix); sample_weight (n x 1) "
        .. "weighs each point in the core counts. Returns the estimator." },
    fit_predict = { signature = "est:fit_predict(X [, y = nil [, sample_weight = nil]]) -> labels",
      doc = "Fits to X and returns est.labels (n x 1; 0 is noise)." },
  },
  fit = dbscan_fit,
  fit_predict = function(self, X, y, sample_weight)
    dbscan_fit(self, X, y, sample_weight)
    return self.labels
  end,
}

-- --------------------------------------------------------------- MeanShift

local MS_NAME = "MeanShift"

--- M.estimate_bandwidth(X [, opts]) -> bandwidth: scikit-learn's rule,
-- the mean over rows of the distance to their k-th nearest row (the row
-- itself counted first), k = max(1, floor(n quantile)).
function M.estimate_bandwidth(X, opts)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to 'estimate_bandwidth' (X must be a luma.Matrix, got %s)", type(X))
  end
  opts = gcommon.check_options("estimate_bandwidth", opts,
    { quantile = true, n_samples = true, seed = true }, 2)
  local quantile = opts.quantile or 0.3
  if type(quantile) ~= "number" or not (quantile >= 0 and quantile <= 1) then
    fail("bad argument #2 to 'estimate_bandwidth' (quantile must be in [0, 1], got %s)",
      tostring(quantile))
  end
  dcommon.check_finite("estimate_bandwidth", "estimate_bandwidth", X)
  if X:rows() == 0 or X:cols() == 0 then
    fail("bad argument #1 to 'estimate_bandwidth' (X is %d x %d; it needs rows and columns)",
      X:rows(), X:cols())
  end
  local Q = X -- the rows searched and averaged over: all, or a sample
  if opts.n_samples ~= nil then
    local m = opts.n_samples
    if math.type(m) ~= "integer" or m < 1 or m > X:rows() then
      fail("bad argument #2 to 'estimate_bandwidth' (n_samples must be an integer in 1..%d, got %s)",
        X:rows(), tostring(m))
    end
    Q = X:take(estimator.rng(opts.seed or 0):permutation(X:rows()):sub(1, m, nil, nil))
  end
  local k = math.max(1, math.floor(Q:rows() * quantile))
  local index = luma.neighbors.index(Q, { k = k })
  local dist = index:query(Q, k)
  return dist:sub(nil, nil, k, k):mean()
end

-- numpy's round: halves to even.
local function round_even(v)
  local r = math.floor(v + 0.5)
  if r - v == 0.5 and r % 2 ~= 0 then r = r - 1 end
  return r
end

-- scikit-learn's get_bin_seeds: the points rounded to a grid of bin_size,
-- the cells holding at least min_bin_freq points, in order of first
-- occurrence, scaled back (X itself, with a warning, when every point has
-- its own cell).
local function bin_seeds(X, bin_size, min_bin_freq)
  local rows = X:totable()
  local freq, order = {}, {}
  for _, row in ipairs(rows) do
    local cell = {}
    for j, v in ipairs(row) do cell[j] = round_even(v / bin_size) end
    local key = table.concat(cell, ",")
    if not freq[key] then
      freq[key] = 0
      order[#order + 1] = { key = key, cell = cell }
    end
    freq[key] = freq[key] + 1
  end
  local seeds = {}
  for _, c in ipairs(order) do
    if freq[c.key] >= min_bin_freq then seeds[#seeds + 1] = c.cell end
  end
  if #seeds == #rows then
    dcommon.warning("luma.cluster", "%s: binning data failed with bin_size = %s, using the data "
      .. "points as seeds", MS_NAME, tostring(bin_size))
    return X
  end
  if #seeds == 0 then return luma.zeros(0, X:cols()) end
  return luma.matrix(seeds) * bin_size
end

-- Lexicographic "a > b" of two rows (Lua arrays).
local function row_greater(a, b)
  for j = 1, #a do
    if a[j] ~= b[j] then return a[j] > b[j] end
  end
  return false
end

local function meanshift_fit(self, X)
  local p = self.params
  dcommon.check_finite(MS_NAME, "fit", X)
  local n, d = X:shape()
  local bw = p.bandwidth or M.estimate_bandwidth(X)
  if not (bw > 0) then
    fail("%s: the estimated bandwidth is %s (the points coincide); give bandwidth > 0", MS_NAME,
      tostring(bw))
  end
  local seeds
  if p.seeds ~= nil then
    if p.seeds:cols() ~= d then
      fail("%s: seeds have %d columns but X has %d", MS_NAME, p.seeds:cols(), d)
    end
    seeds = p.seeds
  elseif p.bin_seeding then
    seeds = bin_seeds(X, bw, p.min_bin_freq)
  else
    seeds = X
  end
  -- Every seed climbs until it moves by at most 1e-3 bandwidth, or after
  -- max_iter steps, or when no point lies within the bandwidth (then it
  -- stops where it is); all climbing seeds step together.
  local index = luma.neighbors.index(X)
  local m = seeds:rows()
  local means = seeds:copy()
  local sizes, iters, active = {}, {}, {}
  for s = 1, m do sizes[s], iters[s], active[s] = 0, 0, s end
  local stop = 1e-3 * bw
  while #active > 0 do
    local Q = means:take(active)
    local _, ind, counts = index:query_radius(Q, bw)
    local new = nnative.average(ind, X, nil, counts)
    local still = {}
    for q, s in ipairs(active) do
      local c = math.tointeger(counts:get(q, 1))
      sizes[s] = c
      if c > 0 then
        local row = new:row(q)
        local shift = (row - means:row(s)):pow(2):sum()
        means:row(s):assign(row)
        if math.sqrt(shift) > stop and iters[s] < p.max_iter then
          iters[s] = iters[s] + 1
          still[#still + 1] = s
        end
      end
    end
    active = still
  end
  -- The converged means with points, one per distinct position (the later
  -- seed's count kept, as a dictionary keyed by position keeps it), by
  -- count then position, both descending.
  local byposition, centers = {}, {}
  local mt = means:totable()
  for s = 1, m do
    if sizes[s] > 0 then
      local parts = {}
      for j, v in ipairs(mt[s]) do parts[j] = string.format("%a", v) end
      local key = table.concat(parts, ",")
      if byposition[key] then
        byposition[key].size = sizes[s]
      else
        byposition[key] = { row = mt[s], size = sizes[s] }
        centers[#centers + 1] = byposition[key]
      end
    end
  end
  if #centers == 0 then
    fail("%s: no point was within bandwidth = %s of any seed; try another seeding or a larger "
      .. "bandwidth", MS_NAME, tostring(bw))
  end
  table.sort(centers, function(a, b)
    if a.size ~= b.size then return a.size > b.size end
    return row_greater(a.row, b.row)
  end)
  -- Keep a centre unless a kept one lies within the bandwidth.
  local rows = {}
  for i, c in ipairs(centers) do rows[i] = c.row end
  local sorted = luma.matrix(rows)
  local _, near, ncount = luma.neighbors.index(sorted):query_radius(sorted, bw)
  local unique, start = {}, 1
  for i = 1, #rows do unique[i] = true end
  for i = 1, #rows do
    local c = math.tointeger(ncount:get(i, 1))
    if unique[i] then
      for e = start, start + c - 1 do unique[math.tointeger(near:get(e, 1))] = false end
      unique[i] = true
    end
    start = start + c
  end
  local keep = {}
  for i = 1, #rows do
    if unique[i] then keep[#keep + 1] = i end
  end
  self.cluster_centers = sorted:take(keep)
  local dist, idx = luma.neighbors.index(self.cluster_centers):query(X, 1)
  if p.cluster_all then
    self.labels = idx
  else
    self.labels = luma.matrix.where(dist:le(bw), idx, 0)
  end
  self.bandwidth = bw
  local most = 0
  for s = 1, m do most = math.max(most, iters[s]) end
  self.n_iter = most
  return self
end

M.MeanShift = estimator.class{
  name = "luma.cluster.MeanShift",
  kind = "clusterer",
  doc = "Mean-shift clustering with a flat kernel (Fukunaga and Hostetler 1975; Comaniciu "
    .. "and Meer, Mean shift: a robust approach toward feature space analysis, IEEE PAMI "
    .. "2002), as scikit-learn's MeanShift: each seed moves to the mean of the points within "
    .. "bandwidth until it moves by at most 1e-3 bandwidth; the converged positions, by number "
    .. "of points, become centres unless a stronger centre lies within the bandwidth; points "
    .. "take the nearest centre. Fitted: cluster_centers (k x d), labels (n x 1, 1..k; 0 for "
    .. "points farther than bandwidth from every centre when cluster_all is false), "
    .. "bandwidth (the one used), n_iter (the most steps of a seed).",
  params = {
    { name = "bandwidth", type = "number", gt = 0,
      doc = "kernel radius; nil: estimate_bandwidth(X) (quantile 0.3)" },
    { name = "seeds", type = "matrix", doc = "starting points (m x d); nil: X or bin seeds" },
    { name = "bin_seeding", type = "boolean", default = false,
      doc = "seed from a grid of cell size bandwidth instead of every point" },
    { name = "min_bin_freq", type = "integer", default = 1, min = 1,
      doc = "points a grid cell needs to give a seed" },
    { name = "cluster_all", type = "boolean", default = true,
      doc = "label every point; false: points beyond bandwidth of every centre get 0" },
    { name = "max_iter", type = "integer", default = 300, min = 1, doc = "steps per seed" },
  },
  example = function()
    return M.MeanShift{ bandwidth = 1 }, (ncommon.example_data())
  end,
  method_docs = {
    predict = { signature = "est:predict(X) -> labels",
      doc = "The nearest cluster centre of each row of X. Returns an n x 1 matrix of labels "
        .. "1..k." },
    fit_predict = { signature = "est:fit_predict(X) -> labels",
      doc = "Fits to X and returns est.labels (n x 1)." },
  },
  fit = meanshift_fit,
  fit_predict = function(self, X)
    meanshift_fit(self, X)
    return self.labels
  end,
  predict = function(self, X)
    dcommon.check_finite(MS_NAME, "predict", X)
    local _, idx = luma.neighbors.index(self.cluster_centers):query(X, 1)
    return idx
  end,
}

luma.doc.set(M.estimate_bandwidth, { name = "luma.cluster.estimate_bandwidth",
  signature = "estimate_bandwidth(X [, {quantile = 0.3, n_samples = nil, seed = 0}]) -> number",
  doc = "A bandwidth for MeanShift, as scikit-learn's estimate_bandwidth: the mean, over the "
    .. "rows of X (or n_samples of them drawn with seed), of the distance to the k-th nearest "
    .. "row of X, the row itself counted first, k = max(1, floor(n quantile)). Returns a number.",
  params = {
    { name = "quantile", default = 0.3, doc = "fraction of the rows in a neighbourhood, in [0, 1]" },
    { name = "n_samples", default = nil, doc = "rows to average over (nil: all)" },
    { name = "seed", default = 0, doc = "generator of the sample (integer or Generator)" },
  } })

return {
  DBSCAN = M.DBSCAN,
  MeanShift = M.MeanShift,
  estimate_bandwidth = M.estimate_bandwidth,
}
