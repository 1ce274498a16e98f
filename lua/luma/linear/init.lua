--- luma.linear: linear models (docs/LINEAR.md).
--
-- This file: least squares (LinearRegression), ridge (Ridge, RidgeCV,
-- KernelRidge) and the l1 family by coordinate descent (Lasso, ElasticNet,
-- their paths and cross-validated forms).  Re-exported at the end:
-- LogisticRegression (linear_logistic.lua), the Bayesian models and
-- relevance vector machines (linear_bayes.lua), and the robust models,
-- perceptron, Bayesian logistic regression and mixture of regressions
-- (linear_robust.lua).  Conventions (../shared/BRIEF.md):
--   * Ridge minimises |y - Xw - b|^2 + alpha |w - v|^2 (notes 001 §A L848:
--     an unnormalised sum; the intercept b is not penalised; v, the
--     shrinkage target, is 0 unless shrink_to is given).  The notes' MAP
--     reading gives alpha = sigma_e^2 / sigma_p^2 (erratum 1 of notes 001:
--     the printed square of that ratio is wrong).
--   * Lasso / ElasticNet minimise (1/2N)|y - Xw - b|^2 + alpha (rho |w|_1 +
--     (1 - rho)/2 |w|^2), rho = l1_ratio, N = the number of samples (or the
--     sum of the sample weights): scikit-learn's scaling.
--   * coef is d x k (one column per target), so predict is X * coef +
--     intercept; intercept is a number for one target, else 1 x k.
-- fit(X, y [, sample_weight]) takes optional non-negative weights (n x 1):
-- weighted least squares (notes 001 §D, the M-step of mixed regression).
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local fail, warning, EPS = common.fail, common.warning, common.EPS
local predict_linear, regression_example = common.predict_linear, common.regression_example
local kernel_matrix = common.kernel_matrix
local core = require("luma.linear.native")

local linear = {}

-- ------------------------------------------------------------ helpers

-- Weighted means and centred moments (luma.linear_core.moments), its
-- argument errors re-raised as those of the caller's function fname.
local function moments(X, y, w, center, fname)
  local ok, G, b, xm, ym, yty = pcall(core.moments, X, y, w, center)
  if not ok then
    local arg, why = tostring(G):match("bad argument #(%d) to '[^']*' %((.*)%)$")
    -- raised from varying depths: no position rather than a wrong one
    if arg then error(string.format("bad argument #%s to '%s' (%s)", arg, fname or "fit", why), 0) end
    error(G, 0)
  end
  return G, b, xm, ym, yty
end

-- X and y centred (when center) and scaled by sqrt(w) row by row: the
-- weighted problem as an ordinary one.  Also returns the means.
local function centred_copy(X, y, w, center, fname)
  local _, _, xm, ym = moments(X, y, w, center, fname) -- checks finiteness and weights
  local Xc, yc = X - xm, y - ym
  if w then
    local s = w:sqrt()
    Xc:mul(s, Xc)
    yc:mul(s, yc)
  end
  return Xc, yc, xm, ym
end

-- The fitted intercept b = ymean - xmean W (a number for one target).
local function intercept_of(W, xm, ym, center)
  if not center then return W:cols() == 1 and 0 or luma.zeros(1, W:cols()) end
  local b = ym - xm * W
  return W:cols() == 1 and b:get(1, 1) or b
end

-- Minimum-norm solution of G W = B for symmetric positive semi-definite G
-- through its eigendecomposition; eigenvalues below tol * the largest
-- count as zero.  Returns W, the rank and the eigenvalues (descending).
local function psd_solve(G, B, tol)
  local lam, V = luma.linalg.eigh(G, { order = "descending" })
  local d = lam:rows()
  local top = d > 0 and lam:get(1, 1) or 0
  local rank = 0
  for i = 1, d do
    if lam:get(i, 1) > tol * top then rank = i end
  end
  if rank == 0 then return luma.zeros(d, B:cols()), 0, lam end
  local Vr = V:sub(1, d, 1, rank)
  local inv = lam:sub(1, rank, 1, 1):pow(-1)
  return Vr * ((Vr:t() * B):mul(inv)), rank, lam
