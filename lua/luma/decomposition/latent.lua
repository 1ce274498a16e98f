--- luma.decomposition ProbabilisticPCA and FactorAnalysis: linear-Gaussian
-- latent variable models x = W z + mu + eps, z ~ N(0, I_k) (notes 004
-- P15–P19, P22–P23; 003 §1.13 and §3.11–3.12; 000 Ch. 12 "EM for factor
-- analysis").  Both are transformers (transform = the posterior mean of
-- z) with a density: score_samples = log N(x | mu, W W^T + Psi).
--
-- components is W^T (k x d), as scikit-learn's FactorAnalysis; the notes
-- and Bishop write the d x k loading matrix W (or Phi, Lambda).
--
-- Errata implemented corrected:
--   * PPCA closed form W = U_k (L_k - sigma^2 I)^{1/2} R (notes 003 §3.11
--     print the sample covariance as "w"); R = I here;
--   * PPCA EM M-step W = [sum (x - xbar) E[z]^T] [sum E[z z^T]]^-1 (003
--     omit the inverse and write E[z] E[z]^T);
--   * sigma^2_ML divides the D - k discarded eigenvalues of S (1/N) by
--     D - k, zeros included when N < D (004 (10.79));
--   * FA posterior covariance (Phi^T Psi^-1 Phi + I)^-1 (000 print it
--     without the inverse) and Psi = diag of the outer products (000
--     print (x - mu)^T (x - mu)).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local args = require("luma.util.args")
local fail, check_finite = common.fail, common.check_finite
local linalg = luma.linalg

local M = {}

local LOG_2PI = math.log(2 * math.pi)

local function spd_inverse(A)
  return linalg.inv((A + A:t()) * 0.5)
end

local function logdet_spd(A)
  return 2 * linalg.cholesky((A + A:t()) * 0.5):diag():log():sum()
end

-- The average log-likelihood of the centred rows Xc under N(0, W W^T +
-- diag(psi)) (psi a 1 x d row), through the whitened loadings F =
-- Psi^-1/2 W: log|C| = sum log psi + log|I + F^T F| and tr(C^-1 S) =
-- tr(S~) - tr((I + F^T F)^-1 F^T S~ F) with S~ = Psi^-1/2 S Psi^-1/2
-- (the matrix inversion lemma; no d x d matrix is formed).
local function average_loglik(Xc, W, psi)
  local n, d = Xc:shape()
  local k = W:cols()
  local root = psi:sqrt()
  local Xt = Xc:div(root)
  local F = W:div(root:t())
  local G = F:t() * F
  G:diag():add(1, G:diag())
  local P = Xt * F
  local trace = luma.matrix.dot(Xt, Xt) / n
  local correction = luma.matrix.dot(P * spd_inverse(G), P) / n
  local logdet = psi:log():sum() + (k > 0 and logdet_spd(G) or 0)
  return -0.5 * (d * LOG_2PI + logdet + trace - correction)
end

-- log N(x | mu, W W^T + diag(psi)) of each row: n x 1.
local function loglik_rows(X, mean, W, psi)
  local d, k = W:rows(), W:cols()
  local root = psi:sqrt()
  local Xt = (X - mean):div(root)
  local F = W:div(root:t())
  local G = F:t() * F
  G:diag():add(1, G:diag())
  local P = Xt * F
  local quad = Xt:pow(2):sum(2) - (P * spd_inverse(G)):mul(P):sum(2)
  local logdet = psi:log():sum() + (k > 0 and logdet_spd(G) or 0)
  return (quad + (d * LOG_2PI + logdet)) * -0.5
end

-- The posterior of z given x: mean (X - mu) Psi^-1 W G^-1 and covariance
-- G^-1, G = W^T Psi^-1 W + I (for PPCA, Psi = sigma^2 I: the notes' M^-1
-- W^T (x - mu) and sigma^2 M^-1 with M = W^T W + sigma^2 I).
local function posterior(X, mean, W, psi)
  local Wp = W:div(psi:t())
  local G = W:t() * Wp
  G:diag():add(1, G:diag())
  local cov = spd_inverse(G)
  return ((X - mean) * Wp) * cov, cov
