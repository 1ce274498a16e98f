-- luma.nn's recurrent modules (lua/luma/nn/recurrent.lua, the fused step
-- in src/ml/nn/rnn.c): gradients against central differences, outputs,
-- final states and parameter gradients against PyTorch 1.13, the
-- options (lengths, detach_every, dropout, initial states) and the
-- errors of bad input.
-- The PyTorch values in tests/nn/reference/torch_rnn.lua were printed by
--   /usr/bin/python3 tests/nn/reference/torch_rnn.py > tests/nn/reference/torch_rnn.lua
-- whose closed formulas for the inputs, states, weights and the loss's
-- weights are repeated below (0-based indices there, 1-based here).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local nn = luma.nn
local autograd = luma.autograd
local REFERENCE = dofile("tests/nn/reference/torch_rnn.lua")

local N, D, H = 3, 3, 4

local grid = support.grid

-- the formulas of torch_rnn.py, t and k 1-based here
local function x_step(t) return grid(N, D, function(i, j) return math.sin(1 + 0.7 * (t - 1) + 1.3 * i + 0.9 * j) end) end
local function h0_state(k) return grid(N, H, function(i, j) return 0.3 * math.cos(k - 1 + i + 2 * j) end) end
local function c0_state(k) return grid(N, H, function(i, j) return 0.3 * math.sin(k + 2 * i + j) end) end
local function r_weight(t, cols) return grid(N, cols, function(i, j) return math.cos(1 + 0.5 * (t - 1) + i + 0.7 * j) end) end
local function q_weight(k) return grid(N, H, function(i, j) return math.sin(1 + k + 0.5 * i + j) end) end
local function p_weight(k) return grid(N, H, function(i, j) return math.cos(1 + 2 * k + i + 0.3 * j) end) end

-- Parameter p (1-based, named_parameters order) gets 0.5 cos((p - 1) +
-- 0.7 (a - 1) + 1.3 (b - 1)), a bias being one row.
local function load_weights(model)
  local state = model:state_dict()
  for p, named in ipairs(model:named_parameters()) do
    local W = named[2].value
    state[named[1]] = grid(W:rows(), W:cols(), function(a, b) return 0.5 * math.cos(p - 1 + 0.7 * a + 1.3 * b) end)
  end
  model:load_state_dict(state)
end

-- |actual - expected| <= 1e-10 |expected| + 1e-15 element by element
-- (the floor for the zeros PyTorch pads past a sequence's length, where
-- luma has -0 or 0: no other element is within 1e-5 of 0).
local TOL, FLOOR = 1e-10, 1e-15
local function near(expected, actual, what) support.torch_near(expected, actual, what, TOL, FLOOR) end

-- The reference's loss: sum_t sum(out_t .* R_t) + sum_k sum(h_n[k] .* Q_k)
-- [+ sum_k sum(c_n[k] .* P_k)].
local function reference_loss(outputs, h_n, c_n)
  local loss = nil
  local function add(v) loss = loss and loss + v or v end
  for t, y in ipairs(outputs) do add(y:mul(r_weight(t, y.value:cols())):sum()) end
  for k, h in ipairs(h_n) do add(h:mul(q_weight(k)):sum()) end
  for k, c in ipairs(c_n or {}) do add(c:mul(p_weight(k)):sum()) end
  return loss
end

local function states(count, f)
  local list = {}
  for k = 1, count do list[k] = f(k) end
  return list
end

-- name -> {kind, T, layers, bidirectional, with_state, lengths, nonlinearity}
local LAYER_CASES = {
  ["rnn tanh"] = { "RNN", 12, 2, true, true },
  ["rnn relu"] = { "RNN", 10, 2, true, false, nil, "relu" },
  ["gru"] = { "GRU", 15, 2, true, true },
  ["lstm"] = { "LSTM", 20, 2, true, true },
  ["lstm one layer"] = { "LSTM", 30, 1, false, false },
  ["gru lengths"] = { "GRU", 10, 2, true, true, { 10, 4, 7 } },
  ["lstm lengths"] = { "LSTM", 10, 2, true, false, { 10, 4, 7 } },
  ["rnn relu lengths"] = { "RNN", 10, 1, true, true, { 3, 10, 6 }, "relu" },
}

local CELL_CASES = {
  ["rnncell tanh"] = { "RNNCell" },
  ["rnncell relu"] = { "RNNCell", "relu" },
  ["grucell"] = { "GRUCell" },
  ["lstmcell"] = { "LSTMCell" },
}

