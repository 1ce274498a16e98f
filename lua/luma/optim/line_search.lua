--- luma.optim.line_search: the one-dimensional searches along a
-- direction that minimize and minimize_scalar are built on: bracketing,
-- golden section and Brent inside a bracket (notes 000 §2.5), and the
-- Armijo and strong Wolfe step rules.  Each takes phi, the objective as a
-- function of the step, so it knows nothing of vectors.
-- SPDX-License-Identifier: MIT
local common = require("luma.optim.common")
local args = require("luma.util.args")

local fail, CGOLD = common.fail, common.CGOLD
local huge, abs, sqrt, max, min = math.huge, math.abs, math.sqrt, math.max, math.min

local M = {}

--- bracket(phi, a, b [, {grow = 1.618034, max_iter = 100}]) -> a, b, c,
-- fa, fb, fc: a bracket {a, b, c} with a < b < c (or reversed) and
-- f(a) >= f(b) <= f(c) (notes 000 §2.5), found by walking downhill from a,
-- b with golden-ratio growth.
function M.bracket(phi, a, b, opts)
  local grow = opts and opts.grow or 1.618033988749895
  local max_iter = opts and opts.max_iter or 100
  a, b = a or 0, b or 1
  local fa, fb = phi(a), phi(b)
  local nfev = 2
  if fb > fa then a, b, fa, fb = b, a, fb, fa end
  local c = b + grow * (b - a)
  local fc = phi(c)
  nfev = nfev + 1
  local it = 0
  while fc < fb do
    it = it + 1
    if it > max_iter then
      fail(2, "luma.optim.bracket: no bracket after %d steps (is phi bounded below?)", max_iter)
    end
    a, b, fa, fb = b, c, fb, fc
    c = b + grow * (b - a)
    fc = phi(c)
    nfev = nfev + 1
  end
  if a > c then a, c, fa, fc = c, a, fc, fa end
  return a, b, c, fa, fb, fc, nfev
end

--- golden_section(phi, a, b, c [, {tol, max_iter}]) -> x, fx, iterations,
-- nfev: refines a bracket with the notes' rule (notes 000 §2.5): a trial x
-- in the larger of (a, b), (b, c) at the golden fraction; if f(x) >= f(b)
-- the bracket keeps b, else x becomes the middle point.
function M.golden_section(phi, a, b, c, opts)
  local tol = opts and opts.tol or 1.4901161193847656e-08
  local max_iter = opts and opts.max_iter or 500
  local fb = opts and opts.fb or phi(b)
  local nfev = opts and opts.fb and 0 or 1
  local it = 0
  while abs(c - a) > tol * (abs(b) + 1e-12) * 2 and it < max_iter do
    it = it + 1
    if c - b > b - a then
      local x = b + CGOLD * (c - b)
      local fx = phi(x); nfev = nfev + 1
      -- x in (b, c): f(x) >= f(b) -> {a, b, x}, else {b, x, c}
      if fx >= fb then c = x else a, b, fb = b, x, fx end
    else
      local x = b - CGOLD * (b - a)
      local fx = phi(x); nfev = nfev + 1
      -- x in (a, b): f(x) >= f(b) -> {x, b, c}, else {a, x, b}
      if fx >= fb then a = x else c, b, fb = b, x, fx end
    end
  end
  return b, fb, it, nfev, abs(c - a) <= tol * (abs(b) + 1e-12) * 2
end

--- brent(phi, a, b, c [, {tol, max_iter}]) -> x, fx, iterations, nfev:
-- Brent's method (parabolic interpolation with golden-section fallback)
-- inside the bracket a < b < c.
function M.brent(phi, a, b, c, opts)
  local tol = opts and opts.tol or 1.4901161193847656e-08
  local max_iter = opts and opts.max_iter or 500
  if a > c then a, c = c, a end
  local x, w, v = b, b, b
  local fx = opts and opts.fb or phi(x)
  local nfev = opts and opts.fb and 0 or 1
  local fw, fv = fx, fx
  local d, e = 0, 0
  local it, converged = 0, false
  while it < max_iter do
    it = it + 1
    local xm = 0.5 * (a + c)
    local tol1 = tol * abs(x) + 1e-11
    local tol2 = 2 * tol1
    if abs(x - xm) <= tol2 - 0.5 * (c - a) then converged = true; it = it - 1; break end
    local golden = true
    if abs(e) > tol1 then
      local r = (x - w) * (fx - fv)
      local q = (x - v) * (fx - fw)
      local p = (x - v) * q - (x - w) * r
      q = 2 * (q - r)
      if q > 0 then p = -p end
      q = abs(q)
      local etemp = e
      e = d
      if not (abs(p) >= abs(0.5 * q * etemp) or p <= q * (a - x) or p >= q * (c - x)) then
        d = p / q
        local u = x + d
        if u - a < tol2 or c - u < tol2 then d = (xm - x >= 0) and tol1 or -tol1 end
        golden = false
      end
    end
    if golden then
      e = (x >= xm) and (a - x) or (c - x)
      d = CGOLD * e
    end
    local u = (abs(d) >= tol1) and (x + d) or (x + ((d >= 0) and tol1 or -tol1))
    local fu = phi(u); nfev = nfev + 1
    if fu <= fx then
      if u >= x then a = x else c = x end
      v, w, x = w, x, u
      fv, fw, fx = fw, fx, fu
    else
      if u < x then a = u else c = u end
      if fu <= fw or w == x then
        v, w, fv, fw = w, u, fw, fu
      elseif fu <= fv or v == x or v == w then
        v, fv = u, fu
      end
    end
  end
  return x, fx, it, nfev, converged
