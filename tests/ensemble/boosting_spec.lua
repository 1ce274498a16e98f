-- luma.ensemble boosting: AdaBoost (the notes' discrete algorithm, SAMME,
-- SAMME.R, R2) and gradient boosting against scikit-learn and the notes.
--
-- Reference values: scikit-learn 1.2.1 via tests/ensemble/sklearn_reference.py
-- (output in tests/ensemble/sklearn_reference.lua): AdaBoost with stumps on
-- breast_cancer (staged training errors, members, weights, errors,
-- importances, probabilities), gradient boosting on diabetes, iris and
-- breast_cancer (training predictions and the per-stage training loss).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local ref = require("ensemble.sklearn_reference")
local E = luma.ensemble
local M = luma.matrix

local bc_X, bc_y = luma.datasets.load("breast_cancer")
local iris_X, iris_y = luma.datasets.load("iris")
local diab_X, diab_y = luma.datasets.load("diabetes")

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("AdaBoostClassifier", function()
  for _, algorithm in ipairs({ "SAMME", "SAMME.R" }) do
    it("matches scikit-learn's " .. algorithm .. " with stumps on breast_cancer", function()
      local r = ref[algorithm]
      local m = E.AdaBoostClassifier{ n_estimators = 30, algorithm = algorithm }:fit(bc_X, bc_y)
      local errors = (1 - m:staged_score(bc_X, bc_y)) * 569
      assert.matrix_near(M(r.training_errors), errors, 1e-9)
      for i, est in ipairs(m.estimators) do
        assert.equal(r.features[i], est.tree.feature:get(1, 1))
      end
      assert.matrix_near(M(r.weights), m.estimator_weights, 1e-10)
      assert.matrix_near(M(r.errors), m.estimator_errors, 1e-10)
      assert.matrix_near(M(r.importances), m.feature_importances, 1e-10)
      assert.matrix_near(r.proba, m:predict_proba(bc_X:sub(1, 5, 1, 30)), 1e-10)
    end)
  end

  it("runs the notes' discrete AdaBoost, whose training error is below prod Z_t", function()
    local m = E.AdaBoostClassifier{ n_estimators = 30, algorithm = "discrete" }:fit(bc_X, bc_y)
    local t = 0
    for pred in m:staged_predict(bc_X) do
      t = t + 1
      local eps = m.estimator_errors:get(t, 1)
      -- alpha = 1/2 ln((1 - eps)/eps) and Z_t = 2 sqrt(eps (1 - eps)) (notes 000 Ch. 9)
      assert.near(0.5 * math.log((1 - eps) / eps), m.estimator_weights:get(t, 1), 1e-12)
      assert.near(2 * math.sqrt(eps * (1 - eps)), m.Z:get(t, 1), 1e-12)
      local training_error = pred:ne(bc_y):mean()
      assert.is_true(training_error <= m.training_error_bound:get(t, 1))
    end
    assert.equal(30, t)
    -- the same classifier as SAMME with two classes (alpha halved)
    local samme = E.AdaBoostClassifier{ n_estimators = 30, algorithm = "SAMME" }:fit(bc_X, bc_y)
    assert.matrix_near(samme:predict(bc_X), m:predict(bc_X), 0)
    assert.matrix_near(samme.estimator_weights / 2, m.estimator_weights, 1e-12)
    -- f = sum alpha_t h_t
    local f = luma.zeros(569, 1)
    for i, est in ipairs(m.estimators) do
      f = f + (est:predict(bc_X) * 2 - 1) * m.estimator_weights:get(i, 1)
    end
    assert.matrix_near(f, m:decision_function(bc_X), 1e-12)
  end)

  it("reweights like the notes' worked example (notes 002 D8)", function()
    -- err = 0.25: alpha = ln 3 in notes 002's form, twice the 1/2 ln 3 used here;
    -- the misclassified quarter ends with half the total weight (x 3 relative)
    local X = M{ 1, 2, 3, 4 }
    local y = M{ 0, 1, 1, 0 } -- every stump misses one row of four
    local m = E.AdaBoostClassifier{ n_estimators = 1, algorithm = "discrete" }:fit(X, y)
    assert.near(0.25, m.estimator_errors:get(1, 1), 1e-15)
    assert.near(0.5 * math.log(3), m.estimator_weights:get(1, 1), 1e-15)
    assert.near(2 * math.sqrt(0.25 * 0.75), m.Z:get(1, 1), 1e-15)
  end)

  it("ranks features by the stumps' alphas (notes 002 E7)", function()
    local m = E.AdaBoostClassifier{ n_estimators = 20, algorithm = "SAMME" }:fit(bc_X, bc_y)
    local share = luma.zeros(30, 1)
    for i, est in ipairs(m.estimators) do
      local f = est.tree.feature:get(1, 1)
      share:set(f, 1, share:get(f, 1) + m.estimator_weights:get(i, 1))
    end
    assert.matrix_near(share / m.estimator_weights:sum(), m.feature_importances, 1e-12)
  end)

  it("handles several classes and label values", function()
    local y = iris_y * 10 - 3
    local m = E.AdaBoostClassifier{ n_estimators = 10, algorithm = "SAMME" }:fit(iris_X, y)
    assert.matrix_near({ { -3 }, { 7 }, { 17 } }, m.classes, 0)
    assert.is_true(m:score(iris_X, y) > 0.9)
    local P = m:predict_proba(iris_X)
    assert.matrix_near(luma.ones(150, 1), P:sum(2), 1e-12)
    local last
    for p in m:staged_predict_proba(iris_X) do last = p end
    assert.matrix_near(P, last, 1e-15)
  end)
end)

