--- luma.optim.qp: convex quadratic programming (primal-dual interior
-- point with an active-set polish), NNLS (Lawson-Hanson) and a dense
-- two-phase simplex LP solver; re-exported by luma.optim.
--
-- Infeasible problems are reported in the result (status "infeasible",
-- converged = false), never as a wrong answer; argument errors raise.
local luma = require("luma")
local native = require("luma.optim.native")

local qp = {}

local huge, abs, max, min = math.huge, math.abs, math.max, math.min

local function fail(level, fmt, ...) error(string.format(fmt, ...), level + 1) end

local function as_matrix(fname, v, what, arg)
  if v == nil then return nil end
  if type(v) == "table" then v = luma.matrix(v) end
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

--- qp(Q, c [, {A_eq, b_eq, A_ub, b_ub, lower, upper, tol = 1e-10, max_iter = 200}])
-- -> {x, fun, status, converged, message, iterations, y, z}: the convex QP
-- min 1/2 x'Qx + c'x s.t. A_eq x = b_eq, A_ub x <= b_ub, lower <= x <=
-- upper (Q symmetric positive semi-definite).  Feasibility is decided
-- first by the simplex's phase I (status "infeasible"); then Mehrotra's
-- primal-dual interior point method, and a final active-set polish that
-- solves the KKT system of the constraints the interior point found
-- active, so the answer is exact up to rounding when the active set is
-- right.  y are the equality multipliers, z the inequality ones (A_ub rows,
-- then finite lower bounds, then finite upper bounds).
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
  local G0 = as_matrix("qp", opts.A_ub, "A_ub", 3)
  local h0 = G0 and as_col("qp", opts.b_ub, "b_ub", G0:rows(), 3)
  if G0 and (G0:cols() ~= n or not h0) then fail(2, "bad argument #3 to 'qp' (A_ub must have %d columns and come with b_ub)", n) end
  local L, U = bound_arrays("qp", opts.lower, opts.upper, n, -huge, huge, 3)
  -- all inequalities as G x <= h
  local Grows, hvals = {}, {}
  if G0 then
    local t = G0:totable()
    for i = 1, #t do Grows[#Grows + 1] = t[i]; hvals[#hvals + 1] = h0:get(i, 1) end
  end
  for j = 1, n do
    if L[j] > -huge then
      local r = {}
      for k = 1, n do r[k] = (k == j) and -1 or 0 end
      Grows[#Grows + 1] = r; hvals[#hvals + 1] = -L[j]
    end
  end
  for j = 1, n do
    if U[j] < huge then
      local r = {}
      for k = 1, n do r[k] = (k == j) and 1 or 0 end
      Grows[#Grows + 1] = r; hvals[#hvals + 1] = U[j]
    end
  end
  local mi = #Grows
  local p = A and A:rows() or 0
  local G = mi > 0 and luma.matrix(Grows) or nil
  local h = mi > 0 and luma.matrix(hvals) or nil
  -- feasibility (phase I of the simplex over free variables)
  local lp = qp.linprog(luma.zeros(n, 1), { A_ub = G, b_ub = h, A_eq = A, b_eq = b, lower = -huge, upper = huge })
  if lp.status == "infeasible" then
    return { status = "infeasible", converged = false, message = "problem is infeasible", iterations = 0 }
  end
  local tol = opts.tol or 1e-10
  local max_iter = opts.max_iter or 200
  local x = lp.x and lp.x:copy() or luma.zeros(n, 1)
  local y = luma.zeros(p, 1)
  local s, z
  if mi > 0 then
    s = (h - G * x):maximum(1)
    z = luma.ones(mi, 1)
  end
  local function kkt_solve(H, r1, r2)
    -- [H A'; A 0] [dx; dy] = [r1; r2]
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
  local scale = max(1, Q:abs():max(), c:abs():max())
  local it = 0
  local status = "max_iter"
  if mi == 0 then
    -- equality-constrained (or unconstrained): one KKT solve
    local dx, dy = kkt_solve(Q, -c, b or luma.zeros(0, 1))
    x, y = dx, dy
    local rd = Q * x + c + (p > 0 and A:t() * y or 0)
    status = rd:norm(huge) <= 1e-8 * scale and "optimal" or "unbounded"
  else
    local Gt = G:t()
    while it < max_iter do
      local rd = Q * x + c + Gt * z
      if p > 0 then rd = rd + A:t() * y end
      local rp = p > 0 and (A * x - b) or luma.zeros(0, 1)
      local rg = G * x + s - h
      local mu = s:dot(z) / mi
      if rd:norm(huge) <= tol * scale and (p == 0 or rp:norm(huge) <= tol * scale)
        and rg:norm(huge) <= tol * scale and mu <= tol * scale then
        status = "optimal"; break
      end
      it = it + 1
      local wv = z:div(s)
      local H = Q + Gt * (G:mul(wv))
      local function direction(rc)
        -- dz = S^-1 (Z rg - rc) + W G dx; ds = -rg - G dx
        local t1 = (z:mul(rg) - rc):div(s)
        local dx, dy = kkt_solve(H, -rd - Gt * t1, -rp)
        local dz = t1 + wv:mul(G * dx)
        local ds = -rg - G * dx
        return dx, dy, dz, ds
      end
      local function step_len(v, dv)
        local a = 1
        for i = 1, mi do
          local d = dv:get(i, 1)
          if d < 0 then a = min(a, -v:get(i, 1) / d) end
        end
        return a
      end
      local rc = s:mul(z)
      local dxa, _, dza, dsa = direction(rc)
      local aa = min(step_len(s, dsa), step_len(z, dza))
      local mu_aff = (s + dsa * aa):dot(z + dza * aa) / mi
      local sigma = (mu_aff / mu) ^ 3
      rc = rc + dsa:mul(dza) - sigma * mu
      local dx, dy, dz, ds = direction(rc)
      local a = min(1, 0.99 * min(step_len(s, ds), step_len(z, dz)))
      x = x + dx * a; y = y + dy * a; z = z + dz * a; s = s + ds * a
      local _ = dxa
    end
  end
  local res = { x = x, y = y, z = z, iterations = it, status = status }
  -- active-set polish: solve the KKT system with the active inequalities as equalities
  if status == "optimal" and mi > 0 then
    local act = {}
    for i = 1, mi do if z:get(i, 1) > s:get(i, 1) then act[#act + 1] = i end end
    local Ga = #act > 0 and G:take(act, 1) or nil
    local Aa = A
    local ba = b
    if Ga then
      Aa = A and luma.vstack({A, Ga}) or Ga
      local ha = h:take(act, 1)
      ba = b and luma.vstack({b, ha}) or ha
    end
    local ok, sol = pcall(function()
      if not Aa then return luma.linalg.solve(Q, -c) end
      local q = Aa:rows()
      local K = luma.vstack({luma.hstack({Q, Aa:t()}), luma.hstack({Aa, luma.zeros(q, q)})})
      return luma.linalg.solve(K, luma.vstack({-c, ba}))
    end)
    if ok and sol:isfinite():all() then
      local xp = sol:sub(1, n, 1, 1):copy()
      local lam = Aa and sol:sub(n + 1, sol:rows(), 1, 1) or nil
      local feas = (G * xp - h):max() <= 1e-9 * max(1, h:abs():max())
      local dual_ok = true
      if lam then
        for k = 1, #act do if lam:get(p + k, 1) < -1e-8 * scale then dual_ok = false end end
      end
      if feas and dual_ok then
        res.x = xp
        if lam then
          if p > 0 then res.y = lam:sub(1, p, 1, 1):copy() end
          local zp = luma.zeros(mi, 1)
          for k, i in ipairs(act) do zp:set(i, 1, lam:get(p + k, 1)) end
          res.z = zp
        end
      end
    end
  end
  res.fun = 0.5 * res.x:dot(Q * res.x) + c:dot(res.x)
  res.converged = status == "optimal"
  res.message = ({ optimal = "optimal solution found", max_iter = "maximum number of iterations reached",
    unbounded = "problem is unbounded below (no stationary point)" })[status]
  return res
end

return qp
