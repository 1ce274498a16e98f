--- luma.linear: linear models (docs/LINEAR.md).
--
-- The package is one part per concern, each returning its public members,
-- which are merged here into the table users get as luma.linear:
--   least_squares  LinearRegression
--   ridge          Ridge, RidgeCV, KernelRidge
--   lasso          Lasso, ElasticNet, lasso_path, enet_path, LassoCV,
--                  ElasticNetCV (coordinate descent)
--   logistic       LogisticRegression
--   sgd            SGDClassifier, SGDRegressor
--   bayes          BayesianLinearRegression, SparseBayesianRegression,
--                  RelevanceVectorRegression, RelevanceVectorClassification
--   robust         HuberRegressor, LADRegression, QuantileRegressor,
--                  Perceptron, BayesianLogisticRegression,
--                  MixtureLinearRegression
--   common         helpers shared by the parts (moments, intercepts,
--                  warnings; not public)
-- and luma.linear.native, the C kernels (src/ml/linear/linear_lua.c).
-- Conventions of every part (../shared/BRIEF.md):
--   * coef is d x k (one column per target), so predict is X * coef +
--     intercept; intercept is a number for one target, else 1 x k.
-- fit(X, y [, sample_weight]) takes optional non-negative weights (n x 1):
-- weighted least squares (notes 001 §D, the M-step of mixed regression).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")

local linear = {}

for _, part in ipairs{ "least_squares", "ridge", "lasso", "logistic", "sgd", "bayes", "robust" } do
  for name, member in pairs(require("luma.linear." .. part)) do linear[name] = member end
end

-- Every model with coefficients per feature prints them by name (the
-- kernel models weigh training points instead: dual_coef).
local KERNEL_MODELS = { KernelRidge = true, RelevanceVectorRegression = true,
  RelevanceVectorClassification = true }
local coef_table = require("luma.linear.common").coef_table
luma.doc.set(coef_table, { name = "luma.linear.coef_table",
  signature = "est:coef_table()",
  doc = "The fitted coefficients by feature name (feature_names_in after a fit on a "
    .. "luma.Table or inside a pipeline fitted on one, else x1 .. xd) and the intercept, "
    .. "one column per target or class. Returns a luma.Table (print it to see the aligned "
    .. "coefficients)." })
for name, member in pairs(linear) do
  if type(member) == "table" and type(member.methods) == "table" and not KERNEL_MODELS[name] then
    estimator.set_method(member, "coef_table", coef_table)
  end
end

luma.doc.set(linear, { name = "luma.linear",
  doc = "Linear models: LinearRegression, Ridge, RidgeCV, KernelRidge, Lasso, ElasticNet, "
    .. "LassoCV, ElasticNetCV, lasso_path, enet_path, LogisticRegression, BayesianLinearRegression, "
    .. "SparseBayesianRegression, RelevanceVectorRegression, RelevanceVectorClassification, "
    .. "HuberRegressor, LADRegression, QuantileRegressor, Perceptron, BayesianLogisticRegression, "
    .. "MixtureLinearRegression." })

return linear
