-- Element-wise add and exp over 10^7 elements into a preallocated output;
-- prints the best of 5 runs of the operation named by arg[1].
-- SPDX-License-Identifier: MIT
local op = arg[1] or "add"
local n = 10000000
local A, B = luma.zeros(n, 1), luma.zeros(n, 1)
A:fill(0.25)
B:fill(0.5)
local out = luma.zeros(n, 1)
local best = math.huge
for _ = 1, 5 do
  local t0 = luma.now()
  if op == "add" then A:add(B, out) else A:exp(out) end
  best = math.min(best, luma.now() - t0)
end
print("time " .. best)
