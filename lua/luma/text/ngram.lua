--- luma.text.ngram: N-gram language models (notes 002 X10: one multinomial
-- per context of N - 1 words), with add-k or interpolated Kneser-Ney
-- smoothing.
--
-- Sentences are lists of tokens (strings).  Each is padded with N - 1
-- "<s>" in front and one "</s>" at the end, so every token and the end
-- of the sentence are predicted from a full context.  The vocabulary V is
-- the training tokens, "</s>" and "<unk>" (what a token unseen at fit is
-- read as); "<s>" is never predicted.
--
-- add_k:       P(w | h) = (c(h w) + k) / (c(h) + k |V|)
-- kneser_ney:  interpolated Kneser-Ney with one discount D (Chen and
--   Goodman, "An empirical study of smoothing techniques for language
--   modeling", 1998, eq. 26 with one D per order):
--     top order:    P(w | h) = max(c(h w) - D, 0) / c(h)
--                              + D N1+(h .) / c(h) P(w | h')
--     lower orders: the same with continuation counts N1+(. h' w) (the
--                   distinct words seen before h' w) for c,
--     below unigrams: the uniform 1 / |V|;
--   h' is h without its first word; a context never seen (c(h) = 0)
--   passes all its mass to P(w | h').
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")

local fail = args.fail
local SEP = "\31" -- joins the words of a context (a control character no token holds)
local BOS, EOS, UNK = "<s>", "</s>", "<unk>"

local ngram = {}

local function sentences(X, method)
  if type(X) ~= "table" or getmetatable(X) ~= nil then
    fail(3, "bad argument #1 to '%s' (a list of sentences (lists of strings) expected, got %s)",
      method, args.type_of(X))
  end
  for i, s in ipairs(X) do
    if type(s) ~= "table" then
      fail(3, "bad argument #1 to '%s' (sentence %d is a %s, not a list of strings)", method, i,
        args.type_of(s))
    end
    for j, w in ipairs(s) do
      if type(w) ~= "string" then
        fail(3, "bad argument #1 to '%s' (sentence %d, token %d is a %s, not a string)",
          method, i, j, args.type_of(w))
      end
      if w:find(SEP, 1, true) then
        fail(3, "bad argument #1 to '%s' (sentence %d, token %d holds the character \\31)",
          method, i, j)
      end
    end
  end
  return X
end

-- The padded sentence, unseen words as <unk> when vocab is given.
local function padded(self, s, vocab)
  local out = {}
  for _ = 1, self.params.order - 1 do out[#out + 1] = BOS end
  for _, w in ipairs(s) do
    out[#out + 1] = (vocab and not vocab[w]) and UNK or w
  end
  out[#out + 1] = EOS
  return out
end

local function context(words, i, len)
  return table.concat(words, SEP, i - len, i - 1)
end

-- Level m (1..N) holds the m-grams as [context of m - 1 words][word] ->
-- count, with per-context totals and distinct followers.
local function new_level()
  return { counts = {}, total = {}, types = {} }
end

local function add(level, ctx, w, c)
  local row = level.counts[ctx]
  if not row then
    row = {}
    level.counts[ctx] = row
    level.total[ctx], level.types[ctx] = 0, 0
  end
  if not row[w] then level.types[ctx] = level.types[ctx] + 1 end
  row[w] = (row[w] or 0) + c
  level.total[ctx] = level.total[ctx] + c
end

local function fit(self, X)
  sentences(X, "fit")
  local N = self.params.order
  local vocab, words = { [EOS] = true, [UNK] = true }, { EOS, UNK }
  local levels = {}
  for m = 1, N do levels[m] = new_level() end
  for _, s in ipairs(X) do
    for _, w in ipairs(s) do
      if not vocab[w] then vocab[w] = true; words[#words + 1] = w end
    end
    local p = padded(self, s)
    for i = N, #p do add(levels[N], context(p, i, N - 1), p[i], 1) end
  end
  if self.params.smoothing == "kneser_ney" then
    -- continuation counts: level m counts the distinct words before each m-gram
    for m = N - 1, 1, -1 do
      for ctx, row in pairs(levels[m + 1].counts) do
        local short = m == 1 and "" or ctx:match("^[^" .. SEP .. "]*" .. SEP .. "(.*)$")
        for w in pairs(row) do add(levels[m], short, w, 1) end
      end
    end
  else
    levels = { [N] = levels[N] }
  end
  table.sort(words)
  self.vocabulary, self.levels = words, levels
end

local function vocab_set(self)
  local set = rawget(self, "__vocab")
  if not set then
    set = {}
    for _, w in ipairs(self.vocabulary) do set[w] = true end
    rawset(self, "__vocab", set)
  end
  return set
end

-- P(w | the m - 1 words before position i of p), m = 1..N.
local function prob(self, p, i, w, m)
  local V = #self.vocabulary
  local P = self.params
  if P.smoothing == "add_k" then
    local level = self.levels[P.order]
    local ctx = context(p, i, P.order - 1)
    local row = level.counts[ctx]
    return ((row and row[w] or 0) + P.k) / ((level.total[ctx] or 0) + P.k * V)
  end
  if m == 0 then return 1 / V end
  local level = self.levels[m]
  local ctx = context(p, i, m - 1)
  local total = level.total[ctx]
  local lower = prob(self, p, i, w, m - 1)
  if not total or total == 0 then return lower end
  local D = P.discount
  local c = level.counts[ctx][w] or 0
  return math.max(c - D, 0) / total + D * level.types[ctx] / total * lower
end

-- Log-probabilities of a sentence's tokens and end, summed; and their count.
local function sentence_logprob(self, s)
  local p = padded(self, s, vocab_set(self))
  local N = self.params.order
  local lp = 0
  for i = N, #p do lp = lp + math.log(prob(self, p, i, p[i], N)) end
  return lp, #p - N + 1
end

ngram.NgramModel = estimator.class{
  name = "luma.text.NgramModel", kind = "density", input = "any", requires_y = false,
  doc = "An N-gram language model over sentences given as lists of tokens (Jurafsky and "
    .. "Martin, Speech and Language Processing, ch. 3), smoothed by add-k or interpolated "
    .. "Kneser-Ney (Chen and Goodman, \"An empirical study of smoothing techniques for language "
    .. "modeling\", 1998); sentences are padded with order - 1 "
    .. "\"<s>\" and one \"</s>\", unseen tokens read as \"<unk>\". score_samples gives each "
    .. "sentence's natural-log probability, perplexity a corpus's, generate samples sentences. "
    .. "Fitted: vocabulary (sorted list, with \"</s>\" and \"<unk>\"), levels (the counts).",
  params = {
    { name = "order", type = "integer", default = 2, min = 1, max = 32,
      doc = "N: each word is predicted from the N - 1 before it" },
    { name = "smoothing", type = "string", default = "kneser_ney",
      values = { "add_k", "kneser_ney" }, doc = "the smoothing" },
    { name = "k", type = "number", default = 1, gt = 0, doc = "add-k's pseudo-count (1: Laplace)" },
    { name = "discount", type = "number", default = 0.75, gt = 0, lt = 1,
      doc = "Kneser-Ney's absolute discount D" },
  },
  method_docs = {
    fit = { signature = "est:fit(sentences) -> est",
      doc = "Counts the n-grams of a list of sentences (lists of strings)." },
    score_samples = { signature = "est:score_samples(sentences) -> matrix",
      doc = "Each sentence's log-probability (natural log, its end included), an n x 1 matrix." },
    score = { signature = "est:score(sentences) -> number",
      doc = "The mean log-probability of the sentences." },
    logprob = { signature = "est:logprob(word, context) -> number",
      doc = "ln P(word | the last order - 1 words of context), a list of strings; a short "
        .. "context is padded with \"<s>\", unseen words read as \"<unk>\"." },
    perplexity = { signature = "est:perplexity(sentences) -> number",
      doc = "exp(-(the sum of the sentences' log-probabilities) / (tokens predicted, each "
        .. "sentence's end included))." },
    generate = { signature = "est:generate([generator = luma.random.default() [, {max_length = 100, context = {}}]]) -> list",
      params = {
        { name = "max_length", type = "integer", default = 100, doc = "most tokens drawn" },
        { name = "context", type = "table", default = {}, doc = "tokens the sentence starts from" },
      },
      doc = "Draws a sentence token by token from the model (\"<unk>\" excluded) with the "
        .. "generator until \"</s>\" or max_length; returns the list of tokens drawn." },
  },
  example = function()
    return ngram.NgramModel{}, { { "a", "b" }, { "a", "c" }, { "b", "a", "c" } }, nil
  end,
  check_state = function(self)
    estimator.check_fields(self, { vocabulary = "table", levels = "table" })
  end,
  fit = fit,
  score_samples = function(self, X)
    sentences(X, "score_samples")
    local out = luma.zeros(#X, 1)
    for i, s in ipairs(X) do out:set(i, 1, (sentence_logprob(self, s))) end
    return out
  end,
  --- est:logprob(word, context) -> ln P(word | context)
  logprob = function(self, word, ctx)
    if not self:is_fitted() then fail(2, "luma.text.NgramModel: logprob called before fit") end
    args.arg(type(word) == "string", 1, "logprob", "string", word, 2)
    args.arg(ctx == nil or type(ctx) == "table", 2, "logprob", "list of strings", ctx, 2)
    local N = self.params.order
    local vocab = vocab_set(self)
    local p = {}
    ctx = ctx or {}
    for i = N - 1, 1, -1 do
      local w = ctx[#ctx - i + 1]
      if w == nil then w = BOS elseif not vocab[w] and w ~= BOS then w = UNK end
      p[#p + 1] = w
    end
    p[#p + 1] = (vocab[word] or word == EOS) and word or UNK
    return math.log(prob(self, p, #p, p[#p], N))
  end,
  --- est:perplexity(sentences) -> exp(-(sum of log-probabilities) / tokens predicted)
  perplexity = function(self, X)
    if not self:is_fitted() then fail(2, "luma.text.NgramModel: perplexity called before fit") end
    sentences(X, "perplexity")
    local lp, n = 0, 0
    for _, s in ipairs(X) do
      local a, b = sentence_logprob(self, s)
      lp, n = lp + a, n + b
    end
    if n == 0 then fail(2, "bad argument #1 to 'perplexity' (no sentences)") end
    return math.exp(-lp / n)
  end,
  --- est:generate([generator [, {max_length = 100, context = {}}]]) -> list of tokens
  generate = function(self, g, opts)
    if not self:is_fitted() then fail(2, "luma.text.NgramModel: generate called before fit") end
    -- (no generator: the state's default one, as luma.dist's sample)
    g = args.generator(g, 1, "generate", 2) or luma.random.default()
    opts = args.options("generate", 2, opts, nil, { max_length = true, context = true }, 2)
    local max_len = opts.max_length or 100
    args.integer(max_len, "max_length", "generate", 1, 2)
    local N = self.params.order
    local p = {}
    for _ = 1, N - 1 do p[#p + 1] = BOS end
    for _, w in ipairs(opts.context or {}) do p[#p + 1] = w end
    local out = {}
    local cands = {}
    for _, w in ipairs(self.vocabulary) do
      if w ~= UNK then cands[#cands + 1] = w end
    end
    for _ = 1, max_len do
      local i = #p + 1
      local weights, total = {}, 0
      for j, w in ipairs(cands) do
        p[i] = w
        weights[j] = prob(self, p, i, w, N)
        total = total + weights[j]
      end
      local u, pick = g:random() * total, cands[#cands]
      for j, w in ipairs(cands) do
        u = u - weights[j]
        if u < 0 then pick = w break end
      end
      if pick == EOS then p[i] = nil break end
      p[i] = pick
      out[#out + 1] = pick
    end
    return out
  end,
}

return ngram
