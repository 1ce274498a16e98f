--- luma.multilabel.prototypes: multi-label learning with prototypes and
-- low-rank label predictors (notes 001 §K).
--
-- MultiLabelLwP: the prototype of label j is the mean feature vector of
-- the training rows that hold it (L prototypes); a query is recommended
-- the labels whose prototypes are closest -- the notes' point being that
-- a rare label still gets a prototype of its own.  Distances are
-- Euclidean, or Mahalanobis under the covariance of the training rows.
--
-- LowRankLabelPredictor: binary relevance's linear predictors w_j
-- constrained to combinations of k meta-predictors, W = Z H (d x k times
-- k x L), i.e. rank(W) <= k.  Fitted as reduced-rank ridge regression of
-- the 0/1 labels (Mukherjee & Zhu, "Reduced rank ridge regression and its
-- kernel extensions", Stat. Anal. Data Min. 4, 2011, eq. 8): the ridge
-- solution B = (X'X + alpha I)^-1 X'Y projected onto the k leading right
-- singular vectors V of the fitted values of the alpha-augmented problem,
-- [X; sqrt(alpha) I] B, whose Gram matrix is B'(X'X + alpha I)B = B'X'Y.
-- W = B V V', so Z = B V and H = V'.  With k = L this is ridge regression
-- on each label, i.e. linear binary relevance.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.multilabel.common")

local fail = common.fail

local prototypes = {}

-- ------------------------------------------------------------ MultiLabelLwP

local LWP = "MultiLabelLwP"

-- Minus the squared distances of each row of X to each prototype (m x
-- L); labels without a prototype score -inf.
local function closeness(self, X)
  local present = self.has_prototype
  local P = self.prototypes:select(present, 1)
  local D
  if self.covariance then
    D = luma.pairwise.distances(X, P, "mahalanobis", { cov = self.covariance }):pow(2)
  else
    D = luma.pairwise.distances(X, P, "sqeuclidean")
  end
  local L = present:rows()
  local S = luma.zeros(X:rows(), L) - math.huge
  local c = 0
  for j = 1, L do
    if self.has_prototype:get(j, 1) == 1 then
      c = c + 1
      S:col(j):assign(-D:col(c))
    end
  end
  return S
end

prototypes.MultiLabelLwP = estimator.class{
  name = "luma.multilabel.MultiLabelLwP",
  kind = "classifier",
  labels = false,
  doc = "Multi-label learning with prototypes, for recommendation: one prototype per "
    .. "label, the mean of the rows that hold it; a query's label scores are minus its "
    .. "squared distances to the prototypes, predict marks the top_k closest, score is the "
    .. "mean precision@top_k. A label no training row holds has no prototype and is never "
    .. "recommended. Fitted: prototypes (L x d; NaN rows for labels without one), "
    .. "label_counts (L x 1).",
  method_docs = common.method_docs(LWP, "minus the squared distance to the label's prototype", {
    decision_function = { signature = "est:decision_function(X)",
      doc = "Minus the squared (Euclidean or Mahalanobis) distance of each row of X to each "
        .. "label's prototype (-inf for a label without one). Returns an m x L matrix." },
    predict = { signature = "est:predict(X)",
      doc = "Marks each row's top_k labels with the closest prototypes. Returns an m x L "
        .. "matrix of 0/1." },
    score = { signature = "est:score(X, Y)",
      doc = "The mean precision@top_k over the rows of X: the share of each row's top_k "
        .. "labels that its row of Y holds (0 for a row of Y without labels). Returns a "
        .. "number in [0, 1]." } }),
  params = {
    { name = "top_k", type = "integer", default = 1, min = 1, doc = "labels marked by predict" },
    { name = "metric", type = "string", default = "euclidean", values = { "euclidean", "mahalanobis" },
      doc = "the distance to the prototypes: euclidean, or mahalanobis under the covariance "
        .. "of the training rows" },
    { name = "reg_covar", type = "number", default = 1e-6, min = 0,
      doc = "added to the covariance's diagonal (mahalanobis), for a positive definite one" },
  },
  example = common.example(function() return prototypes.MultiLabelLwP{ top_k = 2 } end),
  fit = function(self, X, Y)
    local p = self.params
    common.check_labels(LWP, Y)
    local L = Y:cols()
    if p.top_k > L then
      fail("bad argument #2 to 'fit' (%s: top_k = %d but Y has only %d labels)", LWP, p.top_k, L)
    end
    local counts = Y:sum(1):t()
    self.label_counts = counts
    self.has_prototype = counts:gt(0)
    local empty = L - self.has_prototype:sum()
    if empty == L then
      fail("bad argument #2 to 'fit' (%s: Y holds no label, so there is no prototype)", LWP)
    end
    if empty > 0 then
      warn(string.format("luma.multilabel.%s: %d label(s) held by no training row get no "
        .. "prototype and are never recommended", LWP, empty))
    end
    -- prototype j = Y_j' X / count_j (notes 001 §K)
    self.prototypes = (Y:t() * X):div(counts)
    self.covariance = nil
    if p.metric == "mahalanobis" then
      local C = luma.stats.cov(X) + luma.eye(X:cols()) * p.reg_covar
      if not pcall(luma.linalg.cholesky, C) then
        fail("bad argument #1 to 'fit' (%s: the covariance of X is not positive definite; "
          .. "raise reg_covar)", LWP)
      end
      self.covariance = C
    end
  end,
  decision_function = function(self, X)
    return closeness(self, X)
  end,
  predict = function(self, X)
    local labels = common.top_k(LWP, closeness(self, X), self.params.top_k)
    local out = luma.zeros(X:rows(), self.prototypes:rows())
    for i = 1, X:rows() do
      for j = 1, labels:cols() do out:set(i, labels:get(i, j), 1) end
    end
    return out
  end,
  score = function(self, X, Y)
    local S, k, total = closeness(self, X), self.params.top_k, 0
    local labels = common.top_k(LWP, S, k)
    for i = 1, X:rows() do
      for j = 1, k do total = total + Y:get(i, labels:get(i, j)) end
    end
    return total / (k * X:rows())
  end,
  recommend = function(self, X, k)
    common.check_recommend(self, X)
    return common.top_k(LWP, closeness(self, X), k or 1)
  end,
}

-- ---------------------------------------------------- LowRankLabelPredictor

local LOWRANK = "LowRankLabelPredictor"

local function scores_of(self, X)
  return X * self.coef + self.intercept:t()
end

prototypes.LowRankLabelPredictor = estimator.class{
  name = "luma.multilabel.LowRankLabelPredictor",
  kind = "classifier",
  labels = false,
  doc = "Low-rank label predictors (a latent-variable recommender): L linear predictors "
    .. "w_j = Z h_j built from k shared meta-predictors, W = Z H of rank k, fitted by "
    .. "reduced-rank ridge regression of the 0/1 labels (Mukherjee & Zhu 2011). predict marks "
    .. "the labels whose score passes threshold. Fitted: coef (d x L, = components * H), "
    .. "intercept (L x 1), components (Z, d x k), label_loadings (H, k x L).",
  method_docs = common.method_docs(LOWRANK, "the linear scores", {
    decision_function = { signature = "est:decision_function(X)",
      doc = "The labels' linear scores X W + intercept. Returns an m x L matrix." } }),
  params = {
    { name = "rank", type = "integer", default = 2, min = 1,
      doc = "k, the number of meta-predictors (rank of W), at most min(d, L)" },
    { name = "alpha", type = "number", default = 1, min = 0, doc = "the ridge penalty" },
    { name = "fit_intercept", type = "boolean", default = true,
      doc = "center X and Y, then fit one intercept per label" },
    { name = "threshold", type = "number", default = 0.5, doc = "predict marks scores above it" },
  },
  example = common.example(function() return prototypes.LowRankLabelPredictor{ rank = 2 } end),
  fit = function(self, X, Y)
    local p = self.params
    common.check_labels(LOWRANK, Y)
    local d, L = X:cols(), Y:cols()
    if p.rank > math.min(d, L) then
      fail("bad argument #1 to 'fit' (%s: rank = %d but X has %d columns and Y %d labels; "
        .. "rank must be at most %d)", LOWRANK, p.rank, d, L, math.min(d, L))
    end
    local Xc, Yc, x_mean, y_mean = X, Y, luma.zeros(1, d), luma.zeros(1, L)
    if p.fit_intercept then
      x_mean, y_mean = X:mean(1), Y:mean(1)
      Xc, Yc = X - x_mean, Y - y_mean
    end
    local XtY = Xc:t() * Yc
    local ok, B = pcall(luma.linalg.solve, Xc:t() * Xc + luma.eye(d) * p.alpha, XtY)
    if not ok then
      fail("bad argument #1 to 'fit' (%s: X'X is singular; use alpha > 0)", LOWRANK)
    end
    local G = B:t() * XtY
    local _, V = luma.linalg.eigh((G + G:t()) * 0.5, { order = "descending" })
    V = V:sub(1, L, 1, p.rank):copy()
    self.components = B * V
    self.label_loadings = V:t()
    self.coef = self.components * self.label_loadings
    self.intercept = (y_mean - x_mean * self.coef):t()
  end,
  decision_function = function(self, X)
    return scores_of(self, X)
  end,
  predict = function(self, X)
    return scores_of(self, X):gt(self.params.threshold)
  end,
  score = function(self, X, Y)
    return common.subset_accuracy(Y, scores_of(self, X):gt(self.params.threshold))
  end,
  recommend = function(self, X, k)
    common.check_recommend(self, X)
    return common.top_k(LOWRANK, scores_of(self, X), k or 1)
  end,
}

return prototypes
