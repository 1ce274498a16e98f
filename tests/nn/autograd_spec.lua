-- luma.autograd (lua/luma/autograd): every operation's backward against
-- central differences (gradcheck), closed-form gradients, broadcasting,
-- ties, the graph's life cycle and the errors.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local ag = luma.autograd
local V = ag.Variable

local rng = luma.random.Generator(7)
local function randn(r, c) return rng:normal(r, c) end
-- values away from 0, for log, sqrt, div and the kinks of abs/relu/clamp
local function positive(r, c) return rng:uniform(r, c, 0.5, 2) end
local function away_from_zero(r, c) return randn(r, c):sign():mul(positive(r, c)) end

local function passes(f, inputs, tol)
  local ok, err = ag.gradcheck(f, inputs, { tol = tol or 1e-6 })
  assert.is_true(ok, "max error " .. tostring(err))
end

describe("luma.autograd gradcheck #smoke", function()
  it("checks the element-wise operations", function()
    passes(function(a) return a:exp() end, { randn(3, 4) })
    passes(function(a) return a:log() end, { positive(3, 4) })
    passes(function(a) return a:log1p() end, { positive(3, 4) })
    passes(function(a) return a:sqrt() end, { positive(3, 4) })
    passes(function(a) return a:abs() end, { away_from_zero(3, 4) })
    passes(function(a) return a:tanh() end, { randn(3, 4) })
    passes(function(a) return a:sigmoid() end, { randn(3, 4) })
    passes(function(a) return a:relu() end, { away_from_zero(3, 4) })
    passes(function(a) return a:leaky_relu(0.2) end, { away_from_zero(3, 4) })
    passes(function(a) return a:elu(1.5) end, { away_from_zero(3, 4) })
    passes(function(a) return a:softplus() end, { randn(3, 4) })
    passes(function(a) return a:pow(3) end, { randn(3, 4) })
    passes(function(a) return a ^ 0.5 end, { positive(3, 4) })
    passes(function(a) return -a end, { randn(3, 4) })
    -- clamp away from its bounds (the kinks)
    passes(function(a) return a:clamp(-0.25, 0.25) end,
      { luma.matrix{ { -1, -0.1, 0.1 }, { 0.2, 0.5, -0.6 } } })
  end)

  it("checks the binary operations with every broadcast", function()
    local shapes = { { 3, 4 }, { 1, 4 }, { 3, 1 }, { 1, 1 } }
    for _, s in ipairs(shapes) do
      local b = away_from_zero(s[1], s[2])
      passes(function(x, y) return x + y end, { randn(3, 4), b })
      passes(function(x, y) return y - x end, { randn(3, 4), b })
      passes(function(x, y) return x:mul(y) end, { randn(3, 4), b })
      passes(function(x, y) return x:div(y) end, { randn(3, 4), b })
      passes(function(x, y) return y:div(x) end, { away_from_zero(3, 4), b })
      passes(function(x, y) return ag.maximum(x, y) end, { randn(3, 4), b })
      passes(function(x, y) return ag.minimum(y, x) end, { randn(3, 4), b })
    end
    passes(function(x) return 2 + x * 3 - 1 end, { randn(2, 2) })
    passes(function(x) return x / 4 end, { randn(2, 2) })
  end)

  it("checks the matrix product, transposes and shapes", function()
    passes(function(a, b) return a * b end, { randn(3, 4), randn(4, 2) })
    passes(function(a, b) return ag.matmul(a:t(), b) end, { randn(4, 3), randn(4, 2) })
    passes(function(a) return a:reshape(2, 6) end, { randn(3, 4) })
    passes(function(a) return a:sub(2, 3, 1, 2) end, { randn(3, 4) })
    passes(function(a) return a:row(2) + a:col(3):t():sum() end, { randn(3, 4) })
    passes(function(a) return a:take({ 3, 1, 3, 3 }) end, { randn(3, 4) })
    passes(function(a) return a:take({ 2, 2, 4 }, 2) end, { randn(3, 4) })
    passes(function(a) return a:masked_select(luma.matrix{ { 1, 0 }, { 0, 1 }, { 1, 1 } }) end,
      { randn(3, 2) })
    passes(function(a, b) return ag.hstack{ a, b, a } end, { randn(3, 2), randn(3, 1) })
    passes(function(a, b) return ag.vstack{ b, a } end, { randn(3, 2), randn(1, 2) })
  end)

  it("checks the reductions, along each dimension and over all", function()
    for _, dim in ipairs{ 1, 2 } do
      passes(function(a) return a:sum(dim) end, { randn(3, 4) })
      passes(function(a) return a:mean(dim) end, { randn(3, 4) })
      passes(function(a) return a:var(dim) end, { randn(3, 4) })
      passes(function(a) return a:var(dim, 1) end, { randn(3, 4) })
      passes(function(a) return a:max(dim) end, { randn(3, 4) })
      passes(function(a) return a:min(dim) end, { randn(3, 4) })
      passes(function(a) return a:softmax(dim) end, { randn(3, 4) })
      passes(function(a) return a:log_softmax(dim) end, { randn(3, 4) })
      passes(function(a) return a:logsumexp(dim) end, { randn(3, 4) })
    end
    passes(function(a) return a:sum() end, { randn(3, 4) })
    passes(function(a) return a:mean() end, { randn(3, 4) })
    passes(function(a) return a:var() end, { randn(3, 4) })
    passes(function(a) return a:max() end, { randn(3, 4) })
    passes(function(a) return a:logsumexp() end, { randn(3, 4) })
    passes(function(a) return a:softmax() end, { randn(5, 1) })
  end)

  it("checks a composed model: a two-layer network's loss", function()
    local X, y = randn(6, 3), luma.matrix{ 1, 3, 2, 2, 1, 3 }
    local onehot = luma.arange(1, 3):t():eq(y)
    passes(function(W1, b1, W2)
      local h = (X * W1 + b1):tanh()
      return -(h * W2):log_softmax(2):mul(onehot):sum() / 6
    end, { randn(3, 5), randn(1, 5), randn(5, 3) })
  end)
end)

