-- 2000 x 2000 matrix product (BLAS dgemm); prints the best of 3 runs.
-- SPDX-License-Identifier: MIT
local n = tonumber(arg[1]) or 2000
local A, B = luma.zeros(n, n), luma.zeros(n, n)
A:fill(1.5)
B:fill(0.5)
local out = luma.zeros(n, n)
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  A:matmul(B, out)
  best = math.min(best, luma.now() - t0)
end
assert(out:get(1, 1) == 1.5 * 0.5 * n)
print("time " .. best)
