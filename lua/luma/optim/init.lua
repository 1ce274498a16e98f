--- luma.optim: the optimization toolkit (issue 6; notes 000 §2.3, §2.5,
-- 001 §J, 002 §1.4, 003 §1.23, 004 §12.5).
--
-- Conventions: a parameter vector x is a d x 1 matrix.  An objective is a
-- Lua function f(x, want_grad, g) returning the value and, when want_grad
-- is true, the gradient (a d x 1 matrix; g is a d x 1 scratch matrix it
-- may fill and return, so objectives can run without allocating), or a
-- native luma.Objective (optim.logistic_loss, optim.softmax_loss).  x is
-- only valid during the call: copy it to keep it.
--
-- This file holds minimize and its methods, the line searches, the
-- one-dimensional solvers, numerical derivatives and the constraint
-- helpers; luma.optim_sgd has the stochastic optimizers and schedules,
-- luma.optim_qp the QP / NNLS / LP solvers; everything is re-exported here.
local luma = require("luma")
local native = require("luma.optim.native")

local optim = {}

local huge, abs, sqrt, max, min = math.huge, math.abs, math.sqrt, math.max, math.min
local EPS = 2.220446049250313e-16

local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

local function is_objective(f) return native.is_objective(f) end

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

local function finish(fname, x, fun, gnorm, st, converged, message, history)
  return { x = x, fun = fun, grad_norm = gnorm, iterations = st.iter, nfev = st.nfev,
    ngev = st.ngev, converged = converged, message = message, history = history }
end

local function inf_norm(g) return g:norm(huge) end

-- --------------------------------------------------------- line searches

--- bracket(phi, a, b [, {grow = 1.618034, max_iter = 100}]) -> a, b, c,
-- fa, fb, fc: a bracket {a, b, c} with a < b < c (or reversed) and
-- f(a) >= f(b) <= f(c) (notes 000 §2.5), found by walking downhill from a,
-- b with golden-ratio growth.
function optim.bracket(phi, a, b, opts)
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

local INVPHI = 0.6180339887498949   -- 1/phi
local CGOLD = 0.3819660112501051    -- 1 - 1/phi

--- golden_section(phi, a, b, c [, {tol, max_iter}]) -> x, fx, iterations,
-- nfev: refines a bracket with the notes' rule (notes 000 §2.5): a trial x
-- in the larger of (a, b), (b, c) at the golden fraction; if f(x) >= f(b)
-- the bracket keeps b, else x becomes the middle point.
function optim.golden_section(phi, a, b, c, opts)
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
function optim.brent(phi, a, b, c, opts)
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
function optim.armijo(phi, f0, dphi0, opts)
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
function optim.strong_wolfe(phi, f0, dphi0, opts)
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

-- ------------------------------------------------------------- methods

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

local METHODS = {}

-- Shared iteration bookkeeping: history, callback, stopping on f and x.
local function make_monitor(opts)
  local mon = { history = opts.history and {} or nil }
  function mon.record(iter, x, f, gnorm)
    if mon.history then
      mon.history[#mon.history + 1] = { iteration = iter, fun = f, grad_norm = gnorm, x = x:copy() }
    end
    if opts.callback and opts.callback(iter, x, f, gnorm) then return true end
    return false
  end
  return mon
end

local function ftol_met(fold, f, ftol)
  return (fold - f) <= ftol * max(abs(fold), abs(f), 1)
end

-- x + a p into out
local function axpy(x, a, p, out)
  p:mul(a, out)
  return out:add(x, out)
end

-- Line search along p from x (f, g known) for the Lua-side methods:
-- "exact" (quadratics, opts.A), "wolfe" or "armijo".  Returns a, x_new,
-- f_new, g_new or nil.
local function search(ev, x, f, g, p, kind, opts, c2)
  local dphi0 = g:dot(p)
  local xt = luma.zeros(x:rows(), 1)
  if kind == "exact" then
    -- notes 000 §2.5: alpha_k = -p' grad f(x_k) / (p' A p_k)
    local A = opts.A
    local pAp = p:dot(A * p)
    if not (pAp > 0) then fail(4, "luma.optim.minimize: A is not positive definite along the search direction") end
    local a = -dphi0 / pAp
    axpy(x, a, p, xt)
    local fn, gn = ev.value_grad(xt)
    return a, xt, fn, gn
  elseif kind == "armijo" then
    local a, fa = optim.armijo(function(alpha)
      return ev.value(axpy(x, alpha, p, xt))
    end, f, dphi0, { alpha0 = opts.alpha0 or 1, c1 = opts.c1 })
    if not a then return nil end
    axpy(x, a, p, xt)
    local fn, gn = ev.value_grad(xt)
    return a, xt, fn, gn
  else
    local a0 = opts._alpha0 or 1
    local a, fa, gn = optim.strong_wolfe(function(alpha)
      local xa = axpy(x, alpha, p, luma.zeros(x:rows(), 1))
      local fa_, ga = ev.value_grad(xa)
      return fa_, (fa_ < huge) and ga:dot(p) or 0 / 0, { xa, ga }
    end, f, dphi0, { alpha0 = a0, c1 = opts.c1, c2 = c2 or opts.c2 })
    if not a then return nil end
    return a, gn[1], fa, gn[2]
  end
