--- luma.optim.minimize: minimize(f, x0 [, opts]) and its methods
-- (issue 6; notes 000 §2.5, 002 §1.4): L-BFGS and L-BFGS-B run in C
-- (luma.optim.native, over a Lua function or a native luma.Objective);
-- gradient descent, conjugate gradients, BFGS, damped Newton and
-- Nelder-Mead run here, over the line searches of luma.optim.line_search.
--
-- Conventions: a parameter vector x is a d x 1 matrix.  An objective is a
-- Lua function f(x, want_grad, g) returning the value and, when want_grad
-- is true, the gradient (a d x 1 matrix; g is a d x 1 scratch matrix it
-- may fill and return, so objectives can run without allocating), or a
-- native luma.Objective (optim.logistic_loss, optim.softmax_loss).  x is
-- only valid during the call: copy it to keep it.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.optim.native")
local common = require("luma.optim.common")
local line_search = require("luma.optim.line_search")

local fail, check_x0, evaluator, finish = common.fail, common.check_x0, common.evaluator, common.finish
local STATUS_MESSAGES, CONVERGED = common.STATUS_MESSAGES, common.CONVERGED
local ftol_met, bounds_of = common.ftol_met, common.bounds_of
local huge, abs, max = math.huge, math.abs, math.max

local M = {}

local function is_objective(f) return native.is_objective(f) end

local function inf_norm(g) return g:norm(huge) end

-- The Lua-side methods by name: method(ev, x, opts, mon) -> x, f, g, status
-- (and the inverse Hessian for bfgs).
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
    local a, fa = line_search.armijo(function(alpha)
      return ev.value(axpy(x, alpha, p, xt))
    end, f, dphi0, { alpha0 = opts.alpha0 or 1, c1 = opts.c1 })
    if not a then return nil end
    axpy(x, a, p, xt)
    local fn, gn = ev.value_grad(xt)
    return a, xt, fn, gn
  else
    local a0 = opts._alpha0 or 1
    local a, fa, gn = line_search.strong_wolfe(function(alpha)
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

--- minimize(f, x0 [, opts]) -> result: minimizes f from x0.
function M.minimize(f, x0, opts)
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

common.guard(M, { minimize = { callables = { 1 }, opts = 3 } })

common.document(M, {
  minimize = { "minimize(f, x0 [, opts]) -> result",
    "Minimizes f from x0 (a d x 1 matrix or a table of numbers). f(x, want_grad, g) returns "
    .. "the value and, when want_grad, the d x 1 gradient (g is scratch it may fill), or f is "
    .. "a native luma.Objective. Methods: L-BFGS(-B), BFGS, nonlinear conjugate gradients "
    .. "(Nocedal and Wright, Numerical Optimization, chs. 5-7), gradient descent, Newton and "
    .. "Nelder-Mead. Returns {x, fun, grad_norm, iterations, nfev, ngev, converged, message} "
    .. "(plus history / hess_inv on request); a NaN or non-number value, or a gradient of the "
    .. "wrong shape, is an error naming the iteration.",
    params = {
      { name = "method", default = "lbfgs", doc = "\"lbfgs\" (\"lbfgsb\" when bounds are "
        .. "given), \"bfgs\", \"cg\", \"gd\", \"newton\" or \"nelder-mead\"" },
      { name = "gtol", default = 1e-5, doc = "inf-norm of the (projected) gradient" },
      { name = "ftol", default = 2.220446049250313e-09, doc = "relative reduction of f" },
      { name = "xtol", default = 0, doc = "inf-norm of the step" },
      { name = "max_iter", default = 15000, doc = "iterations" },
      { name = "max_fun", default = "by method", doc = "function evaluations" },
      { name = "m", default = 10, doc = "L-BFGS memory" },
      { name = "lower", doc = "lower bounds, a number or d x 1 (lbfgsb)" },
      { name = "upper", doc = "upper bounds, a number or d x 1 (lbfgsb)" },
      { name = "beta", default = "pr", doc = "cg: \"pr\" (Polak-Ribiere) or \"fr\" "
        .. "(Fletcher-Reeves)" },
      { name = "step", default = "armijo", doc = "gd: \"fixed\", \"armijo\" or \"exact\"" },
      { name = "step_size", doc = "gd: the fixed step" },
      { name = "hess", doc = "newton: function(x) -> d x d Hessian" },
      { name = "fixed_hessian", default = false, doc = "newton: evaluate hess once" },
      { name = "A", doc = "the Hessian of a quadratic, for exact line searches" },
      { name = "callback", doc = "callback(iter, x, fun, grad_norm), true stops" },
      { name = "history", default = false, doc = "record {fun, grad_norm} per iteration" },
      { name = "return_hess_inv", default = false, doc = "bfgs: return the inverse Hessian" },
    } },
})

return M
