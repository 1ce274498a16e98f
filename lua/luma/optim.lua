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
local native = luma.optim_native

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

return optim