end

-- Residual statistics of a least-squares fit (notes 004 R5-R6): the ML
-- noise variance sum w r^2 / N and the negative log-likelihood at it,
-- (N/2)(log(2 pi sigma^2) + 1).
local function noise_statistics(self, X, y, w)
  local R = y - predict_linear(self, X)
  local R2 = R:pow(2)
  if w then R2:mul(w, R2) end
  local N = w and w:sum() or X:rows()
  local var = R2:sum(1) * (1 / N)
  local nll = (var * (2 * math.pi)):log():add(1) * (N / 2)
  if var:cols() == 1 then return var:get(1, 1), nll:get(1, 1) end
  return var, nll
end

-- ------------------------------------------------------ least squares

linear.LinearRegression = estimator.class{
  name = "luma.linear.LinearRegression", kind = "regressor",
  doc = "Ordinary (or weighted) least squares. solver \"auto\" solves the normal equations "
    .. "through an eigendecomposition of the centred Gram matrix (fast; accurate to about "
    .. "cond(X)^2 eps), \"cholesky\" through Cholesky, \"qr\" and \"svd\" factor the centred "
    .. "data itself (slower, accurate to cond(X) eps). Rank-deficient X gives the minimum-norm "
    .. "solution and a warning. Fitted: coef (d x k), intercept, rank, singular_values, "
    .. "noise_variance (the ML 1/N estimate, notes 004 (9.22)), neg_log_likelihood.",
  params = {
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "solver", type = "string", default = "auto", values = { "auto", "cholesky", "qr", "svd" },
      doc = "how the least-squares problem is solved" },
  },
  example = regression_example(function() return linear.LinearRegression{} end),
  fit = function(self, X, y, sample_weight)
    local p = self.params
    local w = estimator.check_sample_weight(X, sample_weight)
    local n, d = X:shape()
    local W, rank, s
    if p.solver == "auto" or p.solver == "cholesky" then
      local G, b, xm, ym = moments(X, y, w, p.fit_intercept)
      local ok
      if p.solver == "cholesky" then
        ok, W = pcall(luma.linalg.solve, G, b, { assume = "spd" })
        if not ok then warning("LinearRegression: X^T X is singular for Cholesky; using the minimum-norm solution") end
      end
      if not ok then
        local lam
        W, rank, lam = psd_solve(G, b, math.max(n, d) * EPS)
        s = lam:clamp(0, math.huge):sqrt()
      else
        rank = d
      end
      self.coef, self.intercept = W, intercept_of(W, xm, ym, p.fit_intercept)
    else
      local Xc, yc, xm, ym = centred_copy(X, y, w, p.fit_intercept)
      if p.solver == "qr" then
        local Q, R = luma.linalg.qr(Xc)
        s = luma.linalg.svd(R, { mode = "values" })
        rank = 0
        for i = 1, s:rows() do
          if s:get(i, 1) > s:get(1, 1) * math.max(n, d) * EPS then rank = i end
        end
        if rank == d and d <= n then
          W = luma.linalg.solve_triangular(R, Q:t() * yc, { lower = false })
        else
          W = luma.linalg.lstsq(Xc, yc)
        end
      else
        W, rank, s = luma.linalg.lstsq(Xc, yc)
      end
      self.coef, self.intercept = W, intercept_of(W, xm, ym, p.fit_intercept)
    end
    self.rank, self.singular_values = rank, s
    local full = math.min(d, n - (p.fit_intercept and 1 or 0))
    if rank < full then
      warning("LinearRegression: X has rank %d < %d (collinear columns); the coefficients are "
        .. "the minimum-norm solution", rank, full)
    end
    self.noise_variance, self.neg_log_likelihood = noise_statistics(self, X, y, w)
  end,
  predict = predict_linear,
}

-- -------------------------------------------------------------- ridge