describe("luma.autograd gradients", function()
  it("equals closed forms: d/dA sum(A B) = 1 B^T, d/dx sum(x^2) = 2x", function()
    local A = V(luma.matrix{ { 1, 2 }, { 3, 4 } }, { requires_grad = true })
    local B = luma.matrix{ { 5, 6 }, { 7, 8 } }
    ;(A * B):sum():backward()
    assert.matrix_near({ { 11, 15 }, { 11, 15 } }, A.grad, 0)
    local grads, value = ag.grad(function(x) return x:mul(x):sum() end, { luma.matrix{ 1, -2, 3 } })
    assert.equal(14, value)
    assert.matrix_near({ { 2 }, { -4 }, { 6 } }, grads[1], 0)
  end)

  it("sums a broadcast operand's gradient over the rows and columns it was repeated on", function()
    local b = V(luma.matrix{ { 1, 2, 3 } }, { requires_grad = true })
    local c = V(luma.full(1, 1, 2), { requires_grad = true })
    ;(luma.ones(4, 3) + b + c):sum():backward()
    assert.matrix_near({ { 4, 4, 4 } }, b.grad, 0)
    assert.equal(12, c.grad:get(1, 1))
  end)

  it("handles ties as PyTorch does", function()
    -- full max: the gradient spread evenly over the tied maxima
    local x = V(luma.matrix{ { 3, 1, 3 } }, { requires_grad = true })
    x:max():backward()
    assert.matrix_near({ { 0.5, 0, 0.5 } }, x.grad, 0)
    -- max along a dimension: to the first maximum
    x = V(luma.matrix{ { 3, 1, 3 } }, { requires_grad = true })
    x:max(2):backward()
    assert.matrix_near({ { 1, 0, 0 } }, x.grad, 0)
    -- element-wise maximum: half each at a tie
    local a = V(luma.matrix{ { 1, 2 } }, { requires_grad = true })
    local b = V(luma.matrix{ { 1, 0 } }, { requires_grad = true })
    ag.maximum(a, b):sum():backward()
    assert.matrix_near({ { 0.5, 1 } }, a.grad, 0)
    assert.matrix_near({ { 0.5, 0 } }, b.grad, 0)
    -- relu and abs at 0: 0; clamp at its bounds: passes
    x = V(luma.matrix{ { 0, -1, 1 } }, { requires_grad = true })
    ;(x:relu() + x:abs() + x:clamp(-1, 1)):sum():backward()
    assert.matrix_near({ { 1, 0, 3 } }, x.grad, 0)
  end)

  it("accumulates into grad across backward calls and zero_grad forgets", function()
    local x = V(luma.matrix{ 1, 2 }, { requires_grad = true })
    x:sum():backward()
    x:mul(x):sum():backward()
    assert.matrix_near({ { 3 }, { 5 } }, x.grad, 0)
    x:zero_grad()
    assert.is_nil(x.grad)
  end)

  it("follows Lua control flow: a loop of updates is one graph", function()
    local w = V(luma.full(1, 1, 0.5), { requires_grad = true })
    local y = w
    for _ = 1, 3 do y = y:mul(w) end -- w^4
    y:backward()
    assert.near(4 * 0.5 ^ 3, w.grad:get(1, 1), 1e-15)
  end)

  it("takes a seed for a non-scalar output and can retain the graph", function()
    local x = V(luma.matrix{ { 1, 2 } }, { requires_grad = true })
    local y = x:mul(x)
    y:backward(luma.matrix{ { 1, 10 } }, { retain_graph = true })
    assert.matrix_near({ { 2, 40 } }, x.grad, 0)
    y:backward(luma.matrix{ { 1, 1 } })
    assert.matrix_near({ { 4, 44 } }, x.grad, 0)
  end)

  it("records nothing under no_grad or for detached values", function()
    local x = V(luma.matrix{ 1, 2 }, { requires_grad = true })
    local y = ag.no_grad(function() return x:mul(x) end)
    assert.is_false(y.requires_grad)
    assert.is_false(x:detach():exp().requires_grad)
    assert.is_true(x:is_leaf())
    assert.is_false(x:exp():is_leaf())
  end)
end)