end

local function first_alpha(p)
  local pn = p:norm(2)
  return pn > 1 and 1 / pn or 1
end

-- Gradient descent (notes 000 §2.5, 002 O3): p = -grad f; step "fixed"
-- (opts.step_size), "armijo" backtracking or "exact" (quadratics, opts.A).
function METHODS.gd(ev, x, opts, mon)
  local kind = opts.step or "armijo"
  local f, g = ev.value_grad(x)
  local status
  while true do
    local gnorm = inf_norm(g)
    if gnorm <= opts.gtol then status = "gtol"; break end
    if ev.iter >= opts.max_iter then status = "max_iter"; break end
    local p = -g
    local xn, fn, gn
    if kind == "fixed" then
      xn = axpy(x, opts.step_size or 1e-3, p, luma.zeros(x:rows(), 1))
      ev.iter = ev.iter + 1
      fn, gn = ev.value_grad(xn)
    else
      ev.iter = ev.iter + 1
      local a
      a, xn, fn, gn = search(ev, x, f, g, p, kind, opts)
      if not a then ev.iter = ev.iter - 1; status = "line_search"; break end
    end
    local step = (xn - x):norm(huge)
    local fold = f
    x, f, g = xn, fn, gn
    if mon.record(ev.iter, x, f, inf_norm(g)) then status = "callback"; break end
    if kind ~= "fixed" and ftol_met(fold, f, opts.ftol) then status = "ftol"; break end
    if step <= opts.xtol then status = "xtol"; break end
  end
  return x, f, g, status
end

-- Conjugate gradients (notes 000 §2.5 / §3 pseudocode): Fletcher-Reeves
-- beta = g1'g1 / g0'g0 or Polak-Ribiere beta = g1'(g1 - g0) / g0'g0
-- (clipped at 0, "PR+", which equals PR on quadratics with exact steps);
-- exact steps with opts.A, else a strong Wolfe search with c2 = 0.1.
function METHODS.cg(ev, x, opts, mon)
  local variant = opts.beta or "pr"
  local kind = opts.A and "exact" or (opts.line_search or "wolfe")
  local f, g = ev.value_grad(x)
  local p = -g
  local status
  local n = x:rows()
  local since_restart = 0
  while true do
    local gnorm = inf_norm(g)
    if gnorm <= opts.gtol then status = "gtol"; break end
    if ev.iter >= opts.max_iter then status = "max_iter"; break end
    ev.iter = ev.iter + 1
    opts._alpha0 = first_alpha(p)
    local a, xn, fn, gn = search(ev, x, f, g, p, kind, opts, 0.1)
    if not a then ev.iter = ev.iter - 1; status = "line_search"; break end
    local gg = g:dot(g)
    local beta
    if variant == "fr" then beta = gn:dot(gn) / gg
    else beta = max(0, gn:dot(gn - g) / gg) end
    since_restart = since_restart + 1
    if since_restart >= n and not opts.A then beta = 0; since_restart = 0 end
    local step = (xn - x):norm(huge)
    local fold = f
    p = axpy(-gn, beta, p, luma.zeros(n, 1))
    if p:dot(gn) >= 0 then p = -gn; since_restart = 0 end
    x, f, g = xn, fn, gn
    if mon.record(ev.iter, x, f, inf_norm(g)) then status = "callback"; break end
    if not opts.A and ftol_met(fold, f, opts.ftol) then status = "ftol"; break end
    if step <= opts.xtol then status = "xtol"; break end
  end
  return x, f, g, status
end

-- BFGS with the notes' inverse-Hessian update (notes 000 §3, "Quasi-Newton"):
-- H+ = H + (1 + y'Hy / y's) ss' / s'y - (s y'H + H y s') / s'y, from H1 = I
-- (or opts.H0); skipped when s'y <= 0 so H stays symmetric positive definite.
function METHODS.bfgs(ev, x, opts, mon)
  local n = x:rows()
  local kind = opts.A and "exact" or (opts.line_search or "wolfe")
  local H = opts.H0 and opts.H0:copy() or luma.eye(n)
  local f, g = ev.value_grad(x)
  local status
  local first = true
  while true do
    local gnorm = inf_norm(g)
    if gnorm <= opts.gtol then status = "gtol"; break end
    if ev.iter >= opts.max_iter then status = "max_iter"; break end
    local p = -(H * g)
    if p:dot(g) >= 0 then H = luma.eye(n); p = -g end
    ev.iter = ev.iter + 1
    opts._alpha0 = first and first_alpha(p) or 1
    local a, xn, fn, gn = search(ev, x, f, g, p, kind, opts)
    if not a then ev.iter = ev.iter - 1; status = "line_search"; break end
    local s, y = xn - x, gn - g
    local sy = s:dot(y)
    if sy > 1e-12 * y:norm(2) * s:norm(2) then
      if first and not opts.H0 and not opts.A then
        -- scale H1 = I by y's / y'y before the first update (Nocedal & Wright 6.20)
        H = H * (sy / y:dot(y))
      end
      local Hy = H * y
      local yHy = y:dot(Hy)
      H = H + (s * s:t()) * ((1 + yHy / sy) / sy) - (s * Hy:t() + Hy * s:t()) * (1 / sy)
      H = (H + H:t()) * 0.5 -- remove rounding asymmetry
    end
    first = false
    local step = s:norm(huge)
    local fold = f
    x, f, g = xn, fn, gn
    if mon.record(ev.iter, x, f, inf_norm(g)) then status = "callback"; break end
    if not opts.A and ftol_met(fold, f, opts.ftol) then status = "ftol"; break end
    if step <= opts.xtol then status = "xtol"; break end
  end
  return x, f, g, status, H
