--- luma.cluster.graph: similarity graphs and graph Laplacians, the first
-- steps of spectral clustering (von Luxburg, A tutorial on spectral
-- clustering, Statistics and Computing 17, 2007, sec. 2-3; notes 000
-- Ch. 10, §10.2.3).
--
--   epsilon_graph    connect points within distance epsilon (unweighted)
--   knn_graph        k nearest neighbours, OR-symmetrized or mutual,
--                    weights 1, the distance or the Gaussian similarity
--   gaussian_graph   fully connected, w_ij = exp(-|x_i - x_j|^2 / (2 sigma^2))
--                    (notes erratum: the norm is squared)
--   laplacian        L = D - W, L_rw = I - D^-1 W (not symmetric: notes
--                    erratum), L_sym = I - D^-1/2 W D^-1/2
--   connected_components   by graph search, or by counting the (near-)zero
--                    eigenvalues of L (their multiplicity is the number of
--                    components, von Luxburg Prop. 2)
-- Graphs never join a point to itself: the diagonal of W is zero (and is
-- ignored where a W is given), as scipy.sparse.csgraph.laplacian does.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.cluster.native")
local common = require("luma.cluster.graph_common")

local fail = common.fail

local M = {}

local FORMATS = { dense = true, edges = true }

local function check_X(fname, X)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to '%s' (X must be a matrix, got %s)", fname, type(X))
  end
  if X:rows() == 0 or X:cols() == 0 then
    fail("bad argument #1 to '%s' (X is %d x %d; it needs rows and columns)", fname, X:rows(),
      X:cols())
  end
  local bad = args.nonfinite(X)
  if bad then fail("bad argument #1 to '%s' (%s)", fname, bad) end
end

local function check_format(fname, opts, argn)
  local f = opts.format or "dense"
  if not FORMATS[f] then
    fail("bad argument #%d to '%s' (format must be \"dense\" or \"edges\", got %s)", argn, fname,
      tostring(f))
  end
  return f
end

local function positive(fname, what, v, argn)
  if type(v) ~= "number" or not (v > 0) or v == math.huge then
    fail("bad argument #%d to '%s' (%s must be a finite number > 0, got %s)", argn, fname, what,
      tostring(v))
  end
end

-- An edge list with both directions of every edge as the requested
-- format: the n x n matrix, or the list itself.
local function as_format(E, n, format)
  if format == "edges" then return E end
  if E:rows() == 0 then return luma.zeros(n, n) end
  return native.dense(native.graph(E, n, { format = "edges", directed = true }))
end

--- epsilon_graph(X, epsilon [, opts]) -> W
function M.epsilon_graph(X, epsilon, opts)
  local fname = "epsilon_graph"
  check_X(fname, X)
  positive(fname, "epsilon", epsilon, 2)
  opts = common.check_options(fname, opts, { format = true, metric = true }, 3)
  local format = check_format(fname, opts, 3)
  local E = luma.neighbors.radius_neighbors_graph(X, epsilon,
    { format = "edges", metric = opts.metric })
  return as_format(E, X:rows(), format)
end

local KNN_MODES = { connectivity = true, distance = true, gaussian = true }

--- knn_graph(X, n_neighbors [, opts]) -> W
function M.knn_graph(X, k, opts)
  local fname = "knn_graph"
  check_X(fname, X)
  local n = X:rows()
  if math.type(k) ~= "integer" or k < 1 or k >= n then
    fail("bad argument #2 to '%s' (n_neighbors must be an integer in 1..%d (fewer than the %d "
      .. "points), got %s)", fname, n - 1, n, tostring(k))
  end
  opts = common.check_options(fname, opts,
    { mutual = true, mode = true, sigma = true, format = true, metric = true }, 3)
  local format = check_format(fname, opts, 3)
  local mode = opts.mode or "connectivity"
  if not KNN_MODES[mode] then
    fail("bad argument #3 to '%s' (mode must be \"connectivity\", \"distance\" or \"gaussian\", "
      .. "got %s)", fname, tostring(mode))
  end
  local sigma = opts.sigma or 1.0
  positive(fname, "sigma", sigma, 3)
  local E = luma.neighbors.kneighbors_graph(X, k, {
    symmetrize = opts.mutual and "and" or "or", format = "edges", metric = opts.metric,
    mode = mode == "connectivity" and "connectivity" or "distance" })
  if mode == "gaussian" and E:rows() > 0 then
    local w = E:col(3)
    w:assign((w:pow(2) * (-1 / (2 * sigma * sigma))):exp())
  end
  return as_format(E, n, format)
