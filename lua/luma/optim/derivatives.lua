--- luma.optim.derivatives: finite-difference gradients, Jacobians and
-- Hessians (notes 000 §2.3), and check_grad to test an analytic gradient
-- against them; constrained uses the Jacobian when a constraint function
-- gives none.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local common = require("luma.optim.common")

local fail = common.fail
local abs, max = math.abs, math.max

local M = {}

local function numdiff_x(fname, x)
  if type(x) == "table" then x = luma.matrix(x) end
  if not luma.ismatrix(x) or x:cols() ~= 1 then fail(3, "bad argument #2 to '%s' (x must be a d x 1 matrix)", fname) end
  return x:copy()
end

local function fval(fname, f, x)
  local v = f(x)
  if type(v) ~= "number" then fail(3, "luma.optim.%s: function returned %s, expected a number", fname, type(v)) end
  return v
end

--- approx_grad(f, x [, {method = "central" | "forward", h}]) -> d x 1
-- gradient by finite differences; h defaults to eps^(1/3) (central) or
-- sqrt(eps) (forward) times max(1, |x_i|).
function M.approx_grad(f, x, opts)
  x = numdiff_x("approx_grad", x)
  local central = not (opts and opts.method == "forward")
  local n = x:rows()
  local g = luma.zeros(n, 1)
  local base = (opts and opts.h) or (central and 6.055454452393343e-06 or 1.4901161193847656e-08)
  local f0 = (not central) and fval("approx_grad", f, x) or nil
  for i = 1, n do
    local xi = x:get(i, 1)
    local h = base * max(1, abs(xi))
    x:set(i, 1, xi + h)
    local fp = fval("approx_grad", f, x)
    if central then
      x:set(i, 1, xi - h)
      local fm = fval("approx_grad", f, x)
      g:set(i, 1, (fp - fm) / (2 * h))
    else
      g:set(i, 1, (fp - f0) / h)
    end
    x:set(i, 1, xi)
  end
  return g
end

--- jacobian(F, x [, {h}]) -> m x d Jacobian of F: R^d -> R^m (F returns an
-- m x 1 matrix; rows index outputs, notes 000 §2.3), central differences.
function M.jacobian(F, x, opts)
  x = numdiff_x("jacobian", x)
  local n = x:rows()
  local base = (opts and opts.h) or 6.055454452393343e-06
  local J
  for i = 1, n do
    local xi = x:get(i, 1)
    local h = base * max(1, abs(xi))
    x:set(i, 1, xi + h)
    local fp = F(x)
    if luma.ismatrix(fp) then fp = fp:copy() end -- (checked below with fm)
    x:set(i, 1, xi - h)
    local fm = F(x)
    x:set(i, 1, xi)
    if not luma.ismatrix(fp) or not luma.ismatrix(fm) then fail(2, "luma.optim.jacobian: F must return a matrix") end
    local m = fp:rows() * fp:cols()
    J = J or luma.zeros(m, n)
    for r = 1, m do J:set(r, i, (fp:reshape(m, 1):get(r, 1) - fm:reshape(m, 1):get(r, 1)) / (2 * h)) end
  end
  return J
end

--- hessian(f, x [, {h}]) -> d x d Hessian by central differences of f
-- (symmetrized).
function M.hessian(f, x, opts)
  x = numdiff_x("hessian", x)
  local n = x:rows()
  local base = (opts and opts.h) or 1.220703125e-04 -- eps^(1/4)
  local H = luma.zeros(n, n)
  local f0 = fval("hessian", f, x)
  for i = 1, n do
    local xi = x:get(i, 1)
    local hi = base * max(1, abs(xi))
    x:set(i, 1, xi + hi); local fpp = fval("hessian", f, x)
    x:set(i, 1, xi - hi); local fmm = fval("hessian", f, x)
    x:set(i, 1, xi)
    H:set(i, i, (fpp - 2 * f0 + fmm) / (hi * hi))
    for j = i + 1, n do
      local xj = x:get(j, 1)
      local hj = base * max(1, abs(xj))
      local function at(si, sj)
        x:set(i, 1, xi + si * hi); x:set(j, 1, xj + sj * hj)
        local v = fval("hessian", f, x)
        x:set(i, 1, xi); x:set(j, 1, xj)
        return v
      end
      local v = (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1)) / (4 * hi * hj)
      H:set(i, j, v); H:set(j, i, v)
    end
  end
  return H
end

--- check_grad(f, grad, x [, {h}]) -> max_abs_error, max_rel_error,
-- numeric: compares grad(x) (or the gradient f(x, true) returns, when grad
-- is nil) with central differences of f.
function M.check_grad(f, grad, x, opts)
  x = numdiff_x("check_grad", x)
  local value = function(xx) return (f(xx, false)) end
  local ga
  if grad then ga = grad(x:copy()) else local _; _, ga = f(x:copy(), true) end
  if not luma.ismatrix(ga) or ga:rows() ~= x:rows() or ga:cols() ~= 1 then
    fail(2, "luma.optim.check_grad: the analytic gradient must be a %d x 1 matrix", x:rows())
  end
  local gn = M.approx_grad(value, x, opts)
  local err = (ga - gn):abs()
  local rel = err:div((gn:abs() + ga:abs()):maximum(1e-300))
  return err:max(), rel:max(), gn
end

common.guard(M, {
  approx_grad = { callables = { 1 }, opts = 3 },
  jacobian = { callables = { 1 }, opts = 3 },
  hessian = { callables = { 1 }, opts = 3 },
  check_grad = { callables = { 1 }, optional = { 2 }, opts = 4 },
})

common.document(M, {
  approx_grad = { "approx_grad(f, x [, {method = \"central\", h = eps^(1/3)}]) -> matrix",
    "The d x 1 finite-difference gradient of f at x, central or \"forward\" (h = sqrt(eps) "
      .. "then), the step scaled by max(1, |x_i|)." },
  jacobian = { "jacobian(F, x [, {h = eps^(1/3)}]) -> matrix",
    "The m x d finite-difference Jacobian of F returning an m x 1 matrix." },
  hessian = { "hessian(f, x [, {h = eps^(1/4)}]) -> matrix",
    "The d x d finite-difference Hessian of f at x." },
  check_grad = { "check_grad(f, grad, x [, {h = eps^(1/3)}]) -> abs_err, rel_err, numeric",
    "Compares an analytic gradient (grad(x), or f(x, true) when grad is nil) with central "
      .. "differences: the largest absolute and relative errors and the numeric gradient." },
})

return M
