--- luma.ensemble.voting: VotingClassifier, VotingRegressor,
-- StackingClassifier and StackingRegressor (part of luma.ensemble,
-- docs/ENSEMBLE.md): combinations of different, already-chosen
-- estimators.
--
-- Voting averages: the members' labels by (weighted) majority, "hard",
-- or their probabilities, "soft"; regressors' predictions.  Stacking
-- (Wolpert, Stacked Generalization, Neural Networks 5, 1992; notes 003
-- §1.17) learns how to combine them: a final estimator is fitted on the
-- members' cross-validated predictions (each row predicted by members
-- that did not see it, luma.model_selection.cross_val_predict), and the
-- members themselves are refitted on all the data for prediction.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.ensemble.common")

local fail = common.fail

local voting = {}

-- The members as a list of {name, estimator}: a list of pairs, or a
-- plain list of estimators (named by their class and position).
local function members_of(name, list, kind)
  if type(list) ~= "table" or #list == 0 then
    fail(4, "%s: estimators must be a non-empty list of {name, estimator} pairs", name)
  end
  local out, seen = {}, {}
  for i, item in ipairs(list) do
    local label, est
    if estimator.is_estimator(item) then
      label, est = item.__class.short_name:lower() .. i, item
    elseif type(item) == "table" and type(item[1]) == "string" and estimator.is_estimator(item[2]) then
      label, est = item[1], item[2]
    else
      fail(4, "%s: estimators[%d] must be an estimator or a {name, estimator} pair", name, i)
    end
    if seen[label] then fail(4, "%s: two estimators are named '%s'", name, label) end
    seen[label] = true
    common.check_base(name, est, kind)
    out[i] = { label, est }
  end
  return out
end

local function weights_of(name, weights, m)
  if weights == nil then return nil end
  local w = luma.ismatrix(weights) and weights:flatten() or luma.matrix(weights)
  if w:rows() ~= m then
    fail(4, "%s: weights has %d entries for %d estimators", name, w:rows(), m)
  end
  if not w:isfinite():all() or w:lt(0):any() or not (w:sum() > 0) then
    fail(4, "%s: weights must be finite, >= 0 and not all 0", name)
  end
  return w
end

