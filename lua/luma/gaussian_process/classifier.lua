--- luma.gaussian_process.classifier: GaussianProcessClassifier, binary
-- Gaussian process classification with the logistic link by the Laplace
-- approximation, one-vs-rest for more classes (Rasmussen & Williams 2006,
-- Alg. 3.1, 3.2 and 5.1; notes 000 §7.4, where GP classification is the
-- Bayesian form of kernel logistic regression; scikit-learn's
-- GaussianProcessClassifier, which it matches).
--
-- Alg. 3.1 (the posterior mode of the latent f by Newton's method, from
-- f = 0, with t the 0/1 targets and B = I + W^1/2 K W^1/2 = L L^T):
--   pi = sigmoid(f), W = pi (1 - pi), b = W f + t - pi,
--   a = b - W^1/2 B^-1 W^1/2 K b, f = K a,
--   log q(y | X) = -a^T f / 2 + sum log sigmoid((2t - 1) f) - sum log L_ii,
-- stopping when log q grows by less than 1e-10 (scikit-learn's rule; its
-- value from before the last step is kept, as there).  Alg. 5.1 gives
-- the gradient in theta, with R = W^1/2 B^-1 W^1/2 from
-- luma.gaussian_process.native.cho_inverse.  Alg. 3.2 predicts the
-- latent mean k*^T (t - pi) and variance k** - |L^-1 W^1/2 k*|^2; the
-- probability averages the sigmoid over that Gaussian by Williams &
-- Barber's (1998, App. A) five error functions (scikit-learn's choice),
-- or by the probit approximation sigmoid(mu / sqrt(1 + pi var / 8)) of
-- notes 000 §7.4 (MacKay 1992) with approximation = "probit".
--
-- Restarts are drawn log-uniformly within the bounds, as for the
-- regressor (scikit-learn 1.2.1's classifier exponentiates its draw once
-- more, a known slip, so its restarts start elsewhere).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")
local common = require("luma.gaussian_process.common")
local kernels = require("luma.gaussian_process.kernels")
local native = require("luma.gaussian_process.native")
local special = require("luma.special")

local fail, check_finite = common.fail, common.check_finite

local M = {}

local NAME = "luma.gaussian_process.GaussianProcessClassifier"
local SHORT = "GaussianProcessClassifier"

