--- luma.ensemble.weight_boosting: AdaBoostClassifier and
-- AdaBoostRegressor (part of luma.ensemble, docs/ENSEMBLE.md).
--
-- Three classification algorithms share the loop:
--   * "discrete": the notes' AdaBoost (notes 000 §3 "AdaBoost (§9.3.2)",
--     002 §1.9 E4, 003 §1.17), two classes coded -1/+1, weights D_1 = 1/N,
--     eps_t = sum_i D_t,i [y_i != h_t(x_i)] / sum_i D_t,i,
--     alpha_t = 1/2 ln((1 - eps_t) / eps_t),
--     D_t+1,i = D_t,i exp(-alpha_t y_i h_t(x_i)) / Z_t, and
--     f(x) = sum_t alpha_t h_t(x), H = sign f.  Notes 002 E4 writes
--     alpha = ln((1 - err)/err) and reweights only the mistakes by
--     exp(alpha); that is the same classifier (E5: beta = alpha/2) and the
--     same normalized weights.  Z_t is kept: the training error after T
--     rounds is at most prod_t Z_t = prod_t 2 sqrt(eps_t (1 - eps_t))
--     (notes 000 Ch. 9 theory), available per round as
--     training_error_bound.  The notes leave eps_t = 0 and eps_t >= 1/2
--     open: boosting stops there (a perfect member is kept with weight 1,
--     a member no better than chance is dropped), as scikit-learn does.
--   * "SAMME" and "SAMME.R" (Zhu, Zou, Rosset and Hastie, Multi-class
--     AdaBoost, 2009): K classes, scikit-learn 1.2's formulas and stopping
--     rules, including its clipping of weights at machine epsilon.
-- Feature importances are the members' importances averaged with the
-- members' weights: with stumps, the share of the total alpha of the
-- stumps that split on each feature (notes 002 §1.9 E7).
-- AdaBoostRegressor is AdaBoost.R2 (Drucker 1997) as in scikit-learn:
-- each member is fitted on a weighted bootstrap sample and the prediction
-- is the weighted median of the members'.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local cart = require("luma.tree.cart")
local common = require("luma.ensemble.common")

local fail = common.fail
local EPS = 2.220446049250313e-16

local boosting = {}

-- Weights below machine epsilon are raised to it (scikit-learn 1.2,
-- issue #20320), except those that were zero from the start.
local function clip(w, zero)
  return w:maximum(EPS):mul(1 - zero)
end

-- Member t's contribution to the decision function (n x k, or n x 1 for
-- "discrete").
local function contribution(self, t, X)
  local m, K = self.estimators[t], self.n_classes
  local algorithm = self.params.algorithm
  if algorithm == "SAMME.R" then
    -- (K - 1) (log p - mean_k log p), p clipped at machine epsilon
    local logp = common.expand_proba(m:predict_proba(X), m.classes, self.classes):maximum(EPS):log()
    return (logp - logp:sum(2) / K) * (K - 1)
  end
  local onehot = common.one_hot(m:predict(X), self.classes)
  if algorithm == "discrete" then
    return (onehot:col(2) - onehot:col(1)) * self.estimator_weights:get(t, 1)
  end
  return onehot * self.estimator_weights:get(t, 1)
end

