--- luma.linear.bayes: Bayesian linear models (re-exported by luma.linear).
--
--   * BayesianLinearRegression: Gaussian prior N(m0, S0) on the weights,
--     Gaussian noise sigma^2 (notes 004 §9.3, notes 001 §B with errata 2-3),
--     optionally with the prior and noise precisions chosen by evidence
--     maximisation (MacKay's fixed point, notes 000 §6.3): scikit-learn's
--     BayesianRidge.
--   * SparseBayesianRegression: a product-of-Student-t prior on the weights
--     as a Gamma scale mixture with hidden precisions h_d, fitted by the
--     fixed-point updates of notes 000 §6.6 and pruning (scikit-learn's
--     ARDRegression with lambda_1 = lambda_2 = nu / 2).
--   * RelevanceVectorRegression: the same updates on the kernel basis
--     k(x, x_n) (+ a bias), notes 000 §6.8.
--   * RelevanceVectorClassification: binary; a Laplace approximation (IRLS
--     for the mode) inside the same loop, notes 000 §7.5.
--
-- Notation: rows are samples (the notes' Ch. 6-7 use X D x N; every
-- formula below is transposed to X N x D).  alpha is the prior precision
-- of the weights (notes: 1/sigma_p^2, 1/b^2), beta = 1/sigma^2 the noise
-- precision.  scikit-learn calls these lambda_ and alpha_.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local fail, warning, EPS = common.fail, common.warning, common.EPS
local kernel_matrix, regression_example = common.kernel_matrix, common.regression_example
local core = require("luma.linear.native")
local special = require("luma.special")

local M = {}

local LOG_2PI = math.log(2 * math.pi)

-- ------------------------------------------------------------ helpers

local function finite_number(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

-- Column means and centred moments (luma.linear.native.moments: no copy of
-- X), its argument errors re-raised as fit's own.
local function moments(X, y, w, center)
  local ok, G, b, xm, ym, yty = pcall(core.moments, X, y, w, center)
  if not ok then
    local arg, why = tostring(G):match("bad argument #(%d) to '[^']*' %((.*)%)$")
    if arg then error(string.format("bad argument #%s to 'fit' (%s)", arg, why), 0) end
    error(G, 0)
  end
  return G, b, xm, ym, yty:get(1, 1)
end

local function check_finite_X(X, fname, level)
  args.finite(X, 1, fname, level + 1)
end

local function check_single_target(y, name)
  if y:cols() ~= 1 then
    fail(4, "bad argument #2 to 'fit' (%s needs one target column, got %d)", name, y:cols())
  end
  if not y:isfinite():all() then fail(4, "bad argument #2 to 'fit' (y contains NaN or Inf)") end
end

-- The inverse and log-determinant of a symmetric positive definite A
-- (Cholesky): nil when A is not positive definite.
local function spd_inverse(A)
  local ok, L = pcall(luma.linalg.cholesky, A)
  if not ok then return nil end
  local Linv = luma.linalg.solve_triangular(L, luma.eye(A:rows()), { lower = true })
  return Linv:t() * Linv, 2 * L:diag():log():sum()
end

-- A square root R (R R^T = S) of a symmetric positive semi-definite S,
-- through its eigendecomposition (S may be nearly singular).
local function psd_sqrt(S)
  local lam, V = luma.linalg.eigh(S)
  return V:mul(lam:clamp(0, math.huge):sqrt():t())
end

-- diag(A B A^T) for A n x d: the predictive variances x^T S x.
local function quad_rows(A, S)
  return (A * S):mul(A):sum(2)
end

-- ------------------------------------------- Bayesian linear regression

-- The prior mean m0 (d x 1) from a number or a d x 1 matrix.
local function prior_mean_of(v, d, level)
  if v == nil then return luma.zeros(d, 1) end
  if type(v) == "number" then
    if not finite_number(v) then fail(level + 1, "luma.linear.BayesianLinearRegression: prior_mean must be finite") end
    return luma.zeros(d, 1) + v
  end
  if v:rows() ~= d or v:cols() ~= 1 then
    fail(level + 1, "luma.linear.BayesianLinearRegression: prior_mean must be %d x 1 (one value per "
      .. "feature), got %d x %d", d, v:rows(), v:cols())
  end
  if not v:isfinite():all() then fail(level + 1, "luma.linear.BayesianLinearRegression: prior_mean contains NaN or Inf") end
  return v
end

-- The prior precision matrix S0^-1 and log det S0, checked.
local function prior_precision(p, d, alpha, level)
  local S0 = p.prior_cov
  if S0 == nil then
    return luma.eye(d) * alpha, -d * math.log(alpha)
  end
  if S0:rows() ~= d or S0:cols() ~= d then
    fail(level + 1, "luma.linear.BayesianLinearRegression: prior_cov must be %d x %d, got %d x %d",
      d, d, S0:rows(), S0:cols())
  end
  if not S0:isfinite():all() then fail(level + 1, "luma.linear.BayesianLinearRegression: prior_cov contains NaN or Inf") end
  if (S0 - S0:t()):abs():max() > 1e-10 * math.max(1, S0:abs():max()) then
    fail(level + 1, "luma.linear.BayesianLinearRegression: prior_cov must be symmetric")
  end
  local P0, logdet = spd_inverse(S0)
  if not P0 then fail(level + 1, "luma.linear.BayesianLinearRegression: prior_cov must be positive definite") end
  return P0, logdet
end

-- The training statistics the posterior and the evidence need: centred
-- (weighted) moments G = X^T W X, b = X^T W y, yty = y^T W y, n and the
-- sum of log w (the noise of row i has variance sigma^2 / w_i).
local function training_stats(X, y, w, center)
  local G, b, xm, ym, yty = moments(X, y, w, center)
  local n, logw = X:rows(), 0
  if w then
    local positive = w:gt(0)
    n = positive:sum()
    logw = w:select(positive, 1):log():sum()
  end
  return { G = G, b = b, yty = yty, n = n, logw = logw, xm = xm, ym = ym:get(1, 1) }
end

-- Posterior N(m_N, S_N) for prior precision P0, prior mean m0 and noise
-- precision beta (notes 004 Theorem 9.1, (9.43)):
--   S_N = (S0^-1 + beta X^T X)^-1,  m_N = S_N (S0^-1 m0 + beta X^T y).
-- This is the corrected covariance of notes 001 erratum 2: (X^T X /
-- sigma^2 + I / sigma_p^2)^-1, not the printed (1/sigma_p^2)(...)^-1.
-- Also returns log det A, A = S_N^-1.
local function posterior(st, P0, m0, beta)
  local A = P0 + st.G * beta
  local S, logdet_A = spd_inverse(A)
  if not S then fail(4, "luma.linear.BayesianLinearRegression: the posterior precision is not positive definite") end
  local m = S * (P0 * m0 + st.b * beta)
  return m, S, logdet_A
end

-- log p(y | X) = log N(y | X m0, X S0 X^T + sigma^2 W^-1) (notes 004
-- (9.64), with the features in place of X, erratum 11), through the
-- matrix determinant lemma and Woodbury so that only d x d matrices
-- appear:  log det C = -n log beta - sum log w + log det S0 + log det A,
--   r^T C^-1 r = beta r^T W r - beta^2 u^T A^-1 u,  r = y - X m0,
--   u = X^T W r,  A = S0^-1 + beta X^T W X.
local function log_evidence(st, P0, logdet_S0, m0, beta)
  local A = P0 + st.G * beta
  local Ainv, logdet_A = spd_inverse(A)
  if not Ainv then fail(4, "luma.linear.BayesianLinearRegression: the posterior precision is not positive definite") end
  local Gm0 = st.G * m0
  local rWr = st.yty - 2 * (st.b:t() * m0):get(1, 1) + (m0:t() * Gm0):get(1, 1)
  local u = st.b - Gm0
  local quad = beta * rWr - beta * beta * (u:t() * Ainv * u):get(1, 1)
  local logdet_C = -st.n * math.log(beta) - st.logw + logdet_S0 + logdet_A
  return -0.5 * (st.n * LOG_2PI + logdet_C + quad)
end

-- MacKay's fixed point (notes 000 §6.3; Bishop PRML §3.5.2) for the prior
-- precision alpha and the noise precision beta of the isotropic prior
-- N(m0, alpha^-1 I), with optional Gamma(shape, rate) hyperpriors (what
-- scikit-learn's BayesianRidge calls lambda_1, lambda_2, alpha_1, alpha_2):
--   gamma = sum_i beta l_i / (beta l_i + alpha)   (l_i: eigenvalues of X^T X)
--   alpha <- (gamma + 2 prior_shape) / (|m_N - m0|^2 + 2 prior_rate)
--   beta  <- (n - gamma + 2 noise_shape) / (|y - X m_N|^2 + 2 noise_rate)
-- One eigendecomposition of X^T X serves every iteration.
local function maximise_evidence(self, st, m0, alpha, beta)
  local p = self.params
  local lam, V = luma.linalg.eigh(st.G)
  lam = lam:clamp(0, math.huge)
  local Vb, Vm0 = V:t() * st.b, V:t() * m0
  local d = lam:rows()
  local scores = {}
  local converged, iter = false, 0
  local function mean_in_eigenbasis(a, bt)
    return (Vb * bt + Vm0 * a):div(lam * bt + a)
  end
  for it = 1, p.max_iter do
    iter = it
    local z = mean_in_eigenbasis(alpha, beta)
    -- |y - X m|^2 = yty - 2 b^T m + m^T G m, in the eigenbasis
    local rss = st.yty - 2 * (Vb:t() * z):get(1, 1) + (lam:mul(z):t() * z):get(1, 1)
    rss = math.max(rss, 0)
    local gamma = (lam * beta):div(lam * beta + alpha):sum()
    local dist2 = (z - Vm0):pow(2):sum()
    if p.compute_score then
      local logdet_A = (lam * beta + alpha):log():sum()
      -- Bishop (3.86), the same value as (9.64) for the isotropic prior
      scores[it] = 0.5 * (d * math.log(alpha) + st.n * math.log(beta) + st.logw
        - beta * rss - alpha * dist2 - logdet_A - st.n * LOG_2PI)
    end
    local new_alpha = (gamma + 2 * p.prior_shape) / (dist2 + 2 * p.prior_rate)
    local new_beta = (st.n - gamma + 2 * p.noise_shape) / (rss + 2 * p.noise_rate)
    if not (new_alpha > 0 and new_alpha < math.huge and new_beta > 0 and new_beta < math.huge) then
      fail(4, "luma.linear.BayesianLinearRegression: evidence maximisation broke down (alpha = %g, "
        .. "beta = %g); the data may be fitted exactly or carry no signal", new_alpha, new_beta)
    end
    local change = math.max(math.abs(new_alpha - alpha) / alpha, math.abs(new_beta - beta) / beta)
    alpha, beta = new_alpha, new_beta
    if change < p.tol then converged = true break end
  end
  if not converged then
    warning("BayesianLinearRegression: evidence maximisation did not converge in %d iterations", p.max_iter)
  end
  return alpha, beta, iter, scores
end

-- The noise precision given by sigma2 or beta (nil when neither is).
local function noise_precision(p, level)
  if p.sigma2 and p.beta then
    fail(level + 1, "luma.linear.BayesianLinearRegression: give sigma2 or beta, not both")
  end
  if p.sigma2 then return 1 / p.sigma2 end
  return p.beta
end

local function blr_fit(self, X, y, sample_weight)
  local p = self.params
  check_single_target(y, "BayesianLinearRegression")
  check_finite_X(X, "fit", 3)
  local w = sample_weight
  if w ~= nil and (not luma.ismatrix(w) or w:rows() ~= X:rows() or w:cols() ~= 1) then
    fail(3, "bad argument #3 to 'fit' (sample_weight must be a %d x 1 matrix)", X:rows())
  end
  local d = X:cols()
  local st = training_stats(X, y, w, p.fit_intercept)
  local m0 = prior_mean_of(p.prior_mean, d, 3)
  local beta = noise_precision(p, 3)
  local alpha = p.alpha
  if p.evidence then
    if p.prior_cov then
      fail(3, "luma.linear.BayesianLinearRegression: evidence maximisation tunes the isotropic prior "
        .. "alpha^-1 I; prior_cov cannot be given with evidence = true")
    end
    -- scikit-learn's start: the inverse variance of y (weighted, centred)
    beta = beta or 1 / (st.yty / (w and w:sum() or st.n) + EPS)
    local scores
    alpha, beta, self.n_iter, scores = maximise_evidence(self, st, m0, alpha, beta)
    if p.compute_score then self.scores = scores end
  else
    beta = beta or 1
    self.n_iter = 0
  end
  local P0, logdet_S0 = prior_precision(p, d, alpha, 3)
  local m, S = posterior(st, P0, m0, beta)
  self.coef, self.posterior_cov = m, S
  self.posterior_mean = m
  self.alpha, self.beta, self.sigma2 = alpha, beta, 1 / beta
  self.x_mean = st.xm
  self.intercept = p.fit_intercept and st.ym - (st.xm * m):get(1, 1) or 0
  self.log_evidence = log_evidence(st, P0, logdet_S0, m0, beta)
  if p.compute_score and p.evidence then self.scores[#self.scores + 1] = self.log_evidence end
  self.prior_mean_, self.prior_precision_, self.logdet_prior_cov_ = m0, P0, logdet_S0
  self.train_stats_ = { G = st.G, b = st.b, yty = st.yty, n = st.n, logw = st.logw }
end

-- The features relative to the training means (the intercept is the
-- plug-in estimate ybar - xbar^T m, so the uncertainty is that of the
-- centred model: f(x) = ybar + (x - xbar)^T w).
local function centred(self, X)
  if self.params.fit_intercept then return X - self.x_mean end
  return X
end

local PREDICT_OPTIONS = { std = true, noise = true }

local function check_options(fname, opts, allowed)
  if opts == nil then return {} end
  if type(opts) ~= "table" then fail(3, "bad argument #2 to '%s' (options must be a table)", fname) end
  for k in pairs(opts) do
    if not allowed[k] then
      local names = {}
      for name in pairs(allowed) do names[#names + 1] = name end
      table.sort(names)
      fail(3, "bad argument #2 to '%s' (unknown option '%s'; valid: %s)", fname, tostring(k),
        table.concat(names, ", "))
    end
  end
  return opts
end

M.BayesianLinearRegression = estimator.class{
  name = "luma.linear.BayesianLinearRegression", kind = "regressor",
  method_docs = {
    predict = { signature = "est:predict(X [, {std = false, noise = true}]) -> mean [, std]",
      doc = "The posterior predictive mean for the rows of X; with std, also its standard "
        .. "deviation (noise = false leaves the noise variance out). Returns n x 1 matrices." },
    log_marginal_likelihood = {
      signature = "est:log_marginal_likelihood([{alpha = fitted, beta = fitted, sigma2 = nil, "
        .. "prior_mean = fitted, prior_cov = fitted}]) -> number",
      doc = "log p(y | X) of the training data, the evidence (Bishop, Pattern Recognition and "
        .. "Machine Learning, eq. 3.86), under the given hyperparameters (the fitted ones where "
        .. "not given). Returns a number." },
    sample_functions = { signature = "est:sample_functions(X, n [, {posterior = true, seed = "
        .. "nil}]) -> matrix",
      doc = "n functions drawn from the posterior (or the prior, also before fit) evaluated at "
        .. "the rows of X (Bishop, fig. 3.9). Returns a rows(X) x n matrix." },
  },
  doc = "Bayesian linear regression (Bishop, Pattern Recognition and Machine Learning, sec. "
    .. "3.3): prior N(prior_mean, prior_cov) on the "
    .. "weights (default N(0, alpha^-1 I)), Gaussian noise of variance sigma2 (or precision "
    .. "beta). Posterior S_N = (S0^-1 + X^T X / sigma^2)^-1, m_N = S_N (S0^-1 m0 + X^T y / "
    .. "sigma^2). evidence = true maximises the marginal likelihood over "
    .. "alpha and beta by MacKay's updates (Bishop, sec. 3.5.2) — scikit-learn's BayesianRidge, "
    .. "with its Gamma hyperpriors as noise_shape/noise_rate/prior_shape/prior_rate. "
    .. "predict(X, {std = true, noise = true}) returns the mean and the predictive standard "
    .. "deviation sqrt(x^T S_N x + sigma^2) (Bishop, eq. 3.59; noise = false: of f(x)). "
    .. "Fitted: coef (= posterior_mean), intercept, posterior_cov, alpha, beta, sigma2, "
    .. "log_evidence ((9.64)), n_iter, scores (with compute_score). Methods: "
    .. "log_marginal_likelihood{alpha, beta | sigma2, prior_mean, prior_cov}, "
    .. "sample_functions(X, n, {posterior = true, seed}).",
  params = {
    { name = "alpha", type = "number", default = 1, gt = 0,
      doc = "prior precision: prior_cov = alpha^-1 I (the start value with evidence)" },
    { name = "prior_mean", type = "number|matrix", doc = "prior mean m0: a number or d x 1 (default 0)" },
    { name = "prior_cov", type = "matrix", doc = "prior covariance S0, d x d symmetric positive definite" },
    { name = "sigma2", type = "number", gt = 0, doc = "noise variance (default 1; the start value with evidence)" },
    { name = "beta", type = "number", gt = 0, doc = "noise precision 1/sigma2 (give one of the two)" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept (centre X and y)" },
    { name = "evidence", type = "boolean", default = false,
      doc = "maximise the evidence over alpha and beta (MacKay)" },
    { name = "max_iter", type = "integer", default = 300, min = 1, doc = "evidence iterations" },
    { name = "tol", type = "number", default = 1e-10, gt = 0,
      doc = "stop when alpha and beta change by less than this, relatively" },
    { name = "noise_shape", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on beta: shape (sklearn alpha_1)" },
    { name = "noise_rate", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on beta: rate (sklearn alpha_2)" },
    { name = "prior_shape", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on alpha: shape (sklearn lambda_1)" },
    { name = "prior_rate", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on alpha: rate (sklearn lambda_2)" },
    { name = "compute_score", type = "boolean", default = false,
      doc = "record the log evidence at each evidence iteration (scores)" },
  },
  example = regression_example(function() return M.BayesianLinearRegression{ evidence = true } end),
  fit = blr_fit,
  predict = function(self, X, opts)
    opts = check_options("predict", opts, PREDICT_OPTIONS)
    check_finite_X(X, "predict", 2)
    local mean = X * self.coef + self.intercept
    if not opts.std then return mean end
    local var = quad_rows(centred(self, X), self.posterior_cov)
    if opts.noise ~= false then var = var + self.sigma2 end
    return mean, var:clamp(0, math.huge):sqrt()
  end,

  --- m:log_marginal_likelihood([{alpha, beta | sigma2, prior_mean,
  -- prior_cov}]) -> log p(y | X) of the training data (notes 004 (9.64))
  -- under the given hyperparameters (the fitted ones where not given).
  log_marginal_likelihood = function(self, opts)
    if not self:is_fitted() then
      fail(2, "luma.linear.BayesianLinearRegression: log_marginal_likelihood called before fit")
    end
    opts = check_options("log_marginal_likelihood", opts,
      { alpha = true, beta = true, sigma2 = true, prior_mean = true, prior_cov = true })
    for _, key in ipairs{ "alpha", "beta", "sigma2" } do
      local v = opts[key]
      if v ~= nil and not (finite_number(v) and v > 0) then
        fail(2, "bad argument #1 to 'log_marginal_likelihood' (%s must be a finite number > 0)", key)
      end
    end
    if opts.beta and opts.sigma2 then
      fail(2, "bad argument #1 to 'log_marginal_likelihood' (give sigma2 or beta, not both)")
    end
    local d = self.coef:rows()
    local beta = opts.beta or (opts.sigma2 and 1 / opts.sigma2) or self.beta
    local m0 = opts.prior_mean ~= nil and prior_mean_of(opts.prior_mean, d, 2) or self.prior_mean_
    local P0, logdet_S0 = self.prior_precision_, self.logdet_prior_cov_
    if opts.prior_cov or opts.alpha then
      P0, logdet_S0 = prior_precision({ prior_cov = opts.prior_cov }, d, opts.alpha or self.alpha, 2)
    end
    return log_evidence(self.train_stats_, P0, logdet_S0, m0, beta)
  end,

  --- m:sample_functions(X, n [, {posterior = true, seed}]) -> rows(X) x n:
  -- n functions drawn from the posterior (or, with posterior = false, the
  -- prior; also before fit) evaluated at the rows of X (notes 004 Example
  -- 9.7, Fig. 9.5).  Posterior draws are ybar + (x - xbar)^T w with
  -- w ~ N(m_N, S_N); prior draws x^T w with w ~ N(m0, S0).
  sample_functions = function(self, X, n, opts)
    if not luma.ismatrix(X) then fail(2, "bad argument #1 to 'sample_functions' (X must be a luma.Matrix)") end
    if math.type(n) ~= "integer" or n < 1 then
      fail(2, "bad argument #2 to 'sample_functions' (n must be an integer >= 1)")
    end
    opts = check_options("sample_functions", opts, { posterior = true, seed = true })
    check_finite_X(X, "sample_functions", 2)
    local d = X:cols()
    local rng = estimator.rng(opts.seed)
    local mean, cov, offset, Xe
    if opts.posterior ~= false then
      if not self:is_fitted() then fail(2, "luma.linear.BayesianLinearRegression: sample_functions called before fit") end
      if d ~= self.coef:rows() then
        fail(2, "bad argument #1 to 'sample_functions' (X has %d columns but the model was fitted on %d)",
          d, self.coef:rows())
      end
      mean, cov = self.coef, self.posterior_cov
      Xe = centred(self, X)
      offset = self.params.fit_intercept and (self.intercept + (self.x_mean * self.coef):get(1, 1)) or 0
    else
      mean = prior_mean_of(self.params.prior_mean, d, 2)
      local P0 = prior_precision(self.params, d, self.params.alpha, 2)
      cov = spd_inverse(P0)
      Xe, offset = X, 0
    end
    local W = psd_sqrt(cov) * rng:normal(d, n) + mean
    return Xe * W + offset
  end,
}

-- ------------------------------------------ sparse Bayesian regression

-- The ARD loop shared by the sparse regression and the RVR (notes 000
-- §6.6 and §6.8, with X N x D): for the basis Phi (its moments G =
-- Phi^T Phi, b = Phi^T y, yty = y^T y, n rows) and hidden precisions h,
--   A = beta Phi^T Phi + H,  Sigma = A^-1,  mu = beta Sigma Phi^T y,
--   h_d   <- (1 - h_d Sigma_dd + nu) / (mu_d^2 + nu),
--   sigma^2 <- |y - Phi mu|^2 / (N - sum_d (1 - h_d Sigma_dd)).
-- The notes print D in the last denominator and X mu in the residual;
-- with X D x N the consistent forms are N and X^T mu (notes 000 §3,
-- "Sparse regression and RVR fixed-point updates").  A component whose
-- h_d exceeds the threshold is pruned: its weight is 0 from then on.
-- The order of the steps is scikit-learn's ARDRegression, so that the two
-- agree where their definitions coincide (lambda_1 = lambda_2 = nu/2,
-- alpha_1 = alpha_2 = 0).

-- MacKay's update of the precisions of the kept weights (notes 000 §6.6):
-- gamma_j = 1 - h_j S_jj, h_j <- (gamma_j + nu) / (w_j^2 + nu), and a weight
-- whose precision reaches threshold is pruned.  h (all d precisions) is
-- updated in place; returns the new kept list, the d x 1 weights (zeros
-- where pruned) and gamma.
local function ard_update(S, hk, wk, keep, h, d, nu, threshold)
  local gamma = S:diag():mul(hk) * -1 + 1
  local new_h = (gamma + nu):div(wk:pow(2) + nu)
  local w = luma.zeros(d, 1)
  local kept = {}
  for j, idx in ipairs(keep) do
    local hj = new_h:get(j, 1)
    if hj ~= hj then hj = math.huge end -- 0 / 0 with nu = 0: a weight and its spread both gone
    h:set(idx, 1, hj)
    if hj < threshold then
      kept[#kept + 1] = idx
      w:set(idx, 1, wk:get(j, 1))
    end
  end
  return kept, w, gamma
end

local function ard(st, o)
  local d = st.G:rows()
  local h = luma.ones(d, 1) * o.h_init
  local beta = o.beta_init
  local keep = {}
  for i = 1, d do keep[i] = i end
  local mu = luma.zeros(d, 1)
  local scores, converged, iter = {}, false, 0
  local function solve_kept()
    local Gk = st.G:take(keep, 1):take(keep, 2)
    local bk = st.b:take(keep, 1)
    local hk = h:take(keep, 1)
    local A = Gk * beta
    A:diag():add(hk, A:diag())
    local S, logdet_A = spd_inverse(A)
    if not S then fail(5, "%s: the posterior precision is not positive definite", o.name) end
    local muk = S * bk * beta
    return S, muk, Gk, bk, hk, logdet_A
  end
  local function evidence(muk, Gk, bk, hk, logdet_A, rss)
    -- log N(y | 0, Phi H^-1 Phi^T + sigma^2 I), the notes' approximate
    -- marginal likelihood, over the kept components:
    --   = -1/2 (N log 2 pi - N log beta - sum log h + log det A + beta rss + mu^T H mu)
    return -0.5 * (st.n * LOG_2PI - st.n * math.log(beta) - hk:log():sum() + logdet_A
      + beta * rss + (hk:mul(muk:pow(2))):sum())
  end
  for it = 1, o.max_iter do
    iter = it
    local S, muk, Gk, bk, hk, logdet_A = solve_kept()
    local rss = math.max(st.yty - 2 * (bk:t() * muk):get(1, 1) + (muk:t() * Gk * muk):get(1, 1), 0)
    scores[it] = evidence(muk, Gk, bk, hk, logdet_A, rss)
    local old = mu
    local gamma
    keep, mu, gamma = ard_update(S, hk, muk, keep, h, d, o.nu, o.threshold)
    beta = (st.n - gamma:sum() + 2 * o.noise_shape) / (rss + 2 * o.noise_rate)
    if not (beta > 0 and beta < math.huge) then
      fail(4, "%s: the noise precision broke down (%g); the data may be fitted exactly", o.name, beta)
    end
    if it > 1 and (mu - old):abs():sum() < o.tol * math.max(1, mu:abs():sum()) then
      converged = true
      break
    end
    if #keep == 0 then converged = true break end
  end
  if not converged then
    warning("%s: the hyperparameters did not converge in %d iterations", o.short, o.max_iter)
  end
  local S, log_ev = luma.zeros(0, 0), nil
  mu = luma.zeros(d, 1)
  if #keep > 0 then
    local muk, Gk, bk, hk, logdet_A
    S, muk, Gk, bk, hk, logdet_A = solve_kept()
    for j, idx in ipairs(keep) do mu:set(idx, 1, muk:get(j, 1)) end
    local rss = math.max(st.yty - 2 * (bk:t() * muk):get(1, 1) + (muk:t() * Gk * muk):get(1, 1), 0)
    log_ev = evidence(muk, Gk, bk, hk, logdet_A, rss)
  else
    log_ev = -0.5 * (st.n * LOG_2PI - st.n * math.log(beta) + beta * st.yty)
  end
  return { mu = mu, Sigma = S, h = h, beta = beta, keep = keep, n_iter = iter, scores = scores,
    log_evidence = log_ev }
end

local ARD_PARAMS = {
  -- the default equals scikit-learn's ARDRegression (lambda_1 = lambda_2 =
  -- 1e-6); it bounds h_d by (1 + nu) / nu = 5e5, above the threshold
  { name = "nu", type = "number", default = 2e-6, min = 0,
    doc = "degrees of freedom of each weight's Student-t prior (the Gamma(nu/2, nu/2) on h_d)" },
  { name = "threshold", type = "number", default = 1e4, gt = 0,
    doc = "prune a component once its precision h_d exceeds this" },
  { name = "max_iter", type = "integer", default = 300, min = 1, doc = "fixed-point iterations" },
  { name = "tol", type = "number", default = 1e-8, gt = 0,
    doc = "stop when sum |change of the weights| < tol * max(1, sum |weights|)" },
  { name = "noise_shape", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on 1/sigma^2: shape (sklearn alpha_1)" },
  { name = "noise_rate", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on 1/sigma^2: rate (sklearn alpha_2)" },
}

local function with_params(own, shared)
  local out = {}
  for _, p in ipairs(own) do out[#out + 1] = p end
  for _, p in ipairs(shared) do
    local copy = {}
    for k, v in pairs(p) do copy[k] = v end
    out[#out + 1] = copy
  end
  return out
end

local function ard_options(self, st, beta_init)
  local p = self.params
  return { name = self.__class.name, short = self.__class.short_name, nu = p.nu,
    threshold = p.threshold, max_iter = p.max_iter, tol = p.tol, noise_shape = p.noise_shape,
    noise_rate = p.noise_rate, h_init = 1,
    -- scikit-learn's start: the inverse variance of y
    beta_init = beta_init or 1 / (st.yty / st.n + EPS) }
end

local function no_weights(sample_weight, name)
  if sample_weight ~= nil then fail(4, "luma.linear.%s: sample_weight is not supported", name) end
end

M.SparseBayesianRegression = estimator.class{
  name = "luma.linear.SparseBayesianRegression", kind = "regressor",
  method_docs = {
    predict = { signature = "est:predict(X [, {std = false, noise = true}]) -> mean [, std]",
      doc = "The posterior predictive mean for the rows of X; with std, also its standard "
        .. "deviation (noise = false leaves the noise variance out). Returns n x 1 matrices." },
  },
  doc = "Sparse Bayesian linear regression (Tipping, Sparse Bayesian Learning and the "
    .. "Relevance Vector Machine, JMLR 2001): a product of Student-t priors "
    .. "Stud(0, 1, nu) on the weights, written as Gaussians with hidden precisions h_d ~ "
    .. "Gamma(nu/2, nu/2); h and the noise variance sigma^2 by fixed-point updates "
    .. "(with the corrected N and X mu of the sigma^2 update), dimensions whose h_d exceeds "
    .. "threshold pruned (weight 0). scikit-learn's ARDRegression with lambda_1 = lambda_2 = "
    .. "nu/2. predict(X, {std = true, noise = true}). Fitted: coef, intercept, h (precisions), "
    .. "active (indices of the kept features), posterior_cov (over the active features), "
    .. "sigma2, beta, log_evidence, scores, n_iter.",
  params = with_params({
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept (centre X and y)" },
    { name = "sigma2", type = "number", gt = 0, doc = "start value of the noise variance (default var(y))" },
  }, ARD_PARAMS),
  example = regression_example(function() return M.SparseBayesianRegression{} end),
  fit = function(self, X, y, sample_weight)
    no_weights(sample_weight, "SparseBayesianRegression")
    check_single_target(y, "SparseBayesianRegression")
    check_finite_X(X, "fit", 3)
    local p = self.params
    local st = training_stats(X, y, nil, p.fit_intercept)
    local r = ard(st, ard_options(self, st, p.sigma2 and 1 / p.sigma2))
    self.coef, self.h, self.beta, self.sigma2 = r.mu, r.h, r.beta, 1 / r.beta
    self.active = luma.zeros(#r.keep, 1)
    for j, idx in ipairs(r.keep) do self.active:set(j, 1, idx) end
    self.posterior_cov, self.log_evidence, self.scores, self.n_iter = r.Sigma, r.log_evidence, r.scores, r.n_iter
    self.x_mean = st.xm
    self.intercept = p.fit_intercept and st.ym - (st.xm * r.mu):get(1, 1) or 0
  end,
  predict = function(self, X, opts)
    opts = check_options("predict", opts, PREDICT_OPTIONS)
    check_finite_X(X, "predict", 2)
    local mean = X * self.coef + self.intercept
    if not opts.std then return mean end
    local var = luma.zeros(X:rows(), 1)
    if self.active:rows() > 0 then
      local Xa = centred(self, X):take(self.active, 2)
      var = quad_rows(Xa, self.posterior_cov)
    end
    if opts.noise ~= false then var = var + self.sigma2 end
    return mean, var:clamp(0, math.huge):sqrt()
  end,
}

-- --------------------------------------------------- relevance vectors

local KERNEL_PARAMS = {
  { name = "kernel", type = "string|table", default = "rbf",
    doc = "a luma.pairwise.kernel name (rbf, linear, polynomial, laplacian, sigmoid, ...) or a luma.kernels object" },
  { name = "gamma", type = "number", gt = 0, doc = "kernel width for named kernels (default 1 / n_features)" },
  { name = "degree", type = "integer", default = 3, min = 1, doc = "polynomial kernel degree" },
  { name = "coef0", type = "number", default = 1, doc = "polynomial / sigmoid kernel offset" },
  { name = "bias", type = "boolean", default = true, doc = "add a constant basis function (the intercept, also under ARD)" },
  -- nu = 0 (Tipping's RVM, the limit of the Student-t): with nu > 0 the
  -- update bounds h_i by (1 + nu) / nu and, on the strongly collinear
  -- kernel basis, stalls at a dense solution long before that.
  { name = "nu", type = "number", default = 0, min = 0,
    doc = "degrees of freedom of each weight's Student-t prior (the Gamma(nu/2, nu/2) on h_i; 0: the RVM's flat limit)" },
  { name = "threshold", type = "number", default = 1e9, gt = 0,
    doc = "prune a basis function once its precision h_i exceeds this" },
}

-- The basis Phi = [k(x, x_n) for the given rows (+ 1)]: rows of X against
-- the basis points B (the training rows, or the relevance vectors).
local function kernel_basis(p, X, B, with_bias)
  local K = kernel_matrix(p, X, B)
  if with_bias then return luma.hstack{ K, luma.ones(X:rows(), 1) } end
  return K
end

-- Splits the kept basis indices of n training rows (+ the bias at n + 1)
-- into relevance-vector indices and whether the bias survived.
local function split_kept(keep, n)
  local rv, bias = {}, false
  for _, idx in ipairs(keep) do
    if idx <= n then rv[#rv + 1] = idx else bias = true end
  end
  return rv, bias
end

local function index_column(list)
  local m = luma.zeros(#list, 1)
  for i, v in ipairs(list) do m:set(i, 1, v) end
  return m
end

-- The fitted relevance vectors, their weights and the intercept from the
-- kept basis functions and their weights (in the order of keep).
local function store_relevance(self, X, keep, weights)
  local n = X:rows()
  local rv, bias = split_kept(keep, n)
  self.relevance_indices = index_column(rv)
  self.relevance_vectors = #rv > 0 and X:take(rv, 1) or luma.zeros(0, X:cols())
  self.dual_coef = luma.zeros(#rv, 1)
  for j = 1, #rv do self.dual_coef:set(j, 1, weights:get(j, 1)) end
  self.intercept = bias and weights:get(#keep, 1) or 0
  self.bias_kept = bias
end

-- Phi* for new rows over the kept basis (relevance vectors, then the bias).
local function relevance_basis(self, X)
  local parts = {}
  if self.relevance_vectors:rows() > 0 then parts[1] = kernel_matrix(self.params, X, self.relevance_vectors) end
  if self.bias_kept then parts[#parts + 1] = luma.ones(X:rows(), 1) end
  if #parts == 0 then return nil end
  return #parts == 1 and parts[1] or luma.hstack(parts)
end

local function kept_weights(self)
  if self.bias_kept then return luma.vstack{ self.dual_coef, luma.matrix{ { self.intercept } } } end
  return self.dual_coef
end

M.RelevanceVectorRegression = estimator.class{
  name = "luma.linear.RelevanceVectorRegression", kind = "regressor",
  method_docs = {
    predict = { signature = "est:predict(X [, {std = false, noise = true}]) -> mean [, std]",
      doc = "The posterior predictive mean for the rows of X; with std, also its standard "
        .. "deviation (noise = false leaves the noise variance out). Returns n x 1 matrices." },
  },
  doc = "Relevance vector regression (Tipping, JMLR 2001; Bishop, sec. 7.2.1): the dual model y = sum_n psi_n k(x, x_n) "
    .. "(+ a bias) with a product-of-Student-t prior on psi; the hidden precisions h and the "
    .. "noise variance by the fixed-point updates of §6.6 with K in place of X^T X, basis "
    .. "functions whose h exceeds threshold pruned. The survivors are the relevance vectors. "
    .. "predict(X, {std = true, noise = true}). Fitted: relevance_vectors, relevance_indices, "
    .. "dual_coef (their weights), intercept (the bias weight), posterior_cov (over the kept "
    .. "basis, bias last), h, sigma2, beta, log_evidence, scores, n_iter.",
  params = with_params(KERNEL_PARAMS, {
    { name = "sigma2", type = "number", gt = 0, doc = "start value of the noise variance (default var(y))" },
    { name = "max_iter", type = "integer", default = 5000, min = 1, doc = "fixed-point iterations (the last irrelevant weights fade slowly)" },
    { name = "tol", type = "number", default = 1e-6, gt = 0,
      doc = "stop when sum |change of the weights| < tol * max(1, sum |weights|)" },
    { name = "noise_shape", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on 1/sigma^2: shape" },
    { name = "noise_rate", type = "number", default = 0, min = 0, doc = "Gamma hyperprior on 1/sigma^2: rate" },
  }),
  example = regression_example(function() return M.RelevanceVectorRegression{ gamma = 0.1 } end),
  fit = function(self, X, y, sample_weight)
    no_weights(sample_weight, "RelevanceVectorRegression")
    check_single_target(y, "RelevanceVectorRegression")
    check_finite_X(X, "fit", 3)
    local p = self.params
    local Phi = kernel_basis(p, X, X, p.bias)
    local yc = y:col(1)
    local st = { G = Phi:t() * Phi, b = Phi:t() * yc, yty = yc:pow(2):sum(), n = X:rows() }
    -- the start value of beta: 1 / var(y) (centred, as scikit-learn's ARD)
    local var = (yc - yc:mean()):pow(2):mean()
    local r = ard(st, ard_options(self, st, p.sigma2 and 1 / p.sigma2 or 1 / (var + EPS)))
    store_relevance(self, X, r.keep, r.mu:take(r.keep, 1))
    self.h, self.beta, self.sigma2 = r.h, r.beta, 1 / r.beta
    self.posterior_cov, self.log_evidence, self.scores, self.n_iter = r.Sigma, r.log_evidence, r.scores, r.n_iter
  end,
  predict = function(self, X, opts)
    opts = check_options("predict", opts, PREDICT_OPTIONS)
    check_finite_X(X, "predict", 2)
    local Phi = relevance_basis(self, X)
    local mean = Phi and Phi * kept_weights(self) or luma.zeros(X:rows(), 1)
    if not opts.std then return mean end
    local var = Phi and quad_rows(Phi, self.posterior_cov) or luma.zeros(X:rows(), 1)
    if opts.noise ~= false then var = var + self.sigma2 end
    return mean, var:clamp(0, math.huge):sqrt()
  end,
}

-- The penalised log-likelihood of the binary model at activations a:
--   Psi(w) = sum_i [t_i a_i - log(1 + e^a_i)] - 1/2 sum_d h_d w_d^2.
local function penalised_loglik(a, t, h, w)
  return (t:mul(a) - special.log1pexp(a)):sum() - 0.5 * h:mul(w:pow(2)):sum()
end

-- The mode of the posterior of w (basis Phi, precisions h) by Newton /
-- IRLS with step halving (notes 000 Ch. 7: gradient Phi^T (t - sig(a)) -
-- H w, Hessian -(Phi^T B Phi + H), B = diag(sig (1 - sig))).  Returns the
-- mode, the negative Hessian there and Psi.
local function laplace_mode(Phi, t, h, w, max_newton)
  local function objective(v)
    local a = Phi * v
    return penalised_loglik(a, t, h, v), a
  end
  local value, a = objective(w)
  local Hs
  for _ = 1, max_newton do
    local s = special.expit(a)
    local g = Phi:t() * (t - s) - h:mul(w)
    Hs = Phi:t() * Phi:mul(s:mul(s * -1 + 1))
    Hs:diag():add(h, Hs:diag())
    local ok, step = pcall(luma.linalg.solve, Hs, g, { assume = "spd" })
    if not ok then step = luma.linalg.lstsq(Hs, g) end
    local scale, improved = 1, false
    for _ = 1, 30 do
      local trial = w + step * scale
      local tv, ta = objective(trial)
      if tv >= value then
        w, value, a, improved = trial, tv, ta, true
        break
      end
      scale = scale / 2
    end
    if not improved or step:abs():max() * scale <= 1e-10 * math.max(1, w:abs():max()) then break end
  end
  local s = special.expit(a)
  Hs = Phi:t() * Phi:mul(s:mul(s * -1 + 1))
  Hs:diag():add(h, Hs:diag())
  return w, Hs, value
end

M.RelevanceVectorClassification = estimator.class{
  name = "luma.linear.RelevanceVectorClassification", kind = "classifier",
  doc = "Relevance vector classification (Bishop, sec. 7.2.3), binary: P(y = 1 | x) = "
    .. "sig(sum_n psi_n k(x, x_n) (+ bias)) with a product-of-Student-t prior on psi. Each "
    .. "round finds the posterior mode by IRLS and its Laplace covariance Sigma, then updates "
    .. "the hidden precisions by the RVR rule h_i <- (1 - h_i Sigma_ii + nu) / (mu_i^2 + nu) "
    .. "and prunes those above threshold. "
    .. "predict_proba uses the probit approximation (Bishop, sec. 4.5.2) sig(mu_a / sqrt(1 + pi sigma_a^2 / "
    .. "8)). More than two classes: wrap in luma.multiclass.OneVsRest. Fitted: classes, "
    .. "relevance_vectors, relevance_indices, dual_coef, intercept, posterior_cov, h, "
    .. "log_evidence (Laplace), scores, n_iter.",
  params = with_params(KERNEL_PARAMS, {
    { name = "max_iter", type = "integer", default = 500, min = 1, doc = "rounds of the h updates" },
    { name = "tol", type = "number", default = 1e-6, gt = 0,
      doc = "stop when sum |change of the weights| < tol * max(1, sum |weights|)" },
    { name = "newton_iter", type = "integer", default = 50, min = 1, doc = "IRLS steps per round at most" },
  }),
  example = function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 }, { 2, 2 }, { 5, 5 } }
    return M.RelevanceVectorClassification{ gamma = 0.2 }, X, luma.matrix{ 1, 1, 2, 1, 2, 2, 1, 2 }
  end,
  fit = function(self, X, y, sample_weight)
    no_weights(sample_weight, "RelevanceVectorClassification")
    check_finite_X(X, "fit", 3)
    if y:cols() ~= 1 then fail(3, "bad argument #2 to 'fit' (y must be one column of labels)") end
    local p = self.params
    local codes, classes = estimator.encode_labels(y)
    if classes:rows() ~= 2 then
      fail(3, "luma.linear.RelevanceVectorClassification: y has %d classes; the model is binary "
        .. "(wrap it in luma.multiclass.OneVsRest for more)", classes:rows())
    end
    self.classes = classes
    local t = codes - 1
    local Phi = kernel_basis(p, X, X, p.bias)
    local m = Phi:cols()
    local h, w = luma.ones(m, 1), luma.zeros(m, 1)
    local keep = {}
    for i = 1, m do keep[i] = i end
    local scores, converged, iter = {}, false, 0
    local function round()
      local Phik, hk = Phi:take(keep, 2), h:take(keep, 1)
      local wk, Hs, value = laplace_mode(Phik, t, hk, w:take(keep, 1), p.newton_iter)
      local S, logdet_H = spd_inverse(Hs)
      if not S then fail(4, "luma.linear.RelevanceVectorClassification: the Laplace precision is not positive definite") end
      -- Laplace evidence: Psi(mode) + 1/2 sum log h - 1/2 log det(Phi^T B Phi + H)
      return wk, S, hk, value + 0.5 * hk:log():sum() - 0.5 * logdet_H
    end
    for it = 1, p.max_iter do
      iter = it
      local wk, S, hk, ev = round()
      scores[it] = ev
      local old = w
      keep, w = ard_update(S, hk, wk, keep, h, m, p.nu, p.threshold)
      if #keep == 0 then converged = true break end
      if it > 1 and (w - old):abs():sum() < p.tol * math.max(1, w:abs():sum()) then converged = true break end
    end
    if not converged then
      warning("RelevanceVectorClassification: the hyperparameters did not converge in %d iterations", p.max_iter)
    end
    local wk, S = luma.zeros(0, 1), luma.zeros(0, 0)
    if #keep > 0 then
      local ev
      wk, S, _, ev = round()
      scores[#scores + 1] = ev
      self.log_evidence = ev
    end
    store_relevance(self, X, keep, wk)
    self.posterior_cov, self.h, self.scores, self.n_iter = S, h, scores, iter
  end,
  -- The mean activation mu_a = phi(x)^T mu (> 0: the second class).
  decision_function = function(self, X)
    local Phi = relevance_basis(self, X)
    return Phi and Phi * kept_weights(self) or luma.zeros(X:rows(), 1)
  end,
  predict_proba = function(self, X)
    local Phi = relevance_basis(self, X)
    local p1
    if Phi then
      -- notes 000 Ch. 7 (Laplace predictive): sig(mu_a / sqrt(1 + pi sigma_a^2 / 8))
      local mu_a = Phi * kept_weights(self)
      local var_a = quad_rows(Phi, self.posterior_cov):clamp(0, math.huge)
      p1 = special.expit(mu_a:div((var_a * (math.pi / 8) + 1):sqrt()))
    else
      p1 = luma.zeros(X:rows(), 1) + 0.5
    end
    return luma.hstack{ p1 * -1 + 1, p1 }
  end,
  predict_log_proba = function(self, X) return self:predict_proba(X):log() end,
  predict = function(self, X)
    local codes = self:decision_function(X):gt(0) + 1
    return estimator.decode_labels(codes, self.classes)
  end,
}

return M