-- The shrinkage target as a d x k matrix (zeros when not given).
local function shrink_target(v, d, k)
  if v == nil then return nil end
  if v:rows() ~= d or (v:cols() ~= 1 and v:cols() ~= k) then
    fail(4, "luma.linear.Ridge: shrink_to must be %d x 1 (one value per feature), got %d x %d",
      d, v:rows(), v:cols())
  end
  return v:cols() == k and v or v * luma.ones(1, k)
end

local function ridge_solve(p, X, y, w)
  local n, d = X:shape()
  local k = y:cols()
  local alpha = p.alpha
  local V = shrink_target(p.shrink_to, d, k)
  local solver = p.solver
  if solver == "auto" then solver = (n >= d or w) and "cholesky" or "dual" end
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

linear.Ridge = estimator.class{
  name = "luma.linear.Ridge", kind = "regressor",
  doc = "Ridge regression: minimises |y - Xw - b|^2 + alpha |w - shrink_to|^2 (the intercept "
    .. "is not penalised). solver: \"cholesky\" (normal equations), \"svd\", \"dual\" (the "
    .. "kernel form, n x n: cheaper when n < d), or \"auto\" (dual when n < d). shrink_to: "
    .. "a prior mean v to shrink towards (notes 001 §A). MAP reading: alpha = noise variance / "
    .. "prior variance.",
  params = {
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "solver", type = "string", default = "auto", values = { "auto", "cholesky", "svd", "dual" },
      doc = "how the system is solved" },
    { name = "shrink_to", type = "matrix", doc = "d x 1 vector the coefficients shrink towards (default 0)" },
  },
  example = regression_example(function() return linear.Ridge{ alpha = 0.5 } end),
  fit = function(self, X, y, sample_weight)
    local w = estimator.check_sample_weight(X, sample_weight)
    local W, xm, ym = ridge_solve(self.params, X, y, w)
    self.coef, self.intercept = W, intercept_of(W, xm, ym, self.params.fit_intercept)
  end,
  predict = predict_linear,
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

linear.RidgeCV = estimator.class{
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
  example = regression_example(function() return linear.RidgeCV{} end),
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
        estimator = linear.Ridge{ fit_intercept = p.fit_intercept },
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
}

