-- luma.multiclass against scikit-learn 1.2.1's OneVsRestClassifier and
-- OneVsOneClassifier on iris (sklearn.datasets.load_iris(), equal to
-- luma.datasets.load("iris")), rows 1, 51, 71, 84, 120, 134, 150 (1-based).
-- The bases are GaussianNB() (scores from predict_proba) and
-- LinearDiscriminantAnalysis(solver="lsqr") (scores from
-- decision_function; Luma's LDA matches that solver, see
-- discriminant_spec.lua).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local MC = luma.multiclass
local M = luma.matrix

local X, y = luma.datasets.load("iris")
local Xt = X:take(M{ 1, 51, 71, 84, 120, 134, 150 })
local GNB = luma.naive_bayes.GaussianNB
local LDA = luma.discriminant.LinearDiscriminantAnalysis

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("OneVsRest", function()
  it("matches scikit-learn with a probabilistic base", function()
    local m = MC.OneVsRest{ estimator = GNB{} }:fit(X, y)
    assert.equal(3, #m.estimators)
    assert.matrix_near({ { 0 }, { 2 }, { 2 }, { 2 }, { 1 }, { 2 }, { 2 } }, m:predict(Xt))
    assert.matrix_near({
      { 9.9999999999999922e-001, 8.3208277817569841e-016, 1.4586360269732319e-023 },
      { 7.3595633511604120e-110, 4.4902053350461035e-001, 5.5097946649538965e-001 },
      { 7.7196250167317895e-131, 2.5193782853538843e-001, 7.4806217146461151e-001 },
      { 4.8659666987547595e-136, 4.9289357640224074e-001, 5.0710642359775926e-001 },
      { 4.0775991525102685e-126, 6.9366161280392813e-001, 3.0633838719607182e-001 },
      { 6.5912941074658939e-132, 4.9822285471135880e-001, 5.0177714528864115e-001 },
      { 1.3027660994759457e-146, 2.2990325543697324e-001, 7.7009674456302679e-001 } },
      m:predict_proba(Xt), 1e-9)
    fails("has no decision_function", function() m:decision_function(Xt) end)
  end)

  it("matches scikit-learn with a decision_function base", function()
    local m = MC.OneVsRest{ estimator = LDA{ solver = "lsqr" } }:fit(X, y)
    assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 1 }, { 1 }, { 1 }, { 2 } }, m:predict(Xt))
    assert.matrix_near({
      { 23.48142897066544, -2.230065119925632, -7.060360300662165 },
      { -13.579666747932833, -0.825925772741587, -0.8430413471911358 },
      { -19.355382935774166, -1.7611926324496494, 2.3590500699242583 },
      { -27.705549941374812, 0.590003458336632, -0.1775312065602126 } },
      m:decision_function(Xt):sub(1, 4, 1, 3), 1e-9)
    assert.matrix_near({
      { 9.1079603106867224e-01, 8.8422749670236389e-02, 7.8121926109136640e-04 },
      { 2.0911272233276535e-06, 5.0298259001730861e-01, 4.9701531885546812e-01 } },
      m:predict_proba(Xt):sub(1, 2, 1, 3), 1e-9)
    -- sklearn OneVsRestClassifier(LinearDiscriminantAnalysis()).score(X, y)
    assert.near(0.8933333333333333, m:score(X, y), 1e-15)
  end)

  it("fits one estimator for two classes and keeps the labels", function()
    local keep = y:gt(0)
    local Xb, yb = X:select(keep, 1), y:select(keep, 1) * 10 -- labels 10, 20
    local m = MC.OneVsRest{ estimator = LDA{ solver = "lsqr" } }:fit(Xb, yb)
    assert.equal(1, #m.estimators)
    local single = LDA{ solver = "lsqr" }:fit(Xb, yb)
    assert.matrix_near(single:predict(Xt), m:predict(Xt))
    assert.matrix_near(single:predict_proba(Xt), m:predict_proba(Xt), 1e-12)
  end)

  it("rejects a base that is not a classifier, and bad labels", function()
    local Reg = estimator.class{
      name = "test.Mean", kind = "regressor", doc = "mean",
      fit = function(self, _, yy) self.m = yy:mean() end,
      predict = function(self, Z) return luma.full(Z:rows(), 1, self.m) end,
    }
    fails("OneVsRest: estimator must be a classifier, got the regressor test.Mean",
      function() MC.OneVsRest{ estimator = Reg{} }:fit(X, y) end)
    fails("the parameter estimator (a binary classifier) is not set",
      function() MC.OneVsRest{}:fit(X, y) end)
    fails("parameter 'estimator' must be a estimator", function() MC.OneVsRest{ estimator = 3 } end)
    fails("needs at least 2 classes", function() MC.OneVsRest{ estimator = GNB{} }:fit(X, luma.ones(150, 1)) end)
    fails("X has 150 rows but y has 2", function() MC.OneVsRest{ estimator = GNB{} }:fit(X, M{ 1, 2 }) end)
    local bad = X:copy()
    bad:set(1, 1, 0 / 0)
    fails("X has a non-finite element", function() MC.OneVsRest{ estimator = GNB{} }:fit(bad, y) end)
  end)
end)

