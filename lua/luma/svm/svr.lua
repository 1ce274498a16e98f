--- luma.svm.svr: support vector regression, SVR (epsilon-SVR) and NuSVR
-- (nu-SVR, where epsilon is found from nu), solved by the SMO solver.
--
-- epsilon-SVR is notes 003 §1.16 with both slack sets: min 1/2 |w|^2 +
-- C sum (xi_n + xi*_n) s.t. y_n - f(x_n) <= eps + xi_n, f(x_n) - y_n <=
-- eps + xi*_n, whose dual over (a, a*) has 0 <= a_n, a*_n <= C and
-- sum (a_n - a*_n) = 0 (the notes' garbled constraints corrected, their
-- erratum); f(x) = sum (a_n - a*_n) k(x_n, x) + b.  dual_coef holds
-- a - a* of the support vectors (1 x n_SV), intercept b.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.svm.common")

local svr = {}

local function fit_regressor(self, X, y, sample_weight, opts)
  local name = self.__class.short_name
  if y:cols() ~= 1 then
    common.fail("bad argument #2 to 'fit' (%s: y must be one column, got %d)", name, y:cols())
  end
  local spec, data = common.training_data(name, self.params, X)
  local w = sample_weight or luma.ones(X:rows(), 1)
  local rows = common.positive_rows(w)
  if rows:rows() == 0 then common.fail("bad argument #3 to 'fit' (%s: every weight is 0)", name) end
  self.kernel_spec = spec
  opts.rows, opts.y, opts.weight = rows, y:take(rows), w:take(rows)
  local coef, rho, info = common.solve(self, data, spec, opts)
  local sv = common.nonzero(coef)
  local at = common.column(sv)
  common.set_support(self, X, #sv > 0 and rows:take(at) or at)
  self.dual_coef = #sv > 0 and coef:take(at):t() or luma.zeros(1, 0)
  self.intercept = luma.matrix{ -rho }
  self.n_iter = info.iterations
  if spec.kind == "linear" then self.coef = self.dual_coef * self.support_vectors end
  return info
end

local function predict(self, X)
  return common.kernel_product(self, X, self.dual_coef:t()) + self.intercept:get(1, 1)
end

svr.SVR = estimator.class{
  sparse = true,
  name = "luma.svm.SVR",
  kind = "regressor",
  doc = "Epsilon-support vector regression (Vapnik 1995; Smola & Schölkopf 2004): errors "
    .. "below epsilon cost nothing, larger ones C times their excess; solved by SMO over both "
    .. "slack sets. fit(X, y [, sample_weight]). Fitted: support, support_vectors, dual_coef (a "
    .. "- a*), intercept, n_iter, coef (linear kernel).",
  params = common.schema({
    { name = "C", type = "number", default = 1, gt = 0, doc = "penalty of the slack" },
    { name = "epsilon", type = "number", default = 0.1, min = 0,
      doc = "half-width of the insensitive tube" },
  }, common.kernel_params(), common.solver_params()),
  example = common.example_regression(function() return svr.SVR{ kernel = "linear" } end),
  fit = function(self, X, y, sample_weight)
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    fit_regressor(self, X, y, sample_weight,
      { type = "epsilon_svr", C = self.params.C, epsilon = self.params.epsilon })
  end,
  predict = predict,
}

svr.NuSVR = estimator.class{
  sparse = true,
  name = "luma.svm.NuSVR",
  kind = "regressor",
  doc = "Nu-support vector regression (Schölkopf et al. 2000): the tube width is a variable "
    .. "and nu in (0, 1] bounds the fraction of points outside it from above and of support "
    .. "vectors from below. fit(X, y [, sample_weight]). Fitted as SVR, plus epsilon (the "
    .. "tube's half-width found).",
  params = common.schema({
    { name = "nu", type = "number", default = 0.5, gt = 0, max = 1,
      doc = "bound on the fractions of errors and support vectors" },
    { name = "C", type = "number", default = 1, gt = 0, doc = "penalty of the slack" },
  }, common.kernel_params(), common.solver_params()),
  example = common.example_regression(function() return svr.NuSVR{} end),
  fit = function(self, X, y, sample_weight)
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    local info = fit_regressor(self, X, y, sample_weight,
      { type = "nu_svr", C = self.params.C, nu = self.params.nu })
    self.epsilon = -info.r
  end,
  predict = predict,
}

return svr
