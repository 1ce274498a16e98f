-- luma.linear.LogisticRegression.  References: scikit-learn 1.2.1 with
-- solver="newton-cg", tol=1e-12 (its default lbfgs stops on a relative
-- change of the objective with a gradient near 3e-4 on these data, while
-- newton-cg reaches 3e-9; we checked the gradients of both in NumPy):
--   Xs = StandardScaler().fit_transform(load_breast_cancer().data)
--   LogisticRegression(tol=1e-12, max_iter=100000, solver="newton-cg").fit(Xs, y)
--   ... (C=0.05, class_weight="balanced"), (C=0.3) with sample_weight =
--   np.linspace(0.5, 2, n); load_iris with multi_class "multinomial"/"ovr".
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local L = luma.linear

local Xbc, ybc = luma.datasets.load("breast_cancer")
Xbc = luma.preprocessing.StandardScaler{}:fit_transform(Xbc)
local Xir, yir = luma.datasets.load("iris")

local function pick(m, rows) return m:take(rows):t() end

describe("luma.linear.LogisticRegression (binary)", function()
  it("matches scikit-learn with lbfgs and newton (IRLS)", function()
    for _, solver in ipairs{ "lbfgs", "newton" } do
      local m = L.LogisticRegression{ solver = solver, tol = 1e-10, max_iter = 1000 }:fit(Xbc, ybc)
      assert.matrix_near({ { -0.363092532433696, -0.3876754427738266, -0.47981890815409145 } },
        pick(m.coef, { 1, 2, 30 }), 1e-6)
      assert.near(0.2145027180013892, m.intercept, 1e-6)
      local P = m:predict_proba(Xbc:sub(1, 2))
      assert.near(1.2077509598869387e-09, P:get(1, 2), 1e-6 * 1.2e-9)
      assert.near(3.2004393422338362e-05, P:get(2, 2), 1e-6 * 3.2e-5)
      assert.matrix_near(luma.ones(2, 1), P:sum(2), 1e-15)
    end
  end)

  it("weights classes and samples like scikit-learn", function()
    local b = L.LogisticRegression{ C = 0.05, class_weight = "balanced", tol = 1e-10 }:fit(Xbc, ybc)
    assert.matrix_near({ { -0.3461245879189933, -0.35643320339482265, -0.11904472589620563 } },
      pick(b.coef, { 1, 2, 30 }), 1e-6)
    assert.near(0.20444683111363016, b.intercept, 1e-6)
    local w = luma.linspace(0.5, 2, Xbc:rows())
    local s = L.LogisticRegression{ C = 0.3, tol = 1e-10 }:fit(Xbc, ybc, w)
    assert.matrix_near({ { -0.45831713732824886, -0.37753882041450193, -0.1474699805454251 } },
      pick(s.coef, { 1, 2, 30 }), 1e-6)
    assert.near(0.6653761657983169, s.intercept, 1e-6)
    -- a class_weight table equals the same weights given per sample
    local t = L.LogisticRegression{ class_weight = { [0] = 3, [1] = 0.5 }, tol = 1e-10 }:fit(Xbc, ybc)
    local per_sample = ybc:eq(0) * 2.5 + 0.5
    local u = L.LogisticRegression{ tol = 1e-10 }:fit(Xbc, ybc, per_sample)
    assert.matrix_near(u.coef, t.coef, 1e-8)
  end)

  it("keeps the labels and decides at a zero score", function()
    local y = ybc * 10 + 5 -- labels 5 and 15
    local m = L.LogisticRegression{}:fit(Xbc, y)
    assert.matrix_near({ { 5 }, { 15 } }, m.classes)
    local pred, scores = m:predict(Xbc), m:decision_function(Xbc)
    assert.matrix_near(scores:gt(0) * 10 + 5, pred)
    assert.is_true(m:score(Xbc, y) > 0.98)
  end)
end)

