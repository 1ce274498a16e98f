-- Training luma.nn modules with luma.optim's optimizers (issue 30, item
-- 4): stepping Variables, gradient clipping, and a small network that
-- must learn XOR, which no linear model can.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn
local optim = luma.optim

local function close(a, b, tol)
  local err = (a - b):abs():max()
  assert.is_true(err <= (tol or 0), "max difference " .. err)
end

describe("optimizers over a module's parameters", function()
  it("step() over Variables equals step(matrices, grads) on the same values, bit for bit", function()
    local g = luma.random.Generator(1)
    local X, T = g:normal(8, 3), g:normal(8, 2)
    local a = nn.Linear(3, 2, { generator = luma.random.Generator(2) })
    local b = nn.Linear(3, 2, { generator = luma.random.Generator(2) })
    local opt_a = optim.Adam{ lr = 0.01, params = a:parameters() }
    local opt_b = optim.Adam{ lr = 0.01 }
    for _ = 1, 5 do
      opt_a:zero_grad()
      nn.MSELoss()(a(X), T):backward()
      opt_a:step()
      b:zero_grad()
      nn.MSELoss()(b(X), T):backward()
      opt_b:step({ b.weight.value, b.bias.value }, { b.weight.grad, b.bias.grad })
    end
    close(a.weight.value, b.weight.value)
    close(a.bias.value, b.bias.value)
  end)

  it("a parameter without a gradient is left alone", function()
    local frozen = nn.Linear(2, 2, { generator = luma.random.Generator(3) })
    local before, bias = frozen.weight.value:copy(), frozen.bias.value:copy()
    local p = frozen:parameters()
    frozen.bias.grad = luma.ones(1, 2)
    optim.SGD{ lr = 0.5, params = p }:step()
    close(frozen.weight.value, before)
    close(frozen.bias.value, bias - 0.5)
  end)

  it("an MLP trained with Adam learns XOR", function()
    local X = luma.matrix{ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } }
    local y = { 1, 2, 2, 1 }
    local g = luma.random.Generator(7)
    local model = nn.Sequential{ nn.Linear(2, 8, { generator = g }), nn.Tanh(), nn.Linear(8, 2, { generator = g }) }
    local loss_fn = nn.CrossEntropyLoss()
    local opt = optim.Adam{ lr = 0.05, params = model:parameters() }
    local first, last
    for step = 1, 500 do
      opt:zero_grad()
      local loss = loss_fn(model(X), y)
      loss:backward()
      opt:step()
      last = loss.value:get(1, 1)
      if step == 1 then first = last end
    end
    assert.is_true(first > 0.5 and last < 0.01, first .. " -> " .. last)
    local out = model:evaluate()(X).value
    for i = 1, 4 do
      local predicted = out:get(i, 2) > out:get(i, 1) and 2 or 1
      assert.are.equal(y[i], predicted)
    end
  end)

  it("keeps its memory flat over 1,000 steps of a training loop", function()
    -- the graph is freed by each backward and the optimizer keeps one state
    -- per parameter: after a warm-up, a thousand more steps leave the Lua
    -- heap (matrices included) and the resident set where they were
    local g = luma.random.Generator(3)
    local X, y = g:normal(64, 10), (g:uniform(64, 1) * 3):floor() + 1
    local model = nn.Sequential(nn.Linear(10, 32, { generator = g }), nn.ReLU(), nn.Dropout(0.2, { generator = g }),
      nn.Linear(32, 3, { generator = g }))
    local loss_fn = nn.CrossEntropyLoss()
    local opt = optim.Adam{ params = model:parameters() }
    local function steps(k)
      for _ = 1, k do
        opt:zero_grad()
        loss_fn(model(X), y):backward()
        nn.clip_grad_norm(model:parameters(), 1)
        opt:step()
      end
      collectgarbage("collect")
      collectgarbage("collect")
    end
    local function rss_kb()
      local f = io.open("/proc/self/statm")
      if not f then return 0 end
      local pages = f:read("n")
      pages = f:read("n")
      f:close()
      return pages * 4
    end
    steps(100)
    local heap, rss = collectgarbage("count"), rss_kb()
    steps(1000)
    -- 1,000 leaked 64 x 32 matrices alone would be 16 MB
    assert.is_true(collectgarbage("count") - heap < 64, (collectgarbage("count") - heap) .. " KB more heap")
    -- (AddressSanitizer's quarantine holds freed blocks: resident memory grows there)
    if os.getenv("LUMA_SANITIZED") ~= "1" then
      assert.is_true(rss_kb() - rss < 4096, (rss_kb() - rss) .. " KB more resident")
    end
  end)

  it("refuses an optimizer step between forward and backward, and results as parameters", function()
    local g = luma.random.Generator(2)
    local model = nn.Linear(3, 2, { generator = g })
    local opt = optim.SGD{ lr = 0.1, params = model:parameters() }
    local x = g:normal(4, 3)
    model(x):sum():backward()
    local loss = model(x):sum()
    opt:step() -- changes the weight the pending loss was computed from
    local ok, err = pcall(function() loss:backward() end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("input 2 of 'linear' (2 x 3) was changed in place", 1, true), err)
    local made = model.weight * 2
    assert.has_error(function() optim.Adam{ params = { model.weight, made } } end,
      "bad argument to 'Adam' (params[2] was made by the operation 'mul': an optimizer steps "
        .. "leaves, such as model:parameters())")
  end)

  it("errors: no parameters, a list that is not of Variables", function()
    assert.has_error(function() optim.SGD{ lr = 0.1 }:step() end,
      "step: no parameters: pass them, or make the optimizer with {params = model:parameters()}")
    assert.has_error(function() optim.SGD{ lr = 0.1, params = { luma.ones(2, 2) } } end)
    local v = luma.autograd.Variable(luma.ones(1, 1), { requires_grad = true })
    assert.has_error(function() optim.SGD{ lr = 0.1 }:step({ v, 3 }) end,
      "bad argument to 'step' (params[2] is a number, not a luma.autograd.Variable)")
  end)
end)

