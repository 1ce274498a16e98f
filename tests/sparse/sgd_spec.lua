-- SGDClassifier and SGDRegressor: against scikit-learn 1.2 on the same
-- data (tests/sparse/reference/sgd_sklearn.py; the sample orders come
-- from different generators, so the means over five seeds are compared:
-- accuracy within 0.02, coefficients by direction within a cosine of
-- 0.99 and by length within 15%), and sparse and dense X giving the same
-- model step for step.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse
local REF = dofile("tests/sparse/reference/sgd_sklearn.lua")

local n, d = 400, 12
local X = luma.zeros(n, d)
for i = 1, n do
  for j = 1, d do X:set(i, j, math.sin(0.37 * i + 0.71 * j + 0.013 * i * j)) end
end
local w_true = luma.zeros(d, 1)
for j = 1, d do w_true:set(j, 1, math.cos(1.3 * j)) end
local score = X * w_true
local y2 = score:gt(0) + 1
local y3 = score:gt(-0.5) + score:gt(0.5) + 1

describe("SGDClassifier and SGDRegressor against scikit-learn", function()
  it("reach scikit-learn's accuracy and coefficients for every loss and penalty", function()
    for _, case in ipairs({ { "binary", y2 }, { "three", y3 } }) do
      for _, loss in ipairs({ "hinge", "log_loss", "modified_huber" }) do
        for _, penalty in ipairs({ "l2", "l1", "elasticnet" }) do
          local ref = REF.classifier[case[1] .. " " .. loss .. " " .. penalty]
          local acc, coef = 0, nil
          for seed = 0, 4 do
            local m = luma.linear.SGDClassifier{ loss = loss, penalty = penalty, seed = seed }:fit(X, case[2])
            acc = acc + m:score(X, case[2]) / 5
            local c = m.coef:reshape(m.coef:rows() * m.coef:cols(), 1) / 5
            coef = coef and coef + c or c
          end
          local r = luma.matrix(ref.coef):reshape(#ref.coef, 1)
          local what = case[1] .. " " .. loss .. " " .. penalty
          assert.near(ref.accuracy, acc, 0.02, what)
          assert.is_true((coef:t() * r):get(1, 1) / (coef:norm() * r:norm()) > 0.99, what)
          assert.near(1, coef:norm() / r:norm(), 0.15, what)
        end
      end
    end
  end)

  it("SGDRegressor (invscaling, squared error) fits what scikit-learn fits", function()
    local y = score + 0.5
    local c, r2 = nil, 0
    for seed = 0, 4 do
      local m = luma.linear.SGDRegressor{ seed = seed }:fit(X, y)
      local v = luma.vstack{ m.coef, luma.matrix{ { m.intercept } } } / 5
      c = c and c + v or v
      r2 = r2 + m:score(X, y) / 5
    end
    assert.near(REF.regressor.r2, r2, 1e-3)
    assert.is_true((c - luma.matrix(REF.regressor.coef):reshape(d + 1, 1)):abs():max() < 0.005)
  end)
end)

describe("SGD on sparse X", function()
  local G = luma.random.Generator(12)
  local S = sparse.random(300, 40, 0.15, G):scale(3)
  local D = S:todense()
  local w = G:normal(40, 1)
  local ys = (D * w):gt(0.3) + (D * w):gt(1.5)

  it("gives the model of the dense X for every loss, penalty and schedule", function()
    for _, loss in ipairs({ "hinge", "log_loss", "modified_huber", "squared_error" }) do
      for _, penalty in ipairs({ "l2", "l1", "elasticnet", "none" }) do
        local opts = { loss = loss, penalty = penalty, seed = 3, max_iter = 50 }
        local a = luma.linear.SGDClassifier(opts):fit(S, ys)
        local b = luma.linear.SGDClassifier(opts):fit(D, ys)
        assert.is_true(a.coef == b.coef and a.intercept == b.intercept, loss .. " " .. penalty)
        assert.equal(b.n_iter, a.n_iter)
        assert.is_true(a:predict(S) == b:predict(D))
      end
    end
    for _, rate in ipairs({ "constant", "invscaling", "optimal" }) do
      local opts = { learning_rate = rate, eta0 = 0.01, seed = 4 }
      local yr = D * w + 1
      local a = luma.linear.SGDRegressor(opts):fit(S, yr)
      local b = luma.linear.SGDRegressor(opts):fit(D, yr)
      assert.is_true(a.coef == b.coef and a.intercept == b.intercept, rate)
      if rate ~= "optimal" then assert.is_true(a:score(S, yr) > 0.99, rate) end
    end
  end)

  it("gives probabilities for log_loss and modified_huber only", function()
    local m = luma.linear.SGDClassifier{ loss = "log_loss", seed = 1 }:fit(S, ys)
    local P = m:predict_proba(S)
    assert.is_true((P:sum(2) - 1):abs():max() < 1e-12)
    assert.error_matches(function() luma.linear.SGDClassifier{ seed = 1 }:fit(S, ys):predict_proba(S) end,
      "predict_proba needs loss \"log_loss\" or \"modified_huber\", not \"hinge\"")
    assert.error_matches(function() luma.linear.SGDRegressor{ learning_rate = "constant", eta0 = 0 }:fit(S, D:col(1)) end,
      "learning_rate \"constant\" needs eta0 > 0")
  end)
end)
