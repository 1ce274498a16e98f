-- luma.tree: every bad input of issue 19 gets a clear error, and damaged
-- tree tables given to the native kernels are errors, not crashes.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local T = luma.tree
local M = luma.matrix

local iris_X, iris_y = luma.datasets.load("iris")

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("tree bad input", function()
  local C, R = T.DecisionTreeClassifier, T.DecisionTreeRegressor

  it("refuses labels that are not classes", function()
    -- strings are labels too (issue 29), one per row of X and all of one type
    fails("bad argument #2 to 'fit' (X has 150 rows but y has 2)", function()
      C{}:fit(iris_X, { "a", "b" })
    end)
    fails("y mixes labels of two types: y[1] is a string but y[2] is a number", function()
      C{}:fit(iris_X:sub(1, 2, 1, 4), { "a", 1 })
    end)
    fails("y must be numeric for a regressor; got strings", function()
      R{}:fit(iris_X:sub(1, 2, 1, 4), { "a", "b" })
    end)
    -- fractional floats are a continuous target
    fails("continuous target", function() C{}:fit(iris_X, iris_y + 0.5) end)
  end)

  it("needs two classes", function()
    fails("needs at least two classes; y has only 1", function()
      C{}:fit(iris_X:sub(51, 100, 1, 4), iris_y:sub(51, 100, 1, 1))
    end)
  end)

  it("refuses negative and all-zero sample weights", function()
    fails("sample_weight must be finite and >= 0", function()
      C{}:fit(iris_X, iris_y, luma.full(150, 1, -1))
    end)
    fails("sample_weight sums to 0", function() C{}:fit(iris_X, iris_y, luma.zeros(150, 1)) end)
    fails("sample_weight must be 150 x 1", function() R{}:fit(iris_X, iris_y, luma.ones(3, 1)) end)
    fails("the class and sample weights sum to 0", function()
      C{ class_weight = { [0] = 0, [1] = 0, [2] = 0 } }:fit(iris_X, iris_y)
    end)
  end)

  it("checks the parameters", function()
    fails("parameter 'max_depth' must be a integer >= 1 (or nil), got 0", function() C{ max_depth = 0 } end)
    fails("min_samples_leaf = 76 is more than half of the 150 samples", function()
      C{ min_samples_leaf = 76 }:fit(iris_X, iris_y)
    end)
    fails("min_samples_leaf must be an integer >= 1 or a fraction in (0, 0.5]", function()
      C{ min_samples_leaf = 0.7 }:fit(iris_X, iris_y)
    end)
    fails("min_samples_split must be an integer >= 2", function()
      C{ min_samples_split = 1 }:fit(iris_X, iris_y)
    end)
    fails("max_features = 5 is outside 1..4", function() C{ max_features = 5 }:fit(iris_X, iris_y) end)
    fails("max_features = 0 is outside 1..4", function() C{ max_features = 0 }:fit(iris_X, iris_y) end)
    fails("max_features = 1.5 must be a fraction in (0, 1]", function()
      C{ max_features = 1.5 }:fit(iris_X, iris_y)
    end)
    fails('max_features must be an integer, a fraction, "sqrt" or "log2", got "half"', function()
      C{ max_features = "half" }:fit(iris_X, iris_y)
    end)
    fails("parameter 'criterion' must be one of", function() C{ criterion = "squared_error" } end)
    fails("parameter 'max_leaf_nodes' must be a integer >= 2 (or nil), got 1", function() R{ max_leaf_nodes = 1 } end)
    fails("class_weight names 7, which is not a class", function()
      C{ class_weight = { [7] = 2 } }:fit(iris_X, iris_y)
    end)
    fails('criterion "poisson" needs y >= 0', function()
      R{ criterion = "poisson" }:fit(iris_X, iris_y - 1)
    end)
  end)

  it("names HistGradientBoosting for NaN in X", function()
    local X = iris_X:copy()
    X:set(7, 2, 0 / 0)
    fails("X has NaN at row 7, column 2", function() C{}:fit(X, iris_y) end)
    fails("HistGradientBoostingClassifier/Regressor", function() R{}:fit(X, iris_y) end)
    local m = C{ max_depth = 2 }:fit(iris_X, iris_y)
    fails("HistGradientBoostingClassifier/Regressor", function() m:predict(X) end)
    fails("HistGradientBoostingClassifier/Regressor", function() m:predict_proba(X) end)
  end)

  it("checks feature counts at predict", function()
    local m = C{ max_depth = 2 }:fit(iris_X, iris_y)
    local X3 = iris_X:sub(1, 5, 1, 3)
    fails("X has 3 columns but luma.tree.DecisionTreeClassifier was fitted on 4", function() m:predict(X3) end)
    fails("X has 3 columns but luma.tree.DecisionTreeClassifier was fitted on 4", function() m:apply(X3) end)
    fails("X has 3 columns", function() m:decision_path(X3) end)
    fails("called before fit", function() C{}:predict(iris_X) end)
    fails("called before fit", function() C{}:apply(iris_X) end)
    fails("called before fit", function() C{}:get_depth() end)
  end)

  it("refuses damaged tree tables in the native kernels", function()
    local native = require("luma.tree.native")
    local m = C{ max_depth = 2 }:fit(iris_X, iris_y)
    local function damaged(key, value)
      local t = {}
      for k, v in pairs(m.tree) do t[k] = luma.ismatrix(v) and v:copy() or v end
      if luma.ismatrix(t[key]) then t[key]:set(1, 1, value) else t[key] = value end
      return t
    end
    fails("not a tree: node 1 has invalid children", function()
      native.predict(damaged("children_left", 1), iris_X) -- a loop
    end)
    fails("not a tree: node 1 has invalid children", function()
      native.apply(damaged("feature", 9), iris_X)
    end)
    fails("not a tree: field 'children_left' must be a 99-row matrix", function()
      native.apply(damaged("node_count", 99), iris_X)
    end)
    fails("X has 3 columns but the tree was grown on 4", function()
      native.predict(m.tree, iris_X:sub(1, 3, 1, 3))
    end)
    fails("a node below node 1 has two parents", function()
      local t = damaged("children_right", 2)
      native.prune_path(t)
    end)
  end)
end)
