-- Fit time of KMeans (k = 16, n_init = 1, Lloyd or Elkan: arg[1]) on
-- 200,000 x 20: the same initial centres on both sides (rows 1, 12501,
-- 25001, ...) and scikit-learn's default tol and max_iter; best of 3.  The
-- data come from a deterministic formula that kmeans_fit.py repeats with
-- NumPy (0-based i, j): sixteen overlapping blobs,
-- X[i][j] = 2 cos(1.3 j + 0.7 c) + 1.5 sin(0.37 i + 1.91 j + 0.0013 i j), c = i mod 16.
-- SPDX-License-Identifier: MIT
local algorithm = arg[1] or "lloyd"
local n, d, k = 200000, 20, 16
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local c = i - (i / k):floor() * k
local X = (j * 1.3 + c * 0.7):cos() * 2 + (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin() * 1.5
local rows = {}
for r = 1, k do rows[r] = (r - 1) * (n // k) + 1 end
local init = X:take(rows)
local best, model = math.huge, nil
for _ = 1, 3 do
  model = luma.cluster.KMeans{ n_clusters = k, init = init, n_init = 1, algorithm = algorithm }
  local t0 = luma.now()
  model:fit(X)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("luma %s: n_iter %d inertia %.10g\n", algorithm, model.n_iter,
  model.inertia))
print("time " .. best)
