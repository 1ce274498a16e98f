-- Retrieval by nearest neighbour in an embedding learnt with the triplet
-- loss (luma.nn.MetricEmbedding; docs/NN.md, "Worked examples").
--
-- The digits (64 pixels scaled to [0, 1]) get 64 more columns of N(0, 1)
-- noise, louder than the pixels (their standard deviations average 0.23):
-- Euclidean distances are then dominated by the noise and the nearest
-- stored image of a query rarely shows the same digit.  MetricEmbedding
-- learns a map into 16 dimensions where an anchor is nearer to a random
-- row of its own digit than to one of another digit by a margin (triplet
-- loss: Schroff, Kalenichenko & Philbin, "FaceNet", CVPR 2015).  The noise
-- sits in columns of its own, so a linear map (no hidden layer) can drop
-- it.  The embedding is learnt on 75% of the rows (stratified split); the
-- other 25% are the queries, each labelled by its nearest training row
-- (1-NN, luma.neighbors.KNeighborsClassifier).  Prints the 1-NN accuracy
-- on the clean pixels (the ceiling), on the noisy rows, and in the
-- embedding, with the epochs and final triplet loss:
--   build/luma scripts/examples/nn_triplet_retrieval.lua
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local pixels, y = luma.datasets.load("digits")
pixels = pixels / 16
local noise = luma.random.Generator(5):normal(pixels:rows(), 64)
local X = luma.matrix.hstack{ pixels, noise }
-- the same stratified split for the clean and the noisy rows
local train, test = luma.model_selection.train_test_split(luma.arange(1, X:rows()), y,
  { test_size = 0.25, stratify = y, seed = 0 })
local ytr, yte = y:take(train), y:take(test)

-- 1-NN accuracy of the test rows among the training rows, in features E
local function retrieval(E)
  local knn = luma.neighbors.KNeighborsClassifier{ n_neighbors = 1 }:fit(E:take(train), ytr)
  return luma.metrics.accuracy_score(yte, knn:predict(E:take(test)))
end

-- the loss of random triplets is noisy from epoch to epoch, so stopping
-- waits 30 epochs without improvement rather than the default 10
local emb = luma.nn.MetricEmbedding{ n_components = 16, hidden_layer_sizes = {},
  learning_rate_init = 0.003, max_iter = 200, n_iter_no_change = 30, seed = 1 }
emb:fit(X:take(train), ytr)

print(string.format("%d stored rows, %d queries", train:rows(), test:rows()))
print(string.format("1-NN accuracy, clean pixels (64 columns):  %.3f", retrieval(pixels)))
print(string.format("1-NN accuracy, noisy rows (128 columns):   %.3f", retrieval(X)))
print(string.format("1-NN accuracy, triplet embedding (16-D):   %.3f", retrieval(emb:transform(X))))
print(string.format("embedding: %d epochs, final triplet loss %.4f", emb.n_iter, emb.loss))
