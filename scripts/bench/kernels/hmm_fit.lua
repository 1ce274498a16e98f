-- Fit time of GaussianHMM (diagonal covariances, 4 states) on 100,000
-- observations in 5 dimensions, exactly 20 Baum-Welch iterations from a
-- fixed initialization (means = rows 11, 25011, 50011, 75011, unit
-- variances, uniform start, 0.9 on the transition diagonal); best of 3.
-- The data come from a deterministic formula that hmm_fit.py repeats with
-- NumPy (0-based t, j): a regime s_t = floor(t/250 + sin(t/97)/2) mod 4,
-- X[t][j] = 2 (s_t + 1) cos(j + s_t) + sin(0.37 t + 1.91 j + 0.0013 t j).
-- Prints the time, and the first two log-likelihoods on stderr.
-- SPDX-License-Identifier: MIT
local n, d, k = 100000, 5, 4
local t = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local s = (t / 250 + (t / 97):sin() * 0.5):floor()
s = s - (s / k):floor() * k
local X = (s + 1):mul((j + s):cos()) * 2 + (t * 0.37 + j * 1.91 + (t * j:mul(0.0013))):sin()
local rows = {}
for r = 1, k do rows[r] = (r - 1) * (n // k) + 11 end
local A = luma.full(k, k, 0.1 / (k - 1)) + luma.eye(k) * (0.9 - 0.1 / (k - 1))
local best, model = math.huge, nil
for _ = 1, 3 do
  model = luma.hmm.GaussianHMM{ n_components = k, covariance_type = "diag", n_iter = 20, tol = -1,
    min_covar = 0, startprob_init = luma.full(1, k, 1 / k), transmat_init = A,
    means_init = X:take(rows), covars_init = luma.ones(k, d) }
  local t0 = luma.now()
  model:fit(X)
  best = math.min(best, luma.now() - t0)
  assert(model.n_iter == 20, "stopped after " .. model.n_iter)
end
io.stderr:write(string.format("loglik %.10g %.10g\n", model.history:get(1, 1), model.history:get(2, 1)))
print("time " .. best)
