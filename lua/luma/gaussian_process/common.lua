--- luma.gaussian_process.common: what the regressor, the classifiers and
-- kernel logistic regression share (not a public API): argument checks,
-- the positive-definiteness report, the hyperparameter search by L-BFGS-B
-- with seeded restarts, one-vs-rest bookkeeping and example data.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local kernels = require("luma.gaussian_process.kernels")
local optim = require("luma.optim")

local common = {}

common.LOG_2PI = math.log(2 * math.pi)

function common.fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end
local fail = common.fail

--- warning(fmt, ...): through warn(), so a host can redirect it.
function common.warning(fmt, ...)
  warn("luma.gaussian_process: " .. string.format(fmt, ...))
end
local warning = common.warning

--- check_finite(M, arg, fname, what, level): M has no NaN or Inf (the
-- first one named; for X, the data, a NaN suggests imputing).
function common.check_finite(M, arg, fname, what, level)
  local bad = args.nonfinite(M, what, what == "X")
  if bad then fail(level + 1, "bad argument #%d to '%s' (%s)", arg, fname, bad) end
end

--- the_kernel(class_name, k): the estimator's kernel parameter, checked;
-- nil means scikit-learn's default, ConstantKernel(1, fixed) * RBF(1, fixed).
function common.the_kernel(class_name, k, level)
  if k == nil then
    return kernels.ConstantKernel{ constant_value = 1, constant_value_bounds = "fixed" }
      * kernels.RBF{ length_scale = 1, length_scale_bounds = "fixed" }
  end
  if not kernels.is_kernel(k) then
    fail(level + 1, "%s: parameter 'kernel' must be a luma.gaussian_process.kernels kernel "
      .. "(RBF{...}, Matern{...}, sums and products of them), got %s", class_name,
      type(k) == "table" and tostring(k) or type(k))
  end
  return k
end

--- cholesky(A): the lower Cholesky factor of A, or nil when A is not
-- (numerically) positive definite.
function common.cholesky(A)
  local ok, L = pcall(luma.linalg.cholesky, A)
  if ok then return L end
  return nil
end

--- not_positive_definite(level, class_name, K, what, fix): the Cholesky
-- factorisation of K failed: warns with K's smallest eigenvalue (the
-- kernel is not positive semi-definite there, or only to rounding) and
-- raises an error that names the parameter to change.
function common.not_positive_definite(level, class_name, K, what, fix)
  local lam = luma.linalg.eigh(K, { vectors = false })
  local smallest = lam:get(1, 1)
  warning("%s: %s is not positive definite: its smallest eigenvalue is %.6g", class_name, what,
    smallest)
  fail(level + 1, "%s: %s is not positive definite (smallest eigenvalue %.6g); %s", class_name,
    what, smallest, fix)
end

--- warn_if_not_psd(class_name, K): warns with K's smallest eigenvalue
-- when K is not positive semi-definite beyond rounding (a Cholesky
-- factorisation of K plus 1e-8 times its mean diagonal fails; only then
-- are the eigenvalues computed).  For models whose own factorisations
-- (I + W^1/2 K W^1/2) can succeed on such a K although its theory fails.
function common.warn_if_not_psd(class_name, K)
  local jitter = 1e-8 * math.max(K:diag():mean(), 0)
  local J = K:copy()
  local d = J:diag()
  d:add(jitter, d)
  if common.cholesky(J) then return end
  local smallest = luma.linalg.eigh(K, { vectors = false }):get(1, 1)
  if smallest < -jitter then
    warning("%s: the kernel matrix k(X, X) is not positive semi-definite: its smallest "
      .. "eigenvalue is %.6g (check the parameter 'kernel')", class_name, smallest)
  end
end

--- solve_cholesky(L, B): (L L^T)^-1 B by two triangular solves.
function common.solve_cholesky(L, B)
  local Z = luma.linalg.solve_triangular(L, B, { lower = true })
  return luma.linalg.solve_triangular(L, Z, { lower = true, trans = true })
end

-- The hyperparameter search --------------------------------------------

