-- Forward and backward of a 2-layer LSTM (input 32, hidden 128) over 50
-- steps of a batch of 32 (float64), the loss the sum of the last step's
-- outputs; prints the best time of 5 (lstm.py does the same with PyTorch).
-- The inputs: x_t[i][j] = sin(0.1 t + 0.37 i + 1.91 j) (0-based t, i, j).
-- SPDX-License-Identifier: MIT
local nn = luma.nn
local T, batch, input, hidden = 50, 32, 32, 128
local i = luma.arange(0, batch - 1)
local j = luma.arange(0, input - 1):t()
local xs = {}
for t = 1, T do xs[t] = (i * 0.37 + j * 1.91 + 0.1 * (t - 1)):sin() end
local lstm = nn.LSTM(input, hidden, { num_layers = 2, generator = luma.random.Generator(1) })
local best = math.huge
for _ = 1, 5 do
  lstm:zero_grad()
  local t0 = luma.now()
  local outputs = lstm(xs)
  outputs[T]:sum():backward()
  best = math.min(best, luma.now() - t0)
end
print("time " .. best)
