--- luma.optim.common: helpers shared by the parts of luma.optim (argument
-- checks, the counting objective evaluator, result tables, stopping rules,
-- box bounds); not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local huge, abs, max = math.huge, math.abs, math.max

local fail = args.fail

-- x0 as a fresh d x 1 column; a table of numbers is accepted.
local function check_x0(fname, x0, arg)
  arg = arg or 2
  if type(x0) == "table" then x0 = luma.matrix(x0) end
  if not luma.ismatrix(x0) then
    fail(3, "bad argument #%d to '%s' (x0 must be a matrix or a table of numbers, got %s)",
      arg, fname, type(x0))
  end
  if x0:cols() ~= 1 then
    if x0:rows() == 1 then x0 = x0:t() else
      fail(3, "bad argument #%d to '%s' (x0 must be a column, got %d x %d)", arg, fname,
        x0:rows(), x0:cols())
    end
  end
  if x0:rows() < 1 then fail(3, "bad argument #%d to '%s' (x0 is empty)", arg, fname) end
  for i = 1, x0:rows() do
    local v = x0:get(i, 1)
    if v ~= v then fail(3, "bad argument #%d to '%s' (x0 has NaN at row %d)", arg, fname, i) end
    if v == huge or v == -huge then
      fail(3, "bad argument #%d to '%s' (x0 has an infinite value at row %d)", arg, fname, i)
    end
  end
  return x0:copy()
end

-- An evaluator over f with counters and the checks of the issue: the value
-- must be a number, not NaN (the message names the iteration); the gradient
-- a d x 1 matrix.
local function evaluator(f, n, fname)
  local st = { nfev = 0, ngev = 0, iter = 0 }
  local scratch = luma.zeros(n, 1)
  local where = "luma.optim." .. fname
  local function check_value(v)
    if type(v) ~= "number" then
      error(string.format("%s: objective returned %s at iteration %d, expected a number",
        where, type(v), st.iter), 3)
    end
    if v ~= v then error(string.format("%s: objective returned NaN at iteration %d", where, st.iter), 3) end
    return v
  end
  function st.value(x)
    st.nfev = st.nfev + 1
    return check_value((f(x, false, scratch)))
  end
  function st.value_grad(x)
    st.nfev = st.nfev + 1
    st.ngev = st.ngev + 1
    local v, g = f(x, true, scratch)
    check_value(v)
    if not luma.ismatrix(g) then
      error(string.format("%s: objective returned %s as the gradient at iteration %d, expected a %d x 1 matrix",
        where, type(g), st.iter, n), 2)
    end
    if g:rows() ~= n or g:cols() ~= 1 then
      error(string.format("%s: gradient is %d x %d at iteration %d, expected %d x 1",
        where, g:rows(), g:cols(), st.iter, n), 2)
    end
    if v < huge and not g:isfinite():all() then
      error(string.format("%s: gradient has a non-finite element at iteration %d", where, st.iter), 2)
    end
    if g == scratch then g = g:copy() end
    return v, g
  end
  return st
end

-- The result table of minimize and projected_gradient.
local function finish(fname, x, fun, gnorm, st, converged, message, history)
  return { x = x, fun = fun, grad_norm = gnorm, iterations = st.iter, nfev = st.nfev,
    ngev = st.ngev, converged = converged, message = message, history = history }
end

-- Why an iterative method stopped, and which reasons count as convergence.
local STATUS_MESSAGES = {
  gtol = "gradient norm below gtol",
  ftol = "relative reduction of the objective below ftol",
  xtol = "step size below xtol",
  max_iter = "maximum number of iterations reached",
  max_fun = "maximum number of function evaluations reached",
  line_search = "line search failed to find an acceptable step",
  callback = "stopped by the callback",
}
local CONVERGED = { gtol = true, ftol = true, xtol = true }

local function ftol_met(fold, f, ftol)
  return (fold - f) <= ftol * max(abs(fold), abs(f), 1)
end

-- lower/upper as d x 1 matrices (numbers broadcast; nil means unbounded).
local function bounds_of(opts, n)
  local lo, up = opts.lower, opts.upper
  if opts.bounds then lo, up = opts.bounds[1], opts.bounds[2] end
  if lo == nil and up == nil then return nil end
  local function col(v, dflt, what)
    if v == nil then return luma.full(n, 1, dflt) end
    if type(v) == "number" then return luma.full(n, 1, v) end
    if type(v) == "table" then v = luma.matrix(v) end
    if not luma.ismatrix(v) or v:rows() * v:cols() ~= n then
      fail(4, "bad argument #3 to 'minimize' (%s must be a number or %d x 1 matrix)", what, n)
    end
    return v:reshape(n, 1):copy()
  end
  local L, U = col(lo, -huge, "lower"), col(up, huge, "upper")
  for i = 1, n do
    local a, b = L:get(i, 1), U:get(i, 1)
    if a ~= a or b ~= b then fail(4, "bad argument #3 to 'minimize' (bound is NaN at row %d)", i) end
    if a > b then
      fail(4, "bad argument #3 to 'minimize' (lower bound %.17g is above upper bound %.17g at row %d)", a, b, i)
    end
  end
  return L, U
end

-- 1 - 1/phi: the golden-section fraction of the line searches and the
-- bounded scalar minimizer.
local CGOLD = 0.3819660112501051

-- Help records given as {signature, doc [, params = ...]} per member name, registered under
-- the package's names (luma.optim.<name>, or prefix.<name>) whichever part
-- defines them.
local function document(members, docs, prefix)
  for name, d in pairs(docs) do
    if members[name] then
      luma.doc.set(members[name], { name = (prefix or "luma.optim") .. "." .. name,
        signature = d[1], doc = d[2], params = d.params })
    end
  end
end

-- guard(members, specs): each public function members[name] gets the
-- checks specs[name] = {callables = {positions}, optional = {positions of
-- callables that may be nil}, opts = position of the options table, whose
-- keys must be among those the function's help record documents
-- (args.option_names; the record may be set after guard)} and is relayed
-- (args.relayed): its errors located in luma.optim, from the checks or
-- deep in an algorithm, are raised at its caller's line.
local function guard(members, specs)
  for name, spec in pairs(specs) do
    local fn = members[name]
    local wrapper, valid
    wrapper = args.relayed(function(...)
      local given = table.pack(...)
      for _, i in ipairs(spec.callables or {}) do
        args.arg(args.callable(given[i]), i, name, "function", given[i], 1)
      end
      for _, i in ipairs(spec.optional or {}) do
        args.arg(given[i] == nil or args.callable(given[i]), i, name, "function", given[i], 1)
      end
      if spec.opts then
        valid = valid or args.option_names(luma.doc.get(wrapper))
        given[spec.opts] = args.options(name, spec.opts, given[spec.opts], nil, valid, 1)
        given.n = math.max(given.n, spec.opts)
      end
      return fn(table.unpack(given, 1, given.n))
    end)
    members[name] = wrapper
  end
end

return {
  guard = guard, fail = fail, check_x0 = check_x0, evaluator = evaluator, finish = finish,
  STATUS_MESSAGES = STATUS_MESSAGES, CONVERGED = CONVERGED, ftol_met = ftol_met,
  bounds_of = bounds_of, CGOLD = CGOLD, document = document,
}
