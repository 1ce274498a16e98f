--- luma.linear.lasso: the l1 family by coordinate descent (part of
-- luma.linear, docs/LINEAR.md): Lasso, ElasticNet, their regularisation
-- paths (lasso_path, enet_path) and cross-validated forms (LassoCV,
-- ElasticNetCV).
--
-- Lasso / ElasticNet minimise (1/2N)|y - Xw - b|^2 + alpha (rho |w|_1 +
-- (1 - rho)/2 |w|^2), rho = l1_ratio, N = the number of samples (or the
-- sum of the sample weights): scikit-learn's scaling.  The sweeps are
-- native (luma.linear.native: enet_gram on the Gram matrix, enet_residual
-- on X^T and the residual).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local fail, warning, EPS = common.fail, common.warning, common.EPS
local predict_linear, regression_example = common.predict_linear, common.regression_example
local moments, centred_copy, intercept_of = common.moments, common.centred_copy, common.intercept_of
local core = require("luma.linear.native")

local M = {}

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
-- The largest width of a sparse X whose descent may run on the dense d x
-- d Gram matrix; wider ones (and precompute = false) go over the CSC
-- columns.
local SPARSE_GRAM_MAX = 4096

-- The Gram form's moments of a sparse X, as common.moments gives them for
-- a dense one: G = sum_i w_i (x_i - xm)(x_i - xm)^T = X^T D X - N xm^T xm
-- (a sparse product), q = X^T D (y - ym), yty the weighted sums of
-- squares of the centred targets.
local function sparse_moments(X, y, w, center, fname)
  local n, d = X:shape()
  local k = y:cols()
  if d > SPARSE_GRAM_MAX then
    fail(5, "bad argument #1 to '%s' (precompute = true builds the dense Gram matrix of a "
      .. "sparse X, at most %d columns; this one has %d)", fname or "fit", SPARSE_GRAM_MAX, d)
  end
  args.finite(X, 1, fname or "fit", 5)
  args.finite(y, 2, fname or "fit", 5)
  local N = w and w:sum() or n
  local xm, ym = luma.zeros(1, d), luma.zeros(1, k)
  if center then
    xm = w and X:tmatmul(w):t() / N or X:mean(1)
    ym = w and w:t() * y / N or y:mean(1)
  end
  local Xw = w and X:multiply_rows(w) or X
  local G = (X:t() * Xw):todense() - xm:t() * xm * N
  G = (G + G:t()) * 0.5 -- the product sums (i, j) and (j, i) in different orders
  local yc = y - ym
  local q = Xw:tmatmul(yc)
  local sq = yc:pow(2)
  if w then sq = sq:mul(w) end
  return G, q, xm, ym, sq:sum(1)
end

-- The residual form of a sparse X: its CSC columns, centred and weighted
-- implicitly in the native descent; yc the centred target times sqrt(w),
-- q = Xc^T D yc for the alpha grid.
local function sparse_residual(X, y, w, center, fname)
  local n, d = X:shape()
  args.finite(X, 1, fname or "fit", 5)
  args.finite(y, 2, fname or "fit", 5)
  local N = w and w:sum() or n
  local xm, ym = luma.zeros(1, d), luma.zeros(1, y:cols())
  if center then
    xm = w and X:tmatmul(w):t() / N or X:mean(1)
    ym = w and w:t() * y / N or y:mean(1)
  end
  local sw = w and w:sqrt() or nil
  local yc = y - ym
  if sw then yc = yc:mul(sw) end
  local wyc = sw and yc:mul(sw) or yc -- D (y - ym)
  local q = X:tmatmul(wyc) - xm:t() * wyc:sum(1)
  return { csc = X:tocsc(), sw = sw, yc = yc, q = q, xm = xm, ym = ym }
end

local function enet_data(p, X, y, w, fname)
  local n, d = X:shape()
  if luma.sparse.issparse(X) then
    local data = { n = n, d = d, N = w and w:sum() or n }
    -- the Gram form when it is small and asked for (or "auto" with n > d),
    -- else coordinate descent over the CSC columns
    local gram = p.precompute == true or (p.precompute == "auto" and n > d and d <= SPARSE_GRAM_MAX)
    if gram then
      data.G, data.q, data.xm, data.ym, data.yty = sparse_moments(X, y, w, p.fit_intercept, fname)
    else
      local r = sparse_residual(X, y, w, p.fit_intercept, fname)
      data.csc, data.sw, data.yc, data.q, data.xm, data.ym = r.csc, r.sw, r.yc, r.q, r.xm, r.ym
      data.center = p.fit_intercept
    end
    return data
  end
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
  local _, converged, sweeps, gap
  if data.G then
    _, converged, sweeps, gap = core.enet_gram(data.G, data.q:col(t):copy(), data.yty:get(1, t), w, cd_opts, rng)
  elseif data.csc then
    _, converged, sweeps, gap = core.enet_sparse(data.csc, data.yc:col(t):copy(),
      data.center and data.xm or nil, data.sw, w, cd_opts, rng)
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
    local _, converged, sweeps, gap = enet_solve(data, t, p.alpha, l1_ratio, p, wt, rng)
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

