--- luma.multiclass: multiclass classification from binary classifiers
-- (notes 002 §1.5 M1, M2).
--
-- OneVsRest fits one classifier per class (that class against the rest);
-- OneVsOne one per pair of classes, then votes.  The notes leave conflict
-- resolution open ("unspecified"); both follow scikit-learn's
-- OneVsRestClassifier and OneVsOneClassifier: one-vs-rest predicts the
-- class of highest score, one-vs-one the class with most votes, ties
-- broken by the summed confidences.  A sub-problem's labels are 0 (rest,
-- or the first class of the pair) and 1, and its score is the base's
-- decision_function (two columns: the second minus the first), else the
-- probability of label 1 from predict_proba, else its 0/1 prediction.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local G = require("luma.generative.common")
local binary_score = require("luma.util.scores").binary
local check_base = require("luma.util.scores").check_base

local fail = G.fail

local multiclass = {}

-- 0/1 labels: 1 where the column y equals value.
local function indicator(y, value)
  return y:eq(value)
end

local function has_method(base, method)
  return base ~= nil and base[method] ~= nil
end

local function example(wrapper)
  return function()
    local X, y = require("luma.generative.discriminant").example_data()
    return wrapper{ estimator = luma.naive_bayes.GaussianNB{} }, X, y
  end
end

-- ------------------------------------------------------------ OneVsRest

local OVR_NAME = "OneVsRest"

local function ovr_scores(self, X)
  local k = #self.estimators
  local scores = luma.zeros(X:rows(), k)
  local probability
  for c = 1, k do
    local s
    s, probability = binary_score(self.estimators[c], X)
    scores:col(c):assign(s)
  end
  return scores, probability
end

multiclass.OneVsRest = estimator.class{
  name = "luma.multiclass.OneVsRest",
  kind = "classifier",
  doc = "One-vs-rest (one-versus-all; Bishop, sec. 4.1.2): a clone of the binary estimator per "
    .. "class, trained on that class (label 1) against all others (label 0); predicts the "
    .. "class of highest score. With two classes a single estimator (the second class against "
    .. "the first). predict_proba normalises the per-class probabilities to sum to 1; "
    .. "decision_function gives the per-class scores. Fitted: classes, estimators.",
  params = {
    { name = "estimator", type = "estimator", doc = "the binary classifier (cloned per class)" },
  },
  example = example(function(p) return multiclass.OneVsRest(p) end),
  fit = function(self, X, y)
    local base = self.params.estimator
    check_base(OVR_NAME, base)
    local _, classes = G.encode(OVR_NAME, y)
    self.classes = classes
    self.estimators = {}
    local k = classes:rows()
    local first = k == 2 and 2 or 1
    for c = first, k do
      self.estimators[#self.estimators + 1] = base:clone():fit(X, indicator(y, classes:get(c, 1)))
    end
  end,
  predict = function(self, X)
    local scores, probability = ovr_scores(self, X)
    if #self.estimators == 1 then
      local positive = scores:gt(probability and 0.5 or 0)
      return self.classes:take(positive + 1)
    end
    return G.decide(scores, self.classes)
  end,
  decision_function = function(self, X)
    if not has_method(self.estimators[1], "decision_function") then
      fail("%s: the estimator %s has no decision_function", OVR_NAME,
        self.params.estimator.__class.name)
    end
    return (ovr_scores(self, X))
  end,
  predict_proba = function(self, X)
    if not has_method(self.estimators[1], "predict_proba") then
      fail("%s: the estimator %s has no predict_proba", OVR_NAME, self.params.estimator.__class.name)
    end
    local k = #self.estimators
    local P = luma.zeros(X:rows(), k)
    for c = 1, k do
      local p = self.estimators[c]:predict_proba(X)
      P:col(c):assign(p:col(p:cols()))
    end
    if k == 1 then return luma.matrix.hstack{ -P + 1, P } end
    return P:div(P:sum(2))
  end,
}

-- ------------------------------------------------------------- OneVsOne

local OVO_NAME = "OneVsOne"

-- scikit-learn's _ovr_decision_function: votes plus the summed
-- confidences squashed into (-1/3, 1/3), so they only break vote ties.
local function ovo_decision(self, X)
  local k = self.classes:rows()
  local n = X:rows()
  local votes, confidence = luma.zeros(n, k), luma.zeros(n, k)
  for _, pair in ipairs(self.pairs) do
    local i, j, est = pair[1], pair[2], pair[3]
    local predicted = est:predict(X)
    local score = binary_score(est, X)
    votes:col(i):assign(votes:col(i) + (-predicted + 1))
    votes:col(j):assign(votes:col(j) + predicted)
    confidence:col(i):assign(confidence:col(i) - score)
    confidence:col(j):assign(confidence:col(j) + score)
  end
  return votes + confidence:div(confidence:abs() * 3 + 3)
end

multiclass.OneVsOne = estimator.class{
  name = "luma.multiclass.OneVsOne",
  kind = "classifier",
  doc = "One-vs-one (Bishop, sec. 4.1.2): a clone of the binary estimator per pair of classes "
    .. "(i < j), trained on the rows of those two classes (label 1 for class j); predicts by "
    .. "majority vote, ties broken by the summed confidences (scikit-learn's rule). "
    .. "decision_function is votes + confidences / (3 (|confidences| + 1)) "
    .. "(n x 1, the second class's, for two classes). Fitted: classes, pairs ({i, j, "
    .. "estimator}).",
  params = {
    { name = "estimator", type = "estimator", doc = "the binary classifier (cloned per pair)" },
  },
  example = example(function(p) return multiclass.OneVsOne(p) end),
  fit = function(self, X, y)
    local base = self.params.estimator
    check_base(OVO_NAME, base)
    local codes, classes = G.encode(OVO_NAME, y)
    self.classes = classes
    self.pairs = {}
    local k = classes:rows()
    for i = 1, k - 1 do
      for j = i + 1, k do
        local rows = codes:eq(i) + codes:eq(j)
        local Xp, cp = X:select(rows, 1), codes:select(rows, 1)
        self.pairs[#self.pairs + 1] = { i, j, base:clone():fit(Xp, cp:eq(j)) }
      end
    end
  end,
  predict = function(self, X)
    return G.decide(ovo_decision(self, X), self.classes)
  end,
  decision_function = function(self, X)
    local D = ovo_decision(self, X)
    if D:cols() == 2 then return D:col(2):copy() end
    return D
  end,
}

luma.doc.set(multiclass, { name = "luma.multiclass",
  doc = "Multiclass wrappers for binary classifiers: OneVsRest and OneVsOne (Bishop, sec. 4.1.2); "
    .. "see docs/CLASSIFIERS.md." })

return multiclass
