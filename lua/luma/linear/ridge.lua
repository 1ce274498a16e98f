--- luma.linear.ridge: Ridge, RidgeCV and KernelRidge (part of luma.linear,
-- docs/LINEAR.md).
--
-- Ridge minimises |y - Xw - b|^2 + alpha |w - v|^2 (notes 001 §A L848: an
-- unnormalised sum; the intercept b is not penalised; v, the shrinkage
-- target, is 0 unless shrink_to is given).  The notes' MAP reading gives
-- alpha = sigma_e^2 / sigma_p^2 (erratum 1 of notes 001: the printed
-- square of that ratio is wrong).  RidgeCV scores every alpha from one SVD
-- (leave-one-out or generalized cross-validation) or by a grid search;
-- KernelRidge is the dual form with any kernel.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local fail, EPS = common.fail, common.EPS
local predict_linear, regression_example = common.predict_linear, common.regression_example
local kernel_matrix = common.kernel_matrix
local moments, centred_copy = common.moments, common.centred_copy
local intercept_of, psd_solve = common.intercept_of, common.psd_solve

local M = {}

-- The shrinkage target as a d x k matrix (zeros when not given).
local function shrink_target(v, d, k)
  if v == nil then return nil end
  if v:rows() ~= d or (v:cols() ~= 1 and v:cols() ~= k) then
    fail(4, "luma.linear.Ridge: shrink_to must be %d x 1 (one value per feature), got %d x %d",
      d, v:rows(), v:cols())
  end
  return v:cols() == k and v or v * luma.ones(1, k)
end

