--- luma.text.lda: LatentDirichletAllocation, scikit-learn 1.2.1's
-- (sklearn/decomposition/_lda.py) on sparse or dense counts.
--
-- Variational Bayes for LDA (Blei, Ng and Jordan, JMLR 2003): topics
-- lambda (components, k x V) with q(beta_k) = Dirichlet(lambda_k), and per
-- document gamma_d with q(theta_d) = Dirichlet(gamma_d).  The E-step
-- (src/ml/text/lda.c) iterates each document's gamma; the M-step sets
-- lambda = eta + expected counts (batch) or moves it towards that target
-- with the step (learning_offset + t)^-learning_decay (online, Hoffman,
-- Blei and Bach, "Online learning for latent Dirichlet allocation", NIPS
-- 2010).  Every step follows scikit-learn's code: the same starting
-- distributions (gamma(100, 1/100) draws, from Luma's generator), the same
-- digamma approximation, the same stopping rules and bound.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")
local native = require("luma.text.native")

local fail = args.fail
local lgamma = luma.special.lgamma

local lda = {}

local function counts(X, method)
  if luma.ismatrix(X) then X = luma.sparse.from_dense(X) end
  if not luma.sparse.issparse(X) then
    fail(3, "bad argument #1 to '%s' (a luma.SparseMatrix or luma.Matrix of counts expected, "
      .. "got %s)", method, args.type_of(X))
  end
  -- scikit-learn's check_non_negative (and finite values)
  local row = native.bad_counts(X)
  if row then
    fail(3, "bad argument #1 to '%s' (Negative or non-finite values in data passed to "
      .. "LatentDirichletAllocation.%s, row %d)", method, method, row)
  end
  return X
end

local function priors(self)
  local k = self.params.n_components
  return self.params.doc_topic_prior or 1 / k, self.params.topic_word_prior or 1 / k
end

-- The E-step: gamma of every document (from gamma(100, 1/100) draws when
-- random, ones otherwise) and, with sstats, the expected counts times
-- exp(E[log beta]).
local function e_step(self, X, sstats, random)
  local n, k = X:rows(), self.params.n_components
  local gamma
  if random and self.params.doc_topic_init == "random" then
    gamma = self.__rng:gamma(100, n, k) * 0.01
  else
    gamma = luma.ones(n, k)
  end
  local ss = native.lda_estep(X, self.exp_dirichlet_component, self.doc_topic_prior, self.params
    .max_doc_update_iter, self.params.mean_change_tol, gamma, sstats)
  if ss then ss = ss:mul(self.exp_dirichlet_component) end
  return gamma, ss
end

local function set_components(self, lambda)
  self.components = lambda
  self.exp_dirichlet_component = native.lda_expect(lambda):exp()
end

local function em_step(self, X, total, batch)
  local _, ss = e_step(self, X, true, true)
  if batch then
    set_components(self, ss + self.topic_word_prior)
  else
    local p = self.params
    local w = (p.learning_offset + self.n_batch_iter) ^ -p.learning_decay
    local ratio = total / X:rows()
    set_components(self, self.components * (1 - w) + (ss * ratio + self.topic_word_prior) * w)
  end
  self.n_batch_iter = self.n_batch_iter + 1
end

-- sum(lgamma) of a matrix's elements.
local function sum_lgamma(M) return lgamma(M):sum() end

-- The variational bound (scikit-learn's _approx_bound, sub_sampling off).
local function bound(self, X, gamma)
  local k, V = self.params.n_components, X:cols()
  local alpha, eta = self.doc_topic_prior, self.topic_word_prior
  local edt = native.lda_expect(gamma)
  local ec = native.lda_expect(self.components)
  local score = native.lda_doc_bound(X, edt, ec)
  -- E[log p(theta | alpha) - log q(theta | gamma)]
  score = score + ((gamma * -1 + alpha):mul(edt)):sum() + sum_lgamma(gamma)
    - gamma:rows() * k * lgamma(alpha)
    + gamma:rows() * lgamma(alpha * k) - sum_lgamma(gamma:sum(2))
  -- E[log p(beta | eta) - log q(beta | lambda)]
  local lam = self.components
  score = score + ((lam * -1 + eta):mul(ec)):sum() + sum_lgamma(lam) - k * V * lgamma(eta)
    + k * lgamma(eta * V) - sum_lgamma(lam:sum(2))
  return score
end

local function perplexity_of(self, X, gamma)
  return math.exp(-bound(self, X, gamma) / X:sum())
end

local function check_n_features(self, X, method)
  if X:cols() ~= self.components:cols() then
    fail(3, "bad argument #1 to '%s' (X has %d columns but LatentDirichletAllocation was "
      .. "fitted on %d)", method, X:cols(), self.components:cols())
  end
end

-- The starting state of a fit, or of the first partial_fit (scikit-learn's
-- _init_latent_vars).
local function init_latent(self, V, method)
  local p = self.params
  local k = p.n_components
  rawset(self, "__rng", estimator.rng(p.seed))
  self.doc_topic_prior, self.topic_word_prior = priors(self)
  self.n_batch_iter = 1
  self.n_iter = 0
  local init = p.init_components
  if init then
    if init:rows() ~= k or init:cols() ~= V then
      fail(3, "bad argument #1 to '%s' (init_components is %d x %d but must be %d x %d "
        .. "(n_components x features))", method, init:rows(), init:cols(), k, V)
    end
    set_components(self, init:copy())
  else
    set_components(self, self.__rng:gamma(100, k, V) * 0.01)
  end
end

local function fit(self, X)
  X = counts(X, "fit")
  local p = self.params
  local n = X:rows()
  init_latent(self, X:cols(), "fit")
  local last
  for i = 1, p.max_iter do
    if p.learning_method == "online" then
      for a = 1, n, p.batch_size do
        em_step(self, X:sub(a, math.min(a + p.batch_size - 1, n)), n, false)
      end
    else
      em_step(self, X, n, true)
    end
    self.n_iter = self.n_iter + 1
    if p.evaluate_every > 0 and i % p.evaluate_every == 0 then
      local b = perplexity_of(self, X, (e_step(self, X, false, false)))
      if last and math.abs(last - b) < p.perp_tol then break end
      last = b
    end
  end
  self.bound = perplexity_of(self, X, (e_step(self, X, false, false)))
  rawset(self, "__rng", nil)
end

-- One online pass over X's mini-batches, each step weighted as if the
-- corpus held total_samples documents (scikit-learn's partial_fit).  The
-- generator of the first call goes on across later ones; after a fit,
-- which keeps none, a new one starts from seed.
local function partial_fit(self, X)
  X = counts(X, "partial_fit")
  local p = self.params
  if self.components == nil then
    init_latent(self, X:cols(), "partial_fit")
  else
    check_n_features(self, X, "partial_fit")
    if rawget(self, "__rng") == nil then rawset(self, "__rng", estimator.rng(p.seed)) end
  end
  local n = X:rows()
  for a = 1, n, p.batch_size do
    em_step(self, X:sub(a, math.min(a + p.batch_size - 1, n)), p.total_samples, false)
  end
  rawset(self, "__fitted", true)
  return self
end

local function unnormalized(self, X, method)
  X = counts(X, method)
  check_n_features(self, X, method)
  return (e_step(self, X, false, false)), X
end

lda.LatentDirichletAllocation = estimator.class{
  name = "luma.text.LatentDirichletAllocation", kind = "transformer", input = "any",
  doc = "Latent Dirichlet allocation by variational Bayes (Blei, Ng and Jordan, JMLR 2003), "
    .. "batch or online (Hoffman, Blei and Bach, NIPS 2010), on a documents x terms count "
    .. "matrix (sparse or dense), step for step as scikit-learn 1.2.1's "
    .. "LatentDirichletAllocation. Fitted: components (topic-word pseudo-counts lambda, "
    .. "n_components x terms), exp_dirichlet_component (exp(E[log beta])), doc_topic_prior, "
    .. "topic_word_prior, n_batch_iter, n_iter, bound (the final training perplexity).",
  params = {
    { name = "n_components", type = "integer", default = 10, min = 1, doc = "topics" },
    { name = "doc_topic_prior", type = "number", gt = 0, max = 1,
      doc = "alpha, the documents' Dirichlet prior (nil: 1 / n_components)" },
    { name = "topic_word_prior", type = "number", gt = 0, max = 1,
      doc = "eta, the topics' Dirichlet prior (nil: 1 / n_components)" },
    { name = "learning_method", type = "string", default = "batch", values = { "batch", "online" },
      doc = "batch: every document in each update; online: mini-batches" },
    { name = "learning_decay", type = "number", default = 0.7, min = 0, max = 1,
      doc = "kappa: online step (learning_offset + t)^-kappa" },
    { name = "learning_offset", type = "number", default = 10.0, min = 1,
      doc = "tau0: down-weights the first online steps" },
    { name = "max_iter", type = "integer", default = 10, min = 0, doc = "passes over the data" },
    { name = "batch_size", type = "integer", default = 128, min = 1,
      doc = "documents per online update" },
    { name = "total_samples", type = "number", default = 1e6, gt = 0,
      doc = "the corpus size each partial_fit step scales its mini-batch to" },
    { name = "evaluate_every", type = "integer", default = -1,
      doc = "compute the perplexity every this many passes (<= 0: never) to stop early" },
    { name = "perp_tol", type = "number", default = 0.1, min = 0,
      doc = "stop when the perplexity changes by less (with evaluate_every)" },
    { name = "mean_change_tol", type = "number", default = 1e-3, min = 0,
      doc = "stop a document's E-step when gamma changes by less on average" },
    { name = "max_doc_update_iter", type = "integer", default = 100, min = 0,
      doc = "most E-step iterations per document" },
    { name = "seed", type = "seed", doc = "seed or generator for the starting values (random_state)" },
    { name = "init_components", type = "matrix",
      doc = "the starting topic-word matrix (n_components x terms; nil: gamma(100, 1/100) "
        .. "draws) -- to start where another implementation started" },
    { name = "doc_topic_init", type = "string", default = "random", values = { "random", "ones" },
      doc = "each fitting E-step starts documents at gamma(100, 1/100) draws (scikit-learn's) "
        .. "or at ones (as transform does)" },
  },
  method_docs = {
    fit = { signature = "est:fit(X) -> est", doc = "Fits the topics to a counts matrix." },
    partial_fit = { signature = "est:partial_fit(X) -> est",
      doc = "One online pass over X's mini-batches of batch_size documents (Hoffman, Blei and "
        .. "Bach, 2010), each scaled to a corpus of total_samples documents; the first call "
        .. "starts the topics as fit does, later calls go on from them." },
    transform = { signature = "est:transform(X) -> matrix",
      doc = "Each document's topic distribution (rows sum to 1), an n x n_components matrix." },
    fit_transform = { signature = "est:fit_transform(X) -> matrix",
      doc = "fit, then transform of the same counts." },
    score = { signature = "est:score(X) -> number",
      doc = "The variational lower bound of the log-likelihood of X (an approximation)." },
    perplexity = { signature = "est:perplexity(X) -> number",
      doc = "exp(-bound / total count): the approximate per-word perplexity of X." },
  },
  example = function()
    local X = luma.matrix{ { 3, 0, 1, 0 }, { 2, 1, 0, 0 }, { 0, 0, 4, 2 }, { 0, 1, 3, 3 } }
    return lda.LatentDirichletAllocation{ n_components = 2, seed = 0 }, X, nil
  end,
  check_state = function(self)
    estimator.check_fields(self, { components = "matrix", exp_dirichlet_component = "matrix",
      doc_topic_prior = "number", topic_word_prior = "number" })
  end,
  fit = fit,
  partial_fit = partial_fit,
  transform = function(self, X)
    local gamma = unnormalized(self, X, "transform")
    return gamma:div(gamma:sum(2))
  end,
  score = function(self, X)
    local gamma, C = unnormalized(self, X, "score")
    return bound(self, C, gamma)
  end,
  perplexity = function(self, X)
    if not self:is_fitted() then
      fail(2, "luma.text.LatentDirichletAllocation: perplexity called before fit")
    end
    local gamma, C = unnormalized(self, X, "perplexity")
    return perplexity_of(self, C, gamma)
  end,
}

return lda
