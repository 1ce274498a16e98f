--- luma.gaussian_process.logistic: KernelLogisticRegression, logistic
-- regression in the dual with the kernel trick (notes 000 §7.4; Prince
-- 2012 §9.4-9.5).
--
-- It lives here rather than in luma.linear because it is the MAP
-- estimate of the model GaussianProcessClassifier treats by Laplace
-- (notes 000 §7.4: "the Bayesian (Laplace) version is called GP
-- classification"), and it takes the same kernels.  scikit-learn has no
-- counterpart.
--
-- The weights are a combination of the training points, phi = X psi, so
-- the activation of x_i is a_i = sum_j psi_j k(x_j, x_i) + b (K psi + b).
-- The fit minimises
--   C sum_i log(1 + exp(-s_i a_i)) + psi^T P psi / 2,   s_i = +-1,
-- by damped Newton (luma.optim.minimize, method "newton") with the notes'
-- dual gradient and Hessian,
--   g = C K (sigmoid(a) - t) + P psi,   H = C K W K + P,  W = diag(sig (1 - sig)),
-- plus the rows and column of the unpenalised intercept b.  P is the prior
-- precision of psi: penalty = "dual" is the notes' N(0, C I) prior on psi
-- (P = I); penalty = "rkhs" puts the GP prior N(0, C K) on f = K psi
-- (P = K, the RKHS norm), so that with C = 1 and no intercept the fitted
-- activations are GaussianProcessClassifier's posterior mode, and with a
-- linear kernel the model is LogisticRegression (w = X^T psi; both are
-- tests).  More than two classes: one-vs-rest, probabilities normalised.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.gaussian_process.common")
local kernels = require("luma.gaussian_process.kernels")
local optim = require("luma.optim")

local fail, warning, check_finite = common.fail, common.warning, common.check_finite

local M = {}

local NAME = "luma.gaussian_process.KernelLogisticRegression"
local SHORT = "KernelLogisticRegression"

-- The kernel parameter: a luma.gaussian_process kernel or a luma.kernels
-- kernel (both are callable, k(X, Y)); default RBF with length scale 1.
local function the_kernel(k, level)
  if k == nil then return kernels.RBF() end
  if kernels.is_kernel(k) or luma.kernels.is_kernel(k) then return k end
  fail(level + 1, "%s: parameter 'kernel' must be a luma.gaussian_process.kernels or luma.kernels "
    .. "kernel, got %s", SHORT, type(k))
end

-- One binary problem on the Gram matrix K (n x n) with 0/1 targets t:
-- returns psi (n x 1) and b.
local function fit_binary(p, K, t)
  local n = K:rows()
  local C, rkhs, with_b = p.C, p.penalty == "rkhs", p.fit_intercept
  local m = n + (with_b and 1 or 0)
  local function split(x)
    return x:sub(1, n, 1, 1), with_b and x:get(m, 1) or 0
  end
  local function activation(x)
    local psi, b = split(x)
    return (K * psi):add(b), psi
  end
  local function objective(x, want_grad)
    local a, psi = activation(x)
    local Ppsi = rkhs and K * psi or psi
    local value = C * (-(t * 2 - 1):mul(a)):softplus():sum() + 0.5 * psi:dot(Ppsi)
    if not want_grad then return value end
    local r = (a:sigmoid() - t) * C
    local g = luma.zeros(m, 1)
    g:sub(1, n, 1, 1):assign(K * r + Ppsi)
    if with_b then g:set(m, 1, r:sum()) end
    return value, g
  end
  local function hessian(x)
    local a = activation(x)
    local s = a:sigmoid()
    local W = s:mul(-s + 1) * C
    local KW = K:mul(W:t()) -- K diag(W)
    local H = luma.zeros(m, m)
    local Hpp = H:sub(1, n, 1, n)
    Hpp:assign(KW * K)
    Hpp:add(rkhs and K or luma.eye(n), Hpp)
    if with_b then
      local kw = KW:sum(2)
      H:sub(1, n, m, m):assign(kw)
      H:sub(m, m, 1, n):assign(kw:t())
      H:set(m, m, W:sum())
    end
    return H
  end
  local res = optim.minimize(objective, luma.zeros(m, 1), { method = "newton", hess = hessian,
    gtol = p.tol, max_iter = p.max_iter })
  if not res.converged then
    warning("%s: Newton's method stopped without converging (%s); raise max_iter or C may be too large "
      .. "for separable data", SHORT, res.message or "no message")
  end
  local psi, b = split(res.x)
  return { dual_coef = psi:copy(), intercept = b, n_iter = res.iterations }
end

local function fit(self, X, y)
  local p = self.params
  check_finite(X, 1, "fit", "X", 3)
  local codes, classes = common.encode_classes(SHORT, y, 3)
  local kernel = the_kernel(p.kernel, 3)
  local K = kernel(X)
  self.classes, self.X_fit = classes, X:copy()
  self.models = common.one_vs_rest(codes, classes:rows(), function(t)
    local model = fit_binary(p, K, t)
    return model
  end)
end

-- The activations of every binary model at X, n x (number of models).
local function activations(self, X)
  local Ks = the_kernel(self.params.kernel, 3)(X, self.X_fit)
  local cols = {}
  for j, m in ipairs(self.models) do cols[j] = (Ks * m.dual_coef):add(m.intercept) end
  return luma.matrix.hstack(cols)
end

M.KernelLogisticRegression = estimator.class{
  name = NAME, kind = "classifier",
  doc = "Kernel logistic regression (Prince, Computer Vision: Models, Learning, and Inference, "
    .. "sec. 9.4-9.5): the dual model a = K psi + b, fitted by Newton's method on C * (summed "
    .. "log-loss) + psi^T P psi / 2 with P = I (penalty = \"dual\", Prince's normal prior on "
    .. "psi) or P = K (\"rkhs\": the GP prior, whose fit is "
    .. "GaussianProcessClassifier's posterior mode). One-vs-rest for more than two classes. "
    .. "Fitted: classes, models ({dual_coef, intercept, n_iter} per binary problem), X_fit.",
  params = {
    { name = "kernel", type = "table",
      doc = "a luma.gaussian_process.kernels or luma.kernels kernel (default RBF, length scale 1)" },
    { name = "C", type = "number", default = 1, gt = 0, doc = "inverse regularisation strength" },
    { name = "penalty", type = "string", default = "dual", values = { "dual", "rkhs" },
      doc = "the prior precision of psi: I (\"dual\") or K (\"rkhs\")" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "an unpenalised intercept b" },
    { name = "tol", type = "number", default = 1e-8, gt = 0,
      doc = "stop when the gradient's largest element is below this" },
    { name = "max_iter", type = "integer", default = 100, min = 1, doc = "Newton iterations" },
  },
  example = common.classification_example(function() return M.KernelLogisticRegression{} end),
  fit = fit,
  decision_function = function(self, X)
    check_finite(X, 1, "decision_function", "X", 2)
    return activations(self, X)
  end,
  predict_proba = function(self, X)
    check_finite(X, 1, "predict_proba", "X", 2)
    local A = activations(self, X)
    return common.ovr_proba(self.models, self.classes:rows(), function(_, j) return A:col(j):sigmoid() end)
  end,
  predict = function(self, X)
    check_finite(X, 1, "predict", "X", 2)
    local A = activations(self, X)
    if #self.models == 1 then return self.classes:take(A:gt(0) + 1) end
    return estimator.decode_labels(A:argmax(2), self.classes)
  end,
}

return M
