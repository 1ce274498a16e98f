-- luma.ensemble voting and stacking: the combination rules recomputed by
-- hand, and stacking against scikit-learn 1.2.1:
--   StackingRegressor([("ridge", Ridge(alpha=1.0)), ("ridge2", Ridge(alpha=0.1))],
--                     final_estimator=LinearRegression(), cv=KFold(5)).fit(X, y)
-- on load_diabetes(): predict(X[:5]) = 202.85473707, 70.74203059,
-- 174.30211162, 162.96603348, 128.19510621; final coef_ = [-0.12015519,
-- 1.13154139], intercept_ = -1.3302379700115523.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local E = luma.ensemble
local M = luma.matrix

local iris_X, iris_y = luma.datasets.load("iris")
local diab_X, diab_y = luma.datasets.load("diabetes")

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

local function members()
  return { { "tree", luma.tree.DecisionTreeClassifier{ max_depth = 1 } },
           { "nb", luma.naive_bayes.GaussianNB{} },
           { "lr", luma.linear.LogisticRegression{} } }
end

describe("VotingClassifier", function()
  it("averages probabilities with weights (soft)", function()
    local v = E.VotingClassifier{ estimators = members(), voting = "soft", weights = { 1, 2, 1 } }
      :fit(iris_X, iris_y)
    local sum = v.estimators[1]:predict_proba(iris_X) + v.estimators[2]:predict_proba(iris_X) * 2
      + v.estimators[3]:predict_proba(iris_X)
    assert.matrix_near(sum / 4, v:predict_proba(iris_X), 1e-15)
    assert.matrix_near(v.classes:take((sum / 4):argmax(2)), v:predict(iris_X), 0)
    assert.equal("nb", v.names[2])
  end)

  it("counts weighted votes (hard), ties to the first class", function()
    local v = E.VotingClassifier{ estimators = members() }:fit(iris_X, iris_y)
    local labels = luma.hstack{ v.estimators[1]:predict(iris_X), v.estimators[2]:predict(iris_X),
      v.estimators[3]:predict(iris_X) }
    local pred = v:predict(iris_X)
    for i = 1, 150 do
      local count = { [0] = 0, 0, 0 }
      for j = 1, 3 do count[labels:get(i, j)] = count[labels:get(i, j)] + 1 end
      local best = 0
      for c = 1, 2 do if count[c] > count[best] then best = c end end
      assert.equal(best, pred:get(i, 1))
    end
    assert.matrix_near(labels, v:transform(iris_X), 0)
    fails("predict_proba needs voting = \"soft\"", function() v:predict_proba(iris_X) end)
  end)

  it("averages regressors", function()
    local v = E.VotingRegressor{ estimators = { { "a", luma.linear.Ridge{} },
      { "b", luma.tree.DecisionTreeRegressor{ max_depth = 3 } } }, weights = { 3, 1 } }:fit(diab_X, diab_y)
    local want = (v.estimators[1]:predict(diab_X) * 3 + v.estimators[2]:predict(diab_X)) / 4
    assert.matrix_near(want, v:predict(diab_X), 1e-12)
  end)
end)

describe("Stacking", function()
  it("matches scikit-learn's StackingRegressor", function()
    local s = E.StackingRegressor{ estimators = { { "ridge", luma.linear.Ridge{ alpha = 1 } },
      { "ridge2", luma.linear.Ridge{ alpha = 0.1 } } }, final_estimator = luma.linear.LinearRegression{},
      cv = luma.model_selection.KFold{ n_splits = 5 } }:fit(diab_X, diab_y)
    assert.matrix_near({ { 202.85473707 }, { 70.74203059 }, { 174.30211162 }, { 162.96603348 },
      { 128.19510621 } }, s:predict(diab_X:sub(1, 5, 1, 10)), 1e-9)
    assert.matrix_near({ { -0.12015519 }, { 1.13154139 } }, s.final_estimator.coef, 1e-7)
    assert.near(-1.3302379700115523, s.final_estimator.intercept, 1e-8)
  end)

  it("fits the final model on cross-validated member outputs (notes 003 §1.17)", function()
    local cv = luma.model_selection.KFold{ n_splits = 4 }
    local base = luma.naive_bayes.GaussianNB{}
    local s = E.StackingClassifier{ estimators = { { "nb", base },
      { "tree", luma.tree.DecisionTreeClassifier{ max_depth = 2 } } }, cv = cv,
      final_estimator = luma.linear.LogisticRegression{} }:fit(iris_X, iris_y)
    local Z = luma.hstack{
      luma.model_selection.cross_val_predict(base, iris_X, iris_y, { cv = cv, method = "predict_proba" }),
      luma.model_selection.cross_val_predict(luma.tree.DecisionTreeClassifier{ max_depth = 2 }, iris_X,
        iris_y, { cv = cv, method = "predict_proba" }) }
    local final = luma.linear.LogisticRegression{}:fit(Z, iris_y)
    assert.matrix_near(final.coef, s.final_estimator.coef, 1e-12)
    -- members are refitted on all rows for prediction
    assert.matrix_near(base:clone():fit(iris_X, iris_y):predict_proba(iris_X),
      s.estimators[1]:predict_proba(iris_X), 1e-15)
    assert.matrix_near(final:predict_proba(s:transform(iris_X)), s:predict_proba(iris_X), 1e-12)
  end)

  it("keeps one probability column for two classes, and X with passthrough", function()
    local X, y = iris_X:sub(1, 100, 1, 4):copy(), iris_y:sub(1, 100, 1, 1):copy()
    local s = E.StackingClassifier{ estimators = { { "nb", luma.naive_bayes.GaussianNB{} } },
      passthrough = true, cv = 3 }:fit(X, y)
    assert.equal(5, s:transform(X):cols())
    assert.equal("predict_proba", s.stack_methods[1])
  end)

  it("refuses bad members", function()
    fails("estimators must be a non-empty list", function()
      E.StackingClassifier{}:fit(iris_X, iris_y)
    end)
    fails("the base estimator must be a classifier", function()
      E.VotingClassifier{ estimators = { { "r", luma.linear.Ridge{} } } }:fit(iris_X, iris_y)
    end)
    fails("two estimators are named 'a'", function()
      E.VotingRegressor{ estimators = { { "a", luma.linear.Ridge{} }, { "a", luma.linear.Ridge{} } } }
        :fit(diab_X, diab_y)
    end)
    fails("weights has 1 entries for 2 estimators", function()
      E.VotingRegressor{ estimators = { { "a", luma.linear.Ridge{} }, { "b", luma.linear.Ridge{} } },
        weights = { 1 } }:fit(diab_X, diab_y)
    end)
  end)
end)
