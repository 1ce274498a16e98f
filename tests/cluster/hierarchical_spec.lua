-- luma.cluster: AgglomerativeClustering, linkage, fcluster, minimum_spanning_tree
-- (lua/luma/cluster/hierarchical.lua, src/ml/cluster/hierarchy.c).
--
-- SCIPY / SKLEARN: hierarchical_reference.lua holds SciPy 1.10.1's linkage
-- and fcluster and scikit-learn 1.2.1's AgglomerativeClustering on 200
-- points of R.points(200, 3, 20) (an LCG both languages compute exactly;
-- the generating script is in that file's header).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local R = require("cluster.hierarchical_reference")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local C = luma.cluster

local X = R.points(200, 3, 20)

-- Whether two labellings are the same partition.
local function same_partition(a, b)
  local ab, ba = {}, {}
  for i = 1, a:rows() do
    local x, y = a:get(i, 1), b:get(i, 1)
    if (ab[x] and ab[x] ~= y) or (ba[y] and ba[y] ~= x) then return false end
    ab[x], ba[y] = y, x
  end
  return true
end

describe("luma.cluster.linkage", function()
  for _, method in ipairs{ "single", "complete", "average", "ward" } do
    it("equals SciPy's linkage for " .. method .. " on 200 points (ids, heights, sizes)", function()
      local Z = C.linkage(X, method)
      assert.matrix_near(luma.matrix(R.linkage[method]), Z, 1e-12)
    end)
    it("gives the same tree from a precomputed distance matrix (" .. method .. ")", function()
      local D = luma.pairwise.distances(X, "euclidean")
      assert.matrix_near(luma.matrix(R.linkage[method]), C.linkage(D, method,
        { metric = "precomputed" }), 1e-12)
    end)
  end

  it("reads non-contiguous views as their copies", function()
    -- X's columns 3, 1 of the transpose's transpose: strided, not row-major
    local wide = luma.hstack{ X, X }
    local view = wide:t():sub(2, 3, nil, nil):t()
    for _, method in ipairs{ "single", "average", "ward" } do
      assert.matrix_near(C.linkage(view:copy(), method), C.linkage(view, method), 0)
    end
    local D = luma.pairwise.distances(X, "euclidean")
    assert.matrix_near(C.linkage(D, "complete", { metric = "precomputed" }),
      C.linkage(D:t(), "complete", { metric = "precomputed" }), 0)
  end)

  it("joins two points at their distance and merges in height order", function()
    -- 1-D points 0, 1, 3, 7, 15: single linkage merges at 1, 2, 4, 8 (gaps);
    -- complete at 1, 3, 7, 15 (spans); the sizes count points
    local P = luma.matrix{ 0, 1, 3, 7, 15 }
    assert.matrix_near(luma.matrix{ { 1, 2, 1, 2 }, { 3, 6, 2, 3 }, { 4, 7, 4, 4 }, { 5, 8, 8, 5 } },
      C.linkage(P, "single"), 0)
    assert.matrix_near(luma.matrix{ { 1, 2, 1, 2 }, { 3, 6, 3, 3 }, { 4, 7, 7, 4 }, { 5, 8, 15, 5 } },
      C.linkage(P, "complete"), 0)
    -- Ward: sqrt(2 |A||B| / (|A|+|B|)) |c_A - c_B|: {0,1} at 1, then {3} with
    -- centroid 0.5 at sqrt(4/3) * 2.5
    assert.near(math.sqrt(4 / 3) * 2.5, C.linkage(P, "ward"):get(2, 3), 1e-14)
  end)

  it("rejects a non-square or non-symmetric precomputed matrix and NaN", function()
    errors_with("must be square, got 3 x 2", function()
      C.linkage(luma.zeros(3, 2), "average", { metric = "precomputed" })
    end)
    errors_with("not symmetric", function()
      C.linkage(luma.matrix{ { 0, 1 }, { 2, 0 } }, "average", { metric = "precomputed" })
    end)
    errors_with("non%-finite element, nan at row 2, column 1", function()
      C.linkage(luma.matrix{ { 0, 0 }, { 0 / 0, 1 } }, "ward")
    end)
    errors_with("method must be one of", function() C.linkage(X, "centroid") end)
  end)

  it("takes the options table second, the method in it", function()
    local P = luma.matrix{ 0, 1, 3, 7, 15 }
    assert.matrix_near(C.linkage(P, "ward"), C.linkage(P, { method = "ward" }), 0)
    assert.matrix_near(C.linkage(P, "single"), C.linkage(P, {}), 0)
    local D = luma.pairwise.distances(P, "euclidean")
    assert.matrix_near(C.linkage(P, "complete"),
      C.linkage(D, { method = "complete", metric = "precomputed" }), 0)
    assert.has_error(function() C.linkage(P, { method = "ward", metric = "euclidean", mehtod = 1 }) end,
      "bad argument #2 to 'linkage' (unknown option 'mehtod' (valid: connectivity, method, "
        .. "metric, p))")
    assert.has_error(function() C.linkage(P, "ward", { method = "ward" }) end,
      "bad argument #3 to 'linkage' (unknown option 'method' (valid: connectivity, metric, p))")
    assert.has_error(function() C.linkage(P, { method = "ward" }, {}) end,
      "bad argument #2 to 'linkage' (method must be a string when the options come third)")
    errors_with("method must be one of single, complete, average, ward, got centroid",
      function() C.linkage(P, { method = "centroid" }) end)
  end)
end)

describe("luma.cluster.fcluster", function()
  it("cuts by count and by distance as SciPy's fcluster", function()
    assert.matrix_near(luma.matrix(R.fcluster_ward_maxclust5), C.fcluster(C.linkage(X, "ward"), 5), 0)
    assert.matrix_near(luma.matrix(R.fcluster_average_distance03),
      C.fcluster(C.linkage(X, "average"), 0.3, "distance"), 0)
  end)

  it("gives exactly k clusters when the heights are distinct", function()
    local Z = C.linkage(luma.matrix{ 0, 1, 3, 7, 15 }, "single")
    for k = 1, 5 do assert.equal(k, C.fcluster(Z, k):max()) end
    assert.matrix_near(luma.matrix{ 1, 1, 2, 3, 4 }, C.fcluster(Z, 4), 0)
    assert.matrix_near(luma.matrix{ 1, 1, 1, 2, 3 }, C.fcluster(Z, 2, "distance"), 0)
  end)

  it("rejects a bad count or criterion", function()
    local Z = C.linkage(X, "ward")
    errors_with("integer in 1%.%.200", function() C.fcluster(Z, 0) end)
    errors_with("criterion must be", function() C.fcluster(Z, 2, "inconsistent") end)
  end)
end)

describe("luma.cluster.minimum_spanning_tree", function()
  it("is the tree single linkage merges along, with the same total weight", function()
    local edges, w = C.minimum_spanning_tree(X)
    assert.equal(199, edges:rows())
    local Z = luma.matrix(R.linkage.single)
    assert.near(Z:sub(nil, nil, 3, 3):sum(), w:sum(), 1e-12)
    -- a spanning tree: n - 1 edges joining every point
    local parent = {}
    local function find(i)
      while parent[i] do i = parent[i] end
      return i
    end
    for e = 1, edges:rows() do
      local a, b = find(edges:get(e, 1)), find(edges:get(e, 2))
      assert.are_not.equal(a, b)
      parent[a] = b
    end
  end)

  it("finds the tree of a small weighted graph (Prim from point 1)", function()
    -- a 4-cycle 1-2-3-4-1 with weights 1, 2, 3, 4 and the diagonals at 5
    local D = luma.matrix{ { 0, 1, 5, 4 }, { 1, 0, 2, 5 }, { 5, 2, 0, 3 }, { 4, 5, 3, 0 } }
    local edges, w = C.minimum_spanning_tree(D, { metric = "precomputed" })
    assert.matrix_near(luma.matrix{ { 1, 2 }, { 2, 3 }, { 3, 4 } }, edges, 0)
    assert.matrix_near(luma.matrix{ 1, 2, 3 }, w, 0)
  end)
end)

describe("luma.cluster.AgglomerativeClustering", function()
  for _, method in ipairs{ "single", "complete", "average", "ward" } do
    it("labels 200 points as scikit-learn (" .. method .. ", n_clusters = 4)", function()
      local est = C.AgglomerativeClustering{ n_clusters = 4, linkage = method }
      assert.matrix_near(luma.matrix(R.agglomerative[method]), est:fit_predict(X), 0)
      assert.matrix_near(luma.matrix(R.linkage[method]), est.linkage_matrix, 1e-12)
      assert.equal(4, est.n_clusters)
    end)
    it("merges under a 10-nearest-neighbour connectivity graph as scikit-learn (" .. method
      .. ")", function()
      local graph = luma.neighbors.kneighbors_graph(X, 10)
      local est = C.AgglomerativeClustering{ n_clusters = 4, linkage = method,
        connectivity = graph }:fit(X)
      assert.matrix_near(luma.matrix(R.connected[method].distances), est.distances, 1e-12)
      assert.is_true(same_partition(luma.matrix(R.connected[method].labels), est.labels))
      -- a function of X gives the same tree
      local again = C.AgglomerativeClustering{ n_clusters = 4, linkage = method,
        connectivity = function(Y) return luma.neighbors.kneighbors_graph(Y, 10) end }:fit(X)
      assert.matrix_near(est.linkage_matrix, again.linkage_matrix, 0)
    end)
  end

  it("cuts at distance_threshold as scikit-learn", function()
    local est = C.AgglomerativeClustering{ distance_threshold = 0.5, linkage = "average" }:fit(X)
    assert.equal(R.threshold_average05.n_clusters, est.n_clusters)
    assert.matrix_near(luma.matrix(R.threshold_average05.labels), est.labels, 0)
  end)

  it("warns about a disconnected connectivity graph and completes it", function()
    -- two groups with no edge between them: completed by their closest pair
    local P = luma.matrix{ { 0, 0 }, { 0, 1 }, { 5, 0 }, { 5, 1 } }
    local graph = luma.matrix{ { 1, 2 }, { 3, 4 } }
    local est = C.AgglomerativeClustering{ n_clusters = 1, linkage = "single", connectivity = graph }
    local warnings = capture_warnings(function() est:fit(P) end)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:match("2 connected components"))
    assert.equal(2, est.n_connected_components)
    assert.matrix_near(luma.matrix{ 1, 1, 5 }, est.distances, 0)
  end)

  it("gives luma.plot.dendrogram its tree", function()
    local est = C.AgglomerativeClustering{ n_clusters = 3 }:fit(X:sub(1, 20, nil, nil))
    local fig, order = luma.plot.dendrogram(est)
    assert.truthy(tostring(fig):match("Figure"))
    assert.equal(20, #order)
    local _, again = luma.plot.dendrogram(est.linkage_matrix)
    assert.same(order, again)
  end)

  it("rejects n_clusters <= 0", function()
    errors_with("n_clusters", function() C.AgglomerativeClustering{ n_clusters = 0 } end)
  end)

  it("rejects n_clusters larger than the number of rows", function()
    errors_with("n_clusters = 5 is more than the 4 rows", function()
      C.AgglomerativeClustering{ n_clusters = 5 }:fit(luma.zeros(4, 2))
    end)
  end)

  it("rejects both n_clusters and distance_threshold", function()
    errors_with("either n_clusters or distance_threshold", function()
      C.AgglomerativeClustering{ n_clusters = 2, distance_threshold = 1 }:fit(X)
    end)
  end)

  it("rejects NaN in X", function()
    local bad = X:copy()
    bad:set(7, 2, 0 / 0)
    errors_with("bad argument #1 to 'fit' %(AgglomerativeClustering: X has a non%-finite element, "
      .. "nan at row 7, column 2; impute missing values first, e%.g%. with "
      .. "luma%.preprocessing%.SimpleImputer%)", function() C.AgglomerativeClustering{}:fit(bad) end)
  end)

  it("rejects a non-square precomputed distance matrix", function()
    errors_with("bad argument #1 to 'fit' %(AgglomerativeClustering: a precomputed distance "
      .. "matrix must be square, got 4 x 3%)", function()
        C.AgglomerativeClustering{ metric = "precomputed", linkage = "average" }
          :fit(luma.zeros(4, 3))
      end)
  end)

  it("rejects a non-symmetric precomputed distance matrix", function()
    local D = luma.pairwise.distances(X:sub(1, 5, nil, nil), "euclidean")
    D:set(1, 2, D:get(1, 2) + 0.1)
    errors_with("not symmetric", function()
      C.AgglomerativeClustering{ metric = "precomputed", linkage = "complete" }:fit(D)
    end)
  end)

  it("rejects Ward with another metric", function()
    errors_with("Ward linkage needs the euclidean metric", function()
      C.AgglomerativeClustering{ metric = "manhattan" }:fit(X)
    end)
  end)

  it("saves and loads its fitted tree", function()
    local est = C.AgglomerativeClustering{ n_clusters = 3, linkage = "average" }:fit(X)
    local path = os.tmpname()
    luma.save(est, path)
    local back = luma.load(path)
    os.remove(path)
    assert.matrix_near(est.linkage_matrix, back.linkage_matrix, 0)
    assert.matrix_near(est.labels, back.labels, 0)
  end)
end)
