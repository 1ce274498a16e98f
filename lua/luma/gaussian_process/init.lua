--- luma.gaussian_process: Gaussian processes (docs/GAUSSIAN_PROCESS.md).
--
-- The package is one part per concern, merged here into the table users
-- get as luma.gaussian_process:
--   kernels     covariance functions with hyperparameters, bounds and
--               gradients (luma.gaussian_process.kernels, also reachable
--               as the field kernels)
--   regressor   GaussianProcessRegressor
--   classifier  GaussianProcessClassifier (binary Laplace, one-vs-rest)
--   logistic    KernelLogisticRegression (the MAP of the same model,
--               notes 000 §7.4: GP classification is its Bayesian form)
--   common      helpers shared by the parts (not public)
-- and luma.gaussian_process.native, the C kernel (src/ml/gaussian_process).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local gp = { kernels = require("luma.gaussian_process.kernels") }

for _, part in ipairs{ "regressor", "classifier", "logistic" } do
  for name, member in pairs(require("luma.gaussian_process." .. part)) do gp[name] = member end
end

luma.doc.set(gp, { name = "luma.gaussian_process",
  doc = "Gaussian processes: GaussianProcessRegressor, GaussianProcessClassifier (Laplace), "
    .. "KernelLogisticRegression, and kernels (ConstantKernel, WhiteKernel, RBF, Matern, "
    .. "RationalQuadratic, ExpSineSquared, DotProduct, sums and products) with hyperparameters "
    .. "fitted by maximising the log marginal likelihood. See docs/GAUSSIAN_PROCESS.md." })

return gp
