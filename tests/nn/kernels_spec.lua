-- luma.nn.native (src/ml/nn): the fused kernels give exactly what the
-- chains of matrix operations they replace give (the same floating-point
-- operations in the same order, so == holds, not a tolerance), on
-- contiguous, strided and large (banded, threaded) operands; and they
-- refuse bad input.  Also autograd.linear/addmm, built on affine.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local native = require("luma.nn.native")
local ag = luma.autograd
local V = ag.Variable

local rng = luma.random.Generator(11)

-- Equal element for element (NaN nowhere expected).
local function identical(a, b)
  assert.are.equal(a:rows(), b:rows())
  assert.are.equal(a:cols(), b:cols())
  assert.is_true(a:eq(b):all(), "the fused kernel differs from the chained operations")
end

-- The update rules written as chains of whole-matrix operations, as
-- lua/luma/optim/sgd.lua computed them before the fused kernels.
local function den(v, eps, outside)
  if outside then return v:sqrt() + eps end
  return (v + eps):sqrt()
end
local chained = {
  sgd = function(p, g, _, _, lr) return p - g * lr end,
  momentum = function(p, g, s1, _, lr, m)
    local v = s1 * m + g * lr
    return p - v, v
  end,
  nesterov = function(p, g, s1, _, lr, m)
    local v = s1 * m + g * lr
    return (p - v * m) - g * lr, v
  end,
  adagrad = function(p, g, s1, _, lr, _, _, _, _, eps, outside)
    local s = s1 + g:mul(g)
    return p - g:div(den(s, eps, outside)) * lr, s
  end,
  rmsprop = function(p, g, s1, _, lr, rho, _, _, _, eps, outside)
    local v = s1 * rho + g:mul(g) * (1 - rho)
    return p - g:div(den(v, eps, outside)) * lr, v
  end,
  adam = function(p, g, s1, s2, lr, b1, b2, c1, c2, eps, outside, decay)
    p = p * decay
    local u = s1 * b1 + g * (1 - b1)
    local v = s2 * b2 + g:mul(g) * (1 - b2)
    return p - u:div(den(v * (1 / c2), eps, outside)) * (lr / c1), u, v
  end,
}

local function check_rule(rule, r, c, view)
  local p, g = rng:normal(r, c), rng:normal(r, c)
  local s1, s2 = rng:uniform(r, c), rng:uniform(r, c)
  local hyper = { 0.01, 0.9, 0.999, 0.271, 0.0019, 1e-8, rule == "adagrad", 0.99 }
  local want_p, want_s1, want_s2 = chained[rule](p, g, s1, s2, table.unpack(hyper))
  if view then -- the same values behind transposed (strided) views
    p, g, s1, s2 = p:t():copy():t(), g:t():copy():t(), s1:t():copy():t(), s2:t():copy():t()
  end
  native.step(rule, p, g, rule ~= "sgd" and s1 or nil, rule == "adam" and s2 or nil,
    table.unpack(hyper, 1, rule == "adam" and 8 or 7))
  identical(p, want_p)
  if want_s1 then identical(s1, want_s1) end
  if want_s2 then identical(s2, want_s2) end
end

describe("luma.nn.native.step", function()
  it("equals the chained update of every rule, contiguous, strided and banded", function()
    for _, rule in ipairs({ "sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adam" }) do
      check_rule(rule, 7, 5, false)
      check_rule(rule, 7, 5, true)
      -- 300 x 300 is above the 65,536 elements from which bands run on the pool
      check_rule(rule, 300, 300, false)
    end
  end)

  it("applies AdamW's decay before the moments, and eps inside or outside the root", function()
    -- one element by hand: p = 1, g = 0.5, zero moments, t = 1 (c1 = 0.1, c2 = 0.001)
    local p, u, v = luma.matrix{ { 1 } }, luma.zeros(1, 1), luma.zeros(1, 1)
    native.step("adam", p, luma.matrix{ { 0.5 } }, u, v, 0.1, 0.9, 0.999, 0.1, 0.001, 0, false, 0.5)
    -- u = 0.05, v = 0.00025; u^ = 0.5, v^ = 0.25: p = 0.5 - 0.1 * 0.5 / 0.5 = 0.4
    assert.are.near(0.05, u:get(1, 1), 1e-15)
    assert.are.near(0.00025, v:get(1, 1), 1e-18)
    assert.are.near(0.4, p:get(1, 1), 1e-15)
    -- sqrt(4 + 5) + 0 against sqrt(4) + 5: Adagrad from s = 4 - 1 with g = 1, lr = 1
    local inside, outside = luma.matrix{ { 0 } }, luma.matrix{ { 0 } }
    native.step("adagrad", inside, luma.ones(1, 1), luma.matrix{ { 3 } }, nil, 1, 0, 0, 1, 1, 5, false)
    native.step("adagrad", outside, luma.ones(1, 1), luma.matrix{ { 3 } }, nil, 1, 0, 0, 1, 1, 5, true)
    assert.are.near(-1 / 3, inside:get(1, 1), 1e-15)
    assert.are.near(-1 / 7, outside:get(1, 1), 1e-15)
  end)

  it("refuses bad rules, shapes and overlapping operands", function()
    local p = luma.zeros(2, 3)
    errors_with("invalid option 'adamax'", function() native.step("adamax", p, p:copy(), nil, nil, 1) end)
    errors_with("g is 3 x 2 but p is 2 x 3", function() native.step("sgd", p, luma.zeros(3, 2), nil, nil, 1) end)
    errors_with("s1 is 1 x 3 but p is 2 x 3", function()
      native.step("momentum", p, luma.zeros(2, 3), luma.zeros(1, 3), nil, 1, 0.9)
    end)
    errors_with("s2 is 2 x 2 but p is 2 x 3", function()
      native.step("adam", p, luma.zeros(2, 3), luma.zeros(2, 3), luma.zeros(2, 2), 1)
    end)
    errors_with("luma.Matrix expected", function() native.step("adam", p, p:copy(), nil, nil, 1) end)
    local big = luma.zeros(2, 6)
    errors_with("shares memory with another operand", function()
      native.step("momentum", big:sub(1, 2, 1, 3), luma.zeros(2, 3), big:sub(1, 2, 2, 4), nil, 1, 0.9)
    end)
  end)
end)