end

--- armijo(phi, f0, dphi0 [, {alpha0 = 1, c1 = 1e-4, shrink = 0.5, max_iter = 50}])
-- -> alpha, f(alpha), nfev: backtracking until the sufficient decrease
-- phi(alpha) <= f0 + c1 alpha dphi0; nil when no step is found.
function M.armijo(phi, f0, dphi0, opts)
  local a = opts and opts.alpha0 or 1
  local c1 = opts and opts.c1 or 1e-4
  local shrink = opts and opts.shrink or 0.5
  local max_iter = opts and opts.max_iter or 50
  for k = 1, max_iter do
    local fa = phi(a)
    if fa <= f0 + c1 * a * dphi0 then return a, fa, k end
    a = a * shrink
  end
  return nil, nil, max_iter
end

local function cubic_step(a, fa, da, b, fb, db)
  local lo, hi = min(a, b), max(a, b)
  local margin = 0.1 * (hi - lo)
  local t
  if fa < huge and fb < huge and da == da and db == db then
    local d1 = da + db - 3 * (fa - fb) / (a - b)
    local disc = d1 * d1 - da * db
    if disc >= 0 then
      local d2 = (b > a and 1 or -1) * sqrt(disc)
      local den = db - da + 2 * d2
      if den ~= 0 then t = b - (b - a) * (db + d2 - d1) / den end
    end
  end
  if not t or t ~= t or t < lo + margin or t > hi - margin then t = 0.5 * (lo + hi) end
  return t
end

--- strong_wolfe(phi, f0, dphi0 [, {alpha0 = 1, c1 = 1e-4, c2 = 0.9, max_iter = 30}])
-- -> alpha, f, extra, nfev: a step satisfying the strong Wolfe conditions
-- (Nocedal & Wright, Algorithms 3.5 and 3.6 with cubic interpolation).
-- phi(alpha) returns the value, the derivative, and anything else (extra,
-- e.g. the gradient) that is handed back for the accepted step; nil when
-- the search fails.
function M.strong_wolfe(phi, f0, dphi0, opts)
  local c1 = opts and opts.c1 or 1e-4
  local c2 = opts and opts.c2 or 0.9
  local a = opts and opts.alpha0 or 1
  local max_iter = opts and opts.max_iter or 30
  local a_prev, f_prev, d_prev = 0, f0, dphi0
  local nfev = 0
  local lo, flo, dlo, hi, fhi, dhi, best_extra
  local found = false
  for i = 1, max_iter do
    local fa, da, extra = phi(a); nfev = nfev + 1
    if not (fa < huge) or fa > f0 + c1 * a * dphi0 or (i > 1 and fa >= f_prev) then
      lo, flo, dlo, hi, fhi, dhi = a_prev, f_prev, d_prev, a, fa, da
      found = true
      break
    end
    if abs(da) <= -c2 * dphi0 then return a, fa, extra, nfev end
    if da >= 0 then
      lo, flo, dlo, hi, fhi, dhi = a, fa, da, a_prev, f_prev, d_prev
      best_extra = extra
      found = true
      break
    end
    a_prev, f_prev, d_prev, best_extra = a, fa, da, extra
    a = a * 4
  end
  if not found then return nil, nil, nil, nfev end
  local lo_extra = best_extra
  for _ = 1, 40 do
    if abs(hi - lo) <= 1e-16 * max(1, abs(lo)) then break end
    local at = (fhi < huge) and cubic_step(lo, flo, dlo, hi, fhi, dhi) or lo + 0.1 * (hi - lo)
    local fa, da, extra = phi(at); nfev = nfev + 1
    if not (fa < huge) or fa > f0 + c1 * at * dphi0 or fa >= flo then
      hi, fhi, dhi = at, fa, da
    else
      if abs(da) <= -c2 * dphi0 then return at, fa, extra, nfev end
      if da * (hi - lo) >= 0 then hi, fhi, dhi = lo, flo, dlo end
      lo, flo, dlo, lo_extra = at, fa, da, extra
    end
  end
  if lo > 0 and flo < f0 and lo_extra then return lo, flo, lo_extra, nfev end
  return nil, nil, nil, nfev
