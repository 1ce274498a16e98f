--- luma.multilabel.relevance: multi-label classification from binary
-- classifiers -- binary relevance and classifier chains.
--
-- Binary relevance (notes 001 §K; Tsoumakas & Katakis 2007) treats each
-- of the L labels as its own binary problem: a clone of the base
-- classifier per label column, as scikit-learn's MultiOutputClassifier
-- (and OneVsRestClassifier given a label matrix).  A classifier chain
-- (Read, Pfahringer, Holmes & Frank 2011) fits label order[j] on X and
-- the labels order[1..j-1] before it, so it can use their correlations;
-- at prediction each link sees its predecessors' predictions, as
-- scikit-learn's ClassifierChain.  A label that is constant in the
-- training data gets a constant predictor (scikit-learn's OneVsRest
-- rule), since a classifier cannot be fitted on one class.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local binary_score = require("luma.util.scores").binary
local check_base = require("luma.util.scores").check_base
local common = require("luma.multilabel.common")

local fail = common.fail

local relevance = {}

-- A clone of base fitted on the 0/1 column y, or {constant = v} when y
-- holds one value only.
local function fit_link(base, X, y)
  local v = y:get(1, 1)
  if y:eq(v):all() then return { constant = v } end
  return base:clone():fit(X, y)
end

local function constant_column(n, v) return luma.zeros(n, 1) + v end

local function link_predict(link, X)
  if link.constant then return constant_column(X:rows(), link.constant) end
  return link:predict(X)
end

local function link_proba(link, X)
  if link.constant then return constant_column(X:rows(), link.constant) end
  local p = link:predict_proba(X)
  return p:col(p:cols()):copy()
end

-- The score of label 1 and whether it is a probability.
local function link_score(link, X)
  if link.constant then return constant_column(X:rows(), link.constant), true end
  return binary_score(link, X)
end

local function link_decision(name, link, X)
  if link.constant then
    -- (a constant label is certain: +-1 as a decision value)
    return constant_column(X:rows(), link.constant * 2 - 1)
  end
  if not link.decision_function then
    fail("%s: the estimator %s has no decision_function", name, link.__class.name)
  end
  local d = link:decision_function(X)
  if d:cols() == 2 then return d:col(2) - d:col(1) end
  return d
end

local function require_method(name, self, method)
  local base = self.params.estimator
  if base[method] == nil then
    fail("%s: the estimator %s has no %s", name, base.__class.name, method)
  end
end

-- A link's score on one scale for ranking: its probability where the
-- base has one, else its decision value through the logistic function.
local function rank_score(link, F)
  local s, probability = link_score(link, F)
  if probability then return s end
  return ((-s):exp() + 1):pow(-1)
end

-- --------------------------------------------------------- BinaryRelevance

local BR = "BinaryRelevance"

