-- Bad input to luma.neighbors: each case gets a clear error that names the
-- function (or the class) and the problem, never a crash.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")

-- required, not luma.neighbors: the index's luma.save loader registers
-- with the luma.persist this spec file uses (Busted reloads modules per file)
local NB = require("luma.neighbors")
local native = require("luma.neighbors.native")
local M = luma.matrix

local X = M{ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 2, 2 } }
local y = M{ 1, 1, 2, 2, 2 }
local Q = M{ { 0.5, 0.5 } }

local function fails(pattern, f)
  support.errors_with(pattern, f)
end

-- The message as Lua would print it: a plain-text match.
local function fails_with(text, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error: " .. text)
  assert.truthy(tostring(err):find(text, 1, true), tostring(err))
end

describe("luma.neighbors bad input", function()
  it("k larger than the training points", function()
    fails_with("bad argument #1 to 'fit' (KNeighborsClassifier: n_neighbors = 6 but X has only 5 rows)",
      function() NB.KNeighborsClassifier{ n_neighbors = 6 }:fit(X, y) end)
    local nn = NB.NearestNeighbors{}:fit(X)
    fails_with("bad argument #2 to 'kneighbors' (NearestNeighbors: k = 6 must be <= 5",
      function() nn:kneighbors(Q, 6) end)
    fails_with("k = 5 must be <= 4, the number of training points besides the query itself",
      function() nn:kneighbors(nil, 5) end)
    fails_with("bad argument #2 to 'query' (k = 6 must be <= 5",
      function() native.build(X):query(Q, 6) end)
  end)

  it("k <= 0", function()
    local nn = NB.NearestNeighbors{}:fit(X)
    fails_with("bad argument #2 to 'kneighbors' (k = 0 must be >= 1)", function() nn:kneighbors(Q, 0) end)
    fails_with("bad argument #2 to 'query' (k = -1 must be >= 1)", function() native.build(X):query(Q, -1) end)
    fails_with("luma.neighbors.KNeighborsClassifier: parameter 'n_neighbors' must be a integer >= 1, got 0",
      function() NB.KNeighborsClassifier{ n_neighbors = 0 } end)
  end)

  it("radius <= 0", function()
    local nn = NB.NearestNeighbors{}:fit(X)
    fails_with("bad argument #2 to 'radius_neighbors' (NearestNeighbors: radius = 0 must be a number > 0)",
      function() nn:radius_neighbors(Q, 0) end)
    fails_with("bad argument #2 to 'query_radius' (radius = -1", function() native.build(X):query_radius(Q, -1) end)
    fails_with("bad argument #2 to 'query_radius' (radius = nan must be > 0)",
      function() native.build(X):query_radius(Q, 0 / 0) end)
    fails_with("parameter 'radius' must be a number > 0, got -2",
      function() NB.RadiusNeighborsClassifier{ radius = -2 } end)
  end)

  it("an unknown metric or algorithm", function()
    fails_with("KNeighborsClassifier: unknown metric 'foo' (valid:",
      function() NB.KNeighborsClassifier{ metric = "foo" }:fit(X, y) end)
    fails_with("parameter 'algorithm' must be one of", function() NB.KNeighborsClassifier{ algorithm = "foo" } end)
    fails_with("bad argument #2 to 'build' (option 'algorithm' must be one of brute|kd_tree",
      function() native.build(X, { algorithm = "octree" }) end)
    fails_with("bad argument #2 to 'index' (unknown metric 'l3'", function() NB.index(X, { metric = "l3" }) end)
  end)

  it("a metric the chosen index does not support", function()
    fails_with("KNeighborsClassifier: metric 'cosine' is not supported by algorithm 'kd_tree' "
      .. "(cosine distance is not a metric: use 'brute')",
      function() NB.KNeighborsClassifier{ algorithm = "kd_tree", metric = "cosine" }:fit(X, y) end)
    fails_with("metric 'function' is not supported by algorithm 'kd_tree'",
      function() NB.KDTree(X, { metric = function() return 0 end }) end)
    for _, algorithm in ipairs({ "ball_tree", "orchard", "aesa", "laesa" }) do
      fails_with("metric 'cosine' is not supported by algorithm '" .. algorithm .. "'",
        function() native.build(X, { algorithm = algorithm, metric = "cosine" }) end)
    end
    fails_with("option 'p' must be a number >= 1 for minkowski", function()
      native.build(X, { metric = "minkowski", p = 0.5 })
    end)
    fails_with("metric 'mahalanobis' needs option 'cov'",
      function() native.build(X, { metric = "mahalanobis" }) end)
  end)

  it("NaN in the data", function()
    local bad = X:copy()
    bad:set(2, 1, 0 / 0)
    fails_with("bad argument #1 to 'fit' (KNeighborsClassifier: X has a non-finite element, nan at row 2, column 1"
      .. "; impute missing values first, e.g. with luma.preprocessing.SimpleImputer)",
      function() NB.KNeighborsClassifier{ n_neighbors = 2 }:fit(bad, y) end)
    local m = NB.KNeighborsClassifier{ n_neighbors = 2 }:fit(X, y)
    fails_with("bad argument #1 to 'predict' (KNeighborsClassifier: the query matrix has a non-finite "
      .. "element, inf at row 1, column 2)", function() m:predict(M{ { 0, 1 / 0 } }) end)
    fails_with("bad argument #2 to 'fit' (y contains NaN", function() m:fit(X, M{ 1, 0 / 0, 1, 2, 2 }) end)
  end)

  it("a Lua metric that returns a non-number or a negative value", function()
    fails_with("luma.neighbors: the metric function returned string (it must return a number >= 0)",
      function() native.build(X, { metric = function() return "1" end }):query(Q, 1) end)
    fails_with("luma.neighbors: the metric function returned -1.0 (it must return a number >= 0)",
      function() native.build(X, { algorithm = "aesa", metric = function() return -1 end }) end)
    fails_with("the metric function returned nan",
      function() NB.BallTree(X, { metric = function() return 0 / 0 end }) end)
    fails_with("the metric function returned nil", function()
      NB.KNeighborsClassifier{ algorithm = "laesa", metric = function() end }:fit(X, y)
    end)
    -- the function's own error is not rewritten
    fails("metric exploded", function()
      native.build(X, { algorithm = "orchard", metric = function() error("metric exploded") end })
    end)
  end)

  it("the wrong number of features at predict", function()
    local m = NB.KNeighborsClassifier{ n_neighbors = 2 }:fit(X, y)
    fails_with("bad argument #1 to 'predict' (X has 3 columns but luma.neighbors.KNeighborsClassifier was fitted on 2)",
      function() m:predict(M{ { 1, 2, 3 } }) end)
    fails_with("bad argument #1 to 'kneighbors' (X has 1 columns but KNeighborsClassifier was fitted on 2)",
      function() m:kneighbors(M{ { 1 } }) end)
    fails_with("bad argument #1 to 'query' (the queries have 3 columns but the index has 2)",
      function() native.build(X):query(M{ { 1, 2, 3 } }, 1) end)
  end)

  it("other misuse", function()
    fails_with("KNeighborsClassifier: weights must be \"uniform\", \"distance\" or a function, got \"inverse\"",
      function() NB.KNeighborsClassifier{ weights = "inverse" }:fit(X, y) end)
    local m = NB.KNeighborsClassifier{ n_neighbors = 2, weights = function(d) return d:sub(1, 1, 1, 1) end }
    m:fit(X, y)
    fails_with("the weights function must return a 1 x 2 matrix", function() m:predict(Q) end)
    fails_with("luma.neighbors.KNeighborsClassifier: predict called before fit", function() NB.KNeighborsClassifier{}:predict(Q) end)
    fails_with("bad argument #2 to 'fit' (MultiLabelKNeighbors: Y must hold 0 or 1 only",
      function() NB.MultiLabelKNeighbors{ n_neighbors = 2 }:fit(X, M{ 1, 2, 0, 1, 1 }) end)
    fails_with("bad argument #1 to 'build' (X is 0 x 2", function() native.build(luma.zeros(0, 2)) end)
    fails_with("a symmetrised graph needs the training points as queries", function()
      NB.NearestNeighbors{}:fit(X):kneighbors_graph(Q, 1, "connectivity", { symmetrize = "or" })
    end)
    fails_with("an index with a metric function cannot be saved",
      function() luma.persist.encode(NB.index(X, { algorithm = "laesa", metric = function() return 1 end })) end)
  end)
end)
