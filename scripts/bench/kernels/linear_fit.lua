-- Fit time of a linear model on n x d data; prints the best of 3 fits.
-- arg: model ("ols", "ridge" or "lasso_path"), n, d.  Same data as
-- linear_fit.py: X[i][j] = sin(0.37 i + 0.71 j + 0.013 i j) and
-- y[i] = sum_j X[i][j] cos(j) + 0.1 sin(3 i), 1-based i and j.
-- SPDX-License-Identifier: MIT
local model = arg[1] or "ols"
local n = tonumber(arg[2]) or 200000
local d = tonumber(arg[3]) or 100
local I = luma.linspace(1, n, n)
local J = luma.linspace(1, d, d):t()
local X = (I * 0.37 + J * 0.71 + (I * J) * 0.013):sin()
local y = X * luma.linspace(1, d, d):cos() + (I * 3):sin() * 0.1
local L = luma.linear
local fit = ({
  ols = function() return L.LinearRegression{}:fit(X, y).coef end,
  ridge = function() return L.Ridge{ alpha = 1 }:fit(X, y).coef end,
  lasso_path = function() return select(2, L.lasso_path(X, y, { n_alphas = 100 })) end,
})[model]
local best, coef = math.huge, nil
for _ = 1, 3 do
  collectgarbage()
  local t0 = luma.now()
  coef = fit()
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("%s coef[1] = %.10g\n", model, coef:get(1, coef:cols())))
print("time " .. best)
