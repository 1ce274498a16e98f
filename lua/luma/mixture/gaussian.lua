--- luma.mixture GaussianMixture: a mixture of Gaussians fitted by EM
-- (notes 004 §11.2–11.3 G1–G15, 003 §3.9, 002 U13, 000 Ch. 12, 001 §D),
-- scikit-learn's GaussianMixture (1.2.1) in parameters, attributes and
-- arithmetic.
--
-- E-step: r_nk = pi_k N(x_n | mu_k, Sigma_k) / sum_j pi_j N(x_n | mu_j,
-- Sigma_j) (004 (11.17)), in log space.  M-step, in the notes' order
-- (004 G6–G8, verified by their numbers): N_k = sum_n r_nk, mu_k the
-- weighted mean, then Sigma_k about the *new* mu_k, then pi_k = N_k / N
-- (003 §3.9 prints "pi_k = N_k/N / N": corrected).  Covariances divide by
-- N_k (the ML estimate) and get reg_covar added to their diagonal: the
-- guard against the degenerate maximum where a component collapses on
-- one point (004 G15).
--
-- Covariance types: "full" (one d x d matrix per component: a table of
-- k matrices), "tied" (one d x d matrix), "diag" (k x d variances),
-- "spherical" (k x 1 variances).  Precisions are stored through
-- precisions_cholesky M with M M^T = Sigma^-1, so the log-density is
-- sum log diag(M) - |(x - mu) M|^2 / 2 - (d/2) log 2 pi.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.mixture.common")
local em = require("luma.mixture.em")
local native = require("luma.mixture.native")

local fail, LOG_2PI = common.fail, common.LOG_2PI
local linalg = luma.linalg

local M = {}

local NAME = "GaussianMixture"

-- --------------------------------------------------------- the Gaussians

