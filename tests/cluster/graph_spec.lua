-- luma.cluster similarity graphs and Laplacians (lua/luma/cluster/graph.lua)
-- and the native graph kernels behind them (src/ml/cluster/graph.c).
--
-- Expected values are hand-checked on small graphs or closed forms: the
-- path graph P_n has Laplacian eigenvalues 2 - 2 cos(pi j / n) and
-- normalized Laplacian eigenvalues 1 - cos(pi j / (n - 1)), j = 0..n-1
-- (Chung, Spectral Graph Theory, 1997, ex. 1.4); the multiplicity of the
-- eigenvalue 0 is the number of connected components (von Luxburg 2007,
-- Prop. 2); f^T L f = 1/2 sum w_ij (f_i - f_j)^2 and, for the notes'
-- indicator f, f^T L f = |V| RatioCut (notes 000 Ch. 10).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local C = luma.cluster
local native = require("luma.cluster.native")

-- 1-D points 0, 1, 3, 10, 10.5 as a 5 x 1 matrix.
local X5 = luma.matrix{ { 0 }, { 1 }, { 3 }, { 10 }, { 10.5 } }

-- The path graph on n nodes as an edge list.
local function path_edges(n)
  local rows = {}
  for i = 1, n - 1 do rows[i] = { i, i + 1 } end
  return luma.matrix(rows)
end

describe("luma.cluster similarity graphs", function()
  it("epsilon_graph joins points within epsilon, unweighted, no self-loops", function()
    local W = C.epsilon_graph(X5, 2.0)
    assert.matrix_near(luma.matrix{ { 0, 1, 0, 0, 0 }, { 1, 0, 1, 0, 0 }, { 0, 1, 0, 0, 0 },
      { 0, 0, 0, 0, 1 }, { 0, 0, 0, 1, 0 } }, W, 0)
    -- the edge list gives the same graph, both directions
    local E = C.epsilon_graph(X5, 2.0, { format = "edges" })
    assert.equal(6, E:rows())
  end)

  it("knn_graph: OR-symmetrized keeps one-way neighbours, mutual drops them", function()
    -- nearest neighbours: 1->2, 2->1, 3->2, 4->5, 5->4
    local OR = C.knn_graph(X5, 1)
    local AND = C.knn_graph(X5, 1, { mutual = true })
    assert.equal(1, OR:get(2, 3))
    assert.equal(1, OR:get(3, 2))
    assert.equal(0, AND:get(2, 3))
    assert.equal(3, OR:sum() / 2)
    assert.equal(2, AND:sum() / 2)
    assert.matrix_near(OR, OR:t(), 0)
  end)

  it("knn_graph weights: distance and Gaussian similarity", function()
    local D = C.knn_graph(X5, 1, { mode = "distance" })
    assert.equal(2, D:get(2, 3))
    local G = C.knn_graph(X5, 1, { mode = "gaussian", sigma = 2 })
    assert.near(math.exp(-4 / 8), G:get(2, 3), 1e-15)
    assert.near(math.exp(-0.25 / 8), G:get(4, 5), 1e-15)
  end)

  it("gaussian_graph uses the squared distance (the notes' erratum)", function()
    local X = luma.matrix{ { 0, 0 }, { 1, 0 }, { 0, 3 } }
    local W = C.gaussian_graph(X, 2)
    assert.near(math.exp(-1 / 8), W:get(1, 2), 1e-15)
    assert.near(math.exp(-10 / 8), W:get(2, 3), 1e-15)
    assert.matrix_near(luma.zeros(3, 1), W:diag(), 0)
    assert.matrix_near(W, W:t(), 0)
  end)

  it("rejects bad input", function()
    errors_with("bad argument #2 to 'epsilon_graph' %(epsilon must be a finite number > 0",
      function() C.epsilon_graph(X5, 0) end)
    errors_with("bad argument #2 to 'knn_graph' %(n_neighbors must be an integer in 1..4",
      function() C.knn_graph(X5, 5) end)
    errors_with("bad argument #1 to 'gaussian_graph' %(X has a non%-finite element, nan at row 1, column 1",
      function() C.gaussian_graph(luma.matrix{ { 0 / 0 }, { 1 } }) end)
    errors_with("unknown option 'k'", function() C.knn_graph(X5, 1, { k = 2 }) end)
  end)
end)