end

-- Damped Newton (notes 000 §2.5, 002 O5): p solves H p = -grad f with
-- H = opts.hess(x); when H is not positive definite, tau I is added
-- (tau growing tenfold from 1e-3 |H|) so p is a descent direction; the
-- step is Armijo backtracking from 1.  opts.fixed_hessian reuses the
-- first Hessian (the notes' pseudo-Newton, 002 O6).
function METHODS.newton(ev, x, opts, mon)
  local hess = opts.hess
  if type(hess) ~= "function" then fail(4, "bad argument #3 to 'minimize' (method newton needs opts.hess, a function x -> Hessian)") end
  local n = x:rows()
  local f, g = ev.value_grad(x)
  local status
  local Hfixed
  while true do
    local gnorm = inf_norm(g)
    if gnorm <= opts.gtol then status = "gtol"; break end
    if ev.iter >= opts.max_iter then status = "max_iter"; break end
    local H = Hfixed or hess(x)
    if not luma.ismatrix(H) or H:rows() ~= n or H:cols() ~= n then
      fail(4, "luma.optim.minimize: hess returned %s, expected a %d x %d matrix",
        luma.ismatrix(H) and (H:rows() .. " x " .. H:cols()) or type(H), n, n)
    end
    if opts.fixed_hessian then Hfixed = H end
    local Hs = (H + H:t()) * 0.5
    local ok, L = pcall(luma.linalg.cholesky, Hs)
    local tau = 0
    local scale = max(Hs:norm(huge), 1e-8)
    while not ok do
      tau = (tau == 0) and 1e-3 * scale or tau * 10
      ok, L = pcall(luma.linalg.cholesky, Hs + luma.eye(n) * tau)
      if tau > 1e20 then fail(4, "luma.optim.minimize: cannot make the Hessian positive definite") end
    end
    local p = -luma.linalg.solve(L:t(), luma.linalg.solve(L, g))
    ev.iter = ev.iter + 1
    local a, xn, fn, gn = search(ev, x, f, g, p, "armijo", opts)
    if not a then ev.iter = ev.iter - 1; status = "line_search"; break end
    local step = (xn - x):norm(huge)
    local fold = f
    x, f, g = xn, fn, gn
    if mon.record(ev.iter, x, f, inf_norm(g)) then status = "callback"; break end
    if ftol_met(fold, f, opts.ftol * 1e-3) and inf_norm(g) <= opts.gtol * 10 then status = "ftol"; break end
    if step <= opts.xtol then status = "xtol"; break end
  end
  return x, f, g, status
end

-- Nelder-Mead (derivative-free): reflection 1, expansion 2, contraction
-- 1/2, shrink 1/2; initial simplex x0 + 5% of each coordinate (0.00025
-- for a zero one), as SciPy.  Stops when the simplex's spread in x is
-- below xatol and in f below fatol.
METHODS["nelder-mead"] = function(ev, x, opts, mon)
  local n = x:rows()
  local xatol = opts.xatol or 1e-8
  local fatol = opts.fatol or 1e-8
  local max_fun = opts.max_fun or 200 * n * 10
  local pts, fs = {}, {}
  local xm = luma.zeros(n, 1)
  local function eval(v)
    for i = 1, n do xm:set(i, 1, v[i]) end
    return ev.value(xm)
  end
  local base = {}
  for i = 1, n do base[i] = x:get(i, 1) end
  pts[1] = base
  for j = 1, n do
    local v = {}
    for i = 1, n do v[i] = base[i] end
    v[j] = v[j] ~= 0 and v[j] * 1.05 or 0.00025
    pts[j + 1] = v
  end
  for j = 1, n + 1 do fs[j] = eval(pts[j]) end
  local status
  local order = {}
  for j = 1, n + 1 do order[j] = j end
  local function sort()
    table.sort(order, function(a, b) return fs[a] < fs[b] end)
  end
  while true do
    sort()
    local best, worst = order[1], order[n + 1]
    local spread_x, spread_f = 0, 0
    for j = 2, n + 1 do
      local o = order[j]
      spread_f = max(spread_f, abs(fs[o] - fs[best]))
      for i = 1, n do spread_x = max(spread_x, abs(pts[o][i] - pts[best][i])) end
    end
    if spread_x <= xatol and spread_f <= fatol then status = "xtol"; break end
    if ev.iter >= opts.max_iter then status = "max_iter"; break end
    if ev.nfev >= max_fun then status = "max_fun"; break end
    ev.iter = ev.iter + 1
    local c = {}
    for i = 1, n do
      local s = 0
      for j = 1, n do s = s + pts[order[j]][i] end
      c[i] = s / n
    end
    local function along(t)
      local v = {}
      for i = 1, n do v[i] = c[i] + t * (pts[worst][i] - c[i]) end
      return v
    end
    local xr = along(-1); local fr = eval(xr)
    local second = order[n]
    if fr < fs[best] then
      local xe = along(-2); local fe = eval(xe)
      if fe < fr then pts[worst], fs[worst] = xe, fe else pts[worst], fs[worst] = xr, fr end
    elseif fr < fs[second] then
      pts[worst], fs[worst] = xr, fr
    else
      local shrink = false
      if fr < fs[worst] then
        local xc = along(-0.5); local fc = eval(xc)
        if fc <= fr then pts[worst], fs[worst] = xc, fc else shrink = true end
      else
        local xc = along(0.5); local fc = eval(xc)
        if fc < fs[worst] then pts[worst], fs[worst] = xc, fc else shrink = true end
      end
      if shrink then
        for j = 2, n + 1 do
          local o = order[j]
          for i = 1, n do pts[o][i] = pts[best][i] + 0.5 * (pts[o][i] - pts[best][i]) end
          fs[o] = eval(pts[o])
        end
      end
    end
    sort()
    local bx = luma.zeros(n, 1)
    for i = 1, n do bx:set(i, 1, pts[order[1]][i]) end
    if mon.record(ev.iter, bx, fs[order[1]], 0 / 0) then status = "callback"; break end
  end
  sort()
  local bx = luma.zeros(n, 1)
  for i = 1, n do bx:set(i, 1, pts[order[1]][i]) end
  return bx, fs[order[1]], nil, status
end

local VALID_OPTS = {
  method = true, gtol = true, ftol = true, xtol = true, max_iter = true, max_fun = true,
  callback = true, history = true, m = true, lower = true, upper = true, bounds = true,
  step = true, step_size = true, A = true, beta = true, line_search = true, hess = true,
  fixed_hessian = true, H0 = true, c1 = true, c2 = true, alpha0 = true, xatol = true,
  fatol = true, return_hess_inv = true,
}
local METHOD_NAMES = "lbfgs, lbfgsb, bfgs, cg, gd, newton, nelder-mead"

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

--- minimize(f, x0 [, opts]) -> result: minimizes f from x0.
function optim.minimize(f, x0, opts)
  opts = opts or {}
  if type(f) ~= "function" and not is_objective(f) then
    fail(2, "bad argument #1 to 'minimize' (function or luma.Objective expected, got %s)", type(f))
  end
  if type(opts) ~= "table" then fail(2, "bad argument #3 to 'minimize' (options table expected, got %s)", type(opts)) end
  for k in pairs(opts) do
    if not VALID_OPTS[k] then
      local names = {}
      for name in pairs(VALID_OPTS) do names[#names + 1] = name end
      table.sort(names)
      fail(2, "bad argument #3 to 'minimize' (unknown option '%s'; valid: %s)", tostring(k), table.concat(names, ", "))
    end
  end
  local x = check_x0("minimize", x0, 2)
  local n = x:rows()
  if is_objective(f) and f:size() ~= n then
    fail(2, "bad argument #2 to 'minimize' (x0 has %d rows but the objective has %d parameters)", n, f:size())
  end
  local L, U = bounds_of(opts, n)
  local method = opts.method or (L and "lbfgsb" or "lbfgs")
  if method == "l-bfgs-b" then method = "lbfgsb" elseif method == "l-bfgs" then method = "lbfgs" end
  local o = {
    gtol = opts.gtol or 1e-5, ftol = opts.ftol or 2.220446049250313e-09,
    xtol = opts.xtol or 0, max_iter = opts.max_iter or 15000,
  }
  for k, v in pairs(opts) do if o[k] == nil then o[k] = v end end
  if L and method ~= "lbfgsb" and method ~= "lbfgs" then
    fail(2, "bad argument #3 to 'minimize' (bounds need method lbfgsb, not %s)", method)
  end
  if method == "lbfgs" or method == "lbfgsb" then
    local mon = make_monitor(o)
    local cb = (o.callback or o.history) and mon.record or nil
    local xr, fun, gnorm, iters, nfev, ngev, status = native.lbfgs(f, x, {
      m = o.m, max_iter = o.max_iter, max_fun = o.max_fun, gtol = o.gtol, ftol = o.ftol,
      xtol = o.xtol, lower = L, upper = U, callback = cb })
    return { x = xr, fun = fun, grad_norm = gnorm, iterations = iters, nfev = nfev, ngev = ngev,
      converged = CONVERGED[status] or false, message = STATUS_MESSAGES[status], history = mon.history }
  end
  local impl = METHODS[method]
  if not impl then fail(2, "bad argument #3 to 'minimize' (unknown method '%s'; valid: %s)", tostring(method), METHOD_NAMES) end
  if method == "gd" and o.step and o.step ~= "fixed" and o.step ~= "armijo" and o.step ~= "exact" then
    fail(2, "bad argument #3 to 'minimize' (step must be fixed, armijo or exact)")
  end
  if (o.step == "exact" or o.line_search == "exact") and not luma.ismatrix(o.A) then
    fail(2, "bad argument #3 to 'minimize' (exact steps need opts.A, the quadratic's Hessian)")
  end
  if o.step == "exact" or o.line_search == "exact" then o.step = "exact" end
  if method ~= "gd" and method ~= "cg" and method ~= "bfgs" then o.A = nil end
  local fobj = f
  if is_objective(f) then fobj = function(xx, want) return f(xx, want) end end
  local ev = evaluator(fobj, n, "minimize")
  local mon = make_monitor(o)
  local xr, fun, g, status, H = impl(ev, x, o, mon)
  local res = finish("minimize", xr, fun, g and inf_norm(g) or 0 / 0, ev, CONVERGED[status] or false,
    STATUS_MESSAGES[status], mon.history)
  if H and o.return_hess_inv then res.hess_inv = H end
  return res
end

-- ------------------------------------------------------ one-dimensional

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
function optim.minimize_scalar(f, opts)
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
    x, fx, iters, nfev, ok = optim.brent(phi, lo, m, hi, { tol = opts.xatol or 1e-5 / max(abs(m), 1e-300), max_iter = opts.max_iter, fb = fm })
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
    a, b, c, fa, fb, fc, n0 = optim.bracket(phi, br[1], br[2])
  end
  if method == "golden" then
    x, fx, iters, nfev, ok = optim.golden_section(phi, a, b, c, { tol = tol, max_iter = opts.max_iter, fb = fb })
  else
    x, fx, iters, nfev, ok = optim.brent(phi, a, b, c, { tol = tol, max_iter = opts.max_iter, fb = fb })
  end
  return { x = x, fun = fx, iterations = iters, nfev = nfev + n0, converged = ok,
    message = ok and "bracket below tolerance" or "maximum number of iterations reached" }
end

--- root_scalar(f [, {method = "newton" | "bisect" | "brentq", x0, fprime, bracket = {a, b},
-- xtol = 2e-12, rtol = 8.9e-16, max_iter = 100}]) -> {root, fun, iterations, nfev, converged, message}.
-- Newton is notes 002 O4 / 000 §2.3, x <- x - f(x) / f'(x) (the notes'
-- "∇f" there is f', erratum X12); x^2 - a = 0 gives sqrt(a).  bisect and
-- brentq need a sign change over the bracket.
function optim.root_scalar(f, opts)
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

-- ------------------------------------------------ numerical derivatives

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
function optim.approx_grad(f, x, opts)
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
function optim.jacobian(F, x, opts)
  x = numdiff_x("jacobian", x)
  local n = x:rows()
  local base = (opts and opts.h) or 6.055454452393343e-06
  local J
  for i = 1, n do
    local xi = x:get(i, 1)
    local h = base * max(1, abs(xi))
    x:set(i, 1, xi + h)
    local fp = F(x):copy()
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
function optim.hessian(f, x, opts)
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
function optim.check_grad(f, grad, x, opts)
  x = numdiff_x("check_grad", x)
  local value = function(xx) return (f(xx, false)) end
  local ga
  if grad then ga = grad(x:copy()) else local _; _, ga = f(x:copy(), true) end
  if not luma.ismatrix(ga) or ga:rows() ~= x:rows() or ga:cols() ~= 1 then
    fail(2, "luma.optim.check_grad: the analytic gradient must be a %d x 1 matrix", x:rows())
  end
  local gn = optim.approx_grad(value, x, opts)
  local err = (ga - gn):abs()
  local rel = err:div((gn:abs() + ga:abs()):maximum(1e-300))
  return err:max(), rel:max(), gn
end

-- ----------------------------------------------------------- constraints

--- penalty(f, c, x0 [, {rho0 = 1, growth = 10, tol = 1e-6, max_outer = 20, minimize = {...}}])
-- -> result: the quadratic penalty method (notes 000 §2.5.5): minimizes
-- P(x, rho) = f(x) + (rho/2) c(x)'c(x) for rho = rho0, rho0 growth, ...
-- until |c(x)|_inf <= tol.  c(x, want_jac) returns the m x 1 constraint
-- values and, when asked, the m x d Jacobian (numerical when c returns
-- none).  The result adds constraint_violation and rho.
function optim.penalty(f, c, x0, opts)
  opts = opts or {}
  local x = check_x0("penalty", x0, 3)
  local rho = opts.rho0 or 1
  local growth = opts.growth or 10
  local tol = opts.tol or 1e-6
  local total = { nfev = 0, ngev = 0, iterations = 0 }
  local res
  local viol = huge
  for _ = 1, opts.max_outer or 20 do
    local r = rho
    local P = function(xx, want, g)
      local cv, J = c(xx, want)
      if want and not J then J = optim.jacobian(function(z) return (c(z, false)) end, xx) end
      if want then
        local v, gf = f(xx, true, g)
        return v + 0.5 * r * cv:dot(cv), gf + (J:t() * cv) * r
      end
      return f(xx, false) + 0.5 * r * cv:dot(cv)
    end
    local mo = { method = "lbfgs", gtol = 1e-8 }
    for k, v in pairs(opts.minimize or {}) do mo[k] = v end
    res = optim.minimize(P, x, mo)
    total.nfev = total.nfev + res.nfev; total.ngev = total.ngev + res.ngev
    total.iterations = total.iterations + res.iterations
    x = res.x
    viol = c(x, false):norm(huge)
    if viol <= tol then break end
    rho = rho * growth
  end
  local fx = f(x, false)
  return { x = x, fun = fx, grad_norm = res.grad_norm, iterations = total.iterations, nfev = total.nfev,
    ngev = total.ngev, converged = viol <= tol,
    message = viol <= tol and "constraints satisfied within tol" or "constraint violation above tol",
    constraint_violation = viol, rho = rho }
end

--- barrier(f, g, x0 [, {t0 = 1, mu = 10, tol = 1e-8, max_outer = 50}]) ->
-- result: the log-barrier interior-point method (notes 002 O9-O10) for
-- g_i(x) <= 0: minimizes f(x) + sum_i beta_t(g_i(x)), beta_t(u) =
-- -(1/t) log(-u) (the notes apply beta to each g_i, erratum X11; the g <= 0
-- sign convention of L122), for t = t0, t0 mu, ... until m / t <= tol (the
-- duality-gap bound).  g(x, want_jac) returns the m x 1 values and the m x d
-- Jacobian; x0 must be strictly feasible.
function optim.barrier(f, g, x0, opts)
  opts = opts or {}
  local x = check_x0("barrier", x0, 3)
  local g0 = g(x, false)
  if not luma.ismatrix(g0) then fail(2, "luma.optim.barrier: g must return a matrix") end
  local m = g0:rows() * g0:cols()
  for i = 1, m do
    if not (g0:reshape(m, 1):get(i, 1) < 0) then
      fail(2, "bad argument #3 to 'barrier' (x0 is not strictly feasible: g_%d(x0) = %.17g, need < 0)", i, g0:reshape(m, 1):get(i, 1))
    end
  end
  local t = opts.t0 or 1
  local mu = opts.mu or 10
  local tol = opts.tol or 1e-8
  local total = { nfev = 0, ngev = 0, iterations = 0 }
  local res
  for _ = 1, opts.max_outer or 50 do
    local tt = t
    local B = function(xx, want, gs)
      local gv, J = g(xx, want)
      gv = gv:reshape(m, 1)
      for i = 1, m do if not (gv:get(i, 1) < 0) then return huge, want and luma.zeros(xx:rows(), 1) or nil end end
      local v = -gv:neg():log():sum() / tt
      if want then
        if not J then J = optim.jacobian(function(z) return (g(z, false)) end, xx) end
        local fv, gf = f(xx, true, gs)
        -- d/dx -(1/t) log(-g_i) = -(1/t) grad g_i / g_i
        return fv + v, gf - (J:t() * gv:pow(-1)) * (1 / tt)
      end
      return f(xx, false) + v
    end
    res = optim.minimize(B, x, { method = "bfgs", gtol = 1e-9, max_iter = 2000 })
    total.nfev = total.nfev + res.nfev; total.ngev = total.ngev + res.ngev
    total.iterations = total.iterations + res.iterations
    x = res.x
    if m / t <= tol then break end
    t = t * mu
  end
  return { x = x, fun = f(x, false), grad_norm = res.grad_norm, iterations = total.iterations,
    nfev = total.nfev, ngev = total.ngev, converged = m / t <= tol,
    message = m / t <= tol and "duality gap bound m/t below tol" or "maximum number of outer iterations reached",
    t = t }
end

--- projected_gradient(f, x0, lower, upper [, {gtol, max_iter, ftol}]) ->
-- result: projected gradient descent for a box, x <- P(x - a grad f(x)),
-- a by Armijo backtracking along the projection arc.
function optim.projected_gradient(f, x0, lower, upper, opts)
  opts = opts or {}
  local x = check_x0("projected_gradient", x0, 2)
  local n = x:rows()
  local L, U = bounds_of({ lower = lower, upper = upper }, n)
  L = L or luma.full(n, 1, -huge); U = U or luma.full(n, 1, huge)
  local function proj(v) return v:maximum(L):minimum(U) end
  x = proj(x)
  local ev = evaluator(f, n, "projected_gradient")
  local gtol, max_iter, ftol = opts.gtol or 1e-6, opts.max_iter or 10000, opts.ftol or 1e-12
  local fx, g = ev.value_grad(x)
  local status, a = nil, 1
  local pgn
  while true do
    local pg = x - proj(x - g) -- the projected-gradient step at unit length
    pgn = pg:norm(huge)
    if pgn <= gtol then status = "gtol"; break end
    if ev.iter >= max_iter then status = "max_iter"; break end
    ev.iter = ev.iter + 1
    a = min(a * 2, 1e10)
    local xn, fn
    for _ = 1, 60 do
      xn = proj(x - g * a)
      fn = ev.value(xn)
      if fn <= fx + 1e-4 * g:dot(xn - x) then break end
      a = a * 0.5
      xn = nil
    end
    if not xn then status = "line_search"; break end
    local fold = fx
    x = xn
    fx, g = ev.value_grad(x)
    if ftol_met(fold, fx, ftol) then pgn = (x - proj(x - g)):norm(huge); status = "ftol"; break end
  end
  return finish("projected_gradient", x, fx, pgn, ev, CONVERGED[status] or false, STATUS_MESSAGES[status])
end

-- Variable transforms (notes 000 §2.5): each has forward(y) -> x,
-- inverse(x) -> y and pullback(y, gx) -> gy (the chain rule J'gx).
optim.transforms = {}

--- transforms.exp(): x = e^y > 0.
function optim.transforms.exp()
  return {
    forward = function(y) return y:exp() end,
    inverse = function(x) return x:log() end,
    pullback = function(y, gx) return gx:mul(y:exp()) end,
  }
end

--- transforms.square(): x = y^2 >= 0.
function optim.transforms.square()
  return {
    forward = function(y) return y:mul(y) end,
    inverse = function(x) return x:sqrt() end,
    pullback = function(y, gx) return gx:mul(y * 2) end,
  }
end

--- transforms.interval(a, b): a < x < b through the notes' form
-- x = (a + b)/2 + ((a - b)/2) tanh y (notes 000 §2.5; y -> +inf gives a).
function optim.transforms.interval(a, b)
  if type(a) ~= "number" or type(b) ~= "number" or not (a < b) then
    fail(2, "bad argument to 'interval' (need numbers a < b)")
  end
  local mid, half = (a + b) / 2, (a - b) / 2
  return {
    forward = function(y) return y:tanh() * half + mid end,
    inverse = function(x)
      local u = (x - mid) / half -- atanh(u) = log((1 + u) / (1 - u)) / 2
      return ((u + 1):div(u:neg() + 1)):log() * 0.5
    end,
    pullback = function(y, gx)
      local t = y:tanh()
      return gx:mul((t:mul(t):neg() + 1) * half)
    end,
  }
end

--- transforms.softmax(): the simplex, x_i = e^{y_i} / sum_j e^{y_j}.
function optim.transforms.softmax()
  return {
    forward = function(y) return y:softmax(1) end,
    inverse = function(x) return x:log() - x:log():mean() end,
    pullback = function(y, gx)
      local s = y:softmax(1)
      -- J = diag(s) - s s': J'gx = s * (gx - s'gx)
      return s:mul(gx - s:dot(gx))
    end,
  }
end

--- transform_objective(f, T) -> objective in y: f(T.forward(y)) with the
-- chain-rule gradient, for minimize; map the result back with T.forward.
function optim.transform_objective(f, T)
  return function(y, want)
    local x = T.forward(y)
    if want then
      local v, gx = f(x, true)
      return v, T.pullback(y, gx)
    end
    return (f(x, false))
  end
end

-- ------------------------------------------------------------- re-exports

local sgd = require("luma.optim.sgd")
for _, k in ipairs({ "SGD", "Momentum", "Nesterov", "Adagrad", "RMSprop", "Adam", "AdamW", "schedules" }) do
  optim[k] = sgd[k]
end
local qp = require("luma.optim.qp")
for _, k in ipairs({ "qp", "nnls", "linprog" }) do optim[k] = qp[k] end
optim.logistic_loss = native.logistic_loss
optim.softmax_loss = native.softmax_loss
optim.is_objective = native.is_objective
-- ---------------------------------------------------------- documentation

local DOCS = {
  minimize = { "minimize(f, x0 [, opts])",
    "Minimizes f from x0 (a d x 1 matrix or a table of numbers). f(x, want_grad, g) returns the value "
    .. "and, when want_grad, the d x 1 gradient (g is scratch it may fill), or f is a native "
    .. "luma.Objective. opts: method = \"lbfgs\" (default; \"lbfgsb\" when bounds are given), \"bfgs\", "
    .. "\"cg\" (beta = \"fr\" | \"pr\"), \"gd\" (step = \"fixed\" | \"armijo\" | \"exact\", step_size), "
    .. "\"newton\" (hess = function(x) -> d x d, fixed_hessian), \"nelder-mead\"; gtol (inf-norm of the "
    .. "(projected) gradient, 1e-5), ftol (relative reduction, 2.2e-9), xtol (step inf-norm, 0), "
    .. "max_iter, max_fun, m (L-BFGS memory, 10), lower/upper (numbers or d x 1), A (the Hessian of "
    .. "a quadratic: exact steps), callback(iter, x, fun, grad_norm) returning true to stop, history "
    .. "= true, return_hess_inv (bfgs). Returns {x, fun, grad_norm, iterations, nfev, ngev, "
    .. "converged, message} (plus history / hess_inv on request). A NaN or non-number value, or a "
    .. "gradient of the wrong shape, is an error naming the iteration." },
  bracket = { "bracket(phi, a, b [, opts])", "A bracket a < b < c with f(a) >= f(b) <= f(c) (notes 000 §2.5); returns a, b, c, fa, fb, fc, nfev." },
  golden_section = { "golden_section(phi, a, b, c [, {tol, max_iter}])", "Refines a bracket by the notes' rule with golden-section trial points; returns x, fx, iterations, nfev, converged." },
  brent = { "brent(phi, a, b, c [, {tol, max_iter}])", "Brent's parabolic/golden minimization inside a bracket; returns x, fx, iterations, nfev, converged." },
  armijo = { "armijo(phi, f0, dphi0 [, {alpha0, c1, shrink, max_iter}])", "Backtracking line search for sufficient decrease; returns alpha, phi(alpha), nfev (nil alpha on failure)." },
  strong_wolfe = { "strong_wolfe(phi, f0, dphi0 [, {alpha0, c1, c2, max_iter}])", "Strong Wolfe line search (Nocedal & Wright 3.5/3.6); phi(a) returns value, derivative, extra; returns alpha, value, extra, nfev." },
  minimize_scalar = { "minimize_scalar(f [, {method, bracket, bounds, tol, max_iter}])", "One-dimensional minimization: brent (default), golden, bounded. Returns {x, fun, iterations, nfev, converged, message}." },
  root_scalar = { "root_scalar(f [, {method, x0, fprime, bracket, xtol, rtol, max_iter}])", "Root finding: newton (notes 002 O4), bisect, brentq. Returns {root, fun, iterations, nfev, converged, message}." },
  approx_grad = { "approx_grad(f, x [, {method, h}])", "Finite-difference gradient (central by default)." },
  jacobian = { "jacobian(F, x [, {h}])", "m x d finite-difference Jacobian of F returning an m x 1 matrix." },
  hessian = { "hessian(f, x [, {h}])", "d x d finite-difference Hessian." },
  check_grad = { "check_grad(f, grad, x [, {h}])", "Compares an analytic gradient (grad(x), or f(x, true) when grad is nil) with central differences: max abs error, max rel error, numeric gradient." },
  penalty = { "penalty(f, c, x0 [, opts])", "Quadratic penalty method for c(x) = 0 (notes 000 §2.5.5)." },
  barrier = { "barrier(f, g, x0 [, opts])", "Log-barrier interior point for g(x) <= 0 (notes 002 O9-O10); x0 strictly feasible." },
  projected_gradient = { "projected_gradient(f, x0, lower, upper [, opts])", "Projected gradient descent for box constraints." },
  transform_objective = { "transform_objective(f, T)", "f composed with a variable transform T (optim.transforms.exp/square/interval/softmax)." },
  qp = { "qp(Q, c [, {A_eq, b_eq, A_ub, b_ub, lower, upper, tol, max_iter}])", "Convex QP min 1/2 x'Qx + c'x by a primal-dual interior point with an active-set polish; status optimal / infeasible / max_iter / unbounded." },
  nnls = { "nnls(A, b [, {max_iter}])", "Non-negative least squares (Lawson-Hanson); returns x, residual norm." },
  linprog = { "linprog(c [, {A_ub, b_ub, A_eq, b_eq, lower = 0, upper = inf}])", "Dense two-phase simplex (Bland's rule); status optimal / infeasible / unbounded / max_iter." },
  logistic_loss = { "logistic_loss(X, y [, {C = 1, fit_intercept = true, sample_weight}])",
    "Native objective C * sum_i s_i log(1 + exp(-y_i (x_i.w + b))) + |w|^2 / 2 (labels -1/+1 or 0/1; parameters w then b)." },
  softmax_loss = { "softmax_loss(X, y [, {C = 1, fit_intercept = true, sample_weight, n_classes}])",
    "Native objective C * sum_i s_i (-log softmax(x_i W + b)_{y_i}) + |W|_F^2 / 2 (labels 1..K; parameters W (d x K, row-major) then b)." },
}
for name, d in pairs(DOCS) do
  if optim[name] then luma.doc.set(optim[name], { name = "luma.optim." .. name, signature = d[1], doc = d[2] }) end
end
for _, name in ipairs({ "SGD", "Momentum", "Nesterov", "Adagrad", "RMSprop", "Adam", "AdamW" }) do
  luma.doc.set(optim[name], { name = "luma.optim." .. name, signature = name .. "{lr, ...}",
    doc = "Stochastic optimizer; opt:step(params, grads) updates matrices in place. See docs/OPTIM.md for each update rule and its options." })
end
luma.doc.set(optim, { name = "luma.optim",
  doc = "Optimization (notes 000 §2.3/§2.5, 001 §J, 002 §1.4, 003 §1.23, 004 §12.5): minimize (lbfgs, "
    .. "lbfgsb, bfgs, cg, gd, newton, nelder-mead), line searches (bracket, golden_section, brent, "
    .. "armijo, strong_wolfe), minimize_scalar, root_scalar, approx_grad / jacobian / hessian / "
    .. "check_grad, stochastic optimizers (SGD, Momentum, Nesterov, Adagrad, RMSprop, Adam, AdamW) "
    .. "and schedules, penalty, barrier, projected_gradient, transforms, qp, nnls, linprog, and the "
    .. "native objectives logistic_loss and softmax_loss." })

return optim