-- Ridge on a sparse X by conjugate gradients on the normal equations
-- (Xc^T D Xc + alpha I) w = Xc^T D yc, one target at a time, with Xc = X -
-- 1 xm the centred X never formed (Xc v = X v - xm.v, Xc^T u = X^T u -
-- xm^T sum u; scikit-learn's sparse_cg centres the same way): every
-- product is the threaded sparse kernel.  Solved to a relative residual
-- of 1e-10, the dense solvers' accuracy, not scikit-learn's looser tol.
local SPARSE_CG_TOL = 1e-10

local function sparse_cg(p, X, y, w, V)
  local n, d = X:shape()
  local k = y:cols()
  args.finite(X, 1, "fit", 4)
  args.finite(y, 2, "fit", 4)
  local total = w and w:sum() or n
  local xm, ym = luma.zeros(1, d), luma.zeros(1, k)
  if p.fit_intercept then
    xm = w and X:tmatmul(w):t() / total or X:mean(1)
    ym = w and w:t() * y / total or y:mean(1)
  end
  local function xc(v) return X * v - (xm * v):get(1, 1) end
  local function xct(u) return X:tmatmul(u) - xm:t() * u:sum() end
  local function apply(v)
    local u = xc(v)
    if w then u = u:mul(w) end
    return xct(u) + v * p.alpha
  end
  local W = luma.zeros(d, k)
  for c = 1, k do
    local rhs = y:col(c) - ym:get(1, c)
    if V then rhs = rhs - xc(V:col(c)) end
    if w then rhs = rhs:mul(w) end
    local b = xct(rhs)
    local x = luma.zeros(d, 1)
    local r = b:copy()
    local q = r:copy()
    local rr, target = (r:t() * r):get(1, 1), SPARSE_CG_TOL ^ 2 * (b:t() * b):get(1, 1)
    local iter, limit = 0, math.max(10 * d, 100)
    while rr > target and iter < limit do
      local Aq = apply(q)
      local step = rr / (q:t() * Aq):get(1, 1)
      x = x + q * step
      r = r - Aq * step
      local next_rr = (r:t() * r):get(1, 1)
      q = r + q * (next_rr / rr)
      rr = next_rr
      iter = iter + 1
    end
    if rr > target then
      common.warning("Ridge (sparse_cg) did not reach its tolerance in %d iterations", iter)
    end
    W:col(c):assign(x)
  end
  if V then W = W + V end
  return W, xm, ym
end

local function ridge_solve(p, X, y, w)
  if luma.sparse.issparse(X) then
    if p.solver ~= "auto" and p.solver ~= "sparse_cg" then
      fail(4, "luma.linear.Ridge: solver \"%s\" needs a dense X (a sparse one is solved by "
        .. "\"sparse_cg\")", p.solver)
    end
    return sparse_cg(p, X, y, w, shrink_target(p.shrink_to, X:cols(), y:cols()))
  end
  local n, d = X:shape()
  local k = y:cols()
  local alpha = p.alpha
  local V = shrink_target(p.shrink_to, d, k)
  local solver = p.solver
  if solver == "auto" or solver == "sparse_cg" then solver = (n >= d or w) and "cholesky" or "dual" end
  if solver == "cholesky" then
    local G, b, xm, ym = moments(X, y, w, p.fit_intercept)
    if alpha > 0 then
      G:diag():add(alpha, G:diag())
      if V then b = b + V * alpha end
      return luma.linalg.solve(G, b, { assume = "spd" }), xm, ym
    end
    return (psd_solve(G, b, math.max(n, d) * EPS)), xm, ym
  end
  local Xc, yc, xm, ym = centred_copy(X, y, w, p.fit_intercept)
  if V then yc = yc - Xc * V end
  local W
  if solver == "svd" then
    local U, s, Vt = luma.linalg.svd(Xc)
    local factor = s:div(s:pow(2):add(alpha))
    factor = factor:mul(s:gt(s:max() * math.max(n, d) * EPS)) -- drop null directions at alpha = 0
    W = Vt:t() * (U:t() * yc):mul(factor)
  else -- dual: w = Xc^T (Xc Xc^T + alpha I)^-1 yc (notes 000 §6.7, 001 §G)
    if alpha <= 0 then fail(4, "luma.linear.Ridge: the dual solver needs alpha > 0") end
    local K = luma.pairwise.kernel(Xc, nil, "linear")
    K:diag():add(alpha, K:diag())
    W = Xc:t() * luma.linalg.solve(K, yc, { assume = "spd" })
  end
  if V then W = W + V end
  return W, xm, ym
end

M.Ridge = estimator.class{
  name = "luma.linear.Ridge", kind = "regressor",
  doc = "Ridge regression: minimises |y - Xw - b|^2 + alpha |w - shrink_to|^2 (the intercept "
    .. "is not penalised). solver: \"cholesky\" (normal equations), \"svd\", \"dual\" (the "
    .. "kernel form, n x n: cheaper when n < d), \"sparse_cg\" (conjugate gradients, for a "
    .. "sparse X: what \"auto\" picks for one), or \"auto\" (dual when n < d). shrink_to: "
    .. "a prior mean v to shrink towards. MAP reading: alpha = noise variance / "
    .. "prior variance.",
  params = {
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "solver", type = "string", default = "auto",
      values = { "auto", "cholesky", "svd", "dual", "sparse_cg" }, doc = "how the system is solved" },
    { name = "shrink_to", type = "matrix", doc = "d x 1 vector the coefficients shrink towards (default 0)" },
  },
  sparse = true,
  example = regression_example(function() return M.Ridge{ alpha = 0.5 } end),
  fit = function(self, X, y, sample_weight)
    local w = estimator.check_sample_weight(X, sample_weight)
    local W, xm, ym = ridge_solve(self.params, X, y, w)
    self.coef, self.intercept = W, intercept_of(W, xm, ym, self.params.fit_intercept)
  end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

-- Held-out squared errors of ridge for every alpha at once, from one SVD
-- of the centred (sqrt-weighted) data: the hat matrix is H = c c^T/|c|^2 +
-- U diag(s^2 / (s^2 + alpha)) U^T, c the column of sqrt(w) (ones without
-- weights) that the unpenalised intercept adds.  A linear smoother's
-- leave-one-out residual is e_i / (1 - H_ii); generalized cross-validation
-- (Golub, Heath and Wahba) uses the mean 1 - tr(H)/n for every i.
-- Returns an n x #alphas matrix of squared errors (mean over targets) and
-- the SVD pieces for the final coefficients.
local function ridge_held_out(Xc, yc, alphas, intercept_hat, mode)
  local n = Xc:rows()
  local U, s, Vt = luma.linalg.svd(Xc)
  local Uty = U:t() * yc
  local s2 = s:pow(2)
  local U2 = U:pow(2)
  local errors = luma.zeros(n, #alphas)
  for a, alpha in ipairs(alphas) do
    local shrink = s2:div(s2 + alpha)
    local residual = yc - U * Uty:mul(shrink)
    local denominator
    if mode == "gcv" then
      local trace = shrink:sum() + (intercept_hat and 1 or 0)
      denominator = 1 - trace / n
    else
      local h = U2 * shrink
      if intercept_hat then h:add(intercept_hat, h) end
      denominator = (h * -1):add(1)
    end
    errors:col(a):assign(residual:div(denominator):pow(2):mean(2))
  end
  return errors, s, Vt, Uty
end

M.RidgeCV = estimator.class{
  name = "luma.linear.RidgeCV", kind = "regressor",
  doc = "Ridge with alpha chosen from alphas: by efficient leave-one-out or generalized "
    .. "cross-validation (cv = nil, mode = \"loo\" or \"gcv\"; one SVD for all alphas, scored "
    .. "by mean squared error) or by cross-validation (cv = k, a splitter or splits; scoring = "
    .. "a scorer name). Fitted: alpha, best_score (greater is better: -MSE for loo/gcv), coef, "
    .. "intercept, cv_values (n x #alphas squared errors, with store_cv_values).",
  params = {
    { name = "alphas", type = "table", default = { 0.1, 1, 10 }, doc = "candidate penalties (> 0)" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "cv", type = "any", doc = "nil: leave-one-out; else as model_selection's cv" },
    { name = "scoring", type = "string", doc = "scorer name for cv (default R^2)" },
    { name = "mode", type = "string", default = "loo", values = { "loo", "gcv" },
      doc = "with cv = nil: leave-one-out or generalized cross-validation" },
    { name = "store_cv_values", type = "boolean", default = false, doc = "keep the squared errors" },
  },
  example = regression_example(function() return M.RidgeCV{} end),
  fit = function(self, X, y, sample_weight)
    local p = self.params
    local w = estimator.check_sample_weight(X, sample_weight)
    if #p.alphas == 0 then fail(3, "luma.linear.RidgeCV: alphas is empty") end
    for i, a in ipairs(p.alphas) do
      if type(a) ~= "number" or not (a > 0) or a == math.huge then
        fail(3, "luma.linear.RidgeCV: alphas[%d] must be a finite number > 0, got %s", i, tostring(a))
      end
    end
    if p.cv ~= nil then
      if w then fail(3, "luma.linear.RidgeCV: sample_weight is supported with cv = nil only") end
      local search = luma.model_selection.GridSearch{
        estimator = M.Ridge{ fit_intercept = p.fit_intercept },
        param_grid = { alpha = p.alphas }, cv = p.cv, scoring = p.scoring }
      search:fit(X, y)
      self.alpha, self.best_score = search.best_params.alpha, search.best_score
      self.coef, self.intercept = search.best_estimator.coef, search.best_estimator.intercept
      return
    end
    if p.scoring then fail(3, "luma.linear.RidgeCV: scoring applies with cv; leave-one-out uses the squared error") end
    local Xc, yc, xm, ym = centred_copy(X, y, w, p.fit_intercept)
    local intercept_hat = nil
    if p.fit_intercept then intercept_hat = w and w * (1 / w:sum()) or 1 / X:rows() end
    local errors, s, Vt, Uty = ridge_held_out(Xc, yc, p.alphas, intercept_hat, p.mode)
    local mse = errors:mean(1)
    local best = 1
    for a = 2, #p.alphas do
      if mse:get(1, a) < mse:get(1, best) then best = a end
    end
    local alpha = p.alphas[best]
    local W = Vt:t() * Uty:mul(s:div(s:pow(2):add(alpha)))
    self.alpha, self.best_score = alpha, -mse:get(1, best)
    self.coef, self.intercept = W, intercept_of(W, xm, ym, p.fit_intercept)
    if p.store_cv_values then self.cv_values = errors end
  end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

M.KernelRidge = estimator.class{
  name = "luma.linear.KernelRidge", kind = "regressor",
  doc = "Kernel ridge regression (Bishop, sec. 6.1): dual_coef = (K + alpha I)^-1 y and predictions "
    .. "k(x, X_fit) dual_coef; no intercept. The scaled form alpha-hat = 2 lambda (G + lambda I)^-1 "
    .. "y with prediction (1/2 lambda) sum alpha-hat_i k(x_i, x) is the same predictor with "
    .. "lambda = alpha. With a linear kernel it equals Ridge{fit_intercept = false} (the dual "
    .. "form of linear regression).",
  params = {
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
    { name = "kernel", type = "string|table", default = "linear",
      doc = "a luma.pairwise kernel name or a luma.kernels object" },
    { name = "gamma", type = "number", gt = 0, doc = "rbf/laplacian/polynomial/sigmoid gamma (default 1/d)" },
    { name = "degree", type = "integer", default = 3, min = 1, doc = "polynomial degree" },
    { name = "coef0", type = "number", default = 1, doc = "polynomial/sigmoid offset" },
  },
  example = regression_example(function() return M.KernelRidge{ kernel = "rbf", gamma = 0.5 } end),
  fit = function(self, X, y)
    local p = self.params
    if type(p.kernel) == "table" and not luma.kernels.is_kernel(p.kernel) then
      fail(3, "luma.linear.KernelRidge: kernel must be a name or a luma.kernels object")
    end
    args.finite(X, 1, "fit", 3)
    local K = kernel_matrix(p, X)
    K:diag():add(p.alpha, K:diag())
    local ok, coef = pcall(luma.linalg.solve, K, y, { assume = p.alpha > 0 and "spd" or "general" })
    if not ok then
      fail(3, "luma.linear.KernelRidge: K + alpha I is singular or not positive definite "
        .. "(raise alpha; %s)", tostring(coef):gsub("^.-: ", ""))
    end
    self.dual_coef, self.X_fit = coef, X:copy()
  end,
  predict = function(self, X) return kernel_matrix(self.params, X, self.X_fit) * self.dual_coef end,
}

return M
