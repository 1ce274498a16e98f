-- Fit time of PCA; best of 3.  arg[1]: "full" (10,000 x 500, every
-- component, SVD) or "randomized" (50,000 x 1,000, 20 components, the
-- default 7 power iterations and 10 oversamples).  The data come from a
-- deterministic formula that pca_fit.py repeats with NumPy (0-based i, j):
-- X[i][j] = sin(0.37 i + 1.91 j + 0.0013 i j) (1 + j mod 5) + cos(0.05 i) j / d.
-- SPDX-License-Identifier: MIT
local case = arg[1] or "full"
local n, d = 10000, 500
local make = function() return luma.decomposition.PCA{ svd_solver = "full" } end
if case == "randomized" then
  n, d = 50000, 1000
  make = function() return luma.decomposition.PCA{ n_components = 20, svd_solver = "randomized", seed = 0 } end
end
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local X = (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin()
X = X:mul((j - (j / 5):floor() * 5) + 1) + (i * 0.05):cos() * (j / d)
local best = math.huge
for _ = 1, 3 do
  local model = make()
  local t0 = luma.now()
  model:fit(X)
  best = math.min(best, luma.now() - t0)
  assert(model.explained_variance_ratio:sum() > 0)
end
print("time " .. best)