end

local function check_input(self, method, X, argn)
  common.check_fitted(self, method)
  if not luma.ismatrix(X) then
    fail("bad argument #%d to '%s' (X must be a luma.Matrix, got %s)", argn or 1, method, type(X))
  end
  check_finite(self.__class.short_name, method, X, argn)
end

local function check_width(self, method, X, want)
  if X:cols() ~= want then
    fail("bad argument #1 to '%s' (X has %d columns but %s expects %d)", method, X:cols(),
      self.__class.name, want)
  end
end

-- The loadings W (d x k) and the noise variances psi (1 x d) of a fit.
local function loadings(self)
  return self.components:t(), self.noise_psi
end

local function covariance(self)
  local W, psi = loadings(self)
  local C = W * W:t()
  C:diag():add(psi:t(), C:diag())
  return (C + C:t()) * 0.5
end

-- The methods both models share, by their loadings and noise.
local function shared_methods(spec)
  spec.transform = function(self, X)
    local W, psi = loadings(self)
    return (posterior(X, self.mean, W, psi))
  end
  spec.score_samples = function(self, X)
    local W, psi = loadings(self)
    return loglik_rows(X, self.mean, W, psi)
  end
  spec.score = function(self, X) return spec.score_samples(self, X):mean() end
  spec.get_covariance = function(self)
    common.check_fitted(self, "get_covariance")
    return covariance(self)
  end
  spec.get_precision = function(self)
    common.check_fitted(self, "get_precision")
    return spd_inverse(covariance(self))
  end
  spec.posterior = function(self, X)
    check_input(self, "posterior", X)
    check_width(self, "posterior", X, self.n_features_in)
    local W, psi = loadings(self)
    return posterior(X, self.mean, W, psi)
  end
  spec.method_docs = spec.method_docs or {}
  local docs = spec.method_docs
  docs.transform = { signature = "est:transform(X) -> matrix",
    doc = "The posterior means E[z | x] of the latent factors of the rows of X. Returns an "
      .. "n x k matrix." }
  docs.score_samples = { signature = "est:score_samples(X) -> matrix",
    doc = "log N(x | mean, W W^T + Psi) of each row of X. Returns an n x 1 matrix." }
  docs.score = { signature = "est:score(X) -> number",
    doc = "The average log-likelihood of the rows of X. Returns a number (greater is better)." }
  docs.get_covariance = { signature = "est:get_covariance() -> matrix",
    doc = "The model covariance W W^T + Psi. Returns a d x d matrix." }
  docs.get_precision = { signature = "est:get_precision() -> matrix",
    doc = "The inverse of the model covariance. Returns a d x d matrix." }
  docs.posterior = { signature = "est:posterior(X) -> mean, cov",
    doc = "The Gaussian posterior of z given each row of X: the means (n x k) and the "
      .. "covariance shared by all rows, (W^T Psi^-1 W + I)^-1 (k x k). Returns two matrices." }
  return spec
end

-- Rotates the loadings W (d x k) to their principal axes (the left
-- singular vectors times the singular values), which removes the
-- arbitrary rotation R of the likelihood, and applies PCA's sign rule
-- (the projections Xc w_j have a positive largest entry).
local function principal_axes(W, Xc)
  local U, s = common.svd(W)
  local Wt = U:mul(s:t()):t():copy() -- k x d
  common.svd_flip(nil, Wt, true, Xc * Wt:t())
  return Wt
end

-- ------------------------------------------------------ ProbabilisticPCA

local PNAME = "ProbabilisticPCA"