describe("luma.cluster.laplacian", function()
  -- a weighted graph on 4 nodes with unequal degrees
  local W = luma.matrix{ { 0, 2, 1, 0 }, { 2, 0, 0, 0 }, { 1, 0, 0, 3 }, { 0, 0, 3, 0 } }

  it("L = D - W: L 1 = 0 and f^T L f = 1/2 sum w_ij (f_i - f_j)^2", function()
    local L, d = C.laplacian(W)
    assert.matrix_near(luma.matrix{ { 3 }, { 2 }, { 4 }, { 3 } }, d, 0)
    assert.matrix_near(luma.matrix{ { 3, -2, -1, 0 }, { -2, 2, 0, 0 }, { -1, 0, 4, -3 },
      { 0, 0, -3, 3 } }, L, 0)
    assert.matrix_near(luma.zeros(4, 1), L * luma.ones(4, 1), 0)
    local f = luma.matrix{ { 1 }, { -2 }, { 0.5 }, { 3 } }
    -- 1/2 sum: 2 (1 + 2)^2 + 1 (1 - 0.5)^2 + 3 (0.5 - 3)^2 = 18 + 0.25 + 18.75
    assert.near(37, (f:t() * L * f):get(1, 1), 1e-12)
  end)

  it("L_rw = I - D^-1 W is not symmetric; its eigenvalues solve L v = lambda D v", function()
    local Lrw = C.laplacian(W, "rw")
    assert.is_true((Lrw - Lrw:t()):abs():max() > 0.1)
    assert.matrix_near(luma.eye(4) - luma.matrix{ { 0, 2 / 3, 1 / 3, 0 }, { 1, 0, 0, 0 },
      { 0.25, 0, 0, 0.75 }, { 0, 0, 1, 0 } }, Lrw, 1e-15)
    local L, d = C.laplacian(W)
    local D = luma.zeros(4, 4)
    D:diag():assign(d)
    local gen = luma.linalg.eigh_generalized(L, D)
    local Lsym = C.laplacian(W, "sym")
    assert.matrix_near(Lsym, Lsym:t(), 1e-15)
    assert.matrix_near(gen, luma.linalg.eigh(Lsym), 1e-12)
    -- each generalized eigenvector v is an eigenvector of L_rw
    local w, V = luma.linalg.eigh_generalized(L, D)
    for j = 1, 4 do
      assert.matrix_near(V:col(j) * w:get(j, 1), Lrw * V:col(j), 1e-12)
    end
  end)

  it("f^T L f = |V| RatioCut for the notes' indicator vector", function()
    local L = C.laplacian(W)
    local labels = luma.matrix{ { 1 }, { 1 }, { 2 }, { 2 } }
    -- f_i = sqrt(|B|/|A|) on A, -sqrt(|A|/|B|) on B; here |A| = |B| = 2
    local f = luma.matrix{ { 1 }, { 1 }, { -1 }, { -1 } }
    local rc = luma.metrics.ratio_cut(W, labels)
    assert.near(4 * rc, (f:t() * L * f):get(1, 1), 1e-12)
    assert.near(1.0, rc, 1e-15) -- cut 1 (edge 1-3), 1/2 + 1/2
  end)

  it("gives isolated nodes zero rows in L_rw and L_sym", function()
    local A = luma.matrix{ { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 0 } }
    local Lsym = C.laplacian(A, "sym")
    assert.matrix_near(luma.zeros(1, 3), Lsym:row(3), 0)
    assert.matrix_near(luma.zeros(1, 3), C.laplacian(A, "rw"):row(3), 0)
  end)

  it("rejects a non-symmetric or negative W", function()
    errors_with("bad argument #1 to 'laplacian' %(W must be symmetric: W%[1%]%[2%] = 1",
      function() C.laplacian(luma.matrix{ { 0, 1 }, { 2, 0 } }) end)
    errors_with("bad argument #1 to 'laplacian' %(weights must be finite and non%-negative",
      function() C.laplacian(luma.matrix{ { 0, -1 }, { -1, 0 } }) end)
    errors_with("kind must be", function() C.laplacian(W, "normalized") end)
  end)
end)

describe("luma.cluster.connected_components", function()
  -- a triangle, an edge and an isolated node: 3 components
  local E = luma.matrix{ { 1, 2 }, { 2, 3 }, { 1, 3 }, { 4, 5 } }

  it("counts components by search and by the zero eigenvalues of L", function()
    local count, labels = C.connected_components(E, { n_nodes = 6 })
    assert.equal(3, count)
    assert.matrix_near(luma.matrix{ { 1 }, { 1 }, { 1 }, { 2 }, { 2 }, { 3 } }, labels, 0)
    assert.equal(3, C.connected_components(E, { n_nodes = 6, method = "eigen" }))
    -- the same multiplicity straight from the eigenvalues
    local A = native.dense(native.graph(E, 6, { format = "edges" }))
    local w = luma.linalg.eigh(C.laplacian(A), { vectors = false })
    assert.equal(3, w:abs():lt(1e-10):sum())
    assert.is_true(w:get(4, 1) > 0.5)
  end)

  it("agrees with the eigen count on a random graph", function()
    local rng = luma.random.Generator(7)
    local X = rng:normal(60, 2)
    local W = C.epsilon_graph(X, 0.35)
    local count = C.connected_components(W)
    assert.is_true(count > 3)
    assert.equal(count, C.connected_components(W, { method = "eigen" }))
  end)
end)

