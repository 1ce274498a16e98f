-- Fit time of GaussianProcessRegressor (hyperparameters by L-BFGS-B, no
-- restarts) on 2,000 points; one fit (each takes seconds).  The data come
-- from a deterministic formula that gp_fit.py repeats with NumPy
-- (1-based i): X[i] = 3 (sin(0.37 i), cos(0.11 i)),
-- y[i] = sin(X[i][1]) cos(X[i][2]) + 0.1 sin(7 i); the kernel is
-- ConstantKernel(1) * RBF([1, 1]) + WhiteKernel(0.1), default bounds.
-- SPDX-License-Identifier: MIT
local gp = luma.gaussian_process
local K = gp.kernels
local n = tonumber(arg[1]) or 2000
local i = luma.arange(1, n)
local X = luma.matrix.hstack{ (i * 0.37):sin(), (i * 0.11):cos() } * 3
local y = X:col(1):sin():mul(X:col(2):cos()):add((i * 7):sin() * 0.1)
local kernel = K.ConstantKernel{ constant_value = 1 } * K.RBF{ length_scale = { 1, 1 } }
  + K.WhiteKernel{ noise_level = 0.1 }
local t0 = luma.now()
local model = gp.GaussianProcessRegressor{ kernel = kernel }:fit(X, y)
local elapsed = luma.now() - t0
io.stderr:write(string.format("kernel %s, log marginal likelihood %.10g\n", tostring(model.kernel),
  model.log_marginal_likelihood_value))
print("time " .. elapsed)
