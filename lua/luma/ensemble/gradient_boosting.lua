--- luma.ensemble.gradient_boosting: GradientBoostingClassifier and
-- GradientBoostingRegressor (part of luma.ensemble, docs/ENSEMBLE.md).
--
-- Gradient boosting (Friedman, Greedy Function Approximation, Annals of
-- Statistics 29, 2001), the algorithm of notes 000 §3 "Gradient boosting
-- (§9.3.3)": f_0 = argmin_theta sum_i L(y_i, theta); at each stage the
-- negative gradient r_i = -dL/df at f_{t-1} is fitted by a least-squares
-- regression tree, whose leaf values are then set by a line search in
-- each leaf (Friedman's TreeBoost; for the squared error the leaf mean,
-- i.e. the notes' and notes 003 §1.17's residual fitting), and
-- f_t = f_{t-1} + learning_rate h_t.  The notes write the squared-error
-- gradient "up to the factor 2/N"; the residual y - f is used, as
-- scikit-learn does.  Losses, initial values, leaf updates and the
-- training-loss record follow scikit-learn 1.2's _gb_losses.py; the
-- exponential loss is AdaBoost's (Friedman, Hastie and Tibshirani 2000).
-- subsample < 1 fits each stage on a random fraction of the rows
-- (stochastic gradient boosting, Friedman 2002), n_iter_no_change stops
-- early on a held-out validation_fraction.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.tree.native")
local stats = require("luma.generative.native")
local tree_common = require("luma.tree.common")
local cart = require("luma.tree.cart")
local common = require("luma.ensemble.common")

local fail = common.fail

local gb = {}

-- --------------------------------------------------------- percentiles

-- numpy's percentile (linear interpolation between order statistics).
local function percentile(v, q)
  local s = v:sort(1)
  local pos = q / 100 * (s:rows() - 1)
  local lo = math.floor(pos)
  local frac = pos - lo
  local a = s:get(lo + 1, 1)
  if frac == 0 then return a end
  return a + (s:get(lo + 2, 1) - a) * frac
end

-- scikit-learn's _weighted_percentile: the first sorted value whose
-- cumulative weight reaches q% of the total (no interpolation).
local function weighted_percentile(v, w, q)
  local order = v:argsort(1)
  local sv, sw = v:take(order), w:take(order)
  local cdf = sw:cumsum(1)
  local target = q / 100 * cdf:get(cdf:rows(), 1)
  if target == 0 then target = 5e-324 end
  for i = 1, cdf:rows() do
    if cdf:get(i, 1) >= target then return sv:get(i, 1) end
  end
  return sv:get(sv:rows(), 1)
end

-- The initial constant of the quantile-type losses: numpy's percentile
-- without weights, the weighted one with (as DummyRegressor).
local function init_percentile(y, w, weighted, q)
  if weighted then return weighted_percentile(y, w, q) end
  return percentile(y, q)
end

local function wmean(v, w) return v:mul(w):sum() / w:sum() end

