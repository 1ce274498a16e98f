--- luma.rbf_network: radial basis function networks (notes 003 §1.10;
-- Broomhead & Lowe 1988; Bishop 2006 §6.3): RBFNetworkRegressor and
-- RBFNetworkClassifier.
--
-- The model is h(x) = sum_k w_k exp(-gamma |x - mu_k|^2) (+ b).  With
-- n_centers = nil every training point is a centre and, without ridge or
-- intercept, the weights solve the N x N system Phi w = y, exact
-- interpolation (notes 003 L468-474).  With n_centers = K << N the
-- centres come from k-means on the inputs alone (the notes: "not
-- contaminated" by y), Phi is N x K and w = (Phi^T Phi)^-1 Phi^T y, the
-- least-squares solution (L476-486; through the SVD, so a rank-deficient
-- Phi gives the minimum-norm one); alpha > 0 adds the ridge alpha |w|^2
-- (the intercept is not penalised).  The notes leave the bias open: the
-- model has one when fit_intercept is true (the default with K centres;
-- exact interpolation has none, as in the notes' solve).
--
-- The classifier regresses the one-hot indicators of the classes and
-- predicts the class of the largest output (decision_function gives the
-- outputs).
--
-- The centres are luma.cluster.KMeans's (one k-means++ seeding, Lloyd's
-- iterations, at most max_iter of them).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")

local M = {}

local fail = args.fail

local function kmeans(X, k, rng, max_iter)
  return luma.cluster.KMeans{ n_clusters = k, n_init = 1, max_iter = max_iter, seed = rng }
    :fit(X).cluster_centers
end

local function design(self, X)
  return luma.pairwise.kernel(X, self.centers, "rbf", { gamma = self.gamma })
end

-- Fits centres and weights to the targets T (n x t).
local function fit_network(self, X, T)
  local p = self.params
  args.finite(X, 1, "fit", 4)
  local n = X:rows()
  local k = p.n_centers
  if k and k > n then
    fail(4, "%s: parameter 'n_centers' (%d) must be at most the number of rows of X (%d)",
      self.__class.short_name, k, n)
  end
  self.gamma = p.gamma or 1 / X:cols()
  self.centers = k and kmeans(X, k, estimator.rng(p.seed), p.max_iter) or X:copy()
  local Phi = design(self, X)
  local with_b = p.fit_intercept
  if with_b == nil then with_b = k ~= nil end
  local m = Phi:cols()
  local W, b
  if p.alpha == 0 and not with_b and m == n then
    -- exact interpolation: Phi w = y (Phi is positive definite for distinct points)
    W = luma.linalg.solve(Phi, T)
  else
    local A = with_b and luma.matrix.hstack{ Phi, luma.ones(n, 1) } or Phi
    if p.alpha == 0 then
      W = luma.linalg.lstsq(A, T)
    else
      local G = A:t() * A
      local d = G:diag():sub(1, m, 1, 1)
      d:add(p.alpha, d)
      W = luma.linalg.solve(G, A:t() * T)
    end
    if with_b then W, b = W:sub(1, m, 1, W:cols()):copy(), W:row(m + 1):copy() end
  end
  self.coef = W
  self.intercept = b and (b:cols() == 1 and b:get(1, 1) or b) or 0
end

local function check_X(X, fname)
  args.finite(X, 1, fname, 3)
end

local function outputs(self, X)
  return (design(self, X) * self.coef):add(self.intercept)
end

local PARAMS = {
  { name = "n_centers", type = "integer", min = 1,
    doc = "K centres from k-means on X (default: every training point, exact interpolation)" },
  { name = "gamma", type = "number", gt = 0, doc = "width: exp(-gamma |x - mu|^2) (default 1/n_features)" },
  { name = "alpha", type = "number", default = 0, min = 0, doc = "ridge penalty on the weights" },
  { name = "fit_intercept", type = "boolean",
    doc = "an unpenalised bias b (default: true with n_centers, false for exact interpolation)" },
  { name = "max_iter", type = "integer", default = 300, min = 1, doc = "k-means iterations" },
  { name = "seed", type = "seed", doc = "seed or generator for the k-means seeding" },
}

local function example_data()
  local X = luma.matrix{ { 0.1 }, { 0.7 }, { 1.3 }, { 2.2 }, { 2.9 }, { 3.6 }, { 4.4 }, { 5.0 } }
  return X
end

M.RBFNetworkRegressor = estimator.class{
  name = "luma.rbf_network.RBFNetworkRegressor", kind = "regressor",
  doc = "Radial basis function network (Broomhead & Lowe 1988; Moody & Darken 1989; Bishop, "
    .. "Pattern Recognition and Machine Learning, sec. 6.3): h(x) = sum_k w_k exp(-gamma |x - "
    .. "mu_k|^2) + b. Centres: every training point (exact interpolation, Phi w = y) or "
    .. "n_centers from k-means on X; weights by least squares, with the ridge alpha |w|^2 when "
    .. "alpha > 0. Fitted: centers, coef, intercept, gamma.",
  params = PARAMS,
  example = function()
    local X = example_data()
    return M.RBFNetworkRegressor{ n_centers = 3, seed = 1 }, X, X:sin()
  end,
  fit = function(self, X, y)
    if not y:isfinite():all() then fail(3, "bad argument #2 to 'fit' (y contains NaN or Inf)") end
    fit_network(self, X, y)
  end,
  predict = function(self, X)
    check_X(X, "predict")
    return outputs(self, X)
  end,
}

M.RBFNetworkClassifier = estimator.class{
  name = "luma.rbf_network.RBFNetworkClassifier", kind = "classifier",
  doc = "Radial basis function network classifier: the network of RBFNetworkRegressor fitted to "
    .. "the one-hot indicators of the classes; predicts the class of the largest output "
    .. "(decision_function, n x k). Fitted: classes, centers, coef, intercept, gamma.",
  params = PARAMS,
  example = function()
    local X = example_data()
    return M.RBFNetworkClassifier{ n_centers = 4, seed = 1 }, X, luma.matrix{ 1, 1, 1, 2, 2, 2, 3, 3 }
  end,
  fit = function(self, X, y)
    if y:cols() ~= 1 then fail(3, "bad argument #2 to 'fit' (y must be one column of labels)") end
    local codes, classes = estimator.encode_labels(y)
    if classes:rows() < 2 then
      fail(3, "bad argument #2 to 'fit' (RBFNetworkClassifier needs at least two classes, y has "
        .. "only %.15g)", classes:get(1, 1))
    end
    self.classes = classes
    fit_network(self, X, codes:eq(luma.arange(1, classes:rows()):t()))
  end,
  decision_function = function(self, X)
    check_X(X, "decision_function")
    return outputs(self, X)
  end,
  predict = function(self, X)
    check_X(X, "predict")
    return estimator.decode_labels(outputs(self, X):argmax(2), self.classes)
  end,
}

luma.doc.set(M, { name = "luma.rbf_network",
  doc = "Radial basis function networks (Broomhead & Lowe 1988; Bishop, Pattern Recognition "
    .. "and Machine Learning, sec. 6.3): RBFNetworkRegressor and RBFNetworkClassifier; exact "
    .. "interpolation or k-means centres, least-squares or ridge weights. See "
    .. "docs/GAUSSIAN_PROCESS.md." })

return M