-- Tipping and Bishop's closed form (notes 004 P18).
local function ppca_closed(Xc, k)
  local n, d = Xc:shape()
  local U, s, Vt = common.svd(Xc)
  local lambda = s:pow(2) / n
  local m = lambda:rows()
  -- the discarded eigenvalues of S, the zeros beyond rank min(n, d) too
  local rest = k < m and lambda:sub(k + 1, m, 1, 1):sum() or 0
  local sigma2 = rest / (d - k)
  local scale = (lambda:sub(1, k, 1, 1) - sigma2):maximum(0):sqrt()
  local Wt = Vt:sub(1, k, nil, nil):mul(scale)
  common.svd_flip(nil, Wt, true, U:sub(nil, nil, 1, k):copy())
  return Wt:copy(), sigma2
end

-- EM for PPCA (Roweis 1998; Tipping and Bishop 1999; notes 003 §3.11
-- corrected).  Every iteration records the average log-likelihood of the
-- parameters it starts from, which EM never decreases.
local function ppca_em(self, Xc, k, rng)
  local p = self.params
  local n, d = Xc:shape()
  local total = luma.matrix.dot(Xc, Xc) -- sum |x_n - xbar|^2
  local W = rng:normal(d, k)
  local sigma2 = total / (n * d)
  local history = {}
  local previous = -math.huge
  local converged = false
  local iterations = 0
  for it = 1, p.max_iter do
    iterations = it
    local ll = average_loglik(Xc, W, luma.full(1, d, sigma2))
    history[it] = ll
    if math.abs(ll - previous) < p.tol then
      converged = true
      break
    end
    previous = ll
    -- E-step: M = W^T W + sigma^2 I, E[z_n] = M^-1 W^T (x_n - xbar),
    -- sum E[z z^T] = n sigma^2 M^-1 + sum E[z] E[z]^T
    local Mm = W:t() * W
    Mm:diag():add(sigma2, Mm:diag())
    local Minv = spd_inverse(Mm)
    local Ez = (Xc * W) * Minv
    local Ezz = Minv * (n * sigma2) + Ez:t() * Ez
    -- M-step
    local XtEz = Xc:t() * Ez
    local Wn = XtEz * spd_inverse(Ezz)
    sigma2 = (total - 2 * luma.matrix.dot(XtEz, Wn) + luma.matrix.dot(Ezz, Wn:t() * Wn)) / (n * d)
    W = Wn
  end
  if not converged then
    common.warning("luma.decomposition", "%s (EM) did not converge in %d iterations; raise "
      .. "max_iter or tol", PNAME, p.max_iter)
  end
  return principal_axes(W, Xc), sigma2, iterations, luma.matrix(history)
end

