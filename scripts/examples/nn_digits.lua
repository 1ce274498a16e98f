-- Handwritten digits classified by a multilayer perceptron
-- (luma.nn.MLPClassifier, scikit-learn's defaults; docs/NN.md, "Worked
-- examples").
--
-- The digits (1,797 8 x 8 images, 64 pixel values 0..16, scaled to [0, 1])
-- are split 75/25 with the classes' proportions kept (stratified); one
-- hidden layer of 100 ReLU units learns the training part by Adam, batches
-- of 200, for at most 200 epochs.  Prints the number of epochs, the
-- training loss at the first and the last, the test accuracy (0.987), and
-- the path of a PNG with the loss curve (log scale) and the test set's
-- confusion matrix, written into OUTDIR:
--   build/luma scripts/examples/nn_digits.lua [OUTDIR = build/plots]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local plot = luma.plot

local outdir = ... or arg and arg[1] or "build/plots"
os.execute("mkdir -p '" .. outdir:gsub("'", "'\\''") .. "'")

local X, y = luma.datasets.load("digits")
X = X / 16
local Xtr, Xte, ytr, yte = luma.model_selection.train_test_split(X, y,
  { test_size = 0.25, stratify = y, seed = 0 })

local clf = luma.nn.MLPClassifier{ seed = 1 }:fit(Xtr, ytr)
local predicted = clf:predict(Xte)
local accuracy = luma.metrics.accuracy_score(yte, predicted)
print(string.format("%d training and %d test images", Xtr:rows(), Xte:rows()))
print(string.format("n_iter %d, loss %.4f after the first epoch, %.4f after the last", clf.n_iter,
  clf.loss_curve[1], clf.loss))
print(string.format("test accuracy %.4f (%d of %d wrong)", accuracy,
  math.tointeger(predicted:ne(yte):sum()), Xte:rows()))

local epochs = {}
for i = 1, #clf.loss_curve do epochs[i] = i end
local fig = plot.figure{ rows = 1, cols = 2, width = 1100, height = 460,
  title = string.format("MLPClassifier on the digits: test accuracy %.3f", accuracy) }
fig:axes(1, 1):line(epochs, clf.loss_curve, { color = "C1", width = 2 })
  :set{ title = "training loss (log loss + L2 penalty)", xlabel = "epoch", ylabel = "loss",
        yscale = "log" }
plot.confusion_matrix(yte, predicted, { ax = fig:axes(1, 2), title = "confusion matrix of the test images" })
local path = outdir .. "/nn_digits.png"
fig:save(path)
print("wrote " .. path)
