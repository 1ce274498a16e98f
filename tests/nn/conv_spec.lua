-- luma.nn's convolution and pooling layers (lua/luma/nn/conv.lua,
-- src/ml/nn/conv.c): gradients against central differences
-- (luma.autograd.gradcheck, 1e-6) for every option, outputs and every
-- gradient against PyTorch 1.13 within 1e-10 relative, bit-identical
-- results for any thread count, and the errors of bad inputs at the
-- caller's line.
-- The reference values in tests/nn/reference/torch_conv.lua were printed by
--   /usr/bin/python3 tests/nn/reference/torch_conv.py > tests/nn/reference/torch_conv.lua
-- from closed formulas repeated below (0-based n, j there, 1-based here).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local nn = luma.nn
local ag = luma.autograd
local REFERENCE = dofile("tests/nn/reference/torch_conv.lua")

local N = 2

local grid = support.grid

local function x_of(cols)
  return grid(N, cols, function(n, j) return math.sin(1 + 2 * n + 0.61 * j) + 0.1 * j / cols end)
end

-- |actual - expected| <= 1e-10 |expected| + 1e-15 (the floor for elements
-- that are 0 in exact arithmetic, where both leave rounding of O(1) terms).
local TOL, FLOOR = 1e-10, 1e-15
local function near(expected, actual, what) support.torch_near(expected, actual, what, TOL, FLOOR) end

