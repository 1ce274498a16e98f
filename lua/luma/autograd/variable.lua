-- luma.autograd.variable: the Variable type and the graph it records
-- (docs/NN.md, "Automatic differentiation").
--
-- Reverse mode, define by run: every operation on Variables computes its
-- value with the matrix kernels at once and, when an input requires a
-- gradient (and grad mode is on), records a node: its inputs and a
-- backward function from the output's gradient to the inputs' gradients,
-- itself made of whole-matrix kernels.  backward() orders the nodes
-- reachable from the output topologically and runs them once each, so
-- Lua control flow is the model (Griewank & Walther, Evaluating
-- Derivatives, 2008, ch. 3; PyTorch's autograd is the same design).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local fail = args.fail
local ismatrix = luma.ismatrix

local variable = {}

local Variable = { __name = "luma.autograd.Variable" }
local methods = {}
Variable.__index = methods
variable.Variable = Variable
variable.methods = methods

-- By metatable first (the common case, and the hottest test of the
-- graph), then by name (a reloaded module makes a second Variable class).
local named_variable = args.is_named(Variable.__name)
local function is_variable(v) return getmetatable(v) == Variable or named_variable(v) end
variable.is_variable = is_variable

-- Grad mode: off inside no_grad, where operations record nothing.
local grad_enabled = true
function variable.grad_enabled() return grad_enabled end

local function new(value, requires_grad)
  return setmetatable({ value = value, requires_grad = requires_grad or false }, Variable)
end
variable.new = new

--- Variable(M [, {requires_grad = false}]) -> a leaf wrapping the matrix
-- M (a number becomes 1 x 1).
function variable.make(M, opts, level)
  level = (level or 1) + 1
  if type(M) == "number" then
    M = luma.full(1, 1, M)
  elseif not ismatrix(M) then
    fail(level, "bad argument #1 to 'Variable' (luma.Matrix or number expected, got %s)",
      args.type_of(M))
  end
  opts = args.options("Variable", 2, opts, nil, { requires_grad = true }, level)
  if opts.requires_grad ~= nil and type(opts.requires_grad) ~= "boolean" then
    fail(level, "Variable: requires_grad must be a boolean, got %s", args.type_of(opts.requires_grad))
  end
  return new(M, opts.requires_grad == true)
end

-- record(op, value, inputs, backward) -> a Variable holding value; when
-- an input requires a gradient (and grad mode is on), also the node:
-- backward(g) returns the gradients of the inputs (nil where an input
-- needs none, or is a constant), each of its input's shape.
-- The matrix of an operand (a Variable's value, a matrix) or nil.
local function matrix_of(x)
  if is_variable(x) then return x.value end
  if ismatrix(x) then return x end
  return nil
end

-- The in-place write counts (luma.Matrix version) of a node's inputs and
-- value when it is recorded: backward refuses to run a node whose
-- matrices have been written since, as PyTorch's version counters do,
-- instead of returning a gradient computed from the changed values.
-- (Element k + 1 is input k's count, element 1 the value's.)
local version = luma.zeros(0, 0).version -- (the method itself: one C call a matrix)
local function versions_of(inputs, value)
  local list = { version(value) }
  for k, x in ipairs(inputs) do
    local M = matrix_of(x)
    list[k + 1] = M and version(M)
  end
  return list
end

function variable.record(op, value, inputs, backward)
  if grad_enabled then
    for _, x in ipairs(inputs) do
      if is_variable(x) and x.requires_grad then
        -- (every field in the constructor: one allocation of the right size)
        return setmetatable({ value = value, requires_grad = true, _op = op, _inputs = inputs,
          _backward = backward, _versions = versions_of(inputs, value) }, Variable)
      end
    end
  end
  return new(value, false)
end

-- record_many(op, values, inputs, backward) -> {Variable, ...}: one node
-- with several outputs (a recurrent layer's every step and final state),
-- each a Variable holding values[k]; backward(gs) gets the gradients of
-- the outputs (gs[k], nil where an output got none) and returns the
-- inputs' as record's does.  The outputs are nodes whose only input is a
-- hub Variable (a 1 x 1 token): each hands its gradient to the hub's
-- slots, and the hub, which the topological order runs after all of
-- them, runs backward once with them all -- no output's gradient is
-- padded to the size of the whole.
function variable.record_many(op, values, inputs, backward)
  local wanted = false
  if grad_enabled then
    for _, x in ipairs(inputs) do
      if is_variable(x) and x.requires_grad then wanted = true break end
    end
  end
  local outputs = {}
  if not wanted then
    for k, value in ipairs(values) do outputs[k] = new(value, false) end
    return outputs
  end
  local token, slots = luma.zeros(1, 1), {}
  local hub = setmetatable({ value = token, requires_grad = true, _op = op, _inputs = inputs,
    _backward = function()
      local gs = slots
      slots = {}
      return backward(gs)
    end, _versions = versions_of(inputs, token) }, Variable)
  local hub_list = { hub }
  for k, value in ipairs(values) do
    outputs[k] = setmetatable({ value = value, requires_grad = true, _op = op, _inputs = hub_list,
      _backward = function(g)
        slots[k] = g
        return { token }
      end, _versions = versions_of(hub_list, value) }, Variable)
  end
  return outputs
end

-- An error at the caller's line when a matrix node used has been written
-- in place since node was recorded.
local function check_unchanged(node, fname, level)
  local versions = node._versions
  if version(node.value) ~= versions[1] then
    fail(level + 1, "%s: the result of '%s' (%d x %d) was changed in place after it was "
      .. "computed; change a copy, or call backward first", fname, node._op,
      node.value:rows(), node.value:cols())
  end
  for k, x in ipairs(node._inputs) do
    local M = matrix_of(x)
    if M and version(M) ~= versions[k + 1] then
      fail(level + 1, "%s: input %d of '%s' (%d x %d) was changed in place after '%s' used it "
        .. "(an optimizer step, assign, fill, set or an out argument before backward?); change "
        .. "a copy, or call backward first", fname, k, node._op, M:rows(), M:cols(), node._op)
    end
  end
end

-- The value of an operand: a Variable's matrix, a matrix or a number.
function variable.value_of(x) return is_variable(x) and x.value or x end

local function shape_text(M) return string.format("%d x %d", M:rows(), M:cols()) end
variable.shape_text = shape_text

-- The nodes reachable from root that lead to a leaf requiring a gradient,
-- in reverse topological order (root first), by an iterative depth-first
-- search (a deep graph, an RNN over many steps, must not overflow the C
-- stack).
local function reverse_topological(root)
  -- the stack as two arrays, node and next input index: no table a node
  local order, seen, nodes, next_input, top = {}, { [root] = true }, { root }, { 1 }, 1
  while top > 0 do
    local node, k = nodes[top], next_input[top]
    local inputs = node._inputs
    local child = inputs and inputs[k]
    if child ~= nil then
      next_input[top] = k + 1
      if not seen[child] and is_variable(child) and child.requires_grad then
        seen[child] = true
        top = top + 1
        nodes[top], next_input[top] = child, 1
      end
    else
      nodes[top] = nil
      top = top - 1
      order[#order + 1] = node
    end
  end
  local reversed, n = {}, #order
  for i = n, 1, -1 do reversed[n - i + 1] = order[i] end
  return reversed
end

local function accumulate(grads, x, g)
  local have = grads[x]
  grads[x] = have and have + g or g
end

-- Runs the graph below root backward from seed; returns the gradients of
-- every node (leaves included), keyed by Variable.  Frees each node's
-- backward function unless retain.
local function run_backward(root, seed, retain, fname, level)
  local grads = { [root] = seed }
  local order = reverse_topological(root)
  -- every check before any node runs (and frees itself): a refused
  -- backward leaves the graph as it was
  for _, node in ipairs(order) do
    if node._backward then check_unchanged(node, fname, level + 1) end
  end
  for _, node in ipairs(order) do
    local g = grads[node]
    if node._released then
      fail(level + 1, "%s: the graph was freed by an earlier backward through '%s' (pass "
        .. "{retain_graph = true} to the first backward to run it twice)", fname, node._op)
    end
    if g ~= nil and node._backward then
      local input_grads = node._backward(g)
      for k, x in ipairs(node._inputs) do
        local gk = input_grads[k]
        if gk ~= nil and is_variable(x) and x.requires_grad then accumulate(grads, x, gk) end
      end
    end
    if node._backward and not retain then
      node._backward, node._inputs, node._versions, node._released = nil, nil, nil, true
    end
  end
  return grads
end
variable.run_backward = run_backward

local BACKWARD_OPTIONS = { retain_graph = true }

--- v:backward([seed [, {retain_graph = false}]]): accumulates the
-- gradient of v into the grad field of every leaf below it.
function methods.backward(self, seed, opts)
  if type(seed) == "table" and not is_variable(seed) and getmetatable(seed) == nil and opts == nil then
    seed, opts = nil, seed
  end
  if opts ~= nil then opts = args.options("backward", 2, opts, nil, BACKWARD_OPTIONS, 2) end
  if not self.requires_grad then
    fail(2, "backward: this Variable does not require a gradient (no input of the "
      .. "operations that made it has requires_grad = true)")
  end
  local value = self.value
  if seed == nil then
    local r, c = value:shape()
    if r ~= 1 or c ~= 1 then
      fail(2, "backward: the Variable is %s, not a scalar: pass the gradient of the output "
        .. "(a %s matrix) as seed", shape_text(value), shape_text(value))
    end
    seed = luma.ones(1, 1)
  else
    seed = is_variable(seed) and seed.value or seed
    args.arg(ismatrix(seed), 1, "backward", "luma.Matrix", seed, 2)
    if seed:rows() ~= value:rows() or seed:cols() ~= value:cols() then
      fail(2, "backward: seed is %s but the Variable is %s", shape_text(seed), shape_text(value))
    end
  end
  local grads = run_backward(self, seed, opts ~= nil and opts.retain_graph == true, "backward", 2)
  for x, g in pairs(grads) do -- leaves keep theirs (they were made by no operation)
    if x._op == nil then x.grad = x.grad and x.grad + g or g:copy() end
  end
end

--- v:zero_grad(): forgets the accumulated gradient.
function methods.zero_grad(self) self.grad = nil end

--- v:detach() -> a new leaf sharing v's value, recording nothing.
function methods.detach(self) return new(self.value, false) end

--- v:is_leaf() -> whether v was made by Variable (or detach), not by an operation.
function methods.is_leaf(self) return self._op == nil end

--- v:shape() -> rows, cols.
function methods.shape(self) return self.value:rows(), self.value:cols() end

function Variable.__tostring(self)
  if not is_variable(self) then args.bad_self("__tostring", Variable.__name, self, 2) end
  return string.format("luma.autograd.Variable %s%s\n%s", shape_text(self.value),
    self.requires_grad and " (requires grad)" or "", tostring(self.value))
end

--- no_grad(fn, ...) -> fn(...): runs fn with recording off.
function variable.no_grad(fn, ...)
  args.arg(type(fn) == "function", 1, "no_grad", "function", fn, 2)
  local saved = grad_enabled
  grad_enabled = false
  local r = table.pack(pcall(fn, ...))
  grad_enabled = saved
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

return variable
