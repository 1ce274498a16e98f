--- luma.mixture StudentTMixture: a mixture of multivariate Student-t
-- distributions fitted by EM (notes 002 U9, 000 Ch. 12 "EM for a
-- multivariate Student-t"; Peel and McLachlan, Robust mixture modelling
-- using the t distribution, 2000).
--
-- The t is a Gaussian scale mixture (002 U9): h ~ Gamma(nu/2, rate
-- nu/2), x | h ~ N(mu, Sigma / h), so EM carries a second latent per
-- point and component.  E-step, with delta the squared Mahalanobis
-- distance: the responsibilities, E[h] = (nu + D) / (nu + delta) and
-- E[log h] = psi((nu + D)/2) - log((nu + delta)/2) -- the notes print the
-- posterior shape (nu + 1)/2, corrected to (nu + D)/2.  M-step: pi_k =
-- N_k / N; mu_k and Sigma_k weighted by w = r E[h], Sigma_k = sum w (x -
-- mu)(x - mu)^T / sum w (the notes' denominator: the parameter-expanded
-- EM of Liu, Rubin and Wu 1998, which has the same fixed points as the
-- plain 1 / N_k and converges faster); nu_k fixed, or maximizing the
-- expected complete-data log-likelihood of h (the notes' E[log P(h)])
-- over an interval (a golden-section search: the function is concave in
-- nu), or chosen from a grid by the likelihood of the whole fit with nu
-- fixed at each value (the notes' grid; a grid inside each M-step can
-- stall between grid points).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.mixture.common")
local em = require("luma.mixture.em")
local native = require("luma.mixture.native")

local fail = common.fail
local linalg = luma.linalg
local lgamma, digamma = luma.special.lgamma, luma.special.digamma

local M = {}

local NAME = "StudentTMixture"

-- delta (n x 1) and log|Sigma|^(-1/2) of component c.
local function mahalanobis(self, X, c)
  local Mc = self.precisions_cholesky[c]
  local Y = X * Mc - self.means:row(c) * Mc
  return Y:mul(Y):sum(2), Mc:diag():log():sum()
end

-- log t(x | mu_c, Sigma_c, nu_c) for every row and component: n x k, and
-- the deltas (a table of n x 1 columns) for the M-step.
local function log_density(self, X)
  local n, d = X:shape()
  local k = self.means:rows()
  local out, deltas = luma.zeros(n, k), {}
  for c = 1, k do
    local nu = self.dof:get(c, 1)
    local delta, half_logdet = mahalanobis(self, X, c)
    deltas[c] = delta
    local const = lgamma((nu + d) / 2) - lgamma(nu / 2) - d / 2 * (math.log(nu) + math.log(math.pi))
      + half_logdet
    out:col(c):assign((delta / nu):log1p() * (-(nu + d) / 2) + const)
  end
  return out, deltas
end

local function e_step(self, X)
  local lp, deltas = log_density(self, X)
  local wlp = lp + self.weights:log():t()
  local norm = wlp:logsumexp(2)
  return wlp - norm, norm, deltas
end

local function precision_cholesky(self, S, c)
  local ok, L = pcall(linalg.cholesky, S)
  if not ok then
    fail("%s.fit: the scale matrix of component %d is singular or not positive definite; set "
      .. "reg_covar > 0 (it is %s) or use fewer components", NAME, c,
      common.number_text(self.params.reg_covar))
  end
  return linalg.solve_triangular(L, luma.eye(S:rows()), { lower = true }):t():copy()
end

-- The nu part of the expected complete-data log-likelihood per unit of
-- responsibility: (nu/2) log(nu/2) - log Gamma(nu/2) + (nu/2)(A - B),
-- A = mean E[log h], B = mean E[h] (up to a constant in nu).
local function dof_objective(nu, A, B)
  return nu / 2 * math.log(nu / 2) - lgamma(nu / 2) + nu / 2 * (A - B)
end

-- The nu maximizing dof_objective: a golden-section search on log nu
-- over [dof_min, dof_max].
local function best_dof(p, A, B)
  local lo, hi = math.log(p.dof_min), math.log(p.dof_max)
  local g = (math.sqrt(5) - 1) / 2
  local a, b = hi - g * (hi - lo), lo + g * (hi - lo)
  local fa, fb = dof_objective(math.exp(a), A, B), dof_objective(math.exp(b), A, B)
  for _ = 1, 200 do
    if hi - lo < 1e-10 then break end
    if fa > fb then
      hi, b, fb = b, a, fa
      a = hi - g * (hi - lo)
      fa = dof_objective(math.exp(a), A, B)
    else
      lo, a, fa = a, b, fb
      b = lo + g * (hi - lo)
      fb = dof_objective(math.exp(b), A, B)
    end
  end
  return math.exp((lo + hi) / 2)
end

local function estimate(self, X, R, deltas)
  local p = self.params
  local d = X:cols()
  local k = R:cols()
  local W = R:copy()
  local U = {}
  for c = 1, k do
    if deltas then
      local nu = self.dof:get(c, 1)
      U[c] = (deltas[c] + nu):pow(-1) * (nu + d)
      W:col(c):assign(R:col(c):mul(U[c]))
    end
  end
  local nk = R:sum(1):t()
  local sw, means, scatter = native.moments(X, W, { eps = 10 * common.EPS })
  self.weights = nk / nk:sum()
  self.means = means
  self.covariances, self.precisions_cholesky = {}, {}
  for c = 1, k do
    local S = scatter[c] / sw:get(c, 1)
    S = (S + S:t()) * 0.5
    S:diag():add(p.reg_covar, S:diag())
    self.covariances[c] = S
    self.precisions_cholesky[c] = precision_cholesky(self, S, c)
  end
  if deltas and p.dof_method == "search" then
    local dof = self.dof:copy()
    for c = 1, k do
      local nu = self.dof:get(c, 1)
      local Nk = nk:get(c, 1) + 10 * common.EPS
      local Elog = (deltas[c] + nu):mul(0.5):log():neg() + digamma((nu + d) / 2)
      local A = R:col(c):dot(Elog) / Nk
      local B = R:col(c):dot(U[c]) / Nk
      dof:set(c, 1, best_dof(p, A, B))
    end
    self.dof = dof
  end
end

local model = {}

function model.initialize(self, X, rng)
  local k = self.params.n_components
  self.dof = luma.full(k, 1, self.grid_dof or self.params.dof)
  estimate(self, X, common.resp_init(self, X, k, rng))
end

function model.e_step(self, X)
  local log_resp, norm, deltas = e_step(self, X)
  self.deltas_scratch = deltas -- for the M-step that follows (removed after fit)
  return norm:mean(), log_resp
end

function model.m_step(self, X, log_resp)
  estimate(self, X, log_resp:exp(), self.deltas_scratch)
end

function model.get_state(self)
  return { weights = self.weights, means = self.means, covariances = self.covariances,
           precisions_cholesky = self.precisions_cholesky, dof = self.dof }
end

function model.set_state(self, s)
  self.weights, self.means, self.covariances = s.weights, s.means, s.covariances
  self.precisions_cholesky, self.dof = s.precisions_cholesky, s.dof
end

local function fit(self, X, method)
  local p = self.params
  common.check_X(NAME, method, X, p.n_components)
  if p.dof_method ~= "fixed" and not (p.dof_min > 0 and p.dof_max > p.dof_min) then
    fail("%s: dof_min and dof_max must satisfy 0 < dof_min < dof_max", NAME)
  end
  if p.dof_method == "grid" then
    if p.warm_start then
      fail("%s: warm_start needs dof_method \"fixed\" or \"search\" (a grid refits from scratch)", NAME)
    end
    for i, v in ipairs(p.dof_grid) do
      if type(v) ~= "number" or not (v > 0) then
        fail("%s: dof_grid[%d] must be a number > 0", NAME, i)
      end
    end
  end
  local labels
  if p.dof_method == "grid" then
    local best
    for _, nu in ipairs(p.dof_grid) do
      self.grid_dof = nu
      local found = em.fit(self, X, model, NAME)
      if best == nil or self.lower_bound > best.lower_bound then
        best = { labels = found, state = model.get_state(self), n_iter = self.n_iter,
                 converged = self.converged, lower_bound = self.lower_bound,
                 history = self.lower_bound_history }
      end
    end
    model.set_state(self, best.state)
    self.n_iter, self.converged, self.lower_bound = best.n_iter, best.converged, best.lower_bound
    self.lower_bound_history = best.history
    self.grid_dof = nil
    labels = best.labels
  else
    labels = em.fit(self, X, model, NAME)
  end
  self.deltas_scratch = nil
  return labels
end

local function n_parameters(self)
  common.check_fitted(self, "n_parameters")
  local k, d = self.params.n_components, self.n_features_in
  local extra = ({ fixed = 0, search = k, grid = 1 })[self.params.dof_method]
  return math.tointeger(k * d * (d + 1) / 2 + k * d + k - 1 + extra)
end

local function score_samples(self, X)
  common.check_X(NAME, "score_samples", X)
  local _, norm = e_step(self, X)
  return norm
end

local function criterion(self, X, method, penalty)
  common.check_fitted(self, method)
  if not luma.ismatrix(X) or X:cols() ~= self.n_features_in then
    fail("bad argument #1 to '%s' (X must be a matrix with %d columns)", method, self.n_features_in)
  end
  return -2 * score_samples(self, X):sum() + penalty
end

M.StudentTMixture = estimator.class{
  name = "luma.mixture.StudentTMixture",
  kind = "density",
  doc = "A mixture of multivariate Student-t distributions fitted by EM with the Gamma "
    .. "scale-mixture latent (Peel and McLachlan, Robust mixture modelling using the t "
    .. "distribution, 2000; Liu and Rubin 1995): heavy tails make the fit robust to outliers. "
    .. "Degrees of freedom fixed, fitted per component by a 1-D search of the expected "
    .. "log-likelihood, or one chosen from a grid by the likelihood of the fit. Fitted: "
    .. "weights, means, "
    .. "covariances (scale matrices, a table of k d x d), precisions_cholesky, dof (k x 1), "
    .. "converged, n_iter, lower_bound, lower_bound_history.",
  params = {
    { name = "n_components", type = "integer", default = 1, min = 1, doc = "number of components k" },
    { name = "dof", type = "number", default = 5, gt = 0,
      doc = "degrees of freedom nu (the starting value unless fixed)" },
    { name = "dof_method", type = "string", default = "fixed", values = { "fixed", "search", "grid" },
      doc = "keep nu; maximize it over [dof_min, dof_max] in each M-step; or fit with each "
        .. "value of dof_grid and keep the most likely" },
    { name = "dof_min", type = "number", default = 0.1, gt = 0, doc = "search: smallest nu" },
    { name = "dof_max", type = "number", default = 1000, gt = 0, doc = "search: largest nu" },
    { name = "dof_grid", type = "table", default = { 0.5, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 100 },
      doc = "grid: the candidate nu" },
    { name = "reg_covar", type = "number", default = 1e-6, min = 0,
      doc = "added to the scale matrices' diagonal" },
    { name = "tol", type = "number", default = 1e-3, min = 0,
      doc = "stop when the average log-likelihood changes by less" },
    { name = "max_iter", type = "integer", default = 100, min = 0, doc = "EM iterations per initialization" },
    common.param("n_init"),
    common.param("init_params"),
    common.param("warm_start"),
    common.param("seed"),
  },
  example = function() return M.StudentTMixture{ n_components = 2, seed = 0 }, common.example_data() end,
  method_docs = common.method_docs({
    sample = { signature = "est:sample(n [, rng = nil]) -> X, labels",
      doc = "Draws n points: a component by the weights, h ~ Gamma(nu/2, rate nu/2), then "
        .. "N(mu, Sigma / h). Returns the points and their components." },
    n_parameters = { signature = "est:n_parameters() -> integer",
      doc = "The number of free parameters (the degrees of freedom count when fitted). "
        .. "Returns an integer." },
  }, { "predict", "predict_proba", "fit_predict", "bic", "aic" }),
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
  score_samples = score_samples,
  n_parameters = n_parameters,
  bic = function(self, X) return criterion(self, X, "bic", n_parameters(self) * math.log(X:rows())) end,
  aic = function(self, X) return criterion(self, X, "aic", 2 * n_parameters(self)) end,
  sample = function(self, n, rng)
    common.check_fitted(self, "sample")
    common.check_sample(n, rng)
    rng = rng or estimator.rng(self.params.seed)
    local d = self.means:cols()
    local blocks, labels = {}, {}
    for c, m in ipairs(common.sample_counts(rng, n, self.weights)) do
      if m > 0 then
        local nu = self.dof:get(c, 1)
        local h = rng:gamma(nu / 2, m, 1) * (2 / nu)
        local Z = (rng:normal(m, d) * linalg.cholesky(self.covariances[c]):t()):div(h:sqrt())
        blocks[#blocks + 1] = Z + self.means:row(c)
        labels[#labels + 1] = luma.full(m, 1, c)
      end
    end
    return luma.matrix.vstack(blocks), luma.matrix.vstack(labels)
  end,
}

return M
