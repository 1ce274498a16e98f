-- ARIMA(2, 0, 1) with a constant fitted by exact maximum likelihood to
-- 10,000 points (luma.tsa.ARIMA); best of 3.  The series repeats
-- arima_fit.py: hash noise e_t = frac(43758.5453 sin(12.9898 t)) - 0.5
-- (t = 1..n) through x_t = 0.5 x_{t-1} + 0.2 x_{t-2} + e_t + 0.4 e_{t-1}, plus 1.
-- SPDX-License-Identifier: MIT
local n = 10000
local t = luma.arange(1, n)
local h = (t * 12.9898):sin() * 43758.5453
local e = h - h:floor() - 0.5
local x = require("luma.tsa.native").arma_filter(luma.matrix{ 0.5, 0.2 }, luma.matrix{ 0.4 }, e) + 1
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  local m = luma.tsa.ARIMA{ order = { 2, 0, 1 } }:fit(x)
  best = math.min(best, luma.now() - t0)
  assert(m.loglik < 0)
end
print("time " .. best)
