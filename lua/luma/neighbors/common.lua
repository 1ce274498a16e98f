--- luma.neighbors.common: what the neighbour models share -- the index
-- parameters of their schemas, the choice of algorithm for "auto",
-- building and querying an index with errors in the caller's terms, the
-- neighbour weights, label encoding and a small example data set.  Not an
-- estimator module itself.
--
-- Every model keeps a luma.neighbors.Index (src/ml/neighbors) built at fit
-- and searched at predict; the index gives distances and 1-based indices
-- sorted by distance, the smaller index first on ties (scikit-learn's
-- rule), and the same neighbours whatever the algorithm.  A model fitted
-- on a sparse matrix (luma.sparse) keeps a plain table instead, {sparse =
-- X, metric = "euclidean" | "cosine"}, searched by brute force over the
-- distances luma.pairwise computes from a sparse product.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.neighbors.native")

local common = {}

local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
common.fail = fail

common.ALGORITHMS = { "auto", "brute", "kd_tree", "ball_tree", "orchard", "aesa", "laesa" }

-- The dimension above which "auto" searches by brute force: a KD-tree
-- prunes little in more dimensions (scikit-learn's threshold).
local KD_MAX_DIMENSION = 15

-- Below this many points "auto" with a metric function stays brute force:
-- linear AESA's buoys alone would cost about as many calls.
local LAESA_MIN_POINTS = 64

--- common.index_params(): the schema entries of the index parameters, in
-- scikit-learn's names (plus split and buoys, which pick among Luma's own
-- index variants).
function common.index_params()
  return {
    { name = "algorithm", type = "string", default = "auto", values = common.ALGORITHMS,
      doc = "the index: auto (see docs/NEIGHBORS.md), brute, kd_tree, ball_tree, orchard, aesa "
        .. "or laesa" },
    { name = "leaf_size", type = "integer", default = 30, min = 1,
      doc = "rows per tree leaf (kd_tree, ball_tree)" },
    { name = "metric", type = "string|function", default = "minkowski",
      doc = "minkowski (with p), euclidean, manhattan, chebyshev, cosine (brute only), "
        .. "mahalanobis (metric_params.cov or VI), or a function of two 1 x d rows" },
    { name = "p", type = "number", default = 2, min = 1,
      doc = "the Minkowski exponent (1 manhattan, 2 euclidean, math.huge chebyshev)" },
    { name = "metric_params", type = "table",
      doc = "options of the metric: {cov = S} or {VI = S^-1} for mahalanobis" },
    { name = "split", type = "string", default = "median", values = { "median", "sliding_midpoint" },
      doc = "KD-tree split rule: the median point (Friedman, Bentley & Finkel 1977) or the "
        .. "sliding midpoint (Maneewongvatana & Mount 1999)" },
    { name = "buoys", type = "integer", min = 1,
      doc = "laesa: the number of buoys (default min(16, n))" },
  }
end

