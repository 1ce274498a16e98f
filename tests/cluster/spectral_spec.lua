-- luma.cluster.SpectralClustering and spectral_embedding
-- (lua/luma/cluster/spectral.lua).
--
-- SKLEARN: scikit-learn 1.2.1 (Debian's python3-sklearn, /usr/bin/python3):
--   X = the 8 points of POINTS below, W = exp(-|x_i - x_j|^2 / 2) with a
--   zero diagonal, sklearn.manifold.spectral_embedding(W, n_components=3,
--   eigen_solver="lobpcg", norm_laplacian=True, drop_first=False) (8 nodes:
--   a dense eigh of L_sym, divided by sqrt(degree), signs flipped), ravel()
--   printed with repr -> EMBEDDING.
--   SpectralClustering(2, affinity="nearest_neighbors", random_state=0) on
--   make_moons(300, noise=0.05, random_state=0) and make_circles(300,
--   noise=0.05, factor=0.5, random_state=0): adjusted Rand index 1.0 for
--   both (the moons and circles below are luma.datasets' own draws of the
--   same generators).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local C = luma.cluster

local POINTS = luma.matrix{ { 0, 0 }, { 0.5, 0.2 }, { 1.0, -0.3 }, { 1.4, 0.4 }, { 3, 3 },
  { 3.2, 2.6 }, { 2.7, 3.3 }, { 3.6, 3.1 } }
local EMBEDDING = {0.23840281016114703, 0.2654200985227184, -0.48216402284903936,
  0.23840281016114678, 0.26453432775065117, -0.18005172313223847, 0.23840281016114714,
  0.26421435256305914, 0.20954560651879378, 0.23840281016114756, 0.2572481120028501,
  0.4869604573719901, 0.23840281016120665, -0.2161173112855436, -0.001976943546514748,
  0.23840281016120662, -0.21458159130220716, 0.008105176249358113, 0.23840281016120657,
  -0.21642004404782092, -0.005117299721188957, 0.23840281016120674, -0.21719371785030966,
  -0.007645272551562922}

-- Two 5-cliques joined by the edge 5 - 6.
local function two_cliques()
  local W = luma.zeros(10, 10)
  for a = 0, 1 do
    for i = 1, 5 do
      for j = 1, 5 do
        if i ~= j then W:set(5 * a + i, 5 * a + j, 1) end
      end
    end
  end
  W:set(5, 6, 1)
  W:set(6, 5, 1)
  return W
end

-- The same partition up to renaming the clusters.
local function same_partition(a, b)
  return luma.metrics.adjusted_rand_score(a, b) == 1
end

describe("luma.cluster.spectral_embedding", function()
  it("matches scikit-learn's spectral_embedding (shi_malik: generalized eigenvectors)", function()
    local W = C.gaussian_graph(POINTS, 1)
    local E, vals = C.spectral_embedding(W, { n_components = 3, drop_first = false })
    assert.matrix_near(luma.matrix(support.rows(EMBEDDING, 3)), E, 1e-9)
    assert.near(0, vals:get(1, 1), 1e-12)
    -- the generalized problem L v = lambda D v holds column by column
    local L, d = C.laplacian(W)
    for j = 1, 3 do
      assert.matrix_near(E:col(j):mul(d) * vals:get(j, 1), L * E:col(j), 1e-9)
    end
  end)

  it("gives the same embedding from dense LAPACK and from Lanczos", function()
    local X = luma.datasets.make_moons{ n_samples = 400, noise = 0.2, seed = 1 }
    local W = C.knn_graph(X, 8)
    assert.equal(1, (C.connected_components(W)))
    for _, method in ipairs{ "shi_malik", "unnormalized", "njw" } do
      local E1, v1 = C.spectral_embedding(W, { n_components = 3, method = method,
        eigen_solver = "dense" })
      local E2, v2 = C.spectral_embedding(W, { n_components = 3, method = method,
        eigen_solver = "lanczos", seed = 5 })
      assert.matrix_near(v1, v2, 1e-9)
      assert.matrix_near(E1, E2, 1e-5)
    end
  end)

  it("njw rows have unit length; unnormalized vectors are orthonormal", function()
    local W = C.gaussian_graph(POINTS, 1)
    local E = C.spectral_embedding(W, { n_components = 2, method = "njw", drop_first = false })
    assert.matrix_near(luma.ones(8, 1), E:pow(2):sum(2):sqrt(), 1e-12)
    local U = C.spectral_embedding(W, { n_components = 3, method = "unnormalized" })
    assert.matrix_near(luma.eye(3), U:t() * U, 1e-10)
  end)

  it("rejects a non-symmetric affinity", function()
    errors_with("bad argument #1 to 'spectral_embedding' %(the affinity matrix must be symmetric",
      function() C.spectral_embedding(luma.matrix{ { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 0 } },
        { n_components = 1 }) end)
    errors_with("bad argument #2 to 'spectral_embedding' %(seed must be an integer or a "
      .. "luma.Generator", function() C.spectral_embedding(C.gaussian_graph(POINTS), { n_components = 2, seed = 1.5 }) end)
    errors_with("n_components must be an integer in 1..7",
      function() C.spectral_embedding(C.gaussian_graph(POINTS), { n_components = 8 }) end)
  end)
end)

describe("luma.cluster.SpectralClustering", function()
  it("finds the minimum-NCut partition of two cliques joined by one edge", function()
    local W = two_cliques()
    -- the minimum NCut over all 511 bipartitions, by enumeration
    local best, best_labels = math.huge, nil
    for mask = 1, 511 do
      local labels = luma.ones(10, 1)
      for i = 1, 9 do
        if (mask >> (i - 1)) & 1 == 1 then labels:set(i, 1, 2) end
      end
      local ncut = luma.metrics.normalized_cut(W, labels)
      if ncut < best then best, best_labels = ncut, labels end
    end
    -- cut 1, volumes 21 and 21
    assert.near(2 / 21, best, 1e-15)
    for _, method in ipairs{ "shi_malik", "unnormalized", "njw" } do
      local sc = C.SpectralClustering{ n_clusters = 2, affinity = "precomputed", method = method,
        seed = 0 }:fit(W)
      assert.is_true(same_partition(best_labels, sc.labels), method)
      assert.near(best, luma.metrics.normalized_cut(W, sc.labels), 1e-15)
    end
  end)

  it("separates two moons and two circles perfectly, as scikit-learn does", function()
    local moons, ym = luma.datasets.make_moons{ n_samples = 300, noise = 0.05, seed = 0 }
    local circles, yc = luma.datasets.make_circles{ n_samples = 300, noise = 0.05, factor = 0.5,
      seed = 0 }
    for _, method in ipairs{ "shi_malik", "unnormalized", "njw" } do
      for _, data in ipairs{ { moons, ym }, { circles, yc } } do
        local sc
        capture_warnings(function()
          sc = C.SpectralClustering{ n_clusters = 2, affinity = "nearest_neighbors",
            method = method, seed = 0 }:fit(data[1])
        end)
        assert.is_true(same_partition(data[2], sc.labels), method)
        -- the k-NN affinity as an edge list: symmetric, weights 1/2 or 1
        local E = sc.affinity_matrix
        assert.equal(3, E:cols())
        assert.near(0, C.laplacian(require("luma.cluster.native").dense(require(
          "luma.cluster.native").graph(E, 300, { format = "edges", directed = true })))
          :sum(2):abs():max(), 1e-12)
        assert.is_true(E:col(3):eq(0.5):add(E:col(3):eq(1)):all())
      end
    end
    -- the Lanczos path gives the same labels
    local sc
    capture_warnings(function()
      sc = C.SpectralClustering{ n_clusters = 2, affinity = "nearest_neighbors",
        eigen_solver = "lanczos", seed = 0 }:fit(moons)
    end)
    assert.is_true(same_partition(ym, sc.labels))
  end)

  it("clusters with the rbf affinity and keeps its fitted attributes", function()
    local sc = C.SpectralClustering{ n_clusters = 2, gamma = 0.5, seed = 1 }:fit(POINTS)
    assert.is_true(same_partition(luma.matrix{ { 1 }, { 1 }, { 1 }, { 1 }, { 2 }, { 2 }, { 2 },
      { 2 } }, sc.labels))
    assert.equal(8, sc.embedding:rows())
    assert.equal(2, sc.embedding:cols())
    assert.equal(1, sc.n_connected_components)
    assert.near(math.exp(-0.5 * 0.29), sc.affinity_matrix:get(1, 2), 1e-15)
    -- fit_predict gives the same labels; refitting with the same seed too
    local again = C.SpectralClustering{ n_clusters = 2, gamma = 0.5, seed = 1 }:fit_predict(POINTS)
    assert.matrix_near(sc.labels, again, 0)
  end)

  it("warns about a disconnected affinity graph, naming the number of components", function()
    local W = two_cliques()
    W:set(5, 6, 0)
    W:set(6, 5, 0)
    local sc
    local w = capture_warnings(function()
      sc = C.SpectralClustering{ n_clusters = 2, affinity = "precomputed", seed = 0 }:fit(W)
    end)
    assert.equal(1, #w)
    assert.truthy(w[1]:find("not connected (2 connected components)", 1, true))
    assert.equal(2, sc.n_connected_components)
  end)

  it("rejects bad input", function()
    errors_with("the precomputed affinity must be symmetric: X%[1%]%[2%] = 1 but X%[2%]%[1%] = 0",
      function() C.SpectralClustering{ n_clusters = 2, affinity = "precomputed" }:fit(
        luma.matrix{ { 0, 1, 1 }, { 0, 0, 1 }, { 1, 1, 0 } }) end)
    errors_with("weights must be finite and non%-negative",
      function() C.SpectralClustering{ n_clusters = 2, affinity = "precomputed" }:fit(
        luma.matrix{ { 0, -1 }, { -1, 0 } }) end)
    errors_with("n_clusters = 9 is more than the 8 samples",
      function() C.SpectralClustering{ n_clusters = 9 }:fit(POINTS) end)
    errors_with("a precomputed affinity must be square",
      function() C.SpectralClustering{ affinity = "precomputed", n_clusters = 2 }:fit(POINTS) end)
    errors_with("SpectralClustering: X has a non%-finite element, nan at row 3, column 2; impute",
      function()
        local X = POINTS:copy()
        X:set(3, 2, 0 / 0)
        C.SpectralClustering{ n_clusters = 2 }:fit(X)
      end)
    errors_with("method", function() C.SpectralClustering{ method = "random_walk" } end)
  end)
end)