end

--- gaussian_graph(X [, sigma = 1]) -> W (n x n)
function M.gaussian_graph(X, sigma)
  local fname = "gaussian_graph"
  check_X(fname, X)
  sigma = sigma or 1.0
  positive(fname, "sigma", sigma, 2)
  local W = (luma.pairwise.distances(X, X, "sqeuclidean") * (-1 / (2 * sigma * sigma))):exp()
  W:diag():fill(0)
  return W
end

local KINDS = { unnormalized = true, rw = true, sym = true }

--- laplacian(W [, kind = "unnormalized"]) -> L, degrees
function M.laplacian(W, kind)
  local fname = "laplacian"
  kind = kind or "unnormalized"
  if not KINDS[kind] then
    fail("bad argument #2 to '%s' (kind must be \"unnormalized\", \"rw\" or \"sym\", got %s)",
      fname, tostring(kind))
  end
  if not luma.ismatrix(W) or W:rows() ~= W:cols() or W:rows() == 0 then
    fail("bad argument #1 to '%s' (W must be a non-empty square matrix)", fname)
  end
  -- the checks of the native graph (finite, non-negative), then symmetry
  local g = common.graph(fname, W, nil, 1, { drop_diagonal = true })
  local ok, i, j = native.symmetric(g)
  if not ok then
    fail("bad argument #1 to '%s' (W must be symmetric: W[%d][%d] = %.17g but W[%d][%d] = %.17g)",
      fname, i, j, W:get(i, j), j, i, W:get(j, i))
  end
  local A = W:copy()
  A:diag():fill(0)
  local d = A:sum(2)
  local L = A:neg() + 0 -- (no negative zeros)
  L:diag():assign(d)
  if kind == "unnormalized" then return L, d end
  -- D^-1 and D^-1/2 with 0 for isolated nodes: their rows of L_rw and
  -- L_sym stay zero (eigenvalue 0 for their component, as for L)
  local positive_d = d:gt(0)
  local safe = d + positive_d:eq(0)
  if kind == "rw" then return L:div(safe):mul(positive_d), d end
  local s = safe:sqrt():pow(-1):mul(positive_d)
  return L:mul(s):mul(s:t()), d
end

local CC_METHODS = { search = true, eigen = true }

--- connected_components(G [, opts]) -> count, labels
function M.connected_components(G, opts)
  local fname = "connected_components"
  opts = common.check_options(fname, opts,
    { method = true, tol = true, n_nodes = true, edge_list = true }, 2)
  local method = opts.method or "search"
  if not CC_METHODS[method] then
    fail("bad argument #2 to '%s' (method must be \"search\" or \"eigen\", got %s)", fname,
      tostring(method))
  end
  local g, n = common.graph(fname, G, opts, 1)
  if not native.symmetric(g) then
    fail("bad argument #1 to '%s' (the adjacency matrix must be symmetric)", fname)
  end
  if method == "search" then return native.components(g) end
  -- the multiplicity of the eigenvalue 0 of L = D - W
  local tol = opts.tol or 1e-8
  if n == 0 then return 0 end
  local L = M.laplacian(native.dense(g))
  local w = luma.linalg.eigh(L, { vectors = false })
  local scale = math.max(1, w:abs():max())
  return math.tointeger(w:le(tol * scale):sum())
end

local FORMAT_PARAM = { name = "format", default = "dense",
  doc = "\"dense\": the n x n matrix W; \"edges\": an E x 3 list (i, j, w) with both directions" }