M.ProbabilisticPCA = estimator.class(shared_methods{
  name = "luma.decomposition.ProbabilisticPCA",
  kind = "transformer",
  doc = "Probabilistic PCA (Tipping and Bishop, Probabilistic principal component analysis, "
    .. "1999): x = W z + mean + eps with z ~ N(0, I_k) and eps ~ N(0, sigma^2 I), fitted by "
    .. "maximum likelihood in closed form (W = U_k (L_k - sigma^2 I)^{1/2}, sigma^2 the mean "
    .. "of the discarded eigenvalues of the 1/N covariance) or by EM (Roweis, EM algorithms "
    .. "for PCA and SPCA, 1998). Fitted: components (W^T, k x d, on PCA's principal axes and "
    .. "signs), noise_variance (sigma^2), mean, and for EM n_iter and loglik_history. "
    .. "transform gives E[z | x], posterior(X) its mean and covariance, inverse_transform(Z) "
    .. "W z + mean, sample(n) and sample_posterior(X) draw from the model.",
  params = {
    { name = "n_components", type = "integer", min = 1, doc = "latent dimension k (nil: d - 1)" },
    { name = "method", type = "string", default = "closed_form", values = { "closed_form", "em" },
      doc = "maximum likelihood in closed form or by EM" },
    { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "EM iterations at most" },
    { name = "tol", type = "number", default = 1e-8, min = 0,
      doc = "EM stops when the average log-likelihood changes by less" },
    { name = "seed", type = "seed", doc = "EM's random start and the samplers" },
  },
  example = function() return M.ProbabilisticPCA{ n_components = 2 }, common.example_data() end,
  method_docs = {
    inverse_transform = { signature = "est:inverse_transform(Z) -> matrix",
      doc = "W z + mean for the latent rows of Z (the noise-free generation). Returns an "
        .. "n x d matrix." },
    sample = { signature = "est:sample(n [, rng = nil]) -> X, Z",
      doc = "Ancestral sampling: z ~ N(0, I), then x ~ N(W z + mean, sigma^2 I). Returns the "
        .. "n x d points and their n x k latent values." },
    sample_posterior = { signature = "est:sample_posterior(X [, rng = nil]) -> Xs, Z",
      doc = "For each row of X, z ~ p(z | x), then x~ ~ p(x | z). Returns the n x d draws and "
        .. "the n x k latent values." },
  },
  fit = function(self, X)
    local p = self.params
    local n, d = X:shape()
    check_finite(PNAME, "fit", X)
    if d < 2 then fail("bad argument #1 to 'fit' (%s needs at least 2 columns)", PNAME) end
    local k = p.n_components or d - 1
    if k >= d then
      fail("bad argument #1 to 'fit' (%s: n_components = %d must be less than n_features = %d)",
        PNAME, k, d)
    end
    common.check_min_rows(PNAME, "fit", X, 2)
    local mean = common.column_means(X)
    local Xc = X - mean
    local Wt, sigma2
    if p.method == "closed_form" then
      Wt, sigma2 = ppca_closed(Xc, k)
    else
      Wt, sigma2, self.n_iter, self.loglik_history = ppca_em(self, Xc, k, estimator.rng(p.seed))
    end
    if not (sigma2 > 1e-12 * luma.matrix.dot(Xc, Xc) / (n * d)) then
      fail("%s.fit: the noise variance is 0 (the data lie in a %d-dimensional subspace); use "
        .. "fewer components", PNAME, k)
    end
    self.mean, self.components, self.noise_variance = mean, Wt, sigma2
    self.noise_psi = luma.full(1, d, sigma2)
    self.n_components = k
    self.n_features_out = k
  end,
  inverse_transform = function(self, Z)
    check_finite(PNAME, "inverse_transform", Z)
    return Z * self.components + self.mean
  end,
  sample = function(self, n, rng)
    common.check_fitted(self, "sample")
    if math.type(n) ~= "integer" or n < 1 then
      fail("bad argument #1 to 'sample' (n must be an integer >= 1, got %s)", tostring(n))
    end
    rng = args.generator(rng, 2, "sample", 2) or estimator.rng(self.params.seed)
    local Z = rng:normal(n, self.n_components)
    local X = Z * self.components + self.mean + rng:normal(n, self.components:cols()) * math.sqrt(self.noise_variance)
    return X, Z
  end,
  sample_posterior = function(self, X, rng)
    check_input(self, "sample_posterior", X)
    check_width(self, "sample_posterior", X, self.n_features_in)
    rng = args.generator(rng, 2, "sample_posterior", 2) or estimator.rng(self.params.seed)
    local W, psi = loadings(self)
    local mean, cov = posterior(X, self.mean, W, psi)
    local n, k = mean:rows(), mean:cols()
    local Z = mean + rng:normal(n, k) * linalg.cholesky(cov):t()
    local Xs = Z * self.components + self.mean + rng:normal(n, W:rows()) * math.sqrt(self.noise_variance)
    return Xs, Z
  end,
})

-- -------------------------------------------------------- FactorAnalysis

local FNAME = "FactorAnalysis"
local SMALL = 1e-12

