-- Fit time of a generative classifier on 10^5 x 50 (3 classes); best of 5.
-- arg[1]: "gaussiannb" or "lda" (svd solver).  The data come from a
-- deterministic formula that generative_fit.py repeats with NumPy:
-- X[i][j] = sin(0.37 i + 1.91 j + 0.0013 i j) * (1 + j mod 5), y = i mod 3
-- (0-based i, j), and y * 1.5 added to the first column.
-- SPDX-License-Identifier: MIT
local make = ({
  gaussiannb = function() return luma.naive_bayes.GaussianNB{} end,
  lda = function() return luma.discriminant.LinearDiscriminantAnalysis{} end,
})[arg[1] or "gaussiannb"]
local n, d = 100000, 50
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local X = (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin()
X = X:mul((j - (j / 5):floor() * 5) + 1)
local y = i - (i / 3):floor() * 3
X:col(1):assign(X:col(1) + y * 1.5)
local best = math.huge
for _ = 1, 5 do
  local model = make()
  local t0 = luma.now()
  model:fit(X, y)
  best = math.min(best, luma.now() - t0)
  assert(model.classes:rows() == 3)
end
print("time " .. best)