luma.doc.set(M.epsilon_graph, { name = "luma.cluster.epsilon_graph",
  signature = "epsilon_graph(X, epsilon [, opts]) -> W",
  doc = "The epsilon-neighbourhood graph (von Luxburg 2007, sec. 2.2): w_ij = 1 when "
    .. "|x_i - x_j| <= epsilon (i != j, as scikit-learn's radius_neighbors_graph), else 0. "
    .. "Returns W.",
  params = {
    { name = "X", doc = "n x d data" },
    { name = "epsilon", doc = "the radius (> 0)" },
    FORMAT_PARAM,
    { name = "metric", default = "euclidean", doc = "any luma.neighbors metric" },
  } })

luma.doc.set(M.knn_graph, { name = "luma.cluster.knn_graph",
  signature = "knn_graph(X, n_neighbors [, opts]) -> W",
  doc = "The k-nearest-neighbour graph (von Luxburg 2007, sec. 2.2): i and j joined when j is "
    .. "among the k nearest neighbours of i or i among those of j (mutual = false), or both "
    .. "(mutual = true). Returns the symmetric W.",
  params = {
    { name = "X", doc = "n x d data" },
    { name = "n_neighbors", doc = "k, 1 <= k < n" },
    { name = "mutual", default = false, doc = "mutual k-NN graph (AND) instead of OR" },
    { name = "mode", default = "connectivity",
      doc = "edge weights: 1 (\"connectivity\"), the distance, or \"gaussian\" "
        .. "exp(-d^2 / (2 sigma^2))" },
    { name = "sigma", default = 1, doc = "the Gaussian width (mode \"gaussian\")" },
    FORMAT_PARAM,
    { name = "metric", default = "euclidean", doc = "any luma.neighbors metric" },
  } })

luma.doc.set(M.gaussian_graph, { name = "luma.cluster.gaussian_graph",
  signature = "gaussian_graph(X [, sigma = 1]) -> W",
  doc = "The fully connected graph with Gaussian similarity w_ij = exp(-|x_i - x_j|^2 / "
    .. "(2 sigma^2)) (von Luxburg 2007, sec. 2.2), zero diagonal. Returns the n x n W.",
  params = { { name = "X", doc = "n x d data" },
             { name = "sigma", default = 1, doc = "the width (> 0)" } } })

luma.doc.set(M.laplacian, { name = "luma.cluster.laplacian",
  signature = "laplacian(W [, kind = \"unnormalized\"]) -> L, degrees",
  doc = "A graph Laplacian of the symmetric non-negative W (diagonal ignored; von Luxburg 2007, "
    .. "sec. 3): L = D - W, L_rw = I - D^-1 W (kind \"rw\"; not symmetric, its eigenpairs solve "
    .. "L v = lambda D v) or L_sym = I - D^-1/2 W D^-1/2 (\"sym\"); isolated nodes get zero "
    .. "rows. Returns L (n x n) and the degrees d_i = sum_j w_ij (n x 1).",
  params = { { name = "W", doc = "n x n symmetric weights >= 0" },
             { name = "kind", default = "unnormalized", doc = "\"unnormalized\", \"rw\" or \"sym\"" } } })

luma.doc.set(M.connected_components, { name = "luma.cluster.connected_components",
  signature = "connected_components(G [, opts]) -> count, labels",
  doc = "The connected components of a graph (an adjacency matrix or an edge list): their "
    .. "count and each node's component (n x 1, numbered by smallest node) by breadth-first "
    .. "search, or (method = \"eigen\") only the count, as the multiplicity of the eigenvalue "
    .. "0 of L = D - W (von Luxburg 2007, Prop. 2).",
  params = {
    { name = "G", doc = "n x n symmetric adjacency matrix, or an edge list E x 2 / E x 3" },
    { name = "method", default = "search", doc = "\"search\" or \"eigen\"" },
    { name = "tol", default = 1e-8, doc = "eigen: eigenvalues below tol x max(1, |L|_2) count as 0" },
    { name = "n_nodes", default = "largest node number", doc = "nodes of an edge list" },
    { name = "edge_list", default = false, doc = "take a square G as an edge list" },
  } })

return M
