--- luma.mixture BayesianGaussianMixture: a Gaussian mixture fitted by
-- variational inference (notes 004 G16: no conjugate prior for the
-- mixture, so VI), scikit-learn's BayesianGaussianMixture (1.2.1) in
-- parameters, attributes and arithmetic.
--
-- Priors: a Dirichlet distribution on the weights, or a Dirichlet process
-- through its stick-breaking representation (truncated at n_components);
-- Gaussian-Wishart on each (mean, precision).  The variational posterior
-- factorizes as q(z) q(weights) q(means, precisions); each update is the
-- closed-form coordinate ascent of Bishop, Pattern Recognition and
-- Machine Learning, sec. 10.2 (eqs. 10.46–10.63; Blei and Jordan 2006 for
-- the Dirichlet process), and the driver maximizes the evidence lower
-- bound instead of the likelihood.  Components the data do not need keep
-- weights near their prior concentration: with a small
-- weight_concentration_prior they are pruned in effect (weights ~ 0);
-- n_effective_components counts those above prune_threshold.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.mixture.common")
local em = require("luma.mixture.em")
local gaussian = require("luma.mixture.gaussian")

local fail = common.fail
local lgamma, digamma = luma.special.lgamma, luma.special.digamma

local M = {}

local NAME = "BayesianGaussianMixture"
local LOG2 = math.log(2)

