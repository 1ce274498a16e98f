--- luma.decomposition FastICA: independent component analysis (notes
-- 004 P23 names ICA: non-Gaussian latent variables, blind source
-- separation), scikit-learn's FastICA (1.2.1) in parameters, attributes
-- and arithmetic (Hyvärinen and Oja, Independent component analysis:
-- algorithms and applications, 2000).
--
-- The data are centred and whitened by PCA (K = (u / d)^T, scaled by
-- sqrt(n)), then the fixed-point iteration w <- E[x g(w^T x)] - E[g'(w^T
-- x)] w finds directions of maximal non-Gaussianity: all at once with
-- symmetric decorrelation W <- (W W^T)^{-1/2} W ("parallel"), or one by
-- one with Gram-Schmidt against the ones already found ("deflation").
-- Contrast functions: logcosh (g = tanh(a u)), exp (g = u exp(-u^2/2)),
-- cube (g = u^3).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local fail, check_finite = common.fail, common.check_finite
local linalg = luma.linalg

local M = {}

local NAME = "FastICA"
local TINY = 2.2250738585072014e-308

-- g(U) and the row means of g'(U) for the projections U (k x n).
local CONTRASTS = {
  logcosh = function(U, alpha)
    local G = (U * alpha):tanh()
    return G, (1 - G:pow(2)):mean(2) * alpha
  end,
  exp = function(U)
    local E = (U:pow(2) * -0.5):exp()
    return U:mul(E), (1 - U:pow(2)):mul(E):mean(2)
  end,
  cube = function(U)
    return U:pow(3), U:pow(2):mean(2) * 3
  end,
}

-- (W W^T)^{-1/2} W (eigenvalues clipped at the smallest double).
local function sym_decorrelation(W)
  local s, U = linalg.eigh(W * W:t())
  s = s:maximum(TINY)
  return U:div(s:sqrt():t()) * U:t() * W
end

local function ica_parallel(X1, g, p, w_init)
  local W = sym_decorrelation(w_init)
  local n = X1:cols()
  local iterations = p.max_iter
  local converged = false
  for it = 1, p.max_iter do
    local G, dG = g(W * X1)
    local W1 = sym_decorrelation((G * X1:t()) / n - W:mul(dG))
    local lim = (W1:mul(W):sum(2):abs() - 1):abs():max()
    W = W1
    if lim < p.tol then
      iterations, converged = it, true
      break
    end
  end
  return W, iterations, converged
end

local function ica_deflation(X1, g, p, w_init)
  local k = w_init:rows()
  local W = luma.zeros(k, k)
  local most, converged = 0, true
  for j = 1, k do
    local w = w_init:row(j):copy()
    w = w / w:norm()
    local done = false
    local it = 0
    for step = 1, p.max_iter do
      it = step
      local G, dG = g(w * X1)
      local w1 = (G * X1:t()) / X1:cols() - w * dG:mean()
      if j > 1 then
        local prev = W:sub(1, j - 1, nil, nil)
        w1 = w1 - (w1 * prev:t()) * prev
      end
      w1 = w1 / w1:norm()
      local lim = math.abs(math.abs(luma.matrix.dot(w1, w)) - 1)
      w = w1
      if lim < p.tol then
        done = true
        break
      end
    end
    converged = converged and done
    most = math.max(most, it)
    W:row(j):assign(w)
  end
  return W, most, converged
end