-- The E-step: log-responsibilities (n x k) and log p(x_n) (n x 1) for
-- per-component constants log_w (k x 1: log weights, or a variational
-- model's expected ones).  Full and tied covariances run in the native
-- kernel (one pass over X for all components, src/ml/mixture/gmm.c);
-- diagonal and spherical ones are a few matrix products.
local function log_resp_of(X, means, pchol, ctype, log_w)
  if ctype == "full" or ctype == "tied" then
    return native.estep(X, means, pchol, log_w)
  end
  local d = X:cols()
  local prec, logdet, quad
  if ctype == "diag" then
    prec = pchol:pow(2) -- k x d
    quad = X:pow(2) * prec:t() - (X * means:mul(prec):t()) * 2 + means:pow(2):mul(prec):sum(2):t()
    logdet = pchol:log():sum(2):t()
  else -- spherical
    prec = pchol:pow(2):t() -- 1 x k
    quad = X:pow(2):sum(2) * prec - (X * means:t()):mul(prec) * 2 + means:pow(2):sum(2):t():mul(prec)
    logdet = pchol:log():t() * d
  end
  local wlp = quad * -0.5 + (logdet + log_w:t() - 0.5 * d * LOG_2PI)
  local norm = wlp:logsumexp(2)
  return wlp - norm, norm
end

-- The error of a covariance that is not positive definite (004 G15).
local function singular(self, which)
  fail("%s.fit: %s is singular or not positive definite (a component collapsed on fewer "
    .. "distinct points than dimensions); set reg_covar > 0 (it is %s) or use fewer components",
    self.__class.short_name, which, common.number_text(self.params.reg_covar))
end

-- precisions_cholesky from covariances: M = L^-T for Sigma = L L^T.
local function precision_cholesky(self, covs, ctype)
  local function one(S, which)
    local ok, L = pcall(linalg.cholesky, S)
    if not ok then singular(self, which) end
    return linalg.solve_triangular(L, luma.eye(S:rows()), { lower = true }):t():copy()
  end
  if ctype == "full" then
    local out = {}
    for c, S in ipairs(covs) do out[c] = one(S, "the covariance of component " .. c) end
    return out
  elseif ctype == "tied" then
    return one(covs, "the tied covariance")
  end
  if not (covs:min() > 0) then
    singular(self, string.format("a %s variance (%s)", ctype, common.number_text(covs:min())))
  end
  return covs:pow(-0.5)
end

-- The M-step estimates (scikit-learn's _estimate_gaussian_parameters)
-- from the log-responsibilities: counts N_k (+ 10 eps, so an empty
-- component divides by no zero), means, covariances about the new means
-- with reg_covar on the diagonal.  Full and tied covariances take the
-- native weighted moments (two passes over X); the tied one is the
-- pooled scatter sum_k S_k / N (scikit-learn's X^T X - sum_k N_k mu_k
-- mu_k^T, without its cancellation).
local function estimate(X, log_resp, reg, ctype)
  if ctype == "full" or ctype == "tied" then
    local nk, means, scatter = native.moments(X, log_resp, { log = true, eps = 10 * common.EPS })
    local function floor(S)
      S = (S + S:t()) * 0.5
      S:diag():add(reg, S:diag())
      return S
    end
    if ctype == "tied" then
      local S = scatter[1]
      for c = 2, #scatter do S = S + scatter[c] end
      return nk, means, floor(S / X:rows())
    end
    local covs = {}
    for c, S in ipairs(scatter) do covs[c] = floor(S / nk:get(c, 1)) end
    return nk, means, covs
  end
  local resp = log_resp:exp()
  local nk = resp:sum(1):t() + 10 * common.EPS -- k x 1
  local sums = resp:t() * X
  local means = sums:div(nk)
  local var = (resp:t() * X:pow(2)):div(nk) - means:mul(sums):div(nk) * 2 + means:pow(2) + reg
  if ctype == "spherical" then var = var:mean(2) end
  return nk, means, var
end

local function covariance_from_precision(P, ctype)
  if ctype == "full" then
    local out = {}
    for c, Pc in ipairs(P) do out[c] = linalg.inv(Pc) end
    return out
  elseif ctype == "tied" then
    return linalg.inv(P)
  end
  return P:pow(-1)
end

local function precisions_of(pchol, ctype)
  if ctype == "full" then
    local out = {}
    for c, Mc in ipairs(pchol) do out[c] = Mc * Mc:t() end
    return out
  elseif ctype == "tied" then
    return pchol * pchol:t()
  end
  return pchol:pow(2)
end

-- precisions_init checked and turned into precisions_cholesky.
local function precision_init(self, P, k, d)
  local ctype = self.params.covariance_type
  local function spd(m, which)
    local S = common.matrix_param(NAME, which, m, d, d)
    local ok, L = pcall(linalg.cholesky, S)
    if not ok then fail("%s: %s must be symmetric positive definite", NAME, which) end
    return L
  end
  if ctype == "full" then
    if type(P) ~= "table" or #P ~= k then
      fail("%s: precisions_init must be a table of %d matrices (%d x %d) for covariance_type "
        .. "\"full\"", NAME, k, d, d)
    end
    local out = {}
    for c = 1, k do out[c] = spd(P[c], "precisions_init[" .. c .. "]") end
    return out
  elseif ctype == "tied" then
    return spd(P, "precisions_init")
  end
  local m = common.matrix_param(NAME, "precisions_init", P, k, ctype == "diag" and d or 1)
  if not (m:min() > 0) then fail("%s: precisions_init must be positive", NAME) end
  return m:sqrt()
end

-- -------------------------------------------------------- the EM model

local function e_step(self, X)
  return log_resp_of(X, self.means, self.precisions_cholesky, self.params.covariance_type,
    self.weights:log())
end

local model = {}

function model.initialize(self, X, rng)
  local p = self.params
  local k, n, d = p.n_components, X:rows(), X:cols()
  local given = p.weights_init and p.means_init and p.precisions_init
  if not given then
    local nk, means, covs = estimate(X, common.resp_init(self, X, k, rng):log(), p.reg_covar,
      p.covariance_type)
    self.weights, self.means, self.covariances = nk / n, means, covs
  end
  if p.weights_init then self.weights = common.weights_param(NAME, p.weights_init, k) end
  if p.means_init then self.means = common.matrix_param(NAME, "means_init", p.means_init, k, d) end
  if p.precisions_init then
    self.precisions_cholesky = precision_init(self, p.precisions_init, k, d)
    self.covariances = covariance_from_precision(precisions_of(self.precisions_cholesky,
      p.covariance_type), p.covariance_type)
  else
    self.precisions_cholesky = precision_cholesky(self, self.covariances, p.covariance_type)
  end
end

function model.e_step(self, X)
  local log_resp, norm = e_step(self, X)
  return norm:mean(), log_resp
end

function model.m_step(self, X, log_resp)
  local p = self.params
  local nk, means, covs = estimate(X, log_resp, p.reg_covar, p.covariance_type)
  self.weights = nk / nk:sum()
  self.means = means
  self.covariances = covs
  self.precisions_cholesky = precision_cholesky(self, covs, p.covariance_type)
end

function model.get_state(self)
  return { weights = self.weights, means = self.means, covariances = self.covariances,
           precisions_cholesky = self.precisions_cholesky }
end

function model.set_state(self, s)
  self.weights, self.means = s.weights, s.means
  self.covariances, self.precisions_cholesky = s.covariances, s.precisions_cholesky
end

local function fit(self, X)
  local p = self.params
  common.check_X(NAME, "fit", X, p.n_components)
  local labels = em.fit(self, X, model, NAME)
  self.precisions = precisions_of(self.precisions_cholesky, p.covariance_type)
  return labels
end

-- Free parameters: covariances, means and k - 1 weights.
local function n_parameters(self)
  common.check_fitted(self, "n_parameters")
  local k, d = self.params.n_components, self.n_features_in
  local cov = ({ full = k * d * (d + 1) / 2, tied = d * (d + 1) / 2, diag = k * d,
                 spherical = k })[self.params.covariance_type]
  return math.tointeger(cov + k * d + k - 1)
end

local function check_input(self, method, X)
  common.check_fitted(self, method)
  if not luma.ismatrix(X) or X:cols() ~= self.n_features_in then
    fail("bad argument #1 to '%s' (X must be a matrix with %d columns)", method, self.n_features_in)
  end
  common.check_X(NAME, method, X)
end

local function score_samples(self, X)
  common.check_X(NAME, "score_samples", X)
  local _, norm = e_step(self, X)
  return norm
end

-- Ancestral sampling (004 G12, 002 U11): counts per component from the
-- weights, then x = mu_k + L_k z with Sigma_k = L_k L_k^T.
local function sample(self, n, rng)
  common.check_fitted(self, "sample")
  common.check_sample(n, rng)
  rng = rng or estimator.rng(self.params.seed)
  local ctype = self.params.covariance_type
  local d = self.means:cols()
  local counts = common.sample_counts(rng, n, self.weights)
  local blocks, labels = {}, {}
  for c, m in ipairs(counts) do
    if m > 0 then
      local Z = rng:normal(m, d)
      local mu = self.means:row(c)
      if ctype == "full" or ctype == "tied" then
        local S = ctype == "full" and self.covariances[c] or self.covariances
        Z = Z * linalg.cholesky(S):t()
      else
        local sd = ctype == "diag" and self.covariances:row(c):sqrt()
          or math.sqrt(self.covariances:get(c, 1))
        Z = ctype == "diag" and Z:mul(sd) or Z * sd
      end
      blocks[#blocks + 1] = Z + mu
      labels[#labels + 1] = luma.full(m, 1, c)
    end
  end
  return luma.matrix.vstack(blocks), luma.matrix.vstack(labels)
end

-- The Gaussian pieces BayesianGaussianMixture shares.
M.log_resp_of = log_resp_of
M.estimate = estimate
M.precision_cholesky = precision_cholesky
M.precisions_of = precisions_of

M.GaussianMixture = estimator.class{
  name = "luma.mixture.GaussianMixture",
  kind = "density",
  doc = "A mixture of k Gaussians fitted by expectation-maximization (Dempster, Laird and "
    .. "Rubin 1977; Bishop, Pattern Recognition and Machine Learning, sec. 9.2), as "
    .. "scikit-learn's GaussianMixture. Fitted: weights "
    .. "(k x 1), means (k x d), covariances, precisions and precisions_cholesky (by "
    .. "covariance_type: full, a table of k d x d matrices; tied, one d x d matrix; diag, k x d; "
    .. "spherical, k x 1), converged, n_iter, lower_bound (average log-likelihood) and "
    .. "lower_bound_history. predict gives the component of largest responsibility, "
    .. "predict_proba the responsibilities, score_samples log p(x), score its mean; "
    .. "sample(n [, rng]) draws n points and their components; aic(X), bic(X).",
  params = {
    { name = "n_components", type = "integer", default = 1, min = 1, doc = "number of Gaussians k" },
    { name = "covariance_type", type = "string", default = "full",
      values = { "full", "tied", "diag", "spherical" },
      doc = "one covariance per component, one shared, diagonal ones, or one variance each" },
    { name = "tol", type = "number", default = 1e-3, min = 0,
      doc = "stop when the average log-likelihood changes by less" },
    { name = "reg_covar", type = "number", default = 1e-6, min = 0,
      doc = "added to the covariances' diagonal (the guard against collapsing components)" },
    { name = "max_iter", type = "integer", default = 100, min = 0,
      doc = "EM iterations per initialization (0 keeps the initialization)" },
    common.param("n_init"),
    common.param("init_params"),
    { name = "weights_init", type = "matrix|table", doc = "initial weights (k numbers summing to 1)" },
    { name = "means_init", type = "matrix", doc = "initial means (k x d)" },
    { name = "precisions_init", type = "matrix|table",
      doc = "initial precisions (inverse covariances), shaped as the covariances" },
    common.param("warm_start"),
    common.param("seed"),
  },
  example = function() return M.GaussianMixture{ n_components = 2, seed = 1 }, common.example_data() end,
  method_docs = common.method_docs({
    sample = { signature = "est:sample(n [, rng = nil]) -> X, labels",
      doc = "Draws n points by ancestral sampling (a component by the weights, then its "
        .. "Gaussian), grouped by component; rng defaults to a generator made from seed. "
        .. "Returns the n x d points and their n x 1 components." },
    n_parameters = { signature = "est:n_parameters() -> integer",
      doc = "The number of free parameters: covariances, means and k - 1 weights. Returns "
        .. "an integer." },
  }, { "predict", "predict_proba", "fit_predict", "bic", "aic" }),
  fit = function(self, X) fit(self, X) end,
  fit_predict = fit,
  predict = function(self, X)
    common.check_X(NAME, "predict", X)
    return (e_step(self, X)):argmax(2)
  end,
  predict_proba = function(self, X)
    common.check_X(NAME, "predict_proba", X)
    return (e_step(self, X)):exp()
  end,
  score_samples = score_samples,
  sample = sample,
  n_parameters = n_parameters,
  bic = function(self, X)
    check_input(self, "bic", X)
    return -2 * score_samples(self, X):sum() + n_parameters(self) * math.log(X:rows())
  end,
  aic = function(self, X)
    check_input(self, "aic", X)
    return -2 * score_samples(self, X):sum() + 2 * n_parameters(self)
  end,
}

return M
