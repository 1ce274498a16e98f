--- luma.optim.qp: convex quadratic programming (primal-dual interior
-- point with an active-set polish), NNLS (Lawson-Hanson) and a dense
-- two-phase simplex LP solver; re-exported by luma.optim.
--
-- Infeasible problems are reported in the result (status "infeasible",
-- converged = false), never as a wrong answer; argument errors raise.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.optim.native")

local qp = {}

local huge, abs, max, min = math.huge, math.abs, math.max, math.min

local fail = args.fail

local function as_matrix(fname, v, what, arg)
  if v == nil then return nil end
  if type(v) == "table" then
    local ok, m = pcall(luma.matrix, v)
    if not ok then
      fail(3, "bad argument #%d to '%s' (%s must be a matrix or a table of rows: %s)", arg, fname,
        what, (tostring(m):gsub("^bad argument #1 to 'matrix' %((.*)%)$", "%1")))
    end
    v = m
  end
  if not luma.ismatrix(v) then fail(3, "bad argument #%d to '%s' (%s must be a matrix)", arg, fname, what) end
  if not v:isfinite():all() then fail(3, "bad argument #%d to '%s' (%s has a non-finite element)", arg, fname, what) end
  return v
end

local function as_col(fname, v, what, n, arg)
  v = as_matrix(fname, v, what, arg)
  if v == nil then return nil end
  if v:rows() * v:cols() ~= n or (v:cols() ~= 1 and v:rows() ~= 1) then
    fail(3, "bad argument #%d to '%s' (%s is %d x %d, expected %d x 1)", arg, fname, what, v:rows(), v:cols(), n)
  end
  return v:reshape(n, 1)
end

-- lower/upper (numbers, matrices or nil) as Lua arrays; checks lo <= up.
local function bound_arrays(fname, lo, up, n, dlo, dup, arg)
  local L, U = {}, {}
  local function get(v, i, d)
    if v == nil then return d end
    if type(v) == "number" then return v end
    if type(v) == "table" and not luma.ismatrix(v) then v = luma.matrix(v) end
    if not luma.ismatrix(v) or v:rows() * v:cols() ~= n then
      fail(4, "bad argument #%d to '%s' (bounds must be numbers or %d x 1 matrices)", arg, fname, n)
    end
    return v:reshape(n, 1):get(i, 1)
  end
  for i = 1, n do
    L[i], U[i] = get(lo, i, dlo), get(up, i, dup)
    if L[i] ~= L[i] or U[i] ~= U[i] then fail(3, "bad argument #%d to '%s' (bound is NaN at row %d)", arg, fname, i) end
    if L[i] > U[i] then
      fail(3, "bad argument #%d to '%s' (lower bound %.17g is above upper bound %.17g at row %d)", arg, fname, L[i], U[i], i)
    end
  end
  return L, U
end

local function rows_of(M)
  if not M then return {} end
  return M:totable()
end

-- ------------------------------------------------------------- simplex

