--- luma.neighbors.multilabel: k-nearest neighbours for multi-label
-- recommendation (notes 001 §K).
--
-- Each training row (a user) has a 0/1 vector of L labels (the items it
-- likes; 0 means "not known to like", not "dislikes").  A query's label
-- scores are the (weighted) frequencies of each label among its k nearest
-- users, by Euclidean or Mahalanobis distance on the features as in the
-- notes or any other metric; it is recommended the top_k most popular
-- labels (the smaller label index first on ties).  Recall needs the full
-- set of positives, so the notes prefer precision: score is the mean
-- precision@top_k (luma.metrics.precision_at_k) over the queries.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.neighbors.native")
local common = require("luma.neighbors.common")

local fail = common.fail

local multilabel = {}

local NAME = "MultiLabelKNeighbors"

-- Label frequencies among the neighbours, n x L.
local function frequencies(self, X, method)
  local p = self.params
  local dist, ind = common.kneighbors(self, X, p.n_neighbors, method)
  return native.average(ind, self.fit_y, common.weights(NAME, p.weights, dist))
end

--- recommend(X [, k]) -> labels, scores: each query's k (default top_k)
-- most popular labels among its neighbours, as 1-based label indices
-- (n x k), and their frequencies.
local function recommend(self, X, k)
  if not self:is_fitted() then fail("%s: recommend called before fit", NAME) end
  if not luma.ismatrix(X) then
    fail("bad argument #1 to 'recommend' (X must be a luma.Matrix, got %s)", type(X))
  end
  k = k or self.params.top_k
  common.check_k(NAME, "recommend", k, self.fit_y:cols())
  local negated, labels = native.select_rows(frequencies(self, X, "recommend") * -1, k)
  return labels, negated * -1
end

multilabel.MultiLabelKNeighbors = estimator.class{
  name = "luma.neighbors.MultiLabelKNeighbors",
  kind = "classifier",
  doc = "Multi-label k-nearest neighbours for recommendation: Y is n x L of 0/1; "
    .. "predict_proba gives each label's frequency among the k nearest rows, predict marks the "
    .. "top_k most frequent (present) labels, recommend lists them, score is the mean "
    .. "precision@top_k. The ranking statistic is ML-kNN's neighbour count per label (Zhang & "
    .. "Zhou 2007), used directly, without its Bayesian step.",
  -- Y is a 0/1 matrix of labels, not one column of classes: the contract
  -- methods' classifier texts would misdescribe fit, predict and score,
  -- and strings cannot stand for it.
  labels = false,
  method_docs = {
    fit = { signature = "est:fit(X, Y)",
      doc = "Fits MultiLabelKNeighbors to the rows of X (n x d) and their labels Y (n x L of "
        .. "0/1, one column per label); refitting starts fresh. Returns the estimator itself." },
    predict_proba = { signature = "est:predict_proba(X)",
      doc = "Each label's (weighted) frequency among the k nearest training rows of each row "
        .. "of X. Returns an m x L matrix of values in [0, 1] (rows need not sum to 1)." },
    predict = { signature = "est:predict(X)",
      doc = "Marks each query's top_k most frequent labels among its neighbours (those with a "
        .. "frequency above 0, the smaller label first on ties). Returns an m x L matrix of "
        .. "0/1." },
    score = { signature = "est:score(X, Y)",
      doc = "The mean precision@top_k over the rows of X: the share of each query's top_k "
        .. "labels by frequency that its row of Y holds (0 for a row of Y without labels). "
        .. "Returns a number in [0, 1] (greater is better)." },
    kneighbors = common.METHOD_DOCS.kneighbors,
    recommend = { signature = "est:recommend(X [, k = nil]) -> labels, scores",
      doc = "The k (default top_k) most frequent labels among each query's neighbours, as "
        .. "1-based label indices (m x k, the smaller label first on ties), and their "
        .. "frequencies (m x k)." },
  },
  params = common.with({
    { name = "n_neighbors", type = "integer", default = 5, min = 1, doc = "k, the neighbours asked" },
    { name = "top_k", type = "integer", default = 3, min = 1, doc = "labels recommended per query" },
    common.WEIGHTS_PARAM,
  }, common.index_params()),
  example = function()
    local X = common.example_data()
    local Y = luma.matrix{
      { 1, 1, 0, 0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 1 }, { 0, 1, 0, 0 },
      { 0, 0, 1, 1 }, { 0, 0, 1, 0 }, { 0, 1, 1, 1 }, { 0, 0, 0, 1 },
      { 1, 0, 1, 0 }, { 1, 0, 1, 1 }, { 0, 0, 1, 0 }, { 1, 0, 0, 0 } }
    return multilabel.MultiLabelKNeighbors{ n_neighbors = 3, top_k = 2 }, X, Y
  end,
  fit = function(self, X, Y)
    local p = self.params
    common.check_weights_param(NAME, p.weights)
    if not (Y:eq(0) + Y:eq(1)):all() then
      fail("bad argument #2 to 'fit' (%s: Y must hold 0 or 1 only (one column per label))", NAME)
    end
    if p.top_k > Y:cols() then
      fail("bad argument #2 to 'fit' (%s: top_k = %d but Y has only %d labels)", NAME, p.top_k, Y:cols())
    end
    if p.n_neighbors > X:rows() then
      fail("bad argument #1 to 'fit' (%s: n_neighbors = %d but X has only %d rows)", NAME,
        p.n_neighbors, X:rows())
    end
    self.index = common.build(NAME, p, X, "fit", p.n_neighbors)
    self.fit_y = Y:copy()
    self.n_samples_fit = X:rows()
    self.effective_algorithm = self.index:info().algorithm
  end,
  predict_proba = function(self, X)
    return frequencies(self, X, "predict_proba")
  end,
  -- The top_k labels with a frequency above 0 marked 1.
  predict = function(self, X)
    local F = frequencies(self, X, "predict")
    local negated, labels = native.select_rows(F * -1, self.params.top_k)
    local out = luma.zeros(F:shape())
    for i = 1, F:rows() do
      for j = 1, labels:cols() do
        if negated:get(i, j) < 0 then out:set(i, labels:get(i, j), 1) end
      end
    end
    return out
  end,
  -- Mean precision@top_k over the queries: the share of the top_k labels
  -- by frequency that the query's row of Y holds (0 for a row without
  -- labels, where luma.metrics.precision_at_k has no positive class).
  score = function(self, X, Y)
    local F = frequencies(self, X, "score")
    local k, total = self.params.top_k, 0
    for i = 1, F:rows() do
      local y = Y:row(i):t()
      if y:sum() > 0 then total = total + luma.metrics.precision_at_k(y, F:row(i):t(), k) end
    end
    return total / F:rows()
  end,
  recommend = recommend,
  kneighbors = common.kneighbors_method,
}

return multilabel
