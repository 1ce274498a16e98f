--- luma.neighbors.nearest_neighbors: NearestNeighbors (scikit-learn's
-- unsupervised neighbour searches) and the neighbour graphs built from it,
-- kneighbors_graph and radius_neighbors_graph, plain, symmetrised (kNN-OR)
-- or mutual (kNN-AND), the graphs spectral clustering starts from (notes
-- 000 §10.2.3).
--
-- Graphs are edge lists by default: an E x 3 matrix of rows (i, j, value),
-- i a query (1..m), j a training point (1..n), value 1 ("connectivity") or
-- the distance ("distance"), sorted by i then j; format = "dense" gives the
-- m x n matrix instead (0 where there is no edge).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.neighbors.common")
local args = require("luma.util.args")

local fail = common.fail

local nearest = {}

local NAME = "NearestNeighbors"

local MODES = { connectivity = true, distance = true }

-- Help of the graph options.
local GRAPH_PARAMS = {
  { name = "symmetrize", default = "none",
    doc = "\"or\": an edge where either point is among the other's neighbours (symmetrised); "
      .. "\"and\": mutual neighbours; both need the training points as queries" },
  { name = "format", default = "edges", doc = "\"edges\" (E x 3) or \"dense\" (m x n)" },
}
local SYMMETRIZE = { none = true, ["or"] = true, ["and"] = true }
local FORMATS = { edges = true, dense = true }

