-- MAP versus maximum likelihood for high-degree polynomials: notes 004
-- Example 9.6.
--
-- The data of Example 9.5 (scripts/examples/polynomial_overfitting.lua:
-- N = 10, noise sigma = 0.2, the same seed).  For degrees M = 6 and 8 the
-- maximum-likelihood fit (least squares) is compared with the MAP fit
-- under the prior theta ~ N(0, I) (b^2 = 1): theta_MAP = (Phi^T Phi +
-- lambda I)^-1 Phi^T y with lambda = sigma^2 / b^2 = 0.04 (notes 004
-- (9.31)), which is also the posterior mean of Bayesian linear regression
-- with that prior and noise (notes 004 §9.3, m_N = theta_MAP).  Printed per
-- fit: |theta|, the training and test RMSE, and the total variation
-- sum |f(x_i+1) - f(x_i)| of the fitted curve on the 200-point test grid,
-- a measure of how much it wiggles: the MAP fits are smoother (smaller
-- coefficients, smaller variation) and generalise better.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local SEED = math.tointeger(tonumber(arg and arg[1])) or 25
local N, SIGMA, B2 = 10, 0.2, 1
local LAMBDA = SIGMA ^ 2 / B2

local x, y = luma.datasets.make_sinusoid{ n_samples = N, noise = SIGMA, seed = SEED }
local x_test = luma.linspace(-5, 5, 200)
local y_test = (x_test / 5):sin() * -1 + x_test:cos()
  + luma.random.Generator(SEED + 1):normal(200, 1, 0, SIGMA)

local function rmse(pred, target) return math.sqrt((pred - target):pow(2):mean()) end

print(string.format("ML vs MAP (prior N(0, I), sigma = %.1f, lambda = sigma^2/b^2 = %.2f), seed %d",
  SIGMA, LAMBDA, SEED))
print(" M  fit   |theta|   train RMSE  test RMSE  variation")
for _, degree in ipairs{ 6, 8 } do
  local features = luma.preprocessing.PolynomialFeatures{ degree = degree }:fit(x)
  local Phi, Phi_test = features:transform(x), features:transform(x_test)
  local ml = luma.linear.LinearRegression{ fit_intercept = false, solver = "svd" }:fit(Phi, y)
  -- the posterior mean under N(0, b^2 I) with noise sigma^2 is the MAP estimate
  local map = luma.linear.BayesianLinearRegression{ fit_intercept = false, alpha = 1 / B2,
    sigma2 = SIGMA ^ 2 }:fit(Phi, y)
  for _, fit in ipairs{ { "ML", ml }, { "MAP", map } } do
    local model = fit[2]
    local curve = model:predict(Phi_test)
    local variation = (curve:sub(2, 200, 1, 1) - curve:sub(1, 199, 1, 1)):abs():sum()
    print(string.format("%2d  %-3s  %9.4f  %10.4f  %9.4f  %9.4f", degree, fit[1],
      math.sqrt(model.coef:pow(2):sum()), rmse(model:predict(Phi), y), rmse(curve, y_test), variation))
  end
end
