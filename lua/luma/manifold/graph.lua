--- luma.manifold Isomap and LocallyLinearEmbedding: embeddings through
-- the k-nearest-neighbour graph, scikit-learn's Isomap and
-- LocallyLinearEmbedding (method "standard") of 1.2.1.  Not in the course
-- notes; expected by users next to MDS and t-SNE.
--
-- Isomap (Tenenbaum, de Silva and Langford 2000): geodesic distances are
-- the shortest paths on the neighbour graph (Dijkstra from every point,
-- luma.manifold.native.shortest_paths), then classical scaling of them:
-- kernel PCA of -1/2 D^2 (double-centred), as scikit-learn does.
-- LLE (Roweis and Saul 2000): each point's barycentric weights on its
-- neighbours (a regularized k x k solve), then the bottom eigenvectors of
-- M = (I - W)^T (I - W) after the constant one.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local dcommon = require("luma.decomposition.common")
local mcommon = require("luma.manifold.common")
local native = require("luma.manifold.native")

local fail = dcommon.fail

local M = {}

local function check_neighbours(name, k, n)
  if k >= n then
    fail("bad argument #1 to 'fit' (%s: n_neighbors = %d must be less than n_samples = %d)", name,
      k, n)
  end
end

-- ---------------------------------------------------------------- Isomap

local INAME = "Isomap"

local function isomap_fit(self, X)
  local p = self.params
  dcommon.check_finite(INAME, "fit", X)
  local n = X:rows()
  check_neighbours(INAME, p.n_neighbors, n)
  if p.n_components >= n then
    fail("bad argument #1 to 'fit' (%s: n_components = %d must be less than n_samples = %d)",
      INAME, p.n_components, n)
  end
  local idx, d2 = mcommon.neighbours(X, p.n_neighbors)
  local D = native.shortest_paths(idx, d2:sqrt())
  if not D:isfinite():all() then
    fail("%s.fit: the neighbour graph is not connected (some points have no path between "
      .. "them); raise n_neighbors (it is %d)", INAME, p.n_neighbors)
  end
  local G = D:pow(2) * -0.5
  local kpca = luma.decomposition.KernelPCA{ n_components = p.n_components, kernel = "precomputed" }
  local Y = kpca:fit_transform(G)
  self.dist_matrix = D
  self.kernel_pca = kpca
  self.X_fit = X:copy()
  self.embedding = Y
  return Y
end

M.Isomap = estimator.class{
  name = "luma.manifold.Isomap",
  kind = "transformer",
  doc = "Isomap (Tenenbaum, de Silva and Langford, A global geometric framework for "
    .. "nonlinear dimensionality reduction, Science 2000), as scikit-learn's Isomap: shortest "
    .. "paths on the k-nearest-neighbour graph as geodesic distances, then classical scaling "
    .. "(kernel PCA of -1/2 D^2). transform(X) places new points through their neighbours' "
    .. "geodesic distances. Fitted: embedding, dist_matrix (geodesic distances), kernel_pca, "
    .. "X_fit. reconstruction_error() is scikit-learn's.",
  params = {
    { name = "n_neighbors", type = "integer", default = 5, min = 1, doc = "neighbours per point" },
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "embedding dimension" },
  },
  example = function() return M.Isomap{ n_neighbors = 4 }, dcommon.example_data() end,
  method_docs = {
    reconstruction_error = { signature = "est:reconstruction_error() -> number",
      doc = "sqrt(|K|_F^2 - sum lambda^2) / n for the centred geodesic kernel K and the kept "
        .. "eigenvalues (scikit-learn's Isomap.reconstruction_error). Returns a number." },
  },
  fit = function(self, X) isomap_fit(self, X) end,
  fit_transform = isomap_fit,
  transform = function(self, X)
    dcommon.check_finite(INAME, "transform", X)
    local idx, d2 = mcommon.neighbours(self.X_fit, self.params.n_neighbors, X)
    local dist = d2:sqrt()
    local m, n = X:rows(), self.X_fit:rows()
    local G = luma.full(m, n, math.huge)
    for i = 1, m do
      local row = G:row(i)
      for a = 1, idx:cols() do
        local j = math.tointeger(idx:get(i, a))
        luma.matrix.minimum(row, self.dist_matrix:row(j) + dist:get(i, a), row)
      end
    end
    return self.kernel_pca:transform(G:pow(2) * -0.5)
  end,
  reconstruction_error = function(self)
    dcommon.check_fitted(self, "reconstruction_error")
    local G = self.dist_matrix:pow(2) * -0.5
    local K = G - G:mean(1) - G:mean(2) + G:mean()
    local ev = self.kernel_pca.eigenvalues
    return math.sqrt(luma.matrix.dot(K, K) - luma.matrix.dot(ev, ev)) / G:rows()
  end,
}