describe("luma.linear.LogisticRegression (several classes)", function()
  it("fits the multinomial model like scikit-learn (lbfgs and newton)", function()
    for _, solver in ipairs{ "lbfgs", "newton" } do
      local m = L.LogisticRegression{ solver = solver, tol = 1e-10, max_iter = 1000 }:fit(Xir, yir)
      assert.matrix_near({
        { -0.4235099200066846, 0.9673505795651716, -2.5171523782095693, -1.079336647105116 },
        { 0.5344615089526645, -0.32158785519827604, -0.20639207102563345, -0.9442984660365903 },
        { -0.11095158894605452, -0.6457627243669007, 2.723544449235181, 2.023635113141689 },
      }, m.coef:t(), 1e-6)
      assert.matrix_near({ { 9.849568050459212, 2.237205632205556, -12.08677368266462 } }, m.intercept, 1e-6)
      assert.matrix_near({
        { 9.8158349487773722e-01, 1.8416490623595530e-02, 1.4498667355788389e-08 },
        { 5.5767016957240394e-02, 9.3776530883049691e-01, 6.4676742122628163e-03 },
        { 5.6081420096694872e-06, 2.3841391549358784e-02, 9.7615300030863161e-01 },
      }, m:predict_proba(Xir:take{ 1, 61, 121 }), 1e-5)
    end
  end)

  it("fits one-vs-rest like scikit-learn", function()
    local m = L.LogisticRegression{ multi_class = "ovr", tol = 1e-10, max_iter = 1000 }:fit(Xir, yir)
    assert.matrix_near({
      { -0.44502709548184816, 0.9000067925338069, -2.3235363189492513, -0.9734506810564216 },
      { -0.17931035108941226, -2.128649920080254, 0.6966734806966579, -1.2748065912560975 },
      { -0.39442692134849683, -0.5133297020710644, 2.9308643702085106, 2.4170647161074648 },
    }, m.coef:t(), 1e-6)
    assert.matrix_near({ { 6.690423621086398, 5.586215760727719, -14.431263897088327 } }, m.intercept, 1e-6)
    assert.matrix_near({ { 8.9680855913266877e-01, 1.0319036858666294e-01, 1.0722806682191717e-06 } },
      m:predict_proba(Xir:take{ 1 }), 1e-6)
  end)

  it("fits without an intercept", function()
    -- newton-cg reports non-convergence here at 1e-12; its answer agrees with
    -- Luma's two solvers to 1e-7
    for _, solver in ipairs{ "lbfgs", "newton" } do
      local m = L.LogisticRegression{ fit_intercept = false, solver = solver, tol = 1e-10, max_iter = 1000 }:fit(Xir, yir)
      assert.matrix_near({
        { 0.7744142708164768, 1.746928039346246, -2.34855534248918, -1.1124533112723227 },
        { 0.6233931814940045, -0.09419464888615064, -0.04478342644064173, -1.0217622894070386 },
        { -1.3978074523104673, -1.6527333904601185, 2.3933387689298327, 2.134215600679363 },
      }, m.coef:t(), 1e-6)
      assert.matrix_near(luma.zeros(1, 3), m.intercept)
    end
  end)
end)

describe("luma.linear.LogisticRegression with saga (l1 and elastic net)", function()
  -- references: scikit-learn's saga with tol=1e-12, max_iter=1000000 on
  -- the same standardised data
  it("matches scikit-learn's l1 and elastic-net fits", function()
    local m = L.LogisticRegression{ penalty = "l1", C = 0.1, solver = "saga", tol = 1e-10,
      max_iter = 100000, seed = 1 }:fit(Xbc, ybc)
    local expect = luma.zeros(30, 1)
    for j, v in pairs{ [8] = -0.5194787779051246, [11] = -0.3198604621716307,
      [21] = -2.249405751855136, [22] = -0.7354346559353772, [25] = -0.18170378152942468,
      [27] = -0.02554725540717682, [28] = -1.0953454239021034, [29] = -0.16285126610810283 } do
      expect:set(j, 1, v)
    end
    assert.matrix_near(expect, m.coef, 1e-6) -- the zeros are exact: the prox step sets them
    assert.near(0.6936478131330434, m.intercept, 1e-6)
    local e = L.LogisticRegression{ penalty = "elasticnet", l1_ratio = 0.5, C = 0.1, solver = "saga",
      tol = 1e-10, max_iter = 100000, seed = 1 }:fit(Xbc, ybc)
    assert.matrix_near({ { -0.3158408303910661, -0.4709502897584436, -0.6633392229991403 } },
      pick(e.coef, { 1, 8, 21 }), 1e-6)
    assert.near(0.5687837998481974, e.intercept, 1e-6)
  end)

  it("fits the multinomial l1 model like scikit-learn", function()
    local Xs = luma.preprocessing.StandardScaler{}:fit_transform(Xir)
    local m = L.LogisticRegression{ penalty = "l1", C = 0.5, solver = "saga", tol = 1e-10,
      max_iter = 100000, seed = 1 }:fit(Xs, yir)
    assert.matrix_near({ { 0, 0.6901358810736253, -4.029054866662097, 0 }, { 0, 0, 0, 0 },
      { 0, -0.25334197635432737, 2.3841425901496853, 4.061536123203221 } }, m.coef:t(), 1e-6)
    assert.matrix_near({ { -0.1046202829228358, 2.0887256335279782, -1.9841053506049584 } }, m.intercept, 1e-6)
  end)

  it("reaches the l2 optimum of lbfgs and repeats itself for a seed", function()
    local a = L.LogisticRegression{ tol = 1e-10, max_iter = 1000 }:fit(Xbc, ybc)
    local b = L.LogisticRegression{ solver = "saga", tol = 1e-9, max_iter = 100000, seed = 4 }:fit(Xbc, ybc)
    assert.matrix_near(a.coef, b.coef, 1e-5)
    local c = L.LogisticRegression{ solver = "saga", tol = 1e-9, max_iter = 100000, seed = 4 }:fit(Xbc, ybc)
    assert.matrix_near(b.coef, c.coef, 0)
  end)
end)

