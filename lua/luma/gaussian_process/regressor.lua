--- luma.gaussian_process.regressor: GaussianProcessRegressor, Gaussian
-- process regression with hyperparameters fitted by maximising the log
-- marginal likelihood (Rasmussen & Williams 2006, Alg. 2.1 and §5.4.1;
-- notes 000 §6.5, notes 003 §1.21; scikit-learn's
-- GaussianProcessRegressor, which it matches).
--
-- With K = k(X, X) + alpha I = L L^T (Cholesky throughout, never an
-- inverse for the predictions):
--   dual_coef = K^-1 y                       (Alg. 2.1 line 3)
--   mean(x*)  = k(x*, X) dual_coef            (line 4)
--   cov(x*)   = k(x*, x*) - V^T V, V = L^-1 k(X, x*)   (lines 5-6)
--   log p(y | X, theta) = -y^T K^-1 y / 2 - sum log L_ii - n/2 log 2 pi (line 7)
--   d/dtheta_j = tr((a a^T - K^-1) dK/dtheta_j) / 2, a = K^-1 y   (eq. 5.9)
-- K^-1 for the gradient comes from L by LAPACK's dpotri
-- (luma.gaussian_process.native.cho_inverse).  Several target columns
-- share the kernel: their log likelihoods and gradients add up.
--
-- The notes' forms are special cases (tests/gaussian_process): notes 003
-- §1.21's noise-free GP is alpha -> 0 with the RBF kernel
-- exp(-|x - y|^2 / (2 sigma^2)), the noisy one alpha = sigma^2; notes 000
-- §6.5's Prince parameterisation, prior variance sigma_p^2 times K and
-- (K + (sigma^2 / sigma_p^2) I)^-1, is kernel = sigma_p^2 * k with
-- alpha = sigma^2.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.gaussian_process.common")
local kernels = require("luma.gaussian_process.kernels")
local native = require("luma.gaussian_process.native")

local fail, warning, check_finite = common.fail, common.warning, common.check_finite
local LOG_2PI = common.LOG_2PI

local M = {}

local NAME = "luma.gaussian_process.GaussianProcessRegressor"

-- alpha: a number >= 0, or one value per training row (n x 1).
local function check_alpha(alpha, n, level)
  if type(alpha) == "number" then return alpha end
  if alpha:cols() ~= 1 or (alpha:rows() ~= n and alpha:rows() ~= 1) then
    fail(level + 1, "%s: parameter 'alpha' must be a number or %d x 1 (one value per training "
      .. "row), got %d x %d", NAME, n, alpha:rows(), alpha:cols())
  end
  if not alpha:isfinite():all() or alpha:min() < 0 then
    fail(level + 1, "%s: parameter 'alpha' must be finite and >= 0", NAME)
  end
  return alpha:rows() == 1 and alpha:get(1, 1) or alpha
end

-- K + alpha on the diagonal, in place.
local function add_alpha(K, alpha)
  local d = K:diag()
  d:add(alpha, d)
  return K
end

