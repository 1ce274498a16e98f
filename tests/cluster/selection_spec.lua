-- luma.cluster.elbow and silhouette_over_k (lua/luma/cluster/selection.lua),
-- and luma.plot.elbow on data (which fits luma.cluster.KMeans).
--
-- SKLEARN: scikit-learn 1.2.1 (Debian's python3-sklearn, /usr/bin/python3),
-- X = load_iris().data: for k = 1..4, KMeans(k, n_init=10,
-- random_state=0).fit(X): inertia_ 681.3706, 152.3479517603579,
-- 78.851441426146, 57.22847321428572 and silhouette_score(X, labels_)
-- (k >= 2) 0.6810461692117462, 0.5528190123564095, 0.49805050499728737,
-- printed with repr.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local xml = require("plot.xml")
local errors_with = support.errors_with

local iris = luma.datasets.load("iris")

local INERTIA = { 681.3706, 152.3479517603579, 78.851441426146, 57.22847321428572 }
local SILHOUETTE = { 0 / 0, 0.6810461692117462, 0.5528190123564095, 0.49805050499728737 }

describe("luma.cluster.elbow and silhouette_over_k", function()
  it("tabulate k-means inertia and silhouette as scikit-learn", function()
    local T = luma.cluster.elbow(iris, { ks = { 1, 2, 3, 4 } })
    assert.same({ "k", "inertia" }, T:names())
    local k, inertia = T:column("k"), T:column("inertia")
    for i = 1, 4 do
      assert.equal(i, k:get(i, 1))
      assert.near(INERTIA[i], inertia:get(i, 1), 1e-8 * INERTIA[i])
    end
    local S = luma.cluster.silhouette_over_k(iris, { ks = { 1, 2, 3, 4 } })
    local sil = S:column("silhouette")
    assert.is_true(sil:get(1, 1) ~= sil:get(1, 1)) -- one cluster: undefined (NaN)
    for i = 2, 4 do assert.near(SILHOUETTE[i], sil:get(i, 1), 1e-10) end
    assert.near(INERTIA[3], S:column("inertia"):get(3, 1), 1e-8)
  end)

  it("sweep any clusterer and parameter; score stands in for a missing inertia", function()
    local T = luma.cluster.elbow(iris, { ks = { 2, 3 },
      estimator = luma.cluster.KMedoids{}, param = "n_clusters" })
    -- KMedoids has an inertia: the summed distances to the medoids (3: the
    -- exhaustive optimum of kmeans_variants_spec.lua)
    assert.near(98.13115488227103, T:column("inertia"):get(2, 1), 1e-9)
    local K = luma.cluster.elbow(iris, { ks = { 3 },
      estimator = luma.cluster.KernelKMeans{ seed = 0 } })
    assert.near(INERTIA[3], K:column("inertia"):get(1, 1), 1e-8)
  end)

  it("rejects bad input", function()
    errors_with("ks%[2%] must be an integer in 1..150, got 0",
      function() luma.cluster.elbow(iris, { ks = { 1, 0 } }) end)
    errors_with("unknown option 'k'", function() luma.cluster.elbow(iris, { k = { 1 } }) end)
    errors_with("estimator must be an estimator",
      function() luma.cluster.silhouette_over_k(iris, { estimator = {} }) end)
    errors_with("X must be a luma.Matrix", function() luma.cluster.elbow({ 1, 2 }) end)
  end)
end)

describe("luma.plot.elbow on data", function()
  it("fits luma.cluster.KMeans for each k and draws its inertia", function()
    -- three tight pairs: the optimal inertias are closed forms, k = 1:
    -- sum x^2 - (sum x)^2 / 6 = 2083 - 83^2 / 6; k = 2: {0, 1, 10, 11} and
    -- {30, 31}, 101 + 0.5; k = 3: three pairs, 3 * 0.5
    local X = luma.matrix{ { 0 }, { 1 }, { 10 }, { 11 }, { 30 }, { 31 } }
    local fig = luma.plot.elbow(X, { ks = { 1, 2, 3 } })
    local doc = assert(xml.parse(fig:svg()))
    local line = xml.by_class(doc, "line")[1]
    local pts = {}
    for x, y in xml.by_name(line, "polyline")[1].attrs.points:gmatch("([%d.-]+),([%d.-]+)") do
      pts[#pts + 1] = { tonumber(x), tonumber(y) }
    end
    local ax = fig:axes()
    for k, v in ipairs{ 2083 - 83 ^ 2 / 6, 101.5, 1.5 } do
      local px, py = ax:transform(k, v)
      assert.near(px, pts[k][1], 0.006)
      assert.near(py, pts[k][2], 0.006)
    end
  end)
end)
