--- luma.optim.sgd: stochastic optimizers and learning-rate schedules
-- (re-exported by luma.optim; notes 001 §J, 003 §1.23).
--
-- An optimizer is an object with step(params, grads): params and grads are
-- one matrix each or equal-length lists of matrices; params are updated in
-- place (state is kept per position in the list).  lr is a number or a
-- schedule, a function t -> rate of the 1-based step count t.
--
-- epsilon placement: notes 001 §J (L1336-1351) put epsilon inside the
-- square root, sqrt(v + eps), for Adagrad, RMSprop and Adam; that is the
-- default (eps_placement = "inside").  Notes 003 §1.23 and Kingma & Ba
-- write sqrt(v) + eps: eps_placement = "outside".
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.nn.native")

local sgd = {}

local fail = args.fail

local function as_list(fname, v, what)
  if luma.ismatrix(v) then return { v } end
  if type(v) ~= "table" then fail(3, "bad argument to '%s' (%s must be a matrix or a list of matrices)", fname, what) end
  for i = 1, #v do
    if not luma.ismatrix(v[i]) then fail(3, "bad argument to '%s' (%s[%d] is not a matrix)", fname, what, i) end
  end
  return v
end

local Optimizer = {}
Optimizer.__index = Optimizer

-- An optimizer: an instance of one of the classes below (their
-- metatables are named luma.optim.<class> and hold its update rule).
local function is_optimizer(v)
  local mt = getmetatable(v)
  return type(mt) == "table" and type(rawget(mt, "__name")) == "string"
    and rawget(mt, "__name"):find("^luma%.optim%.") ~= nil and rawget(mt, "update") ~= nil
end

-- Each class's update rule without update's checks, by class.
local rules = {}

local function new_class(name, defaults, update)
  local cls = setmetatable({}, { __index = Optimizer })
  cls.__index = cls
  cls.name = name
  cls.defaults = defaults
  local class_name = "luma.optim." .. name
  -- (public, so it checks its arguments; step has checked them already)
  cls.update = function(self, p, g, st, lr)
    if getmetatable(self) ~= cls then args.bad_self("update", class_name, self, 2) end
    args.matrix(p, 1, "update", 2)
    args.matrix(g, 2, "update", 2)
    if p:rows() ~= g:rows() or p:cols() ~= g:cols() then
      fail(2, "bad argument #2 to 'update' (g is %d x %d but p is %d x %d)", g:rows(), g:cols(),
        p:rows(), p:cols())
    end
    args.arg(type(st) == "table", 3, "update", "state table of step", st, 2)
    args.arg(type(lr) == "number", 4, "update", "number", lr, 2)
    return update(self, p, g, st, lr)
  end
  rules[cls] = update -- (what step calls: it has checked everything)
  return cls
end

