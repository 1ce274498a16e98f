-- luma.nn.CNNClassifier (issue 31, item 3): the estimator contract as
-- the MLP estimators' (tests/nn/mlp_spec.lua): accuracy on the bundled
-- digits, bit-identical refits from a seed, early stopping, progress,
-- save/load, clone, pipelines and grid search, and bad input at the
-- caller's line.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn

local digits_X, digits_y = luma.datasets.load("digits")
digits_X = digits_X / 16
local Xtr, Xte, ytr, yte = luma.model_selection.train_test_split(digits_X, digits_y,
  { test_size = 0.25, stratify = digits_y, seed = 0 })

-- a small network that trains in about a second
local function small(opts)
  local p = { image_shape = { 1, 8, 8 }, conv_channels = { 8 }, hidden_layer_sizes = { 32 }, max_iter = 12,
    batch_size = 32, learning_rate_init = 0.01, seed = 1 }
  for k, v in pairs(opts or {}) do p[k] = v end
  return nn.CNNClassifier(p)
end

describe("luma.nn.CNNClassifier", function()
  local m = small():fit(Xtr, ytr)

  it("learns the digits; probabilities sum to 1 and predict is their argmax", function()
    local acc = m:score(Xte, yte)
    assert.is_true(acc >= 0.97, "accuracy " .. acc)
    assert.are.equal(acc, luma.metrics.accuracy_score(yte, m:predict(Xte)))
    local P = m:predict_proba(Xte)
    assert.are.same({ Xte:rows(), 10 }, { P:shape() })
    assert.is_true((P:sum(2) - 1):abs():max() < 1e-12)
    assert.are.equal(0, (m.classes:take(P:argmax(2)) - m:predict(Xte)):abs():max())
    assert.are.same({ 1, 8, 8 }, m.input_shape)
    assert.are.equal(12, m.n_iter)
    assert.are.equal(12, #m.loss_curve)
    assert.is_true(m.loss_curve[12] < m.loss_curve[1] / 4, m.loss_curve[1] .. " -> " .. m.loss_curve[12])
  end)

  it("repeats a fit bit for bit from the same seed, and another seed differs", function()
    local again = small():fit(Xtr, ytr)
    assert.are.equal(0, (again:predict_proba(Xte) - m:predict_proba(Xte)):abs():max())
    local other = small({ seed = 2 }):fit(Xtr, ytr)
    assert.is_true((other:predict_proba(Xte) - m:predict_proba(Xte)):abs():max() > 1e-3)
  end)

  it("saves and loads, predicting the same (batch norm's running statistics included)", function()
    local bn = small({ batch_norm = true, dropout = 0.2, conv_dropout = 0.1, pooling = "avg", max_iter = 2 })
      :fit(Xtr, ytr)
    local path = os.tmpname()
    luma.save(bn, path)
    local back = luma.load(path)
    os.remove(path)
    assert.are.equal(0, (back:predict_proba(Xte) - bn:predict_proba(Xte)):abs():max())
    assert.is_true(back:predict(Xte):equal(bn:predict(Xte)))
    assert.are.same(bn:get_params(), back:get_params())
  end)

  it("clones unfitted with the same parameters; set_params changes them", function()
    local c = m:clone()
    assert.is_false(c:is_fitted())
    assert.are.same(m:get_params(), c:get_params())
    c:set_params({ conv_channels = { 4, 4 }, kernel_size = 5 })
    assert.are.same({ 4, 4 }, c.params.conv_channels)
    assert.are.same({ 8 }, m.params.conv_channels)
    c:fit(Xtr:sub(1, 200), ytr:sub(1, 200))
    -- two 5 x 5 convolutions of 4 channels, each followed by 2 x 2 pooling: 8 -> 4 -> 2
    assert.are.same({ 4, 25 }, { c.state["1.weight"]:shape() })
    assert.are.same({ 4, 100 }, { c.state["4.weight"]:shape() })
    assert.are.same({ 32, 16 }, { c.state["7.weight"]:shape() })
  end)

  it("works in a pipeline and a grid search", function()
    local pipe = luma.pipeline.make_pipeline(luma.preprocessing.MinMaxScaler{}, small())
    local scores = luma.model_selection.cross_val_score(pipe, digits_X:sub(1, 400), digits_y:sub(1, 400), { cv = 2 })
    assert.is_true(scores:mean() > 0.8, tostring(scores))
    local search = luma.model_selection.GridSearchCV{ estimator = small({ max_iter = 3 }),
      param_grid = { learning_rate_init = { 1e-5, 0.01 } }, cv = 2 }:fit(digits_X:sub(1, 300), digits_y:sub(1, 300))
    -- a thousandth of the rate barely moves the starting weights in 3 epochs
    assert.are.equal(0.01, search.best_params.learning_rate_init)
  end)

  it("stops early on the validation accuracy and keeps the best weights", function()
    local e = small({ early_stopping = true, n_iter_no_change = 3, max_iter = 60 }):fit(Xtr, ytr)
    assert.is_true(e.n_iter < 60)
    assert.are.equal(e.n_iter, #e.validation_scores)
    local best = -math.huge
    for _, s in ipairs(e.validation_scores) do best = math.max(best, s) end
    assert.are.equal(best, e.best_validation_score)
    assert.is_true(best > 0.95, "best validation accuracy " .. best)
  end)

  it("prints its progress when verbose", function()
    local lines, saved = {}, _G.print
    _G.print = function(s) lines[#lines + 1] = s end
    local ok, err = pcall(function() small({ max_iter = 2, verbose = 1 }):fit(Xtr, ytr) end)
    _G.print = saved
    assert.is_true(ok, tostring(err))
    assert.are.equal(2, #lines)
    assert.is_truthy(lines[2]:match("^Iteration 2, loss = %d%.%d+$"), lines[2])
  end)

  it("takes several channels: the image twice gives the same accuracy range", function()
    local X2 = luma.matrix.hstack{ Xtr, Xtr:mul(Xtr) }
    local two = small({ image_shape = { 2, 8, 8 }, max_iter = 4 }):fit(X2, ytr)
    assert.are.same({ 8, 18 }, { two.state["1.weight"]:shape() })
    assert.is_true(two:score(luma.matrix.hstack{ Xte, Xte:mul(Xte) }, yte) > 0.9)
  end)

  -- the error must name the spec's own line
  local function at_line(pattern, fn)
    local ok, err = pcall(fn)
    assert.is_false(ok)
    err = tostring(err)
    assert.is_truthy(err:match(pattern), err)
    local line = debug.getinfo(fn, "S").linedefined
    assert.is_truthy(err:match("cnn_spec%.lua:" .. line .. ":"), "not at the caller's line: " .. err)
  end

  it("bad input: image shapes, columns, labels, parameters", function()
    at_line("CNNClassifier: X has 63 columns but image_shape {1, 8, 8} needs C x H x W = 64",
      function() local r = small():fit(Xtr:sub(1, 50, 1, 63), ytr:sub(1, 50)) return r end)
    at_line("CNNClassifier: X has 63 columns, which is not one square image; give image_shape = {C, H, W}",
      function() local r = nn.CNNClassifier{ max_iter = 1 }:fit(Xtr:sub(1, 50, 1, 63), ytr:sub(1, 50)) return r end)
    at_line("CNNClassifier needs at least two classes",
      function() local r = small():fit(Xtr:sub(1, 5), luma.zeros(5, 1)) return r end)
    at_line("image_shape", function() local r = nn.CNNClassifier{ image_shape = { 1, 8 } } return r end)
    at_line("conv_channels", function() local r = nn.CNNClassifier{ conv_channels = { 0 } } return r end)
    at_line("X has 63 columns",
      function() local r = m:predict(Xte:sub(1, 3, 1, 63)) return r end)
  end)
end)