-- The decision function from accumulated contributions and the weight
-- sum (scikit-learn's normalization; "discrete" keeps f = sum alpha h).
local function finish_decision(self, pred, norm)
  if self.params.algorithm == "discrete" then return pred:copy() end
  local out = pred / norm
  if self.n_classes == 2 then return out:col(2) - out:col(1) end
  return out
end

local function proba_from_decision(self, decision)
  if self.params.algorithm == "discrete" then
    -- f estimates half the log-odds (Friedman, Hastie and Tibshirani 2000)
    return luma.hstack{ -decision, decision }:softmax(2)
  end
  local K = self.n_classes
  if K == 2 then return luma.hstack{ -decision, decision }:mul(0.5):softmax(2) end
  return (decision / (K - 1)):softmax(2)
end

local function predict_from_decision(self, decision)
  if decision:cols() == 1 then return self.classes:take(decision:gt(0) + 1) end
  return self.classes:take(decision:argmax(2))
end

local function fit_classifier(self, X, y, sample_weight)
  local name, p = self.__class.short_name, self.params
  local w = estimator.check_sample_weight(X, sample_weight)
  local codes, classes = common.encode_classes(name, y)
  local K = classes:rows()
  if p.algorithm == "discrete" and K ~= 2 then
    fail(2, "%s: algorithm \"discrete\" is for two classes (y has %d); use SAMME or SAMME.R",
      name, K)
  end
  local base = p.estimator or cart.DecisionTreeClassifier{ max_depth = 1 }
  common.check_base(name, base, "classifier")
  self.classes, self.n_classes = classes, K
  w = w and w / w:sum() or luma.full(X:rows(), 1, 1 / X:rows())
  local zero = w:eq(0)
  local seeds = common.seeds(p.seed, p.n_estimators)
  local lr, T = p.learning_rate, p.n_estimators
  local members, weights, errors, Z = {}, {}, {}, {}
  local ysign = codes:eq(2) * 2 - 1 -- discrete: the second class is +1
  for t = 1, T do
    w = clip(w, zero)
    local m = base:clone()
    if m.__class.schema.seed then m:set_params{ seed = seeds[t] } end
    m:fit(X, y, w)
    local proba, pred
    if p.algorithm == "SAMME.R" then
      proba = common.expand_proba(m:predict_proba(X), m.classes, classes)
      pred = classes:take(proba:argmax(2))
    else
      pred = m:predict(X)
    end
    local incorrect = pred:ne(y)
    local err = w:mul(incorrect):sum() / w:sum()
    members[#members + 1] = m
    if err <= 0 then
      weights[#members], errors[#members] = 1, 0
      if p.algorithm == "discrete" then Z[#members] = 0 end
      break
    end
    if p.algorithm == "SAMME.R" then
      local coding = codes:eq(luma.arange(1, K):t()) * (1 + 1 / (K - 1)) - 1 / (K - 1)
      local factor = coding:mul(proba:maximum(EPS):log()):sum(2) * (-lr * (K - 1) / K)
      weights[#members], errors[#members] = 1, err
      if t < T then w = w:mul(factor:mul(w:gt(0):maximum(factor:lt(0))):exp()) end
    else
      local chance = p.algorithm == "discrete" and 0.5 or 1 - 1 / K
      if err >= chance then
        members[#members] = nil
        if #members == 0 then
          fail(2, "%s: the first member is no better than chance (error %.6g); the ensemble "
            .. "cannot be fitted", name, err)
        end
        break
      end
      if p.algorithm == "discrete" then
        local alpha = lr * 0.5 * math.log((1 - err) / err)
        local h = pred:eq(classes:get(2, 1)) * 2 - 1
        local factor = ysign:mul(h):mul(-alpha):exp()
        local wf = w:mul(factor)
        Z[#members] = wf:sum() / w:sum()
        weights[#members], errors[#members] = alpha, err
        w = wf
      else
        local alpha = lr * (math.log((1 - err) / err) + math.log(K - 1))
        weights[#members], errors[#members] = alpha, err
        if t < T then w = w:mul((incorrect * alpha):exp()) end
      end
    end
    local total = w:sum()
    if total ~= total or total == math.huge then
      common.warn("%s: sample weights overflowed at iteration %d; boosting stopped (lower "
        .. "the learning rate)", name, t)
      break
    end
    if total <= 0 then break end
    if t < T then w = w / total end
  end
  self.estimators = members
  self.estimator_weights = luma.matrix(weights)
  self.estimator_errors = luma.matrix(errors)
  if p.algorithm == "discrete" then
    self.Z = luma.matrix(Z)
    self.training_error_bound = self.Z:cumprod(1)
  end
  local imp = luma.zeros(X:cols(), 1)
  for i, m in ipairs(members) do
    if m.feature_importances then imp = imp + m.feature_importances * weights[i] end
  end
  self.feature_importances = imp / self.estimator_weights:sum()
end

-- An iterator over the staged decision functions of X.
local function staged_decisions(self, X)
  local t, pred, norm = 0, nil, 0
  return function()
    t = t + 1
    if t > #self.estimators then return nil end
    local c = contribution(self, t, X)
    pred = pred and pred + c or c
    norm = norm + self.estimator_weights:get(t, 1)
    return finish_decision(self, pred, norm)
  end
end

local function decision_function(self, X)
  local last
  for d in staged_decisions(self, X) do last = d end
  return last
end

boosting.AdaBoostClassifier = estimator.class{
  name = "luma.ensemble.AdaBoostClassifier",
  kind = "classifier",
  doc = "AdaBoost: members fitted in turn on reweighted data, each weighted by its accuracy. "
    .. "algorithm \"discrete\" is Freund and Schapire's binary AdaBoost (1997; alpha = 1/2 ln((1 - eps)/eps), "
    .. "D renormalized by Z; fitted Z and training_error_bound, the product of the Z); "
    .. "\"SAMME\" and \"SAMME.R\" are Zhu et al.'s multi-class versions (scikit-learn's "
    .. "formulas). The default member is a stump. Fitted: estimators, estimator_weights, "
    .. "estimator_errors, classes, feature_importances.",
  params = {
    { name = "estimator", type = "estimator",
      doc = "the weak learner, which must take sample weights (default: a stump)" },
    { name = "n_estimators", type = "integer", default = 50, min = 1, doc = "most boosting rounds" },
    { name = "learning_rate", type = "number", default = 1.0, gt = 0,
      doc = "multiplies each member's weight" },
    { name = "algorithm", type = "string", default = "SAMME.R",
      values = { "SAMME.R", "SAMME", "discrete" }, doc = "the boosting algorithm" },
    { name = "seed", type = "seed", doc = "seeds of the members (integer or generator)" },
  },
  example = function()
    local X, y = luma.datasets.load("breast_cancer")
    return boosting.AdaBoostClassifier{ n_estimators = 5, algorithm = "SAMME" }, X, y
  end,
  method_docs = {
    staged_decision_function = { signature = "est:staged_decision_function(X) -> iterator",
      doc = "An iterator over the decision function of X after each round (for d in "
        .. "est:staged_decision_function(X) do ... end). Returns the iterator." },
    staged_predict = { signature = "est:staged_predict(X) -> iterator",
      doc = "An iterator over the predicted labels of X after each round. Returns the iterator." },
    staged_predict_proba = { signature = "est:staged_predict_proba(X) -> iterator",
      doc = "An iterator over the class probabilities of X after each round. Returns the "
        .. "iterator." },
    staged_score = { signature = "est:staged_score(X, y) -> scores",
      doc = "The accuracy on X, y after each round, as a column. Returns a matrix." },
  },
  fit = fit_classifier,
  decision_function = decision_function,
  predict_proba = function(self, X)
    return proba_from_decision(self, decision_function(self, X))
  end,
  predict = function(self, X)
    return predict_from_decision(self, decision_function(self, X))
  end,
  staged_decision_function = function(self, X)
    common.fitted_check(self, "staged_decision_function", X)
    return staged_decisions(self, X)
  end,
  staged_predict = function(self, X)
    common.fitted_check(self, "staged_predict", X)
    local next_decision = staged_decisions(self, X)
    return function()
      local d = next_decision()
      return d and predict_from_decision(self, d)
    end
  end,
  staged_predict_proba = function(self, X)
    common.fitted_check(self, "staged_predict_proba", X)
    local next_decision = staged_decisions(self, X)
    return function()
      local d = next_decision()
      return d and proba_from_decision(self, d)
    end
  end,
  staged_score = function(self, X, y)
    common.fitted_check(self, "staged_score", X)
    local scores = {}
    for d in staged_decisions(self, X) do
      scores[#scores + 1] = predict_from_decision(self, d):eq(y):mean()
    end
    return luma.matrix(scores)
  end,
}

-- ------------------------------------------------------------ regressor

local function fit_regressor(self, X, y, sample_weight)
  local name, p = self.__class.short_name, self.params
  if y:cols() ~= 1 then
    fail(2, "bad argument #2 to 'fit' (%s: y must be one column, got %d)", name, y:cols())
  end
  local w = estimator.check_sample_weight(X, sample_weight)
  local base = p.estimator or cart.DecisionTreeRegressor{ max_depth = 3 }
  common.check_base(name, base, "regressor")
  local n = X:rows()
  w = w and w / w:sum() or luma.full(n, 1, 1 / n)
  local zero = w:eq(0)
  local rng = estimator.rng(p.seed)
  local T, lr = p.n_estimators, p.learning_rate
  local members, weights, errors = {}, {}, {}
  for t = 1, T do
    w = clip(w, zero)
    local m = base:clone()
    if m.__class.schema.seed then m:set_params{ seed = rng:integers(math.mininteger, math.maxinteger) } end
    -- weighted bootstrap sample of the rows (Drucker 1997)
    local rows = rng:choice(n, n, { replace = true, p = w / w:sum() })
    m:fit(X:take(rows), y:take(rows))
    local loss = (m:predict(X) - y):abs()
    local active = w:gt(0)
    local top = loss:mul(active):max()
    if top ~= 0 then loss = loss / top end
    if p.loss == "square" then loss = loss:pow(2)
    elseif p.loss == "exponential" then loss = 1 - (-loss):exp() end
    local err = w:mul(loss):mul(active):sum()
    members[#members + 1] = m
    if err <= 0 then
      weights[#members], errors[#members] = 1, 0
      break
    elseif err >= 0.5 then
      -- no better than chance: dropped, unless it is the only member
      if #members > 1 then members[#members] = nil else weights[1], errors[1] = 1, err end
      break
    end
    local beta = err / (1 - err)
    weights[#members], errors[#members] = lr * math.log(1 / beta), err
    if t < T then
      w = w:mul(((1 - loss) * (lr * math.log(beta))):exp():mul(active) + (1 - active))
    end
    local total = w:sum()
    if not (total > 0) or total == math.huge then break end
    if t < T then w = w / total end
  end
  self.estimators = members
  self.estimator_weights = luma.matrix(weights)
  self.estimator_errors = luma.matrix(errors)
  local imp = luma.zeros(X:cols(), 1)
  for i, m in ipairs(members) do
    if m.feature_importances then imp = imp + m.feature_importances * weights[i] end
  end
  self.feature_importances = imp / self.estimator_weights:sum()
end

local function median_predict(self, X, limit)
  local P = luma.zeros(X:rows(), limit)
  for t = 1, limit do P:col(t):assign(self.estimators[t]:predict(X)) end
  return common.weighted_median(P, self.estimator_weights:sub(1, limit, 1, 1))
end

boosting.AdaBoostRegressor = estimator.class{
  name = "luma.ensemble.AdaBoostRegressor",
  kind = "regressor",
  doc = "AdaBoost.R2 (Drucker, Improving Regressors using Boosting Techniques, 1997): each "
    .. "member fitted on a bootstrap sample drawn with the current weights; losses scaled by "
    .. "the largest (linear, square or exponential); beta = err/(1 - err); the prediction is "
    .. "the weighted median of the members' with weights ln(1/beta). Default member: a "
    .. "depth-3 tree. Fitted: estimators, estimator_weights, estimator_errors, "
    .. "feature_importances.",
  params = {
    { name = "estimator", type = "estimator", doc = "the base regressor (default: a depth-3 tree)" },
    { name = "n_estimators", type = "integer", default = 50, min = 1, doc = "most boosting rounds" },
    { name = "learning_rate", type = "number", default = 1.0, gt = 0,
      doc = "shrinks each member's weight and update" },
    { name = "loss", type = "string", default = "linear", values = { "linear", "square", "exponential" },
      doc = "how scaled absolute errors become losses" },
    { name = "seed", type = "seed", doc = "the weighted bootstrap samples (integer or generator)" },
  },
  example = function()
    local X, y = luma.datasets.load("diabetes")
    return boosting.AdaBoostRegressor{ n_estimators = 5, seed = 1 }, X:sub(1, 100, 1, 10):copy(),
      y:sub(1, 100, 1, 1):copy()
  end,
  method_docs = {
    staged_predict = { signature = "est:staged_predict(X) -> iterator",
      doc = "An iterator over the weighted-median predictions of X using the first 1, 2, ... "
        .. "members. Returns the iterator." },
  },
  fit = fit_regressor,
  predict = function(self, X)
    return median_predict(self, X, #self.estimators)
  end,
  staged_predict = function(self, X)
    common.fitted_check(self, "staged_predict", X)
    local t = 0
    return function()
      t = t + 1
      if t > #self.estimators then return nil end
      return median_predict(self, X, t)
    end
  end,
}

return boosting