-- scikit-learn's fit (Barber, Bayesian Reasoning and Machine Learning,
-- Algorithm 21.1): for the current Psi, the optimal W comes from the SVD
-- of the whitened data Xc Psi^-1/2 / sqrt(n); then Psi = var - diag(W^T W).
local function fa_svd(self, Xc, k, var, psi, rng)
  local p = self.params
  local n, d = Xc:shape()
  local history, previous = {}, -math.huge
  local W
  local converged = false
  local iterations = 0
  local llconst = d * LOG_2PI + k
  for it = 1, p.max_iter do
    iterations = it
    local root = psi:sqrt() + SMALL
    local Y = Xc:div(root * math.sqrt(n))
    local s, Vt, unexplained
    if p.svd_method == "lapack" then
      local _, sall, Vall = common.svd(Y)
      s, Vt = sall:sub(1, k, 1, 1), Vall:sub(1, k, nil, nil)
      unexplained = sall:rows() > k and sall:sub(k + 1, sall:rows(), 1, 1):pow(2):sum() or 0
    else
      local _, sk, Vk = common.randomized_svd(Y, k, { n_oversamples = 10, rng = rng,
        n_iter = p.iterated_power })
      s, Vt = sk, Vk
      unexplained = luma.matrix.dot(Y, Y) - s:pow(2):sum()
    end
    local s2 = s:pow(2)
    W = Vt:mul((s2 - 1):maximum(0):sqrt()):mul(root) -- k x d
    local ll = -n / 2 * (llconst + s2:log():sum() + unexplained + psi:log():sum())
    history[it] = ll / n
    if ll - previous < p.tol then
      converged = true
      break
    end
    previous = ll
    psi = (var - W:pow(2):sum(1)):maximum(SMALL)
  end
  return W, psi, iterations, history, converged
end

-- The notes' EM for factor analysis (000 §3 "EM for factor analysis",
-- corrected; Bishop sec. 12.2.4; Ghahramani and Hinton 1996).
local function fa_em(self, Xc, k, var, psi, rng)
  local p = self.params
  local n, d = Xc:shape()
  local W = rng:normal(d, k) * math.sqrt(var:mean()) -- d x k
  local history, previous = {}, -math.huge
  local converged = false
  local iterations = 0
  for it = 1, p.max_iter do
    iterations = it
    local ll = average_loglik(Xc, W, psi)
    history[it] = ll
    if (ll - previous) * n < p.tol then
      converged = true
      break
    end
    previous = ll
    -- E-step: G = (W^T Psi^-1 W + I)^-1, E[h_i] = G W^T Psi^-1 (x_i - mu)
    local Eh, G = posterior(Xc, luma.zeros(1, d), W, psi)
    local Ehh = G * n + Eh:t() * Eh
    -- M-step: W = (sum (x - mu) E[h]^T)(sum E[h h^T])^-1, Psi = diag(S - W sum E[h] (x - mu)^T / n)
    local XtEh = Xc:t() * Eh
    W = XtEh * spd_inverse(Ehh)
    psi = (var - W:mul(XtEh):sum(2):t() / n):maximum(SMALL)
  end
  return W:t():copy(), psi, iterations, history, converged
end

-- Kaiser's varimax and quartimax, as scikit-learn's _ortho_rotation: the
-- orthogonal R maximizing the variance of the squared loadings, by the
-- SVD iteration R = U V^T of W^T (L^3 - L diag(col means of L^2)).
local function rotate(Wt, method, tol, max_iter)
  local L0 = Wt:t() -- d x k
  local d, k = L0:shape()
  local R = luma.eye(k)
  local var = 0
  for _ = 1, max_iter do
    local L = L0 * R
    local target = L:pow(3)
    if method == "varimax" then target = target - L:mul(L:pow(2):sum(1) / d) end
    local U, s, Vt = linalg.svd(L0:t() * target)
    R = U * Vt
    local new = s:sum()
    if var ~= 0 and new < var * (1 + tol) then break end
    var = new
  end
  return (L0 * R):t():copy()