-- scikit-learn's _check_bounds_params: a fitted hyperparameter within
-- rtol 1e-5, atol 1e-8 of a bound (in log space) suggests the bound
-- stopped the search.
local function warn_at_bounds(class_name, kernel)
  local theta, B = kernel:theta(), kernel:bounds()
  local names = {}
  for _, h in ipairs(kernel:hyperparameters()) do
    if not h.fixed then
      local count = type(h.value) == "table" and #h.value or 1
      for j = 1, count do names[#names + 1] = { h.name, j } end
    end
  end
  for i = 1, theta:rows() do
    local t = theta:get(i, 1)
    for side, word in ipairs({ "lower", "upper" }) do
      local b = B:get(i, side)
      if math.abs(t - b) <= 1e-8 + 1e-5 * math.abs(b) then
        warning("%s: the fitted value of %s (element %d) is close to its %s bound %.6g; "
          .. "widening the bound and fitting again may find a better value", class_name,
          names[i][1], names[i][2], word, math.exp(b))
      end
    end
  end
end

--- optimize(spec) -> theta, value: minimizes spec.objective(theta,
-- want_grad) -> f [, grad] (the negative log marginal likelihood) by
-- L-BFGS-B within spec.kernel's bounds, from the kernel's theta and then
-- from spec.restarts points drawn log-uniformly within the bounds with
-- spec.rng (scikit-learn's n_restarts_optimizer); keeps the best.
-- Restarts need finite bounds.  A start where the objective is infinite
-- (the kernel matrix not positive definite) is skipped; if every start
-- is, the result is nil.  spec.name names the class in warnings.
function common.optimize(spec)
  local kernel = spec.kernel
  local B = kernel:bounds()
  local lower, upper = B:col(1):copy(), B:col(2):copy()
  local starts = { kernel:theta() }
  for _ = 1, spec.restarts do
    starts[#starts + 1] = spec.rng:uniform(B:rows(), 1):mul(upper - lower):add(lower)
  end
  local best, best_f
  for s, theta0 in ipairs(starts) do
    if spec.objective(theta0, false) < math.huge then
      local res = optim.minimize(function(theta, want_grad) return spec.objective(theta, want_grad) end,
        theta0, { method = "lbfgsb", lower = lower, upper = upper })
      if not res.converged then
        warning("%s: L-BFGS-B stopped without converging from start %d (%s)", spec.name, s,
          res.message or "no message")
      end
      if best_f == nil or res.fun < best_f then best, best_f = res.x, res.fun end
    end
  end
  if best then warn_at_bounds(spec.name, kernel:clone_with_theta(best)) end
  return best, best_f
end

-- One-vs-rest -------------------------------------------------------------

--- encode_classes(class_name, y, level) -> codes, classes: y's labels
-- (one finite column) with at least two classes.
function common.encode_classes(class_name, y, level)
  if y:cols() ~= 1 then
    fail(level + 1, "bad argument #2 to 'fit' (%s needs one column of labels, got %d)", class_name,
      y:cols())
  end
  common.check_finite(y, 2, "fit", "y", level + 1)
  local codes, classes = estimator.encode_labels(y)
  if classes:rows() < 2 then
    fail(level + 1, "bad argument #2 to 'fit' (%s needs at least two classes, y has only %.15g)",
      class_name, classes:get(1, 1))
  end
  return codes, classes
end

--- one_vs_rest(codes, k, fit_binary) -> models: fit_binary(t) with t the
-- 0/1 column "class c" for c = 2 alone when k = 2 (the second class
-- against the first), else for each c = 1..k.
function common.one_vs_rest(codes, k, fit_binary)
  local models = {}
  if k == 2 then
    models[1] = fit_binary(codes:eq(2))
  else
    for c = 1, k do models[c] = fit_binary(codes:eq(c)) end
  end
  return models
end

--- ovr_proba(models, k, proba_of) -> n x k probabilities, proba_of(model,
-- j) the positive-class column of the j-th binary model: with two
-- classes 1 - p and p; with more, each class's probability against the
-- rest, normalised to sum to 1 (scikit-learn's OneVsRestClassifier).
function common.ovr_proba(models, k, proba_of)
  if k == 2 then
    local p = proba_of(models[1], 1)
    return luma.matrix.hstack{ -p + 1, p }
  end
  local cols = {}
  for c = 1, k do cols[c] = proba_of(models[c], c) end
  local P = luma.matrix.hstack(cols)
  return P:div(P:sum(2), P)
end

-- Example data for the persistence test ----------------------------------

function common.regression_example(make)
  return function()
    local X = luma.matrix{ { 0.1 }, { 0.7 }, { 1.3 }, { 2.2 }, { 2.9 }, { 3.6 }, { 4.4 }, { 5.0 } }
    return make(), X, X:sin():add(X:mul(0.1))
  end
end

function common.classification_example(make)
  return function()
    local X = luma.matrix{ { 0.0, 0.2 }, { 0.4, 0.1 }, { 0.3, 0.9 }, { 1.0, 1.1 }, { 1.6, 0.7 },
      { 2.0, 2.1 }, { 2.4, 1.8 }, { 3.0, 2.6 }, { 0.9, 2.8 }, { 0.2, 2.4 }, { 0.5, 3.1 },
      { 1.2, 2.5 } }
    local y = luma.matrix{ 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3 }
    return make(), X, y
  end
end

return common
