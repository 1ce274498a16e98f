-- The digits compressed to two numbers by an autoencoder and by PCA
-- (luma.nn.Autoencoder, luma.decomposition.PCA; docs/NN.md, "Worked
-- examples").
--
-- An autoencoder (Hinton & Salakhutdinov, "Reducing the dimensionality of
-- data with neural networks", Science 313, 2006) encodes each 8 x 8 digit
-- (64 pixels scaled to [0, 1]) through ReLU layers of 128 and 32 units to
-- a code of 2 numbers and decodes it through 32 and 128 units back to 64
-- pixels, trained by Adam on the squared error of the reconstruction.
-- PCA's two leading components are the best linear code of that size, so
-- the network does better only by being nonlinear.  Both are fitted on
-- 75% of the digits (stratified split) and judged on the other 25%.
-- Prints the test reconstruction MSE (per pixel) of each and their ratio,
-- the accuracy of 5-nearest-neighbour classification of the test digits
-- from their 2-D codes, and the path of a PNG with both codes of all 1,797
-- digits as scatter plots coloured by digit, written into OUTDIR:
--   build/luma scripts/examples/nn_autoencoder_plot.lua [OUTDIR = build/plots]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local plot = luma.plot

local outdir = ... or arg and arg[1] or "build/plots"
os.execute("mkdir -p '" .. outdir:gsub("'", "'\\''") .. "'")

local X, y = luma.datasets.load("digits")
X = X / 16
local Xtr, Xte, ytr, yte = luma.model_selection.train_test_split(X, y,
  { test_size = 0.25, stratify = y, seed = 0 })

-- The reported loss is half the per-pixel MSE, about 0.015 here, so the
-- default tol (1e-4) would stop while it still falls: tol = 1e-6.
local ae = luma.nn.Autoencoder{ hidden_layer_sizes = { 128, 32 }, n_components = 2,
  learning_rate_init = 0.01, max_iter = 300, tol = 1e-6, seed = 1 }:fit(Xtr)
local pca = luma.decomposition.PCA{ n_components = 2 }:fit(Xtr)

local function mse(model)
  return (model:inverse_transform(model:transform(Xte)) - Xte):pow(2):mean()
end
local function knn_accuracy(model)
  local knn = luma.neighbors.KNeighborsClassifier{ n_neighbors = 5 }:fit(model:transform(Xtr), ytr)
  return luma.metrics.accuracy_score(yte, knn:predict(model:transform(Xte)))
end
local ae_mse, pca_mse = mse(ae), mse(pca)
print(string.format("autoencoder: %d epochs, final loss %.5f", ae.n_iter, ae.loss))
print(string.format("test reconstruction MSE: autoencoder %.4f, PCA %.4f (ratio %.2f)", ae_mse,
  pca_mse, ae_mse / pca_mse))
print(string.format("5-NN accuracy from the 2-D code: autoencoder %.3f, PCA %.3f", knn_accuracy(ae),
  knn_accuracy(pca)))

local fig = plot.figure{ rows = 1, cols = 2, width = 1200, height = 540,
  title = "The 1,797 digits in two dimensions, coloured by digit" }
for j, case in ipairs{ { ae, string.format("autoencoder code (test MSE %.4f)", ae_mse) },
                       { pca, string.format("PCA, 2 components (test MSE %.4f)", pca_mse) } } do
  local Z = case[1]:transform(X)
  fig:axes(1, j):scatter(Z:col(1), Z:col(2), { labels = y, size = 3 })
    :set{ title = case[2], xlabel = "code 1", ylabel = "code 2", legend = "outside" }
end
local path = outdir .. "/nn_autoencoder.png"
fig:save(path)
print("wrote " .. path)
