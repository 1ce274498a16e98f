--- luma.tree.cart: the CART estimators (part of luma.tree, docs/TREE.md):
-- DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier,
-- ExtraTreeRegressor, and the stump conveniences.
--
-- Growth, criteria, stopping rules and pruning are the C kernels of
-- luma.tree.native (src/ml/tree); this file validates, encodes labels and
-- weights, and keeps the grown tree as the plain table `est.tree` (node
-- arrays as matrices, scikit-learn's tree_ layout with 1-based ids), so
-- luma.save stores it and the arrays are readable from Lua.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.tree.native")
local common = require("luma.tree.common")
local linear_leaves = require("luma.tree.linear_leaves")

local args = require("luma.util.args")
local fail = common.fail

local cart = {}

local function iris_example(make)
  return function()
    local X, y = luma.datasets.load("iris")
    return make(), X, y
  end
end

local function diabetes_example(make)
  return function()
    local X, y = luma.datasets.load("diabetes")
    return make(), X:sub(1, 120, 1, 10):copy(), y:sub(1, 120, 1, 1):copy()
  end
end

-- Importances normalized to sum 1 (all zeros for a single leaf).
local function importances(tree)
  return common.normalized(native.importances(tree))
end

-- Grows the tree of a fitted estimator: the shared part of both fits.
-- target: codes (classification) or y; k: classes or nil.
local function grow(self, X, target, w, k)
  local name = self.__class.short_name
  local p = self.params
  local total = w and w:sum() or X:rows()
  local opts = common.builder_opts(name, p, X:rows(), X:cols(), total)
  opts.n_classes = k
  opts.seed = common.seed_of(estimator.rng(p.seed))
  local tree = native.build(X, target, opts, w)
  if p.ccp_alpha > 0 then tree = native.prune(tree, p.ccp_alpha) end
  self.tree = tree
  self.max_features_used = opts.max_features
  self.feature_importances = importances(tree)
end

-- Methods both classes share.
local shared = {
  apply = function(self, X)
    self:check_predict_input("apply", X)
    return native.apply(self.tree, X)
  end,
  decision_path = function(self, X)
    self:check_predict_input("decision_path", X)
    return native.decision_path(self.tree, X)
  end,
  get_depth = function(self)
    self:check_predict_input("get_depth")
    return self.tree.max_depth
  end,
  get_n_leaves = function(self)
    self:check_predict_input("get_n_leaves")
    return common.n_leaves(self.tree)
  end,
  cost_complexity_pruning_path = function(self, X, y, sample_weight)
    local full = self:clone():set_params{ ccp_alpha = 0 }
    args.relay(2, full.fit, full, X, y, sample_weight) -- fit's argument errors blame the caller
    local alphas, impurities = native.prune_path(full.tree)
    return { ccp_alphas = alphas, impurities = impurities }
  end,
  -- fitted-state and column checks of the extra methods (X optional)
  check_predict_input = function(self, method, X)
    if not self:is_fitted() then
      fail(3, "%s: %s called before fit", self.__class.name, method)
    end
    if X == nil then return end
    if not luma.ismatrix(X) then
      fail(3, "bad argument #1 to '%s' (X must be a luma.Matrix, got %s)", method, type(X))
    end
    if X:cols() ~= self.n_features_in then
      fail(3, "bad argument #1 to '%s' (X has %d columns but %s was fitted on %d)", method,
        X:cols(), self.__class.name, self.n_features_in)
    end
  end,
}

local SHARED_DOCS = {
  apply = { signature = "est:apply(X) -> leaves",
    doc = "The leaf each row of X ends in: an n x 1 column of 1-based node ids of est.tree." },
  decision_path = { signature = "est:decision_path(X) -> indicator",
    doc = "The n x node_count indicator matrix of the nodes each row of X passes through "
      .. "(1 where it does). Returns a dense matrix." },
  get_depth = { signature = "est:get_depth() -> integer",
    doc = "The depth of the fitted tree (a single leaf has depth 0). Returns an integer." },
  get_n_leaves = { signature = "est:get_n_leaves() -> integer",
    doc = "The number of leaves of the fitted tree. Returns an integer." },
  cost_complexity_pruning_path = {
    signature = "est:cost_complexity_pruning_path(X, y [, sample_weight = nil]) -> path",
    doc = "Grows the full tree (ccp_alpha = 0) on X, y and returns its minimal "
      .. "cost-complexity pruning path: {ccp_alphas, impurities}, the effective alphas at "
      .. "which subtrees are pruned (ascending, the first 0) and the total leaf impurity of "
      .. "each pruned tree (Breiman et al. 1984, ch. 3). est itself is not changed." },
  check_predict_input = { signature = "est:check_predict_input(method [, X = nil]) -> nothing",
    doc = "Raises the contract's errors for a method called before fit or on X with the "
      .. "wrong number of columns (used by apply, decision_path and the ensembles)." },
}

local function with_shared(spec)
  for k, v in pairs(shared) do spec[k] = spec[k] or v end
  spec.method_docs = spec.method_docs or {}
  for k, v in pairs(SHARED_DOCS) do spec.method_docs[k] = spec.method_docs[k] or v end
  return spec
end

-- ------------------------------------------------------------ classifier

local function classifier_fit(self, X, y, sample_weight)
  local name = self.__class.short_name
  local w = estimator.check_sample_weight(X, sample_weight)
  common.check_X(name, "fit", X)
  local codes, classes = common.encode_classes(name, y)
  w = common.sample_weights(w, codes,
    common.class_weights(name, self.params.class_weight, codes, classes))
  if w and not (w:sum() > 0) then
    fail(2, "bad argument #3 to 'fit' (%s: the class and sample weights sum to 0)", name)
  end
  self.classes = classes
  self.n_classes = classes:rows()
  grow(self, X, codes, w, classes:rows())
end

local function classifier_proba(self, X)
  common.check_X(self.__class.short_name, "predict_proba", X)
  return native.predict(self.tree, X, { normalize = true })
end

local function classifier_spec(spec)
  spec.kind = "classifier"
  spec.fit = classifier_fit
  spec.predict_proba = classifier_proba
  spec.predict = function(self, X)
    return self.classes:take(classifier_proba(self, X):argmax(2))
  end
  spec.predict_log_proba = function(self, X)
    return classifier_proba(self, X):log()
  end
  return with_shared(spec)
end

cart.DecisionTreeClassifier = estimator.class(classifier_spec{
  name = "luma.tree.DecisionTreeClassifier",
  doc = "A CART classification tree (Breiman et al. 1984): greedy axis-parallel splits "
    .. "x_j <= t, t halfway between consecutive distinct values, chosen by the criterion's "
    .. "weighted impurity decrease; depth-first growth, or best-first with max_leaf_nodes. "
    .. "Leaves predict class frequencies (weighted). Fitted: classes, n_classes, tree (the "
    .. "node arrays), feature_importances (normalized impurity decrease), "
    .. "max_features_used. fit(X, y [, sample_weight]).",
  params = common.tree_params("classifier"),
  example = iris_example(function() return cart.DecisionTreeClassifier{ max_depth = 3 } end),
})

cart.ExtraTreeClassifier = estimator.class(classifier_spec{
  name = "luma.tree.ExtraTreeClassifier",
  doc = "An extremely randomized classification tree (Geurts, Ernst and Wehenkel 2006): "
    .. "each split scores one uniform random threshold per feature among max_features "
    .. "random features (\"sqrt\" by default). Meant as the member of ExtraTreesClassifier; "
    .. "the same attributes as DecisionTreeClassifier.",
  params = common.tree_params("classifier", {
    splitter = { default = "random" }, max_features = { default = "sqrt" } }),
  example = iris_example(function() return cart.ExtraTreeClassifier{ seed = 1 } end),
})

-- ------------------------------------------------------------- regressor

local function regressor_fit(self, X, y, sample_weight)
  local name = self.__class.short_name
  local p = self.params
  local w = estimator.check_sample_weight(X, sample_weight)
  common.check_X(name, "fit", X)
  if p.criterion == "poisson" then
    if y:lt(0):any() then
      fail(2, "bad argument #2 to 'fit' (%s: criterion \"poisson\" needs y >= 0)", name)
    end
    if not (y:sum(1):min() > 0) then
      fail(2, "bad argument #2 to 'fit' (%s: criterion \"poisson\" needs a positive sum of y)", name)
    end
  end
  if p.criterion == "absolute_error" and y:cols() ~= 1 then
    fail(2, "bad argument #2 to 'fit' (%s: criterion \"absolute_error\" takes one target "
      .. "column, y has %d)", name, y:cols())
  end
  self.n_outputs = y:cols()
  grow(self, X, y, w, nil)
  if p.leaf_model == "linear" then
    if y:cols() ~= 1 then
      fail(2, "bad argument #2 to 'fit' (%s: leaf_model \"linear\" takes one target column)", name)
    end
    self.leaf_coef, self.leaf_intercept =
      linear_leaves.fit(self.tree, native.apply(self.tree, X), X, y, w, p.leaf_alpha)
  end
end

local function regressor_predict(self, X)
  common.check_X(self.__class.short_name, "predict", X)
  if self.leaf_coef then
    return linear_leaves.predict(self.leaf_coef, self.leaf_intercept,
      native.apply(self.tree, X), X)
  end
  return native.predict(self.tree, X)
end

local LEAF_PARAMS = {
  { name = "leaf_model", type = "string", default = "constant", values = { "constant", "linear" },
    doc = "what a leaf predicts: its mean (or median, for absolute_error), or a ridge "
      .. "regression fitted on its rows (a model tree, as Quinlan's M5, 1992)" },
  { name = "leaf_alpha", type = "number", default = 1, min = 0,
    doc = "ridge penalty of the leaf models (leaf_model = \"linear\")" },
}

local function regressor_spec(spec)
  spec.kind = "regressor"
  spec.fit = regressor_fit
  spec.predict = regressor_predict
  return with_shared(spec)
end

cart.DecisionTreeRegressor = estimator.class(regressor_spec{
  name = "luma.tree.DecisionTreeRegressor",
  doc = "A CART regression tree (Breiman et al. 1984): splits minimize the weighted impurity "
    .. "of the children (squared error by default); leaves predict the mean of their targets "
    .. "(the median for absolute_error), or with leaf_model = \"linear\" a ridge regression "
    .. "on their rows. Several target columns share one tree (squared error, friedman_mse, "
    .. "poisson). Fitted: tree, n_outputs, feature_importances, max_features_used, and "
    .. "leaf_coef (node_count x d) and leaf_intercept for linear leaves.",
  params = common.tree_params("regressor", { extra = LEAF_PARAMS }),
  example = diabetes_example(function() return cart.DecisionTreeRegressor{ max_depth = 4 } end),
})

cart.ExtraTreeRegressor = estimator.class(regressor_spec{
  name = "luma.tree.ExtraTreeRegressor",
  doc = "An extremely randomized regression tree (Geurts, Ernst and Wehenkel 2006): one "
    .. "uniform random threshold per scored feature (all features by default). The member of "
    .. "ExtraTreesRegressor; the same attributes as DecisionTreeRegressor.",
  params = common.tree_params("regressor", {
    splitter = { default = "random" }, max_features = { default = 1.0 }, extra = LEAF_PARAMS }),
  example = diabetes_example(function() return cart.ExtraTreeRegressor{ seed = 1 } end),
})

--- cart.Stump(params) -> DecisionTreeClassifier{max_depth = 1, ...}.
function cart.Stump(params)
  local p = { max_depth = 1 }
  for k, v in pairs(args.options("luma.tree.Stump", 1, params, nil, nil, 2)) do p[k] = v end
  if p.max_depth ~= 1 then fail(2, "luma.tree.Stump: a stump has max_depth = 1") end
  -- (not a tail call, so that its parameter errors blame the caller)
  local tree = args.relay(2, cart.DecisionTreeClassifier, p)
  return tree
end

--- cart.StumpRegressor(params) -> DecisionTreeRegressor{max_depth = 1, ...}.
function cart.StumpRegressor(params)
  local p = { max_depth = 1 }
  for k, v in pairs(args.options("luma.tree.StumpRegressor", 1, params, nil, nil, 2)) do
    p[k] = v
  end
  if p.max_depth ~= 1 then fail(2, "luma.tree.StumpRegressor: a stump has max_depth = 1") end
  local tree = args.relay(2, cart.DecisionTreeRegressor, p)
  return tree
end

luma.doc.set_members(cart, "luma.tree", {
  Stump = { signature = "Stump([params = {}]) -> DecisionTreeClassifier",
    doc = "A decision stump (Iba and Langley 1992): a DecisionTreeClassifier with max_depth = 1, "
      .. "one split on one feature, the weak learner of boosting (it takes sample weights). "
      .. "params are the classifier's others. Returns the unfitted estimator." },
  StumpRegressor = { signature = "StumpRegressor([params = {}]) -> DecisionTreeRegressor",
    doc = "A regression stump: a DecisionTreeRegressor with max_depth = 1. Returns the "
      .. "unfitted estimator." },
})

return cart