-- The priors of a fit, from the parameters or the data's defaults
-- (scikit-learn's _check_parameters).
local function priors(self, X)
  local p = self.params
  local n, d = X:shape()
  local k = p.n_components
  local pr = {}
  pr.weight = p.weight_concentration_prior or 1 / k
  pr.mean_precision = p.mean_precision_prior or 1
  if p.mean_prior then
    pr.mean = common.matrix_param(NAME, "mean_prior", p.mean_prior, 1, d)
  else
    pr.mean = X:mean(1)
  end
  if p.degrees_of_freedom_prior == nil then
    pr.dof = d
  elseif p.degrees_of_freedom_prior > d - 1 then
    pr.dof = p.degrees_of_freedom_prior
  else
    fail("%s: degrees_of_freedom_prior must be greater than n_features - 1 = %d, got %s", NAME,
      d - 1, common.number_text(p.degrees_of_freedom_prior))
  end
  local ctype = p.covariance_type
  local cp = p.covariance_prior
  if cp == nil then
    if n < 2 then fail("bad argument #1 to 'fit' (%s needs at least 2 rows)", NAME) end
    local Xc = X - X:mean(1)
    local cov = Xc:t() * Xc / (n - 1)
    local var = X:var(1, 1)
    pr.covariance = ({ full = cov, tied = cov, diag = var, spherical = var:mean() })[ctype]
  elseif ctype == "full" or ctype == "tied" then
    pr.covariance = common.matrix_param(NAME, "covariance_prior", cp, d, d)
    if not pcall(luma.linalg.cholesky, pr.covariance) then
      fail("%s: covariance_prior must be symmetric positive definite", NAME)
    end
  elseif ctype == "diag" then
    pr.covariance = common.matrix_param(NAME, "covariance_prior", cp, 1, d)
    if not (pr.covariance:min() > 0) then fail("%s: covariance_prior must be positive", NAME) end
  else
    if type(cp) ~= "number" or not (cp > 0) then
      fail("%s: covariance_prior must be a number > 0 for covariance_type \"spherical\"", NAME)
    end
    pr.covariance = cp
  end
  return pr
end

-- q(weights): Dirichlet(alpha0 + N_k), or the stick-breaking Betas
-- (1 + N_k, gamma0 + sum_{j>k} N_j).
local function estimate_weights(self, nk)
  local pr = self.priors
  if self.params.weight_concentration_prior_type == "dirichlet_process" then
    local k = nk:rows()
    local tail = luma.zeros(k, 1)
    local acc = 0
    for c = k, 1, -1 do
      tail:set(c, 1, acc)
      acc = acc + nk:get(c, 1)
    end
    self.weight_concentration = { nk + 1, tail + pr.weight }
  else
    self.weight_concentration = nk + pr.weight
  end
end

local function estimate_means(self, nk, xk)
  local pr = self.priors
  self.mean_precision = nk + pr.mean_precision
  self.means = (xk:mul(nk) + pr.mean * pr.mean_precision):div(self.mean_precision)
end

-- q(precisions): Wishart (full, tied) or Gamma (diag, spherical) with
-- nu_k = nu_0 + N_k and scale W_k^-1 = W_0^-1 + N_k S_k + beta_0 N_k /
-- beta_k (xbar_k - m_0)(xbar_k - m_0)^T (Bishop eqs. 10.62–10.63);
-- covariances holds W_k^-1 / nu_k.
local function estimate_precisions(self, nk, xk, sk)
  local pr = self.priors
  local ctype = self.params.covariance_type
  local k = nk:rows()
  local b0 = pr.mean_precision
  local diff = xk - pr.mean
  if ctype == "full" then
    self.degrees_of_freedom = nk + pr.dof
    local covs = {}
    for c = 1, k do
      local n_c = nk:get(c, 1)
      local dc = diff:row(c)
      local S = pr.covariance + sk[c] * n_c + dc:t() * dc * (n_c * b0 / self.mean_precision:get(c, 1))
      covs[c] = S / self.degrees_of_freedom:get(c, 1)
    end
    self.covariances = covs
  elseif ctype == "tied" then
    local total = nk:sum()
    self.degrees_of_freedom = pr.dof + total / k
    local weighted = diff:mul(nk:div(self.mean_precision))
    local S = pr.covariance + sk * (total / k) + weighted:t() * diff * (b0 / k)
    self.covariances = S / self.degrees_of_freedom
  elseif ctype == "diag" then
    self.degrees_of_freedom = nk + pr.dof
    local S = (sk + diff:pow(2):mul(self.mean_precision:pow(-1) * b0)):mul(nk) + pr.covariance
    self.covariances = S:div(self.degrees_of_freedom)
  else
    self.degrees_of_freedom = nk + pr.dof
    local S = (sk + diff:pow(2):mean(2):mul(self.mean_precision:pow(-1) * b0)):mul(nk) + pr.covariance
    self.covariances = S:div(self.degrees_of_freedom)
  end
  self.precisions_cholesky = gaussian.precision_cholesky(self, self.covariances, ctype)
end

local function update(self, X, log_resp)
  local nk, xk, sk = gaussian.estimate(X, log_resp, self.params.reg_covar, self.params.covariance_type)
  estimate_weights(self, nk)
  estimate_means(self, nk, xk)
  estimate_precisions(self, nk, xk, sk)
end

-- E[log pi_k] under q(weights).
local function expected_log_weights(self)
  local wc = self.weight_concentration
  if self.params.weight_concentration_prior_type == "dirichlet_process" then
    local a, b = wc[1], wc[2]
    local dsum = digamma(a + b)
    local da, db = digamma(a) - dsum, digamma(b) - dsum
    local prefix = luma.zeros(a:rows(), 1)
    local acc = 0
    for c = 1, a:rows() do
      prefix:set(c, 1, acc)
      acc = acc + db:get(c, 1)
    end
    return da + prefix
  end
  return digamma(wc) - digamma(wc:sum())
end

-- The per-component constants of E[log p(x | component)] beyond the
-- Gaussian with the expected precision: -d/2 log nu_k + 1/2 (sum_i
-- psi((nu_k - i)/2) + d log 2 - d / beta_k) (Bishop eqs. 10.64–10.65).
local function log_prob_offsets(self, d)
  local dof = self.degrees_of_freedom
  if type(dof) == "number" then dof = luma.full(self.means:rows(), 1, dof) end
  local lam = luma.zeros(dof:rows(), 1)
  for i = 0, d - 1 do lam = lam + digamma((dof - i) * 0.5) end
  lam = lam + d * LOG2
  return dof:log() * (-0.5 * d) + (lam - self.mean_precision:pow(-1) * d) * 0.5
end

local function e_step(self, X)
  local log_w = expected_log_weights(self) + log_prob_offsets(self, X:cols())
  return gaussian.log_resp_of(X, self.means, self.precisions_cholesky, self.params.covariance_type,
    log_w)
end

-- log |precision Cholesky| of each component (a k x 1 column; tied: a number).
local function log_det_cholesky(pchol, ctype, d)
  if ctype == "full" then
    local out = luma.zeros(#pchol, 1)
    for c, Mc in ipairs(pchol) do out:set(c, 1, Mc:diag():log():sum()) end
    return out
  elseif ctype == "tied" then
    return pchol:diag():log():sum()
  elseif ctype == "diag" then
    return pchol:log():sum(2)
  end
  return pchol:log() * d
end

-- log B(W, nu) of the Wishart normalizer, up to the terms scikit-learn
-- leaves out: -(nu log|chol| + nu d/2 log 2 + sum_i log Gamma((nu - i)/2)).
local function log_wishart_norm(dof, logdet, d)
  local g = lgamma((dof - 0) * 0.5)
  for i = 1, d - 1 do g = g + lgamma((dof - i) * 0.5) end
  return -(dof:mul(logdet) + dof * (d * 0.5 * LOG2) + g)
end

-- scikit-learn's _compute_lower_bound: the evidence lower bound up to a
-- constant.
local function lower_bound(self, X, log_resp)
  local d = X:cols()
  local ctype = self.params.covariance_type
  local k = self.means:rows()
  local dof = self.degrees_of_freedom
  local dofm = type(dof) == "number" and luma.matrix{ dof } or dof
  local logdet = log_det_cholesky(self.precisions_cholesky, ctype, d)
  if type(logdet) == "number" then logdet = luma.matrix{ logdet } end
  logdet = logdet - dofm:log() * (0.5 * d)
  local log_wishart = log_wishart_norm(dofm, logdet, d):sum()
  if ctype == "tied" then log_wishart = k * log_wishart end
  local log_norm_weight
  local wc = self.weight_concentration
  if self.params.weight_concentration_prior_type == "dirichlet_process" then
    log_norm_weight = -luma.special.lbeta(wc[1], wc[2]):sum()
  else
    log_norm_weight = lgamma(wc:sum()) - lgamma(wc):sum()
  end
  local entropy = -luma.matrix.dot(log_resp:exp(), log_resp)
  return entropy - log_wishart - log_norm_weight - 0.5 * d * self.mean_precision:log():sum()
end

local function weights_of(self)
  local wc = self.weight_concentration
  if self.params.weight_concentration_prior_type == "dirichlet_process" then
    local total = wc[1] + wc[2]
    local ratio = wc[2]:div(total)
    local k = total:rows()
    local w = luma.zeros(k, 1)
    local carry = 1
    for c = 1, k do
      w:set(c, 1, wc[1]:get(c, 1) / total:get(c, 1) * carry)
      carry = carry * ratio:get(c, 1)
    end
    return w / w:sum()
  end
  return wc / wc:sum()
end

local model = {}

function model.initialize(self, X, rng)
  local p = self.params
  local R
  if p.resp_init then
    R = common.matrix_param(NAME, "resp_init", p.resp_init, X:rows(), p.n_components)
    if R:lt(0):any() or (R:sum(2) - 1):abs():max() > 1e-6 then
      fail("%s: resp_init rows must be non-negative and sum to 1", NAME)
    end
  else
    R = common.resp_init(self, X, p.n_components, rng)
  end
  update(self, X, R:log())
end

function model.e_step(self, X)
  local log_resp, norm = e_step(self, X)
  return norm:mean(), log_resp
end

model.m_step = update
model.lower_bound = lower_bound

local FIELDS = { "weight_concentration", "mean_precision", "means", "degrees_of_freedom",
                 "covariances", "precisions_cholesky" }

function model.get_state(self)
  local s = {}
  for _, f in ipairs(FIELDS) do s[f] = self[f] end
  return s
end

function model.set_state(self, s)
  for _, f in ipairs(FIELDS) do self[f] = s[f] end
end

local function fit(self, X, method)
  local p = self.params
  common.check_X(NAME, method, X, p.n_components)
  self.priors = priors(self, X)
  local labels = em.fit(self, X, model, NAME)
  self.weights = weights_of(self)
  self.precisions = gaussian.precisions_of(self.precisions_cholesky, p.covariance_type)
  self.n_effective_components = math.tointeger(self.weights:gt(p.prune_threshold):sum())
  self.weight_concentration_prior = self.priors.weight
  self.mean_precision_prior = self.priors.mean_precision
  self.mean_prior = self.priors.mean
  self.degrees_of_freedom_prior = self.priors.dof
  self.covariance_prior = self.priors.covariance
  self.priors = nil
  return labels
end

M.BayesianGaussianMixture = estimator.class{
  name = "luma.mixture.BayesianGaussianMixture",
  kind = "density",
  doc = "A Gaussian mixture fitted by variational inference (Bishop, Pattern Recognition "
    .. "and Machine Learning, sec. 10.2; Blei and Jordan, Variational inference for Dirichlet "
    .. "process mixtures, 2006), as scikit-learn's BayesianGaussianMixture: a Dirichlet "
    .. "distribution or a (truncated, stick-breaking) Dirichlet process prior on the weights "
    .. "and Gaussian-Wishart priors on the components; coordinate ascent on the evidence "
    .. "lower bound. Superfluous components end with weights near 0 "
    .. "(n_effective_components counts the others). Fitted: weights, means, covariances, "
    .. "precisions, precisions_cholesky (shaped as GaussianMixture's), weight_concentration, "
    .. "mean_precision, degrees_of_freedom, the priors used, converged, n_iter, lower_bound, "
    .. "lower_bound_history.",
  params = {
    { name = "n_components", type = "integer", default = 1, min = 1,
      doc = "number of components (an upper bound)" },
    { name = "covariance_type", type = "string", default = "full",
      values = { "full", "tied", "diag", "spherical" }, doc = "as GaussianMixture's" },
    { name = "weight_concentration_prior_type", type = "string", default = "dirichlet_process",
      values = { "dirichlet_process", "dirichlet_distribution" },
      doc = "the prior on the weights" },
    { name = "weight_concentration_prior", type = "number", gt = 0,
      doc = "its concentration (nil: 1 / n_components); small values prune components" },
    { name = "mean_precision_prior", type = "number", gt = 0,
      doc = "beta_0, the precision of the means' prior relative to the components' (nil: 1)" },
    { name = "mean_prior", type = "matrix", doc = "m_0, 1 x d (nil: the mean of X)" },
    { name = "degrees_of_freedom_prior", type = "number",
      doc = "nu_0 of the Wishart prior, > d - 1 (nil: d)" },
    { name = "covariance_prior", type = "number|matrix",
      doc = "W_0^-1: d x d (full, tied), 1 x d (diag) or a number (spherical) (nil: the "
        .. "covariance of X with divisor N - 1)" },
    { name = "tol", type = "number", default = 1e-3, min = 0,
      doc = "stop when the lower bound changes by less" },
    { name = "reg_covar", type = "number", default = 1e-6, min = 0,
      doc = "added to the data covariances' diagonal" },
    { name = "max_iter", type = "integer", default = 100, min = 0, doc = "iterations per initialization" },
    common.param("n_init"),
    common.param("init_params"),
    { name = "resp_init", type = "matrix", doc = "given initial responsibilities (n x k; overrides init_params)" },
    { name = "prune_threshold", type = "number", default = 1e-3, min = 0,
      doc = "weights above it count in n_effective_components" },
    common.param("warm_start"),
    common.param("seed"),
  },
  example = function() return M.BayesianGaussianMixture{ n_components = 3, seed = 0 }, common.example_data() end,
  method_docs = common.method_docs({
    predict_proba = { signature = "est:predict_proba(X) -> matrix",
      doc = "The responsibilities under the variational posterior. Returns an n x k matrix." },
    score_samples = { signature = "est:score_samples(X) -> matrix",
      doc = "The log-sum-exp over components of the expected log-densities (scikit-learn's "
        .. "score_samples of this model, a lower-bound-like score). Returns an n x 1 matrix." },
  }, { "predict", "fit_predict" }),
  fit = function(self, X) fit(self, X, "fit") end,
  fit_predict = function(self, X) return fit(self, X, "fit_predict") end,
  predict = function(self, X)
    common.check_X(NAME, "predict", X)
    return (e_step(self, X)):argmax(2)
  end,
  predict_proba = function(self, X)
    common.check_X(NAME, "predict_proba", X)
    return (e_step(self, X)):exp()
  end,
  score_samples = function(self, X)
    common.check_X(NAME, "score_samples", X)
    local _, norm = e_step(self, X)
    return norm
  end,
}

return M