M.ElasticNet = estimator.class{
  name = "luma.linear.ElasticNet", kind = "regressor",
  doc = "Elastic net by coordinate descent: minimises (1/2N)|y - Xw - b|^2 + alpha (l1_ratio "
    .. "|w|_1 + (1 - l1_ratio)/2 |w|^2) (scikit-learn's scaling). Gram-matrix updates when "
    .. "n > d, an active set between full sweeps, stopping on the duality gap. Fitted: coef, "
    .. "intercept, dual_gap, n_iter.",
  params = with_params({
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
    { name = "l1_ratio", type = "number", default = 0.5, min = 0, max = 1, doc = "share of the l1 penalty" },
  }, ENET_PARAMS),
  sparse = true,
  example = regression_example(function() return M.ElasticNet{ alpha = 0.1 } end),
  fit = function(self, X, y, sample_weight) return enet_fit(self, X, y, sample_weight, self.params.l1_ratio) end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

M.Lasso = estimator.class{
  name = "luma.linear.Lasso", kind = "regressor",
  doc = "The lasso (l1 penalty; the MAP estimate under a Laplace prior; Tibshirani, "
    .. "1996): minimises (1/2N)|y - Xw - b|^2 + alpha |w|_1 by coordinate "
    .. "descent. Fitted: coef, intercept, dual_gap, n_iter.",
  params = with_params({
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty strength" },
  }, ENET_PARAMS),
  sparse = true,
  example = regression_example(function() return M.Lasso{ alpha = 0.1 } end),
  fit = function(self, X, y, sample_weight) return enet_fit(self, X, y, sample_weight, 1) end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

-- ------------------------------------------------------------- paths

-- The geometric grid from alpha_max (the smallest alpha giving w = 0:
-- max |x_j . y| / (N rho)) down to eps * alpha_max.
local function alpha_grid(data, l1_ratio, eps, n_alphas)
  if l1_ratio <= 0 then
    fail(4, "luma.linear: an automatic alpha grid needs l1_ratio > 0; give alphas")
  end
  local q = data.q or data.Xt * data.yc
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
    local _, converged, n, gap = enet_solve(data, 1, alpha, o.l1_ratio, o, w)
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
    if not luma.ismatrix(X) and not luma.sparse.issparse(X) then
      fail(2, "bad argument #1 to '%s' (X must be a luma.Matrix or a sparse matrix)", name)
    end
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
M.enet_path = path("enet_path", 0.5)
--- lasso_path(X, y [, opts]): enet_path with l1_ratio = 1.
M.lasso_path = path("lasso_path", 1)

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
      local pred
      if luma.sparse.issparse(Xt) then
        -- (X - 1 xm) W = X W - 1 (xm W): the fold's rows stay sparse
        pred = Xt * coefs - data.xm * coefs + data.ym:get(1, 1)
      else
        pred = (Xt - data.xm) * coefs + data.ym:get(1, 1)
      end
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
  local final = M.ElasticNet{ alpha = best.alpha, l1_ratio = best.l1_ratio,
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

M.ElasticNetCV = estimator.class{
  name = "luma.linear.ElasticNetCV", kind = "regressor",
  doc = "ElasticNet with alpha (and l1_ratio, when given a list) chosen by cross-validated mean "
    .. "squared error along warm-started paths (the grid is computed on all the data, as "
    .. "scikit-learn does), then refitted on all the data. Fitted: alpha, l1_ratio, alphas, "
    .. "mse_path (alphas x folds), coef, intercept.",
  params = with_params({
    { name = "l1_ratio", type = "number|table", default = 0.5, doc = "a value in (0, 1] or a list of them" },
  }, CV_PARAMS),
  sparse = true,
  example = regression_example(function() return M.ElasticNetCV{ n_alphas = 5, cv = 3 } end),
  fit = function(self, X, y)
    local r = self.params.l1_ratio
    cv_fit(self, X, y, type(r) == "table" and r or { r })
  end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

M.LassoCV = estimator.class{
  name = "luma.linear.LassoCV", kind = "regressor",
  doc = "Lasso with alpha chosen by cross-validated mean squared error along a warm-started "
    .. "path, then refitted on all the data. Fitted: alpha, alphas, mse_path, coef, intercept.",
  params = CV_PARAMS,
  sparse = true,
  example = regression_example(function() return M.LassoCV{ n_alphas = 5, cv = 3 } end),
  fit = function(self, X, y) cv_fit(self, X, y, { 1 }) end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

local PATH_PARAMS = {
  { name = "l1_ratio", default = 0.5, doc = "the L1 share of the penalty (1 for lasso_path)" },
  { name = "eps", default = 1e-3, doc = "alpha_min / alpha_max of the automatic grid" },
  { name = "n_alphas", default = 100, doc = "the number of alphas of the automatic grid" },
  { name = "alphas", doc = "the alphas to use instead of the automatic grid" },
  { name = "precompute", default = "auto", doc = "use the Gram matrix (true, false, \"auto\")" },
  { name = "max_iter", default = 1000, doc = "coordinate descent sweeps per alpha" },
  { name = "tol", default = 1e-4, doc = "the duality-gap tolerance" },
  { name = "positive", default = false, doc = "constrain the coefficients to be >= 0" },
  { name = "fit_intercept", default = false, doc = "centre X and y first" },
}
luma.doc.set_members(M, "luma.linear", {
  enet_path = { signature = "enet_path(X, y [, opts]) -> alphas, coefs, dual_gaps, n_iters",
    params = PATH_PARAMS,
    doc = "The elastic-net solutions for a decreasing sequence of alphas (by default 100 "
      .. "spaced geometrically from alpha_max, where w becomes 0, down to eps alpha_max), "
      .. "each warm-started from the previous one (Friedman, Hastie and Tibshirani, "
      .. "Regularization Paths for Generalized Linear Models via Coordinate Descent, 2010). "
      .. "X and y are used as given unless fit_intercept, as in scikit-learn." },
  lasso_path = { signature = "lasso_path(X, y [, opts]) -> alphas, coefs, dual_gaps, n_iters",
    params = PATH_PARAMS,
    doc = "The lasso solutions for a decreasing sequence of alphas: enet_path with l1_ratio "
      .. "= 1." },
})

return M
