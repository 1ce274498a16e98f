-- Per-call overhead on 3 x 3 matrices: add, product and get/set, 10^5
-- calls each; prints the total seconds of the three loops.
-- SPDX-License-Identifier: MIT
local A = luma.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 10}}
local B = luma.matrix{{2, 0, 1}, {1, 3, 0}, {0, 1, 4}}
local out = luma.zeros(3, 3)
local calls = 100000
local t0 = luma.now()
for _ = 1, calls do A:add(B, out) end
for _ = 1, calls do A:matmul(B, out) end
for i = 1, calls do
  local v = out:get(2, 3)
  out:set(2, 3, v + i)
end
print("time " .. (luma.now() - t0))
