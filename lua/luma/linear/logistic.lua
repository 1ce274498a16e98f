--- luma.linear.logistic: LogisticRegression (re-exported by luma.linear).
--
-- The objective is the brief's: C times the (weighted) summed log-loss
-- plus the penalty, the intercept never penalised:
--   l2:         C sum_i s_i l_i + |w|^2 / 2
--   l1:         C sum_i s_i l_i + |w|_1
--   elasticnet: C sum_i s_i l_i + rho |w|_1 + (1 - rho)/2 |w|^2
--   none:       C sum_i s_i l_i
-- (scikit-learn's; its solvers minimise the same divided by C sum s).
-- lbfgs and newton use luma.optim's native objectives (optim.logistic_loss,
-- optim.softmax_loss: one C call per evaluation, BLAS inside); saga, the
-- solver for the l1 penalties, is luma.linear.native.saga.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local fail, warning = common.fail, common.warning
local optim = require("luma.optim")
local special = require("luma.special")
local core = require("luma.linear.native")

local M = {}

-- The objective without the |w|^2/2 the native losses carry: the first
-- n_penalised parameters are the weights, the rest intercepts.
local function without_penalty(obj, n_penalised)
  return function(x, want_grad)
    local value, grad = obj(x, want_grad)
    local w = x:sub(1, n_penalised, 1, 1)
    value = value - 0.5 * w:pow(2):sum()
    if want_grad then
      local gw = grad:sub(1, n_penalised, 1, 1)
      gw:subtract(w, gw)
    end
    return value, grad
  end
end

-- The objectives of lbfgs for a sparse X, as optim.logistic_loss and
-- optim.softmax_loss compute them for a dense one (same parameter layout:
-- the weights, row-major d x K, then the intercepts): the products are the
-- threaded sparse kernels, X w and X^T r.
local function softplus(z) -- log(1 + e^z) without overflow
  return z:clamp(0, math.huge) + (z:abs() * -1):exp():log1p()
end

local function sparse_logistic_loss(X, y01, C, fi, sw)
  local d = X:cols()
  return function(x, want_grad)
    local w = x:sub(1, d, 1, 1)
    local z = X * w
    if fi then z = z + x:get(d + 1, 1) end
    local loss = softplus(z) - z:mul(y01)
    if sw then loss = loss:mul(sw) end
    local value = C * loss:sum() + 0.5 * w:pow(2):sum()
    if not want_grad then return value end
    local r = special.expit(z) - y01
    if sw then r = r:mul(sw) end
    r = r * C
    local grad = luma.zeros(x:rows(), 1)
    grad:sub(1, d, 1, 1):assign(X:tmatmul(r) + w)
    if fi then grad:set(d + 1, 1, r:sum()) end
    return value, grad
  end
end

local function sparse_softmax_loss(X, codes, K, C, fi, sw)
  local n, d = X:shape()
  local Y = luma.zeros(n, K)
  for i = 1, n do Y:set(i, math.tointeger(codes:get(i, 1)), 1) end
  return function(x, want_grad)
    local W = x:sub(1, d * K, 1, 1):reshape(d, K)
    local Z = X * W
    if fi then Z = Z + x:sub(d * K + 1, d * K + K, 1, 1):t() end
    local lse = Z:logsumexp(2)
    local loss = lse - Z:mul(Y):sum(2)
    if sw then loss = loss:mul(sw) end
    local value = C * loss:sum() + 0.5 * W:pow(2):sum()
    if not want_grad then return value end
    local R = (Z - lse):exp() - Y
    if sw then R = R:mul(sw) end
    R = R * C
    local grad = luma.zeros(x:rows(), 1)
    grad:sub(1, d * K, 1, 1):assign((X:tmatmul(R) + W):reshape(d * K, 1))
    if fi then grad:sub(d * K + 1, d * K + K, 1, 1):assign(R:sum(1):t()) end
    return value, grad
  end
end

