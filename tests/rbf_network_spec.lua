-- luma.rbf_network: RBF networks (lua/luma/rbf_network.lua, notes 003 §1.10).
-- No reference implementation in scikit-learn: the checks are the notes'
-- closed forms (exact interpolation Phi w = y, least squares w =
-- (Phi^T Phi)^-1 Phi^T y on k-means centres, ridge) recomputed here, and
-- k-means on well-separated blobs.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local R = luma.rbf_network

local i = luma.arange(1, 40)
local X = luma.matrix.hstack{ (i * 0.37):sin() * 2, (i * 0.61):cos() * 1.5 }
local y = X:col(1):sin() + X:col(2) * 0.3

local function phi(A, centers, gamma)
  return (luma.pairwise.distances(A, centers, "sqeuclidean") * -gamma):exp()
end

describe("luma.rbf_network.RBFNetworkRegressor", function()
  it("interpolates exactly with every training point as a centre (Phi w = y)", function()
    local m = R.RBFNetworkRegressor{ gamma = 2 }:fit(X, y)
    assert.matrix_near(y, m:predict(X), 1e-8)
    assert.matrix_near(X, m.centers, 0)
    assert.matrix_near(luma.linalg.solve(phi(X, X, 2), y), m.coef, 1e-8)
    assert.equal(0, m.intercept)
  end)

  it("fits K k-means centres by least squares, with an intercept by default", function()
    local m = R.RBFNetworkRegressor{ n_centers = 8, gamma = 0.8, seed = 4 }:fit(X, y)
    assert.same({ 8, 2 }, { m.centers:shape() })
    local A = luma.matrix.hstack{ phi(X, m.centers, 0.8), luma.ones(40, 1) }
    local w = luma.linalg.solve(A:t() * A, A:t() * y)
    assert.matrix_near(w:sub(1, 8, 1, 1), m.coef, 1e-8)
    assert.near(w:get(9, 1), m.intercept, 1e-8)
    local Xt = luma.matrix{ { 0.3, -0.2 }, { -1.1, 0.9 } }
    assert.matrix_near(phi(Xt, m.centers, 0.8) * m.coef + m.intercept, m:predict(Xt), 1e-12)
    assert.is_true(m:score(X, y) > 0.9)
    -- seeded: the same centres on a refit, and without the bias on request
    local again = R.RBFNetworkRegressor{ n_centers = 8, gamma = 0.8, seed = 4 }:fit(X, y)
    assert.matrix_near(m.centers, again.centers, 0)
    local nob = R.RBFNetworkRegressor{ n_centers = 8, gamma = 0.8, seed = 4, fit_intercept = false }:fit(X, y)
    assert.matrix_near(luma.linalg.lstsq(phi(X, nob.centers, 0.8), y), nob.coef, 1e-8)
  end)

  it("adds the ridge alpha |w|^2 without penalising the intercept", function()
    local m = R.RBFNetworkRegressor{ n_centers = 6, alpha = 0.5, seed = 2 }:fit(X, y)
    local P = phi(X, m.centers, 0.5) -- gamma 1/n_features
    local A = luma.matrix.hstack{ P, luma.ones(40, 1) }
    local G = A:t() * A + luma.diag(luma.matrix{ 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0 })
    local w = luma.linalg.solve(G, A:t() * y)
    assert.matrix_near(w:sub(1, 6, 1, 1), m.coef, 1e-10)
    assert.near(w:get(7, 1), m.intercept, 1e-10)
  end)

  it("finds well-separated clusters' means as centres", function()
    local g = luma.random.Generator(11)
    local means = luma.matrix{ { 0, 0 }, { 10, 0 }, { 0, 10 } }
    local B = luma.matrix.vstack{ g:normal(30, 2) * 0.3 + means:row(1), g:normal(30, 2) * 0.3 + means:row(2),
      g:normal(30, 2) * 0.3 + means:row(3) }
    local m = R.RBFNetworkRegressor{ n_centers = 3, seed = 5 }:fit(B, B:col(1))
    local found = m.centers:take(m.centers:col(1):add(m.centers:col(2) * 0.01):argsort())
    local expected = luma.matrix.vstack{ B:sub(1, 30, 1, 2):mean(1), B:sub(61, 90, 1, 2):mean(1),
      B:sub(31, 60, 1, 2):mean(1) }
    assert.matrix_near(expected, found, 1e-12)
  end)

  it("rejects bad input", function()
    errors_with("parameter 'n_centers' %(50%) must be at most the number of rows of X %(40%)", function()
      R.RBFNetworkRegressor{ n_centers = 50 }:fit(X, y)
    end)
    local Xbad = X:copy()
    Xbad:set(2, 2, 0 / 0)
    errors_with("bad argument #1 to 'fit' %(X has a non%-finite element, nan at row 2, column 2; impute",
      function() R.RBFNetworkRegressor{}:fit(Xbad, y) end)
    errors_with("RBFNetworkRegressor: predict called before fit", function() R.RBFNetworkRegressor{}:predict(X) end)
    local m = R.RBFNetworkRegressor{ n_centers = 4, seed = 1 }:fit(X, y)
    errors_with("bad argument #1 to 'predict' %(X has a non%-finite element, nan at row 2, column 2",
      function() m:predict(Xbad) end)
    errors_with("X has 3 columns", function() m:predict(luma.zeros(2, 3)) end)
  end)
end)

describe("luma.rbf_network.RBFNetworkClassifier", function()
  it("regresses one-hot indicators and predicts the largest output's class", function()
    local labels = X:col(1):gt(0.5) + X:col(2):gt(0) * 2 -- four classes 0..3
    local named = labels * 10 + 1
    local m = R.RBFNetworkClassifier{ n_centers = 12, gamma = 1, seed = 3 }:fit(X, named)
    assert.matrix_near(luma.matrix{ 1, 11, 21, 31 }, m.classes, 0)
    local D = m:decision_function(X)
    assert.same({ 40, 4 }, { D:shape() })
    assert.matrix_near(m.classes:take(D:argmax(2)), m:predict(X), 0)
    assert.is_true(m:score(X, named) >= 0.9)
    errors_with("needs at least two classes, y has only 7", function()
      R.RBFNetworkClassifier{}:fit(X, luma.full(40, 1, 7))
    end)
  end)
end)