-- An autograd Variable (luma.nn's parameters), recognized by name so this
-- module need not load luma.autograd.
local is_variable = args.is_named("luma.autograd.Variable")

-- Whether v is a non-empty list of Variables (checked whole, naming the
-- first element that is not one).
local function variable_list(fname, v, level)
  if type(v) ~= "table" or getmetatable(v) ~= nil or not is_variable(v[1]) then return false end
  for i = 1, #v do
    if not is_variable(v[i]) then
      fail(level + 1, "bad argument to '%s' (params[%d] is a %s, not a luma.autograd.Variable)",
        fname, i, args.type_of(v[i]))
    end
    -- (as PyTorch: a result's value is recomputed by every forward, so a
    -- step on it would be lost)
    if v[i]._op ~= nil then
      fail(level + 1, "bad argument to '%s' (params[%d] was made by the operation '%s': an "
        .. "optimizer steps leaves, such as model:parameters())", fname, i, v[i]._op)
    end
  end
  return true
end

local function construct(cls, opts)
  local valid = { params = true }
  for k in pairs(cls.defaults) do valid[k] = true end
  opts = args.options(cls.name, 1, opts, nil, valid, 3)
  local self = setmetatable({ t = 0, state = {} }, cls)
  for k, v in pairs(cls.defaults) do
    if opts[k] ~= nil then self[k] = opts[k] else self[k] = v end
  end
  if opts.params ~= nil then
    if not variable_list(cls.name, opts.params, 3) then
      fail(3, "bad argument #1 to '%s' (params must be a list of luma.autograd.Variable, as "
        .. "model:parameters() returns, got %s)", cls.name, args.type_of(opts.params))
    end
    self.params = opts.params
  end
  if type(self.lr) ~= "function" and not (type(self.lr) == "number" and self.lr > 0) then
    fail(3, "bad argument #1 to '%s' (lr must be a number > 0 or a schedule function)", cls.name)
  end
  if self.eps_placement and self.eps_placement ~= "inside" and self.eps_placement ~= "outside" then
    fail(3, "bad argument #1 to '%s' (eps_placement must be \"inside\" or \"outside\")", cls.name)
  end
  for k, v in pairs(cls.defaults) do
    if type(v) == "number" and k ~= "lr" and type(self[k]) ~= "number" then
      fail(3, "bad argument #1 to '%s' (%s must be a number, got %s)", cls.name, k,
        args.type_of(self[k]))
    end
  end
  return self
end

function Optimizer:rate()
  if type(self.lr) == "function" then return self.lr(self.t) end
  return self.lr
end

--- opt:step([params [, grads]]): one update of every parameter in place.
-- params and grads: matrices (state kept by position); or params a list
-- of Variables (model:parameters()), each stepped by its grad and skipped
-- while it has none (state kept by Variable); or nothing: the optimizer's
-- own params option.
function Optimizer:step(params, grads)
  if params == nil then
    params = self.params
    if params == nil then
      fail(2, "step: no parameters: pass them, or make the optimizer with {params = model:parameters()}")
    end
  end
  local P, G, keys = {}, {}, {}
  if grads == nil and variable_list("step", params, 2) then
    for _, v in ipairs(params) do
      if v.grad ~= nil then
        P[#P + 1], G[#G + 1], keys[#keys + 1] = v.value, v.grad, v
      end
    end
  else
    P, G = as_list("step", params, "params"), as_list("step", grads, "grads")
    for i = 1, #P do keys[i] = i end
  end
  if #P ~= #G then fail(2, "bad argument #2 to 'step' (%d parameter matrices but %d gradients)", #P, #G) end
  self.t = self.t + 1
  local lr = self:rate()
  for i = 1, #P do
    local p, g = P[i], G[i]
    if p:rows() ~= g:rows() or p:cols() ~= g:cols() then
      fail(2, "bad argument #2 to 'step' (gradient %d is %d x %d but its parameter is %d x %d)",
        i, g:rows(), g:cols(), p:rows(), p:cols())
    end
    local st = self.state[keys[i]]
    if not st or st.rows ~= p:rows() or st.cols ~= p:cols() then
      st = { rows = p:rows(), cols = p:cols() }
      self.state[keys[i]] = st
    end
    if self.weight_decay and self.weight_decay > 0 and self.name ~= "AdamW" then
      -- L2 penalty lambda |theta|^2 / 2 added to the loss: g + lambda theta
      g = g + p * self.weight_decay
    end
    rules[getmetatable(self)](self, p, g, st, lr)
  end
  return params
end

function Optimizer:reset() self.t = 0; self.state = {} end

--- opt:zero_grad(): forgets the gradients of the optimizer's params.
function Optimizer:zero_grad()
  for _, v in ipairs(self.params or {}) do v.grad = nil end
end

luma.doc.set(Optimizer.step, { name = "luma.optim.Optimizer.step",
  signature = "opt:step([params [, grads]]) -> params",
  doc = "One update in place. params and grads: one matrix each or equal-length lists of "
    .. "matrices (state kept by position); or params a list of luma.autograd.Variables "
    .. "(model:parameters()), each updated by its grad and skipped while it has none; or "
    .. "nothing: the optimizer's own params option." })
luma.doc.set(Optimizer.zero_grad, { name = "luma.optim.Optimizer.zero_grad",
  signature = "opt:zero_grad() -> nothing",
  doc = "Forgets the gradients of the Variables given as the params option." })
luma.doc.set(Optimizer.rate, { name = "luma.optim.Optimizer.rate", signature = "opt:rate() -> number",
  doc = "The learning rate of the current step (lr, or the schedule at the step count)." })
luma.doc.set(Optimizer.reset, { name = "luma.optim.Optimizer.reset", signature = "opt:reset() -> nothing",
  doc = "Forgets the step count and every parameter's state (moments, accumulators)." })

-- step, rate, reset and zero_grad refuse anything but an optimizer as self.
args.wrap_methods(Optimizer, "an optimizer", is_optimizer,
  function(name) return name == "__index" end)

-- Every rule runs as one fused pass in C (luma.nn.native.step, src/ml/nn),
-- element by element the same operations as the formulas below.
local function state(st, key, p)
  local m = st[key]
  if not m then
    m = luma.zeros(p:rows(), p:cols())
    st[key] = m
  end
  return m
end

local function outside(self) return self.eps_placement == "outside" end

-- den(v) below: sqrt(v + eps) (notes 001 §J) or sqrt(v) + eps.

sgd.SGD = new_class("SGD", { lr = 0.01, weight_decay = 0 }, function(_, p, g, _, lr)
  native.step("sgd", p, g, nil, nil, lr)
end)

-- Momentum as notes 001 §J: v = gamma v + lr g; theta -= v.
sgd.Momentum = new_class("Momentum", { lr = 0.01, momentum = 0.9, weight_decay = 0 }, function(self, p, g, st, lr)
  native.step("momentum", p, g, state(st, "v", p), nil, lr, self.momentum)
end)

-- Nesterov accelerated gradient in the Sutskever form for gradients taken
-- at the current parameters: v = gamma v + lr g; theta -= gamma v + lr g.
sgd.Nesterov = new_class("Nesterov", { lr = 0.01, momentum = 0.9, weight_decay = 0 }, function(self, p, g, st, lr)
  native.step("nesterov", p, g, state(st, "v", p), nil, lr, self.momentum)
end)

-- Adagrad (notes 001 §J): s += g^2; theta -= lr g / den(s).
-- The notes print no lr (lr = 1 reproduces them).
sgd.Adagrad = new_class("Adagrad", { lr = 0.01, eps = 1e-8, eps_placement = "inside", weight_decay = 0 },
  function(self, p, g, st, lr)
    native.step("adagrad", p, g, state(st, "s", p), nil, lr, 0, 0, 1, 1, self.eps, outside(self))
  end)

-- RMSprop (notes 001 §J): v = gamma v + (1 - gamma) g^2; theta -= lr g / den(v).
sgd.RMSprop = new_class("RMSprop", { lr = 0.001, rho = 0.9, eps = 1e-8, eps_placement = "inside", weight_decay = 0 },
  function(self, p, g, st, lr)
    native.step("rmsprop", p, g, state(st, "v", p), nil, lr, self.rho, 0, 1, 1, self.eps, outside(self))
  end)

-- Adam: u = b1 u + (1 - b1) g, v = b2 v + (1 - b2) g^2; with bias
-- correction (the standard one, which notes 001 leaves unspecified and
-- notes 003 omits) u^ = u / (1 - b1^t), v^ = v / (1 - b2^t); step
-- lr u^ / den(v^).  AdamW's decoupled weight decay theta *= 1 - lr wd
-- (Loshchilov & Hutter) comes first, in the same pass.
local function adam_update(self, p, g, st, lr, decay)
  local b1, b2 = self.beta1, self.beta2
  local c1, c2 = 1, 1
  if self.bias_correction then c1, c2 = 1 - b1 ^ self.t, 1 - b2 ^ self.t end
  native.step("adam", p, g, state(st, "u", p), state(st, "v", p), lr, b1, b2, c1, c2, self.eps,
    outside(self), decay)
end

sgd.Adam = new_class("Adam", { lr = 0.001, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, eps_placement = "inside",
  bias_correction = true, weight_decay = 0 }, adam_update)

sgd.AdamW = new_class("AdamW", { lr = 0.001, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, eps_placement = "inside",
  bias_correction = true, weight_decay = 0.01 }, function(self, p, g, st, lr)
    adam_update(self, p, g, st, lr, 1 - lr * self.weight_decay)
  end)

for name, cls in pairs({ SGD = sgd.SGD, Momentum = sgd.Momentum, Nesterov = sgd.Nesterov,
  Adagrad = sgd.Adagrad, RMSprop = sgd.RMSprop, Adam = sgd.Adam, AdamW = sgd.AdamW }) do
  setmetatable(cls, { __index = Optimizer, __call = function(c, opts)
    local self = construct(c, opts) -- (not a tail call: construct's errors count this level)
    return self
  end })
  cls.__index = cls
  cls.__name = "luma.optim." .. name
end

-- -------------------------------------------------------------- schedules

local function need(fname, v, what, cond)
  if type(v) ~= "number" or not cond(v) then fail(3, "bad argument #1 to '%s' (%s out of range)", fname, what) end
  return v
end
-- A schedule's options table (argument #1).
local function schedule_opts(fname, o, valid)
  local checked = args.options(fname, 1, o, nil, valid, 3) -- (not a tail call: level counts it)
  return checked
end
local function pos(v) return v > 0 end
local function nonneg(v) return v >= 0 end

sgd.schedules = {}

--- step_decay{lr0, step_size, gamma = 0.1}: lr0 * gamma^floor((t - 1) / step_size).
function sgd.schedules.step(o)
  o = schedule_opts("step", o, { lr0 = true, step_size = true, gamma = true })
  local lr0, s = need("step", o.lr0, "lr0", pos), need("step", o.step_size, "step_size", pos)
  local gamma = need("step", o.gamma or 0.1, "gamma", pos)
  return function(t) return lr0 * gamma ^ ((t - 1) // s) end
end

--- exponential{lr0, gamma}: lr0 * gamma^(t - 1).
function sgd.schedules.exponential(o)
  o = schedule_opts("exponential", o, { lr0 = true, gamma = true })
  local lr0, gamma = need("exponential", o.lr0, "lr0", pos), need("exponential", o.gamma, "gamma", pos)
  return function(t) return lr0 * gamma ^ (t - 1) end
end

--- inverse_time{lr0, decay = 1, power = 1}: lr0 / (1 + decay (t - 1))^power.
function sgd.schedules.inverse_time(o)
  o = schedule_opts("inverse_time", o, { lr0 = true, decay = true, power = true })
  local lr0 = need("inverse_time", o.lr0, "lr0", pos)
  local decay = need("inverse_time", o.decay or 1, "decay", nonneg)
  local power = need("inverse_time", o.power or 1, "power", nonneg)
  return function(t) return lr0 / (1 + decay * (t - 1)) ^ power end
end

--- cosine{lr0, T_max, lr_min = 0}: lr_min + (lr0 - lr_min)(1 + cos(pi (t - 1) / T_max)) / 2,
-- held at lr_min after T_max steps.
function sgd.schedules.cosine(o)
  o = schedule_opts("cosine", o, { lr0 = true, T_max = true, lr_min = true })
  local lr0, T = need("cosine", o.lr0, "lr0", pos), need("cosine", o.T_max, "T_max", pos)
  local lo = need("cosine", o.lr_min or 0, "lr_min", nonneg)
  return function(t)
    local k = math.min(t - 1, T)
    return lo + (lr0 - lo) * (1 + math.cos(math.pi * k / T)) / 2
  end
end

return sgd