local function check_against(name, ref, model, loss, outputs, h_n, c_n)
  assert.is_true(math.abs(loss.value:get(1, 1) - ref.loss) <= TOL * math.abs(ref.loss),
    name .. ": loss")
  assert.are.equal(#ref.outputs, #outputs, name .. ": steps")
  for t, y in ipairs(outputs) do near(ref.outputs[t], y.value, name .. ": output " .. t) end
  assert.are.equal(#ref.h_n, #h_n)
  for k, h in ipairs(h_n) do near(ref.h_n[k], h.value, name .. ": h_n " .. k) end
  if ref.c_n then
    assert.are.equal(#ref.c_n, #c_n)
    for k, c in ipairs(c_n) do near(ref.c_n[k], c.value, name .. ": c_n " .. k) end
  end
  local count = 0
  for _, named in ipairs(model:named_parameters()) do
    near(ref.grads[named[1]], named[2].grad, name .. ": gradient of " .. named[1])
    count = count + 1
  end
  local expected = 0
  for _ in pairs(ref.grads) do expected = expected + 1 end
  assert.are.equal(expected, count, name .. ": parameters")
end

describe("recurrent modules against PyTorch 1.13", function()
  for name, case in pairs(LAYER_CASES) do
    it(name, function()
      local kind, T, layers, bidirectional, with_state, lengths, act = table.unpack(case, 1, 7)
      local model = nn[kind](D, H, { num_layers = layers, bidirectional = bidirectional,
        nonlinearity = act, generator = luma.random.Generator(0) })
      load_weights(model)
      local xs = states(T, x_step)
      local K = layers * (bidirectional and 2 or 1)
      local opts = { lengths = lengths }
      if with_state then
        opts.h0 = states(K, h0_state)
        if kind == "LSTM" then opts.c0 = states(K, c0_state) end
      end
      local outputs, h_n, c_n = model(xs, opts)
      local loss = reference_loss(outputs, h_n, c_n)
      loss:backward()
      check_against(name, REFERENCE[name], model, loss, outputs, h_n, c_n)
    end)
  end
  for name, case in pairs(CELL_CASES) do
    it(name, function()
      local cell = nn[case[1]](D, H, case[2] and { nonlinearity = case[2] } or nil)
      load_weights(cell)
      local h, c
      if case[1] == "LSTMCell" then
        h, c = cell(x_step(1), { h0_state(1), c0_state(1) })
      else
        h = cell(x_step(1), h0_state(1))
      end
      local loss = h:mul(r_weight(1, H)):sum()
      if c then loss = loss + c:mul(p_weight(1)):sum() end
      loss:backward()
      check_against(name, REFERENCE[name], cell, loss, { h }, { h }, c and { c })
    end)
  end
end)

-- gradcheck of f(x1, ..., xT, p1, ..., pm, extra...): the inputs, every
-- parameter of model and the extra matrices (initial states, which opts
-- (vars, last) places), through the outputs and final states of run(xs,
-- opts) side by side (gradcheck projects them on a fixed random matrix).
local function check_gradients(model, run, T, n, n_in, opts, extra)
  local names = {}
  for k, named in ipairs(model:named_parameters()) do names[k] = named[1] end
  local g = luma.random.Generator(7)
  local inputs = {}
  for t = 1, T do inputs[t] = g:normal(n, n_in) end
  for _, name in ipairs(names) do inputs[#inputs + 1] = model[name].value:copy() end
  for _, M in ipairs(extra or {}) do inputs[#inputs + 1] = M end
  local ok, err = autograd.gradcheck(function(...)
    local vars = { ... }
    local xs = {}
    for t = 1, T do xs[t] = vars[t] end
    for k, name in ipairs(names) do model[name] = vars[T + k] end
    local call_opts = opts and opts(vars, T + #names) or nil
    local outputs, h_n, c_n = run(xs, call_opts)
    local parts = {}
    for _, y in ipairs(outputs) do parts[#parts + 1] = y end
    for _, h in ipairs(h_n) do parts[#parts + 1] = h end
    for _, c in ipairs(c_n or {}) do parts[#parts + 1] = c end
    return autograd.hstack(parts)
  end, inputs, { tol = 1e-6 })
  assert.is_true(ok, "largest error " .. tostring(err))
end

-- A cell as a one-step sequence for check_gradients.
local function cell_run(cell, lstm)
  return function(xs, state)
    if lstm then
      local h, c = cell(xs[1], state)
      return { h }, {}, { c }
    end
    return { cell(xs[1], state) }, {}
  end
end

local function layer_run(model) return function(xs, opts) return model(xs, opts) end end

describe("recurrent gradients against central differences", function()
  for _, case in ipairs{ { "RNNCell", "tanh" }, { "RNNCell", "relu" }, { "GRUCell" }, { "LSTMCell" } } do
    it(case[1] .. (case[2] and " " .. case[2] or "") .. " (input, state and parameters)", function()
      local cell = nn[case[1]](3, 2, { nonlinearity = case[2], generator = luma.random.Generator(3) })
      local lstm = case[1] == "LSTMCell"
      local g = luma.random.Generator(11)
      check_gradients(cell, cell_run(cell, lstm), 1, 3, 3, function(vars, last)
        return lstm and { vars[last + 1], vars[last + 2] } or vars[last + 1]
      end, lstm and { g:normal(3, 2), g:normal(3, 2) } or { g:normal(3, 2) })
    end)
  end
  for _, kind in ipairs{ "RNN", "GRU", "LSTM" } do
    it(kind .. ": 2 layers, bidirectional, initial state", function()
      local model = nn[kind](2, 3, { num_layers = 2, bidirectional = true,
        generator = luma.random.Generator(5) })
      local g = luma.random.Generator(13)
      local extra = { g:normal(2, 3), g:normal(2, 3), g:normal(2, 3), g:normal(2, 3) }
      if kind == "LSTM" then
        for k = 5, 8 do extra[k] = g:normal(2, 3) end
      end
      check_gradients(model, layer_run(model), 4, 2, 2, function(vars, last)
        local opts = { h0 = { vars[last + 1], vars[last + 2], vars[last + 3], vars[last + 4] } }
        if kind == "LSTM" then
          opts.c0 = { vars[last + 5], vars[last + 6], vars[last + 7], vars[last + 8] }
        end
        return opts
      end, extra)
    end)
    it(kind .. ": lengths, bidirectional, initial state", function()
      -- rows 2 and 3 stop early: their state, and its gradient, pass through
      local model = nn[kind](2, 3, { bidirectional = true, generator = luma.random.Generator(6) })
      local g = luma.random.Generator(17)
      local extra = { g:normal(3, 3), g:normal(3, 3) }
      if kind == "LSTM" then extra[3], extra[4] = g:normal(3, 3), g:normal(3, 3) end
      check_gradients(model, layer_run(model), 4, 3, 2, function(vars, last)
        return { lengths = { 4, 2, 3 }, h0 = { vars[last + 1], vars[last + 2] },
          c0 = kind == "LSTM" and { vars[last + 3], vars[last + 4] } or nil }
      end, extra)
    end)
  end
end)

describe("recurrent layers", function()
  it("draw PyTorch's default init from the generator", function()
    local a = nn.LSTM(3, 5, { num_layers = 2, generator = luma.random.Generator(42) })
    local b = nn.LSTM(3, 5, { num_layers = 2, generator = luma.random.Generator(42) })
    local shapes = {
      weight_ih_l0 = { 20, 3 }, weight_hh_l0 = { 20, 5 }, bias_ih_l0 = { 1, 20 }, bias_hh_l0 = { 1, 20 },
      weight_ih_l1 = { 20, 5 }, weight_hh_l1 = { 20, 5 }, bias_ih_l1 = { 1, 20 }, bias_hh_l1 = { 1, 20 },
    }
    local bound = 1 / math.sqrt(5)
    for _, named in ipairs(a:named_parameters()) do
      local W = named[2].value
      assert.are.same(shapes[named[1]], { W:rows(), W:cols() }, named[1])
      assert.is_true(W:max() <= bound and W:min() >= -bound, named[1])
      assert.is_true(W:max() > 0.5 * bound and W:min() < -0.5 * bound, named[1])
      assert.are.equal(0, (W - b[named[1]].value):abs():max())
    end
    assert.are.equal(8, #a:parameters())
    assert.are.equal(8, #nn.GRU(3, 5, { bidirectional = true }):parameters())
    assert.are.equal(2, #nn.RNNCell(3, 5, { bias = false }):parameters())
  end)

  it("keep the state of rows past their length and output zeros there", function()
    local model = nn.GRU(2, 3, { generator = luma.random.Generator(1) })
    local g = luma.random.Generator(2)
    local xs = { g:normal(2, 2), g:normal(2, 2), g:normal(2, 2) }
    local outputs, h_n = model(xs, { lengths = { 3, 1 } })
    -- row 2 stops after step 1: its final state is its step-1 output
    local short = model({ xs[1] })
    assert.are.equal(0, (h_n[1].value:row(2) - short[1].value:row(2)):abs():max())
    assert.are.equal(0, outputs[2].value:row(2):abs():max())
    assert.are.equal(0, outputs[3].value:row(2):abs():max())
    assert.is_true(outputs[3].value:row(1):abs():max() > 0)
    -- row 1 runs all three steps, as without lengths
    local full, full_h = model(xs)
    assert.are.equal(0, (full[3].value:row(1) - outputs[3].value:row(1)):abs():max())
    assert.are.equal(0, (full_h[1].value:row(1) - h_n[1].value:row(1)):abs():max())
  end)

  -- sum of every output and the final state: the loss of a training step
  local function grads_of(model, xs, opts)
    model:zero_grad()
    local outputs, h_n, c_n = model(xs, opts)
    local loss = reference_loss(outputs, h_n, c_n)
    loss:backward()
    local list = {}
    for _, p in ipairs(model:parameters()) do list[#list + 1] = p.grad:copy() end
    return list
  end

  it("run a layer's one node per direction backward from any of its outputs, again with retain_graph", function()
    -- the layer's node has T + 2 outputs (variable.record_many): backward
    -- from step 2's output alone, twice, doubles its gradients, and
    -- backward from a sum of outputs equals the sum of separate passes
    local model = nn.GRU(3, 4, { bidirectional = true, generator = luma.random.Generator(5) })
    local xs = states(4, x_step)
    local function grads(fn)
      model:zero_grad()
      fn()
      local list = {}
      for _, p in ipairs(model:parameters()) do list[#list + 1] = p.grad:copy() end
      return list
    end
    local outputs, h_n = model(xs)
    local a = grads(function() outputs[2]:sum():backward({ retain_graph = true }) end)
    local twice = grads(function()
      outputs[2]:sum():backward({ retain_graph = true })
      outputs[2]:sum():backward({ retain_graph = true })
    end)
    local b = grads(function() (outputs[3]:sum() + h_n[1]:sum()):backward({ retain_graph = true }) end)
    local both = grads(function() (outputs[2]:sum() + outputs[3]:sum() + h_n[1]:sum()):backward() end)
    for p = 1, #a do
      assert.is_true((twice[p] - a[p] * 2):abs():max() <= 1e-14 * math.max(1, a[p]:abs():max()))
      assert.is_true((both[p] - a[p] - b[p]):abs():max() <= 1e-14 * math.max(1, both[p]:abs():max()))
    end
    -- the freed graph refuses a second backward without retain_graph
    assert.has_error(function() outputs[1]:sum():backward() end)
  end)

  it("truncate backpropagation through time with detach_every", function()
    local model = nn.LSTM(3, 4, { generator = luma.random.Generator(4) })
    local xs = states(6, x_step)
    local full = grads_of(model, xs)
    for _, k in ipairs{ 6, 10 } do
      local same = grads_of(model, xs, { detach_every = k })
      for p = 1, #full do assert.are.equal(0, (same[p] - full[p]):abs():max()) end
    end
    -- k = 4: the gradient of a loss on steps 5-6 stops at the state after
    -- step 4, as when the sequence is run in two chunks with the state
    -- detached between them
    local cut = grads_of(model, xs, { detach_every = 4 })
    model:zero_grad()
    local first, h_n, c_n = model({ xs[1], xs[2], xs[3], xs[4] })
    local second, h2, c2 = model({ xs[5], xs[6] },
      { h0 = { h_n[1]:detach() }, c0 = { c_n[1]:detach() } })
    local loss = reference_loss(first, {}, {})
    for t, y in ipairs(second) do loss = loss + y:mul(r_weight(t + 4, 4)):sum() end
    loss = loss + h2[1]:mul(q_weight(1)):sum() + c2[1]:mul(p_weight(1)):sum()
    loss:backward()
    local differs = 0
    for p, param in ipairs(model:parameters()) do
      local scale = math.max(1, param.grad:abs():max())
      assert.is_true((cut[p] - param.grad):abs():max() <= 1e-12 * scale)
      differs = math.max(differs, (cut[p] - full[p]):abs():max())
    end
    assert.is_true(differs > 1e-6)
  end)

  it("drop between layers in training only", function()
    local model = nn.GRU(3, 4, { num_layers = 2, dropout = 0.5, generator = luma.random.Generator(8) })
    local plain = nn.GRU(3, 4, { num_layers = 2 })
    plain:load_state_dict(model:state_dict())
    local xs = states(3, x_step)
    local trained = model(xs)
    local expected = plain(xs)
    assert.is_true((trained[3].value - expected[3].value):abs():max() > 1e-3)
    model:evaluate()
    local evaluated = model(xs)
    for t = 1, 3 do assert.are.equal(0, (evaluated[t].value - expected[t].value):abs():max()) end
  end)

  it("print their options", function()
    assert.are.equal("LSTM(input_size=3, hidden_size=4, num_layers=2, bias=true, "
      .. "bidirectional=true, dropout=0)", tostring(nn.LSTM(3, 4, { num_layers = 2, bidirectional = true })))
    assert.are.equal("RNNCell(input_size=3, hidden_size=4, bias=true, nonlinearity=relu)",
      tostring(nn.RNNCell(3, 4, { nonlinearity = "relu" })))
  end)
end)

describe("recurrent errors", function()
  local function fails_here(pattern, fn)
    local ok, err = pcall(fn)
    assert.is_false(ok)
    assert.matches("^tests/nn/recurrent_spec%.lua:%d+: " .. pattern, err)
  end
  local g = luma.random.Generator(9)
  local lstm = nn.LSTM(3, 4, { num_layers = 2 })

  it("warn once, naming the step, when the gradient explodes through the steps", function()
    -- relu units with W_hh = 2 I and a positive state: each step back
    -- doubles the gradient, which first passes a millionfold (2^20) of the
    -- output's on the 20th step back from step 30, out of step 11
    local function doubling(options)
      local m = nn.RNN(2, 3, options)
      for _, name in ipairs{ "weight_ih", "bias_ih", "bias_hh", "weight_hh" } do
        local W = m[name .. "_l0"].value
        W:assign(luma.zeros(W:rows(), W:cols()))
        local R = m[name .. "_l0_reverse"]
        if R then R.value:assign(luma.zeros(R.value:rows(), R.value:cols())) end
      end
      m.weight_hh_l0.value:assign(luma.eye(3) * 2)
      return m
    end
    local xs = {}
    for t = 1, 30 do xs[t] = luma.zeros(4, 2) end
    local m = doubling({ nonlinearity = "relu" })
    local warnings = support.capture_warnings(function()
      for _ = 1, 2 do m(xs, { h0 = luma.ones(4, 3) })[30]:sum():backward() end
    end)
    assert.are.equal(1, #warnings)
    assert.matches("^RNN: the gradient through the state grew to 3%.63e%+06, 1%.05e%+06 times "
      .. "the largest gradient at the outputs, at step 11 of 30 %(layer 1%) in backward; clip "
      .. "the gradients %(luma%.nn%.clip_grad_norm", warnings[1])
    -- off when asked (an estimator that clips does so)
    local quiet = doubling({ nonlinearity = "relu" })
    quiet.warn_exploding = false
    assert.are.same({}, support.capture_warnings(function()
      quiet(xs, { h0 = luma.ones(4, 3) })[30]:sum():backward()
    end))
    -- a tanh network at PyTorch's init stays quiet over 30 steps
    local healthy = nn.LSTM(2, 3, { num_layers = 2, bidirectional = true, generator = g })
    assert.are.same({}, support.capture_warnings(function()
      local ys = {}
      for t = 1, 30 do ys[t] = g:normal(4, 2) end
      healthy(ys)[30]:sum():backward()
    end))
  end)

  it("name both widths of a wrong input", function()
    fails_here("LSTM: input%[2%] is 2 x 5 but the layer expects 3 features per row", function()
      local y = lstm({ g:normal(2, 3), g:normal(2, 5) })
      return y
    end)
    fails_here("GRUCell: input is 2 x 2 but the layer expects 3 features per row", function()
      local y = nn.GRUCell(3, 4)(g:normal(2, 2))
      return y
    end)
  end)

  it("refuse a sequence that is not a list of matrices", function()
    fails_here("LSTM: input must be a non%-empty list of matrices", function()
      local y = lstm(g:normal(2, 3))
      return y
    end)
    fails_here("LSTM: input must be a non%-empty list of matrices .* got an empty table", function()
      local y = lstm({})
      return y
    end)
    fails_here("LSTM: input%[2%] is a string, not a luma.Matrix", function()
      local y = lstm({ g:normal(2, 3), "x" })
      return y
    end)
    fails_here("LSTM: input%[2%] has 3 rows but input%[1%] has 2", function()
      local y = lstm({ g:normal(2, 3), g:normal(3, 3) })
      return y
    end)
  end)

  it("refuse lengths longer than the sequence", function()
    fails_here("GRU: lengths%[2%] is 4 but the sequence has 3 steps", function()
      local y = nn.GRU(3, 4)(states(3, x_step), { lengths = { 3, 4, 1 } })
      return y
    end)
    fails_here("GRU: lengths must be a list of 3 integers", function()
      local y = nn.GRU(3, 4)(states(3, x_step), { lengths = { 3, 1 } })
      return y
    end)
  end)

  it("name both shapes of a wrong hidden state", function()
    fails_here("LSTM: h0%[2%] is 2 x 5 but must be 2 x 4 %(batch x hidden_size%)", function()
      local y = lstm({ g:normal(2, 3) }, { h0 = { luma.zeros(2, 4), luma.zeros(2, 5) } })
      return y
    end)
    fails_here("LSTM: c0 must be a list of 2 n x 4 states", function()
      local y = lstm({ g:normal(2, 3) }, { c0 = { luma.zeros(2, 4) } })
      return y
    end)
    fails_here("RNNCell: h is 3 x 4 but must be 2 x 4", function()
      local y = nn.RNNCell(3, 4)(g:normal(2, 3), luma.zeros(3, 4))
      return y
    end)
    fails_here("GRU: c0 is the LSTM's cell state; GRU has none", function()
      local y = nn.GRU(3, 4)({ g:normal(2, 3) }, { c0 = { luma.zeros(2, 4) } })
      return y
    end)
  end)

  it("check the forward options", function()
    fails_here("LSTM: detach_every must be an integer >= 1, got 0", function()
      local y = lstm({ g:normal(2, 3) }, { detach_every = 0 })
      return y
    end)
    fails_here("LSTM: unknown option 'length'", function()
      local y = lstm({ g:normal(2, 3) }, { length = { 1, 1 } })
      return y
    end)
  end)

  it("check the shapes the native step reads", function()
    local native = require("luma.nn.native")
    local z = luma.zeros
    assert.has_error(function() native.rnn_cell("lstm", z(2, 15), z(2, 16), z(2, 4), z(2, 4)) end,
      "bad argument #2 to 'rnn_cell' (gi is 2 x 15 but must be 2 x 16)")
    assert.has_error(function() native.rnn_cell("gru", z(2, 12), z(2, 12), z(2, 4), nil, z(3, 1)) end,
      "bad argument #6 to 'rnn_cell' (mask is 3 x 1 but must be 2 x 1)")
    assert.has_error(function() native.rnn_cell("lstm", z(2, 16), z(2, 16), z(2, 4)) end)
    assert.has_error(function() native.rnn_cell("elman", z(2, 4), z(2, 4), z(2, 4)) end)
    local out = native.rnn_cell("tanh", z(2, 4) + 0.5, z(2, 4) + 0.25, z(2, 4))
    assert.are.equal(math.tanh(0.75), out:get(2, 3))
    assert.has_error(function()
      native.rnn_cell_backward("tanh", z(2, 3), z(2, 4), z(2, 4), z(2, 4), nil, nil, out)
    end, "bad argument #2 to 'rnn_cell_backward' (gout is 2 x 3 but must be 2 x 4)")
  end)

  it("check the constructor's options at the caller's line", function()
    fails_here("RNN: nonlinearity must be \"tanh\" or \"relu\", got sigmoid", function()
      local m = nn.RNN(3, 4, { nonlinearity = "sigmoid" })
      return m
    end)
    fails_here("LSTM: dropout must be a number in %[0, 1%), got 1", function()
      local m = nn.LSTM(3, 4, { dropout = 1 })
      return m
    end)
    fails_here("GRU: num_layers must be an integer", function()
      local m = nn.GRU(3, 4, { num_layers = 0 })
      return m
    end)
  end)
end)