describe("gradient clipping", function()
  local function params_with(grads)
    local list = {}
    for i, G in ipairs(grads) do
      list[i] = luma.autograd.Variable(luma.zeros(G:rows(), G:cols()), { requires_grad = true })
      list[i].grad = G:copy()
    end
    return list
  end

  it("clip_grad_norm scales all gradients by one factor to the norm asked (3-4-12: norm 13)", function()
    local p = params_with({ luma.matrix{ { 3, 4 } }, luma.matrix{ { 12 } } })
    local total = nn.clip_grad_norm(p, 6.5)
    assert.are.equal(13, total)
    -- scale 6.5 / (13 + 1e-6)
    local s = 6.5 / (13 + 1e-6)
    close(p[1].grad, luma.matrix{ { 3 * s, 4 * s } }, 1e-15)
    close(p[2].grad, luma.matrix{ { 12 * s } }, 1e-15)
    -- under the limit: untouched
    assert.are.equal(13, nn.clip_grad_norm(params_with({ luma.matrix{ { 3, 4, 12 } } }), 20))
  end)

  it("clip_grad_value clamps each element", function()
    local p = params_with({ luma.matrix{ { -3, 0.5, 2 } } })
    nn.clip_grad_value(p, 1)
    close(p[1].grad, luma.matrix{ { -1, 0.5, 1 } })
    assert.has_error(function() nn.clip_grad_value(p, 0) end,
      "bad argument #2 to 'clip_grad_value' (clip must be a number > 0, got 0)")
  end)
end)

describe("luma.nn.batches", function()
  local X = luma.arange(1, 10):reshape(10, 1)
  local y = X * 10

  it("yields the rows in order, the last batch shorter, or dropped with drop_last", function()
    local seen, sizes = {}, {}
    for Xb, yb, first in nn.batches(X, y, { batch_size = 4 }) do
      sizes[#sizes + 1] = Xb:rows()
      assert.are.equal(0, (yb - Xb * 10):abs():max())
      assert.are.equal(first, Xb:get(1, 1))
      for i = 1, Xb:rows() do seen[#seen + 1] = Xb:get(i, 1) end
    end
    assert.are.same({ 4, 4, 2 }, sizes)
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, seen)
    sizes = {}
    for Xb in nn.batches(X, { batch_size = 4, drop_last = true }) do sizes[#sizes + 1] = Xb:rows() end
    assert.are.same({ 4, 4 }, sizes)
  end)

  it("shuffles every row exactly once, repeatably with a generator", function()
    local function order(seed)
      local list = {}
      for Xb, yb in nn.batches(X, y, { batch_size = 3, shuffle = true, generator = luma.random.Generator(seed) }) do
        assert.are.equal(0, (yb - Xb * 10):abs():max())
        for i = 1, Xb:rows() do list[#list + 1] = Xb:get(i, 1) end
      end
      return list
    end
    local a, b = order(5), order(5)
    assert.are.same(a, b)
    table.sort(a)
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, a)
    assert.are_not.same(order(5), { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 })
  end)

  it("errors: y of another length, a bad batch size", function()
    assert.has_error(function() nn.batches(X, luma.ones(3, 1)) end,
      "bad argument #2 to 'batches' (y must be a luma.Matrix with X's 10 rows, got 3 rows)")
    assert.has_error(function() nn.batches(X, { batch_size = 0 }) end,
      "batches: batch_size must be a positive integer, got 0")
  end)
end)
