-- Probability outputs of the SVM classifiers (luma.svm.platt; notes 004 S20).
--
-- Reference values (Debian's python3-sklearn 1.2.1, /usr/bin/python3):
--   sklearn.calibration._sigmoid_calibration(d, l) (Platt's targets,
--     minimized by BFGS) for the 12 decision values d and 0/1 labels l below:
--     A = -0.59042406108707268, B = 0.013832226353082164
--   SVC(gamma=0.25, probability=True, random_state=s).fit(iris) for s = 0, 1:
--     predict_proba of rows 1, 51, 71, 84, 120, 134 (1-based); both seeds
--     agree with the row below to 0.03 (the internal folds are random, so
--     only this closeness can be asked of another implementation)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local svm = luma.svm
local platt = require("luma.svm.platt")
local M = luma.matrix

local X, y = luma.datasets.load("iris")
local rows = M{ 1, 51, 71, 84, 120, 134 }

describe("Platt scaling", function()
  it("fits the sigmoid of Platt 1999 by Newton's method (Lin, Lin & Weng 2007)", function()
    local d = { -2.5, -1.2, -0.7, -0.1, 0.3, 0.4, 1.1, 1.9, 2.2, -0.4, 0.8, -1.6 }
    local l = { -1, -1, -1, 1, -1, 1, 1, 1, 1, -1, -1, 1 }
    local A, B = platt.sigmoid_train(d, l)
    assert.near(-0.59042406108707268, A, 1e-5)
    assert.near(0.013832226353082164, B, 1e-5)
    -- P(+1 | f) = 1 / (1 + exp(A f + B)), stable at both ends
    local p = platt.sigmoid_predict(M{ -1000, 0, 1000 }, A, B)
    assert.matrix_near({ { 0 }, { 1 / (1 + math.exp(B)) }, { 1 } }, p, 1e-12)
  end)

  it("couples pairwise probabilities (Wu, Lin & Weng 2004, method 2)", function()
    -- consistent pairwise probabilities r_ij = p_i / (p_i + p_j) give back p
    local p = { 0.5, 0.3, 0.2 }
    local logit = {}
    for i = 1, 2 do
      for j = i + 1, 3 do
        local r = p[i] / (p[i] + p[j])
        logit[#logit + 1] = math.log(r / (1 - r))
      end
    end
    -- sigmoid_predict(f, A = -1, B = 0) = 1 / (1 + exp(-f)): f is the logit
    local P = platt.proba(M{ logit }, luma.full(3, 1, -1), luma.zeros(3, 1), 3)
    assert.matrix_near({ p }, P, 2e-3)
  end)

  it("gives SVC probabilities close to scikit-learn's, reproducibly", function()
    local m = svm.SVC{ gamma = 0.25, probability = true, seed = 0 }:fit(X, y)
    local P = m:predict_proba(X:take(rows))
    assert.matrix_near({
      { 0.97142506, 0.01415166, 0.01442328 },
      { 0.01511314, 0.95522557, 0.02966129 },
      { 0.01197592, 0.48965599, 0.49836809 },
      { 0.00965035, 0.17585445, 0.81449520 },
      { 0.01227824, 0.24703915, 0.74068261 },
      { 0.01139375, 0.39074535, 0.59786090 } }, P, 0.03)
    assert.matrix_near(luma.ones(6, 1), P:sum(2), 1e-12)
    local again = svm.SVC{ gamma = 0.25, probability = true, seed = 0 }:fit(X, y)
    assert.matrix_near(P, again:predict_proba(X:take(rows)), 0)
    local other = svm.SVC{ gamma = 0.25, probability = true, seed = 1 }:fit(X, y)
    assert.is_true((other.probB - m.probB):abs():max() > 0)
    -- probability = false: no predict_proba
    local ok, err = pcall(function() svm.SVC{}:fit(X, y):predict_proba(X) end)
    assert.is_false(ok)
    assert.truthy(err:find("SVC: predict_proba needs probability = true at fit", 1, true))
  end)

  it("gives two-class probabilities that follow the decision value", function()
    local Xb, yb = X:sub(51, 150, nil, nil), y:sub(51, 150, nil, nil)
    local m = svm.NuSVC{ gamma = 0.25, probability = true, seed = 3 }:fit(Xb, yb)
    local P = m:predict_proba(Xb)
    local d = m:decision_function(Xb)
    -- P(first class) = the sigmoid of decisions positive for the first
    assert.matrix_near(platt.sigmoid_predict(-d, m.probA:get(1, 1), m.probB:get(1, 1)), P:col(1), 1e-12)
    assert.is_true(m.probA:get(1, 1) < 0) -- larger first-class decisions, higher probability
  end)
end)
