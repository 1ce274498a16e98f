-- Overfitting in polynomial regression: notes 004 Example 9.5 and §9.2.2.
--
-- N = 10 training points x ~ U[-5, 5], y = -sin(x/5) + cos(x) + e with
-- e ~ N(0, 0.2^2) (luma.datasets.make_sinusoid); a test set of 200 points
-- on a linear grid over [-5, 5] "generated using exactly the same
-- procedure" (the same function and noise).  For each degree M = 0..9 a
-- maximum-likelihood polynomial (least squares on the features 1, x, ...,
-- x^M) is fitted and the RMSE (9.23) printed for both sets.  The training
-- error never increases with M and reaches ~0 at M = N - 1 = 9 (the
-- polynomial interpolates); the test error is lowest around M = 4 and
-- grows sharply for high degrees.  The seed is fixed (run with another as
-- `luma scripts/examples/polynomial_overfitting.lua SEED`); with this one,
-- as in the notes, the lowest test error is at M = 4.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local SEED = math.tointeger(tonumber(arg and arg[1])) or 25
local N, NOISE = 10, 0.2

local x, y = luma.datasets.make_sinusoid{ n_samples = N, noise = NOISE, seed = SEED }
local x_test = luma.linspace(-5, 5, 200)
local y_test = (x_test / 5):sin() * -1 + x_test:cos()
  + luma.random.Generator(SEED + 1):normal(200, 1, 0, NOISE)

local function rmse(model, features, X, Y)
  return math.sqrt((model:predict(features:transform(X)) - Y):pow(2):mean())
end

print(string.format("polynomial fits to N = %d points (seed %d): RMSE (notes 004 (9.23))", N, SEED))
print(" M   train RMSE   test RMSE")
local best_degree, best_rmse = nil, math.huge
for degree = 0, N - 1 do
  -- the feature matrix Phi (notes 004 Example 9.4) holds the constant
  -- column, so no separate intercept; "svd" keeps the nearly collinear
  -- high powers accurate (cond(Phi), not cond(Phi)^2)
  local features = luma.preprocessing.PolynomialFeatures{ degree = degree }:fit(x)
  local model = luma.linear.LinearRegression{ fit_intercept = false, solver = "svd" }
  model:fit(features:transform(x), y)
  local train, test = rmse(model, features, x, y), rmse(model, features, x_test, y_test)
  print(string.format("%2d  %11.4f  %10.4f", degree, train, test))
  if test < best_rmse then best_degree, best_rmse = degree, test end
end
print(string.format("lowest test RMSE at M = %d (%.4f)", best_degree, best_rmse))
