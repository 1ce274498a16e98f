-- luma.nn.MLPClassifier and MLPRegressor (issue 30, item 5): the
-- objective and its gradients against scikit-learn 1.2.1's at the same
-- weights (tests/nn/reference/mlp_sklearn.py made the reference file),
-- accuracy on digits, the solvers, early stopping, partial_fit,
-- persistence and bad input.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn
local mlp = require("luma.nn.mlp")
local REFERENCE = dofile("tests/nn/reference/mlp_sklearn.lua")

local function max_relative(a, b)
  return (a - b):abs():div(b:abs() + 1e-300):max()
end

-- The reference script's data and weights (0-based formulas there).
local n, d, h = 6, 3, 4
local X = luma.zeros(n, d)
for i = 1, n do
  for j = 1, d do X:set(i, j, math.sin(1 + 3 * (i - 1) + (j - 1))) end
end
local function weights(rows, cols, shift)
  local W = luma.zeros(rows, cols)
  for a = 1, rows do
    for b = 1, cols do W:set(a, b, 0.5 * math.cos(shift + (a - 1) + 2 * (b - 1))) end
  end
  return W
end
local Y = {
  binary = luma.matrix{ 1, 0, 1, 1, 0, 0 },
  multiclass = luma.matrix{ 0, 2, 1, 1, 0, 2 },
  regression = luma.zeros(n, 2),
}
for i = 1, n do
  Y.regression:set(i, 1, math.cos(i - 1))
  Y.regression:set(i, 2, math.sin(2 * (i - 1)))
end