-- Per-sample weights: sample_weight times the class weights (nil: all 1).
local function sample_weights(p, codes, classes, sample_weight)
  local cw = p.class_weight
  if cw == nil then return sample_weight end
  local K, n = classes:rows(), codes:rows()
  local per_class = {}
  if cw == "balanced" then
    local counts = {}
    for i = 1, n do local c = codes:get(i, 1); counts[c] = (counts[c] or 0) + 1 end
    for k = 1, K do per_class[k] = n / (K * counts[k]) end
  elseif type(cw) == "table" then
    for k = 1, K do
      local v = cw[classes:get(k, 1)]
      if v ~= nil and (type(v) ~= "number" or not (v >= 0) or v == math.huge) then
        fail(5, "luma.linear.LogisticRegression: class_weight[%s] must be a finite number >= 0",
          tostring(classes:get(k, 1)))
      end
      per_class[k] = v or 1
    end
    for label in pairs(cw) do
      local known = false
      for k = 1, K do known = known or classes:get(k, 1) == label end
      if not known then
        fail(5, "luma.linear.LogisticRegression: class_weight names %s, which is not a class of y", tostring(label))
      end
    end
  else
    fail(5, "luma.linear.LogisticRegression: class_weight must be nil, \"balanced\" or a table label -> weight")
  end
  local w = luma.zeros(n, 1)
  for i = 1, n do w:set(i, 1, per_class[codes:get(i, 1)]) end
  if sample_weight then w:mul(sample_weight, w) end
  return w
end

