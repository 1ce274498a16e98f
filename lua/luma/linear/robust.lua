--- luma.linear.robust: robust and probabilistic linear models (re-exported
-- by luma.linear).
--
--   Perceptron                   notes 002 L5-L6 (sign errata X7 corrected)
--   HuberRegressor               scikit-learn's joint (coef, scale) Huber fit
--   QuantileRegressor / LADRegression
--                                least absolute deviation (notes 001 §A,
--                                Laplace likelihood) and quantile regression,
--                                solved exactly as a linear program
--   BayesianLogisticRegression   notes 000 §7.2 (Laplace approximation,
--                                probit predictive)
--   MixtureLinearRegression      notes 001 §D (EM and hard alternation)
--
-- Conventions are luma.linear's: coef is d x k, intercept a number for one
-- target; fit(X, y [, sample_weight]); warnings through warn().
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local fail, warning, EPS = common.fail, common.warning, common.EPS
local predict_linear, regression_example = common.predict_linear, common.regression_example
local optim = require("luma.optim")
local special = require("luma.special")

local M = {}

-- ------------------------------------------------------------ helpers

-- Checks what the estimator contract leaves to the class: X finite, y one
-- finite column, weights n x 1, finite and >= 0.  Raised at the level of
-- the user's fit call (fit -> wrapper -> class fit -> here).
local function check_fit_input(X, y, sample_weight)
  args.finite(X, 1, "fit", 4)
  if y:cols() ~= 1 then fail(4, "bad argument #2 to 'fit' (y must be one column, got %d)", y:cols()) end
  if not y:isfinite():all() then fail(4, "bad argument #2 to 'fit' (y contains NaN or Inf)") end
  return estimator.check_sample_weight(X, sample_weight) -- a tail call: same level
end

-- Labels of a binary problem as -1 / +1 (the larger class is +1) and the
-- sorted classes; more than two classes give the codes 1..K instead.
local function classes_of(name, y)
  local codes, classes = estimator.encode_labels(y)
  if classes:rows() < 2 then
    fail(4, "%s: y has a single class (%s); a classifier needs at least two", name,
      string.format("%.15g", classes:get(1, 1)))
  end
  return codes, classes
end

-- [X, 1]: the augmented design (notes 002 L1: x~ = (1, x), here with the
-- constant last so that coef is the first d entries).
local function augmented(X, fit_intercept)
  if not fit_intercept then return X end
  return luma.hstack{ X, luma.ones(X:rows(), 1) }
end

-- ---------------------------------------------------------- perceptron

-- Training errors of the augmented weights z (p x 1) on labels s (+-1):
-- the points with s_i <x~_i, z> <= 0 (sgn 0 is never a correct label,
-- notes 002 L4: I(f(x~) != y~)).
local function training_errors(Xa, s, z)
  return (Xa * z):mul(s):le(0):sum()
end

-- One binary perceptron on augmented rows (Lua tables, for the
-- sample-by-sample rule) and labels s (+-1).  Returns z, epochs, updates,
-- converged (an epoch without mistakes).
local function perceptron_binary(p, Xa, rows, s, rng)
  local n, m = Xa:rows(), Xa:cols()
  local labels = {}
  for i = 1, n do labels[i] = s:get(i, 1) end
  local z = {}
  for j = 1, m do z[j] = 0 end
  local function z_matrix()
    local out = luma.zeros(m, 1)
    for j = 1, m do out:set(j, 1, z[j]) end
    return out
  end
  local best, best_errors = nil, math.huge
  local function pocket_check()
    local zm = z_matrix()
    local e = training_errors(Xa, s, zm)
    if e < best_errors then best, best_errors = zm, e end
  end
  if p.pocket then pocket_check() end
  local updates, epochs, converged = 0, 0, false
  local order = {}
  for i = 1, n do order[i] = i end
  for epoch = 1, p.max_iter do
    epochs = epoch
    local rate = p.learning_rate == "inverse" and p.eta0 / epoch or p.eta0
    if p.rule == "single" then
      -- Fixed-increment single-sample rule (notes 002 L6 with erratum X7:
      -- one misclassified point at a time, z <- z + alpha y~_i x~_i,
      -- cycling through the data; not the printed sum over all i).
      if p.shuffle then rng:shuffle(order) end
      local mistakes = 0
      for _, i in ipairs(order) do
        local x, yi = rows[i], labels[i]
        local score = 0
        for j = 1, m do score = score + z[j] * x[j] end
        if yi * score <= 0 then
          local step = rate * yi
          for j = 1, m do z[j] = z[j] + step * x[j] end
          mistakes, updates = mistakes + 1, updates + 1
          if p.pocket then pocket_check() end
        end
      end
      if mistakes == 0 then converged = true break end
    else
      -- Batch rule (notes 002 L5 with erratum X7): the gradient of the
      -- perceptron cost is -sum_{misclassified} y~_i x~_i, so
      -- z <- z + alpha(k) sum_{misclassified} y~_i x~_i, alpha(k) = eta0 or eta0/k.
      local zm = z_matrix()
      local wrong = (Xa * zm):mul(s):le(0)
      if wrong:sum() == 0 then converged = true break end
      local step = Xa:t() * wrong:mul(s) * rate
      for j = 1, m do z[j] = z[j] + step:get(j, 1) end
      updates = updates + 1
      if p.pocket then pocket_check() end
    end
  end
  if converged and p.rule == "batch" then epochs = epochs - 1 end
  local zm = z_matrix()
  if p.pocket and best and best_errors < training_errors(Xa, s, zm) then zm = best end
  return zm, epochs, updates, converged
