--- luma.ensemble.bagging: bootstrap aggregation of any base estimator
-- (part of luma.ensemble, docs/ENSEMBLE.md).
--
-- Bagging (Breiman, Machine Learning 24, 1996; notes 000 §9.2, 002 §1.9
-- E13, 003 §1.17) fits each member on a bootstrap sample of the rows
-- (and optionally a random subset of the features) and averages:
-- regressors' predictions, classifiers' probabilities ("soft") or, as
-- notes 002 E13 writes it, their one-hot votes ("hard": the argmax of the
-- averaged one-hot predictions).  Member i uses only the i-th seed drawn
-- from `seed`, so the fit is the same for any n_jobs (members then run in
-- forked workers through luma.parallel).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local cart = require("luma.tree.cart")
local common = require("luma.ensemble.common")

local fail = common.fail

local bagging = {}

-- The rows and features of member i (1-based index columns).
local function draw(seed, n, d, n_rows, n_features, p)
  local rng = luma.random.Generator(seed)
  local features = luma.arange(1, d)
  if n_features < d or p.bootstrap_features then
    features = p.bootstrap_features and rng:integers(1, d, n_features, 1)
      or rng:permutation(d):sub(1, n_features, 1, 1):copy()
  end
  local rows = p.bootstrap and rng:integers(1, n, n_rows, 1)
    or rng:permutation(n):sub(1, n_rows, 1, 1):copy()
  return rows, features
end

local function feature_count(name, v, d)
  if math.type(v) == "integer" then
    if v < 1 or v > d then fail(4, "%s: max_features = %d is outside 1..%d", name, v, d) end
    return v
  end
  if not (v > 0 and v <= 1) then
    fail(4, "%s: max_features must be an integer count or a fraction in (0, 1], got %s", name,
      tostring(v))
  end
  return math.max(1, math.floor(v * d))
end

local function fit_bagging(self, X, y)
  local class = self.__class
  local name, p = class.short_name, self.params
  local classifier = class.kind == "classifier"
  common.check_X(name, "fit", X)
  local base = p.estimator or (classifier and cart.DecisionTreeClassifier{}
    or cart.DecisionTreeRegressor{})
  common.check_base(name, base, class.kind)
  if p.oob_score and not p.bootstrap then
    fail(3, "%s: out-of-bag estimation needs bootstrap = true", name)
  end
  local n, d = X:shape()
  if classifier then
    local _, classes = common.encode_classes(name, y)
    self.classes, self.n_classes = classes, classes:rows()
  end
  local n_rows = common.n_draws(name, p.max_samples, n)
  local n_features = feature_count(name, p.max_features, d)
  local seeds = common.seeds(p.seed, p.n_estimators)
  local members = require("luma.parallel").map(function(s)
    local rows, features = draw(s, n, d, n_rows, n_features, p)
    local m = base:clone()
    if m.__class.schema.seed then m:set_params{ seed = s } end -- members differ
    m:fit(X:take(rows):take(features, 2), y:take(rows))
    return { model = m, features = features }
  end, seeds, { n_jobs = p.n_jobs })
  self.estimators, self.estimators_features = {}, {}
  for i, r in ipairs(members) do
    self.estimators[i], self.estimators_features[i] = r.model, r.features
  end
  self.seeds, self.n_draws, self.n_features_drawn = seeds, n_rows, n_features
  if p.oob_score then self:compute_oob(X, y) end
end

-- Member i's output on X: probabilities (soft) or one-hot votes (hard)
-- over the ensemble's classes, or predictions.
local function member_output(self, i, X)
  local m, Xf = self.estimators[i], X:take(self.estimators_features[i], 2)
  if self.__class.kind ~= "classifier" then return m:predict(Xf) end
  if self:voting_kind() == "soft" then
    return common.expand_proba(m:predict_proba(Xf), m.classes, self.classes)
  end
  return common.one_hot(m:predict(Xf), self.classes)
end

local function average(self, X, rows_of)
  local out
  for i = 1, #self.estimators do
    local v = member_output(self, i, X)
    if rows_of then v = v:mul(rows_of(i)) end
    out = out and out + v or v
  end
  return out
end

local function compute_oob(self, X, y)
  common.check_oob_data(self, X, y)
  local n = X:rows()
  local masks = {}
  for i, s in ipairs(self.seeds) do
    local rows = draw(s, n, X:cols(), self.n_draws, self.n_features_drawn, self.params)
    local inbag = luma.zeros(n, 1)
    for r = 1, rows:rows() do inbag:set(rows:get(r, 1), 1, 1) end
    masks[i] = inbag:eq(0)
  end
  local total = average(self, X, function(i) return masks[i] end)
  local hits = luma.zeros(n, 1)
  for i = 1, #masks do hits = hits + masks[i] end
  if hits:eq(0):any() then
    common.warn("%s: some rows were in every bootstrap sample; their out-of-bag estimates "
      .. "are NaN (use more estimators)", self.__class.short_name)
  end
  local out = total:div(hits)
  local seen = hits:gt(0)
  if self.__class.kind == "classifier" then
    self.oob_decision_function = out
    self.oob_score = self.classes:take(out:argmax(2)):eq(y):mul(seen):sum() / seen:sum()
  else
    self.oob_prediction = out
    local rows = luma.arange(1, n):select(seen, 1)
    self.oob_score = estimator.r2_score(y:take(rows), out:take(rows))
  end
