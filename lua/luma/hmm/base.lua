--- luma.hmm.base: what every hidden Markov model shares (not public):
-- sequences and lengths, the Baum-Welch loop, decoding, posteriors,
-- sampling and the information criteria.  Each class (categorical,
-- gaussian, gmm) supplies its emission model.
--
-- The model (notes 000 Ch. 11 "Hidden Markov model", 002 §1.16 Q7–Q11,
-- 003 §1.14; Rabiner 1989; Bishop, PRML sec. 13.2): p(z_1) = startprob,
-- p(z_t | z_{t-1}) = transmat[z_{t-1}][z_t] (row-stochastic, as luma.markov:
-- erratum X32 of notes 002), p(x_t | z_t) the emission.  Initial-step
-- convention (notes 002 D5 / X33): startprob is the distribution of the
-- state of the FIRST observation, no transition is applied before x_1:
-- alpha_1(j) = startprob_j p(x_1 | j).
--
-- Forward-backward and Viterbi run in C (src/ml/hmm/hmm.c) over the n x k
-- matrix of log emission probabilities each class computes with matrix
-- kernels.  Baum-Welch (003 §3 item 13, with its two errata: the backward
-- recursion uses p(x_{n+1} | z_{n+1}), and the Gaussian M-step is the
-- gamma-weighted mean and covariance): startprob from gamma at the first
-- step of each sequence, transmat from the summed xi, each with
-- hmmlearn's Dirichlet pseudo-counts (prior - 1, clipped at 0; 1 = none),
-- then the emission M-step from gamma.  A row of transmat whose state got
-- no expected transitions keeps its previous values.
--
-- The recorded log-likelihood of iteration t is that of the parameters
-- the E-step of iteration t used (hmmlearn's monitor_.history): EM never
-- decreases it (Dempster, Laird and Rubin 1977).  Convergence: the gain
-- falls below tol (hmmlearn's rule).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local chain = require("luma.markov.chain")
local native = require("luma.hmm.native")

local base = {}

local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
base.fail = fail

--- base.check_fitted(self, method)
function base.check_fitted(self, method)
  if not self:is_fitted() then fail("%s: %s called before fit", self.__class.name, method) end
end

--- base.check_input(self, method, X): fitted, a matrix with the fitted
-- columns (for the methods the estimator contract does not wrap).
function base.check_input(self, method, X)
  base.check_fitted(self, method)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to '%s' (X must be a luma.Matrix, got %s)", method, type(X))
  end
  if X:cols() ~= self.n_features_in then
    fail("bad argument #1 to '%s' (X has %d columns but %s was fitted on %d)", method, X:cols(),
      self.__class.short_name, self.n_features_in)
  end
end

--- base.check_rows(self, X, need): the k-means initializations need a
-- row per cluster.
function base.check_rows(self, X, need)
  if X:rows() < need then
    fail("bad argument #1 to 'fit' (%s initializes %d clusters by k-means: it needs at least "
      .. "%d observations, X has %d)", self.__class.short_name, need, need, X:rows())
  end
end

--- base.number_text(v): integers without ".0", others as %.17g, nan.
function base.number_text(v)
  local i = math.tointeger(v)
  if i then return tostring(i) end
  if v ~= v then return "nan" end
  return string.format("%.17g", v)
end

--- base.lengths(method, X, lengths) -> lengths matrix (or nil), a table of
-- the first row of each sequence: lengths as in hmmlearn, positive
-- integers summing to the rows of X (nil: one sequence).
function base.lengths(method, X, lengths)
  local n = X:rows()
  if n < 1 then fail("bad argument #1 to '%s' (X has no rows)", method) end
  if lengths == nil then return nil, { 1 } end
  local m = luma.ismatrix(lengths) and lengths:flatten()
    or type(lengths) == "table" and #lengths > 0 and pcall(luma.matrix, lengths)
    and luma.matrix(lengths):flatten()
  if not m or m:rows() == 0 then
    fail("bad argument #2 to '%s' (lengths must be a non-empty table or vector of sequence "
      .. "lengths)", method)
  end
  local firsts, total = {}, 0
  for s = 1, m:rows() do
    local v = m:get(s, 1)
    if not (v >= 1) or v ~= math.floor(v) then
      fail("bad argument #2 to '%s' (lengths[%d] = %s: a sequence needs at least one "
        .. "observation)", method, s, base.number_text(v))
    end
    firsts[s] = math.tointeger(total + 1)
    total = total + v
  end
  if total ~= n then
    fail("bad argument #2 to '%s' (lengths sum to %d but X has %d rows)", method,
      math.tointeger(total) or 0, n)
  end
  return m, firsts
end

-- The normalized vector (pseudo-count prior - 1 added, clipped at 0); a
-- row with no mass keeps `old`.
local function normalize_rows(counts, prior, old)
  local c = (counts + (prior - 1)):clamp(0, math.huge)
  local sums = c:sum(2)
  for i = 1, c:rows() do
    local s = sums:get(i, 1)
    if s > 0 then c:row(i):assign(c:row(i) / s) else c:row(i):assign(old:row(i)) end
  end
  return c
end

local function zero_probability(self, method, row)
  fail("%s.%s: the observations have zero probability under the model (row %d: no state "
    .. "that can be reached there can emit it)", self.__class.short_name, method, row)
end

-- Forward-backward over X with the fitted parameters.
local function forward_backward(self, model, method, X, lengths, opts)
  local lens, firsts = base.lengths(method, X, lengths)
  model.check_X(self, method, X)
  local logE, aux = model.log_emission(self, X)
  local fb = native.forward_backward(logE, self.startprob, self.transmat, lens, opts)
  return fb, firsts, aux
end

-- startprob_init / transmat_init checked, or uniform.
local function initial_chain(self, k)
  local p = self.params
  self.startprob = p.startprob_init
    and chain.check_distribution(p.startprob_init, k, "fit", "startprob_init")
    or luma.full(1, k, 1 / k)
  if p.transmat_init then
    chain.check_transition(p.transmat_init, "fit", "transmat_init")
    if p.transmat_init:rows() ~= k then
      fail("bad argument to 'fit' (transmat_init must be %d x %d)", k, k)
    end
    self.transmat = p.transmat_init:copy()
  else
    self.transmat = luma.full(k, k, 1 / k)
  end
end

--- base.fit(self, model, X, lengths): Baum-Welch.
function base.fit(self, model, X, lengths)
  local p = self.params
  local k = p.n_components
  local lens, firsts = base.lengths("fit", X, lengths)
  model.check_X(self, "fit", X, true)
  local rng = estimator.rng(p.seed)
  initial_chain(self, k)
  model.initialize(self, X, rng)
  local history, converged = {}, false
  for it = 1, p.n_iter do
    local logE, aux = model.log_emission(self, X)
    local fb = native.forward_backward(logE, self.startprob, self.transmat, lens)
    if fb.zero_at then zero_probability(self, "fit", fb.zero_at) end
    history[it] = fb.loglik
    self.startprob = normalize_rows(fb.gamma:take(firsts):sum(1), p.startprob_prior, self.startprob)
    self.transmat = normalize_rows(fb.xi_sum, p.transmat_prior, self.transmat)
    model.m_step(self, X, fb.gamma, aux)
    if it > 1 and history[it] - history[it - 1] < p.tol then
      converged = true
      break
    end
  end
  self.history = #history > 0 and luma.matrix(history) or luma.zeros(0, 1)
  self.n_iter = #history
  self.converged = converged
end

--- base.decode(self, model, X, lengths, algorithm) -> logprob, states
function base.decode(self, model, method, X, lengths, algorithm)
  algorithm = algorithm or self.params.algorithm
  if algorithm == "viterbi" then
    local lens = base.lengths(method, X, lengths)
    model.check_X(self, method, X)
    return native.viterbi(model.log_emission(self, X), self.startprob:log(), self.transmat:log(),
      lens)
  elseif algorithm == "map" then
    local fb = forward_backward(self, model, method, X, lengths)
    if fb.zero_at then zero_probability(self, method, fb.zero_at) end
    return fb.loglik, fb.gamma:argmax(2)
  end
  fail("bad argument #3 to '%s' (algorithm must be \"viterbi\" or \"map\", got %s)", method,
    tostring(algorithm))
end

--- base.posteriors(self, model, method, X, lengths, opts) -> fb
function base.posteriors(self, model, method, X, lengths, opts)
  local fb = forward_backward(self, model, method, X, lengths, opts)
  if fb.zero_at then zero_probability(self, method, fb.zero_at) end
  return fb
end

--- base.score(self, model, X, lengths) -> log p(X) (-inf when impossible)
function base.score(self, model, X, lengths)
  return forward_backward(self, model, "score", X, lengths, { backward = false, gamma = false }).loglik
end

--- base.sample(self, model, n, rng) -> X, states
function base.sample(self, model, n, rng)
  base.check_fitted(self, "sample")
  if math.type(n) ~= "integer" or n < 1 or n > 2147483647 then
    fail("bad argument #1 to 'sample' (n must be an integer in [1, 2147483647], got %s)",
      tostring(n))
  end
  rng = args.generator(rng, 2, "sample", 2) or estimator.rng(self.params.seed)
  local states = chain.simulate(self.transmat, self.startprob, n, rng)
  return model.sample_emission(self, states, rng), states
end

--- base.n_parameters(self, model) -> free parameters: k - 1 start
-- probabilities, k (k - 1) transitions and the emissions'.
function base.n_parameters(self, model)
  base.check_fitted(self, "n_parameters")
  local k = self.params.n_components
  return math.tointeger(k - 1 + k * (k - 1) + model.n_emission_params(self))
end

--- base.params: the parameters every HMM class has (hmmlearn's names).
base.params = {
  { name = "n_components", type = "integer", default = 1, min = 1, doc = "number of hidden states k" },
  { name = "startprob_prior", type = "number", default = 1.0, gt = 0,
    doc = "Dirichlet concentration of the start probabilities (1: maximum likelihood)" },
  { name = "transmat_prior", type = "number", default = 1.0, gt = 0,
    doc = "Dirichlet concentration of each transition row (1: maximum likelihood)" },
  { name = "algorithm", type = "string", default = "viterbi", values = { "viterbi", "map" },
    doc = "decoder of predict: the best path (Viterbi) or the most probable state at each step" },
  { name = "n_iter", type = "integer", default = 10, min = 0,
    doc = "Baum-Welch iterations at most (0 keeps the initialization)" },
  { name = "tol", type = "number", default = 1e-2,
    doc = "stop when the log-likelihood gains less than this (negative: run all n_iter)" },
  { name = "startprob_init", type = "matrix", doc = "initial start probabilities (k entries; default uniform)" },
  { name = "transmat_init", type = "matrix", doc = "initial row-stochastic transition matrix (k x k; default uniform)" },
  { name = "seed", type = "seed", doc = "generator of the initialization and of sample" },
}

--- base.class(spec, model) -> Class: spec.params (the emission's) are
-- appended to base.params; fit(X [, lengths]) and the sequence methods
-- are added.
function base.class(spec, model)
  local params = {}
  for _, p in ipairs(base.params) do params[#params + 1] = p end
  for _, p in ipairs(spec.params) do params[#params + 1] = p end
  local lengths_text = " lengths (a table or vector of sequence lengths summing to the rows of "
    .. "X, as hmmlearn; default one sequence)"
  local docs = {
    fit = { signature = "est:fit(X [, lengths = nil])",
      doc = "Fits the model by Baum-Welch (Baum et al. 1970; Rabiner 1989, sec. III-C) to the "
        .. "sequences stacked in X," .. lengths_text .. "; refitting starts fresh. Records "
        .. "history (the log-likelihood before each M-step, never decreasing), n_iter and "
        .. "converged. Returns the estimator itself." },
    predict = { signature = "est:predict(X [, lengths = nil])",
      doc = "The hidden states decoded by params.algorithm (Viterbi by default). Returns an "
        .. "n x 1 matrix of states 1..k." },
    predict_proba = { signature = "est:predict_proba(X [, lengths = nil])",
      doc = "The smoothed state posteriors gamma_t(j) = p(z_t = j | all of X's sequence) by "
        .. "forward-backward. Returns an n x k matrix whose rows sum to 1." },
    score = { signature = "est:score(X [, lengths = nil])",
      doc = "The log-likelihood log p(X) summed over the sequences (hmmlearn's score; -inf when "
        .. "X is impossible under the model), by the scaled forward pass. Returns a number." },
    decode = { signature = "est:decode(X [, lengths = nil [, algorithm = params.algorithm]])",
      doc = "The most likely hidden states: the best joint path (\"viterbi\"; Viterbi 1967) or "
        .. "the most probable state at each step (\"map\"). Returns the log-probability (of "
        .. "the path, or log p(X) for map) and an n x 1 matrix of states 1..k." },
    filter = { signature = "est:filter(X [, lengths = nil])",
      doc = "Filtering: p(z_t | x_1..x_t) by the normalized forward recursion (Rabiner 1989, "
        .. "eq. 19-20). Returns an n x k matrix whose rows sum to 1." },
    posteriors = { signature = "est:posteriors(X [, lengths = nil])",
      doc = "Smoothing and pairwise posteriors by forward-backward (Bishop, PRML eqs. 13.33, "
        .. "13.43): gamma (n x k) and xi (n x k*k: row t holds p(z_{t-1} = i, z_t = j | X) at "
        .. "column (i-1)*k + j; zero on the first row of each sequence). Returns gamma, xi and "
        .. "the log-likelihood." },
    sample = { signature = "est:sample(n [, rng = nil])",
      doc = "Generates n steps: a state path from startprob and transmat, then an emission at "
        .. "each step; rng defaults to a generator made from seed. Returns the n x d "
        .. "observations and the n x 1 states." },
    n_parameters = { signature = "est:n_parameters()",
      doc = "The number of free parameters: k - 1 start probabilities, k (k - 1) transitions "
        .. "and the emission parameters. Returns an integer." },
    aic = { signature = "est:aic(X [, lengths = nil])",
      doc = "The Akaike information criterion -2 log p(X) + 2 p (Akaike 1974; lower is "
        .. "better). Returns a number." },
    bic = { signature = "est:bic(X [, lengths = nil])",
      doc = "The Bayesian information criterion -2 log p(X) + p log n with n the number of "
        .. "observations (Schwarz 1978; lower is better). Returns a number." },
  }
  for name, d in pairs(spec.method_docs or {}) do docs[name] = d end

  local function score(self, X, lengths)
    base.check_input(self, "score", X)
    return base.score(self, model, X, lengths)
  end
  local Class = estimator.class{
    name = spec.name,
    kind = "density",
    doc = spec.doc,
    params = params,
    example = spec.example,
    method_docs = docs,
    fit = function(self, X, _, lengths) base.fit(self, model, X, lengths) end,
    predict = function(self, X, lengths)
      local _, states = base.decode(self, model, "predict", X, lengths)
      return states
    end,
    predict_proba = function(self, X, lengths)
      return base.posteriors(self, model, "predict_proba", X, lengths).gamma
    end,
    score = score,
    decode = function(self, X, lengths, algorithm)
      base.check_input(self, "decode", X)
      return base.decode(self, model, "decode", X, lengths, algorithm)
    end,
    filter = function(self, X, lengths)
      base.check_input(self, "filter", X)
      return base.posteriors(self, model, "filter", X, lengths,
        { backward = false, gamma = false, filtered = true }).filtered
    end,
    posteriors = function(self, X, lengths)
      base.check_input(self, "posteriors", X)
      local fb = base.posteriors(self, model, "posteriors", X, lengths, { xi = true })
      return fb.gamma, fb.xi, fb.loglik
    end,
    sample = function(self, n, rng) return base.sample(self, model, n, rng) end,
    n_parameters = function(self) return base.n_parameters(self, model) end,
    aic = function(self, X, lengths)
      return -2 * score(self, X, lengths) + 2 * base.n_parameters(self, model)
    end,
    bic = function(self, X, lengths)
      return -2 * score(self, X, lengths) + base.n_parameters(self, model) * math.log(X:rows())
    end,
  }
  -- hmmlearn's fit(X, lengths) and score(X, lengths): the second argument
  -- is not a target, so the contract's checks of y are bypassed (fit's
  -- wrapper still checks X, forgets the previous fit and marks this one).
  local methods = Class.methods
  local fit_y = methods.fit
  estimator.set_method(Class, "fit", function(self, X, lengths)
    return fit_y(self, X, nil, lengths)
  end)
  estimator.set_method(Class, "score", score)
  for _, name in ipairs{ "fit", "score" } do
    local record = { name = spec.name .. "." .. name }
    for key, v in pairs(docs[name]) do record[key] = v end
    luma.doc.set(methods[name], record)
  end
  return Class
end

return base
