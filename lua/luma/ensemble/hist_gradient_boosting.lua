--- luma.ensemble.hist_gradient_boosting: HistGradientBoostingClassifier
-- and HistGradientBoostingRegressor (part of luma.ensemble,
-- docs/ENSEMBLE.md), the fast path for large data.
--
-- scikit-learn 1.2's histogram gradient boosting (after LightGBM, Ke et
-- al. 2017): features binned once into at most 255 quantile bins (NaN in
-- its own bin), then per iteration the gradients and hessians of the loss
-- and one tree per output grown leaf-wise on per-bin sums, with
-- histogram subtraction, L2 regularization of the leaf values and missing
-- values sent to the better side of each split.  All of that is C
-- (luma.ensemble.native, src/ml/ensemble/hist.c), on the native threads;
-- this file keeps the boosting loop, the losses' starting values and
-- early stopping.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.ensemble.native")
local tree_common = require("luma.tree.common")
local common = require("luma.ensemble.common")

local fail = common.fail

local hgb = {}

local EPS10 = 10 * 2.220446049250313e-16

local function wmean(v, w)
  if w then return v:mul(w):sum() / w:sum() end
  return v:mean()
end

-- Each loss: the native gradient name, the starting raw prediction (a
-- 1 x K row) and the loss value (scikit-learn's, for early stopping).
local LOSSES = {
  squared_error = {
    native = "squared_error",
    baseline = function(y, w) return luma.full(1, 1, wmean(y, w)) end,
    value = function(y, raw, w) return wmean((y - raw):pow(2) * 0.5, w) end,
  },
  poisson = {
    native = "poisson",
    baseline = function(y, w) return luma.full(1, 1, math.log(wmean(y, w))) end,
    -- half Poisson deviance without the terms constant in raw
    value = function(y, raw, w) return wmean(raw:exp() - y:mul(raw), w) end,
  },
  binomial = {
    native = "binomial",
    baseline = function(codes, w)
      local p = math.min(math.max(wmean(codes, w), EPS10), 1 - EPS10)
      return luma.full(1, 1, math.log(p / (1 - p)))
    end,
    value = function(codes, raw, w) return wmean(raw:softplus() - codes:mul(raw), w) end,
  },
  multinomial = {
    native = "multinomial",
    baseline = function(codes, w, K)
      local onehot = codes:eq(luma.arange(0, K - 1):t())
      local p = (w and (w:t() * onehot) / w:sum() or onehot:mean(1)):clamp(EPS10, 1 - EPS10)
      local lp = p:log()
      return lp - lp:mean() -- the symmetric multinomial logit
    end,
    value = function(codes, raw, w, K)
      local onehot = codes:eq(luma.arange(0, K - 1):t())
      return wmean(raw:logsumexp(2) - onehot:mul(raw):sum(2), w)
    end,
  },
}

local function check_X(name, method, X)
  if X:rows() < 1 or X:cols() < 1 then
    fail(3, "bad argument #1 to '%s' (%s: X is %d x %d, it needs rows and columns)", method,
      name, X:rows(), X:cols())
  end
  if X:abs():eq(math.huge):any() then
    fail(3, "bad argument #1 to '%s' (%s: X has an infinite value; NaN marks a missing value)",
      method, name)
  end
end

local function fit_hgb(self, X, y, sample_weight)
  local class = self.__class
  local name, p = class.short_name, self.params
  local classifier = class.kind == "classifier"
  local w = estimator.check_sample_weight(X, sample_weight)
  check_X(name, "fit", X)
  local loss, K, target
  if classifier then
    local codes, classes = common.encode_classes(name, y)
    self.classes, self.n_classes = classes, classes:rows()
    K = classes:rows() > 2 and classes:rows() or 1
    loss = K > 1 and LOSSES.multinomial or LOSSES.binomial
    target = codes - 1
  else
    if y:cols() ~= 1 then
      fail(2, "bad argument #2 to 'fit' (%s: y must be one column, got %d)", name, y:cols())
    end
    loss, K, target = LOSSES[p.loss], 1, y
    if p.loss == "poisson" and (y:lt(0):any() or not (wmean(y, w) > 0)) then
      fail(2, "bad argument #2 to 'fit' (%s: loss \"poisson\" needs y >= 0 with a positive mean)", name)
    end
  end
  local rng = estimator.rng(p.seed)
  local stop_early = p.early_stopping == true or (p.early_stopping == "auto" and X:rows() > 10000)
  local Xv, tv, wv
  if stop_early then
    local tr, te = luma.model_selection.train_test_split(luma.arange(1, X:rows()), nil, {
      test_size = p.validation_fraction, seed = tree_common.seed_of(rng),
      stratify = classifier and y or nil })
    Xv, tv, wv = X:take(te), target:take(te), w and w:take(te)
    X, target, w = X:take(tr), target:take(tr), w and w:take(tr)
  end
  local n = X:rows()
  local binned, thresholds, n_bins = native.bin(X, { max_bins = p.max_bins,
    seed = tree_common.seed_of(rng) })
  self.bin_thresholds, self.n_bins = thresholds, n_bins
  self.baseline = loss.baseline(target, w, K)
  local raw = luma.ones(n, 1) * self.baseline
  local g, h = luma.zeros(n, K), luma.zeros(n, K)
  local opts = { max_leaf_nodes = p.max_leaf_nodes, max_depth = p.max_depth,
    min_samples_leaf = p.min_samples_leaf, l2_regularization = p.l2_regularization,
    learning_rate = p.learning_rate, constant_hessian = p.loss == "squared_error" and w == nil }
  self.trees, self.n_trees_per_iteration = {}, K
  local raw_val = Xv and luma.ones(Xv:rows(), 1) * self.baseline
  local scores = {}
  if stop_early then scores[1] = -loss.value(tv, raw_val, wv, K) end
  for it = 1, p.max_iter do
    native.gradients(loss.native, target, raw, g, h, w)
    local stage = {}
    for k = 1, K do stage[k] = native.grow(binned, g, h, k, opts, raw) end
    self.trees[it] = stage
    if stop_early then
      for k = 1, K do native.predict(stage[k], Xv, raw_val, k) end
      scores[#scores + 1] = -loss.value(tv, raw_val, wv, K)
      -- scikit-learn's rule: stop when none of the last n_iter_no_change
      -- scores beats the one before them by more than tol
      local ref_pos = p.n_iter_no_change + 1
      if #scores >= ref_pos then
        local reference = scores[#scores - ref_pos + 1] + p.tol
        local improved = false
        for i = #scores - ref_pos + 2, #scores do
          if scores[i] > reference then improved = true end
        end
        if not improved then break end
      end
    end
  end
  self.n_iter = #self.trees
  self.train_score = -loss.value(target, raw, w, K)
  if stop_early then self.validation_score = luma.matrix(scores) end
end

-- Raw predictions after the first `last` iterations.
local function raw_predict(self, X, last)
  local raw = luma.ones(X:rows(), 1) * self.baseline
  for it = 1, last or #self.trees do
    for k, t in ipairs(self.trees[it]) do native.predict(t, X, raw, k) end
  end
  return raw
end

local function checked_raw(self, X, method)
  check_X(self.__class.short_name, method, X)
  return raw_predict(self, X)
end

local function staged(self, X, method, transform)
  common.fitted_check(self, method, X)
  check_X(self.__class.short_name, method, X)
  local raw = luma.ones(X:rows(), 1) * self.baseline
  local it = 0
  return function()
    it = it + 1
    if it > #self.trees then return nil end
    for k, t in ipairs(self.trees[it]) do native.predict(t, X, raw, k) end
    return transform(raw)
  end
end

local function proba_of(self, raw)
  if self.n_trees_per_iteration == 1 then
    local p = raw:sigmoid()
    return luma.hstack{ 1 - p, p }
  end
  return raw:softmax(2)
end

local function labels_of(self, raw)
  if self.n_trees_per_iteration == 1 then return self.classes:take(raw:gt(0) + 1) end
  return self.classes:take(raw:argmax(2))
end

local PARAMS = {
  { name = "learning_rate", type = "number", default = 0.1, gt = 0, doc = "shrinks each tree" },
  { name = "max_iter", type = "integer", default = 100, min = 1, doc = "boosting iterations" },
  { name = "max_leaf_nodes", type = "integer", default = 31, min = 2, doc = "leaves per tree" },
  { name = "max_depth", type = "integer", min = 1, doc = "depth limit of the trees (nil: none)" },
  { name = "min_samples_leaf", type = "integer", default = 20, min = 1, doc = "least samples per leaf" },
  { name = "l2_regularization", type = "number", default = 0, min = 0,
    doc = "L2 penalty of the leaf values (added to the hessian sums)" },
  { name = "max_bins", type = "integer", default = 255, min = 2, max = 255,
    doc = "bins per feature (missing values get one more)" },
  { name = "early_stopping", type = "string|boolean", default = "auto", values = { "auto", true, false },
    doc = "stop when the validation loss stalls (\"auto\": when there are more than 10,000 rows)" },
  { name = "validation_fraction", type = "number", default = 0.1, gt = 0, lt = 1,
    doc = "held-out fraction for early stopping" },
  { name = "n_iter_no_change", type = "integer", default = 10, min = 1,
    doc = "iterations without improvement before stopping" },
  { name = "tol", type = "number", default = 1e-7, min = 0, doc = "the improvement that counts" },
  { name = "seed", type = "seed", doc = "the validation split and the binning subsample" },
}

local function with_loss(entry)
  local out = { entry }
  for _, q in ipairs(PARAMS) do out[#out + 1] = q end
  return out
end

local STAGED_DOCS = {
  staged_predict = { signature = "est:staged_predict(X) -> iterator",
    doc = "An iterator over the predictions of X after each iteration. Returns the iterator." },
  staged_decision_function = { signature = "est:staged_decision_function(X) -> iterator",
    doc = "An iterator over the raw predictions after each iteration. Returns the iterator." },
  staged_predict_proba = { signature = "est:staged_predict_proba(X) -> iterator",
    doc = "An iterator over the class probabilities after each iteration. Returns the iterator." },
}

local FITTED = "Fitted: trees (per iteration, one tree table per output), baseline, "
  .. "bin_thresholds (d x 255, NaN padded), n_bins, n_iter, train_score and, with early "
  .. "stopping, validation_score (minus the loss, from before the first iteration)."

hgb.HistGradientBoostingClassifier = estimator.class{
  name = "luma.ensemble.HistGradientBoostingClassifier",
  kind = "classifier",
  doc = "Histogram gradient boosting for classification (scikit-learn's, after LightGBM): "
    .. "binary (one tree per iteration on the log-odds) or multinomial (one per class) log "
    .. "loss; features in at most 255 quantile bins, trees grown leaf-wise on histograms, NaN "
    .. "handled natively (sent to the better side of each split). " .. FITTED,
  params = with_loss({ name = "loss", type = "string", default = "log_loss", values = { "log_loss" },
    doc = "the loss (binary or multinomial log loss)" }),
  example = function()
    local X, y = luma.datasets.load("iris")
    return hgb.HistGradientBoostingClassifier{ max_iter = 5 }, X, y
  end,
  method_docs = STAGED_DOCS,
  fit = fit_hgb,
  decision_function = function(self, X) return checked_raw(self, X, "decision_function") end,
  predict_proba = function(self, X) return proba_of(self, checked_raw(self, X, "predict_proba")) end,
  predict = function(self, X) return labels_of(self, checked_raw(self, X, "predict")) end,
  staged_decision_function = function(self, X)
    return staged(self, X, "staged_decision_function", function(raw) return raw:copy() end)
  end,
  staged_predict = function(self, X)
    return staged(self, X, "staged_predict", function(raw) return labels_of(self, raw) end)
  end,
  staged_predict_proba = function(self, X)
    return staged(self, X, "staged_predict_proba", function(raw) return proba_of(self, raw) end)
  end,
}

hgb.HistGradientBoostingRegressor = estimator.class{
  name = "luma.ensemble.HistGradientBoostingRegressor",
  kind = "regressor",
  doc = "Histogram gradient boosting for regression (scikit-learn's, after LightGBM): "
    .. "squared error, or Poisson deviance with a log link; features in at most 255 quantile "
    .. "bins, trees grown leaf-wise on histograms, NaN handled natively. " .. FITTED,
  params = with_loss({ name = "loss", type = "string", default = "squared_error",
    values = { "squared_error", "poisson" }, doc = "the loss" }),
  example = function()
    local X, y = luma.datasets.load("diabetes")
    return hgb.HistGradientBoostingRegressor{ max_iter = 5 }, X, y
  end,
  method_docs = { staged_predict = STAGED_DOCS.staged_predict },
  fit = fit_hgb,
  predict = function(self, X)
    local raw = checked_raw(self, X, "predict")
    return self.params.loss == "poisson" and raw:exp() or raw
  end,
  staged_predict = function(self, X)
    local poisson = self.params.loss == "poisson"
    return staged(self, X, "staged_predict", function(raw)
      return poisson and raw:exp() or raw:copy()
    end)
  end,
}

return hgb
