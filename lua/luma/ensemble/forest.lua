--- luma.ensemble.forest: random forests and extremely randomized trees
-- (part of luma.ensemble, docs/ENSEMBLE.md).
--
-- A random forest (Breiman, Machine Learning 45, 2001; notes 000 §9.2.2,
-- 002 §1.9 E15) grows each tree on a bootstrap sample of size N with a
-- fresh random subset of max_features features at every split; extra
-- trees (Geurts, Ernst and Wehenkel 2006) use the whole sample and one
-- random threshold per feature.  Classification averages the trees'
-- class probabilities, regression their predictions.  The trees are grown
-- by luma.tree.native.build_forest on the native threads: tree i depends
-- only on the i-th seed drawn from `seed`, so a forest is the same for
-- any thread count.  The bootstrap counts act as sample weights and are
-- regenerated from the same seed for the out-of-bag estimates (each row
-- predicted by the trees whose sample left it out: notes 000 §9.2.2).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.tree.native")
local tree_common = require("luma.tree.common")
local cart = require("luma.tree.cart")
local common = require("luma.ensemble.common")

local fail = common.fail

local forest = {}

-- A member tree as a fitted estimator of its tree class (so est.estimators[i]
-- predicts, exports and saves like any tree).
local function member(class, params, tree, fitted)
  local m = class(params)
  rawset(m, "tree", tree)
  for k, v in pairs(fitted) do rawset(m, k, v) end
  rawset(m, "feature_importances", tree_common.normalized(native.importances(tree)))
  rawset(m, "n_features_in", tree.n_features)
  rawset(m, "__fitted", true)
  return m
end

-- Per-tree weights of class_weight = "balanced_subsample": n_boot /
-- (k n_c) with n_c the class's weight in the tree's bootstrap sample.
local function subsample_weights(codes, k, counts, w)
  local cw = luma.zeros(k, 1)
  local per = w and counts:mul(w) or counts
  for i = 1, codes:rows() do
    local c = codes:get(i, 1)
    cw:set(c, 1, cw:get(c, 1) + per:get(i, 1))
  end
  local total = per:sum()
  for c = 1, k do
    local v = cw:get(c, 1)
    cw:set(c, 1, v > 0 and total / (k * v) or 0)
  end
  local out = cw:take(codes)
  return w and out:mul(w) or out
end

