--- luma.optim.constrained: constrained minimization (notes 000 §2.5,
-- 002 O9-O10): the quadratic penalty method for equality constraints, the
-- log-barrier interior point for inequalities, projected gradient descent
-- for a box, and variable transforms that turn a constrained problem into
-- an unconstrained one.  penalty and barrier run luma.optim.minimize in
-- their outer loops.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local common = require("luma.optim.common")
local derivatives = require("luma.optim.derivatives")
local minimize = require("luma.optim.minimize").minimize

local fail, check_x0, evaluator, finish = common.fail, common.check_x0, common.evaluator, common.finish
local STATUS_MESSAGES, CONVERGED = common.STATUS_MESSAGES, common.CONVERGED
local ftol_met, bounds_of = common.ftol_met, common.bounds_of
local huge, min = math.huge, math.min

local M = {}

--- penalty(f, c, x0 [, {rho0 = 1, growth = 10, tol = 1e-6, max_outer = 20, minimize = {...}}])
-- -> result: the quadratic penalty method (notes 000 §2.5.5): minimizes
-- P(x, rho) = f(x) + (rho/2) c(x)'c(x) for rho = rho0, rho0 growth, ...
-- until |c(x)|_inf <= tol.  c(x, want_jac) returns the m x 1 constraint
-- values and, when asked, the m x d Jacobian (numerical when c returns
-- none).  The result adds constraint_violation and rho.
function M.penalty(f, c, x0, opts)
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
      if want and not J then J = derivatives.jacobian(function(z) return (c(z, false)) end, xx) end
      if want then
        local v, gf = f(xx, true, g)
        return v + 0.5 * r * cv:dot(cv), gf + (J:t() * cv) * r
      end
      return f(xx, false) + 0.5 * r * cv:dot(cv)
    end
    local mo = { method = "lbfgs", gtol = 1e-8 }
    for k, v in pairs(opts.minimize or {}) do mo[k] = v end
    res = minimize(P, x, mo)
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
function M.barrier(f, g, x0, opts)
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
        if not J then J = derivatives.jacobian(function(z) return (g(z, false)) end, xx) end
        local fv, gf = f(xx, true, gs)
        -- d/dx -(1/t) log(-g_i) = -(1/t) grad g_i / g_i
        return fv + v, gf - (J:t() * gv:pow(-1)) * (1 / tt)
      end
      return f(xx, false) + v
    end
    res = minimize(B, x, { method = "bfgs", gtol = 1e-9, max_iter = 2000 })
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
function M.projected_gradient(f, x0, lower, upper, opts)
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
M.transforms = {}

--- transforms.exp(): x = e^y > 0.
function M.transforms.exp()
  return {
    forward = function(y) return y:exp() end,
    inverse = function(x) return x:log() end,
    pullback = function(y, gx) return gx:mul(y:exp()) end,
  }
end

--- transforms.square(): x = y^2 >= 0.
function M.transforms.square()
  return {
    forward = function(y) return y:mul(y) end,
    inverse = function(x) return x:sqrt() end,
    pullback = function(y, gx) return gx:mul(y * 2) end,
  }
end

--- transforms.interval(a, b): a < x < b through the notes' form
-- x = (a + b)/2 + ((a - b)/2) tanh y (notes 000 §2.5; y -> +inf gives a).
function M.transforms.interval(a, b)
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
function M.transforms.softmax()
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
function M.transform_objective(f, T)
  if type(T) ~= "table" or type(T.forward) ~= "function" or type(T.pullback) ~= "function" then
    fail(1, "bad argument #2 to 'transform_objective' (a transform {forward, pullback} expected, "
      .. "got %s)", type(T))
  end
  return function(y, want)
    local x = T.forward(y)
    if want then
      local v, gx = f(x, true)
      return v, T.pullback(y, gx)
    end
    return (f(x, false))
  end
end

common.guard(M, {
  penalty = { callables = { 1, 2 }, opts = 4 },
  barrier = { callables = { 1, 2 }, opts = 4 },
  projected_gradient = { callables = { 1 }, opts = 5 },
  transform_objective = { callables = { 1 } },
})

common.document(M, {
  penalty = { "penalty(f, c, x0 [, {rho0 = 1, growth = 10, tol = 1e-6, max_outer = 20, "
      .. "minimize = {}}]) -> result",
    "The quadratic penalty method for c(x) = 0: minimizes f(x) + (rho/2) |c(x)|^2 for rho = "
      .. "rho0, rho0 growth, ... until |c(x)|_inf <= tol (Nocedal and Wright, Numerical "
      .. "Optimization, sec. 17.1). Returns minimize's result plus constraint_violation and "
      .. "rho." },
  barrier = { "barrier(f, g, x0 [, {t0 = 1, mu = 10, tol = 1e-8, max_outer = 50}]) -> result",
    "The log-barrier interior-point method for g(x) <= 0 from a strictly feasible x0 (Boyd "
      .. "and Vandenberghe, Convex Optimization, sec. 11.3). Returns minimize's result plus "
      .. "the final barrier parameter t." },
  projected_gradient = { "projected_gradient(f, x0, lower, upper [, {gtol = 1e-6, "
      .. "max_iter = 10000, ftol = 1e-12}]) -> result",
    "Projected gradient descent with backtracking for box constraints lower <= x <= upper. "
      .. "Returns {x, fun, grad_norm, iterations, converged, message}." },
  transform_objective = { "transform_objective(f, T) -> objective",
    "f composed with a variable transform T (optim.transforms.exp, square, interval, "
      .. "softmax), for unconstrained minimization in y. Returns the objective in y." },
})
common.document(M.transforms, {
  exp = { "transforms.exp() -> transform", "x = e^y > 0. Returns {forward, inverse, "
    .. "pullback}." },
  square = { "transforms.square() -> transform", "x = y^2 >= 0. Returns {forward, inverse, "
    .. "pullback}." },
  interval = { "transforms.interval(a, b) -> transform", "a < x < b through x = (a + b)/2 + "
    .. "((a - b)/2) tanh y. Returns {forward, inverse, pullback}." },
  softmax = { "transforms.softmax() -> transform", "The probability simplex, x_i = e^{y_i} / "
    .. "sum_j e^{y_j}. Returns {forward, inverse, pullback}." },
}, "luma.optim.transforms")

return M