-- The log marginal likelihood of the training targets Y (n x t) under
-- kernel, and with want_grad its gradient in theta (p x 1); -inf (and a
-- zero gradient) when K + alpha I is not positive definite, as
-- scikit-learn, so that the optimizer backs off.
local function log_marginal(kernel, X, Y, alpha, want_grad)
  local K, G
  if want_grad then K, G = kernel:gradient(X) else K = kernel(X) end
  local L = common.cholesky(add_alpha(K, alpha))
  if not L then return -math.huge, want_grad and luma.zeros(#G, 1) or nil end
  local A = common.solve_cholesky(L, Y)
  local n, t = Y:rows(), Y:cols()
  local value = -0.5 * Y:dot(A) - t * (L:diag():log():sum() + 0.5 * n * LOG_2PI)
  if not want_grad then return value end
  local Kinv = native.cho_inverse(L)
  local grad = luma.zeros(#G, 1)
  for j, dK in ipairs(G) do
    grad:set(j, 1, 0.5 * (A:dot(dK * A) - t * Kinv:dot(dK)))
  end
  return value, grad
end

-- Options of predict and sample_y.
local function check_options(fname, opts, allowed, level)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    fail(level + 1, "bad argument #2 to '%s' (options table expected, got %s)", fname, type(opts))
  end
  for key in pairs(opts) do
    if not allowed[key] then
      local names = {}
      for name in pairs(allowed) do names[#names + 1] = name end
      table.sort(names)
      fail(level + 1, "bad argument #2 to '%s' (unknown option '%s'; valid: %s)", fname,
        tostring(key), table.concat(names, ", "))
    end
  end
  return opts
end

-- The posterior (or, unfitted, prior) mean and covariance at X for each
-- target column: mean m x t, covariances a list of t m x m matrices.
local function joint(self, X)
  local Kss = self.kernel(X)
  local Ks = self.kernel(X, self.X_train)
  local mean = (Ks * self.dual_coef):mul(self.y_std):add(self.y_mean)
  local V = luma.linalg.solve_triangular(self.L, Ks:t(), { lower = true })
  local C = Kss:subtract(V:t() * V, Kss)
  local covs = {}
  for j = 1, self.y_std:cols() do covs[j] = C * (self.y_std:get(1, j) ^ 2) end
  return mean, covs
end

-- A square root R (R R^T = C) of a covariance through its eigenvalues,
-- negative ones (rounding) clipped: posterior covariances are singular at
-- the training points of a noise-free fit.
local function psd_sqrt(C)
  local lam, V = luma.linalg.eigh(C)
  return V:mul(lam:clamp(0, math.huge):sqrt():t())
end

local function fit(self, X, y)
  local p = self.params
  check_finite(X, 1, "fit", "X", 3)
  check_finite(y, 2, "fit", "y", 3)
  local kernel = common.the_kernel(NAME, p.kernel, 3)
  local alpha = check_alpha(p.alpha, X:rows(), 3)
  local t = y:cols()
  local mean, std = luma.zeros(1, t), luma.ones(1, t)
  if p.normalize_y then
    -- scikit-learn: the population standard deviation, 1 where it is ~0
    mean, std = y:mean(1), y:std(1)
    std = luma.matrix.where(std:lt(10 * 2.220446049250313e-16), 1, std)
  end
  local Y = (y - mean):div(std)
  if p.optimizer == "lbfgsb" and kernel:n_dims() > 0 then
    local start = kernel
    local theta = common.optimize{
      name = "GaussianProcessRegressor", kernel = start, restarts = p.n_restarts_optimizer,
      rng = estimator.rng(p.seed),
      objective = function(th, want_grad)
        local v, g = log_marginal(start:clone_with_theta(th), X, Y, alpha, want_grad)
        if want_grad then return -v, g:mul(-1, g) end
        return -v
      end,
    }
    if theta then kernel = start:clone_with_theta(theta) end
  end
  local K = add_alpha(kernel(X), alpha)
  local L = common.cholesky(K)
  if not L then
    common.not_positive_definite(3, "GaussianProcessRegressor", K, "the kernel matrix k(X, X) + "
      .. "alpha I", "raise the parameter 'alpha' or add a WhiteKernel to the parameter 'kernel'")
  end
  self.kernel, self.L, self.X_train, self.y_train = kernel, L, X:copy(), Y
  self.y_mean, self.y_std = mean, std
  self.dual_coef = common.solve_cholesky(L, Y)
  self.log_marginal_likelihood_value = -0.5 * Y:dot(self.dual_coef)
    - t * (L:diag():log():sum() + 0.5 * X:rows() * LOG_2PI)
end

local PREDICT_OPTIONS = { std = true, cov = true }

local function predict(self, X, opts)
  opts = check_options("predict", opts, PREDICT_OPTIONS, 2)
  check_finite(X, 1, "predict", "X", 2)
  if opts.std and opts.cov then
    fail(2, "bad argument #2 to 'predict' (ask for std or cov, not both)")
  end
  local Ks = self.kernel(X, self.X_train)
  local mean = (Ks * self.dual_coef):mul(self.y_std):add(self.y_mean)
  if opts.cov then
    local _, covs = joint(self, X)
    return mean, #covs == 1 and covs[1] or covs
  end
  if not opts.std then return mean end
  local V = luma.linalg.solve_triangular(self.L, Ks:t(), { lower = true })
  local var = self.kernel:diag(X):subtract(V:pow(2):sum(1):t())
  if var:lt(0):any() then
    warning("GaussianProcessRegressor: predicted variances smaller than 0 (rounding); set to 0")
    var = var:clamp(0, math.huge)
  end
  return mean, (var * self.y_std:pow(2)):sqrt()
end

--- m:sample_y(X, n [, {seed, prior}]) -> draws of the GP at the rows of X.
local function sample_y(self, X, n, opts)
  if not luma.ismatrix(X) then
    fail(2, "bad argument #1 to 'sample_y' (X must be a luma.Matrix, got %s)", type(X))
  end
  if math.type(n) ~= "integer" or n < 1 then
    fail(2, "bad argument #2 to 'sample_y' (n must be an integer >= 1, got %s)", tostring(n))
  end
  opts = check_options("sample_y", opts, { seed = true, prior = true }, 2)
  check_finite(X, 1, "sample_y", "X", 2)
  local rng = estimator.rng(opts.seed)
  local mean, covs
  if opts.prior then
    -- The prior of the kernel as given (before any fit): zero mean.
    local kernel = common.the_kernel(NAME, self.params.kernel, 2)
    mean, covs = luma.zeros(X:rows(), 1), { kernel(X) }
  else
    if not self:is_fitted() then fail(2, "%s: sample_y called before fit (or pass {prior = true})", NAME) end
    if X:cols() ~= self.n_features_in then
      fail(2, "bad argument #1 to 'sample_y' (X has %d columns but %s was fitted on %d)", X:cols(),
        NAME, self.n_features_in)
    end
    mean, covs = joint(self, X)
  end
  local draws = {}
  for j, C in ipairs(covs) do
    draws[j] = psd_sqrt(C) * rng:normal(X:rows(), n) + mean:col(j)
  end
  return #draws == 1 and draws[1] or draws
end

--- m:log_marginal_likelihood([theta [, {gradient = true}]]) -> value [, grad]
local function log_marginal_likelihood(self, theta, opts)
  if not self:is_fitted() then fail(2, "%s: log_marginal_likelihood called before fit", NAME) end
  opts = check_options("log_marginal_likelihood", opts, { gradient = true }, 2)
  if theta == nil then
    if opts.gradient then
      fail(2, "bad argument #1 to 'log_marginal_likelihood' (the gradient needs theta)")
    end
    return self.log_marginal_likelihood_value
  end
  local ok, kernel = pcall(self.kernel.clone_with_theta, self.kernel, theta)
  if not ok then
    fail(2, "bad argument #1 to 'log_marginal_likelihood' (theta must be %d finite numbers, the "
      .. "logs of the kernel's free hyperparameters)", self.kernel:n_dims())
  end
  local alpha = check_alpha(self.params.alpha, self.X_train:rows(), 2)
  return log_marginal(kernel, self.X_train, self.y_train, alpha, opts.gradient == true)
end

M.GaussianProcessRegressor = estimator.class{
  name = NAME, kind = "regressor",
  doc = "Gaussian process regression (Rasmussen & Williams 2006, Alg. 2.1; Bishop, Pattern "
    .. "Recognition and Machine Learning, sec. 6.4). The kernel's hyperparameters are fitted by "
    .. "maximising the log marginal "
    .. "likelihood with L-BFGS-B (luma.optim) from the kernel's values and n_restarts_optimizer "
    .. "seeded log-uniform starts within the bounds; alpha is added to the diagonal (noise "
    .. "variance or jitter). predict(X, {std = true} | {cov = true}) returns the mean and the "
    .. "standard deviation or covariance; sample_y(X, n, {seed, prior}) draws from the "
    .. "posterior (prior = true: the prior, also before fit); log_marginal_likelihood([theta "
    .. "[, {gradient = true}]]). Fitted: kernel (with fitted hyperparameters), "
    .. "log_marginal_likelihood_value, dual_coef, L, X_train, y_train, y_mean, y_std. Matches "
    .. "scikit-learn's GaussianProcessRegressor.",
  method_docs = {
    predict = { signature = "est:predict(X [, {std = false, cov = false}]) -> mean [, std | cov]",
      doc = "The posterior mean at the rows of X; with std, also the posterior standard "
        .. "deviation, with cov the posterior covariance (not both). Returns the "
        .. "m x t mean, then the m x t standard deviations or the m x m covariance (a list of "
        .. "t of them for t target columns)." },
    sample_y = { signature = "est:sample_y(X, n [, {seed = nil, prior = false}]) -> matrix",
      doc = "Draws n functions from the posterior (prior = true: from the prior of the kernel "
        .. "as given, also before fit) at the rows of X, through an eigendecomposition of the "
        .. "covariance; seed is an integer or a generator (default: the default generator). "
        .. "Returns an m x n matrix (a list of t of them for t target columns)." },
    log_marginal_likelihood = {
      signature = "est:log_marginal_likelihood([theta = fitted [, {gradient = false}]]) -> "
        .. "number [, grad]",
      doc = "log p(y | X, theta) of the training targets (Rasmussen & Williams, eq. 2.30), "
        .. "theta the logs of the kernel's free hyperparameters (k:theta()); without theta the "
        .. "fitted value. With gradient = true (theta given) also its gradient in theta "
        .. "(eq. 5.9). Returns a number, and the p x 1 gradient when asked; -math.huge when "
        .. "the kernel matrix is not positive definite at theta." },
  },
  params = {
    { name = "kernel", type = "table",
      doc = "a luma.gaussian_process.kernels kernel (default ConstantKernel(1, fixed) * RBF(1, fixed))" },
    { name = "alpha", type = "number|matrix", default = 1e-10, min = 0,
      doc = "added to the diagonal of k(X, X): noise variance or jitter (a number or n x 1)" },
    { name = "optimizer", type = "string", default = "lbfgsb", values = { "lbfgsb", "none" },
      doc = "\"lbfgsb\" fits the hyperparameters, \"none\" keeps the kernel's" },
    { name = "n_restarts_optimizer", type = "integer", default = 0, min = 0,
      doc = "extra L-BFGS-B starts drawn log-uniformly within the bounds" },
    { name = "normalize_y", type = "boolean", default = false,
      doc = "centre y and scale it to unit variance before fitting (undone in predictions)" },
    { name = "seed", type = "seed", doc = "seed or generator for the restarts" },
  },
  example = common.regression_example(function()
    return M.GaussianProcessRegressor{ kernel = kernels.ConstantKernel() * kernels.RBF()
      + kernels.WhiteKernel{ noise_level = 0.01 } }
  end),
  fit = fit,
  predict = predict,
  sample_y = sample_y,
  log_marginal_likelihood = log_marginal_likelihood,
}

return M
