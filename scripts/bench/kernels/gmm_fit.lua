-- Fit time of GaussianMixture (full covariances, k = 8) on 50,000 x 10:
-- the same initialization on both sides (means = rows 1, 6251, 12501, ...,
-- identity precisions, equal weights) and exactly 100 EM iterations
-- (tol = 0); best of 3.  The data come from a deterministic formula that
-- gmm_fit.py repeats with NumPy (0-based i, j): eight blobs,
-- X[i][j] = 3 ((i mod 8) + 1) cos(j + (i mod 8)) + sin(0.37 i + 1.91 j + 0.0013 i j).
-- SPDX-License-Identifier: MIT
local n, d, k = 50000, 10, 8
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local c = i - (i / k):floor() * k
local X = (c + 1):mul((j + c):cos()) * 3 + (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin()
local rows = {}
for r = 1, k do rows[r] = (r - 1) * (n // k) + 1 end
local means = X:take(rows)
local precisions = {}
for r = 1, k do precisions[r] = luma.eye(d) end
local best = math.huge
for _ = 1, 3 do
  local model = luma.mixture.GaussianMixture{ n_components = k, means_init = means,
    weights_init = luma.full(k, 1, 1 / k), precisions_init = precisions, tol = 0, max_iter = 100 }
  local t0 = luma.now()
  warn("@off")
  model:fit(X)
  warn("@on")
  best = math.min(best, luma.now() - t0)
  assert(model.n_iter == 100)
end
print("time " .. best)
