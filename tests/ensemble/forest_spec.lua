-- luma.ensemble forests and bagging: thread invariance, out-of-bag
-- estimates recomputed by hand, the deterministic limit (no randomness =
-- copies of one tree), and accuracy near scikit-learn's.
--
-- Reference accuracies: scikit-learn 1.2.1, the mean over random_state =
-- 0..4 of the test accuracy on breast_cancer with rows i % 4 == 0 (0-based)
-- held out, default parameters:
--   RandomForestClassifier 0.9608, ExtraTreesClassifier 0.9748,
--   BaggingClassifier 0.9273; RandomForestRegressor on diabetes (same
--   split) R^2 0.4101.  (The generators differ, so only such averages can
--   be compared; the tolerance is about two standard deviations of the
--   five runs.)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local E = luma.ensemble
local native = require("luma.tree.native")
local M = luma.matrix

local iris_X, iris_y = luma.datasets.load("iris")

-- breast_cancer or diabetes split as in the reference.
local function split(name)
  local X, y = luma.datasets.load(name)
  local train, test = {}, {}
  for i = 1, X:rows() do
    if (i - 1) % 4 == 0 then test[#test + 1] = i else train[#train + 1] = i end
  end
  return X:take(M(train)), y:take(M(train)), X:take(M(test)), y:take(M(test))
end

local function mean_score(make, name)
  local Xtr, ytr, Xte, yte = split(name)
  local total = 0
  for s = 0, 4 do total = total + make(s):fit(Xtr, ytr):score(Xte, yte) end
  return total / 5
end

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("RandomForestClassifier", function()
  it("gives the same forest for any thread count", function()
    local before = luma.config().threads
    local fits = {}
    for _, threads in ipairs({ 1, 2 }) do
      luma.config{ threads = threads }
      fits[threads] = E.RandomForestClassifier{ n_estimators = 7, seed = 5 }:fit(iris_X, iris_y)
    end
    luma.config{ threads = before }
    for i = 1, 7 do
      assert.matrix_near(fits[1].estimators[i].tree.threshold, fits[2].estimators[i].tree.threshold, 0)
    end
    assert.matrix_near(fits[1]:predict_proba(iris_X), fits[2]:predict_proba(iris_X), 0)
    -- and the same seed gives the same forest again, a different seed another
    local again = E.RandomForestClassifier{ n_estimators = 7, seed = 5 }:fit(iris_X, iris_y)
    assert.matrix_near(fits[1]:predict_proba(iris_X), again:predict_proba(iris_X), 0)
    local other = E.RandomForestClassifier{ n_estimators = 7, seed = 6 }:fit(iris_X, iris_y)
    assert.is_false(other:predict_proba(iris_X):equal(again:predict_proba(iris_X)))
  end)

  it("averages the trees' probabilities", function()
    local m = E.RandomForestClassifier{ n_estimators = 4, seed = 1 }:fit(iris_X, iris_y)
    local sum = luma.zeros(150, 3)
    for _, t in ipairs(m.estimators) do sum = sum + t:predict_proba(iris_X) end
    assert.matrix_near(sum / 4, m:predict_proba(iris_X), 1e-15)
    assert.matrix_near(m.classes:take((sum / 4):argmax(2)), m:predict(iris_X), 0)
    -- leaves of every tree
    local leaves = m:apply(iris_X)
    assert.matrix_near(m.estimators[3]:apply(iris_X), leaves:col(3), 0)
  end)

  it("grows each tree on its bootstrap sample", function()
    local m = E.RandomForestClassifier{ n_estimators = 3, seed = 2, max_samples = 0.5 }:fit(iris_X, iris_y)
    for i, t in ipairs(m.estimators) do
      local counts = native.bootstrap(m.seeds[i], 150, 75)
      assert.equal(75, counts:sum())
      -- the root holds the sampled rows, weighted by their counts
      assert.equal(75, t.tree.weighted_n_node_samples:get(1, 1))
      assert.equal(counts:gt(0):sum(), t.tree.n_node_samples:get(1, 1))
    end
  end)

  it("computes out-of-bag estimates from the trees that left each row out", function()
    local m = E.RandomForestClassifier{ n_estimators = 25, seed = 3, oob_score = true }:fit(iris_X, iris_y)
    local sum, hits = luma.zeros(150, 3), luma.zeros(150, 1)
    for i, t in ipairs(m.estimators) do
      local out = native.bootstrap(m.seeds[i], 150, 150):eq(0)
      sum = sum + t:predict_proba(iris_X):mul(out)
      hits = hits + out
    end
    assert.matrix_near(sum:div(hits), m.oob_decision_function, 1e-15)
    local correct = m.classes:take(m.oob_decision_function:argmax(2)):eq(iris_y):sum()
    assert.near(correct / 150, m.oob_score, 1e-15)
    assert.is_true(m.oob_score > 0.9)
  end)

  it("reduces to one tree without randomness", function()
    local m = E.RandomForestClassifier{ n_estimators = 3, bootstrap = false, max_features = 1.0 }
      :fit(iris_X, iris_y)
    local t = luma.tree.DecisionTreeClassifier{}:fit(iris_X, iris_y)
    assert.matrix_near(t:predict_proba(iris_X), m:predict_proba(iris_X), 1e-15)
    assert.matrix_near(t.feature_importances, m.feature_importances, 1e-15)
  end)

  it("is about as accurate as scikit-learn's", function()
    local acc = mean_score(function(s) return E.RandomForestClassifier{ seed = s } end, "breast_cancer")
    assert.near(0.9608, acc, 0.02)
  end)

  it("balances classes per bootstrap sample", function()
    local keep = {}
    for i = 1, 150 do if i <= 50 or i % 5 == 0 then keep[#keep + 1] = i end end
    local X, y = iris_X:take(M(keep)), iris_y:take(M(keep))
    local m = E.RandomForestClassifier{ n_estimators = 3, seed = 1, class_weight = "balanced_subsample" }
      :fit(X, y)
    for i, t in ipairs(m.estimators) do
      -- at the root, every class carries the same weight in the bootstrap sample
      local v = t.tree.value:row(1)
      assert.near(v:get(1, 1), v:get(1, 2), 1e-9)
      assert.near(v:get(1, 1), v:get(1, 3), 1e-9)
      assert.near(native.bootstrap(m.seeds[i], X:rows(), X:rows()):sum(), v:sum(), 1e-9)
    end
  end)
end)

describe("ExtraTreesClassifier", function()
  it("uses all rows and random thresholds", function()
    local m = E.ExtraTreesClassifier{ n_estimators = 5, seed = 4 }:fit(iris_X, iris_y)
    assert.is_false(m.params.bootstrap)
    assert.equal(150, m.estimators[1].tree.n_node_samples:get(1, 1))
    assert.equal("luma.tree.ExtraTreeClassifier", m.estimators[1].__class.name)
    assert.equal(1, m:score(iris_X, iris_y))
    local acc = mean_score(function(s) return E.ExtraTreesClassifier{ seed = s } end, "breast_cancer")
    assert.near(0.9748, acc, 0.02)
  end)
end)

describe("forest regressors", function()
  it("average the trees and estimate R^2 out of bag", function()
    local X, y = luma.datasets.load("diabetes")
    local m = E.RandomForestRegressor{ n_estimators = 20, seed = 1, oob_score = true }:fit(X, y)
    local sum = luma.zeros(442, 1)
    for _, t in ipairs(m.estimators) do sum = sum + t:predict(X) end
    assert.matrix_near(sum / 20, m:predict(X), 1e-12)
    assert.is_true(m.oob_score > 0.3 and m.oob_score < 0.6)
    local r2 = mean_score(function(s) return E.RandomForestRegressor{ seed = s } end, "diabetes")
    assert.near(0.4101, r2, 0.05)
    local et = E.ExtraTreesRegressor{ n_estimators = 5, seed = 1 }:fit(X, y)
    assert.near(1, et:score(X, y), 1e-9) -- fully grown on all rows
  end)
end)

describe("Bagging", function()
  it("fits members on bootstrap rows and random features, for any n_jobs", function()
    local a = E.BaggingClassifier{ n_estimators = 6, seed = 7, max_features = 2 }:fit(iris_X, iris_y)
    local b = E.BaggingClassifier{ n_estimators = 6, seed = 7, max_features = 2, n_jobs = 2 }
      :fit(iris_X, iris_y)
    assert.matrix_near(a:predict_proba(iris_X), b:predict_proba(iris_X), 0)
    for i = 1, 6 do
      assert.equal(2, a.estimators_features[i]:rows())
      assert.equal(2, a.estimators[i].n_features_in)
    end
  end)

  it("votes with probabilities or one-hot votes (notes 002 E13)", function()
    local base = luma.tree.DecisionTreeClassifier{ max_depth = 2 }
    local soft = E.BaggingClassifier{ estimator = base, n_estimators = 5, seed = 1 }:fit(iris_X, iris_y)
    local hard = E.BaggingClassifier{ estimator = base, n_estimators = 5, seed = 1, voting = "hard" }
      :fit(iris_X, iris_y)
    local votes = luma.zeros(150, 3)
    local probs = luma.zeros(150, 3)
    for i, m in ipairs(hard.estimators) do
      local Xf = iris_X:take(hard.estimators_features[i], 2)
      votes = votes + m:predict(Xf):eq(hard.classes:t())
      probs = probs + soft.estimators[i]:predict_proba(Xf)
    end
    assert.matrix_near(votes / 5, hard:predict_proba(iris_X), 1e-15)
    assert.matrix_near(probs / 5, soft:predict_proba(iris_X), 1e-15)
    assert.equal("soft", soft:voting_kind())
  end)

  it("estimates out-of-bag scores and bags regressors", function()
    local m = E.BaggingClassifier{ n_estimators = 30, seed = 2, oob_score = true }:fit(iris_X, iris_y)
    assert.is_true(m.oob_score > 0.9 and m.oob_score <= 1)
    local X, y = luma.datasets.load("diabetes")
    local r = E.BaggingRegressor{ n_estimators = 10, seed = 2, oob_score = true }:fit(X, y)
    local sum = luma.zeros(442, 1)
    for _, t in ipairs(r.estimators) do sum = sum + t:predict(X) end
    assert.matrix_near(sum / 10, r:predict(X), 1e-12)
    assert.is_true(r.oob_score > 0.2)
    local acc = mean_score(function(s) return E.BaggingClassifier{ seed = s } end, "breast_cancer")
    assert.near(0.9273, acc, 0.03)
  end)
end)

describe("forest and bagging bad input", function()
  it("gives clear errors", function()
    fails("out-of-bag estimation needs bootstrap = true", function()
      E.RandomForestClassifier{ bootstrap = false, oob_score = true }:fit(iris_X, iris_y)
    end)
    fails("max_samples = 500 is outside 1..150", function()
      E.RandomForestClassifier{ max_samples = 500 }:fit(iris_X, iris_y)
    end)
    fails("needs at least two classes", function()
      E.RandomForestClassifier{}:fit(iris_X, luma.zeros(150, 1))
    end)
    local X = iris_X:copy()
    X:set(1, 1, 0 / 0)
    fails("HistGradientBoostingClassifier/Regressor", function() E.RandomForestClassifier{}:fit(X, iris_y) end)
    fails("HistGradientBoostingClassifier/Regressor", function() E.ExtraTreesRegressor{}:fit(X, iris_y) end)
    local m = E.RandomForestClassifier{ n_estimators = 2 }:fit(iris_X, iris_y)
    fails("X has 3 columns but luma.ensemble.RandomForestClassifier was fitted on 4", function()
      m:predict(iris_X:sub(1, 4, 1, 3))
    end)
    fails("the base estimator must be a classifier", function()
      E.BaggingClassifier{ estimator = luma.tree.DecisionTreeRegressor{} }:fit(iris_X, iris_y)
    end)
    fails("sample_weight must be finite and >= 0", function()
      E.RandomForestRegressor{}:fit(iris_X, iris_y, luma.full(150, 1, -1))
    end)
  end)

  it("saves and loads", function()
    local m = E.RandomForestClassifier{ n_estimators = 3, seed = 1, oob_score = true }:fit(iris_X, iris_y)
    local path = os.tmpname()
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.matrix_near(m:predict_proba(iris_X), back:predict_proba(iris_X), 0)
    assert.equal(m.oob_score, back.oob_score)
  end)
end)
