-- luma.nn.SequenceClassifier and SequenceRegressor (lua/luma/nn/sequence.lua):
-- what they learn, the layout of X and lengths, the estimator contract
-- (pipelines, grid search, get/set_params, luma.save) and bad input.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local nn = luma.nn

-- n sequences of T steps of 2 features; the first feature's running sum
-- is the signal, the second noise.  Targets: the sum over each row's
-- steps (its first `lengths` steps when given).
local function data(seed, n, T, lengths)
  local g = luma.random.Generator(seed)
  local X = g:normal(n, 2 * T)
  local s = luma.zeros(n, 1)
  for i = 1, n do
    local total = 0
    for t = 1, lengths and lengths[i] or T do total = total + X:get(i, 2 * t - 1) end
    s:set(i, 1, total)
  end
  return X, s
end

local T = 8
local Xtr, str = data(1, 300, T)
local Xte, ste = data(2, 200, T)

describe("sequence estimators", function()
  it("learn the sign and the value of a sum over the steps", function()
    -- a sum of 8 standard normals is the simplest recurrent memory task: a
    -- linear model on all 16 columns solves it exactly, so the encoder must
    -- get close (the classes are balanced: chance is 0.5)
    local clf = nn.SequenceClassifier{ n_features_per_step = 2, hidden_size = 16, max_iter = 30,
      seed = 1 }:fit(Xtr, str:gt(0))
    assert.is_true(clf:score(Xte, ste:gt(0)) > 0.85)
    local P = clf:predict_proba(Xte)
    assert.are.equal(2, P:cols())
    assert.is_true((P:sum(2) - 1):abs():max() < 1e-12)
    assert.are.equal(0, (clf:predict(Xte) - P:argmax(2):eq(2)):abs():max())
    for _, cell in ipairs{ "lstm", "gru", "rnn" } do
      local reg = nn.SequenceRegressor{ n_features_per_step = 2, hidden_size = 16, max_iter = 30,
        cell = cell, seed = 1 }:fit(Xtr, str)
      assert.is_true(reg:score(Xte, ste) > 0.9, cell)
    end
  end)

  it("read X as T blocks of n_features_per_step columns and head on the final state", function()
    local reg = nn.SequenceRegressor{ n_features_per_step = 2, hidden_size = 5, num_layers = 2,
      bidirectional = true, cell = "gru", max_iter = 2, seed = 3 }:fit(Xtr, str)
    -- the same network by hand from the fitted state: steps are column
    -- blocks, the head takes the last layer's forward and reverse h_n
    local gru = nn.GRU(2, 5, { num_layers = 2, bidirectional = true })
    gru:load_state_dict(reg.state)
    gru:evaluate()
    local xs = {}
    for t = 1, T do xs[t] = Xte:sub(nil, nil, 2 * t - 1, 2 * t) end
    local _, h_n = gru(xs)
    local expected = luma.hstack { h_n[3].value, h_n[4].value } * reg.coef + reg.intercept
    assert.is_true((reg:predict(Xte) - expected):abs():max() < 1e-12)
    assert.are.equal(T, reg.n_steps)
  end)

  it("take each row's state at its own length, ignoring the padding", function()
    local lengths = {}
    for i = 1, 300 do lengths[i] = 3 + i % 6 end
    local X, s = data(4, 300, T, lengths)
    for _, bidirectional in ipairs{ false, true } do
      local reg = nn.SequenceRegressor{ n_features_per_step = 2, hidden_size = 16, max_iter = 30,
        bidirectional = bidirectional, seed = 1 }:fit(X, s, lengths)
      -- garbage in the padding changes nothing
      local noisy = X:copy()
      for i = 1, 300 do
        if lengths[i] < T then
          noisy:sub(i, i, 2 * lengths[i] + 1, 2 * T):assign(luma.full(1, 2 * (T - lengths[i]), 1e3))
        end
      end
      local same = reg:predict(noisy, lengths)
      assert.are.equal(0, (same - reg:predict(X, lengths)):abs():max())
      assert.is_true(reg:score(X, s, lengths) > 0.9)
      -- the lengths also come as a column
      local column = luma.matrix(lengths):reshape(300, 1)
      assert.are.equal(0, (reg:predict(X, column) - same):abs():max())
    end
  end)

  it("fit the contract: get/set_params, pipelines, grid search, luma.save", function()
    local est = nn.SequenceClassifier{ n_features_per_step = 2, hidden_size = 8, max_iter = 10, seed = 1 }
    assert.are.equal(8, est:get_params().hidden_size)
    est:set_params{ hidden_size = 6, cell = "gru" }
    assert.are.equal("gru", est:get_params().cell)
    local ytr = str:gt(0)
    local pipe = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{}, est)
    pipe:fit(Xtr, ytr)
    assert.is_true(pipe:score(Xte, ste:gt(0)) > 0.8)
    local search = luma.model_selection.GridSearchCV{ estimator = est,
      param_grid = { hidden_size = { 2, 8 } }, cv = 2 }:fit(Xtr, ytr)
    assert.is_not_nil(search.best_params.hidden_size)
    local fitted = est:fit(Xtr, ytr)
    local path = os.tmpname()
    luma.save(fitted, path)
    local back = luma.load(path)
    os.remove(path)
    assert.are.equal(0, (back:predict_proba(Xte) - fitted:predict_proba(Xte)):abs():max())
    assert.are.equal(0, (back:predict(Xte) - fitted:predict(Xte)):abs():max())
  end)

  it("stop early on a held-out score, keeping the best weights", function()
    local reg = nn.SequenceRegressor{ n_features_per_step = 2, hidden_size = 8, max_iter = 200,
      early_stopping = true, n_iter_no_change = 3, seed = 1 }:fit(Xtr, str)
    assert.is_true(reg.n_iter < 200)
    assert.are.equal(reg.n_iter, #reg.validation_scores)
    local best = 0
    for _, s in ipairs(reg.validation_scores) do best = math.max(best, s) end
    assert.are.equal(best, reg.best_validation_score)
  end)

  it("clip the gradient, and then do not warn of it exploding", function()
    -- a relu RNN over 60 steps with a rate of 1: after adam's first steps
    -- its recurrent weights amplify the gradient far past a millionfold
    local g = luma.random.Generator(1)
    local X = g:normal(200, 60)
    local function fit(clip)
      return support.capture_warnings(function()
        nn.SequenceRegressor{ n_features_per_step = 1, cell = "rnn", nonlinearity = "relu",
          hidden_size = 16, learning_rate_init = 1, max_iter = 3, clip_grad_norm = clip,
          seed = 1 }:fit(X, X:col(1))
      end)
    end
    local warned = fit(nil)
    assert.are.equal(1, #warned)
    assert.matches("^RNN: the gradient through the state", warned[1])
    assert.are.same({}, fit(1))
  end)

  it("bad input: layout, lengths, steps, targets", function()
    local est = nn.SequenceRegressor{ n_features_per_step = 3, max_iter = 1 }
    assert.has_error(function() est:fit(Xtr, str) end, "bad argument #1 to 'fit' (X has 16 "
      .. "columns, not a multiple of n_features_per_step = 3: a row must be T steps of 3 "
      .. "features, step after step)")
    local reg = nn.SequenceRegressor{ n_features_per_step = 2, hidden_size = 4, max_iter = 1,
      seed = 1 }
    assert.has_error(function() reg:fit(Xtr, str, { 1, 2 }) end,
      "bad argument #3 to 'fit' (X has 300 rows but lengths has 2 entries)")
    local long = {}
    for i = 1, 300 do long[i] = i == 7 and 9 or 8 end
    assert.has_error(function() reg:fit(Xtr, str, long) end, "bad argument #3 to 'fit' "
      .. "(lengths[7] is 9 but the sequences have 8 steps of 2 features (X's 16 columns); each "
      .. "length must be an integer in [1, 8])")
    reg:fit(Xtr, str)
    assert.has_error(function() reg:predict(Xte:sub(nil, nil, 1, 12)) end,
      "bad argument #1 to 'predict' (X has 12 columns but luma.nn.SequenceRegressor was fitted on 16)")
    assert.has_error(function() reg:predict(Xte, "all") end,
      "bad argument #2 to 'predict' (lengths must be a list of integers, one a row, got string)")
    assert.has_error(function() nn.SequenceClassifier{ n_features_per_step = 2 }:fit(Xtr, luma.ones(300, 1)) end,
      "bad argument #2 to 'fit' (SequenceClassifier needs at least two classes, y has only 1)")
    local nan = str:copy()
    nan:set(3, 1, 0 / 0)
    assert.has_error(function() reg:fit(Xtr, nan) end)
  end)
end)