relevance.BinaryRelevance = estimator.class{
  name = "luma.multilabel.BinaryRelevance",
  kind = "classifier",
  labels = false,
  doc = "Binary relevance (Tsoumakas & Katakis 2007): a clone of the binary classifier per "
    .. "label column of Y, each fitted and applied on its own (scikit-learn's "
    .. "MultiOutputClassifier). A label constant in the training data is predicted as that "
    .. "constant. Fitted: estimators (one per label; {constant = v} for a constant label).",
  method_docs = common.method_docs(BR, "the per-label probabilities, or the decision values "
    .. "through the logistic function", {
      predict_proba = { signature = "est:predict_proba(X)",
        doc = "Each label's probability from its classifier. Returns an m x L matrix." },
      decision_function = { signature = "est:decision_function(X)",
        doc = "Each label's decision value from its classifier (+-1 for a constant label). "
          .. "Returns an m x L matrix." } }),
  params = {
    { name = "estimator", type = "estimator", doc = "the binary classifier (cloned per label)" },
  },
  example = common.example(function()
    return relevance.BinaryRelevance{ estimator = luma.naive_bayes.GaussianNB{} }
  end),
  fit = function(self, X, Y)
    local base = self.params.estimator
    check_base(BR, base)
    common.check_labels(BR, Y)
    self.estimators = {}
    for j = 1, Y:cols() do self.estimators[j] = fit_link(base, X, Y:col(j):copy()) end
    self.n_labels = Y:cols()
  end,
  predict = function(self, X)
    local P = luma.zeros(X:rows(), #self.estimators)
    for j, link in ipairs(self.estimators) do P:col(j):assign(link_predict(link, X)) end
    return P
  end,
  predict_proba = function(self, X)
    require_method(BR, self, "predict_proba")
    local P = luma.zeros(X:rows(), #self.estimators)
    for j, link in ipairs(self.estimators) do P:col(j):assign(link_proba(link, X)) end
    return P
  end,
  decision_function = function(self, X)
    require_method(BR, self, "decision_function")
    local D = luma.zeros(X:rows(), #self.estimators)
    for j, link in ipairs(self.estimators) do D:col(j):assign(link_decision(BR, link, X)) end
    return D
  end,
  score = function(self, X, Y)
    return common.subset_accuracy(Y, self:predict(X))
  end,
  recommend = function(self, X, k)
    common.check_recommend(self, X)
    local S = luma.zeros(X:rows(), #self.estimators)
    for j, link in ipairs(self.estimators) do S:col(j):assign(rank_score(link, X)) end
    return common.top_k(BR, S, k or 1)
  end,
}

-- ---------------------------------------------------------- ClassifierChain

local CC = "ClassifierChain"

-- The chain's order as a list of label indices: nil (1..L), "random" (a
-- permutation from seed) or a permutation given as a list.
local function chain_order(self, L)
  local order = self.params.order
  if order == nil then
    local out = {}
    for j = 1, L do out[j] = j end
    return out
  end
  if order == "random" then
    local perm = estimator.rng(self.params.seed):permutation(L)
    local out = {}
    for j = 1, L do out[j] = perm:get(j, 1) end
    return out
  end
  if type(order) ~= "table" or #order ~= L then
    fail("bad argument #2 to 'fit' (%s: order must list each of the %d labels once)", CC, L)
  end
  local seen, out = {}, {}
  for j = 1, L do
    local v = order[j]
    if math.type(v) ~= "integer" or v < 1 or v > L or seen[v] then
      fail("bad argument #2 to 'fit' (%s: order must list each of the %d labels once; entry %d "
        .. "is %s)", CC, L, j, tostring(v))
    end
    seen[v] = true
    out[j] = v
  end
  return out
end

-- Runs the chain over X: each link sees X and the labels before it as
-- its predecessors predicted them; step(link, features) gives the link's
-- output column for the result.  Returns the outputs by label (m x L).
local function run_chain(self, X, step)
  local n, L = X:rows(), #self.order
  local d = X:cols()
  local features = luma.zeros(n, d + L - 1)
  features:sub(1, n, 1, d):assign(X)
  local out = luma.zeros(n, L)
  for j, label in ipairs(self.order) do
    local link = self.estimators[j]
    local F = features:sub(1, n, 1, d + j - 1)
    out:col(label):assign(step(link, F))
    if j < L then features:col(d + j):assign(link_predict(link, F)) end
  end
  return out
end

relevance.ClassifierChain = estimator.class{
  name = "luma.multilabel.ClassifierChain",
  kind = "classifier",
  labels = false,
  doc = "A classifier chain (Read et al., Machine Learning 85, 2011): link j is a clone of the "
    .. "binary classifier fitted on X and the true labels of the links before it (in order); "
    .. "predictions run down the chain, each link given its predecessors' predicted labels "
    .. "(scikit-learn's ClassifierChain without cv). Fitted: order (label indices), estimators "
    .. "(in chain order; {constant = v} for a constant label).",
  method_docs = common.method_docs(CC, "the chain's probabilities, or its decision values "
    .. "through the logistic function", {
      predict_proba = { signature = "est:predict_proba(X)",
        doc = "Each label's probability from its link, given the predicted labels before it. "
          .. "Returns an m x L matrix (columns in label order)." },
      decision_function = { signature = "est:decision_function(X)",
        doc = "Each label's decision value from its link, given the predicted labels before "
          .. "it. Returns an m x L matrix (columns in label order)." } }),
  params = {
    { name = "estimator", type = "estimator", doc = "the binary classifier (cloned per link)" },
    { name = "order", type = "string|table",
      doc = "the chain's order: nil (labels 1..L), \"random\" (a permutation from seed) or a "
        .. "list of the label indices" },
    { name = "seed", type = "seed", doc = "the random order (order = \"random\")" },
  },
  example = common.example(function()
    return relevance.ClassifierChain{ estimator = luma.naive_bayes.GaussianNB{} }
  end),
  fit = function(self, X, Y)
    local base = self.params.estimator
    check_base(CC, base)
    common.check_labels(CC, Y)
    if type(self.params.order) == "string" and self.params.order ~= "random" then
      fail("bad argument #2 to 'fit' (%s: order must be nil, \"random\" or a list, got \"%s\")",
        CC, self.params.order)
    end
    local n, L, d = X:rows(), Y:cols(), X:cols()
    self.order = chain_order(self, L)
    local features = luma.zeros(n, d + L - 1)
    features:sub(1, n, 1, d):assign(X)
    self.estimators = {}
    for j, label in ipairs(self.order) do
      local y = Y:col(label):copy()
      self.estimators[j] = fit_link(base, features:sub(1, n, 1, d + j - 1):copy(), y)
      if j < L then features:col(d + j):assign(y) end
    end
    self.n_labels = L
  end,
  predict = function(self, X)
    return run_chain(self, X, link_predict)
  end,
  predict_proba = function(self, X)
    require_method(CC, self, "predict_proba")
    return run_chain(self, X, link_proba)
  end,
  decision_function = function(self, X)
    require_method(CC, self, "decision_function")
    return run_chain(self, X, function(link, F) return link_decision(CC, link, F) end)
  end,
  score = function(self, X, Y)
    return common.subset_accuracy(Y, self:predict(X))
  end,
  recommend = function(self, X, k)
    common.check_recommend(self, X)
    local S = run_chain(self, X, rank_score)
    return common.top_k(CC, S, k or 1)
  end,
}

return relevance
