--- luma.decomposition LatentFactorModel: the low-rank latent factor model
-- x_i = W z_i + eps_i, X ~ Z W^T (notes 001 §I "Low-rank latent factor
-- model"; 001 §K, matrix factorization for recommender systems).
--
-- method "svd": the truncated SVD X ~ U_k S_k V_k^T split evenly, Z =
-- U_k S_k^{1/2} and W = V_k S_k^{1/2}.  The notes set Z = U S^{1/2} and
-- W = V, whose product Z W^T is not X_k (the S^{1/2} is lost): corrected
-- (their erratum 7 lists this and the alternative Z = U S, W = V).
-- method "als": alternating least squares (ridge when alpha > 0),
-- Z <- X W (W^T W + alpha I)^-1 then W <- X^T Z (Z^T Z + alpha I)^-1,
-- from a random W; with alpha = 0 it converges to the same rank-k
-- approximation (the notes' AltMin with every entry observed).
-- No centring: the model is of X itself (centre first for PCA).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local check_finite = common.check_finite
local linalg = luma.linalg

local M = {}

local NAME = "LatentFactorModel"

local function ridge_solve(G, B, alpha)
  if alpha > 0 then G:diag():add(alpha, G:diag()) end
  local ok, Z = pcall(linalg.solve, (G + G:t()) * 0.5, B, { assume = "spd" })
  if not ok then Z = linalg.lstsq(G, B) end
  return Z
end

local function fit_transform(self, X)
  local p = self.params
  check_finite(NAME, "fit", X)
  local n, d = X:shape()
  local k = p.n_components
  common.check_components(NAME, k, n, d)
  local Z, W
  if p.method == "svd" then
    local U, s, Vt = common.svd(X)
    common.svd_flip(U, Vt, true)
    local root = s:sub(1, k, 1, 1):sqrt():t()
    Z = U:sub(nil, nil, 1, k):mul(root)
    W = Vt:sub(1, k, nil, nil):t():mul(root)
    self.n_iter = 0
  else
    W = estimator.rng(p.seed):normal(d, k)
    local total = luma.matrix.dot(X, X)
    local previous = math.huge
    local history = {}
    local it = 0
    for step = 1, p.max_iter do
      it = step
      Z = ridge_solve(W:t() * W, W:t() * X:t(), p.alpha):t()
      W = ridge_solve(Z:t() * Z, Z:t() * X, p.alpha):t()
      local R = X - Z * W:t()
      local loss = luma.matrix.dot(R, R) + p.alpha * (luma.matrix.dot(Z, Z) + luma.matrix.dot(W, W))
      history[step] = loss
      if previous - loss <= p.tol * total then break end
      previous = loss
    end
    if it == p.max_iter then
      common.warning("luma.decomposition", "%s (als) did not converge in %d iterations", NAME, p.max_iter)
    end
    self.n_iter = it
    self.loss_history = luma.matrix(history)
  end
  self.components = W:t():copy()
  self.n_components = k
  self.n_features_out = k
  local R = X - Z * W:t()
  self.reconstruction_err = math.sqrt(luma.matrix.dot(R, R))
  return Z
end

M.LatentFactorModel = estimator.class{
  name = "luma.decomposition.LatentFactorModel",
  kind = "transformer",
  doc = "The low-rank latent factor model X ~ Z W^T (Koren, Bell and Volinsky, Matrix "
    .. "factorization techniques for recommender systems, 2009, without missing entries): "
    .. "method \"svd\" splits the truncated SVD evenly, Z = U_k S_k^{1/2}, W = V_k S_k^{1/2}; "
    .. "\"als\" alternates (ridge) least squares for Z and W. transform(X) gives the codes Z of "
    .. "new rows (least squares on W), inverse_transform(Z) = Z W^T. Fitted: components (W^T, "
    .. "k x d), reconstruction_err (|X - Z W^T|_F), n_iter, loss_history (als).",
  params = {
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "rank k" },
    { name = "method", type = "string", default = "svd", values = { "svd", "als" },
      doc = "truncated SVD or alternating least squares" },
    { name = "alpha", type = "number", default = 0, min = 0, doc = "als: ridge penalty on Z and W" },
    { name = "max_iter", type = "integer", default = 500, min = 1, doc = "als: iterations at most" },
    { name = "tol", type = "number", default = 1e-10, min = 0,
      doc = "als: stop when the loss falls by less than tol |X|_F^2" },
    { name = "seed", type = "seed", doc = "als: the random start of W" },
  },
  example = function() return M.LatentFactorModel{ n_components = 2 }, common.example_data() end,
  fit = function(self, X) fit_transform(self, X) end,
  fit_transform = fit_transform,
  transform = function(self, X)
    check_finite(NAME, "transform", X)
    local W = self.components:t()
    return ridge_solve(W:t() * W, W:t() * X:t(), self.params.alpha):t()
  end,
  inverse_transform = function(self, Z)
    check_finite(NAME, "inverse_transform", Z)
    return Z * self.components
  end,
}

return M