-- ---------------------------------------------------------------- LLE

local LNAME = "LocallyLinearEmbedding"

-- Each row of Y (m x d) as an affine combination of its neighbours in X
-- (idx, m x k): weights solving (C + r I) w = 1 with C the neighbours'
-- local Gram matrix and r = reg tr(C) (reg when C is 0), normalized to
-- sum to 1 (scikit-learn's barycenter_weights).
local function barycenter_weights(X, Y, idx, reg)
  local m, k = idx:shape()
  local W = luma.zeros(m, k)
  local ones = luma.ones(k, 1)
  for i = 1, m do
    local rows = {}
    for a = 1, k do rows[a] = math.tointeger(idx:get(i, a)) end
    local Z = X:take(rows) - Y:row(i)
    local C = Z * Z:t()
    local trace = C:trace()
    C:diag():add(trace > 0 and reg * trace or reg, C:diag())
    local w = luma.linalg.solve(C, ones, { assume = "spd" })
    W:row(i):assign((w / w:sum()):t())
  end
  return W
end

local function lle_fit(self, X)
  local p = self.params
  dcommon.check_finite(LNAME, "fit", X)
  local n, d = X:shape()
  check_neighbours(LNAME, p.n_neighbors, n)
  if p.n_components > d then
    fail("bad argument #1 to 'fit' (%s: n_components = %d is more than n_features = %d)", LNAME,
      p.n_components, d)
  end
  if p.n_components + 1 > n then
    fail("bad argument #1 to 'fit' (%s needs more points than n_components + 1)", LNAME)
  end
  local idx = mcommon.neighbours(X, p.n_neighbors)
  local B = barycenter_weights(X, X, idx, p.reg)
  -- M = (I - W)^T (I - W) with W the sparse weights, formed densely
  local IW = luma.eye(n)
  for i = 1, n do
    for a = 1, idx:cols() do
      local j = math.tointeger(idx:get(i, a))
      IW:set(i, j, IW:get(i, j) - B:get(i, a))
    end
  end
  local Mm = IW:t() * IW
  local w, V = luma.linalg.eigh((Mm + Mm:t()) * 0.5)
  local q = p.n_components
  self.embedding = V:sub(nil, nil, 2, q + 1):copy()
  self.reconstruction_error = w:sub(2, q + 1, 1, 1):sum()
  self.X_fit = X:copy()
  return self.embedding
end

M.LocallyLinearEmbedding = estimator.class{
  name = "luma.manifold.LocallyLinearEmbedding",
  kind = "transformer",
  doc = "Locally linear embedding (Roweis and Saul, Nonlinear dimensionality reduction by "
    .. "locally linear embedding, Science 2000), scikit-learn's LocallyLinearEmbedding with "
    .. "method \"standard\": barycentric reconstruction weights of each point from its k "
    .. "neighbours (regularized by reg times the local trace), then the eigenvectors of "
    .. "(I - W)^T (I - W) with the smallest eigenvalues after the constant one (a dense "
    .. "eigenproblem: n up to a few thousand). transform(X) combines the neighbours' "
    .. "coordinates with new points' weights. Fitted: embedding, reconstruction_error (the sum "
    .. "of the kept eigenvalues), X_fit.",
  params = {
    { name = "n_neighbors", type = "integer", default = 5, min = 1, doc = "neighbours per point" },
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "embedding dimension" },
    { name = "reg", type = "number", default = 1e-3, min = 0, doc = "regularization of the local Gram matrices" },
  },
  example = function() return M.LocallyLinearEmbedding{ n_neighbors = 4 }, dcommon.example_data() end,
  fit = function(self, X) lle_fit(self, X) end,
  fit_transform = lle_fit,
  transform = function(self, X)
    dcommon.check_finite(LNAME, "transform", X)
    local idx = mcommon.neighbours(self.X_fit, self.params.n_neighbors, X)
    local B = barycenter_weights(self.X_fit, X, idx, self.params.reg)
    local out = luma.zeros(X:rows(), self.params.n_components)
    for i = 1, X:rows() do
      local rows = {}
      for a = 1, idx:cols() do rows[a] = math.tointeger(idx:get(i, a)) end
      out:row(i):assign(B:row(i) * self.embedding:take(rows))
    end
    return out
  end,
}

return M