describe("luma.nn convolution and pooling against PyTorch 1.13", function()
  local names = {}
  for name in pairs(REFERENCE) do names[#names + 1] = name end
  table.sort(names)
  it("has every case", function() assert.are.equal(33, #names) end)
  for _, name in ipairs(names) do
    it(name, function()
      local case = REFERENCE[name]
      local m = nn[case.layer](case.args())
      if m.weight then
        local W = m.weight.value
        W:assign(grid(W:rows(), W:cols(), function(o, q) return 0.5 * math.cos(1 + o + 0.37 * q) end))
        if m.bias then
          m.bias.value:assign(grid(1, m.bias.value:cols(), function(_, o) return 0.2 * math.sin(2 + o) end))
        end
      end
      if case.training == false then
        m:evaluate()
        local C = m.num_features
        m.running_mean:assign(grid(1, C, function(_, c) return 0.1 * math.sin(c) end))
        m.running_var:assign(grid(1, C, function(_, c) return 1 + 0.3 * math.cos(c) end))
      end
      local x = ag.Variable(x_of(case.cols), { requires_grad = true })
      local y = m(x)
      near(case.output, y.value, "output")
      local S = grid(N, y.value:cols(), function(n, j) return math.cos(0.3 + 0.7 * n + 0.29 * j) end)
      y:mul(S):sum():backward()
      near(case.grad_input, x.grad, "input gradient")
      if case.grad_weight then near(case.grad_weight, m.weight.grad, "weight gradient") end
      if case.grad_bias then near(case.grad_bias, m.bias.grad, "bias gradient") end
      assert.are.equal(case.grad_bias == nil, m.weight ~= nil and m.bias == nil or m.weight == nil)
      if case.running_mean then
        near(case.running_mean, m.running_mean, "running mean")
        near(case.running_var, m.running_var, "running variance")
      end
    end)
  end
end)

-- gradcheck of m(x) with respect to x and every parameter of m: the
-- layer runs with the Variables gradcheck perturbs in its parameters'
-- places.
local function check(m, cols, seed)
  local X = luma.random.Generator(seed or 3):normal(3, cols)
  local inputs, names, saved = { X }, {}, {}
  for k, pair in ipairs(m:named_parameters()) do
    names[k], saved[k] = pair[1], pair[2]
    inputs[k + 1] = pair[2].value:copy()
  end
  local ok, err = ag.gradcheck(function(x, ...)
    local params = { ... }
    for k, name in ipairs(names) do m[name] = params[k] end
    local out = m(x)
    for k, name in ipairs(names) do m[name] = saved[k] end
    return out
  end, inputs)
  assert.is_true(ok, "gradcheck error " .. tostring(err))
  assert.is_true(err < 1e-6)
end

describe("luma.nn convolution gradients (gradcheck)", function()
  local g = function() return luma.random.Generator(5) end
  it("Conv2d: plain, stride, padding, dilation, groups, no bias", function()
    check(nn.Conv2d(2, 3, 3, { input_size = { 5, 4 }, generator = g() }), 40)
    check(nn.Conv2d(2, 3, { 2, 3 }, { stride = { 2, 1 }, input_size = { 5, 4 }, generator = g() }), 40)
    check(nn.Conv2d(2, 2, 3, { padding = { 1, 2 }, input_size = { 4, 4 }, generator = g() }), 32)
    check(nn.Conv2d(1, 2, 2, { dilation = 2, padding = 1, generator = g() }), 25)
    check(nn.Conv2d(4, 2, 2, { groups = 2, generator = g() }), 36)
    check(nn.Conv2d(2, 2, 3, { bias = false, stride = 2, padding = 1, generator = g() }), 32)
  end)
  it("Conv1d: plain, stride, padding, dilation, groups, no bias", function()
    check(nn.Conv1d(2, 3, 3, { generator = g() }), 14)
    check(nn.Conv1d(2, 3, 3, { stride = 2, generator = g() }), 14)
    check(nn.Conv1d(2, 2, 4, { padding = 2, generator = g() }), 12)
    check(nn.Conv1d(1, 2, 3, { dilation = 2, padding = 1, generator = g() }), 9)
    check(nn.Conv1d(4, 2, 2, { groups = 2, generator = g() }), 20)
    check(nn.Conv1d(2, 2, 3, { bias = false, stride = 3, padding = 1, generator = g() }), 16)
  end)
  it("ConvTranspose2d: plain, stride, padding, output padding, dilation, groups, no bias", function()
    check(nn.ConvTranspose2d(2, 3, 3, { input_size = { 3, 4 }, generator = g() }), 24)
    check(nn.ConvTranspose2d(2, 2, { 2, 3 }, { stride = { 2, 1 }, input_size = { 3, 4 }, generator = g() }), 24)
    check(nn.ConvTranspose2d(2, 2, 3, { stride = 2, padding = { 1, 2 }, input_size = { 3, 4 },
      generator = g() }), 24)
    check(nn.ConvTranspose2d(2, 2, 3, { stride = 3, padding = 1, output_padding = { 2, 1 },
      input_size = { 3, 4 }, generator = g() }), 24)
    -- output padding below the dilation but not the stride
    check(nn.ConvTranspose2d(1, 2, 2, { dilation = 2, output_padding = 1, generator = g() }), 9)
    check(nn.ConvTranspose2d(4, 2, 2, { groups = 2, stride = 2, generator = g() }), 16)
    check(nn.ConvTranspose2d(2, 2, 3, { bias = false, stride = 2, padding = 1, generator = g() }), 18)
  end)
  it("ConvTranspose1d: plain, stride, padding, output padding, dilation, groups, no bias", function()
    check(nn.ConvTranspose1d(2, 3, 3, { generator = g() }), 10)
    check(nn.ConvTranspose1d(2, 2, 4, { stride = 3, padding = 2, output_padding = 1, generator = g() }), 10)
    check(nn.ConvTranspose1d(1, 2, 2, { dilation = 3, padding = 1, output_padding = 2, generator = g() }), 6)
    check(nn.ConvTranspose1d(4, 2, 3, { groups = 2, stride = 2, bias = false, generator = g() }), 16)
  end)
  it("Dropout2d (the same draws at every call)", function()
    local m = nn.Dropout2d(0.4, { input_size = { 4, 2, 3 } })
    local X = luma.random.Generator(3):normal(3, 24)
    local ok, err = ag.gradcheck(function(x)
      m.generator = luma.random.Generator(9)
      return m(x)
    end, { X })
    assert.is_true(ok, "gradcheck error " .. tostring(err))
  end)
  it("pooling layers", function()
    check(nn.MaxPool2d(2, { input_size = { 2, 4, 5 } }), 40)
    check(nn.MaxPool2d(3, { stride = { 2, 1 }, padding = 1, input_size = { 2, 4, 5 } }), 40)
    check(nn.AvgPool2d(3, { stride = 2, padding = 1, input_size = { 2, 4, 5 } }), 40)
    check(nn.MaxPool1d(3, { stride = 2, padding = 1, input_size = { 2, 7 } }), 14)
    check(nn.AvgPool1d(2, { input_size = { 2, 7 } }), 14)
    check(nn.AdaptiveAvgPool2d({ 2, 3 }, { input_size = { 2, 5, 4 } }), 40)
    check(nn.AdaptiveAvgPool1d(3, { input_size = { 2, 7 } }), 14)
  end)
  it("BatchNorm2d (training and inference) and Upsample", function()
    local bn = nn.BatchNorm2d(2)
    bn.weight.value:assign(luma.matrix({ { 0.7, -1.3 } }))
    bn.bias.value:assign(luma.matrix({ { 0.2, 0.5 } }))
    check(bn, 12)
    check(bn:evaluate(), 12)
    check(nn.Upsample({ scale_factor = { 2, 3 }, input_size = { 2, 2, 3 } }), 12)
  end)
end)

describe("luma.nn.Dropout2d", function()
  it("zeroes whole channels and scales the rest by 1 / (1 - p)", function()
    local m = nn.Dropout2d(0.25, { input_size = { 50, 2, 2 }, generator = luma.random.Generator(4) })
    local X = luma.random.Generator(5):normal(40, 200) + 3
    local Y = m(X).value
    local dropped = 0
    for n = 1, 40 do
      for c = 0, 49 do
        local zeros = 0
        for q = 1, 4 do
          local j = c * 4 + q
          if Y:get(n, j) == 0 then
            zeros = zeros + 1
          else
            assert.is_true(math.abs(Y:get(n, j) - X:get(n, j) / 0.75) <= 1e-12 * math.abs(Y:get(n, j)))
          end
        end
        assert.is_true(zeros == 0 or zeros == 4, "a channel is dropped whole")
        if zeros == 4 then dropped = dropped + 1 end
      end
    end
    -- 2000 channels, p = 0.25: 500 expected, sd sqrt(2000 0.25 0.75) = 19.4 (4 sd each side)
    assert.is_true(dropped > 422 and dropped < 578, "dropped " .. dropped)
    assert.are.same({ 50, 2, 2 }, m:output_size())
  end)
  it("is the identity at inference and repeats with the generator", function()
    local X = luma.random.Generator(5):normal(6, 12)
    local m = nn.Dropout2d(0.5, { input_size = { 3, 4 } })
    assert.is_true(m:evaluate()(X).value:equal(X))
    local a = nn.Dropout2d(0.5, { input_size = { 3, 4 }, generator = luma.random.Generator(2) })(X).value
    local b = nn.Dropout2d(0.5, { input_size = { 3, 4 }, generator = luma.random.Generator(2) })(X).value
    assert.is_true(a:equal(b))
    assert.is_false(a:equal(X))
  end)
end)

describe("luma.nn.ConvTranspose1d", function()
  it("is the adjoint of Conv1d: <conv(x), y> = <x, convT(y)> with the same weight", function()
    local g = luma.random.Generator(18)
    local c = nn.Conv1d(3, 2, 3, { stride = 2, padding = 1, dilation = 2, bias = false,
      input_size = { 11 }, generator = g })
    local size = c:output_size()
    assert.are.same({ 2, 5 }, size)
    local t = nn.ConvTranspose1d(2, 3, 3, { stride = 2, padding = 1, dilation = 2, bias = false,
      output_padding = 0, input_size = { size[2] }, generator = g })
    t.weight.value:assign(c.weight.value)
    assert.are.same({ 3, 11 }, t:output_size())
    local x, y = g:normal(2, 3 * 11), g:normal(2, 2 * size[2])
    local lhs, rhs = c(x).value:dot(y), x:dot(t(y).value)
    assert.is_true(math.abs(lhs - rhs) <= 1e-12 * math.abs(lhs), lhs .. " vs " .. rhs)
  end)
  it("doubles a signal's length by a kernel of ones with stride 2, and names its errors", function()
    local t = nn.ConvTranspose1d(1, 1, 2, { stride = 2, bias = false })
    t.weight.value:assign(luma.ones(1, 2))
    assert.matrix_near({ { 1, 1, 2, 2, 3, 3 } }, t(luma.matrix({ { 1, 2, 3 } })).value, 0)
    assert.are.same({ 1, 6 }, t:output_size({ 3 }))
    assert.has_error(function() nn.ConvTranspose1d(1, 1, 3, { stride = 2, output_padding = 2 }) end,
      "ConvTranspose1d: output_padding (2) must be smaller than the stride (2) or the dilation (1)")
    assert.has_error(function() nn.ConvTranspose1d(1, 1, 2, { padding = 3 })(luma.ones(1, 2)) end,
      "ConvTranspose1d: the output of a length 2 input would be empty (-3): the padding (3) crops "
        .. "more than the dilated kernel (2) adds")
    assert.has_error(function() nn.ConvTranspose1d(3, 2, 2, { groups = 2 }) end,
      "ConvTranspose1d: in_channels (3) is not divisible by groups (2)")
    assert.equal("ConvTranspose1d(1, 1, kernel_size=2, stride=2, output_padding=1)",
      tostring(nn.ConvTranspose1d(1, 1, 2, { stride = 2, output_padding = 1 })):match("^[^\n]*"))
  end)
end)

describe("luma.nn.ConvTranspose2d", function()
  it("is the adjoint of Conv2d: <conv(x), y> = <x, convT(y)> with the same weight", function()
    local g = luma.random.Generator(8)
    local c = nn.Conv2d(3, 2, 3, { stride = 2, padding = 1, dilation = { 1, 2 }, bias = false,
      input_size = { 7, 8 }, generator = g })
    local size = c:output_size()
    local t = nn.ConvTranspose2d(2, 3, 3, { stride = 2, padding = 1, dilation = { 1, 2 }, bias = false,
      output_padding = { 0, 1 }, input_size = { size[2], size[3] }, generator = g })
    t.weight.value:assign(c.weight.value)
    assert.are.same({ 3, 7, 8 }, t:output_size())
    local x, y = g:normal(2, 3 * 7 * 8), g:normal(2, 2 * size[2] * size[3])
    local lhs, rhs = c(x).value:dot(y), x:dot(t(y).value)
    assert.is_true(math.abs(lhs - rhs) <= 1e-12 * math.abs(lhs), lhs .. " vs " .. rhs)
  end)
  it("upsamples a 1-channel image by a 2 x 2 kernel of ones with stride 2", function()
    local t = nn.ConvTranspose2d(1, 1, 2, { stride = 2, bias = false })
    t.weight.value:assign(luma.ones(1, 4))
    assert.matrix_near({ { 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4 } },
      t(luma.matrix({ { 1, 2, 3, 4 } })).value, 0)
  end)
end)

describe("luma.nn convolution layout and kernels", function()
  it("computes a hand-checked 1-channel convolution and max pooling", function()
    -- the 3 x 3 image 1..9 with the 2 x 2 kernel [1 0; 0 -1] (no bias):
    -- x[i][j] - x[i+1][j+1] = -4 everywhere
    local m = nn.Conv2d(1, 1, 2, { bias = false })
    m.weight.value:assign(luma.matrix({ { 1, 0, 0, -1 } }))
    local y = m(luma.matrix({ { 1, 2, 3, 4, 5, 6, 7, 8, 9 } }))
    assert.matrix_near({ { -4, -4, -4, -4 } }, y.value, 0)
    -- max of the 2 x 2 windows of 1..16 (4 x 4): 6, 8, 14, 16
    local p = nn.MaxPool2d(2, { input_size = { 1, 4, 4 } })
    assert.matrix_near({ { 6, 8, 14, 16 } }, p(luma.arange(1, 16):t()).value, 0)
    -- ties: the gradient goes to the window's first maximum only
    local x = ag.Variable(luma.ones(1, 4), { requires_grad = true })
    nn.MaxPool1d(4, { input_size = { 1, 4 } })(x):sum():backward()
    assert.matrix_near({ { 1, 0, 0, 0 } }, x.grad, 0)
  end)

  it("chains to Flatten and Linear with output_size", function()
    local c = nn.Conv2d(1, 4, 3, { padding = 1, input_size = { 6, 6 }, generator = luma.random.Generator(1) })
    assert.are.same({ 4, 6, 6 }, c:output_size())
    local p = nn.MaxPool2d(2, { input_size = c:output_size() })
    assert.are.same({ 4, 3, 3 }, p:output_size())
    local model = nn.Sequential{ c, nn.ReLU(), p, nn.Flatten(), nn.Linear(36, 2) }
    local out = model(luma.random.Generator(2):normal(5, 36))
    assert.are.same({ 5, 2 }, { out.value:shape() })
    assert.are.same({ 3, 4 }, nn.Conv1d(2, 3, 3, { stride = 2 }):output_size({ 9 }))
  end)

  it("trains the example of docs/NN.md to classify every image", function()
    -- docs/NN.md, "Convolutional networks": the same code
    local g = luma.random.Generator(1)
    local n = 200
    local X, y = g:normal(n, 64) * 0.3, {}
    for i = 1, n do
      y[i] = i % 2 + 1
      local at = (i * 7) % 8
      for k = 0, 7 do
        local r, c = (y[i] == 1) and at or k, (y[i] == 1) and k or at
        X:set(i, r * 8 + c + 1, X:get(i, r * 8 + c + 1) + 1)
      end
    end
    local conv = nn.Conv2d(1, 4, 3, { padding = 1, input_size = { 8, 8 }, generator = g })
    local pool = nn.MaxPool2d(2, { input_size = conv:output_size() })
    local model = nn.Sequential{ conv, nn.ReLU(), pool, nn.Flatten(),
      nn.Linear(4 * 4 * 4, 2, { generator = g }) }
    local loss_fn = nn.CrossEntropyLoss()
    local opt = luma.optim.Adam{ lr = 0.01, params = model:parameters() }
    for _ = 1, 20 do
      for Xb, yb in nn.batches(X, luma.matrix(y):reshape(n, 1), { batch_size = 50 }) do
        opt:zero_grad()
        loss_fn(model(Xb), yb):backward()
        opt:step()
      end
    end
    local scores = model:evaluate()(X).value
    local right = 0
    for i = 1, n do
      if (scores:get(i, 2) > scores:get(i, 1) and 2 or 1) == y[i] then right = right + 1 end
    end
    assert.are.equal(n, right)
  end)

  it("gives bit-identical results for any thread count", function()
    local m = nn.Conv2d(3, 8, 3, { padding = 1, groups = 1, input_size = { 10, 10 },
      generator = luma.random.Generator(4) })
    local X = luma.random.Generator(6):normal(64, 300)
    local saved = luma.config().threads
    local results = {}
    for t = 1, 2 do
      luma.config({ threads = t })
      m:zero_grad()
      local x = ag.Variable(X, { requires_grad = true })
      local y = m(x)
      y:mul(y):sum():backward()
      results[t] = { y.value, x.grad, m.weight.grad, m.bias.grad }
    end
    luma.config({ threads = saved })
    for k = 1, 4 do assert.is_true(results[1][k]:equal(results[2][k])) end
  end)
end)

describe("luma.nn convolution errors", function()
  -- the error must name the spec's own line: where the layer was called
  -- (fn must not tail-call the layer: a tail call leaves no caller line)
  local function at_line(pattern, fn)
    local ok, err = pcall(fn)
    assert.is_false(ok)
    err = tostring(err)
    assert.is_truthy(err:match(pattern), err)
    local line = debug.getinfo(fn, "S").linedefined
    assert.is_truthy(err:match("conv_spec%.lua:" .. line .. ":"), "not at the caller's line: " .. err)
  end
  it("names a row width that does not match C x H x W", function()
    local m = nn.Conv2d(2, 3, 3, { input_size = { 5, 6 } })
    at_line("Conv2d: input is 4 x 59 but the layer expects in_channels x H x W = 2 x 5 x 6 = 60 columns per row",
      function() local r = m(luma.zeros(4, 59)) return r end)
    at_line("Conv2d: input is 4 x 60, which is not in_channels %(2%) x H x W for square images",
      function() local r = nn.Conv2d(2, 3, 3)(luma.zeros(4, 60)) return r end)
    at_line("MaxPool2d: input is 4 x 59 but input_size is 3 x 4 x 5 = 60 columns per row",
      function() local r = nn.MaxPool2d(2, { input_size = { 3, 4, 5 } })(luma.zeros(4, 59)) return r end)
  end)
  it("refuses a kernel larger than the padded input", function()
    at_line("Conv2d: the kernel %(5 x 5, dilated%) is larger than the padded input %(4 x 4%)",
      function() local r = nn.Conv2d(1, 1, 3, { dilation = 2 })(luma.zeros(1, 16)) return r end)
    at_line("Conv1d: the kernel %(4 wide, dilated%) is larger than the padded input %(3%)",
      function() local r = nn.Conv1d(1, 1, 4)(luma.zeros(1, 3)) return r end)
  end)
  it("refuses in_channels not divisible by groups", function()
    at_line("Conv2d: in_channels %(3%) is not divisible by groups %(2%)",
      function() local r = nn.Conv2d(3, 4, 3, { groups = 2 }) return r end)
  end)
  it("refuses a row that is not num_features channels", function()
    at_line("BatchNorm2d: input is 2 x 10, whose 10 columns are not num_features %(3%) channels of one size",
      function() local r = nn.BatchNorm2d(3)(luma.zeros(2, 10)) return r end)
  end)
  it("checks the constructors' arguments", function()
    at_line("Conv2d: kernel_size must be an integer in %[1, 2147483647%], got 0",
      function() local r = nn.Conv2d(2, 3, 0) return r end)
    at_line("Conv2d: stride must be an integer or a list of 2 integers, got table",
      function() local r = nn.Conv2d(2, 3, 3, { stride = { 1 } }) return r end)
    at_line("Conv1d: out_channels %(3%) is not divisible by groups %(2%)",
      function() local r = nn.Conv1d(2, 3, 3, { groups = 2 }) return r end)
    at_line("MaxPool2d: input_size must be a list of 3 integers %(C, H, W%), got nil",
      function() local r = nn.MaxPool2d(2) return r end)
    at_line("MaxPool2d: the kernel %(5 x 5, dilated%) is larger than the padded input %(3 x 3%)",
      function() local r = nn.MaxPool2d(5, { input_size = { 1, 3, 3 } }) return r end)
    at_line("AvgPool1d: padding %(2%) must be at most half the kernel size %(3%)",
      function() local r = nn.AvgPool1d(3, { padding = 2, input_size = { 1, 5 } }) return r end)
    at_line("AdaptiveAvgPool2d: output_size must be an integer in %[1, 2147483647%], got 0",
      function() local r = nn.AdaptiveAvgPool2d(0, { input_size = { 1, 2, 2 } }) return r end)
    at_line("Upsample: scale_factor must be an integer in %[1, 2147483647%], got 0",
      function() local r = nn.Upsample({ scale_factor = 0, input_size = { 1, 2, 2 } }) return r end)
    at_line("BatchNorm2d: num_features must be an integer in %[1, 2147483647%], got 0",
      function() local r = nn.BatchNorm2d(0) return r end)
    local c = nn.Conv2d(1, 1, 3)
    at_line("Conv2d: output_size needs the input's size", function() local r = c:output_size() return r end)
    at_line("Conv2d: the kernel %(3 x 3, dilated%) is larger than the padded input %(2 x 2%)",
      function() local r = c:output_size({ 2, 2 }) return r end)
  end)
  it("checks the native kernels' arguments (a direct call)", function()
    local native = require("luma.nn.native")
    local errors_with = require("support").errors_with
    errors_with("bad argument #2 to 'conv2d' %(W is 1 x 4 but must be out x 2 with out divisible by 1 groups%)",
      function() native.conv2d(luma.zeros(1, 5), luma.zeros(1, 4), nil, 1, 1, 5, 1, 2, 1, 1, 0, 0, 1, 1, 1) end)
    errors_with("bad argument #1 to 'conv2d' %(x has 6 columns but the geometry needs 5%)",
      function() native.conv2d(luma.zeros(1, 6), luma.zeros(1, 2), nil, 1, 1, 5, 1, 2, 1, 1, 0, 0, 1, 1, 1) end)
    errors_with("bad argument #7 to 'conv2d' %(the kernel is larger than the padded input%)",
      function() native.conv2d(luma.zeros(1, 5), luma.zeros(1, 6), nil, 1, 1, 5, 1, 6, 1, 1, 0, 0, 1, 1, 1) end)
    errors_with("bad argument #15 to 'conv2d' %(3 channels are not divisible by 2 groups%)",
      function() native.conv2d(luma.zeros(1, 15), luma.zeros(2, 2), nil, 3, 1, 5, 1, 2, 1, 1, 0, 0, 1, 1, 2) end)
    errors_with("bad argument #3 to 'pool2d' %(a sample or a kernel has more than 2147483647 elements%)",
      function() native.pool2d("max", luma.zeros(1, 1), 65536, 65536, 1, 1, 1, 1, 1, 0, 0) end)
    errors_with("bad argument #3 to 'pool2d_backward' %(G has 3 columns but the geometry needs 2%)",
      function() native.pool2d_backward("max", luma.zeros(1, 4), luma.zeros(1, 3), 1, 1, 4, 1, 2, 1, 2, 0, 0) end)
  end)
  it("refuses a ConvTranspose2d input with another channel count, naming both", function()
    local t = nn.ConvTranspose2d(2, 3, 3, { input_size = { 4, 5 } })
    at_line("ConvTranspose2d: input has 3 channels of 4 x 5 %(60 columns a row%) but in_channels is 2",
      function() local r = t(luma.zeros(2, 60)) return r end)
    at_line("Conv2d: input has 4 channels of 5 x 6 %(120 columns a row%) but in_channels is 2",
      function() local r = nn.Conv2d(2, 3, 3, { input_size = { 5, 6 } })(luma.zeros(2, 120)) return r end)
    at_line("Dropout2d: input has 5 channels of 6 values %(30 columns a row%) but input_size has 4",
      function() local r = nn.Dropout2d(0.5, { input_size = { 4, 2, 3 } })(luma.zeros(2, 30)) return r end)
  end)
  it("refuses a ConvTranspose2d whose padding crops the whole output", function()
    -- (1 - 1) 1 - 2 2 + 1 (2 - 1) + 0 + 1 = -2: the padded-away rows are more than the kernel gives
    at_line("ConvTranspose2d: the output of a 1 x 3 input would be empty %(%-2 x 0%)",
      function() local r = nn.ConvTranspose2d(1, 1, 2, { padding = 2, input_size = { 1, 3 } })(luma.zeros(1, 3)) return r end)
  end)
  it("checks ConvTranspose2d's and Dropout2d's options", function()
    at_line("ConvTranspose2d: output_padding %(2%) must be smaller than the stride %(2%) or the dilation %(1%)",
      function() local r = nn.ConvTranspose2d(1, 1, 3, { stride = 2, output_padding = 2 }) return r end)
    at_line("ConvTranspose2d: out_channels %(3%) is not divisible by groups %(2%)",
      function() local r = nn.ConvTranspose2d(2, 3, 3, { groups = 2 }) return r end)
    at_line("Dropout2d: p must be a number in %[0, 1%), got 1",
      function() local r = nn.Dropout2d(1, { input_size = { 1, 2, 2 } }) return r end)
    at_line("Dropout2d: input_size must be a list of 3 integers %(C, H, W%) or 2 %(C, L%), got nil",
      function() local r = nn.Dropout2d(0.5) return r end)
    local native = require("luma.nn.native")
    local errors_with = require("support").errors_with
    errors_with("bad argument #16 to 'conv_transpose2d' %(output padding must be smaller than the stride or the dilation%)",
      function() native.conv_transpose2d(luma.zeros(1, 4), luma.zeros(1, 4), nil, 1, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1, 1, 1, 0) end)
    errors_with("bad argument #2 to 'conv_transpose2d' %(W is 1 x 3 but must be 1 x %(out/groups 4%)%)",
      function() native.conv_transpose2d(luma.zeros(1, 4), luma.zeros(1, 3), nil, 1, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1, 1, 0, 0) end)
  end)
  it("refuses a channel mismatch", function()
    at_line("Conv1d: input is 2 x 10 but the layer expects in_channels %(3%) x length per row",
      function() local r = nn.Conv1d(3, 4, 2)(luma.zeros(2, 10)) return r end)
  end)
end)
