-- luma.nn modules and losses (issue 30, items 2 and 3).  Values are
-- checked against closed forms computed here by hand from the same
-- matrices, and every gradient against central differences
-- (luma.autograd.gradcheck, 1e-6 relative).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn
local ag = luma.autograd

local function close(a, b, tol)
  tol = tol or 1e-12
  assert.are.equal(a:rows(), b:rows())
  assert.are.equal(a:cols(), b:cols())
  local err = (a - b):abs():max()
  assert.is_true(err <= tol, "max difference " .. err)
end

-- Puts v at the dotted parameter name of m ("1.weight").
local function set_parameter(m, dotted, v)
  local owner, last = m, nil
  for part in dotted:gmatch("[^.]+") do
    if last then owner = owner[last] end
    last = part
  end
  owner[last] = v
end

-- gradcheck of loss(m(X)) with respect to every parameter of m: the
-- checker's own leaves stand in for the parameters during each call.
local function check_parameters(m, X, loss)
  local named = m:named_parameters()
  local values = {}
  for i, np in ipairs(named) do values[i] = np[2].value end
  local ok, err = ag.gradcheck(function(...)
    local leaves = { ... }
    for i, np in ipairs(named) do set_parameter(m, np[1], leaves[i]) end
    local out = loss(m(X))
    for _, np in ipairs(named) do set_parameter(m, np[1], np[2]) end
    return out
  end, values)
  assert.is_true(ok, tostring(err))
end