describe("AdaBoostRegressor", function()
  it("predicts the weighted median of its members (AdaBoost.R2)", function()
    local m = E.AdaBoostRegressor{ n_estimators = 10, seed = 3 }:fit(diab_X, diab_y)
    local P = luma.zeros(442, #m.estimators)
    for i, est in ipairs(m.estimators) do P:col(i):assign(est:predict(diab_X)) end
    local w = m.estimator_weights
    local pred = m:predict(diab_X)
    for _, row in ipairs({ 1, 50, 300 }) do
      -- the smallest member prediction whose cumulative weight reaches half
      local order = P:row(row):t():argsort()
      local run, want = 0, nil
      for k = 1, order:rows() do
        run = run + w:get(order:get(k, 1), 1)
        if not want and run >= w:sum() / 2 then want = P:get(row, order:get(k, 1)) end
      end
      assert.near(want, pred:get(row, 1), 1e-12)
    end
    for i = 1, w:rows() do
      local err = m.estimator_errors:get(i, 1)
      assert.near(math.log((1 - err) / err), w:get(i, 1), 1e-12) -- ln(1/beta)
    end
    assert.is_true(m:score(diab_X, diab_y) > 0.5)
    local again = E.AdaBoostRegressor{ n_estimators = 10, seed = 3 }:fit(diab_X, diab_y)
    assert.matrix_near(pred, again:predict(diab_X), 0)
  end)
end)

describe("GradientBoostingRegressor", function()
  it("matches scikit-learn's training predictions to 1e-10 with the squared error", function()
    local r = ref.gbr_squared_error
    local m = E.GradientBoostingRegressor{ n_estimators = 20 }:fit(diab_X, diab_y)
    assert.matrix_near(M(r.predict), m:predict(diab_X), 1e-10)
    assert.matrix_near(M(r.train_score), m.train_score, 1e-10)
    local d = ref.gbr_depth2
    local m2 = E.GradientBoostingRegressor{ n_estimators = 50, max_depth = 2, learning_rate = 0.3,
      criterion = "squared_error" }:fit(diab_X, diab_y)
    assert.matrix_near(M(d.predict), m2:predict(diab_X), 1e-10)
    -- importances: the normalized mean of the trees' impurity decreases (two-sample
    -- nodes split equally well on several features, so the feature credited can differ
    -- from scikit-learn's while every prediction agrees)
    local total = luma.zeros(10, 1)
    for _, stage in ipairs(m2.estimators) do
      total = total + require("luma.tree.native").importances(stage[1].tree)
    end
    assert.matrix_near(total / total:sum(), m2.feature_importances, 1e-12)
  end)

  it("matches scikit-learn with the Huber, absolute and quantile losses", function()
    for _, loss in ipairs({ "huber", "absolute_error", "quantile" }) do
      local r = ref["gbr_" .. loss]
      local m = E.GradientBoostingRegressor{ n_estimators = 20, loss = loss }:fit(diab_X, diab_y)
      assert.matrix_near(M(r.predict), m:predict(diab_X), 1e-9)
      assert.matrix_near(M(r.train_score), m.train_score, 1e-9)
    end
  end)

  it("fits residuals stage by stage (notes 000 §9.3.3)", function()
    local m = E.GradientBoostingRegressor{ n_estimators = 5, learning_rate = 0.5 }:fit(diab_X, diab_y)
    -- f0 = mean(y); f_t = f_{t-1} + 0.5 h_t where h_t fits y - f_{t-1}
    local f = luma.full(442, 1, diab_y:mean())
    local t = 0
    for staged in m:staged_predict(diab_X) do
      t = t + 1
      local h = m.estimators[t][1]
      local refit = luma.tree.DecisionTreeRegressor{ max_depth = 3, criterion = "friedman_mse" }
        :fit(diab_X, diab_y - f)
      assert.matrix_near(refit:predict(diab_X), h:predict(diab_X), 1e-9)
      f = f + h:predict(diab_X) * 0.5
      assert.matrix_near(f, staged, 1e-10)
    end
    assert.matrix_near(f, m:predict(diab_X), 1e-10)
  end)

  it("subsamples reproducibly and stops early on a validation fraction", function()
    local a = E.GradientBoostingRegressor{ subsample = 0.5, seed = 4, n_estimators = 10 }:fit(diab_X, diab_y)
    local b = E.GradientBoostingRegressor{ subsample = 0.5, seed = 4, n_estimators = 10 }:fit(diab_X, diab_y)
    assert.matrix_near(a:predict(diab_X), b:predict(diab_X), 0)
    assert.equal(10, a.oob_improvement:rows())
    local root = a.estimators[1][1].tree
    assert.equal(221, root.weighted_n_node_samples:get(1, 1))
    local es = E.GradientBoostingRegressor{ n_estimators = 500, learning_rate = 0.5,
      n_iter_no_change = 3, seed = 1 }:fit(diab_X, diab_y)
    assert.is_true(es.n_estimators_fitted < 500)
  end)
end)

describe("GradientBoostingClassifier", function()
  it("matches scikit-learn's multinomial deviance on iris", function()
    local r = ref.gbc_iris
    local m = E.GradientBoostingClassifier{ n_estimators = 20 }:fit(iris_X, iris_y)
    assert.matrix_near(r.proba, m:predict_proba(iris_X), 1e-10)
    assert.matrix_near(M(r.train_score), m.train_score, 1e-10)
    assert.equal(3, #m.estimators[1])
  end)

  it("matches scikit-learn's binomial deviance and exponential loss", function()
    for _, loss in ipairs({ "log_loss", "exponential" }) do
      local r = ref["gbc_" .. loss]
      local m = E.GradientBoostingClassifier{ n_estimators = 20, loss = loss }:fit(bc_X, bc_y)
      assert.matrix_near(M(r.decision), m:decision_function(bc_X), 1e-9)
      assert.matrix_near(M(r.train_score), m.train_score, 1e-9)
      local P = m:predict_proba(bc_X)
      assert.matrix_near(m.classes:take(P:argmax(2)), m:predict(bc_X), 0)
    end
  end)

  it("gives staged predictions ending in the final ones", function()
    local m = E.GradientBoostingClassifier{ n_estimators = 8 }:fit(iris_X, iris_y)
    local count, last = 0, nil
    for p in m:staged_predict(iris_X) do count, last = count + 1, p end
    assert.equal(8, count)
    assert.matrix_near(m:predict(iris_X), last, 0)
  end)
end)

describe("boosting bad input", function()
  it("gives clear errors", function()
    fails("algorithm \"discrete\" is for two classes (y has 3)", function()
      E.AdaBoostClassifier{ algorithm = "discrete" }:fit(iris_X, iris_y)
    end)
    fails("loss \"exponential\" is for two classes (y has 3)", function()
      E.GradientBoostingClassifier{ loss = "exponential" }:fit(iris_X, iris_y)
    end)
    fails("needs at least two classes", function()
      E.AdaBoostClassifier{}:fit(iris_X, luma.zeros(150, 1))
    end)
    fails("sample_weight sums to 0", function()
      E.AdaBoostClassifier{}:fit(iris_X, iris_y, luma.zeros(150, 1))
    end)
    local X = iris_X:copy()
    X:set(2, 2, 0 / 0)
    fails("HistGradientBoostingClassifier/Regressor", function()
      E.GradientBoostingClassifier{}:fit(X, iris_y)
    end)
    fails("parameter 'subsample' must be a number > 0 and <= 1", function()
      E.GradientBoostingRegressor{ subsample = 0 }
    end)
    local m = E.GradientBoostingRegressor{ n_estimators = 2 }:fit(diab_X, diab_y)
    fails("X has 3 columns but luma.ensemble.GradientBoostingRegressor was fitted on 10", function()
      m:predict(diab_X:sub(1, 4, 1, 3))
    end)
    fails("staged_predict called before fit", function()
      E.GradientBoostingRegressor{}:staged_predict(diab_X)
    end)
  end)
end)
