--- luma.mixture BernoulliMixture and MultinomialMixture: mixtures for
-- binary and count data fitted by EM (notes 002 §1.13 X4–X9, 004 G1;
-- Bishop, Pattern Recognition and Machine Learning, sec. 9.3.3).
--
-- Both are exponential-family mixtures, whose M-step is the notes' moment
-- matching (002 X4): theta_k = sum_n r_nk S(x_n) / sum_n r_nk, here with
-- an optional pseudo-count alpha (a Beta / Dirichlet prior with
-- parameters alpha + 1: MAP instead of ML; alpha = 0 is plain EM).
--   Bernoulli:   log p(x | mu) = sum_d x_d log mu_d + (1 - x_d) log(1 - mu_d)
--   Multinomial: log p(h | t) = log (n! / prod h_j!) + sum_j h_j log t_j,
--                t_k = (sum_n r_nk h_n + alpha) / (sum_n r_nk |h_n| + d alpha)
-- (002 X6–X7; the erratum "t_j = (1/n) t_j" read as t_j = H_j / n; the
-- pmf keeps the multinomial coefficient, as the notes' D10 check needs).
-- Probabilities of exactly 0 are kept and their logarithms floored at
-- log(DBL_MIN), so 0 log 0 = 0 and an impossible observation scores
-- about -708 instead of NaN.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.mixture.common")
local em = require("luma.mixture.em")

local fail = common.fail

local M = {}

local LOG_FLOOR = 2.2250738585072014e-308

local function safe_log(P)
  return P:maximum(LOG_FLOOR):log()
end

-- The parameters both classes share.
local function params(extra)
  local list = {
    { name = "n_components", type = "integer", default = 1, min = 1, doc = "number of components k" },
    { name = "alpha", type = "number", default = 0, min = 0,
      doc = "pseudo-count added in the M-step (0: maximum likelihood)" },
    { name = "tol", type = "number", default = 1e-3, min = 0,
      doc = "stop when the average log-likelihood changes by less" },
    { name = "max_iter", type = "integer", default = 100, min = 0, doc = "EM iterations per initialization" },
    common.param("n_init"),
    common.param("init_params"),
    common.param("warm_start"),
    common.param("seed"),
  }
  for _, p in ipairs(extra or {}) do list[#list + 1] = p end
  return list
end

-- The EM model of a mixture given its per-component log-density (n x k,
-- without the weights), its M-step from responsibilities and the names of
-- its fitted parameters.
local function model_of(log_density, estimate, fields)
  local model = {}
  function model.get_state(self)
    local state = {}
    for _, f in ipairs(fields) do state[f] = self[f] end
    return state
  end
  function model.set_state(self, state)
    for _, f in ipairs(fields) do self[f] = state[f] end
  end
  local function e_step(self, X)
    local wlp = log_density(self, X) + safe_log(self.weights):t()
    local norm = wlp:logsumexp(2)
    return wlp - norm, norm
  end
  model.e_step_full = e_step
  function model.initialize(self, X, rng)
    local R = common.resp_init(self, X, self.params.n_components, rng)
    estimate(self, X, R)
  end
  function model.e_step(self, X)
    local log_resp, norm = e_step(self, X)
    return norm:mean(), log_resp
  end
  function model.m_step(self, X, log_resp)
    estimate(self, X, log_resp:exp())
  end
  return model
end

-- The class spec both share: predict, predict_proba, score_samples, aic,
-- bic, sample (through draw(self, rng, c, m, ...) -> m x d rows of
-- component c; sample's arguments after rng are passed on), given
-- check(method, X), the domain check of the data.
local function class_spec(spec, model, check, n_parameters, draw)
  local name = spec.name:match("([^%.]+)$")
  local function e_step(self, X, method)
    check(method, X)
    return model.e_step_full(self, X)
  end
  local function score_samples(self, X)
    local _, norm = e_step(self, X, "score_samples")
    return norm
  end
  spec.kind = "density"
  local function fit(self, X, method)
    check(method, X)
    common.check_X(name, method, X, self.params.n_components)
    return em.fit(self, X, model, name)
  end
  spec.fit = function(self, X) fit(self, X, "fit") end
  spec.fit_predict = function(self, X) return fit(self, X, "fit_predict") end
  spec.predict = function(self, X) return (e_step(self, X, "predict")):argmax(2) end
  spec.predict_proba = function(self, X) return (e_step(self, X, "predict_proba")):exp() end
  spec.score_samples = score_samples
  spec.n_parameters = function(self)
    common.check_fitted(self, "n_parameters")
    return n_parameters(self)
  end
  local function criterion(self, X, method, penalty)
    common.check_fitted(self, method)
    if not luma.ismatrix(X) or X:cols() ~= self.n_features_in then
      fail("bad argument #1 to '%s' (X must be a matrix with %d columns)", method, self.n_features_in)
    end
    return -2 * score_samples(self, X):sum() + penalty(X:rows())
  end
  spec.bic = function(self, X)
    return criterion(self, X, "bic", function(n) return n_parameters(self) * math.log(n) end)
  end
  spec.aic = function(self, X)
    return criterion(self, X, "aic", function() return 2 * n_parameters(self) end)
  end
  spec.sample = function(self, n, rng, ...)
    common.check_fitted(self, "sample")
    common.check_sample(n, rng)
    rng = rng or estimator.rng(self.params.seed)
    local blocks, labels = {}, {}
    for c, m in ipairs(common.sample_counts(rng, n, self.weights)) do
      if m > 0 then
        blocks[#blocks + 1] = draw(self, rng, c, m, ...)
        labels[#labels + 1] = luma.full(m, 1, c)
      end
    end
    return luma.matrix.vstack(blocks), luma.matrix.vstack(labels)
  end
  local docs = common.method_docs(spec.method_docs or {},
    { "predict", "predict_proba", "fit_predict", "n_parameters", "bic", "aic" })
  docs.sample = docs.sample or { signature = "est:sample(n [, rng = nil]) -> X, labels",
    doc = "Draws n points by ancestral sampling, grouped by component. Returns the points "
      .. "(n x d) and their components (n x 1)." }
  spec.method_docs = docs
  return spec
end

-- ------------------------------------------------------ BernoulliMixture

local BNAME = "BernoulliMixture"

local function check_binary(method, X)
  common.check_X(BNAME, method, X)
  local bad = X:ne(0):mul(X:ne(1))
  if bad:any() then
    local p = math.tointeger(luma.matrix.find(bad):get(1, 1))
    local d = X:cols()
    local i, j = (p - 1) // d + 1, (p - 1) % d + 1
    fail("bad argument #1 to '%s' (%s: X must hold 0 and 1 only, X[%d][%d] = %s)", method, BNAME,
      i, j, common.number_text(X:get(i, j)))
  end
end

local bernoulli_model = model_of(function(self, X)
  local mu = self.means -- k x d
  return X * safe_log(mu):t() + (1 - X) * safe_log(1 - mu):t()
end, function(self, X, R)
  local a = self.params.alpha
  local nk = R:sum(1):t() -- k x 1
  self.weights = nk / nk:sum()
  self.means = (R:t() * X + a):div(nk + 2 * a)
end, { "weights", "means" })

M.BernoulliMixture = estimator.class(class_spec({
  name = "luma.mixture.BernoulliMixture",
  doc = "A mixture of products of Bernoulli distributions for binary data (Bishop, Pattern "
    .. "Recognition and Machine Learning, sec. 9.3.3), fitted by EM: responsibilities, then "
    .. "weights and per-component probabilities mu_kd = (sum_n r_nk x_nd + alpha) / (N_k + "
    .. "2 alpha). Fitted: weights (k x 1), means (k x d probabilities), converged, n_iter, "
    .. "lower_bound, lower_bound_history.",
  params = params(),
  example = function()
    local X = luma.matrix{ { 1, 1, 0, 0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 1 }, { 1, 1, 0, 0 },
      { 0, 0, 1, 1 }, { 0, 1, 1, 1 }, { 0, 0, 1, 1 }, { 0, 0, 1, 0 } }
    return M.BernoulliMixture{ n_components = 2, seed = 0, alpha = 0.1 }, X
  end,
}, bernoulli_model, check_binary, function(self)
  local k, d = self.means:rows(), self.means:cols()
  return math.tointeger(k * d + k - 1)
end, function(self, rng, c, m)
  return rng:uniform(m, self.means:cols()):lt(self.means:row(c))
end))

-- ---------------------------------------------------- MultinomialMixture

local MNAME = "MultinomialMixture"

local function check_counts(method, X)
  common.check_X(MNAME, method, X)
  common.check_nonnegative(MNAME, method, X)
end

-- log(n! / prod h_j!) of each row: the multinomial coefficient.
local function log_coefficient(X)
  local lgamma = luma.special.lgamma
  return lgamma(X:sum(2) + 1) - lgamma(X + 1):sum(2)
end

local multinomial_model = model_of(function(self, X)
  return X * safe_log(self.probabilities):t() + log_coefficient(X)
end, function(self, X, R)
  local a = self.params.alpha
  local nk = R:sum(1):t()
  self.weights = nk / nk:sum()
  local counts = R:t() * X + a -- k x d
  self.probabilities = counts:div(counts:sum(2))
end, { "weights", "probabilities" })

M.MultinomialMixture = estimator.class(class_spec({
  name = "luma.mixture.MultinomialMixture",
  doc = "A mixture of multinomial distributions for count data such as bag-of-words "
    .. "histograms (one topic per document: Nigam, McCallum, Thrun and Mitchell, Text "
    .. "classification from labeled and unlabeled documents using EM, 2000), fitted by EM: "
    .. "t_k = (sum_n r_nk h_n + alpha) / (sum_n r_nk |h_n| + d alpha). score_samples includes "
    .. "the multinomial coefficient. Fitted: weights (k x 1), probabilities (k x d, rows sum "
    .. "to 1), converged, n_iter, lower_bound, lower_bound_history. sample(n [, rng [, "
    .. "length = 10]]) draws documents of the given length.",
  params = params(),
  method_docs = {
    sample = { signature = "est:sample(n [, rng = nil [, length = 10]]) -> X, labels",
      doc = "Draws n documents of the given length by ancestral sampling (a component by the "
        .. "weights, then the words), grouped by component. Returns the counts (n x d) and the "
        .. "components (n x 1)." },
  },
  example = function()
    local X = luma.matrix{ { 5, 1, 0, 0 }, { 4, 2, 1, 0 }, { 6, 0, 0, 1 }, { 0, 1, 5, 3 },
      { 1, 0, 4, 4 }, { 0, 0, 6, 2 } }
    return M.MultinomialMixture{ n_components = 2, seed = 0, alpha = 0.01 }, X
  end,
}, multinomial_model, check_counts, function(self)
  local k, d = self.probabilities:rows(), self.probabilities:cols()
  return math.tointeger(k * (d - 1) + k - 1)
end, function(self, rng, c, m, length)
  local d = self.probabilities:cols()
  local out = luma.zeros(m, d)
  local p = self.probabilities:row(c):t():copy()
  for i = 1, m do
    local draws = rng:choice(d, length or 10, { replace = true, p = p })
    for t = 1, draws:rows() do
      local j = math.tointeger(draws:get(t, 1))
      out:set(i, j, out:get(i, j) + 1)
    end
  end
  return out
end))

return M