describe("MLP estimators", function()
  it("loss and gradients equal scikit-learn's at the same weights, every activation and output (1e-12)", function()
    assert.are.equal(12, #REFERENCE)
    for _, ref in ipairs(REFERENCE) do
      local cls = ref.kind == "regression" and nn.MLPRegressor or nn.MLPClassifier
      local est = cls{ hidden_layer_sizes = { h }, activation = ref.activation, alpha = 0.1,
        max_iter = 1, seed = 1 }
      est:fit(X, Y[ref.kind])
      est.coefs[1]:assign(weights(d, h, 0.0))
      est.coefs[2]:assign(weights(h, est.n_outputs, 1.0))
      est.intercepts[1]:assign(weights(1, h, 2.0))
      est.intercepts[2]:assign(weights(1, est.n_outputs, 3.0))
      local loss, cg, ig = mlp.loss_gradient(est, X, Y[ref.kind])
      local what = ref.activation .. " " .. ref.kind
      assert.is_true(math.abs(loss - ref.loss) <= 1e-12 * math.abs(ref.loss), what .. ": " .. loss .. " vs " .. ref.loss)
      for i = 1, 2 do
        assert.is_true(max_relative(cg[i], ref.coef_grads[i]) < 1e-10, what .. " coef_grads " .. i)
        assert.is_true(max_relative(ig[i], ref.intercept_grads[i]) < 1e-10, what .. " intercept_grads " .. i)
        assert.is_true((cg[i] - ref.coef_grads[i]):abs():max() < 1e-14, what .. " coef_grads " .. i)
      end
    end
  end)

  local digits_X, digits_y = luma.datasets.load("digits")
  digits_X = digits_X / 16
  local Xtr, Xte, ytr, yte = luma.model_selection.train_test_split(digits_X, digits_y,
    { test_size = 0.25, stratify = digits_y, seed = 0 })

  it("reaches at least 0.97 test accuracy on digits with the default settings (75/25 stratified)", function()
    local m = nn.MLPClassifier{ seed = 1 }:fit(Xtr, ytr)
    local acc = luma.metrics.accuracy_score(yte, m:predict(Xte))
    assert.is_true(acc >= 0.97, "accuracy " .. acc)
    -- the loss curve goes down and best_loss is its minimum
    assert.are.equal(m.n_iter, #m.loss_curve)
    assert.is_true(m.loss_curve[#m.loss_curve] < m.loss_curve[1] / 10)
    local lowest = math.huge
    for _, v in ipairs(m.loss_curve) do lowest = math.min(lowest, v) end
    assert.are.equal(lowest, m.best_loss)
    -- probabilities: rows sum to 1, and predict is their argmax
    local P = m:predict_proba(Xte)
    assert.is_true((P:sum(2) - 1):abs():max() < 1e-12)
    assert.are.equal(0, (m.classes:take(P:argmax(2)) - m:predict(Xte)):abs():max())
  end)

  it("the same seed repeats a fit bit for bit; lbfgs and sgd also learn digits", function()
    local a = nn.MLPClassifier{ hidden_layer_sizes = { 16 }, max_iter = 5, seed = 3 }:fit(Xtr, ytr)
    local b = nn.MLPClassifier{ hidden_layer_sizes = { 16 }, max_iter = 5, seed = 3 }:fit(Xtr, ytr)
    assert.are.equal(0, (a.coefs[1] - b.coefs[1]):abs():max())
    for _, solver in ipairs({ "lbfgs", "sgd" }) do
      local m = nn.MLPClassifier{ hidden_layer_sizes = { 32 }, solver = solver, learning_rate_init = 0.1,
        max_iter = 100, seed = 1 }:fit(Xtr, ytr)
      local acc = luma.metrics.accuracy_score(yte, m:predict(Xte))
      assert.is_true(acc >= 0.93, solver .. " accuracy " .. acc)
    end
  end)

  it("early stopping keeps the best validation score's weights and records the scores", function()
    local m = nn.MLPClassifier{ hidden_layer_sizes = { 16 }, early_stopping = true, learning_rate_init = 0.01,
      max_iter = 200, seed = 2 }:fit(Xtr, ytr)
    -- it stopped: 10 epochs without a better validation score (31 here)
    assert.is_true(m.n_iter < 200)
    assert.are.equal(m.n_iter, #m.validation_scores)
    local best = -math.huge
    for _, s in ipairs(m.validation_scores) do best = math.max(best, s) end
    assert.are.equal(best, m.best_validation_score)
    -- trained on 90% of the rows, scored on the other 10%: digits are learnt
    assert.is_true(best > 0.95, "best validation accuracy " .. best)
    assert.is_true(luma.metrics.accuracy_score(yte, m:predict(Xte)) > 0.9)
  end)

  it("partial_fit runs one epoch at a time and needs the classes first", function()
    local m = nn.MLPClassifier{ hidden_layer_sizes = { 16 }, seed = 1 }
    local classes = luma.arange(0, 9)
    for _ = 1, 5 do m:partial_fit(Xtr, ytr, classes) end
    assert.are.equal(5, m.n_iter)
    assert.are.equal(5, #m.loss_curve)
    assert.is_true(m.loss_curve[5] < m.loss_curve[1] - 0.1, m.loss_curve[1] .. " -> " .. m.loss_curve[5])
  end)

  it("the regressor fits a smooth function; dropout, batch_norm and label smoothing train too", function()
    local g = luma.random.Generator(4)
    local Xr = g:uniform(300, 2) * 2 - 1
    local yr = (Xr:col(1) * 3):sin() + Xr:col(2):mul(Xr:col(2))
    local r = nn.MLPRegressor{ hidden_layer_sizes = { 32, 32 }, activation = "tanh", solver = "lbfgs",
      max_iter = 500, seed = 1 }:fit(Xr, yr)
    assert.is_true(luma.metrics.r2_score(yr, r:predict(Xr)) > 0.99)
    local c = nn.MLPClassifier{ hidden_layer_sizes = { 32 }, dropout = 0.2, batch_norm = true,
      label_smoothing = 0.05, max_iter = 30, seed = 1 }:fit(Xtr, ytr)
    assert.is_true(luma.metrics.accuracy_score(yte, c:predict(Xte)) > 0.9)
  end)

  it("saves and loads, predicting the same (batch norm's running statistics included)", function()
    local m = nn.MLPClassifier{ hidden_layer_sizes = { 8 }, batch_norm = true, max_iter = 5, seed = 1 }
      :fit(Xtr, ytr)
    local path = os.tmpname()
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.are.equal(0, (back:predict_proba(Xte) - m:predict_proba(Xte)):abs():max())
  end)

  it("works in cross_val_score and a pipeline", function()
    local pipe = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{},
      nn.MLPClassifier{ hidden_layer_sizes = { 16 }, learning_rate_init = 0.01, max_iter = 50, seed = 1 })
    local scores = luma.model_selection.cross_val_score(pipe, digits_X:sub(1, 400), digits_y:sub(1, 400), { cv = 3 })
    assert.is_true(scores:mean() > 0.85, tostring(scores))
  end)

  it("bad input: layer sizes, unknown labels, feature counts", function()
    assert.has_error(function() nn.MLPClassifier{ hidden_layer_sizes = { 0 } }:fit(Xtr, ytr) end,
      "MLPClassifier: hidden_layer_sizes[1] must be a positive integer, got 0")
    local m = nn.MLPClassifier{ hidden_layer_sizes = { 4 }, max_iter = 1, seed = 1 }:fit(Xtr, ytr)
    assert.has_error(function() m:predict(Xte:sub(1, 3, 1, 10)) end)
    assert.has_error(function() m:partial_fit(Xtr:sub(1, 5), luma.matrix{ 1, 2, 3, 4, 42 }) end,
      "MLPClassifier: label 42 (row 5) is not one of the classes")
    assert.has_error(function() nn.MLPRegressor{ solver = "lbfgs", max_iter = 1 }:fit(Xtr, Xtr:col(1)):partial_fit(Xtr, Xtr:col(1)) end,
      "MLPRegressor: partial_fit needs solver \"adam\" or \"sgd\"")
  end)

  it("stops on a NaN loss naming the epoch and the batch", function()
    -- squared errors of 1e150 overflow at once; with a huge rate the
    -- weights follow to inf, and inf - inf is NaN by the third batch
    local g = luma.random.Generator(1)
    local X = g:normal(50, 3)
    assert.has_error(function()
      nn.MLPRegressor{ hidden_layer_sizes = { 5 }, solver = "sgd", learning_rate_init = 1e6, max_iter = 50,
        batch_size = 10, seed = 1 }:fit(X, X:col(1) * 1e150)
    end, "MLPRegressor: the loss became NaN at epoch 1, batch starting at row 21; lower "
      .. "learning_rate_init or scale X")
  end)
end)