end

-- Checks of the public searches' arguments and of what phi returns.
-- Each search is relayed (args.relayed): its errors, from these checks or
-- from deep in a search, are raised at the caller's line.  numbers: the
-- positions of the number arguments after phi (optional ones may be nil);
-- derivative: phi also returns the derivative.
local SEARCHES = {
  bracket = { numbers = { 2, 3 }, optional = true, opts = 4,
              valid = { grow = true, max_iter = true } },
  golden_section = { numbers = { 2, 3, 4 }, opts = 5,
                     valid = { tol = true, max_iter = true, fb = true } },
  brent = { numbers = { 2, 3, 4 }, opts = 5, valid = { tol = true, max_iter = true, fb = true } },
  armijo = { numbers = { 2, 3 }, opts = 4,
             valid = { alpha0 = true, c1 = true, shrink = true, max_iter = true } },
  strong_wolfe = { numbers = { 2, 3 }, opts = 4, derivative = true,
                   valid = { alpha0 = true, c1 = true, c2 = true, max_iter = true } },
}
for name, spec in pairs(SEARCHES) do
  local search = M[name]
  M[name] = args.relayed(function(...)
    local given = table.pack(...)
    local phi = given[1]
    args.arg(args.callable(phi), 1, name, "function", phi, 1)
    for _, i in ipairs(spec.numbers) do
      local v = given[i]
      args.arg(type(v) == "number" or (spec.optional and v == nil), i, name, "number", v, 1)
    end
    given[spec.opts] = args.options(name, spec.opts, given[spec.opts], nil, spec.valid, 1)
    given.n = math.max(given.n, spec.opts)
    given[1] = function(a)
      local f, d, extra = phi(a)
      if type(f) ~= "number" or (spec.derivative and type(d) ~= "number") then
        fail(1, "luma.optim.%s: phi(%s) must return %s, got %s%s", name, tostring(a),
          spec.derivative and "a value and a derivative (numbers)" or "a number",
          args.type_of(f), spec.derivative and (", " .. args.type_of(d)) or "")
      end
      return f, d, extra
    end
    return search(table.unpack(given, 1, given.n))
  end)
end

common.document(M, {
  bracket = { "bracket(phi, a, b [, {grow = 1.618034, max_iter = 100}]) -> a, b, c, fa, fb, "
      .. "fc, nfev",
    "A bracket a < b < c (or reversed) with f(a) >= f(b) <= f(c), found by walking downhill "
      .. "from a, b with golden-ratio growth (Press et al., Numerical Recipes, sec. 10.1)." },
  golden_section = { "golden_section(phi, a, b, c [, {tol = sqrt(eps), max_iter = 500, "
      .. "fb = phi(b)}]) -> x, fx, iterations, nfev, converged",
    "Refines a bracket by golden-section search (Numerical Recipes, sec. 10.2)." },
  brent = { "brent(phi, a, b, c [, {tol = sqrt(eps), max_iter = 500, fb = phi(b)}]) -> x, "
      .. "fx, iterations, nfev, converged",
    "Brent's parabolic and golden-section minimization inside a bracket (Numerical Recipes, "
      .. "sec. 10.3)." },
  armijo = { "armijo(phi, f0, dphi0 [, {alpha0 = 1, c1 = 1e-4, shrink = 0.5, max_iter = "
      .. "50}]) -> alpha, phi_alpha, nfev",
    "Backtracking line search for sufficient decrease (Nocedal and Wright, Numerical "
      .. "Optimization, alg. 3.1); alpha is nil on failure." },
  strong_wolfe = { "strong_wolfe(phi, f0, dphi0 [, {alpha0 = 1, c1 = 1e-4, c2 = 0.9, "
      .. "max_iter = 30}]) -> alpha, value, extra, nfev",
    "A step satisfying the strong Wolfe conditions (Nocedal and Wright, algs. 3.5 and 3.6); "
      .. "phi(a) returns the value, the derivative and anything extra to hand back." },
})

return M