describe("luma.cluster.native.laplacian_eig", function()
  it("matches the path graph's closed forms with the Lanczos solver", function()
    local n = 400 -- above dense_max: thick-restart Lanczos
    local g = native.graph(path_edges(n), n, { format = "edges" })
    local vals, vecs, deg, info = native.laplacian_eig(g, 5, { normalized = false, seed = 3 })
    assert.is_true(info.converged)
    assert.is_true(info.matvecs > 0)
    for j = 0, 4 do
      assert.near(2 - 2 * math.cos(math.pi * j / n), vals:get(j + 1, 1), 1e-9)
    end
    assert.equal(2, deg:get(2, 1))
    -- orthonormal eigenvectors
    assert.matrix_near(luma.eye(5), vecs:t() * vecs, 1e-8)
    local nvals = native.laplacian_eig(g, 4, { normalized = true, seed = 3 })
    for j = 0, 3 do
      assert.near(1 - math.cos(math.pi * j / (n - 1)), nvals:get(j + 1, 1), 1e-9)
    end
  end)

  it("finds repeated eigenvalues: the cycle graph's come in pairs", function()
    -- C_n: 2 - 2 cos(2 pi j / n), j = 0, 1, 1, 2, 2, ... (Chung 1997, ex. 1.5)
    local n = 400
    local rows = {}
    for i = 1, n do rows[i] = { i, i % n + 1 } end
    local g = native.graph(luma.matrix(rows), n, { format = "edges" })
    local vals, vecs = native.laplacian_eig(g, 5, { normalized = false, seed = 3 })
    for t, j in ipairs{ 0, 1, 1, 2, 2 } do
      assert.near(2 - 2 * math.cos(2 * math.pi * j / n), vals:get(t, 1), 1e-9)
    end
    assert.matrix_near(luma.eye(5), vecs:t() * vecs, 1e-8)
  end)

  it("agrees with dense LAPACK on a random graph and its components", function()
    local rng = luma.random.Generator(11)
    local X = rng:normal(700, 2)
    local W = C.knn_graph(X, 6)
    local g = native.graph(W, 700)
    local v1, V1, _, info = native.laplacian_eig(g, 6, { seed = 1 })
    local v2 = native.laplacian_eig(g, 6, { dense_max = 100000 })
    assert.is_true(info.matvecs > 0) -- 700 nodes in one component: Lanczos
    assert.matrix_near(v2, v1, 1e-9)
    local Lsym = C.laplacian(W, "sym")
    local ref = luma.linalg.eigh(Lsym, { vectors = false }):sub(1, 6, nil, nil)
    assert.matrix_near(ref, v1, 1e-9)
    -- eigenvectors: L_sym V = V diag(values)
    assert.matrix_near(V1:mul(v1:t()), Lsym * V1, 1e-6)
  end)

  it("rejects bad graphs", function()
    errors_with("weights must be finite and non%-negative, got NaN at row 1",
      function() native.graph(luma.matrix{ { 0, 0 / 0 }, { 0 / 0, 0 } }, 2) end)
    errors_with("edge 1: node 3.0 is not an integer in 1..2",
      function() native.graph(luma.matrix{ { 1, 3 } }, 2, { format = "edges" }) end)
    errors_with("an edge list has 2 columns",
      function() native.graph(luma.ones(2, 4), 2, { format = "edges" }) end)
  end)
end)

describe("luma.metrics graph cuts", function()
  -- a path 1 - 2 - 3 - 4 with weights 1, 2, 3, split {1, 2} | {3, 4}:
  -- cut 2; |A| = 2, 2; degrees 1, 3, 5, 3, volumes 4 and 8
  local W = luma.matrix{ { 0, 1, 0, 0 }, { 1, 0, 2, 0 }, { 0, 2, 0, 3 }, { 0, 0, 3, 0 } }
  local labels = luma.matrix{ { 7 }, { 7 }, { 3 }, { 3 } }

  it("computes cut, RatioCut and NCut by hand", function()
    assert.equal(2, luma.metrics.graph_cut(W, labels))
    assert.near(2 / 2 + 2 / 2, luma.metrics.ratio_cut(W, labels), 1e-15)
    assert.near(2 / 4 + 2 / 8, luma.metrics.normalized_cut(W, labels), 1e-15)
  end)

  it("rejects bad input", function()
    errors_with("luma.metrics.graph_cut: W must be square, got 4 x 3",
      function() luma.metrics.graph_cut(W:sub(nil, nil, 1, 3), labels) end)
    errors_with("luma.metrics.ratio_cut: W has 4 rows but labels has 3",
      function() luma.metrics.ratio_cut(W, labels:sub(1, 3, nil, nil)) end)
    errors_with("luma.metrics.normalized_cut: a cluster has volume 0",
      function() luma.metrics.normalized_cut(luma.zeros(2, 2), luma.matrix{ { 1 }, { 2 } }) end)
  end)
end)
