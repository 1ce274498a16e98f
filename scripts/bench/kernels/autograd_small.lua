-- Small-op overhead of luma.autograd: 10^4 forward and backward passes of
-- (A B + C) summed, A, B, C 3 x 3 Variables requiring gradients; prints
-- the seconds per pass (best of 3).  autograd_small.py does the same with
-- PyTorch (float64).
-- SPDX-License-Identifier: MIT
local ag = luma.autograd
local g = luma.random.Generator(1)
local A = ag.Variable(g:normal(3, 3), { requires_grad = true })
local B = ag.Variable(g:normal(3, 3), { requires_grad = true })
local C = ag.Variable(g:normal(3, 3), { requires_grad = true })
local passes = 10000
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  for _ = 1, passes do
    A.grad, B.grad, C.grad = nil, nil, nil
    local out = (A * B + C):sum()
    out:backward()
  end
  best = math.min(best, (luma.now() - t0) / passes)
end
print("time " .. best)
