-- One epoch of Adam (batch 64) for a 2-conv + 2-linear network on 10,000
-- 8 x 8 digit images (float64), best of 3, on one thread (PyTorch's
-- default here; on two, its OpenMP loops cost more than they gain at these
-- sizes); conv_digits.py does the same with PyTorch.  The net: Conv2d(1, 16, 3, padding 1), ReLU, MaxPool2d(2),
-- Conv2d(16, 32, 3, padding 1), ReLU, MaxPool2d(2), Linear(128, 64), ReLU,
-- Linear(64, 10), cross-entropy.  The images: the bundled digits tiled and
-- perturbed (0-based i < 10000, j < 64; D the 1,797 digits, t their labels):
--   X[i][j] = D[i mod 1797][j] / 16 + 0.1 sin(0.37 i + 1.91 j),  y[i] = t[i mod 1797]
-- SPDX-License-Identifier: MIT
luma.config({ threads = 1 })
local nn = luma.nn
local D, t = luma.datasets.load("digits")
local n = 10000
local i = luma.arange(0, n - 1)
local j = luma.arange(0, 63):t()
local src = i - (i / 1797):floor() * 1797 + 1
local X = D:take(src) / 16 + (i * 0.37 + j * 1.91):sin() * 0.1
local y = t:take(src)
local best = math.huge
for _ = 1, 3 do
  local g = luma.random.Generator(1)
  local c1 = nn.Conv2d(1, 16, 3, { padding = 1, input_size = { 8, 8 }, generator = g })
  local c2 = nn.Conv2d(16, 32, 3, { padding = 1, input_size = { 4, 4 }, generator = g })
  local model = nn.Sequential{ c1, nn.ReLU(), nn.MaxPool2d(2, { input_size = { 16, 8, 8 } }),
    c2, nn.ReLU(), nn.MaxPool2d(2, { input_size = { 32, 4, 4 } }), nn.Flatten(),
    nn.Linear(128, 64, { generator = g }), nn.ReLU(), nn.Linear(64, 10, { generator = g }) }
  local opt = luma.optim.Adam{ lr = 1e-3, params = model:parameters() }
  local loss_fn = nn.CrossEntropyLoss()
  local t0 = luma.now()
  for Xb, yb in nn.batches(X, y + 1, { batch_size = 64 }) do
    opt:zero_grad()
    loss_fn(model(Xb), yb):backward()
    opt:step()
  end
  best = math.min(best, luma.now() - t0)
end
print("time " .. best)