--- common.with(params, extra): the schema list params followed by extra's
-- entries (a new list).
function common.with(params, extra)
  local out = {}
  for _, p in ipairs(params) do out[#out + 1] = p end
  for _, p in ipairs(extra) do out[#out + 1] = p end
  return out
end

--- common.choose_algorithm(p, n, d [, k]) -> the algorithm "auto" stands
-- for: brute force for cosine, for more than 15 dimensions and when k is
-- at least half the points; linear AESA for a metric function (it calls
-- the function about buoys + a few times per query instead of n); a
-- KD-tree otherwise (Mahalanobis is Euclidean after whitening, so the
-- KD-tree serves it too).
function common.choose_algorithm(p, n, d, k)
  if p.algorithm ~= "auto" then return p.algorithm end
  if type(p.metric) == "function" then return n < LAESA_MIN_POINTS and "brute" or "laesa" end
  if p.metric == "cosine" or d > KD_MAX_DIMENSION or (k and k >= n / 2) then return "brute" end
  return "kd_tree"
end

-- "bad argument #i to 'native name' (why)" -> "bad argument #(i - shift)
-- to 'method' (Class: why)"; other errors pass unchanged.  shift is 1 for
-- the index's methods, which count themselves as argument 1 when called
-- through pcall.
local function restate(err, method, class_name, shift)
  if type(err) ~= "string" then error(err, 0) end
  local arg, why = err:match("^bad argument #(%d+) to '[^']*' %((.*)%)$")
  if arg then
    fail("bad argument #%d to '%s' (%s: %s)", tonumber(arg) - (shift or 0), method, class_name, why)
  end
  error(err, 0)
end

--- common.build(class_name, p, X, method [, k]) -> index: the index of
-- the estimator parameters p over the rows of X.  Data errors read as
-- argument errors of method; parameter errors name the class.
-- The sparse "index": the metrics that are functions of x.y and norms.
local function sparse_index(class_name, p, X)
  if p.algorithm ~= "auto" and p.algorithm ~= "brute" then
    fail("%s: a sparse X is searched by brute force; algorithm '%s' needs a dense X", class_name,
      p.algorithm)
  end
  local metric = p.metric
  if metric == "minkowski" and p.p == 2 then metric = "euclidean" end
  if metric ~= "euclidean" and metric ~= "cosine" then
    fail("%s: a sparse X takes metric euclidean (minkowski with p = 2) or cosine, not %s",
      class_name, metric == "minkowski" and ("minkowski with p = " .. tostring(p.p)) or tostring(metric))
  end
  return { sparse = X, metric = metric }
end

-- k nearest rows of the sparse index for the rows of Q (nil: the indexed
-- rows, each without itself), as index:query returns them.
local function sparse_query(index, Q, k)
  local D = Q == nil and luma.pairwise.distances(index.sparse, index.metric)
    or luma.pairwise.distances(Q, index.sparse, index.metric)
  if Q == nil then
    for i = 1, D:rows() do D:set(i, i, math.huge) end
  end
  local dist, ind = native.select_rows(D, k)
  return dist, ind, luma.full(D:rows(), 1, D:cols())
end

-- Every indexed row within r of each row of Q, as index:query_radius.
local function sparse_query_radius(index, Q, r)
  local D = Q == nil and luma.pairwise.distances(index.sparse, index.metric)
    or luma.pairwise.distances(Q, index.sparse, index.metric)
  local m, n = D:shape()
  local dist, ind, counts = {}, {}, luma.zeros(m, 1)
  for i = 1, m do
    local found = {}
    for j = 1, n do
      local v = D:get(i, j)
      if v <= r and not (Q == nil and i == j) then found[#found + 1] = j end
    end
    table.sort(found, function(a, b)
      local da, db = D:get(i, a), D:get(i, b)
      if da ~= db then return da < db end
      return a < b
    end)
    for _, j in ipairs(found) do
      dist[#dist + 1] = D:get(i, j)
      ind[#ind + 1] = j
    end
    counts:set(i, 1, #found)
  end
  local function column(t) return #t > 0 and luma.matrix(t):reshape(#t, 1) or luma.zeros(0, 1) end
  return column(dist), column(ind), counts, luma.full(m, 1, n)
end

--- common.algorithm(index) -> the algorithm name of a built index.
function common.algorithm(index)
  if index.sparse then return "brute" end
  return index:info().algorithm
end

function common.build(class_name, p, X, method, k)
  if luma.sparse.issparse(X) then return sparse_index(class_name, p, X) end
  local n, d = X:shape()
  local opts = {
    algorithm = common.choose_algorithm(p, n, d, k),
    metric = p.metric,
    p = p.p,
    leaf_size = p.leaf_size,
    split = p.split,
    buoys = p.buoys,
  }
  for key, v in pairs(p.metric_params or {}) do
    if opts[key] ~= nil or type(key) ~= "string" then
      fail("%s: metric_params may not set '%s'", class_name, tostring(key))
    end
    opts[key] = v
  end
  local ok, index = pcall(native.build, X, opts)
  if ok then return index end
  local why = type(index) == "string" and index:match("^bad argument #2 to '[^']*' %((.*)%)$")
  if why then fail("%s: %s", class_name, why) end
  restate(index, method, class_name)
end

--- common.check_k(class_name, method, k, n [, argn = 2] [, own]) -> k:
-- a neighbour count in 1..n (1..n-1 when the queries are the training
-- points themselves, own).
function common.check_k(class_name, method, k, n, argn, own)
  argn = argn or 2
  if math.type(k) ~= "integer" then
    fail("bad argument #%d to '%s' (%s: the number of neighbours must be an integer, got %s)",
      argn, method, class_name, tostring(k))
  end
  if k < 1 then fail("bad argument #%d to '%s' (k = %d must be >= 1)", argn, method, k) end
  local most = own and n - 1 or n
  if k > most then
    fail("bad argument #%d to '%s' (%s: k = %d must be <= %d, the number of %s)", argn, method,
      class_name, k, most, own and "training points besides the query itself" or "training points")
  end
  return k
end

--- common.check_radius(class_name, method, r [, argn = 2]) -> r > 0.
function common.check_radius(class_name, method, r, argn)
  if type(r) ~= "number" or not (r > 0) then
    fail("bad argument #%d to '%s' (%s: radius = %s must be a number > 0)", argn or 2, method,
      class_name, tostring(r))
  end
  return r
end

--- common.check_queries(self, X, method): a fitted model and X nil (the
-- training points) or a matrix of the fitted width, for methods outside
-- the estimator contract's checks (kneighbors, graphs).
function common.check_queries(self, X, method)
  local name = self.__class.short_name
  if not self:is_fitted() then fail("%s: %s called before fit", name, method) end
  if X ~= nil and not luma.ismatrix(X) and not luma.sparse.issparse(X) then
    fail("bad argument #1 to '%s' (X must be a luma.Matrix or nil, got %s)", method, type(X))
  end
  if X ~= nil and luma.sparse.issparse(X) and not self.index.sparse then
    fail("bad argument #1 to '%s' (%s was fitted on a dense X; query it with X:todense())",
      method, name)
  end
  if X ~= nil and X:cols() ~= self.n_features_in then
    fail("bad argument #1 to '%s' (X has %d columns but %s was fitted on %d)", method, X:cols(),
      name, self.n_features_in)
  end
end

--- common.kneighbors(self, X, k, method) -> dist, ind, evals: the k
-- nearest training points of the rows of X (X nil: of the training points
-- themselves, each without itself), errors in method's terms.
function common.kneighbors(self, X, k, method)
  local name = self.__class.short_name
  common.check_k(name, method, k, self.n_samples_fit, 2, X == nil)
  local query = self.index.sparse and sparse_query or self.index.query
  local ok, dist, ind, evals = pcall(query, self.index, X, k)
  if not ok then restate(dist, method, name, 1) end
  return dist, ind, evals
end

--- common.radius_neighbors(self, X, r, method) -> dist, ind, counts,
-- evals: every training point within distance r of each row of X (flat
-- columns, query after query; counts per query).
function common.radius_neighbors(self, X, r, method)
  local name = self.__class.short_name
  common.check_radius(name, method, r)
  local query = self.index.sparse and sparse_query_radius or self.index.query_radius
  local ok, dist, ind, counts, evals = pcall(query, self.index, X, r)
  if not ok then restate(dist, method, name, 1) end
  return dist, ind, counts, evals
end

--- common.kneighbors_method(self [, X [, n_neighbors]]) -> dist, ind,
-- evals: the kneighbors method of every model: the nearest training
-- points of each row of X, sorted by distance (the smaller index first on
-- ties), and the distance evaluations per query; X = nil: the training
-- points, each without itself.
function common.kneighbors_method(self, X, k)
  common.check_queries(self, X, "kneighbors")
  return common.kneighbors(self, X, k or self.params.n_neighbors, "kneighbors")
end

--- common.radius_neighbors_method(self [, X [, radius [, opts]]]) ->
-- dists, inds, evals: tables of columns (one per query, sorted by
-- distance) of the training points within radius (inclusive); with
-- opts.flat, flat columns and the counts per query instead: dist, ind,
-- counts, evals.
function common.radius_neighbors_method(self, X, r, opts)
  common.check_queries(self, X, "radius_neighbors")
  if opts ~= nil and type(opts) ~= "table" then
    fail("bad argument #3 to 'radius_neighbors' (options table expected, got %s)", type(opts))
  end
  for key in pairs(opts or {}) do
    if key ~= "flat" then
      fail("bad argument #3 to 'radius_neighbors' (unknown option '%s' (valid: flat))",
        tostring(key))
    end
  end
  local dist, ind, counts, evals = common.radius_neighbors(self, X, r or self.params.radius,
    "radius_neighbors")
  if opts and opts.flat then return dist, ind, counts, evals end
  local dists, inds, start = {}, {}, 1
  for i = 1, counts:rows() do
    local c = math.tointeger(counts:get(i, 1))
    dists[i] = c > 0 and dist:sub(start, start + c - 1, 1, 1):copy() or luma.zeros(0, 1)
    inds[i] = c > 0 and ind:sub(start, start + c - 1, 1, 1):copy() or luma.zeros(0, 1)
    start = start + c
  end
  return dists, inds, evals
end

--- common.weights(class_name, weights, dist [, counts]) -> w or nil:
-- nil for "uniform"; 1/d for "distance" (a query with neighbours at
-- distance 0 weighs those 1 and the others 0, as scikit-learn); a
-- function gets dist and returns finite weights >= 0 of its shape.
function common.weights(class_name, weights, dist, counts)
  if weights == "uniform" then return nil end
  if weights == "distance" then return native.inverse_distance(dist, counts) end
  local w = weights(dist)
  if not luma.ismatrix(w) or w:rows() ~= dist:rows() or w:cols() ~= dist:cols() then
    fail("%s: the weights function must return a %d x %d matrix (the shape of the distances it "
      .. "gets), got %s", class_name, dist:rows(), dist:cols(),
      luma.ismatrix(w) and string.format("%d x %d", w:shape()) or type(w))
  end
  if w:rows() * w:cols() > 0 and (not w:isfinite():all() or w:min() < 0) then
    fail("%s: the weights function must return finite weights >= 0", class_name)
  end
  return w
end

--- common.METHOD_DOCS: help records of the neighbour methods the models
-- share (estimator.class's method_docs).
common.METHOD_DOCS = {
  kneighbors = { signature = "est:kneighbors([X = nil [, n_neighbors = nil]]) -> dist, ind, evals",
    doc = "The nearest training points of each row of X (nil: of the training points, each "
      .. "without itself), n_neighbors of them by default: distances and 1-based indices "
      .. "(m x k, sorted by distance, the smaller index first on ties) and the distance "
      .. "evaluations per query (m x 1)." },
  radius_neighbors = {
    signature = "est:radius_neighbors([X = nil [, radius = nil [, opts]]]) -> dists, inds, evals",
    doc = "The training points within radius (inclusive; the model's radius by default) of each "
      .. "row of X (nil: the training points, each without itself): tables of columns, one per "
      .. "query, sorted by distance, and the distance evaluations per query.",
    params = { { name = "flat", default = false,
      doc = "return flat columns and the counts per query instead: dist, ind, counts, evals" } } },
}

--- common.method_docs(names...) -> the method_docs table of those methods.
function common.method_docs(...)
  local out = {}
  for _, name in ipairs({ ... }) do out[name] = common.METHOD_DOCS[name] end
  return out
end

common.WEIGHTS_PARAM = {
  name = "weights", type = "string|function", default = "uniform",
  doc = "uniform, distance (1/d), or a function of the distance matrix returning weights",
}

--- common.check_weights_param(class_name, weights): uniform, distance or
-- a function.
function common.check_weights_param(class_name, weights)
  if weights ~= "uniform" and weights ~= "distance" and type(weights) ~= "function" then
    fail("%s: weights must be \"uniform\", \"distance\" or a function, got %q", class_name,
      tostring(weights))
  end
end

--- common.labels(class_name, y) -> codes (n x 1, 1..c), classes (c x 1):
-- a single column of labels.
function common.labels(class_name, y)
  if y:cols() ~= 1 then
    fail("bad argument #2 to 'fit' (%s: y must be one column of labels, got %d columns)",
      class_name, y:cols())
  end
  local classes, _, codes = y:unique{ inverse = true }
  return codes, classes
end

--- common.example_data() -> X (12 x 2), y (12 x 1): three well-separated
-- groups of four points, labels 1, 2, 5 (the persistence test's data).
function common.example_data()
  local X = luma.matrix{
    { 0.0, 0.1 }, { 0.2, 0.0 }, { 0.1, 0.3 }, { 0.3, 0.2 },
    { 3.0, 3.1 }, { 3.2, 2.9 }, { 2.9, 3.3 }, { 3.1, 3.0 },
    { 0.1, 3.0 }, { 0.3, 3.2 }, { 0.0, 2.8 }, { 0.2, 3.1 } }
  local y = luma.matrix{ 1, 1, 1, 1, 2, 2, 2, 2, 5, 5, 5, 5 }
  return X, y
end

luma.doc.set(common, { name = "luma.neighbors.common",
  doc = "Helpers shared by the neighbour models: index parameters and the auto choice, "
    .. "building and querying indexes, neighbour weights, label encoding." })

return common
