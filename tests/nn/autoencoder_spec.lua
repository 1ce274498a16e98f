-- luma.nn.Autoencoder (issue 30, item 5): a linear autoencoder reaches
-- PCA's reconstruction error (Baldi & Hornik, Neural Networks 2, 1989:
-- its optimum spans the principal subspace), codes and reconstructions
-- have the right shapes, and it works as a transformer.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn

describe("luma.nn.Autoencoder", function()
  local g = luma.random.Generator(3)
  -- 300 points near a plane in 3-D
  local X = g:normal(300, 2) * luma.matrix{ { 1, 0.5, -0.3 }, { 0.2, -1, 0.8 } } + g:normal(300, 3) * 0.05

  local function mse(A, B) return (A - B):pow(2):mean() end

  it("linear, without hidden layers, reconstructs as well as PCA with as many components", function()
    local ae = nn.Autoencoder{ hidden_layer_sizes = {}, n_components = 2, activation = "identity",
      solver = "lbfgs", max_iter = 500, alpha = 0, seed = 1 }:fit(X)
    local pca = luma.decomposition.PCA{ n_components = 2 }:fit(X)
    local best = mse(pca:inverse_transform(pca:transform(X)), X)
    local got = mse(ae:inverse_transform(ae:transform(X)), X)
    assert.is_true(got <= best * 1.001, got .. " vs PCA's " .. best)
    -- one component cannot do as well: the data are two-dimensional
    local one = nn.Autoencoder{ hidden_layer_sizes = {}, n_components = 1, activation = "identity",
      solver = "lbfgs", max_iter = 500, alpha = 0, seed = 1 }:fit(X)
    assert.is_true(mse(one:inverse_transform(one:transform(X)), X) > 10 * best)
  end)

  it("codes are n x n_components; a deeper one trains and saves", function()
    local ae = nn.Autoencoder{ hidden_layer_sizes = { 16 }, n_components = 2, max_iter = 50, seed = 1 }:fit(X)
    local Z = ae:transform(X)
    assert.are.equal(300, Z:rows())
    assert.are.equal(2, Z:cols())
    assert.are.equal(3, ae:inverse_transform(Z):cols())
    assert.is_true(ae.loss_curve[#ae.loss_curve] < ae.loss_curve[1])
    local path = os.tmpname()
    luma.save(ae, path)
    local back = luma.load(path)
    os.remove(path)
    assert.are.equal(0, (back:transform(X) - Z):abs():max())
  end)

  it("fit_transform and a pipeline; bad shapes are refused", function()
    local ae = nn.Autoencoder{ hidden_layer_sizes = {}, n_components = 2, solver = "lbfgs", max_iter = 20, seed = 1 }
    local Z = ae:fit_transform(X)
    assert.are.equal(2, Z:cols())
    assert.has_error(function() ae:inverse_transform(luma.ones(2, 3)) end)
    assert.has_error(function() ae:transform(luma.ones(2, 2)) end)
  end)
end)