linear.KernelRidge = estimator.class{
  name = "luma.linear.KernelRidge", kind = "regressor",
  doc = "Kernel ridge regression (notes 001 §G): dual_coef = (K + alpha I)^-1 y and predictions "
    .. "k(x, X_fit) dual_coef; no intercept. The notes' alpha-hat = 2 lambda (G + lambda I)^-1 y "
    .. "with prediction (1/2 lambda) sum alpha-hat_i k(x_i, x) is the same predictor with "
    .. "lambda = alpha. With a linear kernel it equals Ridge{fit_intercept = false} (the dual "
    .. "form of linear regression, notes 000 §6.7).",
  params = {
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
    { name = "kernel", type = "string|table", default = "linear",
      doc = "a luma.pairwise kernel name or a luma.kernels object" },
    { name = "gamma", type = "number", gt = 0, doc = "rbf/laplacian/polynomial/sigmoid gamma (default 1/d)" },
    { name = "degree", type = "integer", default = 3, min = 1, doc = "polynomial degree" },
    { name = "coef0", type = "number", default = 1, doc = "polynomial/sigmoid offset" },
  },
  example = regression_example(function() return linear.KernelRidge{ kernel = "rbf", gamma = 0.5 } end),
  fit = function(self, X, y)
    local p = self.params
    if type(p.kernel) == "table" and not luma.kernels.is_kernel(p.kernel) then
      fail(3, "luma.linear.KernelRidge: kernel must be a name or a luma.kernels object")
    end
    if not X:isfinite():all() then fail(3, "bad argument #1 to 'fit' (X contains NaN or Inf)") end
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

-- ------------------------------------------------ coordinate descent

local ENET_PARAMS = {
  { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
  { name = "precompute", type = "boolean|string", default = "auto",
    doc = "Gram-matrix (covariance) updates: true, false or \"auto\" (when n > d)" },
  { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "sweeps over the coordinates" },
  { name = "tol", type = "number", default = 1e-4, gt = 0, doc = "duality-gap tolerance relative to |y|^2" },
  { name = "positive", type = "boolean", default = false, doc = "constrain coefficients to be >= 0" },
  { name = "selection", type = "string", default = "cyclic", values = { "cyclic", "random" },
    doc = "coordinate order" },
  { name = "seed", type = "seed", doc = "for selection = \"random\"" },
}

local function with_params(first, rest)
  local out = {}
  for _, p in ipairs(first) do out[#out + 1] = p end
  for _, p in ipairs(rest) do out[#out + 1] = p end
  return out
end

-- The descent's problem data for the (centred, weighted) X, y: the Gram
-- form when precompute says so, else X^T and the centred targets.
local function enet_data(p, X, y, w, fname)
  local n, d = X:shape()
  local use_gram = p.precompute == true or (p.precompute == "auto" and n > d)
  if p.precompute ~= true and p.precompute ~= false and p.precompute ~= "auto" then
    fail(4, "luma.linear: precompute must be true, false or \"auto\", got %q", tostring(p.precompute))
  end
  local data = { n = n, d = d, N = w and w:sum() or n }
  if use_gram then
    data.G, data.q, data.xm, data.ym, data.yty = moments(X, y, w, p.fit_intercept, fname)
  else
    local Xc, yc, xm, ym = centred_copy(X, y, w, p.fit_intercept, fname)
    data.Xt, data.yc, data.xm, data.ym = Xc:t():copy(), yc, xm, ym
  end
  return data
end

-- Coordinate descent for target t at penalty alpha from the warm start w
-- (d x 1, updated); returns w, converged, sweeps, gap (in (1/2N) units).
local function enet_solve(data, t, alpha, l1_ratio, opts, w, rng)
  local cd_opts = { l1 = alpha * l1_ratio * data.N, l2 = alpha * (1 - l1_ratio) * data.N,
    positive = opts.positive, max_iter = opts.max_iter, tol = opts.tol }
  local converged, sweeps, gap
  if data.G then
    _, converged, sweeps, gap = core.enet_gram(data.G, data.q:col(t):copy(), data.yty:get(1, t), w, cd_opts, rng)
  else
    _, converged, sweeps, gap = core.enet_residual(data.Xt, data.yc:col(t):copy(), w, cd_opts, rng)
  end
  return w, converged, sweeps, gap / data.N
end

local function enet_fit(self, X, y, sample_weight, l1_ratio)
  local p = self.params
  local w = estimator.check_sample_weight(X, sample_weight)
  local data = enet_data(p, X, y, w)
  local k = y:cols()
  local rng = p.selection == "random" and estimator.rng(p.seed) or nil
  local W = luma.zeros(data.d, k)
  local gaps, iters = {}, {}
  for t = 1, k do
    local wt = luma.zeros(data.d, 1)
    local converged, sweeps, gap
    _, converged, sweeps, gap = enet_solve(data, t, p.alpha, l1_ratio, p, wt, rng)
    if not converged then
      warning("%s did not converge after %d sweeps (duality gap %.3g); raise max_iter or tol",
        self.__class.short_name, sweeps, gap)
    end
    W:col(t):assign(wt)
    gaps[t], iters[t] = gap, sweeps
  end
  self.coef, self.intercept = W, intercept_of(W, data.xm, data.ym, p.fit_intercept)
  self.dual_gap = k == 1 and gaps[1] or gaps
  self.n_iter = k == 1 and iters[1] or iters
end

linear.ElasticNet = estimator.class{
  name = "luma.linear.ElasticNet", kind = "regressor",
  doc = "Elastic net by coordinate descent: minimises (1/2N)|y - Xw - b|^2 + alpha (l1_ratio "
    .. "|w|_1 + (1 - l1_ratio)/2 |w|^2) (scikit-learn's scaling). Gram-matrix updates when "
    .. "n > d, an active set between full sweeps, stopping on the duality gap. Fitted: coef, "
    .. "intercept, dual_gap, n_iter.",
  params = with_params({
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
    { name = "l1_ratio", type = "number", default = 0.5, min = 0, max = 1, doc = "share of the l1 penalty" },
  }, ENET_PARAMS),
  example = regression_example(function() return linear.ElasticNet{ alpha = 0.1 } end),
  fit = function(self, X, y, sample_weight) return enet_fit(self, X, y, sample_weight, self.params.l1_ratio) end,
  predict = predict_linear,
}

linear.Lasso = estimator.class{
  name = "luma.linear.Lasso", kind = "regressor",
  doc = "The lasso (l1 penalty; the MAP estimate under a Laplace prior, notes 001 §A with "
    .. "erratum 4's l1 norm): minimises (1/2N)|y - Xw - b|^2 + alpha |w|_1 by coordinate "
    .. "descent. Fitted: coef, intercept, dual_gap, n_iter.",
  params = with_params({
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
  }, ENET_PARAMS),
  example = regression_example(function() return linear.Lasso{ alpha = 0.1 } end),
  fit = function(self, X, y, sample_weight) return enet_fit(self, X, y, sample_weight, 1) end,
  predict = predict_linear,
}

-- ------------------------------------------------------------- paths

-- The geometric grid from alpha_max (the smallest alpha giving w = 0:
-- max |x_j . y| / (N rho)) down to eps * alpha_max.
local function alpha_grid(data, l1_ratio, eps, n_alphas)
  if l1_ratio <= 0 then
    fail(4, "luma.linear: an automatic alpha grid needs l1_ratio > 0; give alphas")
  end
  local q = data.G and data.q or data.Xt * data.yc
  local top = q:abs():max() / (data.N * l1_ratio)
  local alphas = {}
  if top <= 0 then top = EPS end
  for i = 1, n_alphas do
    alphas[i] = n_alphas == 1 and top or top * eps ^ ((i - 1) / (n_alphas - 1))
  end
  return alphas
end

local PATH_OPTIONS = { l1_ratio = true, eps = true, n_alphas = true, alphas = true,
  precompute = true, max_iter = true, tol = true, positive = true, fit_intercept = true }

local function path_options(name, opts, l1_default)
  opts = opts or {}
  if type(opts) ~= "table" then fail(3, "%s: options must be a table, got %s", name, type(opts)) end
  for key in pairs(opts) do
    if not PATH_OPTIONS[key] then
      fail(3, "%s: unknown option '%s' (valid: l1_ratio, eps, n_alphas, alphas, precompute, "
        .. "max_iter, tol, positive, fit_intercept)", name, tostring(key))
    end
  end
  local o = { l1_ratio = opts.l1_ratio or l1_default, eps = opts.eps or 1e-3,
    n_alphas = opts.n_alphas or 100, alphas = opts.alphas, precompute = opts.precompute,
    max_iter = opts.max_iter or 1000, tol = opts.tol or 1e-4, positive = opts.positive or false,
    fit_intercept = opts.fit_intercept or false }
  if o.precompute == nil then o.precompute = "auto" end
  if type(o.l1_ratio) ~= "number" or o.l1_ratio < 0 or o.l1_ratio > 1 then
    fail(3, "%s: l1_ratio must be in [0, 1]", name)
  end
  if not (o.eps > 0 and o.eps < 1) then fail(3, "%s: eps must be in (0, 1)", name) end
  if math.type(o.n_alphas) ~= "integer" or o.n_alphas < 1 then fail(3, "%s: n_alphas must be an integer >= 1", name) end
  return o
end

-- Solutions along a decreasing alpha sequence, each warm-started from the
-- previous one.  Returns alphas (m x 1), coefs (d x m), gaps (m x 1) and
-- the sweeps per alpha.
local function run_path(data, o)
  local alphas = o.alphas
  if alphas == nil then
    alphas = alpha_grid(data, o.l1_ratio, o.eps, o.n_alphas)
  elseif luma.ismatrix(alphas) then
    alphas = alphas:flatten():totable()
    for i, row in ipairs(alphas) do alphas[i] = type(row) == "table" and row[1] or row end
  end
  table.sort(alphas, function(a, b) return a > b end)
  local m = #alphas
  local coefs, gaps, sweeps = luma.zeros(data.d, m), luma.zeros(m, 1), {}
  local w = luma.zeros(data.d, 1)
  for i, alpha in ipairs(alphas) do
    if type(alpha) ~= "number" or alpha < 0 then fail(4, "luma.linear: alphas must be numbers >= 0") end
    local converged, n, gap
    _, converged, n, gap = enet_solve(data, 1, alpha, o.l1_ratio, o, w)
    if not converged then
      warning("path did not converge at alpha = %.4g after %d sweeps (duality gap %.3g)", alpha, n, gap)
    end
    coefs:col(i):assign(w)
    gaps:set(i, 1, gap)
    sweeps[i] = n
  end
  return luma.matrix(alphas), coefs, gaps, sweeps
end

local function path(name, l1_default)
  return function(X, y, opts)
    if not luma.ismatrix(X) then fail(2, "bad argument #1 to '%s' (X must be a luma.Matrix)", name) end
    if not luma.ismatrix(y) or y:cols() ~= 1 then
      fail(2, "bad argument #2 to '%s' (y must be an n x 1 luma.Matrix)", name)
    end
    if y:rows() ~= X:rows() then
      fail(2, "bad argument #2 to '%s' (X has %d rows but y has %d)", name, X:rows(), y:rows())
    end
    local o = path_options("luma.linear." .. name, opts, l1_default)
    return run_path(enet_data(o, X, y, nil, name), o)
  end
end

--- enet_path(X, y [, opts]) -> alphas, coefs, dual_gaps, n_iters: the
-- elastic-net solutions for a decreasing sequence of alphas (opts.alphas,
-- or n_alphas = 100 spaced geometrically from alpha_max down to eps =
-- 1e-3 times it), warm-started one from the next.  X and y are used as
-- given (opts.fit_intercept = true centres them), as in scikit-learn.
linear.enet_path = path("enet_path", 0.5)
--- lasso_path(X, y [, opts]): enet_path with l1_ratio = 1.
linear.lasso_path = path("lasso_path", 1)

-- ------------------------------------------------ cross-validated l1

local function cv_fit(self, X, y, l1_ratios)
  local p = self.params
  if y:cols() ~= 1 then fail(3, "%s: y must have one column", self.__class.name) end
  local base = { precompute = p.precompute, max_iter = p.max_iter, tol = p.tol,
    positive = p.positive, fit_intercept = p.fit_intercept }
  local full = enet_data(base, X, y, nil)
  local splits = luma.model_selection.check_cv(p.cv, X, y, false)
  local best = { mse = math.huge }
  self.mse_path, self.alphas = {}, {}
  for r, l1_ratio in ipairs(l1_ratios) do
    if type(l1_ratio) ~= "number" or l1_ratio <= 0 or l1_ratio > 1 then
      fail(3, "%s: l1_ratio values must be in (0, 1], got %s", self.__class.name, tostring(l1_ratio))
    end
    local o = { l1_ratio = l1_ratio, max_iter = p.max_iter, tol = p.tol, positive = p.positive }
    o.alphas = p.alphas or alpha_grid(full, l1_ratio, p.eps, p.n_alphas)
    local alphas
    local mse = nil
    for f, split in ipairs(splits) do
      local train, test = split[1], split[2]
      local data = enet_data(base, X:take(train), y:take(train), nil)
      local coefs
      alphas, coefs = run_path(data, o)
      local Xt, yt = X:take(test), y:take(test)
      local pred = (Xt - data.xm) * coefs + data.ym:get(1, 1)
      local fold = (pred - yt):pow(2):mean(1):t()
      mse = mse or luma.zeros(alphas:rows(), #splits)
      mse:col(f):assign(fold)
    end
    local mean = mse:mean(2)
    for i = 1, alphas:rows() do
      if mean:get(i, 1) < best.mse then
        best = { mse = mean:get(i, 1), alpha = alphas:get(i, 1), l1_ratio = l1_ratio }
      end
    end
    self.mse_path[r], self.alphas[r] = mse, alphas
  end
  if #l1_ratios == 1 then self.mse_path, self.alphas = self.mse_path[1], self.alphas[1] end
  self.alpha, self.l1_ratio = best.alpha, best.l1_ratio
  local final = linear.ElasticNet{ alpha = best.alpha, l1_ratio = best.l1_ratio,
    fit_intercept = p.fit_intercept, precompute = p.precompute, max_iter = p.max_iter,
    tol = p.tol, positive = p.positive }:fit(X, y)
  self.coef, self.intercept = final.coef, final.intercept
  self.dual_gap, self.n_iter = final.dual_gap, final.n_iter
end

local CV_PARAMS = {
  { name = "eps", type = "number", default = 1e-3, gt = 0, lt = 1, doc = "alpha_min / alpha_max of the grid" },
  { name = "n_alphas", type = "integer", default = 100, min = 1, doc = "grid size" },
  { name = "alphas", type = "table", doc = "explicit candidate alphas (instead of the grid)" },
  { name = "cv", type = "any", doc = "folds: an integer (KFold, default 5), a splitter or splits" },
  { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
  { name = "precompute", type = "boolean|string", default = "auto", doc = "Gram-matrix updates" },
  { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "sweeps per alpha" },
  { name = "tol", type = "number", default = 1e-4, gt = 0, doc = "duality-gap tolerance" },
  { name = "positive", type = "boolean", default = false, doc = "coefficients >= 0" },
}

linear.ElasticNetCV = estimator.class{
  name = "luma.linear.ElasticNetCV", kind = "regressor",
  doc = "ElasticNet with alpha (and l1_ratio, when given a list) chosen by cross-validated mean "
    .. "squared error along warm-started paths (the grid is computed on all the data, as "
    .. "scikit-learn does), then refitted on all the data. Fitted: alpha, l1_ratio, alphas, "
    .. "mse_path (alphas x folds), coef, intercept.",
  params = with_params({
    { name = "l1_ratio", type = "number|table", default = 0.5, doc = "a value in (0, 1] or a list of them" },
  }, CV_PARAMS),
  example = regression_example(function() return linear.ElasticNetCV{ n_alphas = 5, cv = 3 } end),
  fit = function(self, X, y)
    local r = self.params.l1_ratio
    cv_fit(self, X, y, type(r) == "table" and r or { r })
  end,
  predict = predict_linear,
}

linear.LassoCV = estimator.class{
  name = "luma.linear.LassoCV", kind = "regressor",
  doc = "Lasso with alpha chosen by cross-validated mean squared error along a warm-started "
    .. "path, then refitted on all the data. Fitted: alpha, alphas, mse_path, coef, intercept.",
  params = CV_PARAMS,
  example = regression_example(function() return linear.LassoCV{ n_alphas = 5, cv = 3 } end),
  fit = function(self, X, y) cv_fit(self, X, y, { 1 }) end,
  predict = predict_linear,
}

for name, class in pairs(require("luma.linear.logistic")) do linear[name] = class end
for name, class in pairs(require("luma.linear.bayes")) do linear[name] = class end
for name, class in pairs(require("luma.linear.robust")) do linear[name] = class end

luma.doc.set(linear, { name = "luma.linear",
  doc = "Linear models: LinearRegression, Ridge, RidgeCV, KernelRidge, Lasso, ElasticNet, "
    .. "LassoCV, ElasticNetCV, lasso_path, enet_path, LogisticRegression, BayesianLinearRegression, "
    .. "SparseBayesianRegression, RelevanceVectorRegression, RelevanceVectorClassification, "
    .. "HuberRegressor, LADRegression, QuantileRegressor, Perceptron, BayesianLogisticRegression, "
    .. "MixtureLinearRegression." })

return linear
