--- luma.markov MarkovChain: a Markov chain of order L >= 1 over a finite
-- alphabet, fitted by counting transitions (notes 000 Ch. 11 "Markov
-- models", whose count estimator is implied but not given; 002 §1.13 X10:
-- the n-gram model is the order-(n-1) chain on tokens, H_kj the number of
-- times token j follows context k).
--
-- Contexts are the L preceding states, numbered lexicographically (the
-- most recent state varies fastest): transmat is S^L x S, row c the
-- distribution of the next state after context c.  Estimates are
-- (count + alpha) / (row count + alpha S): alpha = 1 is Laplace's
-- add-one smoothing (Jurafsky and Martin, Speech and Language Processing,
-- 3rd ed., sec. 3.5), alpha = 0 the maximum-likelihood counts (an unseen
-- context then gets a uniform row).  startprob (1 x S^L) is the smoothed
-- distribution of the first L states of the sequences.  score is the
-- log-likelihood of each sequence's steps after its first L states, given
-- them (the usual n-gram convention).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local chain = require("luma.markov.chain")

local M = {}
local fail = chain.fail

local NAME = "MarkovChain"

-- The sequences argument as codes: a matrix (n x 1 states 1..S, stacked
-- sequences with lengths), one sequence (a table of integers >= 1 or of
-- strings) or a table of such sequences.  Returns X (n x 1), lengths (a
-- table), tokens (the sorted distinct strings, or nil).
local function encode(method, seqs, lengths, tokens)
  if luma.ismatrix(seqs) then
    if seqs:cols() ~= 1 then
      fail("bad argument #1 to '%s' (%s: a sequence matrix must be n x 1, got %d columns)",
        method, NAME, seqs:cols())
    end
    if tokens then
      fail("bad argument #1 to '%s' (%s was fitted on string tokens: pass tables of tokens)",
        method, NAME)
    end
    local ls = {}
    if lengths == nil then ls[1] = seqs:rows()
    else
      if not luma.ismatrix(lengths) and (type(lengths) ~= "table" or getmetatable(lengths)) then
        fail("bad argument #2 to '%s' (%s: lengths must be a matrix or a table of sequence "
          .. "lengths, got %s)", method, NAME, type(lengths))
      end
      for i, v in ipairs(luma.ismatrix(lengths) and lengths:flatten():totable() or lengths) do
        ls[i] = type(v) == "table" and v[1] or v
      end
    end
    return seqs, ls, nil
  end
  if type(seqs) ~= "table" or #seqs == 0 then
    fail("bad argument #1 to '%s' (%s: sequences must be a matrix, a non-empty table of "
      .. "tokens or a table of sequences)", method, NAME)
  end
  if type(seqs[1]) ~= "table" then seqs = { seqs } end
  local strings = type(seqs[1][1]) == "string"
  if tokens == nil and strings then
    local seen = {}
    tokens = {}
    for _, s in ipairs(seqs) do
      for _, v in ipairs(s) do
        if type(v) == "string" and not seen[v] then seen[v] = true; tokens[#tokens + 1] = v end
      end
    end
    table.sort(tokens)
  end
  local code = {}
  if tokens then for i, v in ipairs(tokens) do code[v] = i end end
  local flat, ls = {}, {}
  for s, seq in ipairs(seqs) do
    if type(seq) ~= "table" then
      fail("bad argument #1 to '%s' (%s: sequence %d is not a table)", method, NAME, s)
    end
    for t, v in ipairs(seq) do
      local c
      if tokens then c = code[v] else c = math.type(v) == "integer" and v >= 1 and v or nil end
      if c == nil then
        fail("bad argument #1 to '%s' (%s: sequence %d, position %d: %s is not a state of "
          .. "the alphabet%s)", method, NAME, s, t, type(v) == "string" and string.format("%q", v) or tostring(v),
          tokens and " seen at fit" or " (integers >= 1 or strings)")
      end
      flat[#flat + 1] = c
    end
    ls[s] = #seq
  end
  return luma.matrix(flat), ls, tokens
end

-- The row of a context of L codes (lexicographic, 1-based).
local function context_index(codes, S)
  local c = 0
  for _, v in ipairs(codes) do c = c * S + (v - 1) end
  return c + 1
end

local function check_states(self, method, X)
  if X:isnan():any() then
    fail("bad argument #1 to '%s' (%s: the sequences have a NaN observation)", method, NAME)
  end
  local S = self.n_states
  if X:rows() > 0 and (not X:eq(X:floor()):all() or X:min() < 1 or X:max() > S) then
    for t = 1, X:rows() do
      local v = X:get(t, 1)
      if not (v == math.floor(v) and v >= 1 and v <= S) then
        fail("bad argument #1 to '%s' (%s: observation %d = %s is outside the alphabet 1..%d)",
          method, NAME, t, math.tointeger(v) and tostring(math.tointeger(v)) or tostring(v), S)
      end
    end
  end
end

-- Calls fn(context row, next state) for every step after the first L of
-- each sequence, and start(context row) for each sequence's first L.
local function walk(self, method, X, ls, fn, start)
  local L, S = self.params.order, self.n_states
  local pos = 0
  for s, len in ipairs(ls) do
    if math.type(len) ~= "integer" or len < L + 1 then
      fail("bad argument #1 to '%s' (%s: sequence %d has %s observations; order %d needs at "
        .. "least %d)", method, NAME, s, tostring(len), L, L + 1)
    end
    local window = {}
    for t = 1, L do window[t] = math.tointeger(X:get(pos + t, 1)) end
    if start then start(context_index(window, S)) end
    for t = L + 1, len do
      local v = math.tointeger(X:get(pos + t, 1))
      fn(context_index(window, S), v)
      table.remove(window, 1)
      window[L] = v
    end
    pos = pos + len
  end
  if pos ~= X:rows() then
    fail("bad argument #2 to '%s' (lengths sum to %d but there are %d observations)", method,
      pos, X:rows())
  end
end

local function smoothed(counts, alpha)
  local P = counts + alpha
  local sums = P:sum(2)
  for i = 1, P:rows() do
    local s = sums:get(i, 1)
    if s > 0 then P:row(i):assign(P:row(i) / s) else P:row(i):fill(1 / P:cols()) end
  end
  return P
end

local function fit(self, X, _, ls, tokens)
  local p = self.params
  local S = p.n_states or (tokens and #tokens) or math.tointeger(X:max())
  if not S then
    fail("bad argument #1 to 'fit' (%s: states must be integers 1..S, got a largest value of %s)",
      NAME, tostring(X:max()))
  end
  self.n_states, self.states = S, tokens
  check_states(self, "fit", X)
  local L = p.order
  local contexts = S ^ L
  if contexts > 1e7 then
    fail("bad argument to 'fit' (%s: order %d over %d states makes %.0f contexts; lower the "
      .. "order)", NAME, L, S, contexts)
  end
  contexts = math.tointeger(contexts)
  local counts, first = luma.zeros(contexts, S), luma.zeros(1, contexts)
  walk(self, "fit", X, ls, function(c, v) counts:set(c, v, counts:get(c, v) + 1) end,
    function(c) first:set(1, c, first:get(1, c) + 1) end)
  self.counts = counts
  self.transmat = smoothed(counts, p.alpha)
  self.startprob = smoothed(first, p.alpha)
end

local function check_fitted(self, method)
  if not self:is_fitted() then fail("%s: %s called before fit", self.__class.name, method) end
end

local function first_order(self, method)
  check_fitted(self, method)
  if self.params.order ~= 1 then
    fail("%s.%s: defined for first-order chains (order is %d)", NAME, method, self.params.order)
  end
  return self.transmat
end

local function score(self, seqs, lengths)
  check_fitted(self, "score")
  local X, ls = encode("score", seqs, lengths, self.states)
  check_states(self, "score", X)
  local logP = self.transmat:log()
  local total = 0
  walk(self, "score", X, ls, function(c, v) total = total + logP:get(c, v) end)
  return total
end

-- Draws n states; order 1 runs the chain of chain.simulate, higher orders
-- step through the contexts.
local function sample(self, n, rng)
  check_fitted(self, "sample")
  local L, S = self.params.order, self.n_states
  if math.type(n) ~= "integer" or n < L or n > chain.MAX_STEPS then
    fail("bad argument #1 to 'sample' (n must be an integer in [order = %d, %d], got %s)", L,
      chain.MAX_STEPS, tostring(n))
  end
  rng = args.generator(rng, 2, "sample", 2) or estimator.rng(self.params.seed)
  local path
  if L == 1 then
    path = chain.simulate(self.transmat, self.startprob, n, rng)
  else
    path = luma.zeros(n, 1)
    local c = math.tointeger(chain.draw_rows(self.startprob, luma.ones(1, 1), rng):get(1, 1))
    local window, rest = {}, c - 1
    for t = L, 1, -1 do window[t] = rest % S + 1; rest = rest // S end
    for t = 1, L do path:set(t, 1, window[t]) end
    local u = rng:uniform(n, 1)
    for t = L + 1, n do
      local row = self.transmat:row(context_index(window, S))
      local acc, v = 0, S
      for j = 1, S do
        acc = acc + row:get(1, j)
        if u:get(t, 1) < acc then v = j break end
      end
      path:set(t, 1, v)
      table.remove(window, 1)
      window[L] = v
    end
  end
  if not self.states then return path end
  local out = {}
  for t = 1, n do out[t] = self.states[math.tointeger(path:get(t, 1))] end
  return out
end

M.MarkovChain = estimator.class{
  name = "luma.markov.MarkovChain",
  kind = "density",
  doc = "A Markov chain of order L over a finite alphabet fitted by counting transitions, with "
    .. "additive (Laplace) smoothing; on string tokens it is the n-gram language model of order "
    .. "n = L + 1 (Jurafsky and Martin, Speech and Language Processing, ch. 3). fit(sequences "
    .. "[, lengths]) takes an n x 1 matrix of states 1..S (several sequences stacked with "
    .. "lengths), one table of tokens (integers >= 1 or strings) or a table of such sequences. "
    .. "Transition matrices are row-stochastic, P[i][j] = Pr(i -> j), distributions are row "
    .. "vectors. Fitted: transmat (S^L x S, contexts in lexicographic order), startprob "
    .. "(1 x S^L), counts, n_states, states (the sorted tokens, for strings). First-order chains "
    .. "also offer propagate, n_step, stationary, is_irreducible, period and hitting_times.",
  params = {
    { name = "order", type = "integer", default = 1, min = 1, doc = "how many previous states condition the next (L)" },
    { name = "alpha", type = "number", default = 1.0, min = 0,
      doc = "additive smoothing pseudo-count (1: Laplace; 0: maximum likelihood)" },
    { name = "n_states", type = "integer", min = 1, doc = "alphabet size S (default: from the data)" },
    { name = "seed", type = "seed", doc = "generator of sample" },
  },
  example = function()
    return M.MarkovChain{}, luma.matrix{ 1, 2, 2, 3, 1, 1, 2, 3, 3, 1 }
  end,
  method_docs = {
    transition_proba = { signature = "est:transition_proba(context)",
      doc = "The distribution of the next state after context (a table of the last L states or "
        .. "tokens). Returns a 1 x S matrix." },
    sample = { signature = "est:sample(n [, rng = nil])",
      doc = "Draws a sequence of n states: the first L from startprob, then each from its "
        .. "context's row. Returns an n x 1 matrix, or a table of tokens for string chains." },
    propagate = { signature = "est:propagate(n [, p0 = startprob])",
      doc = "The state distribution after n steps, p0 P^n (first-order chains). Returns a "
        .. "1 x S matrix." },
    n_step = { signature = "est:n_step(n)",
      doc = "The n-step transition matrix P^n (first-order chains). Returns an S x S matrix." },
    stationary = { signature = "est:stationary([opts])",
      doc = "The equilibrium pi = pi P, as luma.markov.stationary (first-order chains). Returns "
        .. "pi (1 x S) and an info table.",
      params = {
        { name = "method", type = "string", default = "solve", doc = "\"solve\" or \"power\"" },
        { name = "tol", type = "number", default = 1e-12, doc = "power method: L1 change to stop at" },
        { name = "max_iter", type = "integer", default = 10000, doc = "power method: iteration limit" },
        { name = "start", type = "matrix", default = "uniform", doc = "power method: starting distribution" },
      } },
    is_irreducible = { signature = "est:is_irreducible()",
      doc = "Whether every state reaches every other (first-order chains). Returns a boolean." },
    period = { signature = "est:period()",
      doc = "The period of an irreducible chain (first-order chains). Returns an integer." },
    hitting_times = { signature = "est:hitting_times(targets)",
      doc = "Expected steps to reach targets from each state (first-order chains). Returns an "
        .. "S x 1 matrix." },
  },
  fit = fit,
  transition_proba = function(self, context)
    check_fitted(self, "transition_proba")
    local L = self.params.order
    if type(context) ~= "table" or #context ~= L then
      fail("bad argument #1 to 'transition_proba' (context must be a table of the last %d states)", L)
    end
    local X = encode("transition_proba", { context }, nil, self.states)
    check_states(self, "transition_proba", X)
    local codes = {}
    for t = 1, L do codes[t] = math.tointeger(X:get(t, 1)) end
    return self.transmat:row(context_index(codes, self.n_states)):copy()
  end,
  sample = sample,
  propagate = function(self, n, p0)
    local P = first_order(self, "propagate")
    return chain.propagate(p0 or self.startprob, P, n)
  end,
  n_step = function(self, n) return chain.n_step(first_order(self, "n_step"), n) end,
  stationary = function(self, opts) return chain.stationary(first_order(self, "stationary"), opts) end,
  is_irreducible = function(self) return chain.is_irreducible(first_order(self, "is_irreducible")) end,
  period = function(self) return chain.period(first_order(self, "period")) end,
  hitting_times = function(self, targets)
    return chain.hitting_times(first_order(self, "hitting_times"), targets)
  end,
}

-- fit(sequences [, lengths]) and score(sequences [, lengths]): sequences
-- may be tables of tokens, which the contract's fit wrapper would refuse;
-- they are encoded first, and the wrapper sees the n x 1 codes.
local methods = M.MarkovChain.methods
local fit_codes = methods.fit
estimator.set_method(M.MarkovChain, "fit", function(self, seqs, lengths)
  local X, ls, tokens = encode("fit", seqs, lengths, nil)
  return fit_codes(self, X, nil, ls, tokens)
end)
estimator.set_method(M.MarkovChain, "score", score)
luma.doc.set(methods.fit, { name = "luma.markov.MarkovChain.fit",
  signature = "est:fit(sequences [, lengths = nil])",
  doc = "Counts the transitions of the sequences (a matrix of states 1..S with lengths, a table "
    .. "of tokens, or a table of token tables); each sequence needs at least order + 1 "
    .. "observations. Returns the estimator itself." })
luma.doc.set(methods.score, { name = "luma.markov.MarkovChain.score",
  signature = "est:score(sequences [, lengths = nil])",
  doc = "The log-likelihood of the sequences' steps after their first order states, given "
    .. "those. Returns a number (-inf if a step has probability 0)." })

--- from_transitions(P [, startprob]) -> MarkovChain: a first-order chain
-- with a given transition matrix.
function M.from_transitions(P, startprob)
  chain.check_transition(P, "from_transitions")
  local S = P:rows()
  local est = M.MarkovChain{ n_states = S }
  local X = luma.arange(1, S)
  est:fit(X:rows() > 1 and X or luma.matrix{ 1, 1 })
  est.transmat = P:copy()
  est.counts = luma.zeros(S, S)
  est.startprob = startprob and chain.check_distribution(startprob, S, "from_transitions", "startprob")
    or luma.full(1, S, 1 / S)
  return est
end

luma.doc.set(M.from_transitions, { name = "luma.markov.from_transitions",
  signature = "from_transitions(P [, startprob = uniform]) -> MarkovChain",
  doc = "A first-order MarkovChain with the row-stochastic transition matrix P (P[i][j] = "
    .. "Pr(i -> j); rows not summing to 1 or negative entries are errors naming the row) and "
    .. "the initial distribution startprob. Returns a fitted MarkovChain." })

return M
