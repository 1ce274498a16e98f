--- luma.decomposition TruncatedSVD: the rank-k SVD of X without centring
-- (notes 000 Ch. 4 §4.2.1, 001 §I "LSA / LSI", 004 P10), scikit-learn's
-- TruncatedSVD (1.2.1).
--
-- On a document-term matrix this is latent semantic analysis: rows of
-- transform(X) = U_k Sigma_k are documents in k "topic" coordinates and
-- the rows of components (V_k^T) the topics over terms.  X_k = U_k
-- Sigma_k V_k^T is the best rank-k approximation in Frobenius and
-- spectral norm (Eckart and Young 1936), |X - X_k|_F^2 = sum_{j>k} s_j^2.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local fail, check_finite = common.fail, common.check_finite

local M = {}

local NAME = "TruncatedSVD"

local function fit_transform(self, X)
  local p = self.params
  local n, d = X:shape()
  check_finite(NAME, "fit", X)
  common.check_components(NAME, p.n_components, n, d)
  local k = p.n_components
  local U, s, Vt
  local sparse = luma.sparse.issparse(X)
  if sparse and p.algorithm ~= "randomized" then
    fail("bad argument #1 to 'fit' (%s: algorithm \"full\" needs a dense X; the randomized "
      .. "one takes a sparse X)", NAME)
  end
  if p.algorithm == "randomized" then
    U, s, Vt = common.randomized_svd(X, k, { n_oversamples = p.n_oversamples, n_iter = p.n_iter,
      normalizer = p.power_iteration_normalizer == "none" and "none" or "qr",
      rng = estimator.rng(p.seed) })
  else
    local Ua, sa, Va = common.svd(X)
    U, s, Vt = Ua:sub(nil, nil, 1, k):copy(), sa:sub(1, k, 1, 1):copy(), Va:sub(1, k, nil, nil):copy()
    common.svd_flip(U, Vt, true)
  end
  self.components = Vt
  self.singular_values = s
  -- scikit-learn takes X V_k (not U_k Sigma_k) for the randomized
  -- solver, which is the exact projection whatever the approximation
  local Z = p.algorithm == "randomized" and X * Vt:t() or U:mul(s:t())
  self.explained_variance = Z:var(1):t():copy()
  -- a sparse X's column variances from E[x^2] - E[x]^2
  local total = sparse and (X:pow(2):mean(1) - X:mean(1):pow(2)):sum() or X:var(1):sum()
  self.explained_variance_ratio = self.explained_variance / total
  self.n_components = k
  self.n_features_out = k
  return Z
end

M.TruncatedSVD = estimator.class{
  name = "luma.decomposition.TruncatedSVD",
  kind = "transformer",
  doc = "Truncated SVD of X without centring (latent semantic analysis on a document-term "
    .. "matrix: Deerwester et al., Indexing by latent semantic analysis, 1990), as "
    .. "scikit-learn's TruncatedSVD: the top k singular triplets by the randomized algorithm "
    .. "of Halko, Martinsson and Tropp (2011) or an exact LAPACK SVD. transform(X) = X V_k, "
    .. "inverse_transform(Z) = Z V_k^T, the best rank-k approximation. Fitted: components "
    .. "(V_k^T, k x d), singular_values, explained_variance (of the projections, divided by "
    .. "N) and explained_variance_ratio. A sparse X (randomized only) is never densified: "
    .. "the products are the threaded sparse kernels.",
  params = {
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "rank k" },
    { name = "algorithm", type = "string", default = "randomized", values = { "randomized", "full" },
      doc = "randomized SVD or the exact (LAPACK) one" },
    { name = "n_iter", type = "integer", default = 5, min = 0, doc = "randomized: power iterations" },
    { name = "n_oversamples", type = "integer", default = 10, min = 0,
      doc = "randomized: extra random directions" },
    { name = "power_iteration_normalizer", type = "string", default = "auto",
      values = { "auto", "QR", "none" }, doc = "randomized: orthonormalize between products" },
    { name = "seed", type = "seed", doc = "randomized: the random test matrix" },
  },
  sparse = true,
  example = function() return M.TruncatedSVD{ n_components = 2, seed = 0 }, common.example_data() end,
  fit = function(self, X) fit_transform(self, X) end,
  fit_transform = fit_transform,
  transform = function(self, X)
    check_finite(NAME, "transform", X)
    return X * self.components:t()
  end,
  inverse_transform = function(self, Z)
    check_finite(NAME, "inverse_transform", Z)
    return Z * self.components
  end,
}

return M