describe("OneVsOne", function()
  it("votes like scikit-learn with a decision_function base", function()
    local m = MC.OneVsOne{ estimator = LDA{ solver = "lsqr" } }:fit(X, y)
    assert.equal(3, #m.pairs)
    assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 2 }, { 2 }, { 1 }, { 2 } }, m:predict(Xt))
    assert.matrix_near({
      { 2.331302481232571, 0.6886500541638162, -0.331110692533753 },
      { -0.32960782437004066, 2.3281289064201296, 1.3207191093435529 },
      { -0.331022066158161, 1.3287373171437977, 2.3287479306047496 },
      { -0.3312714821018106, 1.3291504347695273, 2.3293161780428258 },
      { -0.33130266444328127, 1.3293000388709033, 2.329293130089326 },
      { -0.331048965734169, 2.3289868520313126, 1.3285869504874974 },
      { -0.33135150062314905, 1.329145499716214, 2.329613046947708 } },
      m:decision_function(Xt), 1e-9)
    assert.near(0.98, m:score(X, y), 1e-15)
  end)

  it("uses probabilities as confidences otherwise", function()
    local m = MC.OneVsOne{ estimator = GNB{} }:fit(X, y)
    assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 1 }, { 1 }, { 1 }, { 2 } }, m:predict(Xt))
    assert.matrix_near({
      { 2.0000000000000000e+00, 9.9999998253887901e-01, 1.7461121040515438e-08 },
      { -2.2222222222222221e-01, 2.1485626172423431e+00, 1.1815395936325039e+00 },
      { -2.2222222222222221e-01, 1.0446065706238752e+00, 2.2161895491713737e+00 } },
      m:decision_function(Xt):sub(1, 3, 1, 3), 1e-9)
    assert.near(0.96, m:score(X, y), 1e-15)
  end)

  it("rejects a base that is not a classifier", function()
    local Tr = estimator.class{
      name = "test.Scale", kind = "transformer", doc = "scale", requires_y = false,
      fit = function() end, transform = function(_, Z) return Z end,
    }
    fails("OneVsOne: estimator must be a classifier, got the transformer test.Scale",
      function() MC.OneVsOne{ estimator = Tr{} }:fit(X, y) end)
    fails("needs at least 2 classes", function() MC.OneVsOne{ estimator = GNB{} }:fit(X, luma.zeros(150, 1)) end)
  end)

  it("clones the base per sub-problem and exposes nested parameters", function()
    local base = GNB{ var_smoothing = 0.5 }
    local m = MC.OneVsOne{ estimator = base }:fit(X, y)
    assert.is_false(base:is_fitted())
    assert.are_not.equal(m.pairs[1][3], m.pairs[2][3])
    assert.equal(0.5, m.pairs[3][3].params.var_smoothing)
    assert.equal(0.5, m:get_params().estimator__var_smoothing)
  end)
end)