-- Minimises obj over x0 by L-BFGS; the gradient tolerance is tol times
-- C sum s (scikit-learn's tol on its mean-scaled objective).
local function run_lbfgs(self, f, x0, scale)
  local p = self.params
  local r = optim.minimize(f, x0, { method = "lbfgs", gtol = p.tol * scale, ftol = 0,
    max_iter = p.max_iter })
  if not r.converged then
    warning("LogisticRegression (lbfgs) did not converge in %d iterations (%s); raise max_iter, "
      .. "scale the features, or add a penalty", r.iterations, r.message)
  end
  return r.x, r.iterations
end

-- Binary logistic regression by Newton's method = iteratively reweighted
-- least squares (notes 000 Ch. 7): each step solves
--   (C X~^T S X~ + P) delta = -grad,  S = diag(s_i p_i (1 - p_i)),
-- P the identity on the weights (0 with penalty none, and on the
-- intercept), then backtracks until the objective decreases.
local function newton_binary(self, X, y01, sw, scale)
  local p = self.params
  local n, d = X:shape()
  local fi = p.fit_intercept
  local Xa = fi and luma.hstack{ X, luma.ones(n, 1) } or X
  local m = Xa:cols()
  local penalised = luma.ones(m, 1)
  if fi then penalised:set(m, 1, 0) end
  if p.penalty == "none" then penalised:assign(0) end
  local C = p.C
  local s = sw or luma.ones(n, 1)
  local function objective(beta)
    local eta = Xa * beta
    -- log(1 + exp(eta)) - y eta, summed with weights
    local loss = (special.log1pexp(eta) - eta:mul(y01)):mul(s):sum()
    return C * loss + 0.5 * beta:mul(penalised):pow(2):sum(), eta
  end
  local beta = luma.zeros(m, 1)
  local f, eta = objective(beta)
  for iter = 1, p.max_iter do
    local prob = special.expit(eta)
    local grad = Xa:t() * (prob - y01):mul(s) * C + beta:mul(penalised)
    if grad:abs():max() <= p.tol * scale then return beta, iter - 1 end
    local curvature = prob:mul(prob * -1 + 1):mul(s) * C
    local H = Xa:t() * Xa:mul(curvature)
    H:diag():add(penalised, H:diag())
    local ok, step = pcall(luma.linalg.solve, H, grad, { assume = "spd" })
    if not ok then step = luma.linalg.lstsq(H, grad) end
    local t, improved = 1, false
    for _ = 1, 50 do
      local trial = beta - step * t
      local ft, etat = objective(trial)
      if ft <= f - 1e-4 * t * grad:dot(step) then
        beta, f, eta, improved = trial, ft, etat, true
        break
      end
      t = t / 2
    end
    if not improved then return beta, iter end
  end
  warning("LogisticRegression (newton) did not converge in %d iterations; raise max_iter, "
    .. "scale the features, or add a penalty", p.max_iter)
  return beta, p.max_iter
end

-- Multinomial Newton through luma.optim.minimize with the exact Hessian:
-- block (k, m) of sum_i s_i p_ik (delta_km - p_im) x~_i x~_i^T, laid out
-- as the softmax objective's parameters (W row-major d x K, then b).
local function newton_multinomial(self, f, obj_X, K, x0, scale, C, sw)
  local p = self.params
  local n, d = obj_X:shape()
  local fi = p.fit_intercept
  local Xa = fi and luma.hstack{ obj_X, luma.ones(n, 1) } or obj_X
  local m = Xa:cols()
  local s = sw or luma.ones(n, 1)
  local function index(j, k) return j <= d and (j - 1) * K + k or d * K + k end
  local hess = function(x)
    local W = x:reshape(m, K) -- rows: features then the intercept (same layout)
    local P = (Xa * W):softmax(2)
    local H = luma.zeros(m * K, m * K)
    for k = 1, K do
      for l = k, K do
        local D = P:col(k):mul(k == l and (P:col(l) * -1 + 1) or (P:col(l) * -1)):mul(s) * C
        local B = Xa:t() * Xa:mul(D)
        for a = 1, m do
          for b = 1, m do
            local v = B:get(a, b)
            H:set(index(a, k), index(b, l), v)
            H:set(index(b, l), index(a, k), v)
          end
        end
      end
    end
    if p.penalty ~= "none" then
      for i = 1, d * K do H:set(i, i, H:get(i, i) + 1) end
    end
    return H
  end
  local r = optim.minimize(f, x0, { method = "newton", hess = hess, gtol = p.tol * scale,
    max_iter = p.max_iter })
  if not r.converged then
    warning("LogisticRegression (newton) did not converge in %d iterations (%s)", r.iterations, r.message)
  end
  return r.x, r.iterations
end

-- SAGA on the objective divided by C sum s: the penalty weights become
-- l1 = rho / (C S) and l2 = (1 - rho) / (C S).  y is 0/1 for one column
-- of weights, codes 1..k otherwise.  Returns W (d x k), b (1 x k), epochs.
local function run_saga(self, X, y, k, sw, total_weight, rng)
  local p = self.params
  local rho = ({ l2 = 0, none = 0, l1 = 1 })[p.penalty] or p.l1_ratio
  local strength = p.penalty == "none" and 0 or 1 / (p.C * total_weight)
  local W, b = luma.zeros(X:cols(), k), luma.zeros(1, k)
  if luma.sparse.issparse(X) then X = X:tocsr() end -- the lazy steps read rows
  local _, _, converged, epochs = core.saga(X, y, W, b, { l1 = rho * strength, l2 = (1 - rho) * strength,
    fit_intercept = p.fit_intercept, max_iter = p.max_iter, tol = p.tol, sample_weight = sw }, rng)
  if not converged then
    warning("LogisticRegression (saga) did not converge in %d epochs; raise max_iter or tol, or "
      .. "scale the features", epochs)
  end
  return W, b, epochs
end

-- One binary problem (labels 0/1): returns the d x 1 weights, the
-- intercept and the iterations.
local function fit_binary(self, X, y01, sw, scale, rng)
  local p = self.params
  local d = X:cols()
  local beta, iters
  if p.solver == "saga" then
    local W, b
    W, b, iters = run_saga(self, X, y01, 1, sw, scale / p.C, rng)
    return W, b:get(1, 1), iters
  elseif p.solver == "newton" then
    beta, iters = newton_binary(self, X, y01, sw, scale)
  elseif luma.sparse.issparse(X) then
    local obj = sparse_logistic_loss(X, y01, p.C, p.fit_intercept, sw)
    local f = p.penalty == "none" and without_penalty(obj, d) or obj
    beta, iters = run_lbfgs(self, f, luma.zeros(d + (p.fit_intercept and 1 or 0), 1), scale)
  else
    local obj = optim.logistic_loss(X, y01, { C = p.C, fit_intercept = p.fit_intercept, sample_weight = sw })
    local f = p.penalty == "none" and without_penalty(obj, d) or obj
    beta, iters = run_lbfgs(self, f, luma.zeros(obj:size(), 1), scale)
  end
  local b = p.fit_intercept and beta:get(d + 1, 1) or 0
  return beta:sub(1, d, 1, 1):copy(), b, iters
end

local function check_finite_X(X)
  args.finite(X, 1, "fit", 4)
end

M.LogisticRegression = estimator.class{
  name = "luma.linear.LogisticRegression", kind = "classifier",
  method_docs = {
    predict_codes = { signature = "est:predict_codes(X) -> matrix",
      doc = "The predicted class codes 1..K (positions in est.classes) for the rows of X, "
        .. "usable during fit. Returns an n x 1 matrix." },
  },
  doc = "Logistic regression, binary or multinomial (softmax), minimising C * sum_i s_i "
    .. "log-loss_i + |w|^2/2 (penalty \"l2\") or without the penalty (\"none\"); the intercept "
    .. "is not penalised. solver \"lbfgs\" (native objective, L-BFGS from luma.optim) or "
    .. "\"newton\" (IRLS, Bishop, sec. 4.3.3). multi_class \"auto\" (multinomial for more than two "
    .. "classes), \"multinomial\" or \"ovr\" (one binary problem per class). class_weight: "
    .. "\"balanced\" (n / (K n_k)) or a table label -> weight. Fitted: classes, coef (d x 1 "
    .. "for two classes, else d x K), intercept, n_iter. Not converging is a warning.",
  params = {
    { name = "penalty", type = "string", default = "l2", values = { "l2", "l1", "elasticnet", "none" },
      doc = "the penalty (l1 and elasticnet need solver = \"saga\")" },
    { name = "l1_ratio", type = "number", min = 0, max = 1, doc = "elasticnet's share of the l1 term" },
    { name = "C", type = "number", default = 1, gt = 0, doc = "inverse penalty strength (> 0)" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "class_weight", type = "string|table", doc = "\"balanced\" or {label = weight}" },
    { name = "solver", type = "string", default = "lbfgs", values = { "lbfgs", "newton", "saga" },
      doc = "the optimiser" },
    { name = "multi_class", type = "string", default = "auto", values = { "auto", "multinomial", "ovr" },
      doc = "how more than two classes are handled" },
    { name = "max_iter", type = "integer", default = 100, min = 1, doc = "iterations of the solver" },
    { name = "tol", type = "number", default = 1e-4, gt = 0,
      doc = "lbfgs/newton: gradient tolerance relative to C times the sum of the weights; "
        .. "saga: largest relative change of the weights over an epoch" },
    { name = "seed", type = "seed", doc = "saga's sample order" },
  },
  example = function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 }, { 2, 2 }, { 5, 5 } }
    return M.LogisticRegression{}, X, luma.matrix{ 1, 1, 2, 1, 2, 3, 1, 3 }
  end,
  sparse = true,
  fit = function(self, X, y, sample_weight)
    local p = self.params
    if (p.penalty == "l1" or p.penalty == "elasticnet") and p.solver ~= "saga" then
      fail(3, "luma.linear.LogisticRegression: penalty \"%s\" needs solver = \"saga\" (%s "
        .. "handles l2 and none)", p.penalty, p.solver)
    end
    if p.penalty == "elasticnet" and p.l1_ratio == nil then
      fail(3, "luma.linear.LogisticRegression: penalty \"elasticnet\" needs l1_ratio in [0, 1]")
    end
    check_finite_X(X)
    if luma.sparse.issparse(X) and p.solver == "newton" then
      fail(3, "luma.linear.LogisticRegression: solver \"newton\" needs a dense X (lbfgs and "
        .. "saga take a sparse one)")
    end
    if y:cols() ~= 1 then fail(3, "bad argument #2 to 'fit' (y must be one column of labels)") end
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    local codes, classes = estimator.encode_labels(y)
    local K = classes:rows()
    if K < 2 then
      fail(3, "luma.linear.LogisticRegression: y has a single class (%s); a classifier needs at "
        .. "least two", string.format("%.15g", classes:get(1, 1)))
    end
    local sw = sample_weights(p, codes, classes, sample_weight)
    local scale = p.C * (sw and sw:sum() or X:rows())
    local d = X:cols()
    local rng = p.solver == "saga" and estimator.rng(p.seed) or nil
    self.classes = classes
    if K == 2 and p.multi_class ~= "multinomial" then
      self.coef, self.intercept, self.n_iter = fit_binary(self, X, codes - 1, sw, scale, rng)
    elseif p.multi_class == "ovr" then
      self.coef, self.intercept, self.n_iter = luma.zeros(d, K), luma.zeros(1, K), {}
      for k = 1, K do
        local w, b, it = fit_binary(self, X, codes:eq(k), sw, scale, rng)
        self.coef:col(k):assign(w)
        self.intercept:set(1, k, b)
        self.n_iter[k] = it
      end
    elseif p.solver == "saga" then
      local b
      self.coef, b, self.n_iter = run_saga(self, X, codes, K, sw, scale / p.C, rng)
      self.intercept = p.fit_intercept and b - b:mean() or b
    else
      local obj, size
      if luma.sparse.issparse(X) then
        obj = sparse_softmax_loss(X, codes, K, p.C, p.fit_intercept, sw)
        size = d * K + (p.fit_intercept and K or 0)
      else
        obj = optim.softmax_loss(X, codes, { C = p.C, fit_intercept = p.fit_intercept,
          sample_weight = sw, n_classes = K })
        size = obj:size()
      end
      local f = p.penalty == "none" and without_penalty(obj, d * K) or obj
      local x0 = luma.zeros(size, 1)
      local beta
      if p.solver == "newton" then
        beta, self.n_iter = newton_multinomial(self, f, X, K, x0, scale, p.C, sw)
      else
        beta, self.n_iter = run_lbfgs(self, f, x0, scale)
      end
      self.coef = beta:sub(1, d * K, 1, 1):reshape(d, K):copy()
      -- softmax is unchanged by a common shift of the intercepts (unpenalised):
      -- report the one summing to zero
      self.intercept = luma.zeros(1, K)
      if p.fit_intercept then
        local b = beta:sub(d * K + 1, d * K + K, 1, 1):t()
        self.intercept = b - b:mean()
      end
    end
    -- Without a penalty, separable classes have no maximum-likelihood
    -- estimate: the solver stops somewhere along a diverging direction.
    if p.penalty == "none" and self:predict_codes(X):eq(codes):all() then
      warning("LogisticRegression: the classes are separable, so without a penalty the "
        .. "maximum-likelihood coefficients are infinite; these are where the solver stopped "
        .. "(use penalty = \"l2\")")
    end
  end,
  -- K classes: one column of coefficients for two, one per class beyond
  check_state = function(self)
    common.check_linear_state(self)
    local classes = self.classes
    if not luma.ismatrix(classes) or classes:cols() ~= 1 or classes:rows() < 2 then
      error("classes must be a K x 1 matrix of at least two labels", 0)
    end
    local K = classes:rows()
    if self.coef:cols() ~= (K == 2 and 1 or K) then
      error(string.format("coef has %d columns for %d classes", self.coef:cols(), K), 0)
    end
  end,
  decision_function = function(self, X) return X * self.coef + self.intercept end,
  predict_proba = function(self, X)
    local scores = X * self.coef + self.intercept
    if scores:cols() == 1 then
      local p1 = special.expit(scores)
      return luma.hstack{ p1 * -1 + 1, p1 }
    end
    if self.params.multi_class == "ovr" then -- normalised one-vs-rest probabilities
      local P = special.expit(scores)
      return P:div(P:sum(2))
    end
    return scores:softmax(2)
  end,
  predict_log_proba = function(self, X) return self:predict_proba(X):log() end,
  -- The predicted class codes 1..K (usable during fit).
  predict_codes = function(self, X)
    if not (luma.ismatrix(X) or luma.sparse.issparse(X)) or not self.coef
      or X:cols() ~= self.coef:rows() then
      estimator.check_input(self, "predict_codes", X) -- the contract's message for what is wrong
    end
    local scores = X * self.coef + self.intercept
    if scores:cols() == 1 then return scores:gt(0) + 1 end
    return scores:argmax(2)
  end,
  predict = function(self, X)
    return estimator.decode_labels(self:predict_codes(X), self.classes)
  end,
}

return M
