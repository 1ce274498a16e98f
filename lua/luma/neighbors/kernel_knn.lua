--- luma.neighbors.kernel_knn: k-nearest neighbours in a kernel's feature
-- space (notes 001 §G, "kernel kNN").
--
-- kNN needs only inner products, so it is kernelizable: the squared
-- feature-space distance is K(x_i, x_i) - 2 K(x_i, x_t) + K(x_t, x_t), and
-- for a fixed query the last term is constant, so the nearest training
-- point is i_t = argmin_i K(x_i, x_i) - 2 K(x_i, x_t) (the notes' rule;
-- argmax_i K(x_i, x_t) when K(x, x) = 1), and the k nearest are the k
-- smallest of those scores (the smaller index first on ties).  Distances
-- reported and used by weights = "distance" are the feature-space ones.
-- The scores come from luma.kernels objects in blocks of query rows, so
-- memory stays bounded; the selection is luma.neighbors.native's.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local native = require("luma.neighbors.native")
local common = require("luma.neighbors.common")

local fail = common.fail

local kernel_knn = {}

-- Query rows per block of scores (a block x n matrix at a time).
local BLOCK = 1024

-- The kernel parameters each named kernel takes (luma.kernels' options).
local KERNEL_OPTIONS = {
  linear = {}, cosine = {},
  polynomial = { "gamma", "degree", "coef0" },
  rbf = { "gamma" }, laplacian = { "gamma" },
  sigmoid = { "gamma", "coef0" },
}

-- The luma.kernels object of the parameters.
local function kernel_of(name, p)
  if type(p.kernel) ~= "string" then
    if not luma.kernels.is_kernel(p.kernel) then
      fail("%s: kernel must be a kernel name or a luma.kernels object", name)
    end
    return p.kernel
  end
  local keys = KERNEL_OPTIONS[p.kernel]
  if not keys then
    fail("%s: unknown kernel '%s' (valid: cosine, laplacian, linear, polynomial, rbf, sigmoid, "
      .. "or a luma.kernels object)", name, p.kernel)
  end
  local opts = {}
  for _, key in ipairs(keys) do opts[key] = p[key] end
  return luma.kernels[p.kernel](next(opts) and opts or nil)
end

local PARAMS = {
  { name = "n_neighbors", type = "integer", default = 5, min = 1, doc = "k, the neighbours used" },
  common.WEIGHTS_PARAM,
  { name = "kernel", type = "string|table", default = "rbf",
    doc = "a kernel name (linear, polynomial, rbf, laplacian, sigmoid, cosine) or a "
      .. "luma.kernels object" },
  { name = "gamma", type = "number", gt = 0, doc = "kernel gamma (default 1/n_features)" },
  { name = "degree", type = "integer", min = 1, default = 3, doc = "polynomial degree" },
  { name = "coef0", type = "number", default = 1, doc = "polynomial and sigmoid offset" },
}

local function fit(self, X)
  local name = self.__class.short_name
  common.check_weights_param(name, self.params.weights)
  local k = self.params.n_neighbors
  if k > X:rows() then
    fail("bad argument #1 to 'fit' (%s: n_neighbors = %d but X has only %d rows)", name, k, X:rows())
  end
  local bad = args.nonfinite(X)
  if bad then fail("bad argument #1 to 'fit' (%s: %s)", name, bad) end
  self.X_fit = X:copy()
  self.diag_fit = kernel_of(name, self.params):diag(X)
  self.n_samples_fit = X:rows()
end

-- Calls visit(dist, ind) for each block of queries with the k nearest
-- training points in feature space.
local function blocks(self, X, k, method, visit)
  local name = self.__class.short_name
  common.check_k(name, method, k, self.n_samples_fit)
  local bad = args.nonfinite(X)
  if bad then fail("bad argument #1 to '%s' (%s: %s)", method, name, bad) end
  local K = kernel_of(name, self.params)
  local row_diag = self.diag_fit:t()
  for r0 = 1, X:rows(), BLOCK do
    local Xb = X:sub(r0, math.min(r0 + BLOCK - 1, X:rows()), nil, nil)
    local scores = K(Xb, self.X_fit) * -2 + row_diag
    local vals, ind = native.select_rows(scores, k)
    local dist = (vals + K:diag(Xb)):maximum(0):sqrt()
    visit(dist, ind)
  end
end

-- The outputs of all blocks stacked.
local function collect(self, X, k, method, each)
  local parts = {}
  blocks(self, X, k, method, function(dist, ind)
    parts[#parts + 1] = each(dist, ind)
  end)
  if #parts == 0 then return each(luma.zeros(0, k), luma.zeros(0, k)) end
  return #parts == 1 and parts[1] or luma.matrix.vstack(parts)
end

local KNEIGHBORS_DOC = { signature = "est:kneighbors(X [, n_neighbors = nil]) -> dist, ind",
  doc = "The nearest training points of each row of X in the kernel's feature space, "
    .. "n_neighbors of them by default: feature-space distances and 1-based indices (m x k, "
    .. "the smaller index first on ties)." }

--- kneighbors(X [, n_neighbors]) -> dist, ind: the feature-space
-- distances and 1-based indices of the nearest training points.
local function kneighbors(self, X, k)
  common.check_queries(self, X, "kneighbors")
  if X == nil then fail("bad argument #1 to 'kneighbors' (X must be a luma.Matrix)") end
  k = k or self.params.n_neighbors
  local dists, inds = {}, {}
  blocks(self, X, k, "kneighbors", function(dist, ind)
    dists[#dists + 1], inds[#inds + 1] = dist, ind
  end)
  if #dists == 0 then return luma.zeros(0, k), luma.zeros(0, k) end
  return luma.matrix.vstack(dists), luma.matrix.vstack(inds)
end

local function votes(self, X, method)
  local p = self.params
  return collect(self, X, p.n_neighbors, method, function(dist, ind)
    return native.vote(ind, self.fit_codes, self.classes:rows(),
      common.weights(self.__class.short_name, p.weights, dist))
  end)
end

kernel_knn.KernelKNeighborsClassifier = estimator.class{
  name = "luma.neighbors.KernelKNeighborsClassifier",
  kind = "classifier",
  doc = "k-nearest-neighbour classifier in a kernel's feature space: neighbours by the "
    .. "smallest K(x_i, x_i) - 2 K(x_i, x) (the squared feature-space distance less K(x, x): "
    .. "Schölkopf, The kernel trick for distances, 2001), then the (weighted) vote of KNeighborsClassifier.",
  method_docs = { kneighbors = KNEIGHBORS_DOC },
  params = PARAMS,
  example = function()
    local X, y = common.example_data()
    return kernel_knn.KernelKNeighborsClassifier{ n_neighbors = 3, gamma = 0.5 }, X, y
  end,
  fit = function(self, X, y)
    self.fit_codes, self.classes = common.labels(self.__class.short_name, y)
    fit(self, X)
  end,
  predict_proba = function(self, X)
    local V = votes(self, X, "predict_proba")
    local s = V:sum(2)
    return V:div(luma.matrix.where(s:eq(0), 1, s))
  end,
  predict = function(self, X)
    return self.classes:take(votes(self, X, "predict"):argmax(2))
  end,
  kneighbors = kneighbors,
}

kernel_knn.KernelKNeighborsRegressor = estimator.class{
  name = "luma.neighbors.KernelKNeighborsRegressor",
  kind = "regressor",
  doc = "k-nearest-neighbour regression in a kernel's feature space: the (weighted) mean "
    .. "target of the neighbours by the smallest K(x_i, x_i) - 2 K(x_i, x).",
  method_docs = { kneighbors = KNEIGHBORS_DOC },
  params = PARAMS,
  example = function()
    local X = common.example_data()
    return kernel_knn.KernelKNeighborsRegressor{ n_neighbors = 3, kernel = "laplacian" }, X,
      X:col(1) - X:col(2)
  end,
  fit = function(self, X, y)
    self.fit_y = y:copy()
    fit(self, X)
  end,
  predict = function(self, X)
    local p = self.params
    return collect(self, X, p.n_neighbors, "predict", function(dist, ind)
      return native.average(ind, self.fit_y, common.weights(self.__class.short_name, p.weights, dist))
    end)
  end,
  kneighbors = kneighbors,
}

return kernel_knn
