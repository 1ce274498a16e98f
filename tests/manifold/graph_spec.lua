-- luma.manifold.Isomap and LocallyLinearEmbedding
-- (lua/luma/manifold/graph.lua, src/ml/manifold/graph.c).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr, on a swiss roll of 300 points:
-- i = 1..300, u = frac(0.6180339887 i), v = frac(0.4142135623 i),
-- t = 1.5 pi (1 + 2u), X = (t cos t, 21 v, t sin t), Xn = X[:4] + 0.1;
-- isomap: Isomap(n_neighbors=10, n_components=2, eigen_solver="dense")
--   .fit(X): embedding_[:4], transform(Xn), reconstruction_error();
-- lle: LocallyLinearEmbedding(n_neighbors=10, n_components=2,
--   eigen_solver="dense").fit(X): |embedding_[:4]|, reconstruction_error_,
--   |transform(Xn)| (eigenvector signs are LAPACK's, so absolute values).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local Isomap, LLE = luma.manifold.Isomap, luma.manifold.LocallyLinearEmbedding
local native = require("luma.manifold.native")

local rows = support.rows

local REF = {
isomap = {embedding = {18.107223181937368, 7.284884313846258, -6.506524210022436,
    -3.3534821224759637, -13.31864286605818, 6.772940373554865, 12.40403541741071,
    -12.538997164991576}, transform = {18.075503389735214, 7.313618336227579, -6.521091780169643,
    -3.3899146528032538, -13.403465885572203, 6.7400083393631975, 12.223823403243005,
    -12.624037653091866}, error = 73.90504017157627},
lle = {embedding_abs = {0.023254107862781762, 0.03070709897920107, 0.056589330040074506,
    0.05345173773862497, 0.04083495864630276, 0.05115128274185854, 0.019993651552131803,
    0.04448380668136761}, error = 2.2375628838608808e-06, transform_abs = {0.02192700196142002,
    0.03067402643736774, 0.05732834719694759, 0.05443604574891778, 0.040319030942546685,
    0.051882376180294724, 0.02083488204224332, 0.044912404548504974}},
}

local i = luma.arange(1, 300)
local u = (i * 0.6180339887) - (i * 0.6180339887):floor()
local v = (i * 0.4142135623) - (i * 0.4142135623):floor()
local t = (u * 2 + 1) * (1.5 * math.pi)
local X = luma.matrix.hstack{ t:mul(t:cos()), v * 21, t:mul(t:sin()) }
local Xn = X:sub(1, 4) + 0.1

describe("luma.manifold.Isomap", function()
  it("matches scikit-learn on a swiss roll (embedding, new points, reconstruction error)", function()
    local iso = Isomap{ n_neighbors = 10 }
    local E = iso:fit_transform(X)
    assert.matrix_near(rows(REF.isomap.embedding, 2), E:sub(1, 4), 1e-8)
    assert.matrix_near(rows(REF.isomap.transform, 2), iso:transform(Xn), 1e-8)
    assert.near(REF.isomap.error, iso:reconstruction_error(), 1e-8)
  end)

  it("finds shortest paths through the graph (a path graph: distances add up)", function()
    -- points 0, 1, 3, 6 on a line; each linked to its nearest neighbour
    local nbr = luma.matrix{ { 2 }, { 1 }, { 2 }, { 3 } }
    local len = luma.matrix{ { 1 }, { 1 }, { 2 }, { 3 } }
    assert.matrix_near({ { 0, 1, 3, 6 }, { 1, 0, 2, 5 }, { 3, 2, 0, 3 }, { 6, 5, 3, 0 } },
      native.shortest_paths(nbr, len), 0)
  end)

  it("refuses a disconnected graph and too many neighbours", function()
    local two = luma.matrix.vstack{ X:sub(1, 20), X:sub(1, 20) + 1000 }
    errors_with("the neighbour graph is not connected.*raise n_neighbors", function() Isomap{ n_neighbors = 3 }:fit(two) end)
    errors_with("n_neighbors = 300 must be less than n_samples = 300", function() Isomap{ n_neighbors = 300 }:fit(X) end)
  end)
end)

describe("luma.manifold.LocallyLinearEmbedding", function()
  it("matches scikit-learn on a swiss roll (up to the eigenvectors' signs)", function()
    local lle = LLE{ n_neighbors = 10 }
    local E = lle:fit_transform(X)
    assert.matrix_near(rows(REF.lle.embedding_abs, 2), E:sub(1, 4):abs(), 1e-6)
    assert.near(REF.lle.error, lle.reconstruction_error, 1e-9)
    assert.matrix_near(rows(REF.lle.transform_abs, 2), lle:transform(Xn):abs(), 1e-6)
    -- the embedding is centred and orthonormal (eigenvectors orthogonal to the constant)
    assert.matrix_near(luma.zeros(1, 2), E:sum(1), 1e-8)
    assert.matrix_near(luma.eye(2), E:t() * E, 1e-10)
  end)

  it("refuses more components than features and NaN", function()
    errors_with("n_components = 4 is more than n_features = 3", function() LLE{ n_components = 4 }:fit(X) end)
    local bad = X:copy()
    bad:set(1, 1, 0 / 0)
    errors_with("LocallyLinearEmbedding: X has a non%-finite element", function() LLE{}:fit(bad) end)
  end)
end)
