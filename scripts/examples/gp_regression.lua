-- Gaussian process regression with fitted kernel hyperparameters
-- (luma.gaussian_process.GaussianProcessRegressor; docs/GAUSSIAN_PROCESS.md).
--
-- 30 noisy points of y = -sin(x/5) + cos(x) + e, e ~ N(0, 0.2^2), on
-- [-5, 5].  The kernel is a scaled RBF plus white noise; fit maximizes the
-- log marginal likelihood over the signal variance, the length scale and
-- the noise level, which comes out near the true 0.04.  Prints the
-- fitted kernel, the test RMSE against the noise-free function on a grid,
-- and how many grid points the 95% band covers.  Draws the posterior mean
-- and band (gp_regression.png in OUTDIR):
--   build/luma scripts/examples/gp_regression.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local kernels = luma.gaussian_process.kernels

local x, y = luma.datasets.make_sinusoid{ n_samples = 30, noise = 0.2, seed = 4 }
local kernel = kernels.ConstantKernel{ constant_value = 1 } * kernels.RBF{ length_scale = 1 }
  + kernels.WhiteKernel{ noise_level = 0.1 }
local gp = luma.gaussian_process.GaussianProcessRegressor{ kernel = kernel, n_restarts_optimizer = 3,
  seed = 0 }:fit(x, y)
print("fitted kernel: " .. tostring(gp.kernel))
print(string.format("log marginal likelihood %.3f", gp.log_marginal_likelihood_value))

local grid = luma.linspace(-5, 5, 201)
local truth = grid:map(function(v) return -math.sin(v / 5) + math.cos(v) end)
local mean, std = gp:predict(grid, { std = true })
local sq, covered = 0, 0
for i = 1, grid:rows() do
  local m, s, t = mean:get(i, 1), std:get(i, 1), truth:get(i, 1)
  sq = sq + (m - t) ^ 2
  if math.abs(m - t) <= 1.96 * s then covered = covered + 1 end
end
print(string.format("RMSE against the noise-free function on 201 points: %.4f", math.sqrt(sq / grid:rows())))
print(string.format("the 95%% predictive band (noise included) holds the function at %d of 201 points", covered))

if outdir then
  local fig = luma.plot.regression_band(gp, x, y, { k = 1.96, xlabel = "x", ylabel = "y",
    title = "GP posterior mean and 95% band (30 points)" })
  print("wrote " .. fig:save(outdir .. "/gp_regression.png"))
end
