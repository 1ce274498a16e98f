-- luma.inspection.permutation_importance: the score drops recomputed with
-- the same shuffles, a feature the model ignores, any estimator and scorer.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local E = luma.ensemble

local iris_X, iris_y = luma.datasets.load("iris")

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("permutation_importance", function()
  it("measures the score lost by shuffling each feature", function()
    -- y depends on the first feature only
    local g = luma.random.Generator(3)
    local X = g:normal(200, 2)
    local y = X:col(1) * 3
    local m = luma.linear.LinearRegression{}:fit(X, y)
    local r = luma.inspection.permutation_importance(m, X, y, { n_repeats = 4, seed = 9 })
    assert.near(1, r.baseline_score, 1e-12)
    assert.matrix_near(luma.zeros(1, 4), r.importances:row(2), 1e-12)
    -- the same shuffles by hand: feature 1's four permutations come first
    local rng = luma.random.Generator(9)
    for rep = 1, 4 do
      local Xp = X:copy()
      Xp:col(1):assign(X:col(1):take(rng:permutation(200)))
      assert.near(1 - m:score(Xp, y), r.importances:get(1, rep), 1e-12)
    end
    assert.near(r.importances:row(1):mean(), r.importances_mean:get(1, 1), 1e-15)
    assert.is_true(r.importances_mean:get(1, 1) > 1)
  end)

  it("works with any estimator and scorer", function()
    local rf = E.RandomForestClassifier{ n_estimators = 10, seed = 1 }:fit(iris_X, iris_y)
    local r = luma.inspection.permutation_importance(rf, iris_X, iris_y, { scoring = "accuracy", seed = 2 })
    assert.equal(4, r.importances_mean:rows())
    -- the petal measurements matter most on iris
    assert.is_true(math.max(r.importances_mean:get(3, 1), r.importances_mean:get(4, 1))
      > math.max(r.importances_mean:get(1, 1), r.importances_mean:get(2, 1)))
    fails("a fitted estimator expected", function()
      luma.inspection.permutation_importance(luma.linear.Ridge{}, iris_X, iris_y)
    end)
    fails("unknown option 'repeats'", function()
      luma.inspection.permutation_importance(rf, iris_X, iris_y, { repeats = 2 })
    end)
  end)
end)