end

M.Perceptron = estimator.class{
  name = "luma.linear.Perceptron", kind = "classifier",
  doc = "Rosenblatt's perceptron (Rosenblatt, 1958; Bishop, sec. 4.1.7): rule \"single\" "
    .. "(fixed-increment single-sample: z <- z + eta y_i x~_i for each misclassified point) or "
    .. "\"batch\" (z <- z + alpha(k) sum of y_i x~_i over the misclassified points, alpha(k) = "
    .. "eta0 or eta0/k with learning_rate \"inverse\"). A point counts as misclassified when "
    .. "y_i <x~_i, z> <= 0. Stops after an epoch without mistakes or max_iter epochs; pocket keeps "
    .. "the weights with the fewest training errors seen. More than two classes: one-vs-rest "
    .. "inside (one perceptron per class, predict the largest score). Fitted: classes, coef (d x 1 "
    .. "for two classes, else d x K), intercept, n_iter (epochs), n_updates, converged, "
    .. "training_errors.",
  params = {
    { name = "rule", type = "string", default = "single", values = { "single", "batch" },
      doc = "single-sample (L6) or batch gradient (L5) updates" },
    { name = "learning_rate", type = "string", default = "constant", values = { "constant", "inverse" },
      doc = "alpha(k) = eta0 or eta0 / k (k the epoch)" },
    { name = "eta0", type = "number", default = 1, gt = 0, doc = "step size" },
    { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "epochs (passes over the data)" },
    { name = "pocket", type = "boolean", default = false,
      doc = "keep the weights with the fewest training errors (Gallant's pocket)" },
    { name = "shuffle", type = "boolean", default = true, doc = "shuffle the samples every epoch (single rule)" },
    { name = "seed", type = "seed", doc = "for shuffle" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "learn the offset c (x~ = (x, 1))" },
  },
  example = function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 } }
    return M.Perceptron{ seed = 1 }, X, luma.matrix{ 0, 0, 1, 0, 1, 1 }
  end,
  fit = function(self, X, y)
    local p = self.params
    check_fit_input(X, y)
    local codes, classes = classes_of("luma.linear.Perceptron", y)
    local K = classes:rows()
    local d = X:cols()
    local Xa = augmented(X, p.fit_intercept)
    local rows = Xa:totable()
    local rng = estimator.rng(p.seed)
    local problems = K == 2 and 1 or K
    local coef, intercept = luma.zeros(d, problems), luma.zeros(1, problems)
    local epochs, updates, converged, errors = {}, {}, {}, {}
    for k = 1, problems do
      -- binary: the larger class is +1; one-vs-rest: class k is +1
      local target = K == 2 and 2 or k
      local s = codes:eq(target) * 2 - 1
      local z
      z, epochs[k], updates[k], converged[k] = perceptron_binary(p, Xa, rows, s, rng)
      coef:col(k):assign(z:sub(1, d, 1, 1))
      if p.fit_intercept then intercept:set(1, k, z:get(d + 1, 1)) end
      errors[k] = training_errors(Xa, s, z)
    end
    self.classes, self.coef = classes, coef
    if problems == 1 then
      self.intercept = intercept:get(1, 1)
      self.n_iter, self.n_updates, self.converged = epochs[1], updates[1], converged[1]
      self.training_errors = errors[1]
    else
      self.intercept, self.n_iter, self.n_updates, self.converged = intercept, epochs, updates, converged
      self.training_errors = errors
    end
  end,
  decision_function = predict_linear,
  predict = function(self, X)
    local scores = X * self.coef + self.intercept
    local codes = scores:cols() == 1 and scores:gt(0) + 1 or scores:argmax(2)
    return estimator.decode_labels(codes, self.classes)
  end,
}

