--- luma.tree.common: what the tree classes (luma.tree) and the tree
-- ensembles (luma.ensemble) share: the parameter schema of a tree, its
-- resolution into the options of the native builder (luma.tree.native),
-- input checks, class weights, and prediction from the tree tables.
-- Not an estimator module itself.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local native = require("luma.tree.native")

local common = {}

local fail = args.fail
common.fail = fail

common.CLASSIFICATION_CRITERIA = { "gini", "entropy", "log_loss", "misclassification",
                                   "gain_ratio", "entropy_ratio" }
common.REGRESSION_CRITERIA = { "squared_error", "friedman_mse", "absolute_error", "poisson" }

--- common.tree_params(kind, overrides) -> schema list: the parameters of a
-- CART tree (scikit-learn's names and defaults) for "classifier" or
-- "regressor"; overrides[name] replaces fields of one entry (defaults of
-- the ensembles), overrides[name] = false drops it.
function common.tree_params(kind, overrides)
  overrides = overrides or {}
  local classifier = kind == "classifier"
  local list = {
    { name = "criterion", type = "string",
      default = classifier and "gini" or "squared_error",
      values = classifier and common.CLASSIFICATION_CRITERIA or common.REGRESSION_CRITERIA,
      doc = classifier and "split quality: gini, entropy (bits; log_loss is the same), "
        .. "misclassification (the 0-1 cost), gain_ratio (C4.5: entropy gain / split "
        .. "information), entropy_ratio (entropy gain / H(Y) of the node)"
        or "split quality: squared_error, friedman_mse, absolute_error (one target), poisson" },
    { name = "splitter", type = "string", default = "best", values = { "best", "random" },
      doc = "best threshold of each feature, or one uniform random threshold (extremely "
        .. "randomized trees)" },
    { name = "max_depth", type = "integer", min = 1, doc = "deepest level (the root is 0); nil: unlimited" },
    { name = "min_samples_split", type = "number", default = 2, gt = 0,
      doc = "least samples to split a node: an integer >= 2, or a fraction of n in (0, 1]" },
    { name = "min_samples_leaf", type = "number", default = 1, gt = 0,
      doc = "least samples in a leaf: an integer >= 1, or a fraction of n in (0, 1)" },
    { name = "min_weight_fraction_leaf", type = "number", default = 0, min = 0, max = 0.5,
      doc = "least fraction of the total sample weight in a leaf" },
    { name = "max_features", type = "number|string",
      doc = "features scored per split: an integer, a fraction of d, \"sqrt\", \"log2\"; nil: all" },
    { name = "max_leaf_nodes", type = "integer", min = 2,
      doc = "grow best-first (the largest impurity decrease first) up to this many leaves" },
    { name = "min_impurity_decrease", type = "number", default = 0, min = 0,
      doc = "split only when the weighted impurity decrease is at least this" },
    { name = "ccp_alpha", type = "number", default = 0, min = 0,
      doc = "minimal cost-complexity pruning strength (0: no pruning)" },
    { name = "seed", type = "seed", doc = "random feature order and thresholds (integer or generator)" },
  }
  if classifier then
    list[#list + 1] = { name = "class_weight", type = "string|table|matrix",
      doc = "\"balanced\" (n / (k n_c)), or one weight per class (a table label = weight, or a "
        .. "k x 1 matrix in the order of the sorted classes)" }
  end
  local out = {}
  for _, p in ipairs(list) do
    local o = overrides[p.name]
    if o ~= false then
      if o then for k, v in pairs(o) do p[k] = v end end
      out[#out + 1] = p
    end
  end
  for _, p in ipairs(overrides.extra or {}) do out[#out + 1] = p end
  return out
end

--- common.check_X(name, method, X, argn): X finite, else an error naming
-- the first bad element and the estimators that take missing values.
function common.check_X(name, method, X, argn)
  if X:rows() < 1 or X:cols() < 1 then
    fail(3, "bad argument #%d to '%s' (%s: X is %d x %d, it needs rows and columns)",
      argn or 1, method, name, X:rows(), X:cols())
  end
  if X:isfinite():all() then return end
  local bad = X:isfinite():eq(0)
  for i = 1, X:rows() do
    for j = 1, X:cols() do
      if bad:get(i, j) ~= 0 then
        local v = X:get(i, j)
        fail(3, "bad argument #%d to '%s' (%s: X has %s at row %d, column %d; trees need "
          .. "finite values: impute them, or use HistGradientBoostingClassifier/Regressor, "
          .. "which handle missing values)", argn or 1, method, name,
          v ~= v and "NaN" or tostring(v), i, j)
      end
    end
  end
end

-- An integer count or a fraction of n (scikit-learn: integers are
-- counts, other numbers fractions).
local function count_or_fraction(name, key, v, n, min_count, max_fraction)
  if math.type(v) == "integer" then
    if v < min_count then
      fail(4, "%s: %s must be an integer >= %d or a fraction, got %d", name, key, min_count, v)
    end
    return v
  end
  if not (v > 0 and v <= max_fraction) then
    fail(4, "%s: %s must be an integer >= %d or a fraction in (0, %g], got %s", name, key,
      min_count, max_fraction, tostring(v))
  end
  return math.max(min_count, math.ceil(v * n))
end

--- common.max_features(name, v, d) -> integer in 1..d.
function common.max_features(name, v, d)
  if v == nil then return d end
  if v == "sqrt" then return math.max(1, math.floor(math.sqrt(d))) end
  if v == "log2" then return math.max(1, math.floor(math.log(d, 2))) end
  if type(v) == "string" then
    fail(4, "%s: max_features must be an integer, a fraction, \"sqrt\" or \"log2\", got %q",
      name, v)
  end
  if math.type(v) == "integer" then
    if v < 1 or v > d then
      fail(4, "%s: max_features = %d is outside 1..%d (X has %d features)", name, v, d, d)
    end
    return v
  end
  if not (v > 0 and v <= 1) then
    fail(4, "%s: max_features = %s must be a fraction in (0, 1] (or an integer count)", name,
      tostring(v))
  end
  return math.max(1, math.floor(v * d))
end

--- common.seed_of(rng) -> an integer seed for the native builder.
function common.seed_of(rng)
  return rng:integers(math.mininteger, math.maxinteger)
end

--- common.builder_opts(name, p, n, d, total_weight) -> the native
-- options of a tree with parameters p on n rows and d features (without
-- seed, n_classes, n_bootstrap).
function common.builder_opts(name, p, n, d, total_weight)
  local msl = count_or_fraction(name, "min_samples_leaf", p.min_samples_leaf, n, 1, 0.5)
  if 2 * msl > n then
    fail(4, "%s: min_samples_leaf = %d is more than half of the %d samples, so no split could "
      .. "leave that many on both sides", name, msl, n)
  end
  local mss = count_or_fraction(name, "min_samples_split", p.min_samples_split, n, 2, 1)
  local criterion = p.criterion == "log_loss" and "entropy" or p.criterion
  return {
    criterion = criterion,
    splitter = p.splitter,
    max_depth = p.max_depth,
    min_samples_split = math.max(mss, 2 * msl),
    min_samples_leaf = msl,
    min_weight_leaf = p.min_weight_fraction_leaf * total_weight,
    min_impurity_decrease = p.min_impurity_decrease,
    max_features = common.max_features(name, p.max_features, d),
    max_leaf_nodes = p.max_leaf_nodes,
  }
end

--- common.encode_classes(name, y) -> codes, classes: y (one column of
-- labels) as codes 1..k; fewer than two classes is an error.
function common.encode_classes(name, y)
  if y:cols() ~= 1 then
    fail(3, "bad argument #2 to 'fit' (%s: y must be one column of labels, got %d columns)",
      name, y:cols())
  end
  local codes, classes = estimator.encode_labels(y)
  if classes:rows() < 2 then
    fail(3, "bad argument #2 to 'fit' (%s needs at least two classes; y has only %s)", name,
      string.format("%.17g", classes:get(1, 1)))
  end
  return codes, classes
end

--- common.class_weights(name, spec, codes, classes) -> k x 1 weights per
-- class, or nil: "balanced" gives n / (k n_c) (King and Zeng 2001, as
-- scikit-learn), a table label = weight or a k x 1 matrix gives them as
-- they are (missing labels weigh 1).
function common.class_weights(name, spec, codes, classes)
  if spec == nil then return nil end
  local k = classes:rows()
  if spec == "balanced" then
    local counts = luma.zeros(k, 1)
    for i = 1, codes:rows() do
      local c = codes:get(i, 1)
      counts:set(c, 1, counts:get(c, 1) + 1)
    end
    return counts:pow(-1) * (codes:rows() / k)
  end
  if type(spec) == "string" then
    fail(4, "%s: class_weight must be \"balanced\", a table or a matrix, got %q", name, spec)
  end
  local w
  if luma.ismatrix(spec) then
    if spec:rows() ~= k or spec:cols() ~= 1 then
      fail(4, "%s: class_weight must be %d x 1 (one weight per class), got %d x %d", name, k,
        spec:rows(), spec:cols())
    end
    w = spec:copy()
  else
    w = luma.ones(k, 1)
    for label, v in pairs(spec) do
      local found
      for c = 1, k do
        if classes:get(c, 1) == label then found = c end
      end
      if not found then fail(4, "%s: class_weight names %s, which is not a class", name, tostring(label)) end
      if type(v) ~= "number" then fail(4, "%s: class_weight[%s] must be a number", name, tostring(label)) end
      w:set(found, 1, v)
    end
  end
  if not w:isfinite():all() or w:lt(0):any() then
    fail(4, "%s: class weights must be finite and >= 0", name)
  end
  return w
end

--- common.sample_weights(w, codes, class_w) -> the per-sample weights
-- (class weights times the given ones), or nil when neither is given.
function common.sample_weights(w, codes, class_w)
  if not class_w then return w end
  local per = class_w:take(codes)
  return w and per:mul(w) or per
end

--- common.predict_tree(tree, X [, opts]): the native prediction (see
-- luma.tree.native.predict).
common.predict_tree = native.predict

--- common.n_leaves(tree) -> the number of leaves.
function common.n_leaves(tree)
  return math.tointeger(tree.children_left:eq(-1):sum())
end

--- common.normalized(v) -> v / sum(v) when the sum is positive, else v.
function common.normalized(v)
  local s = v:sum()
  if s > 0 then return v / s end
  return v
end

return common
