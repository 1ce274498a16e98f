--- luma.linear.sgd: SGDClassifier and SGDRegressor (part of luma.linear,
-- docs/LINEAR.md), scikit-learn 1.2's plain SGD on a dense or a sparse X.
--
-- The steps are native (luma.linear.native.sgd, src/ml/linear/sgd.c):
-- one sample at a time in a new random order each epoch, the schedules
-- "optimal" (Bottou: 1 / (alpha (t0 + t))), "constant" and "invscaling",
-- the l2 part of the penalty as a shrink of the weights and the l1 part
-- as Tsuruoka et al.'s cumulative penalty; training stops after
-- n_iter_no_change epochs whose summed loss does not improve on the best
-- by tol n.  The notes' SGD for linear SVMs is loss = "hinge".  More than
-- two classes are one-vs-rest.  The random order comes from Luma's
-- generator, so fits match scikit-learn in accuracy and coefficients
-- closely, not bit for bit; and a sparse X's intercept moves as a dense
-- one's (scikit-learn damps it by 0.01), so sparse and dense give the
-- same model.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local special = require("luma.special")
local core = require("luma.linear.native")
local fail, warning = common.fail, common.warning

local M = {}

local function shared_params(loss_values, loss_default, rate_default, eta0_default, power_default)
  return {
    { name = "loss", type = "string", default = loss_default, values = loss_values, doc = "the loss" },
    { name = "penalty", type = "string", default = "l2", values = { "l2", "l1", "elasticnet", "none" },
      doc = "the penalty" },
    { name = "alpha", type = "number", default = 1e-4, min = 0,
      doc = "penalty strength (also sets the optimal schedule)" },
    { name = "l1_ratio", type = "number", default = 0.15, min = 0, max = 1,
      doc = "elasticnet: the share of the l1 penalty" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an intercept" },
    { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "epochs at most" },
    { name = "tol", type = "number|boolean", default = 1e-3,
      doc = "stop when the epoch loss does not improve by tol n (false: run max_iter epochs)" },
    { name = "shuffle", type = "boolean", default = true, doc = "a new sample order each epoch" },
    { name = "learning_rate", type = "string", default = rate_default,
      values = { "optimal", "constant", "invscaling" }, doc = "the step-size schedule" },
    { name = "eta0", type = "number", default = eta0_default, min = 0,
      doc = "initial step (constant, invscaling)" },
    { name = "power_t", type = "number", default = power_default, doc = "invscaling's exponent" },
    { name = "n_iter_no_change", type = "integer", default = 5, min = 1,
      doc = "epochs without improvement before stopping" },
    { name = "seed", type = "seed", doc = "the sample order" },
  }
end

-- One run of the native SGD on targets yt (n x 1); returns w, b, epochs.
local function run(self, X, yt, sw, rng)
  local p = self.params
  if p.tol == true then fail(4, "%s: tol must be a number or false", self.__class.name) end
  if p.learning_rate ~= "optimal" and not (p.eta0 > 0) then
    fail(4, "%s: learning_rate \"%s\" needs eta0 > 0", self.__class.name, p.learning_rate)
  end
  if p.learning_rate == "optimal" and not (p.alpha > 0) then
    fail(4, "%s: learning_rate \"optimal\" needs alpha > 0", self.__class.name)
  end
  local w, b = luma.zeros(X:cols(), 1), luma.zeros(1, 1)
  local opts = { loss = p.loss, penalty = p.penalty, alpha = p.alpha, l1_ratio = p.l1_ratio,
    learning_rate = p.learning_rate, eta0 = p.eta0, power_t = p.power_t,
    fit_intercept = p.fit_intercept, shuffle = p.shuffle, max_iter = p.max_iter,
    n_iter_no_change = p.n_iter_no_change, sample_weight = sw }
  if p.tol ~= false then opts.tol = p.tol end
  local _, _, epochs, converged = core.sgd(X, yt, w, b, opts, rng)
  if not converged and p.tol ~= false then
    warning("%s did not converge in %d epochs; raise max_iter", self.__class.short_name, epochs)
  end
  return w, b:get(1, 1), epochs
end

-- X finite, and a CSR if sparse (the steps read rows).
local function prepare(X)
  args.finite(X, 1, "fit", 4)
  return luma.sparse.issparse(X) and X:tocsr() or X
end

M.SGDClassifier = estimator.class{
  name = "luma.linear.SGDClassifier", kind = "classifier",
  doc = "Linear classifier by stochastic gradient descent, as scikit-learn's SGDClassifier: "
    .. "loss \"hinge\" (a linear SVM), \"log_loss\" (logistic regression), \"modified_huber\" "
    .. "or \"squared_error\"; penalty l2, l1 or elasticnet; learning rates optimal (Bottou), "
    .. "constant, invscaling. One-vs-rest beyond two classes. X may be sparse. Fitted: "
    .. "classes, coef (d x 1 for two classes, else d x K), intercept, n_iter.",
  params = shared_params({ "hinge", "log_loss", "modified_huber", "squared_error" }, "hinge",
    "optimal", 0, 0.5),
  sparse = true,
  example = function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 }, { 2, 2 }, { 5, 5 } }
    return M.SGDClassifier{ seed = 0 }, X, luma.matrix{ 1, 1, 2, 1, 2, 2, 1, 2 }
  end,
  fit = function(self, X, y, sample_weight)
    X = prepare(X)
    local sw = estimator.check_sample_weight(X, sample_weight)
    local codes, classes = estimator.encode_labels(y)
    local K = classes:rows()
    if K < 2 then
      fail(3, "luma.linear.SGDClassifier: y has a single class; a classifier needs at least two")
    end
    local rng = estimator.rng(self.params.seed)
    self.classes = classes
    if K == 2 then
      local w, b, epochs = run(self, X, codes:eq(2) * 2 - 1, sw, rng)
      self.coef, self.intercept, self.n_iter = w, b, epochs
      return
    end
    self.coef, self.intercept, self.n_iter = luma.zeros(X:cols(), K), luma.zeros(1, K), 0
    for k = 1, K do
      local w, b, epochs = run(self, X, codes:eq(k) * 2 - 1, sw, rng)
      self.coef:col(k):assign(w)
      self.intercept:set(1, k, b)
      self.n_iter = math.max(self.n_iter, epochs)
    end
  end,
  check_state = common.check_linear_state,
  decision_function = function(self, X) return X * self.coef + self.intercept end,
  predict_proba = function(self, X)
    local loss = self.params.loss
    if loss ~= "log_loss" and loss ~= "modified_huber" then
      fail(2, "luma.linear.SGDClassifier: predict_proba needs loss \"log_loss\" or "
        .. "\"modified_huber\", not \"%s\"", loss)
    end
    local scores = X * self.coef + self.intercept
    local P = loss == "log_loss" and special.expit(scores) or (scores:clamp(-1, 1) + 1) / 2
    if P:cols() == 1 then return luma.hstack{ P * -1 + 1, P } end
    local total = P:sum(2)
    -- rows where every class scores 0 (modified_huber): uniform, as scikit-learn
    local zero = total:eq(0)
    return luma.matrix.where(zero, 1 / P:cols(), P:div(luma.matrix.where(zero, 1, total)))
  end,
  predict = function(self, X)
    local scores = X * self.coef + self.intercept
    local codes = scores:cols() == 1 and scores:gt(0) + 1 or scores:argmax(2)
    return estimator.decode_labels(codes, self.classes)
  end,
}

M.SGDRegressor = estimator.class{
  name = "luma.linear.SGDRegressor", kind = "regressor",
  doc = "Linear regression by stochastic gradient descent, as scikit-learn's SGDRegressor "
    .. "(loss \"squared_error\"; penalty l2, l1 or elasticnet; learning rate invscaling "
    .. "eta0 / t^power_t by default, or constant, optimal). X may be sparse. Fitted: coef "
    .. "(d x 1), intercept, n_iter.",
  params = shared_params({ "squared_error" }, "squared_error", "invscaling", 0.01, 0.25),
  sparse = true,
  example = common.regression_example(function() return M.SGDRegressor{ seed = 0 } end),
  fit = function(self, X, y, sample_weight)
    X = prepare(X)
    local sw = estimator.check_sample_weight(X, sample_weight)
    if y:cols() ~= 1 then fail(3, "bad argument #2 to 'fit' (SGDRegressor takes one target column)") end
    local w, b, epochs = run(self, X, y, sw, estimator.rng(self.params.seed))
    self.coef, self.intercept, self.n_iter = w, b, epochs
  end,
  check_state = common.check_linear_state,
  predict = common.predict_linear,
}

return M