end

M.FactorAnalysis = estimator.class(shared_methods{
  name = "luma.decomposition.FactorAnalysis",
  kind = "transformer",
  doc = "Factor analysis (Bishop, Pattern Recognition and Machine Learning, sec. 12.2.4; "
    .. "Barber, Bayesian Reasoning and Machine Learning, ch. 21): x = W z + mean + eps with "
    .. "z ~ N(0, I_k) and eps ~ N(0, Psi), Psi diagonal, by maximum likelihood, as "
    .. "scikit-learn's FactorAnalysis. method \"svd\" is scikit-learn's algorithm (the optimal "
    .. "W for the current Psi from an SVD of the whitened data, then Psi), \"em\" the "
    .. "expectation-maximization updates; both reach the same likelihood. Optional varimax or "
    .. "quartimax rotation. Fitted: components (W^T, k x d), noise_variance (Psi, d x 1), "
    .. "mean, n_iter, loglike (average log-likelihood per iteration).",
  params = {
    { name = "n_components", type = "integer", min = 1, doc = "number of factors k (nil: d)" },
    { name = "method", type = "string", default = "svd", values = { "svd", "em" },
      doc = "scikit-learn's SVD iteration or EM" },
    { name = "tol", type = "number", default = 1e-2, min = 0,
      doc = "stop when the total log-likelihood gains less" },
    { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "iterations at most" },
    { name = "noise_variance_init", type = "matrix", doc = "initial Psi (d values; nil: ones)" },
    { name = "svd_method", type = "string", default = "randomized", values = { "lapack", "randomized" },
      doc = "method svd: exact SVD or the randomized one" },
    { name = "iterated_power", type = "integer", default = 3, min = 0,
      doc = "power iterations of the randomized SVD" },
    { name = "rotation", type = "string", values = { "varimax", "quartimax" },
      doc = "orthogonal rotation of the loadings (nil: none)" },
    { name = "seed", type = "seed", default = 0, doc = "randomized SVD and EM's random start" },
  },
  example = function() return M.FactorAnalysis{ n_components = 2 }, common.example_data() end,
  fit = function(self, X)
    local p = self.params
    local n, d = X:shape()
    check_finite(FNAME, "fit", X)
    common.check_min_rows(FNAME, "fit", X, 2)
    local k = p.n_components or d
    if k > d then
      fail("bad argument #1 to 'fit' (%s: n_components = %d is more than n_features = %d)", FNAME, k, d)
    end
    local mean = common.column_means(X)
    local Xc = X - mean
    local var = Xc:pow(2):sum(1) / n
    local psi = luma.ones(1, d)
    if p.noise_variance_init then
      local v = p.noise_variance_init
      if v:rows() * v:cols() ~= d or not v:isfinite():all() or v:min() <= 0 then
        fail("%s: noise_variance_init must hold %d positive numbers", FNAME, d)
      end
      psi = v:reshape(1, d):copy()
    end
    local rng = estimator.rng(p.seed)
    local Wt, iterations, history, converged
    if p.method == "svd" then
      Wt, psi, iterations, history, converged = fa_svd(self, Xc, k, var, psi, rng)
    else
      Wt, psi, iterations, history, converged = fa_em(self, Xc, k, var, psi, rng)
    end
    if not converged then
      common.warning("luma.decomposition", "%s did not converge in %d iterations; raise "
        .. "max_iter or tol", FNAME, p.max_iter)
    end
    if p.rotation then Wt = rotate(Wt, p.rotation, 1e-6, 100) end
    self.mean, self.components = mean, Wt
    self.noise_variance = psi:t():copy()
    self.noise_psi = psi
    self.n_iter = iterations
    self.loglike = luma.matrix(history)
    self.n_components = k
  end,
})

return M