describe("luma.nn modules", function()
  local g = luma.random.Generator(30)
  local X = g:normal(6, 4)

  it("Linear computes x W^T + b with PyTorch's layout and default bounds", function()
    local lin = nn.Linear(4, 3, { generator = luma.random.Generator(1) })
    assert.are.equal(3, lin.weight.value:rows())
    assert.are.equal(4, lin.weight.value:cols())
    -- U(-1/sqrt(4), 1/sqrt(4)) = U(-0.5, 0.5)
    assert.is_true(lin.weight.value:abs():max() <= 0.5)
    assert.is_true(lin.bias.value:abs():max() <= 0.5)
    close(lin(X).value, X * lin.weight.value:t() + lin.bias.value)
    assert.are.equal("Linear(in_features=4, out_features=3, bias=true)", tostring(lin))
  end)

  it("the same generator seed gives the same weights bit for bit", function()
    local a = nn.Linear(5, 7, { generator = luma.random.Generator(9), init = "glorot_normal" })
    local b = nn.Linear(5, 7, { generator = luma.random.Generator(9), init = "glorot_normal" })
    assert.are.equal(0, (a.weight.value - b.weight.value):abs():max())
  end)

  it("the initializers have the published variances (LeCun 1/in, Glorot 2/(in+out), He 2/in)", function()
    local n_in, n_out = 400, 100
    local cases = { lecun_normal = 1 / n_in, glorot_normal = 2 / (n_in + n_out), he_normal = 2 / n_in,
      glorot_uniform = 2 / (n_in + n_out), he_uniform = 2 / n_in, lecun_uniform = 1 / n_in }
    for scheme, variance in pairs(cases) do
      local W = nn.init(luma.zeros(n_out, n_in), scheme, luma.random.Generator(3))
      local v = W:var()
      -- 40,000 draws: the sample variance is within 3% of its expectation
      assert.is_true(math.abs(v / variance - 1) < 0.03, scheme .. ": " .. v .. " vs " .. variance)
    end
  end)

  it("Sequential chains its children, names them 1, 2, ... and prints as a tree", function()
    local model = nn.Sequential{ nn.Linear(4, 5, { generator = g }), nn.Tanh(), nn.Linear(5, 2, { generator = g }) }
    local names = {}
    for _, np in ipairs(model:named_parameters()) do names[#names + 1] = np[1] end
    assert.are.same({ "1.weight", "1.bias", "3.weight", "3.bias" }, names)
    local l1, l3 = model["1"], model["3"]
    close(model(X).value, ((X * l1.weight.value:t() + l1.bias.value):tanh()) * l3.weight.value:t() + l3.bias.value)
    assert.are.equal("Sequential(\n  (1): Linear(in_features=4, out_features=5, bias=true)\n"
      .. "  (2): Tanh()\n  (3): Linear(in_features=5, out_features=2, bias=true)\n)", tostring(model))
  end)

  it("gradients of every parameter of an MLP with each activation match central differences", function()
    for _, act in ipairs({ nn.ReLU(), nn.LeakyReLU(0.1), nn.ELU(0.7), nn.Softplus(), nn.Tanh(), nn.Sigmoid() }) do
      local model = nn.Sequential{ nn.Linear(4, 5, { generator = g }), act, nn.Linear(5, 3, { generator = g }) }
      check_parameters(model, X, function(out) return out:log_softmax():sum() end)
    end
  end)

  it("Maxout takes the maximum of each group of k columns", function()
    local A = luma.matrix{ { 1, 5, 2, 0, -1, -3 }, { 4, 4, 0, 7, 2, 1 } }
    close(nn.Maxout(2)(A).value, luma.matrix{ { 5, 2, -1 }, { 4, 7, 2 } })
    close(nn.Maxout(3)(A).value, luma.matrix{ { 5, 0 }, { 4, 7 } })
    assert.has_error(function() nn.Maxout(4)(A) end,
      "Maxout: input is 2 x 6, whose 6 columns are not groups of k = 4")
  end)

  it("Dropout: inverted and scaled forms keep the expected activation; evaluate() switches", function()
    local ones = luma.ones(200, 100)
    local inverted = nn.Dropout(0.2, { generator = luma.random.Generator(4) })
    local kept = inverted(ones).value
    -- kept elements are 1 / 0.8, dropped ones 0; 20,000 draws: mean 1 within 1.5%
    assert.is_true(math.abs(kept:mean() - 1) < 0.015)
    assert.is_true(((kept - 1.25):abs():mul(kept)):max() < 1e-15)
    close(inverted:evaluate()(ones).value, ones)
    local scaled = nn.Dropout(0.5, { mode = "scaled", generator = luma.random.Generator(4) })
    local train_mean = scaled(ones).value:mean()
    -- the notes' form: test time multiplies by the keep probability, the
    -- training mean's expectation
    close(scaled:evaluate()(ones).value, ones * 0.5)
    assert.is_true(math.abs(train_mean - 0.5) < 0.015)
  end)

  it("BatchNorm1d with gamma = sqrt(var + eps), beta = mean is the identity (the notes' identity)", function()
    local bn = nn.BatchNorm1d(4)
    local mean, var = X:mean(1), X:var(1, 0)
    bn.weight.value:assign((var + bn.eps):sqrt())
    bn.bias.value:assign(mean)
    close(bn(X).value, X, 1e-12)
    -- running statistics moved by momentum 0.1 from (0, 1), with the unbiased variance
    close(bn.running_mean, mean * 0.1)
    close(bn.running_var, luma.ones(1, 4) * 0.9 + X:var(1, 1) * 0.1)
    -- inference uses them
    bn:evaluate()
    local expected = (X - bn.running_mean):div((bn.running_var + bn.eps):sqrt()):mul(bn.weight.value)
      + bn.bias.value
    close(bn(X).value, expected)
  end)

  it("BatchNorm1d and LayerNorm gradients match central differences", function()
    local model = nn.Sequential{ nn.Linear(4, 5, { generator = g }), nn.BatchNorm1d(5), nn.ReLU(),
      nn.LayerNorm(5), nn.Linear(5, 2, { generator = g }) }
    check_parameters(model, X, function(out) local y = out:tanh() return y:mul(y):sum() end)
  end)

  it("Embedding returns rows and adds the gradients of repeated indices", function()
    local emb = nn.Embedding(5, 3, { generator = luma.random.Generator(2) })
    local out = emb({ 2, 4, 2 })
    close(out.value, emb.weight.value:take({ 2, 4, 2 }))
    out:sum():backward()
    close(emb.weight.grad, luma.matrix{ { 0, 0, 0 }, { 2, 2, 2 }, { 0, 0, 0 }, { 1, 1, 1 }, { 0, 0, 0 } })
    assert.has_error(function() emb({ 1, 6 }) end, "Embedding: index 2 is 6, outside 1..5")
  end)

  it("state_dict and load_state_dict round-trip parameters and buffers, checking names and shapes", function()
    local a = nn.Sequential{ nn.Linear(4, 3, { generator = luma.random.Generator(5) }), nn.BatchNorm1d(3) }
    a(X)
    local b = nn.Sequential{ nn.Linear(4, 3, { generator = luma.random.Generator(6) }), nn.BatchNorm1d(3) }
    b:load_state_dict(a:state_dict())
    a:evaluate() b:evaluate()
    close(a(X).value, b(X).value, 0)
    local state = a:state_dict()
    state["1.weight"] = luma.zeros(2, 2)
    assert.has_error(function() b:load_state_dict(state) end,
      "load_state_dict: '1.weight' is 2 x 2 but the module's is 3 x 4")
    state = a:state_dict()
    state.extra = luma.zeros(1, 1)
    assert.has_error(function() b:load_state_dict(state) end,
      "load_state_dict: the module has no parameter or buffer 'extra'")
  end)

  it("zero_grad forgets gradients; train/evaluate set the mode of every child", function()
    local model = nn.Sequential{ nn.Linear(4, 2, { generator = g }), nn.Dropout(0.5) }
    model(X):sum():backward()
    assert.is_not_nil(model["1"].weight.grad)
    model:zero_grad()
    assert.is_nil(model["1"].weight.grad)
    model:evaluate()
    assert.is_false(model["2"].training)
    model:train()
    assert.is_true(model["2"].training)
  end)

  it("a new module needs only a forward", function()
    local Scale = nn.class("Scale", {
      init = function(self, n) self:register_parameter("s", luma.ones(1, n)) end,
      forward = function(self, x) return ag.Variable(x):mul(self.s) end,
    })
    local m = Scale(4)
    assert.are.equal(1, #m:parameters())
    m(X):sum():backward()
    close(m.s.grad, X:sum(1))
  end)

  it("shape mismatches name the module and both shapes", function()
    assert.has_error(function() nn.Linear(3, 2)(X) end,
      "Linear: input is 6 x 4 but the layer expects 3 features per row")
    assert.has_error(function() nn.BatchNorm1d(4)(X:sub(1, 1)) end,
      "BatchNorm1d: a training batch needs at least 2 rows, got 1")
    assert.has_error(function() nn.Dropout(1) end, "Dropout: p must be a number in [0, 1), got 1")
    assert.has_error(function() nn.Linear(0, 2) end, "Linear: in_features must be an integer in [1, 2147483647], got 0")
  end)
end)

describe("luma.nn losses", function()
  local g = luma.random.Generator(31)
  local Z = g:normal(5, 3)
  local T = g:normal(5, 3)

  it("MSE, L1 and Huber equal their closed forms under each reduction", function()
    local d = Z - T
    close(nn.MSELoss()(Z, T).value, luma.full(1, 1, d:mul(d):mean()))
    close(nn.MSELoss{ reduction = "sum" }(Z, T).value, luma.full(1, 1, d:mul(d):sum()))
    close(nn.L1Loss{ reduction = "none" }(Z, T).value, d:abs():sum(2))
    local delta = 0.5
    local a = d:abs()
    local inside = a:le(delta)
    local huber = d:mul(d):mul(inside) * 0.5 + (a - delta / 2):mul(1 - inside) * delta
    close(nn.HuberLoss{ delta = delta }(Z, T).value, luma.full(1, 1, huber:mean()))
  end)

  it("cross-entropy with indices, probabilities and label smoothing", function()
    local y = { 1, 3, 2, 2, 1 }
    local lsm = Z - Z:exp():sum(2):log()
    local expected = 0
    for i, k in ipairs(y) do expected = expected - lsm:get(i, k) end
    close(nn.CrossEntropyLoss()(Z, y).value, luma.full(1, 1, expected / 5))
    close(nn.NLLLoss()(lsm, y).value, luma.full(1, 1, expected / 5))
    -- the indices as a column (as y usually is) or a row matrix
    local column = luma.matrix(y) -- 5 x 1
    close(nn.CrossEntropyLoss()(Z, column).value, luma.full(1, 1, expected / 5))
    close(nn.CrossEntropyLoss()(Z, column:t()).value, luma.full(1, 1, expected / 5))
    close(nn.NLLLoss()(lsm, column).value, luma.full(1, 1, expected / 5))
    -- smoothing eps: (1 - eps) nll + eps * mean over classes of -lsm
    local eps = 0.1
    local smoothed = (1 - eps) * expected / 5 + eps * (-lsm:sum() / 3) / 5
    close(nn.CrossEntropyLoss{ label_smoothing = eps }(Z, y).value, luma.full(1, 1, smoothed))
    local P = T:softmax(2)
    close(nn.CrossEntropyLoss()(Z, P).value, luma.full(1, 1, -(P:mul(lsm)):sum() / 5))
    assert.has_error(function() nn.CrossEntropyLoss()(Z, { 1, 2, 3, 4, 1 }) end,
      "CrossEntropyLoss: target 4 is 4, not a class in 1..3")
  end)

  it("BCE on probabilities equals BCE with logits on their logits; label smoothing maps 0 to eps, 1 to 1 - eps", function()
    local t = g:uniform(5, 3):gt(0.5)
    local p = Z:sigmoid()
    local bce = -(t:mul(p:log()) + (1 - t):mul((1 - p):log()))
    close(nn.BCELoss()(p, t).value, luma.full(1, 1, bce:mean()), 1e-12)
    close(nn.BCEWithLogitsLoss()(Z, t).value, luma.full(1, 1, bce:mean()), 1e-12)
    local s = t * 0.8 + 0.1
    local smoothed = -(s:mul(p:log()) + (1 - s):mul((1 - p):log()))
    close(nn.BCEWithLogitsLoss{ label_smoothing = 0.1 }(Z, t).value, luma.full(1, 1, smoothed:mean()), 1e-12)
  end)

  it("triplet and contrastive losses: closed forms on a hand-made example", function()
    local a = luma.matrix{ { 0, 0 }, { 1, 1 } }
    local p = luma.matrix{ { 3, 4 }, { 1, 1 } }
    local n = luma.matrix{ { 0, 1 }, { 4, 5 } }
    -- d(a,p) = 5, ~0; d(a,n) = 1, 5 (plus PyTorch's 1e-6 inside the norm)
    local l = nn.TripletMarginLoss{ margin = 1, reduction = "none" }(a, p, n).value
    assert.is_true(math.abs(l:get(1, 1) - 5) < 1e-5)
    assert.are.equal(0, l:get(2, 1))
    local similar = luma.matrix{ { 1 }, { 0 } }
    local pairwise = nn.ContrastiveLoss{ margin = 2, reduction = "none" }(a, n, similar).value
    -- similar pair at d = 1: 1/2; dissimilar pair at d = 5 > margin: 0
    assert.is_true(math.abs(pairwise:get(1, 1) - 0.5) < 1e-5)
    assert.are.equal(0, pairwise:get(2, 1))
    local notes = nn.ContrastiveLoss{ margin = 0.5, form = "notes", reduction = "none" }(a, n, luma.matrix{ { 1 }, { 0 } }).value
    -- similar: [1 - 0.5]_+ = 0.5; dissimilar: [1 - 5]_+ = 0
    assert.is_true(math.abs(notes:get(1, 1) - 0.5) < 1e-5)
    assert.are.equal(0, notes:get(2, 1))
  end)

  it("every loss's gradient matches central differences", function()
    local y = { 1, 3, 2, 2, 1 }
    local t = g:uniform(5, 3):gt(0.5)
    local cases = {
      function(z) return nn.MSELoss()(z, T) end,
      function(z) return nn.L1Loss()(z, T) end,
      function(z) return nn.HuberLoss{ delta = 0.7 }(z, T) end,
      function(z) return nn.BCELoss()(z:sigmoid(), t) end,
      function(z) return nn.BCEWithLogitsLoss{ label_smoothing = 0.05 }(z, t) end,
      function(z) return nn.CrossEntropyLoss{ label_smoothing = 0.1 }(z, y) end,
      function(z) return nn.NLLLoss{ reduction = "sum" }(z:log_softmax(), y) end,
      function(z) return nn.TripletMarginLoss{ margin = 3 }(z, T, T * 0.5) end,
      function(z) return nn.ContrastiveLoss{ margin = 3 }(z, T, luma.matrix{ { 1 }, { 0 }, { 1 }, { 0 }, { 0 } }) end,
    }
    for i, f in ipairs(cases) do
      local ok, err = ag.gradcheck(f, { Z })
      assert.is_true(ok, "case " .. i .. ": " .. tostring(err))
    end
  end)
end)
