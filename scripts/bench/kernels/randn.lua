-- 10^7 standard normal draws into a new matrix; prints the best of 5 runs.
-- SPDX-License-Identifier: MIT
local n = tonumber(arg[1]) or 10000000
local g = luma.random.Generator(0)
local best = math.huge
for _ = 1, 5 do
  local t0 = luma.now()
  local z = g:normal(n, 1)
  best = math.min(best, luma.now() - t0)
  assert(z:rows() == n)
end
print("time " .. best)