-- fixed: native options the class imposes (the extra trees' splitter).
local function fit_forest(self, X, y, sample_weight, tree_class, fixed)
  local class = self.__class
  local name, p = class.short_name, self.params
  local classifier = class.kind == "classifier"
  local w = estimator.check_sample_weight(X, sample_weight)
  common.check_X(name, "fit", X)
  local n = X:rows()
  if p.oob_score and not p.bootstrap then
    fail(3, "%s: out-of-bag estimation needs bootstrap = true", name)
  end
  if p.max_samples ~= nil and not p.bootstrap then
    fail(3, "%s: max_samples needs bootstrap = true", name)
  end
  local target, k, codes = y, nil, nil
  if classifier then
    local classes
    codes, classes = common.encode_classes(name, y)
    self.classes, self.n_classes = classes, classes:rows()
    k = classes:rows()
    target = codes
    if p.class_weight ~= "balanced_subsample" then
      w = tree_common.sample_weights(w, codes,
        tree_common.class_weights(name, p.class_weight, codes, classes))
    end
  else
    self.n_outputs = y:cols()
  end
  local opts = tree_common.builder_opts(name, p, n, X:cols(), w and w:sum() or n)
  opts.n_classes = k
  for key, v in pairs(fixed) do opts[key] = v end
  local n_boot = p.bootstrap and common.n_draws(name, p.max_samples, n) or nil
  opts.n_bootstrap = n_boot
  local seeds = common.seeds(p.seed, p.n_estimators)
  local trees
  if p.class_weight == "balanced_subsample" and n_boot then
    trees = {}
    for i, s in ipairs(seeds) do
      opts.seed = s
      local counts = native.bootstrap(s, n, n_boot)
      trees[i] = native.build(X, target, opts, subsample_weights(codes, k, counts, w))
    end
  else
    trees = native.build_forest(X, target, opts, seeds, w)
  end
  local tree_params = {}
  for _, pname in ipairs(tree_class.param_names) do
    if class.schema[pname] then tree_params[pname] = p[pname] end
  end
  tree_params.class_weight = nil
  local estimators, importance = {}, luma.zeros(X:cols(), 1)
  local used = 0
  for i, t in ipairs(trees) do
    if p.ccp_alpha > 0 then t = native.prune(t, p.ccp_alpha) end
    tree_params.seed = seeds[i]
    local fitted = classifier and { classes = self.classes, n_classes = k }
      or { n_outputs = y:cols() }
    fitted.max_features_used = opts.max_features
    estimators[i] = member(tree_class, tree_params, t, fitted)
    if t.node_count > 1 then
      importance = importance + estimators[i].feature_importances
      used = used + 1
    end
  end
  self.estimators = estimators
  self.seeds = seeds
  self.n_bootstrap = n_boot
  self.feature_importances = used > 0 and tree_common.normalized(importance / used) or importance
  if p.oob_score then self:compute_oob(X, y) end
end

-- The average of the trees' outputs (probabilities for classifiers).
local function average(self, X)
  local classifier = self.__class.kind == "classifier"
  local out
  local scale = 1 / #self.estimators
  for _, m in ipairs(self.estimators) do
    out = native.predict(m.tree, X, { out = out, normalize = classifier, scale = scale })
  end
  return out
end

local function compute_oob(self, X, y)
  common.check_oob_data(self, X, y)
  local classifier = self.__class.kind == "classifier"
  local n = X:rows()
  local out = luma.zeros(n, classifier and self.n_classes or self.n_outputs)
  local hits = luma.zeros(n, 1)
  for i, m in ipairs(self.estimators) do
    local counts = native.bootstrap(self.seeds[i], n, self.n_bootstrap)
    native.predict(m.tree, X, { out = out, normalize = classifier, mask = counts:eq(0),
      hits = hits })
  end
  if hits:eq(0):any() then
    common.warn("%s: some rows were in every bootstrap sample; their out-of-bag estimates "
      .. "are NaN (use more estimators)", self.__class.short_name)
  end
  out = out:div(hits) -- 0/0 = NaN where no tree left the row out
  local seen = hits:gt(0)
  if classifier then
    self.oob_decision_function = out
    local pred = self.classes:take(out:argmax(2))
    self.oob_score = pred:eq(y):mul(seen):sum() / seen:sum()
  else
    self.oob_prediction = out
    local rows = luma.arange(1, n):select(seen, 1)
    self.oob_score = estimator.r2_score(y:take(rows), out:take(rows))
  end
end

local FOREST_PARAMS = {
  { name = "n_estimators", type = "integer", default = 100, min = 1, doc = "number of trees" },
  { name = "bootstrap", type = "boolean", default = true,
    doc = "grow each tree on a bootstrap sample (false: on all rows)" },
  { name = "oob_score", type = "boolean", default = false,
    doc = "estimate the score on the out-of-bag rows (oob_score, oob_decision_function / oob_prediction)" },
  { name = "max_samples", type = "number",
    doc = "draws per bootstrap sample: a count or a fraction of n (nil: n)" },
}

local FOREST_DOCS = {
  apply = { signature = "est:apply(X) -> leaves",
    doc = "The leaf of each row in each tree: an n x n_estimators matrix of 1-based node ids." },
  compute_oob = { signature = "est:compute_oob(X, y) -> nothing",
    doc = "Sets the out-of-bag estimates from the training data X, y (fit does it with "
      .. "oob_score = true): each row is predicted by the trees whose bootstrap sample left it "
      .. "out. Returns nothing." },
}

-- defaults: overrides of the tree parameters (tree_common.tree_params);
-- fixed: native options imposed; bootstrap: its default.
local function forest_spec(spec, tree_class, kind, defaults, fixed, bootstrap)
  spec.kind = kind
  spec.params = tree_common.tree_params(kind, defaults)
  for _, extra in ipairs(FOREST_PARAMS) do
    local entry = {}
    for key, v in pairs(extra) do entry[key] = v end
    if entry.name == "bootstrap" then entry.default = bootstrap end
    spec.params[#spec.params + 1] = entry
  end
  spec.fit = function(self, X, y, sample_weight)
    fit_forest(self, X, y, sample_weight, tree_class, fixed)
  end
  spec.compute_oob = compute_oob
  spec.method_docs = FOREST_DOCS
  spec.apply = function(self, X)
    common.fitted_check(self, "apply", X)
    local out = luma.zeros(X:rows(), #self.estimators)
    for i, m in ipairs(self.estimators) do out:col(i):assign(native.apply(m.tree, X)) end
    return out
  end
  if kind == "classifier" then
    spec.predict_proba = function(self, X)
      common.check_X(self.__class.short_name, "predict_proba", X)
      return average(self, X)
    end
    spec.predict = function(self, X)
      return self.classes:take(self:predict_proba(X):argmax(2))
    end
    spec.predict_log_proba = function(self, X)
      return self:predict_proba(X):log()
    end
  else
    spec.predict = function(self, X)
      common.check_X(self.__class.short_name, "predict", X)
      return average(self, X)
    end
  end
  return spec
end

local function iris_example(make)
  return function()
    local X, y = luma.datasets.load("iris")
    return make(), X, y
  end
end

local function diabetes_example(make)
  return function()
    local X, y = luma.datasets.load("diabetes")
    return make(), X:sub(1, 150, 1, 10):copy(), y:sub(1, 150, 1, 1):copy()
  end
end

local CLASS_WEIGHT = { class_weight = { doc = "\"balanced\", \"balanced_subsample\" (balanced "
  .. "within each bootstrap sample), or one weight per class (a table or a k x 1 matrix)" } }

local function with(base, more)
  local out = {}
  for k, v in pairs(base) do out[k] = v end
  for k, v in pairs(more) do out[k] = v end
  return out
end

forest.RandomForestClassifier = estimator.class(forest_spec({
  name = "luma.ensemble.RandomForestClassifier",
  doc = "A random forest of classification trees (Breiman 2001): each tree "
    .. "grown on a bootstrap sample with max_features random features scored per split, the "
    .. "class probabilities averaged. Trees are grown in parallel on the native threads "
    .. "(luma.config{threads = n}); the forest depends only on seed. Fitted: estimators (the "
    .. "trees), classes, feature_importances (mean impurity decrease), and with oob_score: "
    .. "oob_score, oob_decision_function.",
  example = iris_example(function()
    return forest.RandomForestClassifier{ n_estimators = 25, seed = 1, oob_score = true }
  end),
}, cart.DecisionTreeClassifier, "classifier", with(CLASS_WEIGHT, { max_features = { default = "sqrt" } }),
  {}, true))

forest.RandomForestRegressor = estimator.class(forest_spec({
  name = "luma.ensemble.RandomForestRegressor",
  doc = "A random forest of regression trees (Breiman 2001): bootstrap samples, max_features "
    .. "features per split (all by default, as scikit-learn 1.2), predictions averaged. "
    .. "Fitted: estimators, feature_importances, and with oob_score: oob_score (R^2), "
    .. "oob_prediction.",
  example = diabetes_example(function()
    return forest.RandomForestRegressor{ n_estimators = 5, seed = 1, max_depth = 4 }
  end),
}, cart.DecisionTreeRegressor, "regressor", { max_features = { default = 1.0 },
  leaf_model = false, leaf_alpha = false }, {}, true))

forest.ExtraTreesClassifier = estimator.class(forest_spec({
  name = "luma.ensemble.ExtraTreesClassifier",
  doc = "Extremely randomized trees (Geurts, Ernst and Wehenkel 2006): every tree on all rows "
    .. "(bootstrap = false by default), one uniform random threshold per scored feature, "
    .. "probabilities averaged. The same attributes as RandomForestClassifier.",
  example = iris_example(function() return forest.ExtraTreesClassifier{ n_estimators = 5, seed = 1 } end),
}, cart.ExtraTreeClassifier, "classifier", with(CLASS_WEIGHT, { splitter = false,
  max_features = { default = "sqrt" } }), { splitter = "random" }, false))

forest.ExtraTreesRegressor = estimator.class(forest_spec({
  name = "luma.ensemble.ExtraTreesRegressor",
  doc = "Extremely randomized regression trees (Geurts et al. 2006): all rows, random "
    .. "thresholds, all features scored by default, predictions averaged.",
  example = diabetes_example(function()
    return forest.ExtraTreesRegressor{ n_estimators = 5, seed = 1, max_depth = 4 }
  end),
}, cart.ExtraTreeRegressor, "regressor", { splitter = false, max_features = { default = 1.0 },
  leaf_model = false, leaf_alpha = false }, { splitter = "random" }, false))

return forest
