--- luma.neighbors.indexes: the index structures as objects of their own
-- (scikit-learn's KDTree and BallTree, and Luma's others), and their
-- persistence.
--
-- An index (luma.neighbors.Index, src/ml/neighbors) holds a copy of the
-- rows and its structure inside one userdata; index:query(Q, k) and
-- index:query_radius(Q, r) search it.  luma.save writes index:state(), a
-- table of matrices, and luma.load checks every stored range and puts the
-- index back without rebuilding it.  (Loading a bare index needs
-- luma.neighbors to be loaded first, since its loader is registered here;
-- an index inside a neighbour model loads with the model.)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.neighbors.native")
local persist = require("luma.persist")
local common = require("luma.neighbors.common")
local args = require("luma.util.args")

local indexes = {}

local function is_index(v)
  local mt = getmetatable(v)
  return type(v) == "userdata" and type(mt) == "table" and rawget(mt, "__name") == "luma.neighbors.Index"
end
indexes.is_index = is_index

-- Options of index() beyond those of native.build.
local OWN_OPTIONS = { k = true }

--- indexes.index(X [, opts]) -> Index: opts as native.build's, with
-- algorithm = "auto" (the default) chosen as the models choose it
-- (common.choose_algorithm), k a hint of the neighbour count for that
-- choice.
function indexes.index(X, opts)
  if opts ~= nil and type(opts) ~= "table" then
    error(string.format("bad argument #2 to 'index' (options table expected, got %s)", type(opts)), 2)
  end
  opts = opts or {}
  if not luma.ismatrix(X) then
    error(string.format("bad argument #1 to 'index' (X must be a luma.Matrix, got %s)", type(X)), 2)
  end
  local build = {}
  for key, v in pairs(opts) do
    if not OWN_OPTIONS[key] then build[key] = v end
  end
  if build.algorithm == nil or build.algorithm == "auto" then
    local n, d = X:shape()
    local k = opts.k
    build.algorithm = common.choose_algorithm({ algorithm = "auto", metric = build.metric }, n, d,
      math.type(k) == "integer" and k or nil)
  end
  local ok, ix = pcall(native.build, X, build)
  if not ok then
    if type(ix) == "string" then error((ix:gsub("^bad argument (#%d+) to '[^']*'", "bad argument %1 to 'index'")), 2) end
    error(ix, 0)
  end
  return ix
end

--- indexes.KDTree(X [, opts]) and indexes.BallTree(X [, opts]): the
-- index with that algorithm (scikit-learn's classes of the same names).
function indexes.KDTree(X, opts)
  local o = {}
  for k, v in pairs(args.options("KDTree", 2, opts, nil, nil, 2)) do o[k] = v end
  o.algorithm = "kd_tree"
  return indexes.index(X, o)
end

function indexes.BallTree(X, opts)
  local o = {}
  for k, v in pairs(args.options("BallTree", 2, opts, nil, nil, 2)) do o[k] = v end
  o.algorithm = "ball_tree"
  return indexes.index(X, o)
end

persist.register("luma.neighbors.Index", {
  test = is_index,
  save = function(ix) return ix:state() end,
  load = function(t) return native.restore(t) end,
})

-- Help of index()'s options.
local INDEX_PARAMS = {
  { name = "algorithm", default = "auto",
    doc = "\"brute\", \"kd_tree\" (Friedman, Bentley & Finkel 1977), \"ball_tree\" "
      .. "(Omohundro 1989), \"orchard\" (Orchard 1991), \"aesa\" (Vidal 1986), \"laesa\" "
      .. "(Micó, Oncina & Vidal 1994), or \"auto\" (docs/NEIGHBORS.md)" },
  { name = "metric", default = "euclidean",
    doc = "\"euclidean\", \"manhattan\", \"chebyshev\", \"minkowski\" (with p), \"cosine\" "
      .. "(brute only), \"mahalanobis\" (with cov or VI), or a function of two 1 x d rows "
      .. "returning a number >= 0" },
  { name = "p", default = 2, doc = "the Minkowski exponent, >= 1" },
  { name = "cov", doc = "mahalanobis: the covariance matrix (d x d, positive definite)" },
  { name = "VI", doc = "mahalanobis: the inverse covariance instead" },
  { name = "leaf_size", default = 30, doc = "rows per tree leaf" },
  { name = "split", default = "median", doc = "KD-tree: \"median\" or \"sliding_midpoint\"" },
  { name = "buoys", doc = "laesa: the number of buoys (default min(16, n))" },
  { name = "k", doc = "a hint of the neighbour count for \"auto\"" },
}

luma.doc.set(indexes.index, { name = "luma.neighbors.index", signature = "index(X [, opts]) -> index",
  doc = "A nearest-neighbour index over the rows of X, returned as a luma.neighbors.Index: "
    .. "query(Q, k) -> dist, ind, evals; query_radius(Q, r) -> dist, ind, counts, evals (Q = "
    .. "nil: the indexed points, each without itself); info(); state(). Every algorithm returns "
    .. "the same neighbours, the smaller index first on ties.", params = INDEX_PARAMS })
luma.doc.set(indexes.KDTree, { name = "luma.neighbors.KDTree", signature = "KDTree(X [, opts]) -> index",
  doc = "index(X, opts) with algorithm = \"kd_tree\" (Friedman, Bentley & Finkel 1977): "
    .. "Minkowski-type metrics and mahalanobis. Returns the index.", params = INDEX_PARAMS })
luma.doc.set(indexes.BallTree, { name = "luma.neighbors.BallTree", signature = "BallTree(X [, opts]) -> index",
  doc = "index(X, opts) with algorithm = \"ball_tree\" (Omohundro 1989): any metric but cosine, "
    .. "a function included. Returns the index.", params = INDEX_PARAMS })

return indexes
