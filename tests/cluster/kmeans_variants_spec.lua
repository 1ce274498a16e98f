-- luma.cluster.MiniBatchKMeans, KMedians and KMedoids
-- (lua/luma/cluster/kmeans.lua, src/ml/cluster/kmeans_medoids.c).
--
-- EXHAUSTIVE: the k-medoids optimum of iris (load_iris().data, Euclidean,
-- k = 3) by brute force over all 551,300 triples of rows with NumPy/SciPy
-- (/usr/bin/python3: cdist, then min over the triples of the summed
-- distance to the nearest of the three): total 98.13115488227103 at rows
-- 8, 79, 113 (1-based).  PAM (BUILD + SWAP) reaches it.
-- Small cases are checked against brute force computed in the test itself.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with

local iris = luma.datasets.load("iris")
local blobs = luma.datasets.make_blobs{ n_samples = 3000, n_features = 3, centers = 4, seed = 1 }

-- All k-subsets of 1..n (as tables), for brute force.
local function subsets(n, k)
  local out, cur = {}, {}
  local function rec(start, depth)
    if depth > k then
      out[#out + 1] = { table.unpack(cur) }
      return
    end
    for i = start, n - (k - depth) do
      cur[depth] = i
      rec(i + 1, depth + 1)
    end
  end
  rec(1, 1)
  return out
end

describe("luma.cluster.MiniBatchKMeans", function()
  it("comes within 0.5% of the k-means inertia on separated blobs", function()
    local full = luma.cluster.KMeans{ n_clusters = 4, seed = 0 }:fit(blobs)
    local mb = luma.cluster.MiniBatchKMeans{ n_clusters = 4, seed = 0, batch_size = 256 }:fit(blobs)
    assert.is_true(mb.inertia < full.inertia * 1.005)
    assert.is_true(mb.inertia >= full.inertia - 1e-6)
    -- early stop by max_no_improvement, long before max_iter passes
    assert.is_true(mb.n_steps < (100 * 3000) // 256)
    assert.matrix_near(mb.labels, mb:predict(blobs), 0)
    assert.near(-mb.inertia, mb:score(blobs), 1e-9 * mb.inertia)
  end)

  it("is reproducible for a seed", function()
    local a = luma.cluster.MiniBatchKMeans{ n_clusters = 4, seed = 5, batch_size = 100 }:fit(blobs)
    local b = luma.cluster.MiniBatchKMeans{ n_clusters = 4, seed = 5, batch_size = 100 }:fit(blobs)
    assert.matrix_near(a.cluster_centers, b.cluster_centers, 0)
  end)

  it("partial_fit keeps running means: stable labels give the cluster means", function()
    local m = luma.cluster.MiniBatchKMeans{ n_clusters = 4, seed = 0 }
    for b = 0, 9 do m:partial_fit(blobs:sub(b * 300 + 1, b * 300 + 300)) end
    assert.equal(10, m.n_steps)
    assert.near(3000, m.counts:sum(), 1e-9)
    -- each centre is the mean of every row it was given
    local labels = m:predict(blobs)
    for c = 1, 4 do
      local mean = blobs:select(labels:eq(c), 1):mean(1)
      assert.matrix_near(mean, m.cluster_centers:row(c), 1e-9)
    end
    errors_with("X has 2 columns but luma.cluster.MiniBatchKMeans was fitted on 3",
      function() m:partial_fit(blobs:sub(1, 10, 1, 2)) end)
    errors_with("the first batch needs at least n_clusters = 4 rows",
      function() luma.cluster.MiniBatchKMeans{ n_clusters = 4 }:partial_fit(blobs:sub(1, 2)) end)
  end)

  it("rejects bad input", function()
    local bad = blobs:copy()
    bad:set(3, 1, 0 / 0)
    errors_with("non%-finite element, nan at row 3", function()
      luma.cluster.MiniBatchKMeans{ n_clusters = 2 }:fit(bad) end)
    errors_with("n_clusters' must be a integer >= 1", function() luma.cluster.MiniBatchKMeans{ n_clusters = 0 } end)
  end)
end)

describe("luma.cluster.KMedians", function()
  it("is a fixed point: centres are medians of their rows, labels the L1-nearest", function()
    local m = luma.cluster.KMedians{ n_clusters = 3, seed = 0 }:fit(iris)
    for c = 1, 3 do
      assert.matrix_near(luma.stats.median(iris:select(m.labels:eq(c), 1)), m.cluster_centers:row(c), 0)
    end
    local D = luma.pairwise.distances(iris, m.cluster_centers, "manhattan")
    assert.matrix_near(D:argmin(2), m.labels, 0)
    assert.near(D:min(2):sum(), m.inertia, 1e-9)
    assert.near(-m.inertia, m:score(iris), 1e-9)
  end)

  it("resists an outlier that drags a k-means centre", function()
    -- two groups on a line and one far outlier beside the first
    local Z = luma.matrix{ { -1000 }, { 0 }, { 1 }, { 2 }, { 10 }, { 11 }, { 12 } }
    local start = luma.matrix{ { 1 }, { 11 } }
    local med = luma.cluster.KMedians{ n_clusters = 2, init = start }:fit(Z)
    -- group 1 = {-1000, 0, 1, 2}: median 0.5 (its mean is -249.25); group 2 = {10, 11, 12}: 11
    assert.matrix_near(luma.matrix{ { 0.5 }, { 11 } }, med.cluster_centers, 0)
    assert.near(1000.5 + 0.5 + 0.5 + 1.5 + 1 + 0 + 1, med.inertia, 1e-12)
    -- k-means from the same start spends a centre on the outlier (-249.25,
    -- then -1000 alone) and merges the two groups (mean 6)
    local km = luma.cluster.KMeans{ n_clusters = 2, init = start }:fit(Z)
    assert.matrix_near(luma.matrix{ { -1000 }, { 6 } }, km.cluster_centers, 1e-12)
  end)

  it("rejects bad input", function()
    errors_with("n_clusters = 9 is more than the 8 rows", function()
      luma.cluster.KMedians{ n_clusters = 9 }:fit(iris:sub(1, 8)) end)
  end)
end)

describe("luma.cluster.KMedoids", function()
  it("finds the exhaustive optimum on iris (PAM BUILD + SWAP)", function()
    local m = luma.cluster.KMedoids{ n_clusters = 3 }:fit(iris)
    assert.near(98.13115488227103, m.inertia, 1e-9)
    local got = m.medoid_indices:sort(1)
    assert.matrix_near(luma.matrix{ 8, 79, 113 }, got, 0)
    assert.matrix_near(iris:take(m.medoid_indices), m.cluster_centers, 0)
    assert.near(-m.inertia, m:score(iris), 1e-9)
  end)

  it("reaches the brute-force optimum for every metric on a small set", function()
    local Y = luma.datasets.make_blobs{ n_samples = 14, n_features = 2, centers = 3, seed = 9 }
    for _, metric in ipairs{ "euclidean", "manhattan", "chebyshev" } do
      local D = luma.pairwise.distances(Y, nil, metric)
      local best = math.huge
      for _, s in ipairs(subsets(14, 3)) do
        best = math.min(best, D:take(s, 2):min(2):sum())
      end
      local m = luma.cluster.KMedoids{ n_clusters = 3, metric = metric }:fit(Y)
      assert.near(best, m.inertia, 1e-12)
      -- precomputed gives the same medoids and predicts from distances to the fitted rows
      local p = luma.cluster.KMedoids{ n_clusters = 3, metric = "precomputed" }:fit(D)
      assert.matrix_near(m.medoid_indices, p.medoid_indices, 0)
      assert.matrix_near(m.labels, p:predict(D), 0)
    end
  end)

  it("swaps from any start to a local optimum no single exchange improves", function()
    local Y = luma.datasets.make_blobs{ n_samples = 40, n_features = 2, centers = 4, seed = 3 }
    local D = luma.pairwise.distances(Y, nil, "euclidean")
    for _, init in ipairs{ "random", "k-medoids++" } do
      local m = luma.cluster.KMedoids{ n_clusters = 4, init = init, seed = 2 }:fit(Y)
      local med = {}
      for i = 1, 4 do med[i] = math.tointeger(m.medoid_indices:get(i, 1)) end
      for slot = 1, 4 do
        for h = 1, 40 do
          local trial = { table.unpack(med) }
          trial[slot] = h
          assert.is_true(D:take(trial, 2):min(2):sum() >= m.inertia - 1e-9)
        end
      end
    end
  end)

  it("rejects bad input", function()
    local D = luma.pairwise.distances(iris:sub(1, 10), nil, "euclidean")
    local asym = D:copy()
    asym:set(1, 2, 5)
    errors_with("not symmetric", function()
      luma.cluster.KMedoids{ n_clusters = 2, metric = "precomputed" }:fit(asym) end)
    errors_with("must be square", function()
      luma.cluster.KMedoids{ n_clusters = 2, metric = "precomputed" }:fit(D:sub(1, 9)) end)
    errors_with("dissimilarities must be >= 0", function()
      luma.cluster.KMedoids{ n_clusters = 2, metric = "precomputed" }:fit(D - 1) end)
    errors_with("metric' must be one of", function() luma.cluster.KMedoids{ metric = "hamming" } end)
    local fitted = luma.cluster.KMedoids{ n_clusters = 2, metric = "precomputed" }:fit(D)
    errors_with("X has 4 columns but luma.cluster.KMedoids was fitted on 10", function() fitted:predict(D:sub(1, 3, 1, 4)) end)
  end)
end)
