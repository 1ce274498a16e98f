-- luma.nn.module: the Module base of luma.nn (docs/NN.md, "Modules").
--
-- A module owns parameters (autograd Variables that require gradients),
-- buffers (matrices it updates itself, such as BatchNorm's running
-- statistics) and child modules, each under a name and in the order they
-- were added, as Torch7's nn and PyTorch's torch.nn do.  Calling a module
-- runs its forward; everything else (parameters, modes, state_dict,
-- printing) comes from here, so a new module needs only a forward.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local autograd = require("luma.autograd")

local fail = args.fail

local module = {}

local Module = {}   -- the methods every module has
module.methods = Module

local function is_module(x)
  return type(x) == "table" and getmetatable(x) ~= nil and getmetatable(x).__luma_module == true
end
module.is_module = is_module

--- m:register_parameter(name, M) -> Variable: M (a matrix) becomes a
-- parameter, a Variable requiring its gradient, at m[name].
function Module:register_parameter(name, M)
  local v = autograd.Variable(M, { requires_grad = true })
  self._parameters[#self._parameters + 1] = name
  self[name] = v
  return v
end

--- m:register_buffer(name, M): a matrix the module keeps in its
-- state_dict but does not train.
function Module:register_buffer(name, M)
  self._buffers[#self._buffers + 1] = name
  self[name] = M
  return M
end

--- m:add_module(name, child): a child module at m[name].
function Module:add_module(name, child)
  if not is_module(child) then
    fail(2, "add_module: '%s' is not a luma.nn module (got %s)", tostring(name), args.type_of(child))
  end
  self._modules[#self._modules + 1] = name
  self[name] = child
  return child
end

-- Visits (prefix .. name, value) for the parameters (what = "_parameters")
-- or buffers of m and of its children, depth first, in order.
local function walk(m, what, prefix, visit)
  for _, name in ipairs(m[what]) do visit(prefix .. name, m[name]) end
  for _, name in ipairs(m._modules) do walk(m[name], what, prefix .. name .. ".", visit) end
end

--- m:parameters() -> {Variable, ...}: every parameter, the module's own
-- first, then each child's, in the order they were added.
function Module:parameters()
  local list = {}
  walk(self, "_parameters", "", function(_, v) list[#list + 1] = v end)
  return list
end

--- m:named_parameters() -> {{name, Variable}, ...}: as parameters, with
-- dotted names ("2.weight": the weight of child 2).
function Module:named_parameters()
  local list = {}
  walk(self, "_parameters", "", function(name, v) list[#list + 1] = { name, v } end)
  return list
end

--- m:children() -> {module, ...}
function Module:children()
  local list = {}
  for _, name in ipairs(self._modules) do list[#list + 1] = self[name] end
  return list
end

--- m:train([mode = true]) -> m: training mode for m and its children
-- (Dropout drops, BatchNorm uses the batch's statistics).
function Module:train(mode)
  if mode == nil then mode = true end
  if type(mode) ~= "boolean" then fail(2, "train: mode must be a boolean, got %s", args.type_of(mode)) end
  self.training = mode
  for _, child in ipairs(self:children()) do child:train(mode) end
  return self
end

--- m:evaluate() -> m: inference mode (Torch7's name; PyTorch's eval).
function Module:evaluate() return self:train(false) end

--- m:zero_grad(): forgets every parameter's accumulated gradient.
function Module:zero_grad()
  for _, v in ipairs(self:parameters()) do v.grad = nil end
end

--- m:state_dict() -> {name = matrix}: copies of every parameter's value
-- and every buffer, under their dotted names.
function Module:state_dict()
  local state = {}
  walk(self, "_parameters", "", function(name, v) state[name] = v.value:copy() end)
  walk(self, "_buffers", "", function(name, M) state[name] = M:copy() end)
  return state
end

--- m:load_state_dict(state) -> m: copies the matrices of state into the
-- parameters and buffers of the same names and shapes; every name must
-- be there, and nothing else.
function Module:load_state_dict(state)
  if type(state) ~= "table" then
    fail(2, "load_state_dict: state must be a table of matrices, got %s", args.type_of(state))
  end
  local seen = {}
  local function load(name, target)
    local M = state[name]
    if M == nil then fail(4, "load_state_dict: state has no entry '%s'", name) end
    if not luma.ismatrix(M) then
      fail(4, "load_state_dict: '%s' must be a luma.Matrix, got %s", name, args.type_of(M))
    end
    if M:rows() ~= target:rows() or M:cols() ~= target:cols() then
      fail(4, "load_state_dict: '%s' is %d x %d but the module's is %d x %d", name, M:rows(),
        M:cols(), target:rows(), target:cols())
    end
    target:assign(M)
    seen[name] = true
  end
  walk(self, "_parameters", "", function(name, v) load(name, v.value) end)
  walk(self, "_buffers", "", function(name, M) load(name, M) end)
  for name in pairs(state) do
    if not seen[name] then fail(2, "load_state_dict: the module has no parameter or buffer '%s'", tostring(name)) end
  end
  return self
end

-- The printed tree: "Name(extra)" and the children indented below it.
local function describe(m, indent)
  local head = m._name .. "(" .. (m.extra_repr and m:extra_repr() or "")
  if #m._modules == 0 then return head .. ")" end
  local lines = { head }
  for _, name in ipairs(m._modules) do
    lines[#lines + 1] = indent .. "  (" .. name .. "): " .. describe(m[name], indent .. "  ")
  end
  lines[#lines + 1] = indent .. ")"
  return table.concat(lines, "\n")
end

--- module.class(name, def) -> constructor: a module type.  def.init(self,
-- ...) sets it up (register_parameter, add_module, ...); def.forward(self,
-- x, ...) computes; def.extra_repr(self) -> text shown when printed; other
-- fields of def become methods.  Calling the constructor makes a module
-- in training mode; calling the module runs forward.
function module.class(name, def)
  if type(name) ~= "string" then fail(2, "bad argument #1 to 'class' (string expected, got %s)", args.type_of(name)) end
  if type(def) ~= "table" then fail(2, "bad argument #2 to 'class' (table expected, got %s)", args.type_of(def)) end
  local class_name = "luma.nn." .. name
  local methods = setmetatable({}, { __index = Module })
  for k, v in pairs(def) do
    if k ~= "init" then methods[k] = v end
  end
  if type(methods.forward) ~= "function" then
    fail(2, "luma.nn.class: '%s' needs a forward function", tostring(name))
  end
  -- every method checks its self; forward's errors, raised anywhere in a
  -- model (a child of a child), are reported at the caller's line
  args.wrap_methods(methods, class_name, is_module, nil, function(method) return method == "forward" end)
  local forward = methods.forward
  local meta = {
    __name = class_name,
    __luma_module = true,
    __index = methods,
    __call = function(self, ...) return forward(self, ...) end,
    __tostring = function(self)
      if not is_module(self) then args.bad_self("__tostring", class_name, self, 2) end
      return describe(self, "")
    end,
  }
  return function(...)
    local self = setmetatable({ _name = name, _parameters = {}, _buffers = {}, _modules = {},
      training = true }, meta)
    if def.init then def.init(self, ...) end
    return self
  end
end

return module
