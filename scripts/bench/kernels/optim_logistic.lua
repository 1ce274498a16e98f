-- L-BFGS on the native binary logistic loss (C = 1, intercept) over a
-- 100,000 x 50 matrix given by a formula (same data as optim_logistic.py):
-- X[i][j] = sin(0.37 i + 1.3 j) + 0.1 cos(0.001 i j), y = 1 when
-- sum_j cos(j) X[i][j] + 0.5 sin(7.1 i) > 0, else -1.  Best of 3.
-- SPDX-License-Identifier: MIT
local n, d = 100000, 50
local i = luma.arange(n)
local j = luma.arange(d):t()
local X = (i * 0.37 + j * 1.3):sin() + (i * j * 0.001):cos() * 0.1
local w = j:t():cos()
local s = X * w + (i * 7.1):sin() * 0.5
local y = s:gt(0) * 2 - 1
local obj = luma.optim.logistic_loss(X, y, { C = 1 })
local best, res = math.huge, nil
for _ = 1, 3 do
  local t0 = luma.now()
  res = luma.optim.minimize(obj, luma.zeros(d + 1, 1))
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("luma: fun %.10g iterations %d nfev %d %s\n", res.fun, res.iterations, res.nfev, res.message))
print("time " .. best)
