--- luma.cluster.kernel: KernelKMeans (docs/CLUSTER.md).
--
-- k-means in the feature space of a kernel (notes 001 §G "Kernel
-- k-means", L873–887): clusters are indicator vectors alpha^k in {0,1}^n
-- with n_k = 1^T alpha^k, and each row goes to
--   z_i = argmin_k n_k^-2 (alpha^k)^T G alpha^k - 2 n_k^-1 G_i,: alpha^k,
-- the squared feature-space distance to the cluster mean with the
-- constant K(x_i, x_i) dropped; repeat until no label changes.  The
-- notes start from random indicators; we do too, with every cluster
-- given one distinct random row first so that none starts empty.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local dcommon = require("luma.decomposition.common")

local fail = dcommon.fail
local NAME = "luma.cluster.KernelKMeans"

local M = {}

-- The Gram matrix between the rows of X and Y (a luma.kernels object, the
-- linear kernel when none is given) or X itself when precomputed.
local function gram(self, X, Y)
  local k = self.params.kernel
  if k == "precomputed" then return X end
  if k == nil then k = luma.kernels.linear() end
  return k(X, Y)
end

local function check_kernel(self)
  local k = self.params.kernel
  if k ~= nil and k ~= "precomputed" and not luma.kernels.is_kernel(k) then
    fail("%s: kernel must be a luma.kernels object or \"precomputed\", got %s", NAME,
      type(k) == "string" and string.format("%q", k) or type(k))
  end
end

local function onehot(labels, k)
  return luma.arange(1, k):t():eq(labels)
end

-- Per cluster: n_k (1 x k) and c_k = (alpha^k)^T G alpha^k / n_k^2 (1 x k),
-- and G A (n x k), for the labels.
local function cluster_terms(G, labels, k)
  local A = onehot(labels, k)
  local sizes = A:sum(1)
  local GA = G * A
  local safe = luma.matrix.maximum(sizes, 1)
  return sizes, GA:mul(A):sum(1):div(safe:pow(2)), GA, safe
end

-- One run from random indicators: returns labels, inertia, iterations.
local function run(G, diag, k, max_iter, rng)
  local n = G:rows()
  local labels = rng:integers(1, k, n, 1)
  local first = rng:permutation(n):sub(1, k)
  for c = 1, k do labels:set(math.tointeger(first:get(c, 1)), 1, c) end
  local n_iter = 0
  for _ = 1, max_iter do
    n_iter = n_iter + 1
    local sizes, within, GA, safe = cluster_terms(G, labels, k)
    -- empty clusters cannot attract rows
    local dist = GA:div(safe) * -2 + within + luma.matrix.where(sizes:eq(0), math.huge, 0)
    local new = dist:argmin(2)
    -- a cluster left empty takes the row farthest from its own centre
    -- (the full distance, K(x_i, x_i) included), as KMeans does
    local counts = onehot(new, k):sum(1)
    if counts:eq(0):any() then
      local far = (diag + dist:mul(onehot(new, k)):sum(2)):copy()
      for c = 1, k do
        if counts:get(1, c) == 0 then
          local i = math.tointeger(far:argmax())
          new:set(i, 1, c)
          far:set(i, 1, -math.huge)
        end
      end
    end
    local stable = new:eq(labels):all()
    labels = new
    if stable then break end
  end
  local sizes, within, GA, safe = cluster_terms(G, labels, k)
  local A = onehot(labels, k)
  local inertia = (diag + (within - GA:div(safe) * 2):mul(A):sum(2)):sum()
  return labels, math.max(inertia, 0), n_iter, sizes, within
end

local function fit(self, X)
  local p = self.params
  check_kernel(self)
  dcommon.check_finite(NAME, "fit", X)
  local n, k = X:rows(), p.n_clusters
  if n < k then
    fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d rows of X)", NAME, k, n)
  end
  if p.kernel == "precomputed" then
    if X:cols() ~= n then
      fail("bad argument #1 to 'fit' (%s: a precomputed Gram matrix must be square, got %d x %d)",
        NAME, n, X:cols())
    end
    if not X:allclose(X:t(), 1e-10, 1e-12) then
      fail("bad argument #1 to 'fit' (%s: the precomputed Gram matrix is not symmetric)", NAME)
    end
  end
  local G = gram(self, X)
  local diag = G:diag():copy()
  local rng = estimator.rng(p.seed)
  for _ = 1, p.n_init do
    local labels, inertia, n_iter, sizes, within = run(G, diag, k, p.max_iter, rng)
    if not self.inertia or inertia < self.inertia then
      self.labels, self.inertia, self.n_iter = labels, inertia, n_iter
      self.cluster_sizes, self.within = sizes, within
    end
  end
  if p.kernel ~= "precomputed" then self.X_fit = X:copy() end