describe("luma.linear.LogisticRegression bad input", function()
  it("stops on separable data without a penalty, with a warning", function()
    local X = luma.matrix{ { -2 }, { -1 }, { 1 }, { 2 } }
    local y = luma.matrix{ 0, 0, 1, 1 }
    for _, solver in ipairs{ "lbfgs", "newton" } do
      local m
      local warnings = capture_warnings(function()
        m = L.LogisticRegression{ penalty = "none", solver = solver, max_iter = 30 }:fit(X, y)
      end)
      assert.truthy(warnings[#warnings]:find("the classes are separable", 1, true))
      assert.is_true(m.coef:get(1, 1) > 5) -- heading to infinity, stopped
      -- with a gradient tolerance it cannot meet, it stops at max_iter and says so
      warnings = capture_warnings(function()
        L.LogisticRegression{ penalty = "none", solver = solver, max_iter = 30, tol = 1e-300 }:fit(X, y)
      end)
      assert.truthy(warnings[1]:find("did not converge", 1, true))
    end
  end)

  it("names the problem", function()
    errors_with("y has a single class %(1%)", function()
      L.LogisticRegression{}:fit(Xbc, luma.ones(Xbc:rows(), 1))
    end)
    local Xn = Xbc:copy()
    Xn:set(3, 3, 0 / 0)
    errors_with("X has a non%-finite element, nan at row 3, column 3", function() L.LogisticRegression{}:fit(Xn, ybc) end)
    errors_with("X has 569 rows but y has 2", function() L.LogisticRegression{}:fit(Xbc, luma.matrix{ 0, 1 }) end)
    errors_with("C", function() L.LogisticRegression{ C = -1 } end)
    errors_with("C", function() L.LogisticRegression{ C = 0 } end)
    errors_with("solver", function() L.LogisticRegression{ solver = "sag" } end)
    errors_with("penalty", function() L.LogisticRegression{ penalty = "l3" } end)
    errors_with("class_weight names 7, which is not a class of y", function()
      L.LogisticRegression{ class_weight = { [7] = 2 } }:fit(Xbc, ybc)
    end)
    errors_with("sample_weight must be finite and >= 0", function()
      L.LogisticRegression{}:fit(Xbc, ybc, luma.full(Xbc:rows(), 1, -1))
    end)
    errors_with("y contains NaN", function() L.LogisticRegression{}:fit(Xbc, ybc * (0 / 0)) end)
    errors_with('penalty "l1" needs solver = "saga"', function()
      L.LogisticRegression{ penalty = "l1" }:fit(Xbc, ybc)
    end)
    errors_with('penalty "elasticnet" needs l1_ratio', function()
      L.LogisticRegression{ penalty = "elasticnet", solver = "saga" }:fit(Xbc, ybc)
    end)
    errors_with("l1_ratio", function() L.LogisticRegression{ l1_ratio = 2 } end)
    local warnings = capture_warnings(function()
      L.LogisticRegression{ solver = "saga", max_iter = 2, tol = 1e-12 }:fit(Xbc, ybc)
    end)
    assert.truthy(warnings[1]:find("(saga) did not converge in 2 epochs", 1, true))
  end)
end)