local function check_choice(method, what, v, allowed, argn)
  if not allowed[v] then
    local names = {}
    for k in pairs(allowed) do names[#names + 1] = k end
    table.sort(names)
    fail("bad argument #%d to '%s' (%s: %s must be one of %s, got %s)", argn, method, NAME, what,
      table.concat(names, ", "), tostring(v))
  end
  return v
end

-- Graph options: {symmetrize = "none" | "or" | "and", format = "edges" |
-- "dense"}.
local function graph_options(method, opts, argn)
  if opts ~= nil and type(opts) ~= "table" then
    fail("bad argument #%d to '%s' (options table expected, got %s)", argn, method, type(opts))
  end
  opts = opts or {}
  for key in pairs(opts) do
    if key ~= "symmetrize" and key ~= "format" then
      fail("bad argument #%d to '%s' (unknown option '%s' (valid: format, symmetrize))", argn,
        method, tostring(key))
    end
  end
  return check_choice(method, "symmetrize", opts.symmetrize or "none", SYMMETRIZE, argn),
    check_choice(method, "format", opts.format or "edges", FORMATS, argn)
end

-- Lua arrays of a query's neighbours from the flat columns.
local function flat(m)
  local t, out = m:totable(), {}
  for i = 1, #t do out[i] = t[i][1] end
  return out
end

--- graph(m, n, dist, ind, counts, mode, symmetrize, format):
-- the graph of neighbour lists (flat columns with counts per query).
local function graph(m, n, dist, ind, counts, mode, symmetrize, format)
  local d, j, c = flat(dist), flat(ind), flat(counts)
  local value = {} -- key (i - 1) * n + j -> value
  local keys = {}
  local p = 0
  for i = 1, m do
    for _ = 1, c[i] do
      p = p + 1
      local key = (i - 1) * n + j[p]
      value[key] = mode == "distance" and d[p] or 1
      keys[#keys + 1] = key
    end
  end
  if symmetrize ~= "none" then
    local out = {}
    for _, key in ipairs(keys) do
      local i, jj = (key - 1) // n + 1, (key - 1) % n + 1
      local mirror = (jj - 1) * n + i
      if value[mirror] ~= nil then
        out[#out + 1] = key
      elseif symmetrize == "or" then
        out[#out + 1] = key
        out[#out + 1] = mirror
        value[mirror] = value[key]
      end
    end
    keys = out
  end
  table.sort(keys)
  if format == "dense" then
    local M = luma.zeros(m, n)
    for _, key in ipairs(keys) do M:set((key - 1) // n + 1, (key - 1) % n + 1, value[key]) end
    return M
  end
  if #keys == 0 then return luma.zeros(0, 3) end
  local rows = {}
  for e, key in ipairs(keys) do rows[e] = { (key - 1) // n + 1, (key - 1) % n + 1, value[key] } end
  return luma.matrix(rows)
end

-- The flat form of k-nearest results (every query has k neighbours).
local function knn_flat(dist, ind)
  local m, k = dist:shape()
  return dist:reshape(m * k, 1), ind:reshape(m * k, 1), luma.full(m, 1, k)
end

-- The square graphs that can be symmetrised: the training points with
-- themselves.
local function check_square(method, X, symmetrize, self)
  if symmetrize ~= "none" and X ~= nil and X:rows() ~= self.n_samples_fit then
    fail("bad argument #1 to '%s' (%s: a symmetrised graph needs the training points as queries "
      .. "(X = nil))", method, NAME)
  end
end

--- kneighbors_graph([X [, n_neighbors [, mode [, opts]]]]) -> graph
-- (see the module header); opts.symmetrize = "or" (an edge where either
-- point is among the other's neighbours) or "and" (mutual neighbours)
-- needs X = nil.
local function kneighbors_graph(self, X, k, mode, opts)
  common.check_queries(self, X, "kneighbors_graph")
  mode = check_choice("kneighbors_graph", "mode", mode or "connectivity", MODES, 3)
  local symmetrize, format = graph_options("kneighbors_graph", opts, 4)
  check_square("kneighbors_graph", X, symmetrize, self)
  local dist, ind = common.kneighbors(self, X, k or self.params.n_neighbors, "kneighbors_graph")
  local fd, fi, counts = knn_flat(dist, ind)
  return graph(dist:rows(), self.n_samples_fit, fd, fi, counts, mode, symmetrize, format)
end

--- radius_neighbors_graph([X [, radius [, mode [, opts]]]]) -> graph
-- of the neighbours within radius (options as kneighbors_graph).
local function radius_neighbors_graph(self, X, r, mode, opts)
  common.check_queries(self, X, "radius_neighbors_graph")
  mode = check_choice("radius_neighbors_graph", "mode", mode or "connectivity", MODES, 3)
  local symmetrize, format = graph_options("radius_neighbors_graph", opts, 4)
  check_square("radius_neighbors_graph", X, symmetrize, self)
  local dist, ind, counts = common.radius_neighbors(self, X, r or self.params.radius,
    "radius_neighbors_graph")
  return graph(counts:rows(), self.n_samples_fit, dist, ind, counts, mode, symmetrize, format)
end

nearest.NearestNeighbors = estimator.class{
  name = "luma.neighbors.NearestNeighbors",
  kind = "transformer",
  doc = "Unsupervised neighbour searches over the rows of X: kneighbors, radius_neighbors, "
    .. "kneighbors_graph and radius_neighbors_graph (plain, symmetrised or mutual), through a "
    .. "brute-force, KD-tree, ball-tree, Orchard, AESA or linear AESA index. A sparse X "
    .. "(luma.sparse) is searched by brute force, metric euclidean or cosine.",
  method_docs = {
    kneighbors = common.METHOD_DOCS.kneighbors,
    radius_neighbors = common.METHOD_DOCS.radius_neighbors,
    kneighbors_graph = {
      signature = "est:kneighbors_graph([X = nil [, n_neighbors = nil [, mode = \"connectivity\" "
        .. "[, opts]]]]) -> graph",
      doc = "The k-nearest-neighbour graph of the rows of X (nil: the training points, each "
        .. "without itself) to the training points: an E x 3 edge list (i, j, value) sorted by i "
        .. "then j, value 1 (mode \"connectivity\") or the distance (\"distance\").",
      params = GRAPH_PARAMS },
    radius_neighbors_graph = {
      signature = "est:radius_neighbors_graph([X = nil [, radius = nil [, mode = "
        .. "\"connectivity\" [, opts]]]]) -> graph",
      doc = "The graph of the rows of X (nil: the training points) to the training points "
        .. "within radius, as kneighbors_graph.",
      params = GRAPH_PARAMS },
  },
  params = common.with({
    { name = "n_neighbors", type = "integer", default = 5, min = 1,
      doc = "neighbours of kneighbors and kneighbors_graph when not given" },
    { name = "radius", type = "number", default = 1.0, gt = 0,
      doc = "radius of radius_neighbors and radius_neighbors_graph when not given" },
  }, common.index_params()),
  sparse = true,
  example = function()
    local X = common.example_data()
    return nearest.NearestNeighbors{ n_neighbors = 2 }, X
  end,
  fit = function(self, X)
    self.index = common.build(NAME, self.params, X, "fit", self.params.n_neighbors)
    self.n_samples_fit = X:rows()
    self.effective_algorithm = common.algorithm(self.index)
  end,
  kneighbors = common.kneighbors_method,
  radius_neighbors = common.radius_neighbors_method,
  kneighbors_graph = kneighbors_graph,
  radius_neighbors_graph = radius_neighbors_graph,
}



-- The options of the module-level graph functions besides the index's.
local GRAPH_OPTIONS = { mode = true, include_self = true, symmetrize = true, format = true }

local function split_options(fname, opts)
  if opts ~= nil and type(opts) ~= "table" then
    fail("bad argument #3 to '%s' (options table expected, got %s)", fname, type(opts))
  end
  local params, graph_opts = {}, {}
  for key, v in pairs(opts or {}) do
    if GRAPH_OPTIONS[key] then graph_opts[key] = v else params[key] = v end
  end
  return params, graph_opts
end

--- nearest.kneighbors_graph(X, n_neighbors [, opts]): the graph of each
-- row of X with its nearest other rows (include_self = true counts each
-- row as its own first neighbour, as scikit-learn's function).  opts:
-- mode, include_self, symmetrize, format, and NearestNeighbors'
-- parameters (metric, p, algorithm, ...).
function nearest.kneighbors_graph(X, k, opts)
  local params, g = split_options("kneighbors_graph", opts)
  -- (fit's argument errors blame this function's caller)
  local nn = args.relay(2, function() return nearest.NearestNeighbors(params):fit(X) end)
  return nn:kneighbors_graph(g.include_self and X or nil, k, g.mode,
    { symmetrize = g.symmetrize, format = g.format })
end

--- nearest.radius_neighbors_graph(X, radius [, opts]): the same within a
-- radius.
function nearest.radius_neighbors_graph(X, r, opts)
  local params, g = split_options("radius_neighbors_graph", opts)
  local nn = args.relay(2, function() return nearest.NearestNeighbors(params):fit(X) end)
  return nn:radius_neighbors_graph(g.include_self and X or nil, r, g.mode,
    { symmetrize = g.symmetrize, format = g.format })
end

-- Help of the module functions' options.
local FUNCTION_GRAPH_PARAMS = {
  { name = "mode", default = "connectivity", doc = "edge values: 1 (\"connectivity\") or the distance (\"distance\")" },
  { name = "include_self", default = false, doc = "count each row as its own first neighbour" },
  GRAPH_PARAMS[1], GRAPH_PARAMS[2],
  { name = "...", doc = "NearestNeighbors' parameters: algorithm, metric, p, metric_params, leaf_size, split, buoys" },
}

luma.doc.set(nearest.kneighbors_graph, { name = "luma.neighbors.kneighbors_graph",
  signature = "kneighbors_graph(X, n_neighbors [, opts]) -> graph",
  doc = "The k-nearest-neighbour graph of the rows of X: returns an E x 3 edge list (i, j, "
    .. "value) sorted by i then j, or the dense n x n matrix with format = \"dense\".",
  params = FUNCTION_GRAPH_PARAMS })
luma.doc.set(nearest.radius_neighbors_graph, { name = "luma.neighbors.radius_neighbors_graph",
  signature = "radius_neighbors_graph(X, radius [, opts]) -> graph",
  doc = "The graph of the rows of X within radius of each other: returns an edge list or a "
    .. "dense matrix, as kneighbors_graph.", params = FUNCTION_GRAPH_PARAMS })

return nearest
