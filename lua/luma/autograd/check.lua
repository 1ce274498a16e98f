-- luma.autograd.check: grad(f, inputs) and gradcheck(f, inputs), the
-- numerical check of every operation's backward (docs/NN.md).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local variable = require("luma.autograd.variable")

local fail = args.fail
local is_variable = variable.is_variable

local check = {}

-- Fresh leaves requiring gradients, one per input (a copy of each
-- matrix, or of each Variable's value).
local function leaves(inputs, fname, level)
  args.arg(type(inputs) == "table" and getmetatable(inputs) == nil and #inputs > 0, 2, fname,
    "non-empty list of matrices or Variables", inputs, level + 1)
  local vars = {}
  for k, x in ipairs(inputs) do
    local M = is_variable(x) and x.value or x
    if not luma.ismatrix(M) then
      fail(level + 1, "bad argument #2 to '%s' (inputs[%d] is a %s, not a matrix or Variable)",
        fname, k, args.type_of(x))
    end
    vars[k] = variable.new(M:copy(), true)
  end
  return vars
end

-- f(vars...) as a Variable, with a message naming fname when it is not.
local function call(f, vars, fname, level)
  local out = f(table.unpack(vars))
  if not is_variable(out) then
    fail(level + 1, "%s: f must return a luma.autograd.Variable, got %s", fname,
      args.type_of(out))
  end
  return out
end

--- grad(f, inputs) -> gradients, value: the gradient of the scalar f(...)
-- with respect to each input, as a list of matrices, and f's value.
function check.grad(f, inputs)
  args.arg(type(f) == "function", 1, "grad", "function", f, 2)
  local vars = leaves(inputs, "grad", 2)
  local out = call(f, vars, "grad", 2)
  if out.value:rows() ~= 1 or out.value:cols() ~= 1 then
    fail(2, "grad: f returned a %s Variable, not a scalar (1 x 1)", variable.shape_text(out.value))
  end
  if out.requires_grad then out:backward() end
  local grads = {}
  for k, v in ipairs(vars) do grads[k] = v.grad or luma.zeros(v.value:rows(), v.value:cols()) end
  return grads, out.value:get(1, 1)
end

--- gradcheck(f, inputs [, {eps = 1e-6, tol = 1e-6, seed = 0}]) -> ok,
-- max_error: compares backward's gradients with central differences
-- (f(x + eps) - f(x - eps)) / (2 eps), element by element.  A result
-- that is not 1 x 1 is reduced to sum(out .* R) with a fixed random R.
-- The error of an element is |analytic - numeric| / max(1, |analytic|,
-- |numeric|); ok when the largest is at most tol.
function check.gradcheck(f, inputs, opts)
  args.arg(type(f) == "function", 1, "gradcheck", "function", f, 2)
  opts = args.options("gradcheck", 3, opts, nil, { eps = true, tol = true, seed = true }, 2)
  local eps, tol = opts.eps or 1e-6, opts.tol or 1e-6
  if type(eps) ~= "number" or not (eps > 0) then fail(2, "gradcheck: eps must be a number > 0") end
  if type(tol) ~= "number" or not (tol > 0) then fail(2, "gradcheck: tol must be a number > 0") end
  local vars = leaves(inputs, "gradcheck", 2)
  local out = call(f, vars, "gradcheck", 2)
  local R = luma.random.Generator(opts.seed or 0):normal(out.value:rows(), out.value:cols())
  local function project(v) return v.value:mul(R):sum() end
  if out.requires_grad then out:mul(R):sum():backward() end
  local worst = 0
  for _, v in ipairs(vars) do
    local X = v.value
    local G = v.grad or luma.zeros(X:rows(), X:cols())
    for i = 1, X:rows() do
      for j = 1, X:cols() do
        local x0 = X:get(i, j)
        X:set(i, j, x0 + eps)
        local up = variable.no_grad(function() return project(call(f, vars, "gradcheck", 3)) end)
        X:set(i, j, x0 - eps)
        local down = variable.no_grad(function() return project(call(f, vars, "gradcheck", 3)) end)
        X:set(i, j, x0)
        local numeric, analytic = (up - down) / (2 * eps), G:get(i, j)
        local err = math.abs(analytic - numeric)
          / math.max(1, math.abs(analytic), math.abs(numeric))
        if not (err <= worst) then worst = err end
      end
    end
  end
  return worst <= tol, worst
end

luma.doc.set(check.grad, { name = "luma.autograd.grad", signature = "grad(f, inputs) -> gradients, value",
  doc = "f(v1, v2, ...) must return a 1 x 1 Variable; inputs is a list of matrices (or "
    .. "Variables, whose values are used). Returns the list of gradients of f with respect "
    .. "to each input (matrices of the inputs' shapes) and f's value (a number)." })
luma.doc.set(check.gradcheck, { name = "luma.autograd.gradcheck",
  signature = "gradcheck(f, inputs [, {eps = 1e-6, tol = 1e-6, seed = 0}]) -> ok, max_error",
  doc = "Compares backward's gradient of f (a function of Variables returning a Variable) "
    .. "at inputs (a list of matrices) with central differences (f(x+eps) - f(x-eps)) / 2eps, "
    .. "element by element. A result that is not 1 x 1 is reduced to sum(out .* R), R a fixed "
    .. "random matrix (seed). The error of an element is |analytic - numeric| / max(1, "
    .. "|analytic|, |numeric|); ok when the largest, max_error, is at most tol." })

return check
