-- luma.cluster.KernelKMeans (lua/luma/cluster/kernel.lua).
--
-- With the linear kernel, kernel k-means is k-means: its optimum on iris
-- (k = 3) is scikit-learn 1.2.1's KMeans inertia 78.851441426146 (see
-- kmeans_spec.lua for how it was obtained).  The other checks are
-- identities: the fitted labels are a fixed point of the notes' assignment
-- rule (001 §G) evaluated by hand, the inertia equals the feature-space sum
-- of squares written out with an explicit feature map, and a precomputed
-- Gram matrix gives what the kernel object gives.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local KKM = luma.cluster.KernelKMeans

local iris = luma.datasets.load("iris")

describe("luma.cluster.KernelKMeans", function()
  it("is k-means with the linear kernel (iris, scikit-learn's optimum)", function()
    local m = KKM{ n_clusters = 3, seed = 0 }:fit(iris)
    assert.near(78.851441426146, m.inertia, 1e-8)
    local km = luma.cluster.KMeans{ n_clusters = 3, seed = 0 }:fit(iris)
    -- the same partition up to renumbering: a bijection between labels
    local pairs_ = (m.labels - 1) * 3 + km.labels
    assert.equal(3, pairs_:unique():rows())
    assert.matrix_near(m.cluster_sizes, luma.arange(1, 3):t():eq(m.labels):sum(1), 0)
  end)

  it("labels are a fixed point of the assignment rule with the constant dropped", function()
    local kernel = luma.kernels.polynomial{ degree = 2, gamma = 1, coef0 = 1 }
    local m = KKM{ n_clusters = 3, seed = 1, kernel = kernel }:fit(iris)
    local G = kernel(iris)
    for i = 1, 150, 7 do
      local best, arg = math.huge, nil
      for c = 1, 3 do
        local a = m.labels:eq(c)
        local nk = a:sum()
        local v = (a:t() * G * a):get(1, 1) / nk ^ 2 - 2 * (G:row(i) * a):get(1, 1) / nk
        if v < best then best, arg = v, c end
      end
      assert.equal(arg, m.labels:get(i, 1))
    end
    assert.matrix_near(m.labels, m:predict(iris), 0)
  end)

  it("has the feature-space sum of squares as inertia (explicit feature map)", function()
    -- (x.y + 1)^2 on 2-D rows is phi(x).phi(y) with phi(x) = (x1^2, x2^2,
    -- sqrt2 x1 x2, sqrt2 x1, sqrt2 x2, 1)
    local X = iris:sub(1, 150, 3, 4)
    local m = KKM{ n_clusters = 3, seed = 2,
      kernel = luma.kernels.polynomial{ degree = 2, gamma = 1, coef0 = 1 } }:fit(X)
    local x1, x2, r2 = X:col(1), X:col(2), math.sqrt(2)
    local Phi = luma.matrix.hstack{ x1:pow(2), x2:pow(2), x1:mul(x2) * r2, x1 * r2, x2 * r2,
      luma.ones(150, 1) }
    local total = 0
    for c = 1, 3 do
      local P = Phi:select(m.labels:eq(c), 1)
      total = total + (P - P:mean(1)):pow(2):sum()
    end
    assert.near(total, m.inertia, 1e-8 * total)
  end)

  it("separates two concentric circles that k-means cannot", function()
    local X, y = luma.datasets.make_circles{ n_samples = 200, factor = 0.2, noise = 0.02, seed = 0 }
    local m = KKM{ n_clusters = 2, seed = 0, kernel = luma.kernels.rbf{ gamma = 5 } }:fit(X)
    assert.near(1, luma.metrics.adjusted_rand_score(y, m.labels), 1e-12)
    local km = luma.cluster.KMeans{ n_clusters = 2, seed = 0 }:fit(X)
    assert.is_true(luma.metrics.adjusted_rand_score(y, km.labels) < 0.1)
  end)

  it("gives the same clusters from a precomputed Gram matrix", function()
    local kernel = luma.kernels.rbf{ gamma = 0.5 }
    local a = KKM{ n_clusters = 3, seed = 4, kernel = kernel }:fit(iris)
    local b = KKM{ n_clusters = 3, seed = 4, kernel = "precomputed" }:fit(kernel(iris))
    assert.matrix_near(a.labels, b.labels, 0)
    assert.near(a.inertia, b.inertia, 1e-9)
    local T = iris:take{ 3, 60, 140 }
    assert.matrix_near(a:predict(T), b:predict(kernel(T, iris)), 0)
  end)

  it("rejects bad input", function()
    local G = luma.kernels.rbf{ gamma = 1 }(iris:sub(1, 10))
    local asym = G:copy()
    asym:set(1, 2, 0.123)
    errors_with("precomputed Gram matrix is not symmetric",
      function() KKM{ n_clusters = 2, kernel = "precomputed" }:fit(asym) end)
    errors_with("must be square, got 9 x 10",
      function() KKM{ n_clusters = 2, kernel = "precomputed" }:fit(G:sub(1, 9)) end)
    errors_with("kernel must be a luma.kernels object or \"precomputed\", got \"rbf\"",
      function() KKM{ n_clusters = 2, kernel = "rbf" }:fit(iris) end)
    local bad = iris:copy()
    bad:set(5, 1, 0 / 0)
    errors_with("non%-finite element, nan at row 5, column 1", function() KKM{ n_clusters = 2 }:fit(bad) end)
    errors_with("n_clusters = 4 is more than the 3 rows", function() KKM{ n_clusters = 4 }:fit(iris:sub(1, 3)) end)
    errors_with("predict called before fit", function() KKM{}:predict(iris) end)
  end)
end)
