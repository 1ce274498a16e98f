--- luma.optim.scalar: functions of one real variable: minimize_scalar
-- (Brent, golden section, bounded) over the brackets of
-- luma.optim.line_search, and root_scalar (Newton, bisection, Brent's
-- root finder; notes 000 §2.3, 002 O4).  Plain Lua numbers throughout.
-- SPDX-License-Identifier: MIT
local common = require("luma.optim.common")
local line_search = require("luma.optim.line_search")

local fail, CGOLD = common.fail, common.CGOLD
local huge, abs, max, min = math.huge, math.abs, math.max, math.min

local M = {}

local function check_fun(fname, f)
  if type(f) ~= "function" then fail(3, "bad argument #1 to '%s' (function expected, got %s)", fname, type(f)) end
end

local function scalar_value(fname, f, x, it)
  local v = f(x)
  if type(v) ~= "number" then
    fail(3, "luma.optim.%s: function returned %s at iteration %d, expected a number", fname, type(v), it)
  end
  if v ~= v then fail(3, "luma.optim.%s: function returned NaN at iteration %d", fname, it) end
  return v
end

--- minimize_scalar(f [, {method = "brent" | "golden" | "bounded", bracket, bounds, tol, max_iter}])
-- -> {x, fun, iterations, nfev, converged, message}.  brent and golden start
-- from bracket = {a, b} (grown into {a, b, c} by optim.bracket) or
-- {a, b, c}; bounded minimizes over bounds = {lo, hi} (Brent's method with
-- golden steps kept inside the interval, like SciPy's fminbound).
function M.minimize_scalar(f, opts)
  check_fun("minimize_scalar", f)
  opts = opts or {}
  local method = opts.method or (opts.bounds and "bounded" or "brent")
  local it = 0
  local phi = function(x) return scalar_value("minimize_scalar", f, x, it) end
  local tol = opts.tol or 1.4901161193847656e-08
  local x, fx, iters, nfev, ok
  if method == "bounded" then
    local b = opts.bounds
    if type(b) ~= "table" or type(b[1]) ~= "number" or type(b[2]) ~= "number" then
      fail(2, "bad argument #2 to 'minimize_scalar' (bounded needs bounds = {lo, hi})")
    end
    local lo, hi = b[1], b[2]
    if lo ~= lo or hi ~= hi then fail(2, "bad argument #2 to 'minimize_scalar' (bound is NaN)") end
    if lo > hi then fail(2, "bad argument #2 to 'minimize_scalar' (lower bound %.17g is above upper bound %.17g)", lo, hi) end
    -- golden-section start inside [lo, hi], then Brent within the interval
    local m = lo + CGOLD * (hi - lo)
    local fm = phi(m)
    x, fx, iters, nfev, ok = line_search.brent(phi, lo, m, hi, { tol = opts.xatol or 1e-5 / max(abs(m), 1e-300), max_iter = opts.max_iter, fb = fm })
    nfev = nfev + 1
    -- Brent never evaluates the ends: a minimum on the boundary is taken from them
    for _, e in ipairs({ lo, hi }) do
      local fe = phi(e)
      nfev = nfev + 1
      if fe < fx then x, fx = e, fe end
    end
    return { x = x, fun = fx, iterations = iters, nfev = nfev, converged = ok,
      message = ok and "interval below tolerance" or "maximum number of iterations reached" }
  end
  if method ~= "brent" and method ~= "golden" then
    fail(2, "bad argument #2 to 'minimize_scalar' (unknown method '%s'; valid: brent, golden, bounded)", tostring(method))
  end
  local br = opts.bracket or { 0, 1 }
  local a, b, c, fa, fb, fc, n0
  if #br == 3 then
    a, b, c = br[1], br[2], br[3]
    fa, fb, fc = phi(a), phi(b), phi(c)
    n0 = 3
    if not ((a < b and b < c or a > b and b > c) and fb <= fa and fb <= fc) then
      fail(2, "bad argument #2 to 'minimize_scalar' (bracket {a, b, c} needs b between a and c and f(b) <= f(a), f(c))")
    end
    if a > c then a, c = c, a end
  else
    a, b, c, fa, fb, fc, n0 = line_search.bracket(phi, br[1], br[2])
  end
  if method == "golden" then
    x, fx, iters, nfev, ok = line_search.golden_section(phi, a, b, c, { tol = tol, max_iter = opts.max_iter, fb = fb })
  else
    x, fx, iters, nfev, ok = line_search.brent(phi, a, b, c, { tol = tol, max_iter = opts.max_iter, fb = fb })
  end
  return { x = x, fun = fx, iterations = iters, nfev = nfev + n0, converged = ok,
    message = ok and "bracket below tolerance" or "maximum number of iterations reached" }
end

--- root_scalar(f [, {method = "newton" | "bisect" | "brentq", x0, fprime, bracket = {a, b},
-- xtol = 2e-12, rtol = 8.9e-16, max_iter = 100}]) -> {root, fun, iterations, nfev, converged, message}.
-- Newton is notes 002 O4 / 000 §2.3, x <- x - f(x) / f'(x) (the notes'
-- "∇f" there is f', erratum X12); x^2 - a = 0 gives sqrt(a).  bisect and
-- brentq need a sign change over the bracket.
function M.root_scalar(f, opts)
  check_fun("root_scalar", f)
  opts = opts or {}
  local method = opts.method or (opts.fprime and "newton" or "brentq")
  local xtol, rtol = opts.xtol or 2e-12, opts.rtol or 8.881784197001252e-16
  local max_iter = opts.max_iter or 100
  local it = 0
  local function F(x) return scalar_value("root_scalar", f, x, it) end
  local nfev = 0
  local function res(root, fr, ok, msg)
    return { root = root, fun = fr, iterations = it, nfev = nfev, converged = ok, message = msg }
  end
  if method == "newton" then
    local fp = opts.fprime
    if type(fp) ~= "function" then fail(2, "bad argument #2 to 'root_scalar' (newton needs fprime)") end
    local x = opts.x0
    if type(x) ~= "number" or x ~= x or abs(x) == huge then fail(2, "bad argument #2 to 'root_scalar' (newton needs a finite x0)") end
    for _ = 1, max_iter do
      local fx = F(x); nfev = nfev + 1
      if fx == 0 then return res(x, fx, true, "exact root") end
      local d = fp(x)
      if type(d) ~= "number" or d ~= d then fail(2, "luma.optim.root_scalar: fprime returned %s at iteration %d", tostring(d), it) end
      if d == 0 then return res(x, fx, false, "derivative is zero") end
      it = it + 1
      local xn = x - fx / d
      if abs(xn - x) <= xtol + rtol * abs(xn) then
        return res(xn, F(xn), true, "step below tolerance")
      end
      x = xn
    end
    return res(x, F(x), false, "maximum number of iterations reached")
  end
  if method ~= "bisect" and method ~= "brentq" then
    fail(2, "bad argument #2 to 'root_scalar' (unknown method '%s'; valid: newton, bisect, brentq)", tostring(method))
  end
  local br = opts.bracket
  if type(br) ~= "table" or type(br[1]) ~= "number" or type(br[2]) ~= "number" then
    fail(2, "bad argument #2 to 'root_scalar' (%s needs bracket = {a, b})", method)
  end
  local a, b = br[1], br[2]
  local fa, fb = F(a), F(b)
  nfev = 2
  if fa == 0 then return res(a, 0, true, "exact root") end
  if fb == 0 then return res(b, 0, true, "exact root") end
  if (fa > 0) == (fb > 0) then
    fail(2, "bad argument #2 to 'root_scalar' (f(a) and f(b) must have different signs, got %.17g and %.17g)", fa, fb)
  end
  if method == "bisect" then
    for _ = 1, max_iter do
      it = it + 1
      local m = 0.5 * (a + b)
      local fm = F(m); nfev = nfev + 1
      if fm == 0 or abs(b - a) * 0.5 <= xtol + rtol * abs(m) then return res(m, fm, true, "interval below tolerance") end
      if (fm > 0) == (fa > 0) then a, fa = m, fm else b, fb = m, fm end
    end
    return res(0.5 * (a + b), F(0.5 * (a + b)), false, "maximum number of iterations reached")
  end
  -- Brent's root finder (Brent 1973, as in Numerical Recipes zbrent)
  local c, fc = a, fa
  local d = b - a
  local e = d
  for _ = 1, max_iter do
    it = it + 1
    if (fb > 0) == (fc > 0) then c, fc = a, fa; d = b - a; e = d end
    if abs(fc) < abs(fb) then a, b, c, fa, fb, fc = b, c, b, fb, fc, fb end
    local tol1 = 2 * rtol * abs(b) + 0.5 * xtol
    local xm = 0.5 * (c - b)
    if abs(xm) <= tol1 or fb == 0 then return res(b, fb, true, "interval below tolerance") end
    if abs(e) >= tol1 and abs(fa) > abs(fb) then
      local s = fb / fa
      local p, q
      if a == c then
        p = 2 * xm * s; q = 1 - s
      else
        local qq, r = fa / fc, fb / fc
        p = s * (2 * xm * qq * (qq - r) - (b - a) * (r - 1))
        q = (qq - 1) * (r - 1) * (s - 1)
      end
      if p > 0 then q = -q end
      p = abs(p)
      if 2 * p < min(3 * xm * q - abs(tol1 * q), abs(e * q)) then e = d; d = p / q
      else d = xm; e = d end
    else
      d = xm; e = d
    end
    a, fa = b, fb
    b = b + ((abs(d) > tol1) and d or (xm >= 0 and tol1 or -tol1))
    fb = F(b); nfev = nfev + 1
  end
  return res(b, fb, false, "maximum number of iterations reached")
end

common.guard(M, {
  minimize_scalar = { callables = { 1 }, opts = 2 },
  root_scalar = { callables = { 1 }, opts = 2 },
})

common.document(M, {
  minimize_scalar = { "minimize_scalar(f [, {method = \"brent\", bracket = {0, 1}, bounds = "
      .. "nil, tol = sqrt(eps), max_iter = 500}]) -> result",
    "One-dimensional minimization: \"brent\" (the default), \"golden\" or \"bounded\" (the "
      .. "default when bounds = {lo, hi} are given). Returns {x, fun, iterations, nfev, "
      .. "converged, message}." },
  root_scalar = { "root_scalar(f [, {method = \"brentq\", x0 = nil, fprime = nil, bracket = "
      .. "nil, xtol = 2e-12, rtol = 4 eps, max_iter = 100}]) -> result",
    "Root finding: \"newton\" (the default when fprime is given), \"bisect\" or \"brentq\" "
      .. "on a bracket. Returns {root, fun, iterations, nfev, converged, message}." },
})

return M