-- The standard-form program min c'x s.t. A x = b, x >= 0, b >= 0 (A a
-- list of rows of W entries) through the native dense two-phase simplex
-- (src/ml/optim/simplex.c).  Returns status, x (a list) or nil, pivots.
local function simplex_standard(c, A, b, max_iter, tol)
  local W = #c
  local Am = #A > 0 and luma.matrix(A) or luma.zeros(0, W)
  local status, x, pivots = native.simplex(luma.matrix(c), Am,
    #b > 0 and luma.matrix(b) or luma.zeros(0, 1), max_iter, tol)
  if x then
    local list = {}
    for k = 1, W do list[k] = x:get(k, 1) end
    x = list
  end
  return status, x, pivots
end

--- linprog(c [, {A_ub, b_ub, A_eq, b_eq, lower = 0, upper = inf, max_iter = 10000}])
-- -> {x, fun, status, converged, message, iterations}: min c'x subject to
-- A_ub x <= b_ub, A_eq x = b_eq, lower <= x <= upper (SciPy's linprog
-- defaults: x >= 0).  Dense two-phase simplex in C (Dantzig pricing,
-- Bland's rule after degenerate runs); status is "optimal", "infeasible",
-- "unbounded" or "max_iter".
function qp.linprog(c, opts)
  opts = opts or {}
  local cm = as_matrix("linprog", c, "c", 1)
  if not cm then fail(2, "bad argument #1 to 'linprog' (matrix expected)") end
  local n = cm:rows() * cm:cols()
  cm = cm:reshape(n, 1)
  local A_ub = as_matrix("linprog", opts.A_ub, "A_ub", 2)
  local A_eq = as_matrix("linprog", opts.A_eq, "A_eq", 2)
  local b_ub = A_ub and as_col("linprog", opts.b_ub, "b_ub", A_ub:rows(), 2)
  local b_eq = A_eq and as_col("linprog", opts.b_eq, "b_eq", A_eq:rows(), 2)
  if A_ub and (A_ub:cols() ~= n or not b_ub) then fail(2, "bad argument #2 to 'linprog' (A_ub must have %d columns and come with b_ub)", n) end
  if A_eq and (A_eq:cols() ~= n or not b_eq) then fail(2, "bad argument #2 to 'linprog' (A_eq must have %d columns and come with b_eq)", n) end
  local L, U = bound_arrays("linprog", opts.lower, opts.upper, n, 0, huge, 2)
  -- variable map: x_j = off_j + sum over its standard columns (coef * z)
  local cols = {} -- standard column k: {var j, sign}
  local off = {}
  local ub_rows = {} -- extra rows z_k <= u_j - l_j
  for j = 1, n do
    if L[j] > -huge then
      off[j] = L[j]
      cols[#cols + 1] = { j, 1 }
      if U[j] < huge then ub_rows[#ub_rows + 1] = { #cols, U[j] - L[j] } end
    elseif U[j] < huge then
      off[j] = U[j]
      cols[#cols + 1] = { j, -1 }
    else
      off[j] = 0
      cols[#cols + 1] = { j, 1 }
      cols[#cols + 1] = { j, -1 }
    end
  end
  local nz = #cols
  local Aub, Aeq = rows_of(A_ub), rows_of(A_eq)
  local rows, rhs, slack_of = {}, {}, {}
  local nslack = #Aub + #ub_rows
  local W = nz + nslack
  local function new_row()
    local r = {}
    for k = 1, W do r[k] = 0 end
    return r
  end
  local s = 0
  for i, arow in ipairs(Aub) do
    local r = new_row()
    local bi = b_ub:get(i, 1)
    for k, cj in ipairs(cols) do r[k] = arow[cj[1]] * cj[2] end
    for j = 1, n do bi = bi - arow[j] * off[j] end
    s = s + 1; r[nz + s] = 1
    rows[#rows + 1], rhs[#rhs + 1] = r, bi
  end
  for _, ur in ipairs(ub_rows) do
    local r = new_row()
    r[ur[1]] = 1
    s = s + 1; r[nz + s] = 1
    rows[#rows + 1], rhs[#rhs + 1] = r, ur[2]
  end
  for i, arow in ipairs(Aeq) do
    local r = new_row()
    local bi = b_eq:get(i, 1)
    for k, cj in ipairs(cols) do r[k] = arow[cj[1]] * cj[2] end
    for j = 1, n do bi = bi - arow[j] * off[j] end
    rows[#rows + 1], rhs[#rhs + 1] = r, bi
  end
  for i = 1, #rows do
    if rhs[i] < 0 then
      rhs[i] = -rhs[i]
      for k = 1, W do rows[i][k] = -rows[i][k] end
    end
  end
  local cost = {}
  for k = 1, W do cost[k] = 0 end
  for k, cj in ipairs(cols) do cost[k] = cm:get(cj[1], 1) * cj[2] end
  local status, z, iters = simplex_standard(cost, rows, rhs, opts.max_iter or 10000, 1e-10)
  local messages = {
    optimal = "optimal solution found", infeasible = "problem is infeasible",
    unbounded = "problem is unbounded", max_iter = "maximum number of iterations reached",
  }
  local res = { status = status, converged = status == "optimal", message = messages[status], iterations = iters }
  if z then
    local x = luma.zeros(n, 1)
    for j = 1, n do x:set(j, 1, off[j]) end
    for k, cj in ipairs(cols) do x:set(cj[1], 1, x:get(cj[1], 1) + cj[2] * z[k]) end
    res.x = x
    res.fun = cm:dot(x)
  end
  return res
end

-- ---------------------------------------------------------------- NNLS

--- nnls(A, b [, {max_iter = 3 n, tol}]) -> x, rnorm: min |A x - b|_2
-- subject to x >= 0 by the Lawson-Hanson active-set algorithm.
function qp.nnls(A, b, opts)
  A = as_matrix("nnls", A, "A", 1)
  if not A then fail(2, "bad argument #1 to 'nnls' (matrix expected)") end
  local m, n = A:rows(), A:cols()
  b = as_col("nnls", b, "b", m, 2)
  if not b then fail(2, "bad argument #2 to 'nnls' (matrix expected)") end
  local max_iter = opts and opts.max_iter or 3 * n
  local tol = opts and opts.tol or 10 * 2.220446049250313e-16 * A:norm(1) * max(m, n)
  local x = luma.zeros(n, 1)
  local P = {} -- passive set flags
  local function solve_passive()
    local idx = {}
    for j = 1, n do if P[j] then idx[#idx + 1] = j end end
    local z = luma.zeros(n, 1)
    if #idx > 0 then
      local zs = luma.linalg.lstsq(A:take(idx, 2), b)
      for k, j in ipairs(idx) do z:set(j, 1, zs:get(k, 1)) end
    end
    return z
  end
  local it = 0
  while true do
    local w = A:t() * (b - A * x)
    local jmax, wmax = nil, tol
    for j = 1, n do
      if not P[j] and w:get(j, 1) > wmax then jmax, wmax = j, w:get(j, 1) end
    end
    if not jmax then break end
    P[jmax] = true
    local z = solve_passive()
    while true do
      it = it + 1
      if it > max_iter then break end
      local neg = false
      for j = 1, n do if P[j] and z:get(j, 1) <= 0 then neg = true end end
      if not neg then break end
      local alpha = huge
      for j = 1, n do
        if P[j] and z:get(j, 1) <= 0 then
          local xj = x:get(j, 1)
          alpha = min(alpha, xj / (xj - z:get(j, 1)))
        end
      end
      x = x + (z - x) * alpha
      for j = 1, n do
        if P[j] and abs(x:get(j, 1)) <= tol then P[j] = nil; x:set(j, 1, 0) end
      end
      z = solve_passive()
    end
    x = z
    if it > max_iter then break end
  end
  for j = 1, n do if x:get(j, 1) < 0 then x:set(j, 1, 0) end end
  return x, (A * x - b):norm(2)
end

-- ------------------------------------------------------------------ QP

-- The largest a in (0, 1] keeping v + a dv >= 0 (v > 0).
local function max_step(v, dv)
  if v:rows() == 0 then return 1 end
  local neg = dv:lt(0)
  if not neg:any() then return 1 end
  return min(1, -v:div(dv):select(neg):max())
end

local function inf_norm(v) return v:rows() > 0 and v:abs():max() or 0 end

-- Solves the reduced Newton system [H A'; A 0] [dx; dy] = [r1; r2] for a
-- symmetric positive definite H = Q + G'WG + D: H by Cholesky (with a
-- diagonal shift if rounding made it indefinite), A through the Schur
-- complement A H^-1 A' (p x p).  Returns a solver function, or nil when
-- H cannot be factored.
local function newton_solver(H, A, p)
  local n = H:rows()
  local ok, L = pcall(luma.linalg.cholesky, H)
  local shift = 1e-14 * max(1, H:diag():abs():max())
  for _ = 1, 3 do
    if ok then break end
    local Hs = H:copy()
    Hs:diag():assign(Hs:diag() + shift)
    ok, L = pcall(luma.linalg.cholesky, Hs)
    shift = shift * 1e3
  end
  if not ok then return nil end
  local function hsolve(r)
    return luma.linalg.solve_triangular(L, luma.linalg.solve_triangular(L, r), { trans = true })
  end
  if p == 0 then
    return function(r1) return hsolve(r1), luma.zeros(0, 1) end
  end
  local HiAt = hsolve(A:t())
  local M = A * HiAt
  return function(r1, r2)
    local Hir1 = hsolve(r1)
    local dy = luma.linalg.solve(M, A * Hir1 - r2)
    return Hir1 - HiAt * dy, dy
  end
end

--- qp(Q, c [, {A_eq, b_eq, A_ub, b_ub, lower, upper, tol = 1e-10, max_iter = 200}])
-- -> {x, fun, status, converged, message, iterations, residual, y, z}: the
-- convex QP min 1/2 x'Qx + c'x s.t. A_eq x = b_eq, A_ub x <= b_ub, lower <=
-- x <= upper (Q symmetric positive semi-definite).  Feasibility of the
-- general constraints is decided first by the simplex's phase I (status
-- "infeasible"); then Mehrotra's primal-dual interior point (Nocedal and
-- Wright, Numerical Optimization, sec. 16.6) in which bounds stay bounds:
-- x - l = s_l >= 0 and u - x = s_u >= 0 have their own slacks and
-- multipliers, handled elementwise, so the Newton matrix is
-- Q + G'WG + diag(z_l / s_l + z_u / s_u) and no row is built for a bound.
-- The iteration stops at tol, or where it stops improving (the Newton
-- system loses its accuracy, the step vanishes or five steps bring no
-- better point) with the best iterate and status "inaccurate"; then an
-- active-set polish solves the KKT system with the constraints found
-- active as equalities and keeps the result if it is at least as good.
-- y are the equality multipliers, z the inequality ones (A_ub rows, then
-- finite lower bounds, then finite upper bounds).
function qp.qp(Q, c, opts)
  opts = opts or {}
  Q = as_matrix("qp", Q, "Q", 1)
  if not Q or Q:rows() ~= Q:cols() then fail(2, "bad argument #1 to 'qp' (Q must be a square matrix)") end
  local n = Q:rows()
  c = as_col("qp", c, "c", n, 2)
  if not c then fail(2, "bad argument #2 to 'qp' (c must be a %d x 1 matrix)", n) end
  if (Q - Q:t()):abs():max() > 1e-8 * max(1, Q:abs():max()) then
    fail(2, "bad argument #1 to 'qp' (Q is not symmetric)")
  end
  local A = as_matrix("qp", opts.A_eq, "A_eq", 3)
  local b = A and as_col("qp", opts.b_eq, "b_eq", A:rows(), 3)
  if A and (A:cols() ~= n or not b) then fail(2, "bad argument #3 to 'qp' (A_eq must have %d columns and come with b_eq)", n) end
  local G = as_matrix("qp", opts.A_ub, "A_ub", 3)
  local h = G and as_col("qp", opts.b_ub, "b_ub", G:rows(), 3)
  if G and (G:cols() ~= n or not h) then fail(2, "bad argument #3 to 'qp' (A_ub must have %d columns and come with b_ub)", n) end
  local L, U = bound_arrays("qp", opts.lower, opts.upper, n, -huge, huge, 3)
  local tol = opts.tol or 1e-10
  local max_iter = opts.max_iter or 200
  local p = A and A:rows() or 0
  local mi = G and G:rows() or 0
  -- Bounds as n x 1 vectors with 0/1 masks (an absent bound has value 0,
  -- slack 1 and multiplier 0, and its mask keeps them there).
  local lv, uv, ml, mu_ = luma.zeros(n, 1), luma.zeros(n, 1), luma.zeros(n, 1), luma.zeros(n, 1)
  local nl, nu = 0, 0
  for j = 1, n do
    if L[j] > -huge then lv:set(j, 1, L[j]); ml:set(j, 1, 1); nl = nl + 1 end
    if U[j] < huge then uv:set(j, 1, U[j]); mu_:set(j, 1, 1); nu = nu + 1 end
  end
  local m = mi + nl + nu
  -- Feasibility of the general constraints (phase I of the simplex, the
  -- bounds passed as bounds); with bounds alone lower <= upper suffices.
  local x
  if p > 0 or mi > 0 then
    local lp = qp.linprog(luma.zeros(n, 1), { A_ub = G, b_ub = h, A_eq = A, b_eq = b, lower = L, upper = U })
    if lp.status == "infeasible" then
      return { status = "infeasible", converged = false, message = "problem is infeasible", iterations = 0 }
    end
    x = lp.x and lp.x:copy()
  end
  if not x then -- the middle of each box, or a step inside a one-sided bound
    x = luma.zeros(n, 1)
    for j = 1, n do
      local lo, up = L[j], U[j]
      x:set(j, 1, (lo > -huge and up < huge) and (lo + up) / 2 or lo > -huge and lo + 1 or up < huge and up - 1 or 0)
    end
  end
  local scale = max(1, Q:abs():max(), c:abs():max())
  local y = luma.zeros(p, 1)
  local function kkt_solve(H, r1, r2)
    -- [H A'; A 0] [dx; dy] = [r1; r2] by LU (H may be singular)
    if p == 0 then
      local ok, sol = pcall(luma.linalg.solve, H, r1)
      if not ok then sol = luma.linalg.solve(H + luma.eye(n) * 1e-12 * max(1, H:abs():max()), r1) end
      return sol, luma.zeros(0, 1)
    end
    local K = luma.vstack({luma.hstack({H, A:t()}), luma.hstack({A, luma.zeros(p, p)})})
    local r = luma.vstack({r1, r2})
    local ok, sol = pcall(luma.linalg.solve, K, r)
    if not ok then
      local reg = luma.diag(luma.vstack({luma.ones(n, 1), luma.full(p, 1, -1)})) * (1e-10 * max(1, K:abs():max()))
      sol = luma.linalg.solve(K + reg, r)
    end
    return sol:sub(1, n, 1, 1):copy(), sol:sub(n + 1, n + p, 1, 1):copy()
  end
  if m == 0 then
    -- equality-constrained (or unconstrained): one KKT solve
    x, y = kkt_solve(Q, -c, b or luma.zeros(0, 1))
    local rd = Q * x + c + (p > 0 and A:t() * y or 0)
    local status = rd:norm(huge) <= 1e-8 * scale and "optimal" or "unbounded"
    return { x = x, y = y, z = luma.zeros(0, 1), iterations = 0, status = status,
      fun = 0.5 * x:dot(Q * x) + c:dot(x), converged = status == "optimal",
      residual = rd:norm(huge) / scale,
      message = status == "optimal" and "optimal solution found"
        or "problem is unbounded below (no stationary point)" }
  end
  local Gt = G and G:t()
  local s = mi > 0 and (h - G * x):maximum(1) or luma.zeros(0, 1)
  local z = luma.ones(mi, 1)
  local sl = luma.matrix.where(ml, (x - lv):maximum(1), 1)
  local su = luma.matrix.where(mu_, (uv - x):maximum(1), 1)
  local zl, zu = ml:copy(), mu_:copy()

  -- The residuals of the KKT conditions at the current point, and their
  -- largest entry relative to the problem's scale (the merit).
  local function residuals()
    local r = { rd = Q * x + c - zl + zu }
    if mi > 0 then r.rd = r.rd + Gt * z end
    if p > 0 then r.rd = r.rd + A:t() * y end
    r.rp = p > 0 and (A * x - b) or luma.zeros(0, 1)
    r.rg = mi > 0 and (G * x + s - h) or luma.zeros(0, 1)
    r.rl = (x - lv - sl):mul(ml)
    r.ru = (x + su - uv):mul(mu_)
    r.mu = ((mi > 0 and s:dot(z) or 0) + sl:dot(zl) + su:dot(zu)) / m
    r.merit = max(inf_norm(r.rd), inf_norm(r.rp), inf_norm(r.rg), inf_norm(r.rl), inf_norm(r.ru), r.mu) / scale
    return r
  end
  local function snapshot()
    return { x = x:copy(), y = y:copy(), s = s:copy(), z = z:copy(), sl = sl:copy(), zl = zl:copy(),
      su = su:copy(), zu = zu:copy() }
  end
  local best, best_merit, best_it = snapshot(), huge, 0
  local status, reason = "max_iter", nil
  local it = 0
  while true do
    local r = residuals()
    if not (r.merit == r.merit) then reason = "the residuals are no longer finite"; break end
    if r.merit < best_merit then best, best_merit, best_it = snapshot(), r.merit, it end
    if r.merit <= tol then status = "optimal"; break end
    if it >= max_iter then break end
    if it - best_it >= 5 then reason = "five steps brought no better point"; break end
    it = it + 1
    local wv = mi > 0 and z:div(s) or nil
    local wl, wu = zl:div(sl), zu:div(su)
    local H = mi > 0 and (Q + Gt * G:mul(wv)) or Q:copy()
    H:diag():assign(H:diag() + wl + wu)
    local solve = newton_solver(H, A, p)
    if not solve then reason = "the Newton matrix could not be factored"; break end
    local function direction(rc, rcl, rcu)
      local d = {}
      local t1 = mi > 0 and (z:mul(r.rg) - rc):div(s) or nil
      local tl = (rcl + zl:mul(r.rl)):div(sl) * -1
      local tu = (zu:mul(r.ru) - rcu):div(su)
      local r1 = r.rd * -1 + tl - tu
      if mi > 0 then r1 = r1 - Gt * t1 end
      d.x, d.y = solve(r1, r.rp * -1)
      if mi > 0 then
        local Gdx = G * d.x
        d.z, d.s = t1 + wv:mul(Gdx), r.rg * -1 - Gdx
      else
        d.z, d.s = z, s -- empty
      end
      d.zl, d.sl = (tl - wl:mul(d.x)):mul(ml), (d.x + r.rl):mul(ml)
      d.zu, d.su = (tu + wu:mul(d.x)):mul(mu_), (r.ru * -1 - d.x):mul(mu_)
      return d
    end
    local function step_to_boundary(d)
      return min(max_step(s, d.s), max_step(z, d.z), max_step(sl, d.sl), max_step(zl, d.zl),
        max_step(su, d.su), max_step(zu, d.zu))
    end
    -- predictor (affine scaling), then Mehrotra's centering and corrector
    local rc, rcl, rcu = s:mul(z), sl:mul(zl), su:mul(zu)
    local da = direction(rc, rcl, rcu)
    local aa = step_to_boundary(da)
    local mu_aff = ((mi > 0 and (s + da.s * aa):dot(z + da.z * aa) or 0)
      + (sl + da.sl * aa):dot(zl + da.zl * aa) + (su + da.su * aa):dot(zu + da.zu * aa)) / m
    local sm = (mu_aff / r.mu) ^ 3 * r.mu
    if mi > 0 then rc = rc + da.s:mul(da.z) - sm end
    rcl = rcl + da.sl:mul(da.zl) - ml * sm
    rcu = rcu + da.su:mul(da.zu) - mu_ * sm
    local d = direction(rc, rcl, rcu)
    if not (d.x:isfinite():all() and d.y:isfinite():all()) then
      reason = "the Newton direction is no longer finite"; break
    end
    local a = 0.99 * step_to_boundary(d)
    if not (a > 1e-12) then reason = "the step to the boundary vanished"; break end
    a = min(1, a)
    x = x + d.x * a; y = y + d.y * a
    if mi > 0 then z = z + d.z * a; s = s + d.s * a end
    zl = zl + d.zl * a; sl = sl + d.sl * a
    zu = zu + d.zu * a; su = su + d.su * a
    -- masked entries stay at slack 1, multiplier 0
    sl, su = luma.matrix.where(ml, sl, 1), luma.matrix.where(mu_, su, 1)
  end
  -- the best iterate
  x, y, s, z, sl, zl, su, zu = best.x, best.y, best.s, best.z, best.sl, best.zl, best.su, best.zu
  local merit = best_merit
  if status ~= "optimal" and reason then status = "inaccurate" end

  -- Active-set polish: the constraints whose multiplier exceeds their
  -- slack become equalities; variables at a bound are fixed and the KKT
  -- system of the others is solved; the bound multipliers follow from
  -- stationarity.  Kept when feasible, dual feasible and no worse.
  if status ~= "max_iter" then
    local act, fixed, at_upper, free = {}, {}, {}, {}
    for i = 1, mi do if z:get(i, 1) > s:get(i, 1) then act[#act + 1] = i end end
    for j = 1, n do
      if ml:get(j, 1) == 1 and zl:get(j, 1) > sl:get(j, 1) then fixed[j] = L[j]
      elseif mu_:get(j, 1) == 1 and zu:get(j, 1) > su:get(j, 1) then fixed[j], at_upper[j] = U[j], true
      else free[#free + 1] = j end
    end
    local ok, xp, yp, lam = pcall(function()
      local xs = luma.zeros(n, 1)
      for j, v in pairs(fixed) do xs:set(j, 1, v) end
      local Ga = #act > 0 and G:take(act, 1) or nil
      local E = Ga and (A and luma.vstack({ A, Ga }) or Ga) or A -- equality rows
      local e = Ga and (b and luma.vstack({ b, h:take(act, 1) }) or h:take(act, 1)) or b
      local q = E and E:rows() or 0
      local nf = #free
      if nf + q > 0 then
        local QF = nf > 0 and Q:take(free, 1) or nil
        local rhs1 = nf > 0 and (c:take(free, 1) + QF * xs) * -1 or luma.zeros(0, 1)
        local sol
        if q == 0 then
          sol = luma.linalg.solve(QF:take(free, 2), rhs1)
        else
          local EF = nf > 0 and E:take(free, 2) or luma.zeros(q, 0)
          local K = nf > 0 and luma.vstack({ luma.hstack({ QF:take(free, 2), EF:t() }), luma.hstack({ EF, luma.zeros(q, q) }) })
            or nil
          if not K then error("no free variable") end
          sol = luma.linalg.solve(K, luma.vstack({ rhs1, e - E * xs }))
        end
        for k, j in ipairs(free) do xs:set(j, 1, sol:get(k, 1)) end
        local mult = q > 0 and sol:sub(nf + 1, nf + q, 1, 1):copy() or luma.zeros(0, 1)
        return xs, p > 0 and mult:sub(1, p, 1, 1):copy() or luma.zeros(0, 1),
          #act > 0 and mult:sub(p + 1, q, 1, 1):copy() or luma.zeros(0, 1)
      end
      return xs, luma.zeros(0, 1), luma.zeros(0, 1)
    end)
    if ok and xp:isfinite():all() then
      local zp = luma.zeros(mi, 1)
      for k, i in ipairs(act) do zp:set(i, 1, lam:get(k, 1)) end
      local g = Q * xp + c
      if p > 0 then g = g + A:t() * yp end
      if mi > 0 then g = g + Gt * zp end
      local zlp, zup = luma.zeros(n, 1), luma.zeros(n, 1)
      for j in pairs(fixed) do -- where lower = upper the sign of g picks the bound
        local gj = g:get(j, 1)
        if at_upper[j] or (L[j] == U[j] and gj < 0) then zup:set(j, 1, -gj) else zlp:set(j, 1, gj) end
      end
      local rd = g - zlp + zup
      local viol = max(inf_norm(p > 0 and (A * xp - b) or luma.zeros(0, 1)),
        mi > 0 and max(0, (G * xp - h):max()) or 0,
        max(0, (lv - xp):mul(ml):max(), (xp - uv):mul(mu_):max()),
        max(0, -(mi > 0 and zp:min() or 0), -zlp:min(), -zup:min()))
      local polished = max(inf_norm(rd), viol) / scale
      if polished <= max(merit, tol) then
        x, y, z, zl, zu, merit = xp, yp, zp, zlp, zup, polished
        if merit <= tol then status = "optimal" end
      end
    end
  end
  -- z: the A_ub multipliers, then those of the finite lower and upper bounds
  local zlist = {}
  for i = 1, mi do zlist[#zlist + 1] = z:get(i, 1) end
  for j = 1, n do if ml:get(j, 1) == 1 then zlist[#zlist + 1] = zl:get(j, 1) end end
  for j = 1, n do if mu_:get(j, 1) == 1 then zlist[#zlist + 1] = zu:get(j, 1) end end
  local messages = {
    optimal = "optimal solution found",
    max_iter = "maximum number of iterations reached",
    inaccurate = string.format("stopped at the attainable accuracy: relative KKT residual %.2g "
      .. "(tol %.2g); %s; x is the best iterate%s", merit, tol, reason or "",
      merit > 1e-6 and " (far from tol: the problem may be unbounded or badly scaled)" or ""),
  }
  return { x = x, y = y, z = #zlist > 0 and luma.matrix(zlist) or luma.zeros(0, 1), iterations = it,
    status = status, converged = status == "optimal", residual = merit, message = messages[status],
    fun = 0.5 * x:dot(Q * x) + c:dot(x) }
end

-- Their shared checks (as_matrix through as_col) raise at varying depths:
-- every error located here is raised again at the caller's line, after a
-- check of the options table.
require("luma.optim.common").guard(qp, {
  linprog = { opts = 2 }, nnls = { opts = 3 }, qp = { opts = 3 },
})

return qp
