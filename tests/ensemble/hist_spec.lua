-- luma.ensemble histogram gradient boosting against scikit-learn 1.2.1
-- (tests/ensemble/sklearn_reference.py: no early stopping, fewer than
-- 200,000 rows, so both sides are deterministic), with missing values,
-- and the invariants of binning, threads and early stopping.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local ref = require("ensemble.sklearn_reference")
local E = luma.ensemble
local M = luma.matrix

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

-- NaN where (7 i + 3 j) % 11 == 0 with 0-based i, j (as the reference).
local function with_nan(X)
  local out = X:copy()
  for i = 1, X:rows() do
    for j = 1, X:cols() do
      if (7 * (i - 1) + 3 * (j - 1)) % 11 == 0 then out:set(i, j, 0 / 0) end
    end
  end
  return out
end

local function column(list) return M(list) end

describe("HistGradientBoostingClassifier", function()
  local bc_X, bc_y = luma.datasets.load("breast_cancer")

  it("matches scikit-learn's binary log loss", function()
    local m = E.HistGradientBoostingClassifier{ max_iter = 20, early_stopping = false }:fit(bc_X, bc_y)
    assert.matrix_near(column(ref.hgb_bc.decision), m:decision_function(bc_X), 1e-10)
    -- feature 1's bins: percentile midpoints (more than 255 distinct values)
    local t = ref.hgb_bc.thresholds_1
    assert.equal(#t + 1, m.n_bins:get(1, 1))
    assert.matrix_near(column(t):t(), m.bin_thresholds:sub(1, 1, 1, #t), 1e-12)
    assert.is_true(m.bin_thresholds:get(1, #t + 1) ~= m.bin_thresholds:get(1, #t + 1)) -- NaN padding
    local P = m:predict_proba(bc_X)
    assert.matrix_near(m:decision_function(bc_X):sigmoid(), P:col(2), 1e-15)
    assert.matrix_near(m.classes:take(P:argmax(2)), m:predict(bc_X), 0)
  end)

  it("sends missing values to the better side like scikit-learn", function()
    local X = with_nan(bc_X)
    local m = E.HistGradientBoostingClassifier{ max_iter = 20, early_stopping = false }:fit(X, bc_y)
    assert.matrix_near(column(ref.hgb_bc_nan.decision), m:decision_function(X), 1e-10)
    local used = 0
    for _, stage in ipairs(m.trees) do used = used + stage[1].missing_go_to_left:sum() end
    assert.is_true(used > 0)
  end)

  it("matches scikit-learn's multinomial log loss (one tree per class)", function()
    local X, y = luma.datasets.load("iris")
    local m = E.HistGradientBoostingClassifier{ max_iter = 20, early_stopping = false }:fit(X, y)
    assert.matrix_near(ref.hgb_iris.decision, m:decision_function(X), 1e-10)
    assert.equal(3, #m.trees[1])
    local last
    for p in m:staged_predict_proba(X) do last = p end
    assert.matrix_near(m:predict_proba(X), last, 1e-15)
  end)

  it("is the same for any thread count", function()
    local before = luma.config().threads
    local out = {}
    for _, threads in ipairs({ 1, 2 }) do
      luma.config{ threads = threads }
      local g = luma.random.Generator(4)
      local X = g:normal(30000, 5)
      local y = (X:col(1) + X:col(2):mul(X:col(3))):gt(0)
      out[threads] = E.HistGradientBoostingClassifier{ max_iter = 10, seed = 1 }:fit(X, y)
        :decision_function(X)
    end
    luma.config{ threads = before }
    assert.matrix_near(out[1], out[2], 0)
  end)

  it("stops early on a validation fraction", function()
    local g = luma.random.Generator(2)
    local X = g:normal(12000, 4)
    local y = X:col(1):gt(0) -- one split says it all: the validation loss stalls
    local m = E.HistGradientBoostingClassifier{ max_iter = 500, learning_rate = 1, seed = 3 }:fit(X, y)
    assert.is_true(m.n_iter < 500)
    assert.equal(m.n_iter + 1, m.validation_score:rows())
    local never = E.HistGradientBoostingClassifier{ max_iter = 30, early_stopping = false }:fit(X, y)
    assert.equal(30, never.n_iter)
    assert.is_nil(never.validation_score)
  end)
end)

describe("HistGradientBoostingRegressor", function()
  local X, y = luma.datasets.load("diabetes")

  it("matches scikit-learn's squared error and Poisson losses", function()
    for _, loss in ipairs({ "squared_error", "poisson" }) do
      local m = E.HistGradientBoostingRegressor{ max_iter = 20, early_stopping = false, loss = loss }:fit(X, y)
      assert.matrix_near(column(ref["hgb_" .. loss].predict), m:predict(X), 1e-9)
    end
  end)

  it("matches scikit-learn with its options and missing values", function()
    local Xn = with_nan(X)
    local m = E.HistGradientBoostingRegressor{ max_iter = 20, early_stopping = false, max_leaf_nodes = 8,
      max_depth = 2, min_samples_leaf = 5, l2_regularization = 1, learning_rate = 0.3, max_bins = 32 }
      :fit(Xn, y)
    assert.matrix_near(column(ref.hgb_options.predict), m:predict(Xn), 1e-9)
    for _, stage in ipairs(m.trees) do
      local t = stage[1]
      for i = 1, t.node_count do
        if t.children_left:get(i, 1) == -1 then assert.is_true(t.count:get(i, 1) >= 5) end
      end
    end
  end)

  it("gives staged predictions ending in the final ones", function()
    local m = E.HistGradientBoostingRegressor{ max_iter = 6 }:fit(X, y)
    local count, last = 0, nil
    for p in m:staged_predict(X) do count, last = count + 1, p end
    assert.equal(6, count)
    assert.matrix_near(m:predict(X), last, 1e-12)
  end)
end)

describe("histogram gradient boosting bad input", function()
  it("gives clear errors", function()
    local X, y = luma.datasets.load("diabetes")
    local Xi = X:copy()
    Xi:set(3, 2, math.huge)
    fails("X has an infinite value; NaN marks a missing value", function()
      E.HistGradientBoostingRegressor{}:fit(Xi, y)
    end)
    fails('loss "poisson" needs y >= 0', function()
      E.HistGradientBoostingRegressor{ loss = "poisson" }:fit(X, y - 1000)
    end)
    fails("parameter 'max_bins' must be a integer >= 2 and <= 255, got 256", function()
      E.HistGradientBoostingClassifier{ max_bins = 256 }
    end)
    fails("needs at least two classes", function()
      E.HistGradientBoostingClassifier{}:fit(X, luma.zeros(442, 1))
    end)
    local m = E.HistGradientBoostingRegressor{ max_iter = 2 }:fit(X, y)
    fails("X has 3 columns but luma.ensemble.HistGradientBoostingRegressor was fitted on 10", function()
      m:predict(X:sub(1, 2, 1, 3))
    end)
    local native = require("luma.ensemble.native")
    local t = {}
    for k, v in pairs(m.trees[1][1]) do t[k] = luma.ismatrix(v) and v:copy() or v end
    t.children_left:set(1, 1, 1)
    fails("not a tree: node 1 has invalid children", function()
      native.predict(t, X, luma.zeros(442, 1))
    end)
  end)
end)