local function fit_transform(self, X)
  local p = self.params
  check_finite(NAME, "fit", X)
  common.check_min_rows(NAME, "fit", X, 2)
  local n, d = X:shape()
  local alpha = p.alpha
  local g0 = CONTRASTS[p.fun]
  local g = function(U) return g0(U, alpha) end
  local k = p.n_components or math.min(n, d)
  if k > math.min(n, d) then
    fail("bad argument #1 to 'fit' (%s: n_components = %d is more than min(n_samples, "
      .. "n_features) = %d)", NAME, k, math.min(n, d))
  end
  local whiten = p.whiten
  local XT, K, mean = X:t(), nil, nil
  local X1
  if whiten ~= "none" then
    mean = common.column_means(X)
    XT = (X - mean):t():copy()
    -- the left singular vectors of the centred X^T, first entries positive
    local U, s = common.svd(XT)
    local signs = U:row(1):sign()
    signs = luma.matrix.where(signs:eq(0), 1, signs)
    U = U:mul(signs)
    K = U:div(s:t()):t():sub(1, k, nil, nil):copy()
    X1 = (K * XT) * math.sqrt(n)
  else
    if p.n_components and p.n_components ~= math.min(n, d) then
      fail("%s: n_components needs whitening (whiten = \"none\" keeps all %d)", NAME, d)
    end
    k = d
    XT = X:t():copy()
    X1 = XT
  end
  local w_init = p.w_init
  if w_init == nil then
    w_init = estimator.rng(p.seed):normal(k, k)
  elseif w_init:rows() ~= k or w_init:cols() ~= k then
    fail("%s: w_init must be a %d x %d matrix", NAME, k, k)
  end
  local W, iterations, converged
  if p.algorithm == "parallel" then
    W, iterations, converged = ica_parallel(X1, g, p, w_init)
  else
    W, iterations, converged = ica_deflation(X1, g, p, w_init)
  end
  if not converged then
    common.warning("luma.decomposition", "%s did not converge in %d iterations; raise max_iter "
      .. "or tol", NAME, p.max_iter)
  end
  self.n_iter = iterations
  local S
  if whiten ~= "none" then
    S = (W * K * XT):t():copy()
    if whiten == "unit-variance" then
      local sd = S:std(1)
      S = S:div(sd)
      W = W:div(sd:t())
    end
    self.components = W * K
    self.mean = mean
    self.whitening = K
  else
    S = (W * XT):t():copy()
    self.components = W
  end
  self.mixing = linalg.pinv(self.components)
  self.n_components = k
  self.n_features_out = k
  return S
end

M.FastICA = estimator.class{
  name = "luma.decomposition.FastICA",
  kind = "transformer",
  doc = "Independent component analysis by FastICA (Hyvärinen and Oja, Independent component "
    .. "analysis: algorithms and applications, 2000), as scikit-learn's FastICA: the rows are "
    .. "centred and whitened, then unmixing directions of maximal non-Gaussianity are found by "
    .. "a fixed-point iteration, all together (parallel, symmetric decorrelation) or one by one "
    .. "(deflation). transform(X) gives the sources, inverse_transform(S) the mixtures. "
    .. "Fitted: components (unmixing, k x d), mixing (d x k), mean, whitening, n_iter.",
  params = {
    { name = "n_components", type = "integer", min = 1, doc = "sources (nil: min(n, d))" },
    { name = "algorithm", type = "string", default = "parallel", values = { "parallel", "deflation" },
      doc = "estimate every source at once or one at a time" },
    { name = "whiten", type = "string", default = "arbitrary-variance",
      values = { "arbitrary-variance", "unit-variance", "none" },
      doc = "whiten the data (sources of unit variance with \"unit-variance\"), or not" },
    { name = "fun", type = "string", default = "logcosh", values = { "logcosh", "exp", "cube" },
      doc = "the contrast function G" },
    { name = "alpha", type = "number", default = 1, min = 1, max = 2, doc = "logcosh's a" },
    { name = "max_iter", type = "integer", default = 200, min = 1, doc = "iterations at most" },
    { name = "tol", type = "number", default = 1e-4, gt = 0, doc = "convergence tolerance" },
    { name = "w_init", type = "matrix", doc = "initial unmixing matrix (k x k; nil: Gaussian)" },
    { name = "seed", type = "seed", doc = "the random initial unmixing matrix" },
  },
  example = function() return M.FastICA{ n_components = 2, seed = 0 }, common.example_data() end,
  fit = function(self, X) fit_transform(self, X) end,
  fit_transform = fit_transform,
  transform = function(self, X)
    check_finite(NAME, "transform", X)
    local Xc = self.mean and (X - self.mean) or X
    return Xc * self.components:t()
  end,
  inverse_transform = function(self, S)
    check_finite(NAME, "inverse_transform", S)
    local X = S * self.mixing:t()
    return self.mean and (X + self.mean) or X
  end,
}

return M
