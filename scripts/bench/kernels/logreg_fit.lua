-- LogisticRegression (lbfgs) fit time on n x d data with K classes; prints
-- the best of 3 fits.  arg: K (2 or 10), n, d.  Same data as
-- logreg_fit.py: X[i][j] = sin(0.37 i + 0.71 j + 0.013 i j) and the label
-- of row i is the argmax over k = 1..K of sum_j X[i][j] cos(j k) +
-- 2 sin(7.1 i + k) (for K = 2: 0/1 from classes 1/2), 1-based i, j, k.
-- SPDX-License-Identifier: MIT
local K = tonumber(arg[1]) or 2
local n = tonumber(arg[2]) or 100000
local d = tonumber(arg[3]) or 50
local I = luma.linspace(1, n, n)
local J = luma.linspace(1, d, d):t()
local X = (I * 0.37 + J * 0.71 + (I * J) * 0.013):sin()
local Kr = luma.linspace(1, K, K):t()
local scores = X * (J:t() * Kr):cos() + (I * 7.1 + Kr):sin() * 2
local y = scores:argmax(2)
if K == 2 then y = y - 1 end
local best, m = math.huge, nil
for _ = 1, 3 do
  collectgarbage()
  local t0 = luma.now()
  m = luma.linear.LogisticRegression{}:fit(X, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("K=%d coef[1][1] = %.8g, train accuracy %.6f\n", K, m.coef:get(1, 1), m:score(X, y)))
print("time " .. best)