describe("luma.nn.native.activation_backward", function()
  it("equals g f'(x) of every activation", function()
    local g, x = rng:normal(40, 30), rng:normal(40, 30)
    local pos = x:gt(0)
    identical(native.activation_backward("relu", g, x, x:relu()), g:mul(pos))
    identical(native.activation_backward("leaky_relu", g, x, x, 0.2), g:mul(pos + (1 - pos) * 0.2))
    local y = x:mul(pos) + x:minimum(0):expm1() * 1.5
    identical(native.activation_backward("elu", g, x, y, 1.5), g:mul(pos + (1 - pos):mul(y + 1.5)))
    identical(native.activation_backward("tanh", g, x, x:tanh()), g:mul(1 - x:tanh():mul(x:tanh())))
    local s = x:sigmoid()
    identical(native.activation_backward("sigmoid", g, x, s), g:mul(s:mul(1 - s)))
    identical(native.activation_backward("softplus", g, x, x:softplus()), g:mul(x:sigmoid()))
    -- strided views give the same
    identical(native.activation_backward("relu", g:t():copy():t(), x:t():copy():t(), x), g:mul(pos))
  end)

  it("gives an inactive rectifier's input no gradient even when g is not finite", function()
    -- PyTorch's threshold_backward: 0 where x <= 0, whatever g is
    local out = native.activation_backward("relu", luma.matrix{ { 0 / 0, 1 / 0, 2 } },
      luma.matrix{ { -1, 0, 3 } }, luma.zeros(1, 3))
    assert.are.same({ 0, 0, 2 }, { out:get(1, 1), out:get(1, 2), out:get(1, 3) })
  end)

  it("refuses unknown activations and mismatched shapes", function()
    local g = luma.zeros(2, 2)
    errors_with("invalid option 'gelu'", function() native.activation_backward("gelu", g, g, g) end)
    errors_with("x is 2 x 1 but g is 2 x 2", function()
      native.activation_backward("relu", g, luma.zeros(2, 1), g)
    end)
  end)
end)

describe("luma.nn.native.affine and autograd.linear/addmm", function()
  it("computes x W + b and x W^T + b", function()
    local x, W, b = rng:normal(9, 4), rng:normal(4, 6), rng:normal(1, 6)
    assert.matrix_near(x * W + b, native.affine(x, W, b), 1e-13)
    assert.matrix_near(x * W, native.affine(x, W), 1e-13)
    assert.matrix_near(x * W + b, native.affine(x, W:t():copy(), b, true), 1e-13)
    assert.matrix_near(x * W + b, native.affine(x:t():copy():t(), W, b), 1e-13)
  end)

  it("refuses shapes that do not fit", function()
    local x = luma.zeros(3, 4)
    errors_with("x is 3 x 4 but W is 5 x 2", function() native.affine(x, luma.zeros(5, 2)) end)
    errors_with("x is 3 x 4 but W^T is 5 x 2", function() native.affine(x, luma.zeros(2, 5), nil, true) end)
    errors_with("b is 2 x 2 but must be 1 x 2", function() native.affine(x, luma.zeros(4, 2), luma.zeros(2, 2)) end)
    errors_with("linear: x is 3 x 4 but W is 2 x 5", function()
      ag.linear(V(x), V(luma.zeros(2, 5)))
    end)
    errors_with("addmm: b is 1 x 3 but must be 1 x 2", function()
      ag.addmm(V(luma.zeros(1, 3)), V(x), V(luma.zeros(4, 2)))
    end)
    errors_with("bad argument #1 to 'addmm'", function() ag.addmm("b", V(x), V(luma.zeros(4, 2))) end)
  end)

  it("has the gradients of x W^T + b and b + x W (gradcheck)", function()
    local function passes(f, inputs)
      local ok, err = ag.gradcheck(f, inputs, { tol = 1e-6 })
      assert.is_true(ok, "max error " .. tostring(err))
    end
    local x, W, b = rng:normal(5, 3), rng:normal(4, 3), rng:normal(1, 4)
    passes(function(x_, W_, b_) return ag.linear(x_, W_, b_):tanh():sum() end, { x, W, b })
    passes(function(x_, W_) return ag.linear(x_, W_):tanh():sum() end, { x, W })
    passes(function(b_, x_, W_) return ag.addmm(b_, x_, W_):tanh():sum() end, { b, x, W:t():copy() })
  end)

  it("computes only the gradients that are wanted", function()
    local x, W, b = V(rng:normal(5, 3)), V(rng:normal(4, 3), { requires_grad = true }), V(rng:normal(1, 4))
    ag.linear(x, W, b):sum():backward()
    assert.is_nil(x.grad)
    assert.is_nil(b.grad)
    -- d/dW sum(x W^T) = 1^T x: every row of the gradient is the column sums of x
    assert.matrix_near(luma.ones(4, 1) * x.value:sum(1), W.grad, 1e-12)
  end)
end)
