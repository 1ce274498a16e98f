--- luma.cluster.spectral: spectral clustering and the spectral embedding
-- (von Luxburg, A tutorial on spectral clustering, Statistics and
-- Computing 17, 2007, sec. 4; notes 000 Ch. 10 §10.2.3, 003 §1.19).
--
-- Three algorithms, by the Laplacian whose bottom eigenvectors embed the
-- points before k-means on the rows:
--   unnormalized  L = D - W (von Luxburg's first algorithm; relaxes RatioCut)
--   shi_malik     the generalized problem L v = lambda D v, i.e. the
--                 eigenvectors of L_rw (Shi and Malik 2000; relaxes NCut).
--                 L_rw is not symmetric (the notes' erratum): densely it is
--                 solved through luma.linalg.eigh_generalized (dsygvd), by
--                 Lanczos as D^-1/2 times the eigenvectors of L_sym.  This is
--                 what scikit-learn's SpectralClustering computes.
--   njw           the eigenvectors of L_sym with rows scaled to unit length
--                 (Ng, Jordan and Weiss 2002).
-- The diagonal of the affinity is ignored (a point is not its own
-- neighbour), as scipy.sparse.csgraph.laplacian does.  Eigenvectors are
-- signed so that their entry of largest magnitude is positive
-- (scikit-learn's _deterministic_vector_sign_flip).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local native = require("luma.cluster.native")
local common = require("luma.cluster.graph_common")
local KMeans = require("luma.cluster.kmeans").KMeans

local fail = common.fail

local M = {}

local METHODS = { unnormalized = true, shi_malik = true, njw = true }
local SOLVERS = { auto = true, dense = true, lanczos = true }

-- Up to this many nodes, "auto" solves densely.
local DENSE_AUTO = 1000

-- Each column's entry of largest magnitude made positive.
local function sign_flip(U)
  local n, k = U:shape()
  for j = 1, k do
    local col = U:col(j)
    local i = math.tointeger(col:abs():argmax())
    if col:get(i, 1) < 0 then col:assign(col:neg()) end
  end
  return U
end

local function method_vectors(method, vecs, deg)
  if method == "shi_malik" then
    -- D^-1/2 times the L_sym eigenvectors: the generalized ones, D-orthonormal
    return vecs:div((deg + deg:le(0)):sqrt())
  elseif method == "njw" then
    local norms = vecs:pow(2):sum(2):sqrt()
    return vecs:div(norms + norms:le(0))
  end
  return vecs
end

-- The dense eigenproblem of the method on W (diagonal ignored).
local function dense_pairs(method, W, k)
  local A = W:copy()
  A:diag():fill(0)
  local d = A:sum(2)
  local L = A:neg() + 0
  L:diag():assign(d)
  local w, V
  if method == "unnormalized" then
    w, V = luma.linalg.eigh(L)
  elseif method == "shi_malik" then
    -- D must be positive definite: an isolated node (d = 0, a zero row
    -- of L) takes 1, its eigenvalue stays 0
    local D = luma.zeros(A:rows(), A:rows())
    D:diag():assign(d + d:le(0))
    w, V = luma.linalg.eigh_generalized(L, D)
  else
    local s = (d + d:le(0)):sqrt():pow(-1):mul(d:gt(0))
    local Ls = L:mul(s):mul(s:t())
    w, V = luma.linalg.eigh(Ls)
    local norms = V:sub(nil, nil, 1, k):pow(2):sum(2):sqrt()
    return w:sub(1, k, nil, nil):copy(), V:sub(nil, nil, 1, k):div(norms + norms:le(0))
  end
  return w:sub(1, k, nil, nil):copy(), V:sub(nil, nil, 1, k):copy()
end

--- embed(fname, g, n, W, opts) -> U (n x k), eigenvalues (k x 1),
-- components: the k bottom eigenvectors of the method's Laplacian.
-- opts: k, method, eigen_solver, eigen_tol, seed (an integer).
local function embed(fname, g, n, W, o)
  local solver = o.eigen_solver
  if solver == "auto" then solver = n <= DENSE_AUTO and "dense" or "lanczos" end
  local vals, U, ncomp
  if solver == "dense" then
    ncomp = native.components(g)
    vals, U = dense_pairs(o.method, W or native.dense(g), o.k)
  else
    local vecs, deg, info
    vals, vecs, deg, info = native.laplacian_eig(g, o.k, {
      normalized = o.method ~= "unnormalized", tol = o.eigen_tol, seed = o.seed })
    ncomp = info.components
    if not info.converged then
      common.warning("%s: the Lanczos eigensolver did not reach eigen_tol = %g in %d products",
        fname, o.eigen_tol, info.matvecs)
    end
    U = method_vectors(o.method, vecs, deg)
  end
  if ncomp > 1 then
    common.warning("%s: the affinity graph is not connected (%d connected components); the "
      .. "spectral embedding may not work as expected", fname, ncomp)
  end
  return sign_flip(U), vals, ncomp
end

local function check_choice(fname, what, v, allowed, argn)
  if not allowed[v] then
    local names = {}
    for key in pairs(allowed) do names[#names + 1] = string.format("%q", key) end
    table.sort(names)
    fail("bad argument #%d to '%s' (%s must be one of %s, got %s)", argn, fname, what,
      table.concat(names, ", "), tostring(v))
  end
  return v
end

local function check_symmetric(fname, g, argn)
  local ok, i, j = native.symmetric(g)
  if not ok then
    fail("bad argument #%d to '%s' (the affinity matrix must be symmetric: entries (%d, %d) and "
      .. "(%d, %d) differ)", argn, fname, i, j, j, i)
  end
end

--- spectral_embedding(affinity [, opts]) -> embedding, eigenvalues
function M.spectral_embedding(affinity, opts)
  local fname = "spectral_embedding"
  opts = common.check_options(fname, opts, { n_components = true, method = true,
    drop_first = true, eigen_solver = true, eigen_tol = true, seed = true, n_nodes = true,
    edge_list = true }, 2)
  local method = check_choice(fname, "method", opts.method or "shi_malik", METHODS, 2)
  local solver = check_choice(fname, "eigen_solver", opts.eigen_solver or "auto", SOLVERS, 2)
  local tol = opts.eigen_tol or 1e-10
  if type(tol) ~= "number" or not (tol > 0) then
    fail("bad argument #2 to '%s' (eigen_tol must be a number > 0, got %s)", fname, tostring(tol))
  end
  local drop_first = opts.drop_first
  if drop_first == nil then drop_first = true end
  local g, n, W = common.graph(fname, affinity, opts, 1, { drop_diagonal = true })
  check_symmetric(fname, g, 1)
  local m = opts.n_components or 8
  local k = m + (drop_first and 1 or 0)
  if math.type(m) ~= "integer" or m < 1 or k > n then
    fail("bad argument #2 to '%s' (n_components must be an integer in 1..%d, got %s)", fname,
      n - (drop_first and 1 or 0), tostring(m))
  end
  local U, vals = embed(fname, g, n, W, { k = k, method = method, eigen_solver = solver,
    eigen_tol = tol, seed = common.native_seed(fname, opts.seed, 2) })
  if drop_first then
    return U:sub(nil, nil, 2, k):copy(), vals:sub(2, k, nil, nil):copy()
  end
  return U, vals
end

-- ------------------------------------------------------ SpectralClustering

local NAME = "SpectralClustering"

-- The affinity graph of X by params.affinity: Graph, n, dense W (or nil),
-- and what the estimator keeps as affinity_matrix.
local function affinity_graph(self, X)
  local p = self.params
  local n = X:rows()
  local bad = args.nonfinite(X)
  if bad then fail("bad argument #1 to 'fit' (%s: %s)", NAME, bad) end
  if p.affinity == "precomputed" then
    if X:rows() ~= X:cols() then
      fail("bad argument #1 to 'fit' (%s: a precomputed affinity must be square, got %d x %d)",
        NAME, X:rows(), X:cols())
    end
    local g = common.graph("fit", X, nil, 1, { drop_diagonal = true })
    local ok, i, j = native.symmetric(g)
    if not ok then
      fail("bad argument #1 to 'fit' (%s: the precomputed affinity must be symmetric: X[%d][%d] "
        .. "= %.17g but X[%d][%d] = %.17g)", NAME, i, j, X:get(i, j), j, i, X:get(j, i))
    end
    return g, X
  elseif p.affinity == "rbf" then
    local W = luma.pairwise.kernel(X, nil, "rbf", { gamma = p.gamma })
    return native.graph(W, n, { format = "dense", drop_diagonal = true }), W
  end
  -- nearest_neighbors: (C + C^T) / 2 with C the connectivity of each
  -- point's n_neighbors nearest points, itself included (scikit-learn's
  -- kneighbors_graph(include_self = True)); the self-loops then dropped
  local k = p.n_neighbors
  if k > n then
    fail("bad argument #1 to 'fit' (%s: n_neighbors = %d is more than the %d samples)", NAME, k, n)
  end
  local nn = luma.neighbors.NearestNeighbors{ n_neighbors = k }:fit(X)
  local _, ind = nn:kneighbors(X, k)
  local rows = (luma.arange(1, n):reshape(n, 1) * luma.ones(1, k)):reshape(n * k, 1)
  local E = luma.hstack{ rows, ind:reshape(n * k, 1), luma.ones(n * k, 1) }
  local g = native.graph(E, n, { format = "edges", scale = 0.5, drop_diagonal = true })
  return g, nil
end

local function fit(self, X)
  local p = self.params
  local n = X:rows()
  if p.n_clusters > n then
    fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d samples)", NAME,
      p.n_clusters, n)
  end
  local rng = estimator.rng(p.seed)
  local g, W = affinity_graph(self, X)
  local k = p.n_components or p.n_clusters
  if k > n then
    fail("bad argument #1 to 'fit' (%s: n_components = %d is more than the %d samples)", NAME, k, n)
  end
  local U, vals, ncomp = embed("SpectralClustering.fit", g, n, W, { k = k, method = p.method,
    eigen_solver = p.eigen_solver, eigen_tol = p.eigen_tol,
    seed = rng:integers(0, math.maxinteger) })
  local km = KMeans{ n_clusters = p.n_clusters, n_init = p.n_init, seed = rng }:fit(U)
  self.labels = km.labels
  self.embedding = U
  self.eigenvalues = vals
  self.n_connected_components = ncomp
  -- the k-NN affinity stays sparse: its entries as an edge list
  self.affinity_matrix = W or native.edges(g)
  return self
end

M.SpectralClustering = estimator.class{
  name = "luma.cluster.SpectralClustering",
  kind = "clusterer",
  doc = "Spectral clustering (von Luxburg, A tutorial on spectral clustering, 2007, sec. 4), "
    .. "as scikit-learn's SpectralClustering: an affinity graph of the rows of X, the bottom "
    .. "n_components eigenvectors of its Laplacian (method: unnormalized L = D - W; shi_malik, "
    .. "the generalized L v = lambda D v of Shi and Malik 2000, scikit-learn's choice; njw, "
    .. "L_sym with unit rows, Ng, Jordan and Weiss 2002), then k-means with n_init restarts on "
    .. "the rows of the embedding. Large graphs are solved by thick-restart Lanczos on the "
    .. "sparse graph, component by component. A disconnected graph gives a warning. Fitted: "
    .. "labels (n x 1, 1..k), embedding (n x n_components), eigenvalues, "
    .. "n_connected_components, affinity_matrix (n x n; for nearest_neighbors an E x 3 list "
    .. "(i, j, w) of its nonzero entries, both directions).",
  params = {
    { name = "n_clusters", type = "integer", default = 8, min = 1, doc = "number of clusters k" },
    { name = "method", type = "string", default = "shi_malik",
      values = { "shi_malik", "unnormalized", "njw" }, doc = "the Laplacian and normalization" },
    { name = "affinity", type = "string", default = "rbf",
      values = { "rbf", "nearest_neighbors", "precomputed" },
      doc = "exp(-gamma |x_i - x_j|^2), the symmetrized k-NN connectivity (C + C^T) / 2, or X "
        .. "itself (n x n, symmetric, >= 0)" },
    { name = "gamma", type = "number", default = 1.0, gt = 0, doc = "the rbf affinity's gamma" },
    { name = "n_neighbors", type = "integer", default = 10, min = 1,
      doc = "neighbours of the nearest_neighbors affinity (the point itself included)" },
    { name = "n_components", type = "integer", min = 1,
      doc = "eigenvectors in the embedding (nil: n_clusters)" },
    { name = "n_init", type = "integer", default = 10, min = 1, doc = "k-means restarts" },
    { name = "eigen_solver", type = "string", default = "auto",
      values = { "auto", "dense", "lanczos" },
      doc = "dense LAPACK, Lanczos on the sparse graph, or auto (dense up to 1000 points)" },
    { name = "eigen_tol", type = "number", default = 1e-10, gt = 0,
      doc = "Lanczos: Ritz residual tolerance, relative to the spectrum's width" },
    { name = "seed", type = "seed", doc = "generator of the Lanczos start and of k-means" },
  },
  example = function()
    local X = luma.matrix{ { 0, 0 }, { 0.1, 0 }, { 0, 0.1 }, { 5, 5 }, { 5.1, 5 }, { 5, 5.1 } }
    return M.SpectralClustering{ n_clusters = 2, affinity = "nearest_neighbors", n_neighbors = 3,
      seed = 1, n_init = 2 }, X
  end,
  method_docs = {
    fit_predict = { signature = "est:fit_predict(X) -> labels",
      doc = "Fits to X and returns the labels of its rows (est.labels). Returns an n x 1 matrix." },
  },
  fit = fit,
  fit_predict = function(self, X) return fit(self, X).labels end,
}

luma.doc.set(M.spectral_embedding, { name = "luma.cluster.spectral_embedding",
  signature = "spectral_embedding(affinity [, opts]) -> embedding, eigenvalues",
  doc = "The spectral embedding of a graph (Belkin and Niyogi 2003; von Luxburg 2007, sec. 4): "
    .. "the eigenvectors of the method's Laplacian for its smallest eigenvalues, as columns, "
    .. "signed so that each column's largest entry in magnitude is positive. Returns the n x "
    .. "n_components embedding and the eigenvalues (ascending, a column).",
  params = {
    { name = "affinity", doc = "n x n symmetric weights >= 0 (diagonal ignored), or an edge list "
      .. "E x 2 / E x 3" },
    { name = "n_components", default = 8, doc = "columns of the embedding" },
    { name = "method", default = "shi_malik",
      doc = "\"shi_malik\" (L v = lambda D v, as scikit-learn), \"unnormalized\" (L = D - W) "
        .. "or \"njw\" (L_sym, rows scaled to unit length)" },
    { name = "drop_first", default = true, doc = "leave out the first (trivial) eigenvector" },
    { name = "eigen_solver", default = "auto", doc = "\"dense\", \"lanczos\" or \"auto\" (dense up to 1000 nodes)" },
    { name = "eigen_tol", default = 1e-10, doc = "Lanczos residual tolerance" },
    { name = "seed", default = "nil (the default generator)", doc = "the Lanczos start vectors" },
    { name = "n_nodes", default = "largest node number", doc = "nodes of an edge list" },
    { name = "edge_list", default = false, doc = "take a square affinity as an edge list" },
  } })

return M