-- Rows of each leaf: tables of row numbers by leaf id.
local function rows_by_leaf(leaves, mask)
  local out = {}
  for i = 1, leaves:rows() do
    if not mask or mask:get(i, 1) ~= 0 then
      local leaf = leaves:get(i, 1)
      local list = out[leaf]
      if not list then
        list = {}
        out[leaf] = list
      end
      list[#list + 1] = i
    end
  end
  return out
end

-- Sets leaf values from per-leaf numerator / denominator sums (the Newton
-- step of the deviance and exponential losses; 0 where the denominator
-- vanishes, as scikit-learn).
local function newton_leaves(tree, leaves, num, den)
  local k = tree.node_count
  local _, sums = stats.sums(luma.hstack{ num, den }, leaves, k)
  local value = tree.value
  for node = 1, k do
    if tree.children_left:get(node, 1) == -1 then
      local d = sums:get(node, 2)
      value:set(node, 1, math.abs(d) < 1e-150 and 0 or sums:get(node, 1) / d)
    end
  end
end

-- ------------------------------------------------------------- losses

-- Each loss: init(y, w, weighted, self) -> 1 x K raw predictions,
-- gradient(y, raw, w, k, self) -> the n x 1 negative gradient for the
-- k-th tree (raw: n x K), leaves(self, tree, leaves, y, raw_k, w, mask,
-- residual, k) setting the leaf values (nil: keep the tree's means), and
-- value(y, raw, w, self), the training loss scikit-learn reports.
local LOSSES = {}

LOSSES.squared_error = {
  init = function(y, w) return luma.full(1, 1, wmean(y, w)) end,
  gradient = function(y, raw) return y - raw end,
  value = function(y, raw, w) return wmean((y - raw):pow(2), w) end,
}

LOSSES.absolute_error = {
  init = function(y, w, weighted) return luma.full(1, 1, init_percentile(y, w, weighted, 50)) end,
  gradient = function(y, raw) return (y - raw):gt(0) * 2 - 1 end,
  leaves = function(_, tree, leaves, y, raw, w, mask)
    for leaf, rows in pairs(rows_by_leaf(leaves, mask)) do
      local idx = luma.matrix(rows)
      tree.value:set(leaf, 1, weighted_percentile(y:take(idx) - raw:take(idx), w:take(idx), 50))
    end
  end,
  value = function(y, raw, w) return wmean((y - raw):abs(), w) end,
}

LOSSES.huber = {
  init = LOSSES.absolute_error.init,
  -- gamma, the alpha quantile of |y - f| (weighted, without interpolation:
  -- scikit-learn passes its unit weights here), is kept for the loss value
  gradient = function(y, raw, w, _, self)
    local diff = y - raw
    local gamma = weighted_percentile(diff:abs(), w, self.params.alpha * 100)
    self.huber_gamma = gamma
    local inside = diff:abs():le(gamma)
    return diff:mul(inside) + diff:sign():mul(1 - inside) * gamma
  end,
  leaves = function(self, tree, leaves, y, raw, w, mask)
    local gamma = self.huber_gamma
    for leaf, rows in pairs(rows_by_leaf(leaves, mask)) do
      local idx = luma.matrix(rows)
      local diff = y:take(idx) - raw:take(idx)
      local median = weighted_percentile(diff, w:take(idx), 50)
      local d = diff - median
      tree.value:set(leaf, 1, median + d:sign():mul(d:abs():minimum(gamma)):mean())
    end
  end,
  value = function(y, raw, w, self)
    local diff = y - raw
    local gamma = self.huber_gamma
    local a = diff:abs()
    local inside = a:le(gamma)
    local l = diff:pow(2):mul(inside) * 0.5 + (a - gamma / 2):mul(1 - inside) * gamma
    return l:mul(w):sum() / w:sum()
  end,
}

LOSSES.quantile = {
  init = function(y, w, weighted, self)
    return luma.full(1, 1, init_percentile(y, w, weighted, self.params.alpha * 100))
  end,
  gradient = function(y, raw, _, _, self)
    local above = y:gt(raw)
    local alpha = self.params.alpha
    return above * alpha - (1 - above) * (1 - alpha)
  end,
  leaves = function(self, tree, leaves, y, raw, w, mask)
    for leaf, rows in pairs(rows_by_leaf(leaves, mask)) do
      local idx = luma.matrix(rows)
      tree.value:set(leaf, 1, weighted_percentile(y:take(idx) - raw:take(idx), w:take(idx),
        self.params.alpha * 100))
    end
  end,
  value = function(y, raw, w, self)
    local alpha = self.params.alpha
    local diff = y - raw
    local above = y:gt(raw)
    return (diff:mul(above):mul(w):sum() * alpha
      - diff:mul(1 - above):mul(w):sum() * (1 - alpha)) / w:sum()
  end,
}

local FLOAT32_EPS = 1.1920928955078125e-07

-- Class priors (weighted frequencies), clipped away from 0 and 1.
local function priors(Y, w)
  return ((w:t() * Y) / w:sum()):clamp(FLOAT32_EPS, 1 - FLOAT32_EPS)
end

LOSSES.binomial = {
  init = function(Y, w)
    local p = priors(Y, w):get(1, 2)
    return luma.full(1, 1, math.log(p / (1 - p)))
  end,
  gradient = function(Y, raw) return Y:col(2) - raw:sigmoid() end,
  leaves = function(_, tree, leaves, Y, _, w, mask, residual)
    local y = Y:col(2)
    local wm = w:mul(mask)
    newton_leaves(tree, leaves, residual:mul(wm), (y - residual):mul(1 - y + residual):mul(wm))
  end,
  -- twice the mean negative log-likelihood, scikit-learn 1.2's "deviance"
  value = function(Y, raw, w)
    local y = Y:col(2)
    local ll = y:mul(raw) - raw:softplus()
    return -2 * ll:mul(w):sum() / w:sum()
  end,
}

LOSSES.multinomial = {
  init = function(Y, w) return priors(Y, w):log() end,
  gradient = function(Y, raw, _, k) return Y:col(k) - raw:softmax(2):col(k) end,
  leaves = function(self, tree, leaves, Y, _, w, mask, residual, k)
    local K = self.n_classes
    local y = Y:col(k)
    local wm = w:mul(mask)
    newton_leaves(tree, leaves, residual:mul(wm) * ((K - 1) / K),
      (y - residual):mul(1 - y + residual):mul(wm))
  end,
  value = function(Y, raw, w)
    local l = raw:logsumexp(2) - Y:mul(raw):sum(2)
    return l:mul(w):sum() / w:sum()
  end,
}

LOSSES.exponential = {
  init = function(Y, w)
    local p = priors(Y, w):get(1, 2)
    return luma.full(1, 1, 0.5 * math.log(p / (1 - p)))
  end,
  gradient = function(Y, raw)
    local s = Y:col(2) * 2 - 1
    return s:mul((-s:mul(raw)):exp())
  end,
  leaves = function(_, tree, leaves, Y, raw, w, mask)
    local s = Y:col(2) * 2 - 1
    local e = (-s:mul(raw)):exp():mul(w):mul(mask)
    newton_leaves(tree, leaves, s:mul(e), e)
  end,
  value = function(Y, raw, w)
    local s = Y:col(2) * 2 - 1
    return (-s:mul(raw)):exp():mul(w):sum() / w:sum()
  end,
}

-- The loss object of a fit: the regression losses by name, log_loss as
-- binomial or multinomial deviance by the number of classes.
local function loss_of(self)
  local name = self.params.loss
  if self.__class.kind == "classifier" then
    if name == "exponential" then
      if self.n_classes ~= 2 then
        fail(4, "%s: loss \"exponential\" is for two classes (y has %d)", self.__class.short_name,
          self.n_classes)
      end
      return LOSSES.exponential, 1
    end
    if self.n_classes == 2 then return LOSSES.binomial, 1 end
    return LOSSES.multinomial, self.n_classes
  end
  return LOSSES[name], 1
end

-- ------------------------------------------------------------ fitting

local function tree_opts(self, X, w)
  local name, p = self.__class.short_name, self.params
  local opts = tree_common.builder_opts(name, {
    criterion = p.criterion, splitter = "best", max_depth = p.max_depth,
    min_samples_split = p.min_samples_split, min_samples_leaf = p.min_samples_leaf,
    min_weight_fraction_leaf = p.min_weight_fraction_leaf, max_features = p.max_features,
    max_leaf_nodes = p.max_leaf_nodes, min_impurity_decrease = p.min_impurity_decrease,
  }, X:rows(), X:cols(), w:sum())
  return opts
end

-- Raw predictions of the first `stages` stages added into raw (n x K).
local function add_stages(self, X, raw, first, last)
  local lr = self.params.learning_rate
  for s = first, last do
    for k, m in ipairs(self.estimators[s]) do
      native.predict(m.tree, X, { out = raw:col(k), scale = lr })
    end
  end
  return raw
end

local function raw_init(self, n)
  return luma.ones(n, 1) * self.init_raw
end

local function fit_gb(self, X, y, sample_weight)
  local class = self.__class
  local name, p = class.short_name, self.params
  local classifier = class.kind == "classifier"
  local w = estimator.check_sample_weight(X, sample_weight)
  self.weighted_fit = w ~= nil
  w = w or luma.ones(X:rows(), 1)
  common.check_X(name, "fit", X)
  local target = y
  if classifier then
    local codes, classes = common.encode_classes(name, y)
    self.classes, self.n_classes = classes, classes:rows()
    target = codes:eq(luma.arange(1, classes:rows()):t()) -- one-hot, n x K
  elseif y:cols() ~= 1 then
    fail(2, "bad argument #2 to 'fit' (%s: y must be one column, got %d)", name, y:cols())
  end
  local loss, K = loss_of(self)
  local rng = estimator.rng(p.seed)
  local Xv, yv, wv
  if p.n_iter_no_change then
    local idx = luma.arange(1, X:rows())
    local tr, te = luma.model_selection.train_test_split(idx, nil, {
      test_size = p.validation_fraction, seed = tree_common.seed_of(rng),
      stratify = classifier and y or nil })
    Xv, yv, wv = X:take(te), target:take(te), w:take(te)
    X, target, w, y = X:take(tr), target:take(tr), w:take(tr), y:take(tr)
    if classifier and target:sum(1):min() == 0 then
      fail(2, "%s: the training rows left after setting aside the validation fraction miss a "
        .. "class; use another seed or a smaller validation_fraction", name)
    end
  end
  local n = X:rows()
  self.init_raw = p.init == "zero" and luma.zeros(1, K) or loss.init(target, w, self.weighted_fit, self)
  local raw = raw_init(self, n)
  local raw_val = Xv and raw_init(self, Xv:rows())
  local opts = tree_opts(self, X, w)
  local n_inbag = math.max(1, math.floor(p.subsample * n))
  self.estimators, self.train_score = {}, {}
  if p.subsample < 1 then self.oob_improvement = {} end
  local history = p.n_iter_no_change and {} or nil
  for stage = 1, p.n_estimators do
    local mask = luma.ones(n, 1)
    local old_oob
    if p.subsample < 1 then
      mask = luma.zeros(n, 1)
      local chosen = rng:permutation(n):sub(1, n_inbag, 1, 1)
      for i = 1, n_inbag do mask:set(chosen:get(i, 1), 1, 1) end
      local out = mask:eq(0)
      if out:sum() > 0 then old_oob = loss.value(target, raw, w:mul(out), self) end
    end
    local before = raw:copy()
    local members = {}
    for k = 1, K do
      local residual = loss.gradient(target, before, w, k, self)
      opts.seed = tree_common.seed_of(rng)
      local tw = w:mul(mask)
      local t = native.build(X, residual, opts, tw)
      if p.ccp_alpha > 0 then t = native.prune(t, p.ccp_alpha) end
      if loss.leaves then
        local leaves = native.apply(t, X)
        loss.leaves(self, t, leaves, target, before:col(k), tw, mask, residual, k)
      end
      native.predict(t, X, { out = raw:col(k), scale = p.learning_rate })
      local m = cart.DecisionTreeRegressor{ criterion = p.criterion, max_depth = p.max_depth }
      rawset(m, "tree", t)
      rawset(m, "n_features_in", X:cols())
      rawset(m, "n_outputs", 1)
      rawset(m, "feature_importances", tree_common.normalized(native.importances(t)))
      rawset(m, "__fitted", true)
      members[k] = m
    end
    self.estimators[stage] = members
    if p.subsample < 1 then
      self.train_score[stage] = loss.value(target, raw, w:mul(mask), self)
      local out = mask:eq(0)
      self.oob_improvement[stage] = old_oob and old_oob - loss.value(target, raw, w:mul(out), self) or 0
    else
      self.train_score[stage] = loss.value(target, raw, w, self)
    end
    if history then
      add_stages(self, Xv, raw_val, stage, stage)
      local v = loss.value(yv, raw_val, wv, self)
      local improved = #history < p.n_iter_no_change
      for _, h in ipairs(history) do
        if v + p.tol < h then improved = true end
      end
      if not improved then break end
      history[(stage - 1) % p.n_iter_no_change + 1] = v
    end
  end
  self.n_estimators_fitted = #self.estimators
  self.train_score = luma.matrix(self.train_score)
  if self.oob_improvement then self.oob_improvement = luma.matrix(self.oob_improvement) end
  -- importances: the mean over trees of their (unnormalized) impurity
  -- decrease, normalized (scikit-learn's)
  local total, count = luma.zeros(X:cols(), 1), 0
  for _, members in ipairs(self.estimators) do
    for _, m in ipairs(members) do
      if m.tree.node_count > 1 then
        total = total + native.importances(m.tree)
        count = count + 1
      end
    end
  end
  self.feature_importances = count > 0 and tree_common.normalized(total / count) or total
  self.weighted_fit, self.huber_gamma = nil, nil
end

-- Iterator over the raw predictions after each stage.
local function staged_raw(self, X)
  local raw = raw_init(self, X:rows())
  local s = 0
  return function()
    s = s + 1
    if s > #self.estimators then return nil end
    add_stages(self, X, raw, s, s)
    return raw:copy()
  end
end

local function raw_predict(self, X)
  common.check_X(self.__class.short_name, "predict", X)
  return add_stages(self, X, raw_init(self, X:rows()), 1, #self.estimators)
end

-- Class probabilities from raw predictions.
local function proba_of(self, raw)
  if self.n_classes == 2 then
    local z = self.params.loss == "exponential" and raw * 2 or raw
    local p = z:sigmoid()
    return luma.hstack{ 1 - p, p }
  end
  return raw:softmax(2)
end

local function labels_of(self, raw)
  if self.n_classes == 2 then
    -- the deviance's argmax of (1 - p, p) keeps a tie in the first class;
    -- scikit-learn's exponential loss takes raw >= 0 as the second
    local second = self.params.loss == "exponential" and raw:ge(0) or raw:gt(0)
    return self.classes:take(second + 1)
  end
  return self.classes:take(raw:argmax(2))
end

local SHARED_PARAMS = {
  { name = "learning_rate", type = "number", default = 0.1, min = 0, doc = "shrinks each stage" },
  { name = "n_estimators", type = "integer", default = 100, min = 1, doc = "boosting stages" },
  { name = "subsample", type = "number", default = 1.0, gt = 0, max = 1,
    doc = "fraction of the rows each stage is fitted on (stochastic gradient boosting)" },
  { name = "criterion", type = "string", default = "friedman_mse",
    values = { "friedman_mse", "squared_error" }, doc = "the trees' split criterion" },
  { name = "min_samples_split", type = "number", default = 2, gt = 0, doc = "as in the trees" },
  { name = "min_samples_leaf", type = "number", default = 1, gt = 0, doc = "as in the trees" },
  { name = "min_weight_fraction_leaf", type = "number", default = 0, min = 0, max = 0.5,
    doc = "as in the trees" },
  { name = "max_depth", type = "integer", default = 3, min = 1, doc = "depth of each tree" },
  { name = "min_impurity_decrease", type = "number", default = 0, min = 0, doc = "as in the trees" },
  { name = "init", type = "string", values = { "zero" },
    doc = "\"zero\" starts from 0 instead of the loss's best constant" },
  { name = "seed", type = "seed", doc = "feature order, subsamples, validation split" },
  { name = "max_features", type = "number|string", doc = "features scored per split (as in the trees)" },
  { name = "max_leaf_nodes", type = "integer", min = 2, doc = "grow trees best-first to this many leaves" },
  { name = "validation_fraction", type = "number", default = 0.1, gt = 0, lt = 1,
    doc = "held-out fraction for early stopping" },
  { name = "n_iter_no_change", type = "integer", min = 1,
    doc = "stop when the validation loss has not improved by tol for this many stages" },
  { name = "tol", type = "number", default = 1e-4, min = 0, doc = "early-stopping tolerance" },
  { name = "ccp_alpha", type = "number", default = 0, min = 0, doc = "prunes each tree" },
}

local function params_with(first)
  local out = { first }
  for _, q in ipairs(SHARED_PARAMS) do out[#out + 1] = q end
  return out
end

local STAGED_DOCS = {
  staged_predict = { signature = "est:staged_predict(X) -> iterator",
    doc = "An iterator over the predictions of X after each stage (for pred in "
      .. "est:staged_predict(X) do ... end). Returns the iterator." },
  staged_decision_function = { signature = "est:staged_decision_function(X) -> iterator",
    doc = "An iterator over the raw predictions (log-odds, or one column per class) after "
      .. "each stage. Returns the iterator." },
  staged_predict_proba = { signature = "est:staged_predict_proba(X) -> iterator",
    doc = "An iterator over the class probabilities after each stage. Returns the iterator." },
}

gb.GradientBoostingClassifier = estimator.class{
  name = "luma.ensemble.GradientBoostingClassifier",
  kind = "classifier",
  doc = "Gradient boosting of regression trees for classification (Friedman 2001): binomial "
    .. "deviance (log_loss, two classes: one tree per stage on the log-odds), multinomial "
    .. "deviance (one tree per class and stage) or the exponential loss (AdaBoost's); leaf "
    .. "values by one Newton step. Fitted: estimators (stages of trees), classes, init_raw, "
    .. "train_score (the loss after each stage), oob_improvement (subsample < 1), "
    .. "feature_importances, n_estimators_fitted.",
  params = params_with({ name = "loss", type = "string", default = "log_loss",
    values = { "log_loss", "exponential" }, doc = "the loss optimized" }),
  example = function()
    local X, y = luma.datasets.load("iris")
    return gb.GradientBoostingClassifier{ n_estimators = 5 }, X, y
  end,
  method_docs = STAGED_DOCS,
  fit = fit_gb,
  decision_function = raw_predict,
  predict_proba = function(self, X) return proba_of(self, raw_predict(self, X)) end,
  predict = function(self, X) return labels_of(self, raw_predict(self, X)) end,
  staged_decision_function = function(self, X)
    common.fitted_check(self, "staged_decision_function", X)
    return staged_raw(self, X)
  end,
  staged_predict = function(self, X)
    common.fitted_check(self, "staged_predict", X)
    local it = staged_raw(self, X)
    return function()
      local raw = it()
      return raw and labels_of(self, raw)
    end
  end,
  staged_predict_proba = function(self, X)
    common.fitted_check(self, "staged_predict_proba", X)
    local it = staged_raw(self, X)
    return function()
      local raw = it()
      return raw and proba_of(self, raw)
    end
  end,
}

gb.GradientBoostingRegressor = estimator.class{
  name = "luma.ensemble.GradientBoostingRegressor",
  kind = "regressor",
  doc = "Gradient boosting of regression trees (Friedman 2001): "
    .. "losses squared_error (residual fitting), absolute_error (leaf medians), huber (alpha: "
    .. "the quantile of |residuals| beyond which the loss is linear) and quantile (alpha: the "
    .. "quantile predicted). Fitted: estimators (stages of one tree), init_raw, train_score, "
    .. "oob_improvement (subsample < 1), feature_importances, n_estimators_fitted.",
  params = (function()
    local list = params_with({ name = "loss", type = "string", default = "squared_error",
      values = { "squared_error", "absolute_error", "huber", "quantile" }, doc = "the loss optimized" })
    list[#list + 1] = { name = "alpha", type = "number", default = 0.9, gt = 0, lt = 1,
      doc = "quantile of the huber and quantile losses" }
    return list
  end)(),
  example = function()
    local X, y = luma.datasets.load("diabetes")
    return gb.GradientBoostingRegressor{ n_estimators = 5 }, X:sub(1, 120, 1, 10):copy(),
      y:sub(1, 120, 1, 1):copy()
  end,
  method_docs = { staged_predict = STAGED_DOCS.staged_predict },
  fit = fit_gb,
  predict = function(self, X) return raw_predict(self, X) end,
  staged_predict = function(self, X)
    common.fitted_check(self, "staged_predict", X)
    return staged_raw(self, X)
  end,
}

return gb
