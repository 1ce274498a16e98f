-- Handwritten digits classified by a convolutional network
-- (luma.nn.CNNClassifier; docs/NN.md, "Worked examples").
--
-- The digits (1,797 8 x 8 images, 64 pixel values 0..16, scaled to [0, 1])
-- are split 75/25 with the classes' proportions kept (stratified), the
-- same split as nn_digits.lua.  Each row is read as one 8 x 8 channel
-- (image_shape = {1, 8, 8}: row-major pixels).  The network: 16 3 x 3
-- filters, ReLU, 2 x 2 max pooling (8 x 8 -> 4 x 4), 32 3 x 3 filters,
-- ReLU, pooling (-> 2 x 2), a dense layer of 64 ReLU units and 10
-- outputs; Adam at 0.003 on batches of 32 for 30 epochs, seed 1.  Prints
-- the sizes, the loss after the first and the last epoch, the test
-- accuracy (0.9844: 7 of 450 wrong), that a saved and reloaded copy
-- predicts the same, and the path of a PNG with the loss curve and the
-- test set's confusion matrix, written into OUTDIR:
--   build/luma scripts/examples/nn_cnn_digits.lua [OUTDIR = build/plots]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local plot = luma.plot

local outdir = ... or arg and arg[1] or "build/plots"
os.execute("mkdir -p '" .. outdir:gsub("'", "'\\''") .. "'")

local X, y = luma.datasets.load("digits")
X = X / 16
local Xtr, Xte, ytr, yte = luma.model_selection.train_test_split(X, y,
  { test_size = 0.25, stratify = y, seed = 0 })

local clf = luma.nn.CNNClassifier{ image_shape = { 1, 8, 8 }, conv_channels = { 16, 32 },
  hidden_layer_sizes = { 64 }, batch_size = 32, learning_rate_init = 0.003, max_iter = 30, seed = 1 }
clf:fit(Xtr, ytr)
local predicted = clf:predict(Xte)
local accuracy = luma.metrics.accuracy_score(yte, predicted)
print(string.format("%d training and %d test images of %d x %d x %d", Xtr:rows(), Xte:rows(),
  table.unpack(clf.input_shape)))
print(string.format("n_iter %d, loss %.4f after the first epoch, %.4f after the last", clf.n_iter,
  clf.loss_curve[1], clf.loss))
print(string.format("test accuracy %.4f (%d of %d wrong)", accuracy,
  math.tointeger(predicted:ne(yte):sum()), Xte:rows()))

-- luma.save keeps the parameters and the network's weights (clf.state)
local saved = os.tmpname()
luma.save(clf, saved)
local back = luma.load(saved)
os.remove(saved)
print("reloaded copy predicts the same: " .. tostring(back:predict(Xte):equal(predicted)))

local epochs = {}
for i = 1, #clf.loss_curve do epochs[i] = i end
local fig = plot.figure{ rows = 1, cols = 2, width = 1100, height = 460,
  title = string.format("CNNClassifier on the digits: test accuracy %.4f", accuracy) }
fig:axes(1, 1):line(epochs, clf.loss_curve, { color = "C1", width = 2 })
  :set{ title = "training loss (cross-entropy + L2 penalty)", xlabel = "epoch", ylabel = "loss",
        yscale = "log" }
plot.confusion_matrix(yte, predicted, { ax = fig:axes(1, 2), title = "confusion matrix of the test images" })
local path = outdir .. "/nn_cnn_digits.png"
fig:save(path)
print("wrote " .. path)