describe("luma.autograd errors", function()
  it("names both shapes of a mismatch", function()
    local a, b = V(luma.zeros(2, 3)), V(luma.zeros(4, 5))
    errors_with("matmul: shapes 2 x 3 and 4 x 5 do not multiply", function() return a * b end)
    errors_with("add: shapes 2 x 3 and 4 x 5 do not broadcast", function() return a + b end)
    errors_with("masked_select: mask is 1 x 1 but the Variable is 2 x 3",
      function() return a:masked_select(luma.ones(1, 1)) end)
  end)

  it("refuses a backward through matrices changed in place since the forward", function()
    local W = V(luma.ones(2, 2), { requires_grad = true })
    local x = luma.matrix{ { 1, 2 } }
    local y = (x * W):tanh():sum()
    W.value:fill(3) -- the product's gradient needs W as it was
    errors_with("backward: input 2 of 'matmul' %(2 x 2%) was changed in place after 'matmul' used it",
      function() y:backward() end)
    -- a plain matrix operand counts too, and so does a result written through an out argument
    local z = V(luma.ones(1, 2), { requires_grad = true })
    local w = z:exp()
    w.value:exp(w.value) -- exp's gradient is its result
    errors_with("backward: the result of 'exp' %(1 x 2%) was changed in place after it was computed",
      function() w:backward(luma.ones(1, 2)) end)
    -- the refused backward ran nothing: the graph is still there
    errors_with("backward: the result of 'exp'", function() w:backward(luma.ones(1, 2)) end)
    -- unchanged matrices (versions equal) pass
    local u = V(luma.ones(1, 2), { requires_grad = true })
    u:mul(x):sum():backward()
    assert.are.same({ { 1, 2 } }, u.grad:totable())
  end)

  it("counts in-place writes in a matrix's version, views sharing their base's", function()
    local A = luma.zeros(2, 3)
    local before = A:version()
    A:set(1, 1, 1)
    A:sub(1, 1, 1, 2):fill(2)   -- through a view
    A:t():assign(0)             -- through a transposed view
    A[2][3] = 5                 -- through a row handle
    A:exp(A)                    -- an out argument
    assert.are.equal(before + 5, A:version())
    local _ = A + 1, A:copy()   -- reading writes nothing
    assert.are.equal(before + 5, A:version())
  end)

  it("refuses a second backward through a freed graph", function()
    local x = V(luma.matrix{ 1, 2 }, { requires_grad = true })
    local y = x:exp():sum()
    y:backward()
    errors_with("the graph was freed by an earlier backward through 'sum'",
      function() y:backward() end)
  end)

  it("needs a seed for a non-scalar and a Variable that requires a gradient", function()
    local x = V(luma.matrix{ 1, 2 }, { requires_grad = true })
    errors_with("backward: the Variable is 2 x 1, not a scalar: pass the gradient",
      function() x:exp():backward() end)
    errors_with("backward: seed is 1 x 1 but the Variable is 2 x 1",
      function() x:exp():backward(luma.ones(1, 1)) end)
    errors_with("this Variable does not require a gradient",
      function() V(luma.ones(1, 1)):exp():backward() end)
  end)

  it("checks arguments at the caller's line", function()
    errors_with("bad argument #1 to 'Variable' %(luma.Matrix or number expected, got string%)",
      function() V("x") end)
    errors_with("Variable: unknown option 'requires_gard'",
      function() V(luma.ones(1, 1), { requires_gard = true }) end)
    errors_with("bad self to 'exp' %(luma.autograd.Variable expected, got luma.Matrix%)",
      function() ag.Variable(luma.ones(1, 1)).exp(luma.ones(1, 1)) end)
    errors_with("bad argument #1 to 'sum' %(dim must be 1, 2 or nil, got 3%)", function() V(luma.ones(2, 2)):sum(3) end)
    errors_with("grad: f returned a 2 x 1 Variable, not a scalar",
      function() ag.grad(function(x) return x end, { luma.ones(2, 1) }) end)
    errors_with("gradcheck: f must return a luma.autograd.Variable, got number",
      function() ag.gradcheck(function() return 1 end, { luma.ones(2, 1) }) end)
    errors_with("cannot divide by a Variable or matrix with '/'", function() return V(luma.ones(1, 1)) / V(luma.ones(1, 1)) end)
  end)
end)