-- Williams & Barber's approximation of the logistic sigmoid by five error
-- functions: sigmoid(x) ~ sum_i c_i (1 + erf(lambda_i x)) / 2, whose
-- Gaussian average is then exact (scikit-learn's LAMBDAS and COEFS).
local LAMBDAS = { 0.41, 0.4, 0.37, 0.44, 0.39 }
local COEFS = { -1854.8214151, 3516.89893646, 221.29346712, 128.12323805, -2010.49422654 }

-- K with I + W^1/2 K W^1/2's factor and Alg. 3.1's quantities at the
-- posterior mode: log q, pi, sqrt W, L, a; nil when B is not positive
-- definite (K is not positive semi-definite).
local function posterior_mode(K, t, max_iter)
  local n = K:rows()
  local f = luma.zeros(n, 1)
  local sign = t * 2 - 1
  local lml, pi, sW, L, a = -math.huge, nil, nil, nil, nil
  for _ = 1, max_iter do
    pi = f:sigmoid()
    local W = pi:mul(-pi + 1)
    sW = W:sqrt()
    local B = K:mul(sW):mul(sW:t())
    local d = B:diag()
    d:add(1, d)
    L = common.cholesky(B)
    if not L then return nil end
    local b = W:mul(f):add(t - pi)
    a = b - sW:mul(common.solve_cholesky(L, sW:mul(K * b)))
    f = K * a
    local value = -0.5 * a:dot(f) - (-sign:mul(f)):softplus():sum() - L:diag():log():sum()
    if value - lml < 1e-10 then break end
    lml = value
  end
  return { lml = lml, pi = pi, sW = sW, L = L, a = a }
end

-- Alg. 5.1: d log q / d theta_j for the mode m of K, dK = {dK/dtheta_j}.
local function lml_gradient(K, G, t, m)
  local pi, sW = m.pi, m.sW
  local R = native.cho_inverse(m.L):mul(sW):mul(sW:t())
  local Cm = luma.linalg.solve_triangular(m.L, K:mul(sW), { lower = true })
  -- s2 = -(diag K - diag(C^T C)) pi (1 - pi) (1 - 2 pi) / 2: the third
  -- derivative of the log likelihood times the posterior variance
  local s2 = (K:diag() - Cm:pow(2):sum(1):t()):mul(pi:mul(-pi + 1):mul(-pi * 2 + 1)):mul(-0.5)
  local r = t - pi
  local grad = luma.zeros(#G, 1)
  for j, dK in ipairs(G) do
    local s1 = 0.5 * m.a:dot(dK * m.a) - 0.5 * R:dot(dK)
    local bj = dK * r
    local s3 = bj - K * (R * bj)
    grad:set(j, 1, s1 + s2:dot(s3))
  end
  return grad
end

local function report_not_pd(level, K)
  common.not_positive_definite(level + 1, SHORT, K, "the kernel matrix k(X, X)",
    "the parameter 'kernel' must be positive semi-definite on the training inputs")
end

-- One binary problem (t: 0/1 column): the fitted kernel and the mode.
local function fit_binary(p, rng, kernel, X, t, level)
  local max_iter = p.max_iter_predict
  local function objective(theta, want_grad)
    local k = kernel:clone_with_theta(theta)
    local K, G
    if want_grad then K, G = k:gradient(X) else K = k(X) end
    local m = posterior_mode(K, t, max_iter)
    if not m then return math.huge, want_grad and luma.zeros(#G, 1) or nil end
    if not want_grad then return -m.lml end
    return -m.lml, lml_gradient(K, G, t, m):mul(-1)
  end
  if p.optimizer == "lbfgsb" and kernel:n_dims() > 0 then
    local theta = common.optimize{ name = SHORT, kernel = kernel, restarts = p.n_restarts_optimizer,
      rng = rng, objective = objective }
    if theta then kernel = kernel:clone_with_theta(theta) end
  end
  local K = kernel(X)
  common.warn_if_not_psd(SHORT, K)
  local m = posterior_mode(K, t, max_iter)
  if not m then report_not_pd(level + 1, K) end
  return { kernel = kernel, t = t, pi = m.pi, sW = m.sW, L = m.L, lml = m.lml }
end

-- The positive-class probability of one binary model at X (Alg. 3.2).
local function binary_proba(self, model, X)
  local Ks = model.kernel(self.X_train, X)
  local mean = Ks:t() * (model.t - model.pi)
  local V = luma.linalg.solve_triangular(model.L, Ks:mul(model.sW), { lower = true })
  local var = model.kernel:diag(X):subtract(V:pow(2):sum(1):t())
  if self.params.approximation == "probit" then
    return mean:div((var * (math.pi / 8) + 1):sqrt()):sigmoid()
  end
  -- sum_i c_i (1 + erf(lambda_i mu / sqrt(1 + 2 lambda_i^2 var))) / 2
  local p = luma.zeros(X:rows(), 1)
  for i, lambda in ipairs(LAMBDAS) do
    local z = (mean * lambda):div((var * (2 * lambda * lambda) + 1):sqrt())
    p:add(special.erf(z):add(1):mul(0.5 * COEFS[i]), p)
  end
  return p
end

local function fit(self, X, y)
  local p = self.params
  check_finite(X, 1, "fit", "X", 3)
  local codes, classes = common.encode_classes(SHORT, y, 3)
  local kernel = common.the_kernel(NAME, p.kernel, 3)
  self.classes, self.X_train = classes, X:copy()
  -- one generator for all the binary problems, so restarts differ between them
  local rng = estimator.rng(p.seed)
  self.models = common.one_vs_rest(codes, classes:rows(), function(t)
    local model = fit_binary(p, rng, kernel, X, t, 5)
    return model
  end)
  local total, fitted = 0, {}
  for j, m in ipairs(self.models) do
    total = total + m.lml
    fitted[j] = m.kernel
  end
  self.kernels = fitted
  self.log_marginal_likelihood_value = total / #self.models
end

local function predict_proba(self, X)
  check_finite(X, 1, "predict_proba", "X", 2)
  return common.ovr_proba(self.models, self.classes:rows(), function(m) return binary_proba(self, m, X) end)
end

local function predict(self, X)
  check_finite(X, 1, "predict", "X", 2)
  if #self.models == 1 then
    -- the sign of the latent mean (R&W §3.4.2): the MAP decision
    local m = self.models[1]
    local mean = m.kernel(X, self.X_train) * (m.t - m.pi)
    return self.classes:take(mean:gt(0) + 1)
  end
  return estimator.decode_labels(predict_proba(self, X):argmax(2), self.classes)
end

--- m:log_marginal_likelihood([theta [, {gradient = true}]]) -> the
-- Laplace approximation of log p(y | X, theta) (two classes; with more,
-- only the fitted value: the mean over the one-vs-rest problems).
local function log_marginal_likelihood(self, theta, opts)
  if not self:is_fitted() then fail(2, "%s: log_marginal_likelihood called before fit", NAME) end
  opts = args.options("log_marginal_likelihood", 2, opts, nil, { gradient = true }, 2)
  local want_grad = opts.gradient == true
  if theta == nil then
    if want_grad then fail(2, "bad argument #1 to 'log_marginal_likelihood' (the gradient needs theta)") end
    return self.log_marginal_likelihood_value
  end
  if #self.models > 1 then
    fail(2, "bad argument #1 to 'log_marginal_likelihood' (theta is for two classes; with %d, "
      .. "each one-vs-rest problem has its own kernel in m.kernels)", self.classes:rows())
  end
  local model = self.models[1]
  local ok, k = pcall(model.kernel.clone_with_theta, model.kernel, theta)
  if not ok then
    fail(2, "bad argument #1 to 'log_marginal_likelihood' (theta must be %d finite numbers, the "
      .. "logs of the kernel's free hyperparameters)", model.kernel:n_dims())
  end
  local K, G
  if want_grad then K, G = k:gradient(self.X_train) else K = k(self.X_train) end
  local m = posterior_mode(K, model.t, self.params.max_iter_predict)
  if not m then report_not_pd(2, K) end
  if not want_grad then return m.lml end
  return m.lml, lml_gradient(K, G, model.t, m)
end

M.GaussianProcessClassifier = estimator.class{
  name = NAME, kind = "classifier",
  doc = "Gaussian process classification by the Laplace approximation (Rasmussen & Williams "
    .. "2006, Alg. 3.1/3.2/5.1): logistic link, binary, one-vs-rest for more "
    .. "classes (probabilities normalised to sum to 1). Hyperparameters maximise the "
    .. "approximate log marginal likelihood with L-BFGS-B and seeded restarts, per binary "
    .. "problem. predict_proba averages the sigmoid over the latent Gaussian (approximation "
    .. "\"erf\": Williams & Barber's five error functions, as scikit-learn; \"probit\": "
    .. "sigmoid(mu / sqrt(1 + pi var / 8)), MacKay's approximation as in Bishop, Pattern "
    .. "Recognition and Machine Learning, sec. 4.5.2). Fitted: classes, kernels (one per "
    .. "binary problem), models, log_marginal_likelihood_value (their mean). Matches "
    .. "scikit-learn's GaussianProcessClassifier.",
  method_docs = {
    log_marginal_likelihood = {
      signature = "est:log_marginal_likelihood([theta = fitted [, {gradient = false}]]) -> "
        .. "number [, grad]",
      doc = "The Laplace approximation of log p(y | X, theta) (Rasmussen & Williams, eq. 3.32), "
        .. "theta the logs of the kernel's free hyperparameters; without theta the fitted value "
        .. "(with more than two classes the mean over the one-vs-rest problems, and theta is "
        .. "refused). With gradient = true (theta given) also its gradient in theta (Alg. "
        .. "5.1). Returns a number, and the p x 1 gradient when asked." },
  },
  params = {
    { name = "kernel", type = "table",
      doc = "a luma.gaussian_process.kernels kernel (default ConstantKernel(1, fixed) * RBF(1, fixed))" },
    { name = "optimizer", type = "string", default = "lbfgsb", values = { "lbfgsb", "none" },
      doc = "\"lbfgsb\" fits the hyperparameters, \"none\" keeps the kernel's" },
    { name = "n_restarts_optimizer", type = "integer", default = 0, min = 0,
      doc = "extra L-BFGS-B starts drawn log-uniformly within the bounds" },
    { name = "max_iter_predict", type = "integer", default = 100, min = 1,
      doc = "Newton iterations for the posterior mode (Alg. 3.1)" },
    { name = "approximation", type = "string", default = "erf", values = { "erf", "probit" },
      doc = "how predict_proba averages the sigmoid over the latent Gaussian" },
    { name = "seed", type = "seed", doc = "seed or generator for the restarts" },
  },
  example = common.classification_example(function()
    return M.GaussianProcessClassifier{ kernel = kernels.ConstantKernel() * kernels.RBF() }
  end),
  fit = fit,
  predict = predict,
  predict_proba = predict_proba,
  log_marginal_likelihood = log_marginal_likelihood,
}

return M