-- -------------------------------------------------------------- Huber

-- scikit-learn's Huber objective (sklearn/linear_model/_huber.py, after
-- Owen 2007), jointly convex in (w, b, sigma):
--   sum_i s_i [sigma + H_eps(r_i / sigma) sigma] + alpha |w|^2,
--   r = y - Xw - b,  H_eps(z) = z^2 (|z| <= eps), 2 eps |z| - eps^2 (else),
-- i.e. N sigma + sum_inliers s r^2 / sigma + sum_outliers s (2 eps |r| -
-- sigma eps^2) + alpha |w|^2.  Parameters x = (w, [b], sigma).
local function huber_objective(X, y, sw, epsilon, alpha, fit_intercept)
  local n, d = X:shape()
  local s = sw or luma.ones(n, 1)
  local N = s:sum()
  return function(x, want_grad)
    local w = x:sub(1, d, 1, 1)
    local b = fit_intercept and x:get(d + 1, 1) or 0
    local sigma = x:get(x:rows(), 1)
    local r = y - X * w - b
    local absr = r:abs()
    local out = absr:gt(epsilon * sigma)       -- outliers
    local inl = out * -1 + 1
    local s_in, s_out = s:mul(inl), s:mul(out)
    local sr_in = r:mul(s_in)                  -- s r on the inliers, 0 elsewhere
    local squared = sr_in:dot(r) / sigma
    local n_out = s_out:sum()
    local value = N * sigma + squared + 2 * epsilon * s_out:dot(absr) - sigma * n_out * epsilon ^ 2
      + alpha * w:dot(w)
    if not want_grad then return value end
    local signed = r:sign():mul(s_out)         -- s sign(r) on the outliers
    local g = luma.zeros(x:rows(), 1)
    local gw = X:t() * (sr_in * (-2 / sigma) - signed * (2 * epsilon)) + w * (2 * alpha)
    g:sub(1, d, 1, 1):assign(gw)
    if fit_intercept then g:set(d + 1, 1, -2 * sr_in:sum() / sigma - 2 * epsilon * signed:sum()) end
    g:set(x:rows(), 1, N - n_out * epsilon ^ 2 - squared / sigma)
    return value, g
  end
end

