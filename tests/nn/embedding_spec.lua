-- luma.nn.MetricEmbedding (issue 30, item 5): an embedding learnt with the
-- triplet or contrastive loss whose neighbours share labels.  The data
-- hide three classes in 2 of 10 dimensions under 8 dimensions of larger
-- noise, so raw distances retrieve poorly and a learnt projection well.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn

describe("luma.nn.MetricEmbedding", function()
  local g = luma.random.Generator(11)
  local n = 300
  local labels = luma.arange(0, n - 1) - (luma.arange(0, n - 1) / 3):floor() * 3
  local centres = luma.matrix{ { 0, 0 }, { 1.5, 0 }, { 0, 1.5 } }
  local signal = centres:take(labels + 1) + g:normal(n, 2) * 0.3
  local X = luma.matrix.hstack{ signal, g:normal(n, 8) * 3 }
  local train, test = luma.arange(1, 200), luma.arange(201, n)

  -- 1-nearest-neighbour accuracy of the test rows among the train rows
  local function retrieval(E)
    local knn = luma.neighbors.KNeighborsClassifier{ n_neighbors = 1 }:fit(E:take(train), labels:take(train))
    return luma.metrics.accuracy_score(labels:take(test), knn:predict(E:take(test)))
  end

  it("the triplet embedding retrieves neighbours of the same label far better than raw distances", function()
    local raw = retrieval(X)
    -- a linear map suffices: the classes differ in a 2-D projection
    local emb = nn.MetricEmbedding{ hidden_layer_sizes = {}, n_components = 2, max_iter = 100,
      learning_rate_init = 0.03, seed = 1 }:fit(X:take(train), labels:take(train))
    local got = retrieval(emb:transform(X))
    assert.is_true(raw < 0.6, "raw " .. raw)            -- 0.44 measured
    assert.is_true(got > 0.93, "embedded " .. got)      -- 0.97 measured
    assert.is_true(emb.loss_curve[#emb.loss_curve] < emb.loss_curve[1])
    assert.are.equal(2, emb:transform(X):cols())
  end)

  it("the contrastive loss learns one too; the same seed repeats the fit", function()
    local a = nn.MetricEmbedding{ loss = "contrastive", hidden_layer_sizes = { 16 }, max_iter = 100,
      learning_rate_init = 0.03, seed = 1 }:fit(X:take(train), labels:take(train))
    local got = retrieval(a:transform(X))
    assert.is_true(got > 0.85, "embedded " .. got)      -- 0.92 measured
    local b = nn.MetricEmbedding{ loss = "contrastive", hidden_layer_sizes = { 16 }, max_iter = 100,
      learning_rate_init = 0.03, seed = 1 }:fit(X:take(train), labels:take(train))
    assert.are.equal(0, (a:transform(X) - b:transform(X)):abs():max())
  end)

  it("alpha's L2 penalty shrinks the weights and enters the loss", function()
    local function fit(alpha)
      return nn.MetricEmbedding{ hidden_layer_sizes = {}, max_iter = 100, learning_rate_init = 0.05, alpha = alpha, seed = 1 }
        :fit(X:take(train), labels:take(train))
    end
    local free, shrunk = fit(0), fit(10)
    local function norm(m) return m.coefs[1]:dot(m.coefs[1]) end
    -- (measured: 3.1 against 10.9; without the penalty both were 10.9)
    assert.is_true(norm(shrunk) < 0.5 * norm(free), norm(shrunk) .. " against " .. norm(free))
    assert.is_true(shrunk.loss > 0)
  end)

  it("needs labels, two of them at least", function()
    assert.has_error(function() nn.MetricEmbedding{}:fit(X) end)
    assert.has_error(function() nn.MetricEmbedding{}:fit(X, luma.zeros(n, 1)) end)
  end)
end)
