--- luma.svm.one_class: OneClassSVM, Schölkopf's one-class SVM (Schölkopf
-- et al., Neural Computation 13, 2001) as LIBSVM solves it: the hyperplane
-- separating the data from the origin in feature space with the largest
-- margin, nu in (0, 1] bounding the fraction of outliers from above and
-- of support vectors from below.  Dual: min 1/2 a'Ka s.t. sum a_i = nu n,
-- 0 <= a_i <= 1; decision f(x) = sum a_i k(x_i, x) - rho, an outlier
-- where f < 0 (scikit-learn's OutlierMixin signs).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.svm.common")

local one_class = {}

local function score_samples(self, X)
  return common.kernel_product(self, X, self.dual_coef:t())
end

local function decision_function(self, X)
  return score_samples(self, X) - self.offset
end

one_class.OneClassSVM = estimator.class{
  sparse = true,
  name = "luma.svm.OneClassSVM",
  kind = "outlier",
  doc = "One-class SVM (Schölkopf et al. 2001) for novelty and outlier detection, solved by "
    .. "SMO. predict gives +1 (inlier) or -1; decision_function = score_samples - offset, "
    .. "negative for outliers. fit(X [, y] [, sample_weight]). Fitted: support, "
    .. "support_vectors, dual_coef, intercept (-offset), offset, n_iter.",
  params = common.schema({
    { name = "nu", type = "number", default = 0.5, gt = 0, max = 1,
      doc = "upper bound on the fraction of outliers, lower bound on that of support vectors" },
  }, common.kernel_params(), common.solver_params()),
  example = common.example_regression(function() return one_class.OneClassSVM{ gamma = 0.1 } end),
  fit = function(self, X, _, sample_weight)
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    local name = self.__class.short_name
    local spec, data = common.training_data(name, self.params, X)
    local w = sample_weight or luma.ones(X:rows(), 1)
    local rows = common.positive_rows(w)
    if rows:rows() == 0 then common.fail("bad argument #3 to 'fit' (%s: every weight is 0)", name) end
    self.kernel_spec = spec
    local coef, rho, info = common.solve(self, data, spec,
      { type = "one_class", rows = rows, weight = w:take(rows), nu = self.params.nu })
    local at = common.column(common.nonzero(coef))
    common.set_support(self, X, rows:take(at))
    self.dual_coef = coef:take(at):t()
    self.offset = rho
    self.intercept = luma.matrix{ -rho }
    self.n_iter = info.iterations
  end,
  score_samples = score_samples,
  decision_function = decision_function,
  predict = function(self, X)
    local f = decision_function(self, X)
    return f:gt(0) * 2 - 1
  end,
}

return one_class
