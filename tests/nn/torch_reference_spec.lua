-- luma.nn against PyTorch 1.13 (issue 30, "Accuracy"): small float64
-- networks with the same weights, inputs and targets in both, and the
-- loss, the network's output and the gradient of every parameter
-- compared element by element within 1e-10 relative (see `near` below).
-- The reference values in tests/nn/reference/torch_nn.lua were printed
-- by tests/nn/reference/torch_nn.py (Debian's python3-torch, float64):
--   /usr/bin/python3 tests/nn/reference/torch_nn.py > tests/nn/reference/torch_nn.lua
-- Every number comes from the closed formulas below, which repeat the
-- script's (0-based i, j there, 1-based here).  The cases:
--   - Linear(3, 4) -> activation -> Linear(4, 3) with CrossEntropyLoss for
--     every activation module (Softmax and LogSoftmax along rows and
--     columns);
--   - Linear(3, 4) -> Tanh -> Linear(4, 3) with each loss PyTorch also has,
--     reductions mean, sum and none (backward with a fixed seed);
--   - BatchNorm1d in training (and its running statistics afterwards) and
--     at inference, LayerNorm, an Embedding in front;
--   - Dropout with a fixed mask (a stub generator), both modes.
-- Conventions where luma differs from PyTorch, so the script adapts:
--   - reduction "none" gives one value a row (n x 1); for the element-wise
--     losses (MSE, L1, Huber, BCE) that is the sum over the row's elements,
--     where PyTorch keeps the n x c matrix (the script sums its rows);
--   - the binary losses' label_smoothing (0 -> eps, 1 -> 1 - eps) is not a
--     PyTorch option: the script gives it the smoothed targets;
--   - Dropout's "scaled" mode is not PyTorch's: the script writes it out
--     (x * mask in training, x * (1 - p) at inference), as it does the
--     inverted mode with the same mask.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local nn = luma.nn
local REFERENCE = dofile("tests/nn/reference/torch_nn.lua")

local TOL = 1e-10
local N, D, H, C = 6, 3, 4, 3
local P_DROP = 0.25

local grid = support.grid

local X = grid(N, D, function(i, j) return 2 * math.sin(1 + 3 * i + j) end)
local X_POS = grid(N, D, function(i, j) return 2 * math.sin(1 + 3 * i + j) + 0.6 * math.cos(i + 2 * j) end)
local X_NEG = grid(N, D, function(i, j) return 2 * math.sin(2 + 5 * i + j) end)
local LABELS = {}
for i = 1, N do LABELS[i] = (2 * (i - 1)) % C + 1 end
local Q = grid(N, C, function(i, k) return math.exp(math.cos(1 + i + 2 * k)) end)
local PROBS = Q:div(Q:sum(2))
local REGRESSION = grid(N, C, function(i, k) return math.cos(i + 2 * k) end)
local BINARY = grid(N, C, function(i, k) return (i + k) % 2 end)
local INDICES = {}
for i = 1, N do INDICES[i] = (3 * (i - 1) + 1) % 5 + 1 end
local SEED = grid(N, 1, function(i) return math.cos(1 + 2 * i) end)
local RUNNING_MEAN = grid(1, H, function(_, j) return 0.2 * math.sin(1 + j) end)
local RUNNING_VAR = grid(1, H, function(_, j) return 1 + 0.5 * math.cos(2 * j) end)

-- Dropout's draws: it keeps the elements where uniform(rows, cols) < 1 - p,
-- so 0 keeps and 1 drops; the script's mask keeps (3i + 5j) mod 4 ~= 0.
local MASK_GENERATOR = {
  uniform = function(_, rows, cols)
    assert(rows == N and cols == H, "the dropout layer draws an unexpected shape")
    return grid(rows, cols, function(i, j) return (3 * i + 5 * j) % 4 == 0 and 1 or 0 end)
  end,
}

-- |actual - expected| <= TOL |expected| + FLOOR element by element.  The
-- absolute FLOOR is for elements that are 0 in exact arithmetic (the bias
-- before a BatchNorm, the last bias under TripletMarginLoss, which cancels
-- in a - p and a - n): both libraries leave there the rounding of O(1)
-- terms, 1e-17 to 1e-16 of either sign.  Every other nonzero element is
-- 2.6e-5 or more, so FLOOR is under 1e-10 of it and the test is relative there.
-- (When this was written the largest relative difference was 5.3e-14.)
local FLOOR = 1e-15
local function near(expected, actual, what) support.torch_near(expected, actual, what, TOL, FLOOR) end

local function mlp(middle, tail)
  local list = { nn.Linear(D, H) }
  for _, m in ipairs(middle) do list[#list + 1] = m end
  list[#list + 1] = nn.Linear(H, C)
  for _, m in ipairs(tail or {}) do list[#list + 1] = m end
  return nn.Sequential(list)
end

-- Parameter p (1-based, named_parameters order) gets 0.5 cos((p - 1) +
-- (a - 1) + 2 (b - 1)), a bias or BatchNorm weight being one row; set
-- through the state_dict, with the running statistics when asked.
local function load_weights(model, running_name)
  local state = model:state_dict()
  for p, named in ipairs(model:named_parameters()) do
    local W = named[2].value
    state[named[1]] = grid(W:rows(), W:cols(), function(a, b) return 0.5 * math.cos(p - 1 + a + 2 * b) end)
  end
  if running_name then
    state[running_name .. ".running_mean"] = RUNNING_MEAN:copy()
    state[running_name .. ".running_var"] = RUNNING_VAR:copy()
  end
  model:load_state_dict(state)
end

local function ce(opts)
  return function(out) return nn.CrossEntropyLoss(opts)(out, LABELS) end
end

-- name -> {model = constructor, loss = function(out[, model]) -> Variable,
-- eval, running (the BatchNorm child whose statistics start from the
-- formula), bn (the BatchNorm child)}
local CASES = {}

local ACTIVATIONS = {
  relu = nn.ReLU, tanh = nn.Tanh, sigmoid = nn.Sigmoid, softplus = nn.Softplus,
  leaky_relu = function() return nn.LeakyReLU(0.2) end,
  elu = function() return nn.ELU(0.7) end,
  softmax = function() return nn.Softmax(2) end,
  log_softmax = function() return nn.LogSoftmax(2) end,
}
for name, act in pairs(ACTIVATIONS) do
  CASES["activation " .. name] = { model = function() return mlp{ act() } end, loss = ce() }
end
CASES["activation softmax columns"] = { model = function() return mlp{ nn.Softmax(1) } end, loss = ce() }
CASES["activation log_softmax columns"] = { model = function() return mlp{ nn.LogSoftmax(1) } end, loss = ce() }

local function tanh_mlp(tail) return function() return mlp({ nn.Tanh() }, tail) end end
for _, r in ipairs{ "mean", "sum", "none" } do
  CASES["MSELoss " .. r] = { model = tanh_mlp(),
    loss = function(out) return nn.MSELoss{ reduction = r }(out, REGRESSION) end }
  CASES["L1Loss " .. r] = { model = tanh_mlp(),
    loss = function(out) return nn.L1Loss{ reduction = r }(out, REGRESSION) end }
  CASES["HuberLoss " .. r] = { model = tanh_mlp(),
    loss = function(out) return nn.HuberLoss{ reduction = r, delta = 0.3 }(out, REGRESSION) end }
  CASES["BCELoss " .. r] = { model = tanh_mlp{ nn.Sigmoid() },
    loss = function(out) return nn.BCELoss{ reduction = r }(out, BINARY) end }
  CASES["BCEWithLogitsLoss " .. r] = { model = tanh_mlp(),
    loss = function(out) return nn.BCEWithLogitsLoss{ reduction = r }(out, BINARY) end }
  CASES["CrossEntropyLoss indices " .. r] = { model = tanh_mlp(), loss = ce{ reduction = r } }
  CASES["CrossEntropyLoss probabilities " .. r] = { model = tanh_mlp(),
    loss = function(out) return nn.CrossEntropyLoss{ reduction = r }(out, PROBS) end }
  CASES["CrossEntropyLoss smoothing " .. r] = { model = tanh_mlp(),
    loss = ce{ reduction = r, label_smoothing = 0.1 } }
  CASES["NLLLoss " .. r] = { model = tanh_mlp{ nn.LogSoftmax(2) },
    loss = function(out) return nn.NLLLoss{ reduction = r }(out, LABELS) end }
  -- the same network embeds anchors, positives and negatives, so each
  -- parameter's gradient adds up over three forward passes
  CASES["TripletMarginLoss " .. r] = { model = tanh_mlp(),
    loss = function(out, model)
      return nn.TripletMarginLoss{ reduction = r, margin = 0.3 }(out, model(X_POS), model(X_NEG))
    end }
end
CASES["CrossEntropyLoss probabilities smoothing mean"] = { model = tanh_mlp(),
  loss = function(out) return nn.CrossEntropyLoss{ label_smoothing = 0.1 }(out, PROBS) end }
CASES["BCEWithLogitsLoss smoothing mean"] = { model = tanh_mlp(),
  loss = function(out) return nn.BCEWithLogitsLoss{ label_smoothing = 0.1 }(out, BINARY) end }
CASES["BCELoss smoothing mean"] = { model = tanh_mlp{ nn.Sigmoid() },
  loss = function(out) return nn.BCELoss{ label_smoothing = 0.1 }(out, BINARY) end }

CASES["BatchNorm1d training"] = { bn = "2", loss = ce(),
  model = function() return mlp{ nn.BatchNorm1d(H), nn.Tanh() } end }
CASES["BatchNorm1d training options"] = { bn = "2", running = "2", loss = ce(),
  model = function() return mlp{ nn.BatchNorm1d(H, { eps = 1e-3, momentum = 0.3 }), nn.Tanh() } end }
CASES["BatchNorm1d inference"] = { bn = "2", running = "2", eval = true, loss = ce(),
  model = function() return mlp{ nn.BatchNorm1d(H), nn.Tanh() } end }
CASES["LayerNorm"] = { loss = ce(), model = function() return mlp{ nn.LayerNorm(H), nn.Tanh() } end }
-- index 2 comes twice, so its rows' gradients add up
CASES["Embedding"] = { loss = ce(), input = INDICES,
  model = function()
    local list = { nn.Embedding(5, D) }
    for _, m in ipairs(mlp{ nn.Tanh() }:children()) do list[#list + 1] = m end
    return nn.Sequential(list)
  end }

for _, mode in ipairs{ "inverted", "scaled" } do
  local function model()
    return mlp{ nn.ReLU(), nn.Dropout(P_DROP, { mode = mode, generator = MASK_GENERATOR }) }
  end
  CASES["Dropout " .. mode .. " training"] = { model = model, loss = ce() }
  CASES["Dropout " .. mode .. " inference"] = { model = model, loss = ce(), eval = true }
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

describe("luma.nn against PyTorch 1.13 at the same weights (1e-10 relative)", function()
  it("the reference file and this spec have the same cases", function()
    assert.are.same(sorted_keys(REFERENCE), sorted_keys(CASES))
    assert.are.equal(52, #sorted_keys(CASES))
  end)

  for _, name in ipairs(sorted_keys(CASES)) do
    local case, ref = CASES[name], REFERENCE[name]
    it(name .. ": loss, output and every parameter's gradient", function()
      local model = case.model()
      load_weights(model, case.running)
      if case.eval then model:evaluate() end
      local out = model(case.input or X)
      local loss = case.loss(out, model)
      if loss.value:rows() == 1 then loss:backward() else loss:backward(SEED) end
      if type(ref.loss) == "number" then
        near(luma.matrix{ { ref.loss } }, loss.value, "loss")
      else
        near(ref.loss, loss.value, "loss")
      end
      near(ref.output, out.value, "output")
      local named = model:named_parameters()
      assert.are.equal(#sorted_keys(ref.grads), #named)
      for _, np in ipairs(named) do
        assert.is_not_nil(ref.grads[np[1]], "PyTorch has no gradient for " .. np[1])
        near(ref.grads[np[1]], np[2].grad, np[1] .. ".grad")
      end
      if case.bn then
        near(ref.running_mean, model[case.bn].running_mean, "running_mean")
        near(ref.running_var, model[case.bn].running_var, "running_var")
      end
    end)
  end
end)
