-- luma.cluster.KMeans and kmeans_plusplus (lua/luma/cluster/kmeans.lua,
-- src/ml/cluster/kmeans.c).
--
-- SKLEARN: scikit-learn 1.2.1 (Debian's python3-sklearn, /usr/bin/python3),
-- X = load_iris().data (the same numbers as data/datasets/iris.csv):
--   KMeans(3, n_init=10, random_state=rs).fit(X).inertia_ for rs = 0, 1, 2
--     -> 78.851441426146 each time;
--   KMeans(3, init=X[[0, 50, 100]], n_init=1, tol=0, algorithm=alg).fit(X)
--     for alg = "lloyd" and "elkan": inertia_, n_iter_, cluster_centers_,
--     score(X[:5]), transform(X[[0, 70]]) (identical for both);
--   the same with sample_weight = (arange(150) % 5 + 1): inertia_, n_iter_,
--     cluster_centers_;
--   X = [[0], [1], [3], [10], [11], [12.5]], init [[1], [11], [100]], tol=0:
--     cluster_centers_ [0.5, 11.166666666666666, 3.0], labels_ [0 0 2 1 1 1],
--     inertia_ 3.666666666666667, n_iter_ 2 (cluster 3 starts empty and
--     takes the row farthest from its centre, 3);
--   X = [[0, 0], [0, 0], [1, 1], [1, 1]], KMeans(3): ConvergenceWarning
--     "Number of distinct clusters (2) found smaller than n_clusters (3)".
-- all printed with repr.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local KMeans = luma.cluster.KMeans

local X = luma.datasets.load("iris")
local init = X:take{ 1, 51, 101 }

local CENTERS = { { 5.006, 3.428, 1.4620000000000002, 0.24600000000000055 },
  { 5.901612903225806, 2.7483870967741937, 4.393548387096774, 1.4338709677419355 },
  { 6.85, 3.0736842105263156, 5.742105263157894, 2.0710526315789473 } }

describe("luma.cluster.KMeans", function()
  it("reaches scikit-learn's inertia on iris with k-means++ and n_init = 10", function()
    for seed = 0, 2 do
      local m = KMeans{ n_clusters = 3, n_init = 10, seed = seed }:fit(X)
      assert.near(78.851441426146, m.inertia, 1e-8)
      -- the inertia is the weighted sum of squared distances to the centres
      assert.near(m.inertia, m:transform(X):min(2):pow(2):sum(), 1e-8)
    end
  end)

  for _, alg in ipairs{ "lloyd", "elkan" } do
    it("matches scikit-learn from given centres (" .. alg .. ")", function()
      local m = KMeans{ n_clusters = 3, init = init, tol = 0, algorithm = alg }:fit(X)
      assert.near(78.851441426146, m.inertia, 1e-10)
      assert.equal(4, m.n_iter)
      assert.matrix_near(luma.matrix(CENTERS), m.cluster_centers, 1e-12)
      assert.equal(288, m.labels:sum()) -- sum of 1-based labels
      assert.near(-0.7059000000000006, m:score(X:sub(1, 5)), 1e-12)
      assert.matrix_near(luma.matrix{ { 0.14135062787274097, 3.4192506070540896, 5.059541601650941 },
        { 3.7958371935582274, 0.7093731019081014, 1.3709440304498397 } },
        m:transform(X:take{ 1, 71 }), 1e-12)
      assert.matrix_near(m.labels, m:predict(X), 0)
    end)
  end

  it("gives identical labels with Lloyd and Elkan from the same centres", function()
    local Y = luma.datasets.make_blobs{ n_samples = 2000, n_features = 5, centers = 8,
      cluster_std = 3, seed = 4 }
    local start = Y:take{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
    local a = KMeans{ n_clusters = 10, init = start, tol = 0 }:fit(Y)
    local b = KMeans{ n_clusters = 10, init = start, tol = 0, algorithm = "elkan" }:fit(Y)
    assert.is_true(a.n_iter > 5)
    assert.equal(a.n_iter, b.n_iter)
    assert.is_true(a.labels:eq(b.labels):all())
    assert.matrix_near(a.cluster_centers, b.cluster_centers, 1e-10)
    assert.near(a.inertia, b.inertia, 1e-8 * a.inertia)
  end)

  it("weights rows by sample_weight as scikit-learn", function()
    local w = (luma.arange(0, 149) - (luma.arange(0, 149) / 5):floor() * 5) + 1
    local m = KMeans{ n_clusters = 3, init = init, tol = 0 }:fit(X, nil, w)
    assert.near(233.60517681159422, m.inertia, 1e-9)
    assert.equal(5, m.n_iter)
    assert.matrix_near(luma.matrix{
      { 4.984666666666667, 3.428666666666667, 1.4693333333333327, 0.23866666666666658 },
      { 5.864324324324325, 2.714054054054054, 4.3583783783783785, 1.4102702702702703 },
      { 6.772173913043479, 3.0504347826086957, 5.712173913043477, 2.0582608695652174 } },
      m.cluster_centers, 1e-12)
    -- integer weights are repetitions: the weighted score is the fitted inertia
    assert.near(-m.inertia, m:score(X, nil, w), 1e-9)
  end)

  it("re-seeds an empty cluster with the row farthest from its centre", function()
    local Z = luma.matrix{ { 0 }, { 1 }, { 3 }, { 10 }, { 11 }, { 12.5 } }
    local m = KMeans{ n_clusters = 3, init = luma.matrix{ { 1 }, { 11 }, { 100 } }, tol = 0 }:fit(Z)
    assert.matrix_near(luma.matrix{ { 0.5 }, { 11.166666666666666 }, { 3 } }, m.cluster_centers, 1e-12)
    assert.matrix_near(luma.matrix{ 1, 1, 3, 2, 2, 2 }, m.labels, 0)
    assert.near(3.666666666666667, m.inertia, 1e-12)
    assert.equal(2, m.n_iter)
  end)

  it("warns and finds fewer clusters when X has fewer distinct rows than clusters", function()
    local Z = luma.matrix{ { 0, 0 }, { 0, 0 }, { 1, 1 }, { 1, 1 } }
    local m
    local warnings = capture_warnings(function() m = KMeans{ n_clusters = 3, seed = 0 }:fit(Z) end)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:match("only 2 distinct clusters found for n_clusters = 3"))
    assert.equal(2, m.labels:unique():rows())
    assert.near(0, m.inertia, 0)
  end)

  it("is the same for any thread count and for a fixed seed", function()
    local Y = luma.datasets.make_blobs{ n_samples = 3000, n_features = 4, centers = 5, seed = 2 }
    local saved = luma.config().threads
    local fits = {}
    for t, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      fits[t] = KMeans{ n_clusters = 6, n_init = 2, seed = 7 }:fit(Y)
      fits[t + 2] = KMeans{ n_clusters = 6, n_init = 1, seed = 7, algorithm = "elkan" }:fit(Y)
    end
    luma.config{ threads = saved }
    assert.matrix_near(fits[1].cluster_centers, fits[2].cluster_centers, 0)
    assert.equal(fits[1].inertia, fits[2].inertia)
    assert.matrix_near(fits[3].cluster_centers, fits[4].cluster_centers, 0)
    assert.is_true(fits[1].labels:eq(fits[2].labels):all())
  end)

  it("gives the same on a non-contiguous view as on its copy", function()
    local V = X:sub(1, 150, 2, 4) -- rows of stride 4: not contiguous
    assert.is_false(V:is_contiguous())
    local w = luma.arange(1, 150):t():t() -- a column of weights
    for _, alg in ipairs{ "lloyd", "elkan" } do
      local a = KMeans{ n_clusters = 3, seed = 1, n_init = 2, algorithm = alg }:fit(V, nil, w)
      local b = KMeans{ n_clusters = 3, seed = 1, n_init = 2, algorithm = alg }:fit(V:copy(), nil, w:copy())
      assert.matrix_near(a.cluster_centers, b.cluster_centers, 0)
      assert.equal(a.inertia, b.inertia)
      assert.matrix_near(a:predict(V), b:predict(V:copy()), 0)
      assert.equal(a:score(V), b:score(V:copy()))
    end
  end)

  it("stops at max_iter and keeps the labels of the final centres", function()
    local m = KMeans{ n_clusters = 3, init = init, tol = 0, max_iter = 1 }:fit(X)
    assert.equal(1, m.n_iter)
    assert.matrix_near(m:predict(X), m.labels, 0)
  end)

  it("fit_predict returns the labels; random init draws distinct rows", function()
    local m = KMeans{ n_clusters = 3, init = "random", n_init = 3, seed = 1 }
    local labels = m:fit_predict(X)
    assert.matrix_near(m.labels, labels, 0)
    assert.is_true(m.inertia < 150)
  end)

  it("rejects bad input", function()
    errors_with("n_clusters' must be a integer >= 1", function() KMeans{ n_clusters = 0 } end)
    errors_with("n_clusters' must be a integer >= 1", function() KMeans{ n_clusters = -2 } end)
    local bad = X:copy()
    bad:set(7, 2, 0 / 0)
    errors_with("X has a non%-finite element, nan at row 7, column 2",
      function() KMeans{ n_clusters = 3 }:fit(bad) end)
    errors_with("n_clusters = 5 is more than the 4 rows of X",
      function() KMeans{ n_clusters = 5 }:fit(X:sub(1, 4)) end)
    errors_with("init must be a 3 x 4 matrix",
      function() KMeans{ n_clusters = 3, init = X:sub(1, 2) }:fit(X) end)
    errors_with("predict called before fit", function() KMeans{}:predict(X) end)
    errors_with("sample_weight must be finite and >= 0",
      function() KMeans{ n_clusters = 2 }:fit(X, nil, luma.full(150, 1, -1)) end)
    local m = KMeans{ n_clusters = 2, seed = 0 }:fit(X)
    errors_with("X has a non%-finite element", function() m:predict(bad) end)
  end)

  it("survives save and load", function()
    local m = KMeans{ n_clusters = 3, seed = 0, n_init = 2 }:fit(X)
    local path = os.tmpname()
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.matrix_near(m.cluster_centers, back.cluster_centers, 0)
    assert.matrix_near(m:predict(X), back:predict(X), 0)
  end)
end)

describe("luma.cluster.kmeans_plusplus", function()
  it("draws k distinct rows, reproducibly, and spreads them", function()
    local C, idx = luma.cluster.kmeans_plusplus(X, 3, { seed = 3 })
    local C2, idx2 = luma.cluster.kmeans_plusplus(X, 3, { seed = 3 })
    assert.matrix_near(idx, idx2, 0)
    assert.matrix_near(C, C2, 0)
    assert.matrix_near(X:take(idx), C, 0)
    assert.equal(3, idx:unique():rows())
    -- on three well-separated blobs every centre lands in its own blob
    local Y, y = luma.datasets.make_blobs{ n_samples = 300, centers = 3, cluster_std = 0.5, seed = 1 }
    local _, j = luma.cluster.kmeans_plusplus(Y, 3, { seed = 5 })
    assert.equal(3, y:take(j):unique():rows())
  end)

  it("never picks a row of weight zero", function()
    local w = luma.ones(150, 1)
    w:sub(1, 100, 1, 1):fill(0)
    for seed = 1, 5 do
      local _, idx = luma.cluster.kmeans_plusplus(X, 3, { seed = seed, sample_weight = w })
      assert.is_true(idx:min() > 100)
    end
  end)

  it("rejects bad input", function()
    errors_with("n_clusters must be an integer in 1..150", function() luma.cluster.kmeans_plusplus(X, 0) end)
    errors_with("unknown option 'seeds'", function() luma.cluster.kmeans_plusplus(X, 2, { seeds = 1 }) end)
  end)
end)
