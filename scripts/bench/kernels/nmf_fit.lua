-- Fit time of NMF (coordinate descent, k = 20, nndsvda init) on a
-- 2,000 x 1,000 non-negative matrix, exactly 200 iterations (tol = 0);
-- best of 3.  The data come from a deterministic formula that
-- nmf_fit.py repeats with NumPy (0-based i, j):
-- X[i][j] = |sin(0.37 i + 1.91 j + 0.0013 i j)| (1 + j mod 5) + cos(0.05 i)^2.
-- SPDX-License-Identifier: MIT
local n, d = 2000, 1000
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local X = (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin():abs():mul((j - (j / 5):floor() * 5) + 1)
  + (i * 0.05):cos():pow(2)
local best = math.huge
for _ = 1, 3 do
  local model = luma.decomposition.NMF{ n_components = 20, tol = 0, max_iter = 200, seed = 0 }
  local t0 = luma.now()
  model:fit(X)
  best = math.min(best, luma.now() - t0)
  assert(model.n_iter == 200)
end
print("time " .. best)