M.HuberRegressor = estimator.class{
  name = "luma.linear.HuberRegressor", kind = "regressor",
  doc = "Huber regression with a jointly estimated scale, scikit-learn's definition: minimises "
    .. "sum_i s_i (sigma + H_eps(r_i/sigma) sigma) + alpha |w|^2 over w, b and sigma > 0 "
    .. "(H_eps: squared up to eps, linear beyond), by L-BFGS-B from luma.optim. Points with "
    .. "|r| > eps sigma are outliers. Fitted: coef, intercept, scale, outliers (n x 1 mask), n_iter.",
  params = {
    { name = "epsilon", type = "number", default = 1.35, gt = 1,
      doc = "where the loss turns linear, in units of sigma (> 1; 1.35 gives 95% efficiency)" },
    { name = "alpha", type = "number", default = 1e-4, min = 0, doc = "l2 penalty alpha |w|^2" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "max_iter", type = "integer", default = 100, min = 1, doc = "L-BFGS-B iterations" },
    { name = "tol", type = "number", default = 1e-5, gt = 0, doc = "projected-gradient tolerance (inf-norm)" },
  },
  example = regression_example(function() return M.HuberRegressor{} end),
  fit = function(self, X, y, sample_weight)
    local p = self.params
    check_fit_input(X, y, sample_weight)
    local d = X:cols()
    local size = d + (p.fit_intercept and 1 or 0) + 1
    local f = huber_objective(X, y, sample_weight, p.epsilon, p.alpha, p.fit_intercept)
    local x0 = luma.zeros(size, 1)
    x0:set(size, 1, 1) -- sigma starts at 1, as scikit-learn
    local lower = luma.full(size, 1, -math.huge)
    lower:set(size, 1, 10 * EPS) -- sigma > 0 (scikit-learn's bound)
    -- ftol = 0: stop on the gradient only (scikit-learn also stops on SciPy's relative
    -- decrease factr 1e7, which ends early on ill-conditioned data such as diabetes)
    local r = optim.minimize(f, x0, { method = "lbfgsb", lower = lower, gtol = p.tol, ftol = 0,
      max_iter = p.max_iter })
    if not r.converged then
      warning("HuberRegressor did not converge in %d iterations (%s); raise max_iter or scale the "
        .. "data", r.iterations, r.message)
    end
    local x = r.x
    self.coef = x:sub(1, d, 1, 1):copy()
    self.intercept = p.fit_intercept and x:get(d + 1, 1) or 0
    self.scale = x:get(size, 1)
    self.n_iter = r.iterations
    self.outliers = (y - predict_linear(self, X)):abs():gt(p.epsilon * self.scale)
  end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

-- ----------------------------------------------- LAD and quantiles (LP)

-- The pinball loss rho_tau(r) = tau r (r >= 0), (tau - 1) r (r < 0),
-- weighted and summed.
local function pinball_sum(r, tau, s)
  local loss = r:clamp(0, math.huge) * tau - r:clamp(-math.huge, 0) * (1 - tau)
  return s and loss:dot(s) or loss:sum()
end

-- min (1/N) sum_i s_i rho_tau(y_i - x_i w - b) + alpha |w|_1 as the linear
-- program (multiplied by N)
--   variables  w+, w- >= 0 (d each), b free, u, v >= 0 (n each)
--   minimise   N alpha 1'(w+ + w-) + tau s'u + (1 - tau) s'v
--   subject to X (w+ - w-) + b 1 + u - v = y
-- (u - v is the residual; at an optimum u = max(r, 0), v = max(-r, 0)).
-- scikit-learn's QuantileRegressor solves the same program.
local function quantile_lp(X, y, s, tau, alpha, fit_intercept)
  local n, d = X:shape()
  local N = s and s:sum() or n
  local nb = fit_intercept and 1 or 0
  local width = 2 * d + nb + 2 * n
  local A = luma.zeros(n, width)
  A:sub(1, n, 1, d):assign(X)
  A:sub(1, n, d + 1, 2 * d):assign(X * -1)
  if fit_intercept then A:sub(1, n, 2 * d + 1, 2 * d + 1):assign(1) end
  A:sub(1, n, 2 * d + nb + 1, 2 * d + nb + n):diag():assign(1)
  A:sub(1, n, 2 * d + nb + n + 1, width):diag():assign(-1)
  local c = luma.zeros(width, 1)
  c:sub(1, 2 * d, 1, 1):assign(N * alpha)
  local sw = s or luma.ones(n, 1)
  c:sub(2 * d + nb + 1, 2 * d + nb + n, 1, 1):assign(sw * tau)
  c:sub(2 * d + nb + n + 1, width, 1, 1):assign(sw * (1 - tau))
  local lower = luma.zeros(width, 1)
  if fit_intercept then lower:set(2 * d + 1, 1, -math.huge) end
  local r = optim.linprog(c, { A_eq = A, b_eq = y, lower = lower, max_iter = 100000 })
  if r.status ~= "optimal" then
    fail(4, "luma.linear: the quantile regression linear program ended with status %s (%s)",
      r.status, r.message)
  end
  local x = r.x
  local w = x:sub(1, d, 1, 1) - x:sub(d + 1, 2 * d, 1, 1)
  local b = fit_intercept and x:get(2 * d + 1, 1) or 0
  return w, b, r.iterations
end

local function quantile_fit(self, X, y, sample_weight, tau)
  local p = self.params
  check_fit_input(X, y, sample_weight)
  self.coef, self.intercept, self.n_iter = quantile_lp(X, y, sample_weight, tau, p.alpha, p.fit_intercept)
  local r = y - predict_linear(self, X)
  local N = sample_weight and sample_weight:sum() or X:rows()
  -- the objective at the solution, (1/N) sum s rho_tau(r) + alpha |w|_1
  self.objective = pinball_sum(r, tau, sample_weight) / N + p.alpha * self.coef:abs():sum()
  -- ML scale of the (asymmetric) Laplace likelihood (2 tau (1 - tau) / sigma)
  -- exp(-2 rho_tau(r) / sigma): sigma = (2/N) sum s rho_tau(r); at tau = 1/2 it is
  -- notes 001 §A's Laplace (1/2 sigma) exp(-|r| / sigma), sigma = mean |r|
  self.scale = 2 * pinball_sum(r, tau, sample_weight) / N
end

local QUANTILE_DOC = "the linear program is solved exactly by luma.optim.linprog (dense simplex "
  .. "in C: its tableau has n rows and 3n + 2d + 1 columns, so time and memory grow as n^2; "
  .. "442 samples take a quarter of a second). Fitted: coef, intercept, scale (the ML Laplace scale, (2/N) sum s "
  .. "rho_tau(r); mean |r| for the median), objective, n_iter (simplex pivots)."

M.QuantileRegressor = estimator.class{
  name = "luma.linear.QuantileRegressor", kind = "regressor",
  doc = "Linear quantile regression: minimises (1/N) sum_i s_i rho_tau(y_i - x_i w - b) + alpha "
    .. "|w|_1 (rho_tau the pinball loss; scikit-learn's QuantileRegressor objective); "
    .. QUANTILE_DOC,
  params = {
    { name = "quantile", type = "number", default = 0.5, gt = 0, lt = 1, doc = "the quantile tau in (0, 1)" },
    { name = "alpha", type = "number", default = 1, min = 0, doc = "l1 penalty (scikit-learn's default 1)" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
  },
  example = regression_example(function() return M.QuantileRegressor{ quantile = 0.25, alpha = 0 } end),
  fit = function(self, X, y, sample_weight) quantile_fit(self, X, y, sample_weight, self.params.quantile) end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

M.LADRegression = estimator.class{
  name = "luma.linear.LADRegression", kind = "regressor",
  doc = "Least absolute deviation regression, the maximum-likelihood fit under Laplace noise "
    .. "(Koenker, Quantile Regression, 2005): minimises (1/N) sum_i s_i |y_i - x_i w - b| / 2 + alpha |w|_1 (the "
    .. "median case of QuantileRegressor, so alpha has scikit-learn's scaling; alpha = 0 is "
    .. "plain LAD); " .. QUANTILE_DOC,
  params = {
    { name = "alpha", type = "number", default = 0, min = 0, doc = "l1 penalty (0: plain LAD)" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
  },
  example = regression_example(function() return M.LADRegression{} end),
  fit = function(self, X, y, sample_weight) quantile_fit(self, X, y, sample_weight, 0.5) end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

-- ------------------------------------------ Bayesian logistic regression

-- The negative log-posterior of binary logistic regression (labels t in
-- {0, 1}) with the prior N(0, diag(precision)^-1) on beta = (w, b), up to
-- a constant: sum_i s_i [log(1 + exp(eta_i)) - t_i eta_i] + beta' P beta / 2.
local function neg_log_posterior(Xa, t, s, precision, beta)
  local eta = Xa * beta
  local loss = special.log1pexp(eta) - eta:mul(t)
  if s then loss = loss:mul(s) end
  return loss:sum() + 0.5 * beta:pow(2):dot(precision), eta
end

-- MAP by Newton's method = IRLS (notes 000 §7.2 / Ch. 7 summary: the
-- Hessian of the log-posterior is -sum sig(1 - sig) x x' - I/sigma_p^2),
-- with backtracking so that every step decreases the objective.  Returns
-- beta, the Hessian at beta, iterations and whether the gradient test held.
local function logistic_map(Xa, t, s, precision, tol, max_iter)
  local m = Xa:cols()
  local beta = luma.zeros(m, 1)
  local f, eta = neg_log_posterior(Xa, t, s, precision, beta)
  local function hessian(prob)
    local curvature = prob:mul(prob * -1 + 1)
    if s then curvature = curvature:mul(s) end
    local H = Xa:t() * Xa:mul(curvature)
    H:diag():add(precision, H:diag())
    return H
  end
  for iter = 0, max_iter do
    local prob = special.expit(eta)
    local resid = prob - t
    if s then resid = resid:mul(s) end
    local grad = Xa:t() * resid + beta:mul(precision)
    local H = hessian(prob)
    if grad:abs():max() <= tol or iter == max_iter then
      return beta, H, iter, grad:abs():max() <= tol
    end
    local ok, step = pcall(luma.linalg.solve, H, grad, { assume = "spd" })
    if not ok then step = luma.linalg.lstsq(H, grad) end
    local rate, improved = 1, false
    for _ = 1, 60 do
      local trial = beta - step * rate
      local ft, etat = neg_log_posterior(Xa, t, s, precision, trial)
      if ft <= f - 1e-4 * rate * grad:dot(step) then
        beta, f, eta, improved = trial, ft, etat, true
        break
      end
      rate = rate / 2
    end
    if not improved then -- no decrease possible in floating point: at the optimum
      prob = special.expit(eta)
      return beta, hessian(prob), iter, true
    end
  end
end

M.BayesianLogisticRegression = estimator.class{
  name = "luma.linear.BayesianLogisticRegression", kind = "classifier",
  method_docs = {
    predictive = { signature = "est:predictive(X) -> mu, s2",
      doc = "The mean and variance of the score a = x'beta under the Laplace posterior "
        .. "(Bishop, Pattern Recognition and Machine Learning, sec. 4.5.2). Returns two n x 1 "
        .. "matrices." },
  },
  doc = "Binary Bayesian logistic regression (Bishop, sec. 4.5): prior N(0, I/alpha) on the weights "
    .. "(the intercept gets precision intercept_alpha, 0 = a flat prior, so the MAP equals "
    .. "LogisticRegression{C = 1/alpha}), MAP by Newton/IRLS, Laplace approximation N(MAP, H^-1) "
    .. "with H the Hessian of the negative log-posterior, predictive probability by the probit "
    .. "approximation sig(kappa(s^2) mu), kappa = (1 + pi s^2 / 8)^(-1/2), mu = x~'MAP, s^2 = "
    .. "x~' Sigma x~. Fitted: classes, coef (d x 1, the MAP weights), intercept, covariance "
    .. "(Sigma over (w, b), b last), n_iter.",
  params = {
    { name = "alpha", type = "number", default = 1, gt = 0, doc = "prior precision of the weights (1 / sigma_p^2)" },
    { name = "intercept_alpha", type = "number", default = 0, min = 0,
      doc = "prior precision of the intercept (0: flat, not penalised)" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an intercept" },
    { name = "tol", type = "number", default = 1e-10, gt = 0, doc = "gradient inf-norm at which Newton stops" },
    { name = "max_iter", type = "integer", default = 100, min = 1, doc = "Newton iterations" },
  },
  example = function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 }, { 2, 2 }, { 5, 5 } }
    return M.BayesianLogisticRegression{}, X, luma.matrix{ 0, 0, 1, 0, 1, 1, 1, 0 }
  end,
  fit = function(self, X, y, sample_weight)
    local p = self.params
    check_fit_input(X, y, sample_weight)
    local codes, classes = classes_of("luma.linear.BayesianLogisticRegression", y)
    if classes:rows() > 2 then
      fail(3, "luma.linear.BayesianLogisticRegression: y has %d classes; this model is binary "
        .. "(wrap it in luma.multiclass.OneVsRest)", classes:rows())
    end
    local d = X:cols()
    local Xa = augmented(X, p.fit_intercept)
    local precision = luma.full(Xa:cols(), 1, p.alpha)
    if p.fit_intercept then precision:set(d + 1, 1, p.intercept_alpha) end
    local beta, H, iters, converged = logistic_map(Xa, codes - 1, sample_weight, precision, p.tol, p.max_iter)
    if not converged then
      warning("BayesianLogisticRegression: Newton did not converge in %d iterations; raise max_iter",
        p.max_iter)
    end
    local ok, cov = pcall(luma.linalg.inv, H)
    if not ok then
      fail(3, "luma.linear.BayesianLogisticRegression: the Hessian at the MAP is singular (%s); "
        .. "give the intercept a prior (intercept_alpha > 0)", tostring(cov):gsub("^.-: ", ""))
    end
    self.classes = classes
    self.coef = beta:sub(1, d, 1, 1):copy()
    self.intercept = p.fit_intercept and beta:get(d + 1, 1) or 0
    self.covariance = (cov + cov:t()) * 0.5 -- exactly symmetric
    self.n_iter = iters
  end,
  -- The MAP score mu = x~' beta (the predictive probability is above 1/2
  -- exactly when it is positive).
  decision_function = predict_linear,
  --- m:predictive(X) -> mu, s2: the mean and variance of the score
  -- a = x~' beta under the Laplace posterior (n x 1 each).
  predictive = function(self, X)
    X = estimator.check_input(self, "predictive", X)
    local Xa = augmented(X, self.params.fit_intercept)
    local mu = X * self.coef + self.intercept
    local s2 = (Xa * self.covariance):mul(Xa):sum(2)
    return mu, s2
  end,
  predict_proba = function(self, X)
    local mu, s2 = self:predictive(X)
    -- probit approximation (notes 000 §7.2): sig(mu / sqrt(1 + pi s^2 / 8))
    local kappa = (s2 * (math.pi / 8)):add(1):pow(-0.5)
    local p1 = special.expit(mu:mul(kappa))
    return luma.hstack{ p1 * -1 + 1, p1 }
  end,
  predict_log_proba = function(self, X) return self:predict_proba(X):log() end,
  predict = function(self, X)
    return estimator.decode_labels((X * self.coef + self.intercept):gt(0) + 1, self.classes)
  end,
}

-- ------------------------------------------- mixture of linear regressions

-- Weighted least squares per component, the M-step of notes 001 §D:
-- w_c = (X~' Q_c X~)^-1 X~' Q_c y, Q_c = diag(q_1c .. q_nc).  A component
-- with (almost) no weight keeps its previous coefficients.
local function mixture_m_step(Xa, y, Q, W)
  local C = Q:cols()
  local out = W and W:copy() or luma.zeros(Xa:cols(), C)
  for c = 1, C do
    local q = Q:col(c)
    if q:sum() > 1e-10 then
      local G = Xa:t() * Xa:mul(q)
      local rhs = Xa:t() * y:mul(q)
      local ok, w = pcall(luma.linalg.solve, G, rhs, { assume = "spd" })
      if not ok then w = luma.linalg.lstsq(G, rhs) end
      out:col(c):assign(w)
    end
  end
  return out
end

-- Per-sample, per-component log densities log pi_c + log N(y_i | x~_i w_c,
-- sigma_c^2) (n x C) and the total log-likelihood sum_i log sum_c (notes
-- 001 §C: the mixture log-likelihood that EM never decreases).
local function mixture_log_density(Xa, y, W, var, logpi)
  local R = (Xa * W * -1) + y                 -- residuals, n x C
  local logp = R:pow(2):div(var * -2) - (var * (2 * math.pi)):log() * 0.5 + logpi
  local lse = logp:logsumexp(2)
  return logp, lse, lse:sum()
end

-- One run from an initial model; returns the fitted state.
local function mixture_run(p, Xa, y, rng, floor)
  local n, m = Xa:shape()
  local C = p.n_components
  -- Start: each component's line through m points drawn without replacement
  -- (distinct points give distinct lines, which breaks the symmetry EM
  -- cannot break by itself), a broad common variance and equal weights.
  local picks = rng:choice(n, math.min(n, C * m), { replace = false })
  local Q0 = luma.zeros(n, C)
  for k = 1, picks:rows() do Q0:set(picks:get(k, 1), (k - 1) % C + 1, 1) end
  local W = mixture_m_step(Xa, y, Q0, luma.zeros(m, C))
  local yvar = math.max(y:var(), floor)
  local var = luma.full(1, C, p.noise_variance or yvar)
  local logpi = luma.full(1, C, -math.log(C))
  local history, converged, iters = {}, false, 0
  local Q, ll
  local assign
  for iter = 1, p.max_iter do
    iters = iter
    local logp, lse
    logp, lse, ll = mixture_log_density(Xa, y, W, var, logpi)
    history[#history + 1] = ll
    if p.method == "em" then
      -- E-step: q_ic proportional to pi_c N(y_i | x~_i w_c, sigma_c^2); with
      -- noise_variance = 1 and equal_weights it is the notes' exp(-r^2/2)
      Q = (logp - lse):exp()
      if iter > 1 and math.abs(history[iter] - history[iter - 1]) <= p.tol * n then
        converged = true
        break
      end
    else
      -- hard assignment by the absolute residual |y - <w_c, x~>| (notes 001 §D, L412-414)
      local z = ((Xa * W * -1) + y):abs():argmin(2)
      if assign and z:equal(assign) then converged = true break end
      assign = z
      Q = luma.zeros(n, C)
      for i = 1, n do Q:set(i, z:get(i, 1), 1) end
    end
    -- M-step
    W = mixture_m_step(Xa, y, Q, W)
    local nc = Q:sum(1)
    local R2 = ((Xa * W * -1) + y):pow(2)
    if not p.noise_variance then
      -- sigma_c^2 = sum_i q_ic r_ic^2 / n_c, kept >= floor: the constrained
      -- maximiser of Q, so EM stays monotone
      local fresh = R2:mul(Q):sum(1):div(nc:clamp(1e-300, math.huge))
      var = fresh:clamp(floor, math.huge)
    end
    if not p.equal_weights then logpi = (nc / n):clamp(1e-300, 1):log() end
  end
  if p.method == "em" then
    local logp, lse
    logp, lse, ll = mixture_log_density(Xa, y, W, var, logpi)
    Q = (logp - lse):exp()
  end
  local sse = ((Xa * W * -1) + y):pow(2):min(2):sum()
  return { W = W, var = var, logpi = logpi, Q = Q, ll = ll, history = history,
    converged = converged, n_iter = iters, sse = sse }
end

M.MixtureLinearRegression = estimator.class{
  name = "luma.linear.MixtureLinearRegression", kind = "regressor",
  method_docs = {
    predict_components = { signature = "est:predict_components(X) -> matrix",
      doc = "Every component line's prediction for the rows of X. Returns an n x C matrix." },
  },
  doc = "Mixture of C linear regressions (Bishop, sec. 14.5.1): y | x ~ sum_c pi_c "
    .. "N(x~'w_c, sigma_c^2). method \"em\": E-step responsibilities q_ic ~ pi_c N(y_i | x~_i w_c, "
    .. "sigma_c^2) (exp(-r^2/2) with noise_variance = 1 and equal_weights = true), M-step "
    .. "weighted least squares (X~'Q_c X~)^-1 X~'Q_c y, sigma_c^2 = sum q r^2 / n_c, pi_c = n_c / n; "
    .. "the log-likelihood never decreases (log_likelihood_history). method \"hard\": assign each "
    .. "point to the line with the smallest |y - x~'w_c|, refit each line by least squares, until "
    .. "the assignment stops changing. Each of n_init starts draws lines through random points. "
    .. "predict returns the mixture's conditional mean sum_c pi_c x~'w_c (the responsibilities need "
    .. "y); predict_components gives every line. Fitted: coef (d x C), intercept (1 x C), "
    .. "noise_variance (1 x C), weights (1 x C), responsibilities (n x C), log_likelihood, "
    .. "log_likelihood_history, n_iter, converged.",
  params = {
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "number of lines C" },
    { name = "method", type = "string", default = "em", values = { "em", "hard" },
      doc = "EM (soft responsibilities) or hard alternating minimisation" },
    { name = "max_iter", type = "integer", default = 200, min = 1, doc = "iterations per start" },
    { name = "tol", type = "number", default = 1e-8, min = 0,
      doc = "EM stops when the log-likelihood per sample changes less" },
    { name = "n_init", type = "integer", default = 1, min = 1, doc = "starts; the best is kept" },
    { name = "seed", type = "seed", doc = "for the starts" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "each line has an intercept" },
    { name = "noise_variance", type = "number", gt = 0,
      doc = "fixed noise variance of every line (1: unit variance); nil: estimated per line" },
    { name = "equal_weights", type = "boolean", default = false,
      doc = "keep pi_c = 1/C instead of estimating the mixing weights" },
    { name = "reg_variance", type = "number", default = 1e-6, min = 0,
      doc = "floor of the estimated variances, relative to var(y)" },
  },
  example = function()
    local X = luma.matrix{ { 0 }, { 1 }, { 2 }, { 3 }, { 0.5 }, { 1.5 }, { 2.5 }, { 3.5 } }
    local y = luma.matrix{ 0.1, 1.0, 2.1, 2.9, 3.0, 1.4, -0.1, -1.4 }
    return M.MixtureLinearRegression{ seed = 1 }, X, y
  end,
  fit = function(self, X, y)
    local p = self.params
    check_fit_input(X, y)
    local n = X:rows()
    if p.n_components > n then
      fail(3, "luma.linear.MixtureLinearRegression: n_components (%d) must be <= the number of "
        .. "samples (%d)", p.n_components, n)
    end
    local Xa = augmented(X, p.fit_intercept)
    local floor = math.max(p.reg_variance * y:var(), 1e-300)
    local rng = estimator.rng(p.seed)
    local best
    for _ = 1, p.n_init do
      local run = mixture_run(p, Xa, y, rng, floor)
      local better
      if best == nil then better = true
      elseif p.method == "em" then better = run.ll > best.ll
      else better = run.sse < best.sse end
      if better then best = run end
    end
    if not best.converged then
      warning("MixtureLinearRegression did not converge in %d iterations; raise max_iter or tol",
        p.max_iter)
    end
    local d = X:cols()
    self.coef = best.W:sub(1, d, 1, best.W:cols()):copy()
    self.intercept = p.fit_intercept and best.W:row(d + 1):copy() or luma.zeros(1, p.n_components)
    self.noise_variance = best.var:copy()
    self.weights = best.logpi:exp()
    self.responsibilities = best.Q
    self.log_likelihood = best.ll
    self.log_likelihood_history = best.history
    self.n_iter, self.converged = best.n_iter, best.converged
  end,
  --- m:predict_components(X) -> n x C: every line's prediction x~'w_c.
  predict_components = function(self, X)
    if not self:is_fitted() then
      fail(2, "luma.linear.MixtureLinearRegression: predict_components called before fit")
    end
    return X * self.coef + self.intercept
  end,
  predict = function(self, X)
    return (X * self.coef + self.intercept) * self.weights:t()
  end,
}

return M