local function fit_members(self, X, y, sample_weight, kind)
  local name = self.__class.short_name
  local list = members_of(name, self.params.estimators, kind)
  self.weights = weights_of(name, self.params.weights, #list)
  self.estimators, self.names = {}, {}
  for i, pair in ipairs(list) do
    local m = pair[2]:clone()
    if sample_weight then m:fit(X, y, sample_weight) else m:fit(X, y) end
    self.estimators[i], self.names[i] = m, pair[1]
  end
end

-- Weighted mean of the members' outputs f(member) (n x k).
local function weighted_mean(self, f)
  local out, total = nil, 0
  for i, m in ipairs(self.estimators) do
    local wi = self.weights and self.weights:get(i, 1) or 1
    local v = f(m) * wi
    out = out and out + v or v
    total = total + wi
  end
  return out / total
end

local ESTIMATORS_PARAM = { name = "estimators", type = "table", default = {},
  doc = "the members: a list of {name, estimator} pairs (or of estimators)" }
local WEIGHTS_PARAM = { name = "weights", type = "table|matrix",
  doc = "one weight per member (default: equal)" }

local function iris_pair()
  return { { "tree", require("luma.tree.cart").DecisionTreeClassifier{ max_depth = 2 } },
           { "nb", luma.naive_bayes.GaussianNB{} } }
end

voting.VotingClassifier = estimator.class{
  name = "luma.ensemble.VotingClassifier",
  kind = "classifier",
  doc = "Majority or probability voting of different classifiers: voting \"hard\" predicts "
    .. "the label with the largest total weight of members predicting it (ties: the first "
    .. "class), \"soft\" the argmax of the weighted mean of their probabilities. Members "
    .. "are cloned and fitted on all the data. Fitted: estimators, names, classes.",
  params = { ESTIMATORS_PARAM,
    { name = "voting", type = "string", default = "hard", values = { "hard", "soft" },
      doc = "combine labels or probabilities" },
    WEIGHTS_PARAM },
  example = function()
    local X, y = luma.datasets.load("iris")
    return voting.VotingClassifier{ estimators = iris_pair(), voting = "soft" }, X, y
  end,
  fit = function(self, X, y, sample_weight)
    local _, classes = common.encode_classes(self.__class.short_name, y)
    self.classes = classes
    fit_members(self, X, y, sample_weight, "classifier")
  end,
  predict_proba = function(self, X)
    if self.params.voting ~= "soft" then
      fail(2, "%s: predict_proba needs voting = \"soft\"", self.__class.short_name)
    end
    return weighted_mean(self, function(m)
      return common.expand_proba(m:predict_proba(X), m.classes, self.classes)
    end)
  end,
  predict = function(self, X)
    if self.params.voting == "soft" then return self.classes:take(self:predict_proba(X):argmax(2)) end
    local votes = weighted_mean(self, function(m) return common.one_hot(m:predict(X), self.classes) end)
    return self.classes:take(votes:argmax(2))
  end,
  transform = function(self, X)
    local parts = {}
    for i, m in ipairs(self.estimators) do
      parts[i] = self.params.voting == "soft" and m:predict_proba(X) or m:predict(X)
    end
    return luma.hstack(parts)
  end,
}

voting.VotingRegressor = estimator.class{
  name = "luma.ensemble.VotingRegressor",
  kind = "regressor",
  doc = "The weighted mean of different regressors' predictions. Members are cloned and "
    .. "fitted on all the data. Fitted: estimators, names.",
  params = { ESTIMATORS_PARAM, WEIGHTS_PARAM },
  example = function()
    local X, y = luma.datasets.load("diabetes")
    return voting.VotingRegressor{ estimators = { { "ridge", luma.linear.Ridge{} },
      { "tree", require("luma.tree.cart").DecisionTreeRegressor{ max_depth = 3 } } } }, X, y
  end,
  fit = function(self, X, y, sample_weight)
    fit_members(self, X, y, sample_weight, "regressor")
  end,
  predict = function(self, X)
    return weighted_mean(self, function(m) return m:predict(X) end)
  end,
  transform = function(self, X)
    local parts = {}
    for i, m in ipairs(self.estimators) do parts[i] = m:predict(X) end
    return luma.hstack(parts)
  end,
}

-- ------------------------------------------------------------- stacking

-- The method a member contributes for classification: stack_method, or
-- "auto": predict_proba, else decision_function, else predict.
local function stack_method(m, wanted)
  if wanted ~= "auto" then
    if type(m[wanted]) ~= "function" then
      fail(4, "stacking: %s has no method '%s'", tostring(m), wanted)
    end
    return wanted
  end
  for _, method in ipairs({ "predict_proba", "decision_function", "predict" }) do
    if type(m[method]) == "function" then return method end
  end
end

-- A member's columns of the meta features: probabilities of two classes
-- keep only the second (the first is 1 minus it), as scikit-learn.
local function meta_columns(P, method, n_classes)
  if method == "predict_proba" and n_classes == 2 then return P:col(2) end
  return P
end

local function stack_features(self, X)
  local parts = {}
  for i, m in ipairs(self.estimators) do
    local method = self.stack_methods[i]
    parts[i] = meta_columns(m[method](m, X), method, self.n_classes)
  end
  if self.params.passthrough then parts[#parts + 1] = X end
  return luma.hstack(parts)
end

local function fit_stacking(self, X, y, sample_weight, kind)
  local name, p = self.__class.short_name, self.params
  local list = members_of(name, p.estimators, kind)
  local classifier = kind == "classifier"
  if classifier then
    local _, classes = common.encode_classes(name, y)
    self.classes, self.n_classes = classes, classes:rows()
  end
  local final = p.final_estimator or (classifier and luma.linear.LogisticRegression{}
    or luma.linear.RidgeCV{})
  common.check_base(name, final, kind)
  self.estimators, self.names, self.stack_methods = {}, {}, {}
  local parts = {}
  for i, pair in ipairs(list) do
    local method = classifier and stack_method(pair[2], p.stack_method) or "predict"
    local cv_pred = luma.model_selection.cross_val_predict(pair[2], X, y,
      { cv = p.cv or 5, method = method })
    parts[i] = meta_columns(cv_pred, method, self.n_classes)
    local m = pair[2]:clone()
    if sample_weight then m:fit(X, y, sample_weight) else m:fit(X, y) end
    self.estimators[i], self.names[i], self.stack_methods[i] = m, pair[1], method
  end
  if p.passthrough then parts[#parts + 1] = X end
  local Z = luma.hstack(parts)
  self.final_estimator = final:clone()
  if sample_weight then self.final_estimator:fit(Z, y, sample_weight)
  else self.final_estimator:fit(Z, y) end
end

local STACK_PARAMS = {
  ESTIMATORS_PARAM,
  { name = "final_estimator", type = "estimator",
    doc = "fitted on the members' cross-validated predictions (default: LogisticRegression "
      .. "for classes, RidgeCV for targets)" },
  { name = "cv", type = "any", doc = "folds of the cross-validated predictions (default 5)" },
  { name = "passthrough", type = "boolean", default = false,
    doc = "give the final estimator X as well" },
}

voting.StackingClassifier = estimator.class{
  name = "luma.ensemble.StackingClassifier",
  kind = "classifier",
  doc = "Stacked generalization (Wolpert 1992): a final classifier learns "
    .. "from the members' cross-validated outputs (probabilities, decision values or labels; "
    .. "for two classes only the second probability). Fitted: estimators (refitted on all "
    .. "the data), names, stack_methods, final_estimator, classes.",
  params = (function()
    local list = {}
    for _, q in ipairs(STACK_PARAMS) do list[#list + 1] = q end
    list[#list + 1] = { name = "stack_method", type = "string", default = "auto",
      values = { "auto", "predict_proba", "decision_function", "predict" },
      doc = "what each member contributes" }
    return list
  end)(),
  example = function()
    local X, y = luma.datasets.load("iris")
    return voting.StackingClassifier{ estimators = iris_pair(), cv = 3 }, X, y
  end,
  method_docs = {
    transform = { signature = "est:transform(X) -> features",
      doc = "The meta features of X the final estimator sees: the members' outputs side by "
        .. "side (and X with passthrough). Returns a matrix." },
  },
  fit = function(self, X, y, sample_weight) fit_stacking(self, X, y, sample_weight, "classifier") end,
  transform = stack_features,
  predict = function(self, X)
    return self.final_estimator:predict(stack_features(self, X))
  end,
  predict_proba = function(self, X)
    return self.final_estimator:predict_proba(stack_features(self, X))
  end,
}

voting.StackingRegressor = estimator.class{
  name = "luma.ensemble.StackingRegressor",
  kind = "regressor",
  doc = "Stacked generalization for regression (Wolpert 1992): a final "
    .. "regressor (RidgeCV by default) learns from the members' cross-validated predictions. "
    .. "Fitted: estimators (refitted on all the data), names, final_estimator.",
  params = STACK_PARAMS,
  example = function()
    local X, y = luma.datasets.load("diabetes")
    return voting.StackingRegressor{ estimators = { { "ridge", luma.linear.Ridge{} },
      { "tree", require("luma.tree.cart").DecisionTreeRegressor{ max_depth = 3 } } }, cv = 3 }, X, y
  end,
  method_docs = {
    transform = { signature = "est:transform(X) -> features",
      doc = "The members' predictions of X side by side (and X with passthrough), the final "
        .. "estimator's input. Returns a matrix." },
  },
  fit = function(self, X, y, sample_weight) fit_stacking(self, X, y, sample_weight, "regressor") end,
  transform = stack_features,
  predict = function(self, X)
    return self.final_estimator:predict(stack_features(self, X))
  end,
}

return voting