end

M.KernelKMeans = estimator.class{
  name = NAME,
  kind = "clusterer",
  doc = "Kernel k-means (Schölkopf, Smola and Müller, Nonlinear component analysis as a "
    .. "kernel eigenvalue problem, Neural Computation 1998; Dhillon, Guan and Kulis, Kernel "
    .. "k-means, spectral clustering and normalized cuts, KDD 2004): k-means on the "
    .. "feature vectors of a kernel, written with the Gram matrix G only. Clusters are "
    .. "indicator vectors; each row goes to argmin_k n_k^-2 1_k^T G 1_k - 2 n_k^-1 G_i,: 1_k "
    .. "(its feature-space distance to the cluster mean less the constant K(x, x)), from "
    .. "random indicators until no label changes; n_init runs keep the lowest inertia "
    .. "(feature-space sum of squares). kernel: a luma.kernels object (nil: linear, i.e. "
    .. "k-means) or \"precomputed\" (X is the n x n Gram matrix, and predict takes the "
    .. "m x n Gram matrix against the fitted rows). Fitted: labels, inertia, n_iter, "
    .. "cluster_sizes (1 x k), X_fit.",
  params = {
    { name = "n_clusters", type = "integer", default = 8, min = 1, doc = "number of clusters k" },
    { name = "kernel", type = "any",
      doc = "a luma.kernels object, \"precomputed\", or nil for the linear kernel" },
    { name = "n_init", type = "integer", default = 10, min = 1, doc = "runs; the lowest inertia is kept" },
    { name = "max_iter", type = "integer", default = 300, min = 1, doc = "iterations per run" },
    { name = "seed", type = "seed", doc = "generator of the initial indicators" },
  },
  example = function()
    return M.KernelKMeans{ n_clusters = 2, seed = 1, n_init = 2 },
      luma.matrix{ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 9, 9 }, { 9, 10 }, { 10, 9 } }
  end,
  method_docs = {
    predict = { signature = "est:predict(X) -> labels",
      doc = "The nearest cluster mean in feature space of each row of X (precomputed: X is "
        .. "the m x n Gram matrix against the fitted rows). Returns an m x 1 matrix of "
        .. "labels 1..k." },
    fit_predict = { signature = "est:fit_predict(X [, y = nil]) -> labels",
      doc = "Fits to X and returns the labels of its rows. Returns an n x 1 matrix." },
  },
  fit = fit,
  fit_predict = function(self, X, y)
    fit(self, X, y)
    return self.labels
  end,
  predict = function(self, X)
    dcommon.check_finite(NAME, "predict", X)
    local k = self.params.n_clusters
    -- precomputed: X is the Gram matrix against the fitted rows (the
    -- contract has checked its width)
    local K = self.params.kernel == "precomputed" and X or gram(self, X, self.X_fit)
    local safe = luma.matrix.maximum(self.cluster_sizes, 1)
    local dist = (K * onehot(self.labels, k)):div(safe) * -2 + self.within
      + luma.matrix.where(self.cluster_sizes:eq(0), math.huge, 0)
    return dist:argmin(2)
  end,
}

return { KernelKMeans = M.KernelKMeans }