end

local PARAMS = {
  { name = "estimator", type = "estimator",
    doc = "the base estimator (default: a decision tree of the ensemble's kind)" },
  { name = "n_estimators", type = "integer", default = 10, min = 1, doc = "number of members" },
  { name = "max_samples", type = "number", default = 1.0, gt = 0,
    doc = "rows drawn per member: a count or a fraction of n" },
  { name = "max_features", type = "number", default = 1.0, gt = 0,
    doc = "features drawn per member: a count or a fraction of d" },
  { name = "bootstrap", type = "boolean", default = true, doc = "draw rows with replacement" },
  { name = "bootstrap_features", type = "boolean", default = false,
    doc = "draw features with replacement" },
  { name = "oob_score", type = "boolean", default = false,
    doc = "estimate the score on the out-of-bag rows" },
  { name = "n_jobs", type = "integer", default = 1,
    doc = "forked worker processes fitting members (luma.parallel; -1: one per core)" },
  { name = "seed", type = "seed", doc = "the draws of every member (integer or generator)" },
}

local function iris_example(make)
  return function(base)
    local X, y = luma.datasets.load("iris")
    return make(base), X, y
  end
end

bagging.BaggingClassifier = estimator.class{
  name = "luma.ensemble.BaggingClassifier",
  kind = "classifier",
  doc = "Bagging (Breiman 1996): each member fitted on a bootstrap sample "
    .. "of the rows (and a random subset of the features); voting \"soft\" averages the "
    .. "members' probabilities, \"hard\" the mean of their one-hot votes, \"auto\" is "
    .. "soft when the base estimator has predict_proba. Fitted: estimators, "
    .. "estimators_features, classes, and with oob_score: oob_score, oob_decision_function.",
  params = (function()
    local list = {}
    for _, q in ipairs(PARAMS) do list[#list + 1] = q end
    list[#list + 1] = { name = "voting", type = "string", default = "auto",
      values = { "auto", "soft", "hard" }, doc = "how member predictions are combined" }
    return list
  end)(),
  example = iris_example(function()
    return bagging.BaggingClassifier{ n_estimators = 25, seed = 1, oob_score = true }
  end),
  method_docs = {
    voting_kind = { signature = "est:voting_kind() -> string",
      doc = "The voting rule in use: \"soft\" or \"hard\" (voting = \"auto\" resolved). "
        .. "Returns a string." },
    compute_oob = { signature = "est:compute_oob(X, y) -> nothing",
      doc = "Sets oob_score and oob_decision_function from the training data (fit does it "
        .. "with oob_score = true). Returns nothing." },
  },
  fit = fit_bagging,
  compute_oob = compute_oob,
  voting_kind = function(self)
    local v = self.params.voting
    if v ~= "auto" then return v end
    if not self.estimators then
      fail(2, "%s: voting_kind called before fit (it depends on the fitted members)",
        self.__class.name)
    end
    return self.estimators[1].predict_proba and "soft" or "hard"
  end,
  predict_proba = function(self, X)
    return average(self, X) / #self.estimators
  end,
  predict = function(self, X)
    return self.classes:take(self:predict_proba(X):argmax(2))
  end,
}

bagging.BaggingRegressor = estimator.class{
  name = "luma.ensemble.BaggingRegressor",
  kind = "regressor",
  doc = "Bagging of regressors (Breiman 1996: the average of N predictors "
    .. "fitted on bootstrap samples, whose variance falls as 1/N for independent errors). "
    .. "Fitted: estimators, estimators_features, and with oob_score: oob_score (R^2), "
    .. "oob_prediction.",
  params = PARAMS,
  example = function()
    local X, y = luma.datasets.load("diabetes")
    return bagging.BaggingRegressor{ n_estimators = 4, seed = 1 }, X:sub(1, 100, 1, 10):copy(),
      y:sub(1, 100, 1, 1):copy()
  end,
  method_docs = {
    compute_oob = { signature = "est:compute_oob(X, y) -> nothing",
      doc = "Sets oob_score and oob_prediction from the training data (fit does it with "
        .. "oob_score = true). Returns nothing." },
  },
  fit = fit_bagging,
  compute_oob = compute_oob,
  predict = function(self, X)
    return average(self, X) / #self.estimators
  end,
}

return bagging
