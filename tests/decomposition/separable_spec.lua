-- luma.decomposition.SeparableNMF and LatentFactorModel
-- (lua/luma/decomposition/separable.lua, factor_model.lua): no
-- scikit-learn peer; the references are exact recoveries of synthetic
-- factorizations and the SVD's closed forms.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local SNMF, LFM = luma.decomposition.SeparableNMF, luma.decomposition.LatentFactorModel

-- A separable 24 x 12 matrix: 4 anchor rows (W's identity rows, shuffled
-- among 20 convex mixtures, each row scaled by a positive weight).
local function separable()
  local g = luma.random.Generator(4)
  local k = 4
  local H = g:uniform(k, 12) + 0.1
  local mix = g:uniform(20, k)
  local perm = g:permutation(24)
  local W = luma.matrix.vstack{ luma.eye(k), mix:div(mix:sum(2)) }:take(perm):mul(g:uniform(24, 1) + 0.5)
  local anchors = {}
  for i = 1, 24 do
    if perm:get(i, 1) <= k then anchors[#anchors + 1] = i end
  end
  return W * H, anchors
end

describe("luma.decomposition.SeparableNMF", function()
  it("recovers exactly the anchor rows of a separable matrix (notes 000 §4.3.2)", function()
    local X, anchors = separable()
    local s = SNMF{ n_components = 4 }
    local W = s:fit_transform(X)
    assert.matrix_near(luma.matrix(anchors), s.anchors, 0)
    assert.is_true(W:min() >= 0)
    assert.matrix_near(X, s:inverse_transform(W), 1e-10)
    assert.matrix_near(luma.ones(4, 1), s.components:sum(2), 1e-12)
    assert.matrix_near(W:sub(1, 5), s:transform(X:sub(1, 5)), 1e-9)
  end)

  it("deletes duplicated rows and keeps the vertices of a noisy hull with a tolerance", function()
    local X = luma.matrix{ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 0.3, 0.3, 0.4 } }
    local s = SNMF{}:fit(X)
    assert.equal(3, s.n_components)
    local noisy = X + luma.matrix{ { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 1e-6, 0, 0 } }
    assert.equal(3, SNMF{ tol = 1e-4 }:fit(noisy).n_components)
  end)

  it("refuses negative values, empty rows and a different rank", function()
    errors_with("SeparableNMF: X must be non%-negative", function() SNMF{}:fit(luma.matrix{ { 1, -1 } }) end)
    errors_with("row 2 of X is all zeros", function() SNMF{}:fit(luma.matrix{ { 1, 1 }, { 0, 0 } }) end)
    local X = separable()
    errors_with("found 4 anchor rows, not n_components = 3", function() SNMF{ n_components = 3 }:fit(X) end)
  end)
end)

describe("luma.decomposition.LatentFactorModel", function()
  local raw = luma.datasets.load("wine")
  local X = (raw - raw:mean(1)):div(raw:std(1))

  it("splits the truncated SVD evenly: Z W^T is the best rank-k approximation (notes 001 §I, corrected)", function()
    local m = LFM{ n_components = 3 }
    local Z = m:fit_transform(X)
    local s = luma.linalg.svd(X, { mode = "values" })
    assert.near(math.sqrt(s:sub(4, 13, 1, 1):pow(2):sum()), m.reconstruction_err, 1e-10)
    -- Z^T Z = W^T W = S_k: the even split
    local W = m.components:t()
    assert.matrix_near(luma.diag(s:sub(1, 3, 1, 1)), Z:t() * Z, 1e-9)
    assert.matrix_near(luma.diag(s:sub(1, 3, 1, 1)), W:t() * W, 1e-9)
    assert.matrix_near(Z:sub(1, 4), m:transform(X:sub(1, 4)), 1e-9)
  end)

  it("reaches the same approximation by alternating least squares", function()
    local svd = LFM{ n_components = 3 }:fit(X)
    local als = LFM{ n_components = 3, method = "als", seed = 1, max_iter = 2000, tol = 1e-15 }
    local Z
    capture_warnings(function() Z = als:fit_transform(X) end)
    assert.near(svd.reconstruction_err, als.reconstruction_err, 1e-6)
    local h = als.loss_history
    for t = 2, h:rows() do assert.is_true(h:get(t, 1) <= h:get(t - 1, 1) * (1 + 1e-12)) end
    assert.matrix_near(Z * als.components, als:inverse_transform(Z), 1e-12)
  end)

  it("refuses a rank above min(N, D) and NaN", function()
    errors_with("n_components = 14 is more than", function() LFM{ n_components = 14 }:fit(X) end)
    local bad = X:copy()
    bad:set(1, 2, 0 / 0)
    errors_with("LatentFactorModel: X has a non%-finite element", function() LFM{}:fit(bad) end)
  end)
end)
