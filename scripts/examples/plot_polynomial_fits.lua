-- Figures of notes 004 §9.2.2 (Example 9.5): maximum-likelihood polynomial
-- fits of degree M = 0..9 to N = 10 noisy points of
-- y = -sin(x/5) + cos(x) + e, e ~ N(0, 0.2^2), and the overfitting table
-- (training and test RMSE against M) as a plot.  The data and fits are
-- those of polynomial_overfitting.lua (same seed, same test grid).
-- Writes polynomial_fits.svg and polynomial_rmse.svg into OUTDIR:
--   build/luma scripts/examples/plot_polynomial_fits.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local plot = luma.plot

local outdir = ... or arg and arg[1] or "build/plots"
local SEED, N, NOISE = 25, 10, 0.2

local x, y = luma.datasets.make_sinusoid{ n_samples = N, noise = NOISE, seed = SEED }
local x_test = luma.linspace(-5, 5, 200)
local truth = (x_test / 5):sin() * -1 + x_test:cos()
local y_test = truth + luma.random.Generator(SEED + 1):normal(200, 1, 0, NOISE)

local fits = plot.figure{ rows = 2, cols = 5, width = 1400, height = 560,
  title = "Maximum-likelihood polynomial fits, N = 10 (notes 004 §9.2.2)" }
local degrees, train_rmse, test_rmse = {}, {}, {}
for degree = 0, N - 1 do
  -- "svd" keeps the nearly collinear high powers accurate
  local features = luma.preprocessing.PolynomialFeatures{ degree = degree }:fit(x)
  local model = luma.linear.LinearRegression{ fit_intercept = false, solver = "svd" }
  model:fit(features:transform(x), y)
  local curve = model:predict(features:transform(x_test))
  local function rmse(X, Y) return math.sqrt((model:predict(features:transform(X)) - Y):pow(2):mean()) end
  degrees[#degrees + 1] = degree
  train_rmse[#train_rmse + 1] = rmse(x, y)
  test_rmse[#test_rmse + 1] = rmse(x_test, y_test)
  local ax = fits:axes(degree // 5 + 1, degree % 5 + 1)
  ax:line(x_test, truth, { color = "gray", style = "--", width = 1 })
  ax:line(x_test, curve, { color = "C1" })
  ax:scatter(x, y, { color = "black", size = 5 })
  ax:set{ title = "M = " .. degree, ylim = { -4, 4 }, xlim = { -5, 5 } }
end
fits:save(outdir .. "/polynomial_fits.svg")

local table_plot = plot.figure{ width = 640, height = 420 }
table_plot:line(degrees, train_rmse, { marker = "o", label = "training", color = "C1" })
table_plot:line(degrees, test_rmse, { marker = "s", label = "test", color = "C4" })
table_plot:set{ title = "RMSE against the degree (notes 004 (9.23))", xlabel = "degree M",
  ylabel = "RMSE", yscale = "log", xticks = degrees, legend = "upper left" }
table_plot:save(outdir .. "/polynomial_rmse.svg")
print(outdir .. "/polynomial_fits.svg")
print(outdir .. "/polynomial_rmse.svg")
