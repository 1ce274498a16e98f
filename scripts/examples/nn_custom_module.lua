-- A new luma.nn module written in Lua, trained by a hand-written loop
-- (docs/NN.md, "Worked examples").
--
-- The module is a residual block (He, Zhang, Ren & Sun, "Deep residual
-- learning for image recognition", CVPR 2016) whose branch is scaled by a
-- learnt number alpha that starts at 0, so that each block starts as the
-- identity (ReZero: Bachlechner et al., "ReZero is all you need", UAI
-- 2021):
--   y = x + alpha (W2 relu(W1 x + b1) + b2)
-- It is declared with luma.nn.class and only a forward: the backward comes
-- from luma.autograd.  Two blocks between an input and an output layer
-- learn the two-spirals problem (K. Lang & M. Witbrock, "Learning to tell
-- two spirals apart", 1988 Connectionist Models Summer School): two turns
-- each, 400 noisy training points, 100 epochs of mini-batches
-- (luma.nn.batches) and Adam, the gradients' joint norm clipped at 5.
-- Prints the mean training loss every 10 epochs, the accuracy on 400
-- fresh points, the largest gradient norm met, the model (with each
-- block's alpha), and the largest error of luma.autograd.gradcheck on the
-- first block's gradient with respect to its input and its parameters.
--   build/luma scripts/examples/nn_custom_module.lua
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn, autograd = luma.nn, luma.autograd

local Residual = nn.class("Residual", {
  init = function(self, width, hidden, g)
    self:add_module("inner", nn.Linear(width, hidden, { generator = g }))
    self:add_module("outer", nn.Linear(hidden, width, { generator = g }))
    self:register_parameter("alpha", luma.zeros(1, 1))
  end,
  forward = function(self, x)
    -- x is a matrix or a Variable; either way the sum is a Variable
    return x + self.outer(self.inner(x):relu()):mul(self.alpha)
  end,
  extra_repr = function(self)
    return string.format("alpha=%.4f", self.alpha.value:get(1, 1))
  end,
})

-- Two interleaved spirals of two turns: class 1 at radius and angle t,
-- class 2 turned by pi; labels 1 and 2 (CrossEntropyLoss's class indices).
local function spirals(n, g)
  local t = g:uniform(n, 1) * (4 * math.pi) + 0.5
  local y = luma.zeros(n, 1)
  y:sub(n // 2 + 1, n):fill(1)
  local turn = y * math.pi
  local X = luma.matrix.hstack{ t:mul((t + turn):cos()), t:mul((t + turn):sin()) } / 5
  return X + g:normal(n, 2) * 0.08, y + 1
end

local g = luma.random.Generator(2024)
local X, y = spirals(400, g)
local Xtest, ytest = spirals(400, g)

local model = nn.Sequential{
  nn.Linear(2, 32, { generator = g }), nn.ReLU(),
  Residual(32, 64, g), Residual(32, 64, g),
  nn.Linear(32, 2, { generator = g }),
}
local loss_fn = nn.CrossEntropyLoss()
local opt = luma.optim.Adam{ lr = 0.003, params = model:parameters() }

local largest_norm = 0
for epoch = 1, 100 do
  local total = 0
  for Xb, yb in nn.batches(X, y, { batch_size = 32, shuffle = true, generator = g }) do
    opt:zero_grad()
    local loss = loss_fn(model(Xb), yb)
    loss:backward()
    largest_norm = math.max(largest_norm, nn.clip_grad_norm(model:parameters(), 5))
    opt:step()
    total = total + loss.value:get(1, 1) * Xb:rows()
  end
  if epoch % 10 == 0 then
    print(string.format("epoch %3d  loss %.4f", epoch, total / X:rows()))
  end
end

model:evaluate()
local predicted = autograd.no_grad(function() return model(Xtest).value:argmax(2) end)
print(string.format("test accuracy %.4f", luma.metrics.accuracy_score(ytest, predicted)))
print(string.format("largest gradient norm before clipping %.2f", largest_norm))
print(model) -- the tree, with each block's learnt alpha

-- gradcheck perturbs copies of its inputs, so f puts its arguments in
-- place of the block's parameters (named "inner.weight", "alpha", ...)
-- for the call and restores them afterwards.
local block = model["3"]
local named = block:named_parameters()
local function owner_of(name) -- "inner.weight" -> block.inner, "weight"
  local path, key = name:match("^(.*)%.([^.]+)$")
  local owner = block
  for part in (path or ""):gmatch("[^.]+") do owner = owner[part] end
  return owner, key or name
end
local function f(x, ...)
  local saved = {}
  for i, entry in ipairs(named) do
    local owner, key = owner_of(entry[1])
    saved[i] = owner[key]
    owner[key] = select(i, ...)
  end
  local out = block(x)
  for i, entry in ipairs(named) do
    local owner, key = owner_of(entry[1])
    owner[key] = saved[i]
  end
  return out
end
local inputs = { luma.random.Generator(1):normal(4, 32) }
for _, entry in ipairs(named) do inputs[#inputs + 1] = entry[2].value end
local ok, err = autograd.gradcheck(f, inputs)
print(string.format("gradcheck of the block (%d parameters): max error %.2e, %s", #named, err,
  ok and "ok" or "FAILED"))
