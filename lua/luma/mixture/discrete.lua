--- luma.mixture BernoulliMixture, MultinomialMixture and
-- ExponentialFamilyMixture: mixtures for binary, count and any
-- exponential-family data fitted by EM (notes 002 §1.13 X4–X9, 004 G1;
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

-- log(n! / prod h_j!) of each row: the multinomial coefficient.  For a
-- sparse X (bag-of-words counts) only the stored counts enter the
-- product: lgamma(0 + 1) = 0.
local function log_coefficient(X)
  local lgamma = luma.special.lgamma
  if luma.sparse.issparse(X) then
    local out = lgamma(X:sum(2) + 1)
    local rows, _, counts = X:coo()
    local terms = lgamma(counts + 1)
    for e = 1, rows:rows() do
      local i = rows:get(e, 1)
      out:set(i, 1, out:get(i, 1) - terms:get(e, 1))
    end
    return out
  end
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
  sparse = true, -- bag-of-words counts from luma.text

  doc = "A mixture of multinomial distributions for count data such as bag-of-words "
    .. "histograms (one topic per document: Nigam, McCallum, Thrun and Mitchell, Text "
    .. "classification from labeled and unlabeled documents using EM, 2000), fitted by EM: "
    .. "t_k = (sum_n r_nk h_n + alpha) / (sum_n r_nk |h_n| + d alpha). score_samples includes "
    .. "the multinomial coefficient. Fitted: weights (k x 1), probabilities (k x d, rows sum "
    .. "to 1), converged, n_iter, lower_bound, lower_bound_history. X may be sparse (the "
    .. "counts of luma.text's CountVectorizer). sample(n [, rng [, length = 10]]) draws "
    .. "documents of the given length.",
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

-- --------------------------------------------- ExponentialFamilyMixture

local XNAME = "ExponentialFamilyMixture"

-- The families of one-column data whose members luma.dist builds from
-- natural parameters (luma.stats.natural), each as a member.  (A mixture
-- of Bernoulli or categorical single draws is itself one such
-- distribution: it cannot be identified, so those are left out; the
-- multivariate ones are BernoulliMixture and MultinomialMixture.)
local FAMILY_OF = {
  Normal = function() return luma.dist.Normal{} end,
  Poisson = function() return luma.dist.Poisson{ lambda = 1 } end,
  Exponential = function() return luma.dist.Exponential{} end,
  Gamma = function() return luma.dist.Gamma{ shape = 1, rate = 1 } end,
  Beta = function() return luma.dist.Beta{ a = 1, b = 1 } end,
}
local FAMILY_NAMES = { "Normal", "Poisson", "Exponential", "Gamma", "Beta" }

-- A member of the model's family.
local function member(self)
  return FAMILY_OF[self.params.family]()
end

-- Each component's log-density of the points (n x k, without weights):
-- <S(x), theta_k> + log h(x) - psi(theta_k).
local function family_log_density(self, X)
  local d = member(self)
  local S, logh = d:sufficient_statistics(X), d:log_base_measure(X)
  local psi = luma.zeros(1, self.natural:rows())
  for c = 1, self.natural:rows() do
    psi:set(1, c, d:from_natural(self.natural:row(c):t()):log_partition())
  end
  return S * self.natural:t() + logh - psi
end

-- The M-step (notes 002 X4): weights, then each component's mean
-- statistics sum r S / sum r -- smoothed by alpha pseudo-observations at
-- the data's own mean statistics, which is the MAP under the natural
-- conjugate prior (lambda = alpha, y = alpha mean(S)) -- mapped to theta.
local function family_estimate(self, X, R)
  local d = member(self)
  local a = self.params.alpha
  local S = d:sufficient_statistics(X)
  local nk = R:sum(1):t()
  self.weights = nk / nk:sum()
  local pooled = S:mean(1)
  local means = (R:t() * S + pooled * a):div(nk + a) -- k x m
  local natural = luma.zeros(means:rows(), S:cols())
  for c = 1, means:rows() do
    local ok, fitted = pcall(d.from_mean_statistics, d, means:row(c):t():copy())
    if not ok then
      fail("%s: component %d has degenerate statistics (%s); raise alpha", XNAME, c,
        tostring(fitted):gsub("^.-: ", ""))
    end
    local theta = fitted:natural_parameters()
    if not theta:isfinite():all() then
      fail("%s: component %d reached the boundary of the family (infinite natural "
        .. "parameters: a rate or probability of 0); raise alpha", XNAME, c)
    end
    natural:row(c):assign(theta:t())
  end
  self.natural = natural
end

local family_model = model_of(family_log_density, family_estimate, { "weights", "natural" })

local function check_family_data(method, X)
  common.check_X(XNAME, method, X)
  if X:cols() ~= 1 then
    fail("bad argument #1 to '%s' (%s: X must be one column of observations, got %d columns)",
      method, XNAME, X:cols())
  end
end

local family_spec = class_spec({
  name = "luma.mixture.ExponentialFamilyMixture",
  doc = "A mixture of one exponential family of luma.dist (Normal, Poisson, Exponential, "
    .. "Gamma or Beta) for one column of observations, fitted by "
    .. "EM whose M-step matches moments in the mean parametrization (Bishop, Pattern "
    .. "Recognition and Machine Learning, sec. 9.4; Banerjee et al., Clustering with Bregman "
    .. "divergences, JMLR 6, 2005): each component's E[S] is the responsibility-weighted mean "
    .. "of the sufficient statistics (with alpha pseudo-observations at the data's mean: the "
    .. "MAP under the natural conjugate prior). Fitted: weights (k x 1), natural (k x m, "
    .. "each row a component's natural parameters), components() (the luma.dist members), "
    .. "converged, n_iter, lower_bound, lower_bound_history.",
  params = params({
    { name = "family", type = "string", default = "Poisson", values = FAMILY_NAMES,
      doc = "the components' family" },
  }),
  method_docs = {
    components = { signature = "est:components()",
      doc = "The fitted components as luma.dist distributions. Returns a list of k." },
  },
  example = function()
    local X = luma.matrix{ 0, 1, 2, 1, 0, 1, 9, 11, 8, 12, 10, 9 }
    return M.ExponentialFamilyMixture{ n_components = 2, family = "Poisson", seed = 0 }, X
  end,
}, family_model, check_family_data, function(self)
  return math.tointeger(self.natural:rows() * self.natural:cols() + self.natural:rows() - 1)
end, function(self, rng, c, m)
  return self:components()[c]:sample(m, rng)
end)
family_spec.components = function(self)
  common.check_fitted(self, "components")
  local out = {}
  for c = 1, self.natural:rows() do
    out[c] = member(self):from_natural(self.natural:row(c):t())
  end
  return out
end
M.ExponentialFamilyMixture = estimator.class(family_spec)

return M
