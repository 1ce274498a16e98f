--- luma.markov chain: discrete-time Markov chains on a finite state space
-- as transition matrices (notes 002 §1.16 Q1–Q5, 000 Ch. 11 "Markov
-- models").
--
-- Orientation (the erratum X32 of notes 002: "P_n = p^n P_init" needs a
-- transpose when p_ij = Pr(i -> j)): a transition matrix is
-- row-stochastic, P[i][j] = Pr(X_{t+1} = j | X_t = i), and distributions
-- are row vectors propagated on the right, p_{t+1} = p_t P, so the
-- equilibrium solves pi = pi P (notes 002 Q4; Norris, Markov Chains,
-- 1997, secs. 1.1 and 1.7).  PageRank (pagerank.lua) uses the same
-- orientation.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local M = {}

-- The longest path a sampler draws (a matrix's row limit).
M.MAX_STEPS = 2147483647

local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
M.fail = fail

-- Row sums may differ from 1 by this much (rounding of user input).
local ROW_TOL = 1e-8

--- M.check_transition(P, fname [, what = "P"]) -> P: a square
-- row-stochastic matrix, or an error naming the function and the first
-- offending element or row.
function M.check_transition(P, fname, what)
  what = what or "P"
  if not luma.ismatrix(P) then
    fail("bad argument to '%s' (%s must be a transition matrix, got %s)", fname, what, type(P))
  end
  local k, c = P:shape()
  if k ~= c or k < 1 then
    fail("bad argument to '%s' (%s must be square, got %d x %d)", fname, what, k, c)
  end
  if not P:isfinite():all() then
    fail("bad argument to '%s' (%s has a non-finite element)", fname, what)
  end
  if P:min() < 0 then
    local p = math.tointeger(luma.matrix.find(P:lt(0)):get(1, 1))
    local i, j = (p - 1) // k + 1, (p - 1) % k + 1
    fail("bad argument to '%s' (%s has a negative probability, %s[%d][%d] = %.15g)", fname,
      what, what, i, j, P:get(i, j))
  end
  local sums = P:sum(2)
  for i = 1, k do
    local s = sums:get(i, 1)
    if math.abs(s - 1) > ROW_TOL then
      fail("bad argument to '%s' (row %d of %s sums to %.15g, not 1: a transition matrix is "
        .. "row-stochastic, P[i][j] = Pr(i -> j))", fname, i, what, s)
    end
  end
  return P
end

--- M.check_distribution(p, k, fname, what) -> 1 x k: a probability vector
-- (either orientation) of k entries.
function M.check_distribution(p, k, fname, what)
  if type(p) == "table" and not luma.ismatrix(p) then p = luma.matrix(p) end
  if not luma.ismatrix(p) or p:rows() * p:cols() ~= k or (p:rows() ~= 1 and p:cols() ~= 1) then
    fail("bad argument to '%s' (%s must be a vector of %d probabilities)", fname, what, k)
  end
  p = p:reshape(1, k)
  if not p:isfinite():all() then fail("bad argument to '%s' (%s has a non-finite entry)", fname, what) end
  if p:min() < 0 then
    fail("bad argument to '%s' (%s has a negative probability, %.15g)", fname, what, p:min())
  end
  if math.abs(p:sum() - 1) > ROW_TOL then
    fail("bad argument to '%s' (%s sums to %.15g, not 1)", fname, what, p:sum())
  end
  return p:copy()
end

local function check_steps(n, fname)
  if math.type(n) ~= "integer" or n < 0 then
    fail("bad argument to '%s' (n must be an integer >= 0, got %s)", fname, tostring(n))
  end
end

--- n_step(P, n) -> P^n by repeated squaring.
function M.n_step(P, n)
  M.check_transition(P, "n_step")
  check_steps(n, "n_step")
  local result, base = luma.eye(P:rows()), P:copy()
  while n > 0 do
    if n % 2 == 1 then result = result * base end
    n = n // 2
    if n > 0 then base = base * base end
  end
  return result
end

--- propagate(p0, P [, n = 1]) -> p0 P^n (1 x k).
function M.propagate(p0, P, n)
  M.check_transition(P, "propagate")
  n = n or 1
  check_steps(n, "propagate")
  local p = M.check_distribution(p0, P:rows(), "propagate", "p0")
  for _ = 1, n do p = p * P end
  return p
end

-- Reachability over the edges P[i][j] > 0 (transposed: reached-from),
-- breadth first from the states in `from`; returns a table state -> level.
local function reach(P, from, transposed)
  local k = P:rows()
  local pos = P:gt(0)
  local level, queue, head = {}, {}, 1
  for _, s in ipairs(from) do
    level[s] = 0
    queue[#queue + 1] = s
  end
  while head <= #queue do
    local i = queue[head]
    head = head + 1
    local edges = transposed and pos:col(i) or pos:row(i):t()
    for j = 1, k do
      if level[j] == nil and edges:get(j, 1) ~= 0 then
        level[j] = level[i] + 1
        queue[#queue + 1] = j
      end
    end
  end
  return level
end

local function count(t)
  local c = 0
  for _ in pairs(t) do c = c + 1 end
  return c
end

--- is_irreducible(P) -> boolean: every state reaches every other.
function M.is_irreducible(P)
  M.check_transition(P, "is_irreducible")
  local k = P:rows()
  return count(reach(P, { 1 }, false)) == k and count(reach(P, { 1 }, true)) == k
end

local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end

--- period(P) -> integer: the period of an irreducible chain, the gcd of
-- the lengths of its cycles (1: aperiodic), from breadth-first levels:
-- gcd over edges i -> j of level(i) + 1 - level(j).
function M.period(P)
  M.check_transition(P, "period")
  if not M.is_irreducible(P) then
    fail("bad argument to 'period' (the chain is reducible: the period is a property of each "
      .. "communicating class; pass the sub-matrix of one closed class)")
  end
  local k = P:rows()
  local level = reach(P, { 1 }, false)
  local g = 0
  for i = 1, k do
    for j = 1, k do
      if P:get(i, j) > 0 then g = gcd(g, math.abs(level[i] + 1 - level[j])) end
    end
  end
  return g
end

--- stationary(P [, opts]) -> pi (1 x k), info: the equilibrium pi = pi P.
function M.stationary(P, opts)
  M.check_transition(P, "stationary")
  opts = args.options("luma.markov.stationary", 2, opts, nil,
    { method = true, tol = true, max_iter = true, start = true }, 2)
  local k = P:rows()
  local method = opts.method or "solve"
  if method == "solve" then
    -- pi (P - I) = 0 with sum pi = 1: (P - I)^T pi^T = 0, one equation
    -- replaced by the normalization
    local A = (P - luma.eye(k)):t():copy()
    A:row(k):fill(1)
    local b = luma.zeros(k, 1)
    b:set(k, 1, 1)
    local ok, pi = pcall(luma.linalg.solve, A, b)
    if not ok or not pi:isfinite():all() then
      fail("stationary: the equilibrium is not unique (the chain is reducible: several closed "
        .. "classes)")
    end
    pi = pi:t():copy()
    pi = pi:clamp(0, math.huge)
    return pi / pi:sum(), { method = "solve" }
  elseif method ~= "power" then
    fail("bad argument to 'stationary' (method must be \"solve\" or \"power\", got %s)",
      tostring(method))
  end
  local tol, max_iter = opts.tol or 1e-12, opts.max_iter or 10000
  local p = opts.start and M.check_distribution(opts.start, k, "stationary", "start")
    or luma.full(1, k, 1 / k)
  local err = math.huge
  for it = 1, max_iter do
    local q = p * P
    err = (q - p):abs():sum()
    p = q
    if err < tol then return p, { method = "power", n_iter = it, converged = true, err = err } end
  end
  fail("stationary: the power method did not converge in %d iterations (change %.3g; a "
    .. "periodic chain oscillates: use method = \"solve\")", max_iter, err)
end

--- hitting_times(P, targets) -> k x 1 expected steps to reach targets.
function M.hitting_times(P, targets)
  M.check_transition(P, "hitting_times")
  local k = P:rows()
  if type(targets) == "number" then targets = { targets } end
  if type(targets) ~= "table" or #targets == 0 then
    fail("bad argument to 'hitting_times' (targets must be a state or a table of states)")
  end
  local is_target = {}
  for _, s in ipairs(targets) do
    if math.type(s) ~= "integer" or s < 1 or s > k then
      fail("bad argument to 'hitting_times' (target %s is not a state 1..%d)", tostring(s), k)
    end
    is_target[s] = true
  end
  -- states that can reach the targets; the others never hit them
  local can = reach(P, targets, true)
  local rest = {}
  for i = 1, k do
    if not is_target[i] and can[i] then rest[#rest + 1] = i end
  end
  local h = luma.full(k, 1, math.huge)
  for s in pairs(is_target) do h:set(s, 1, 0) end
  if #rest > 0 then
    -- (I - P_BB) h_B = 1 over the non-target states B that reach A
    -- (Norris 1997, thm. 1.3.5)
    local sub = P:take(rest):take(rest, 2)
    local x = luma.linalg.solve(luma.eye(#rest) - sub, luma.ones(#rest, 1))
    for a, i in ipairs(rest) do h:set(i, 1, x:get(a, 1)) end
  end
  return h
end

--- M.draw(cum, u): the first index whose cumulative probability exceeds u.
local function draw(cum, u)
  local lo, hi = 1, #cum
  while lo < hi do
    local mid = (lo + hi) // 2
    if cum[mid] > u then hi = mid else lo = mid + 1 end
  end
  return lo
end

local function cumulative(row)
  local cum, s = {}, 0
  for j = 1, row:cols() do
    s = s + row:get(1, j)
    cum[j] = s
  end
  cum[#cum] = math.max(cum[#cum], 1) -- rounding: the last state catches u near 1
  return cum
end

--- M.simulate(P, p0, n, rng) -> n x 1 path (no checks): X_1 ~ p0, then
-- X_{t+1} ~ P[X_t] by inversion of the cumulative rows.
function M.simulate(P, p0, n, rng)
  local k = P:rows()
  local rows = {}
  for i = 1, k do rows[i] = cumulative(P:row(i)) end
  local u = rng:uniform(n, 1)
  local path = luma.zeros(n, 1)
  local s = draw(cumulative(p0), u:get(1, 1))
  path:set(1, 1, s)
  for t = 2, n do
    s = draw(rows[s], u:get(t, 1))
    path:set(t, 1, s)
  end
  return path
end

--- M.draw_rows(Q, rows, rng) -> n x 1 (no checks): draw t from row
-- rows[t] of the row-stochastic Q (categorical emissions, mixture
-- components).
function M.draw_rows(Q, rows, rng)
  local cum = {}
  for i = 1, Q:rows() do cum[i] = cumulative(Q:row(i)) end
  local n = rows:rows()
  local u = rng:uniform(n, 1)
  local out = luma.zeros(n, 1)
  for t = 1, n do out:set(t, 1, draw(cum[math.tointeger(rows:get(t, 1))], u:get(t, 1))) end
  return out
end

local function rng_of(opts)
  return require("luma.estimator").rng(opts.seed)
end

--- sample_path(P, n [, opts]) -> n x 1 states.
function M.sample_path(P, n, opts)
  M.check_transition(P, "sample_path")
  opts = args.options("luma.markov.sample_path", 3, opts, nil,
    { start = true, startprob = true, seed = true }, 2)
  if math.type(n) ~= "integer" or n < 1 or n > M.MAX_STEPS then
    fail("bad argument to 'sample_path' (n must be an integer in [1, %d], got %s)", M.MAX_STEPS,
      tostring(n))
  end
  local k = P:rows()
  local p0
  if opts.start then
    if math.type(opts.start) ~= "integer" or opts.start < 1 or opts.start > k then
      fail("bad argument to 'sample_path' (start must be a state 1..%d)", k)
    end
    p0 = luma.zeros(1, k)
    p0:set(1, opts.start, 1)
  else
    p0 = opts.startprob and M.check_distribution(opts.startprob, k, "sample_path", "startprob")
      or luma.full(1, k, 1 / k)
  end
  return M.simulate(P, p0, n, rng_of(opts))
end

--- random_walk_matrix(A) -> P: the simple random walk on a graph with
-- (weighted) adjacency A: P[i][j] = A[i][j] / sum_j A[i][j] (notes 002 Q1).
function M.random_walk_matrix(A)
  if not luma.ismatrix(A) or A:rows() ~= A:cols() then
    fail("bad argument to 'random_walk_matrix' (A must be a square adjacency matrix)")
  end
  if not A:isfinite():all() or A:min() < 0 then
    fail("bad argument to 'random_walk_matrix' (A must have finite non-negative weights)")
  end
  local deg = A:sum(2)
  for i = 1, A:rows() do
    if deg:get(i, 1) == 0 then
      fail("bad argument to 'random_walk_matrix' (node %d has no edges: the walk cannot leave "
        .. "it; add a self-loop or remove the node)", i)
    end
  end
  return A:div(deg)
end

--- random_walk(A, n [, opts]) -> n x 1 nodes: a walk of n nodes on the
-- graph, from a uniform node unless opts.start (notes 002 Q1).
function M.random_walk(A, n, opts)
  opts = args.options("random_walk", 3, opts, nil, { start = true, seed = true }, 2)
  local P = M.random_walk_matrix(A)
  local k = P:rows()
  if opts.start ~= nil and (math.type(opts.start) ~= "integer" or opts.start < 1
      or opts.start > k) then
    fail("bad argument to 'random_walk' (start must be a node 1..%d)", k)
  end
  if math.type(n) ~= "integer" or n < 1 or n > M.MAX_STEPS then
    fail("bad argument to 'random_walk' (n must be an integer in [1, %d], got %s)", M.MAX_STEPS,
      tostring(n))
  end
  return M.sample_path(P, n, { start = opts.start, seed = opts.seed })
end

local SEED_PARAM = { name = "seed", type = "integer|Generator", default = "nil",
  doc = "generator (or seed) of the draws; nil: the default generator" }

luma.doc.set(M.n_step, { name = "luma.markov.n_step", signature = "n_step(P, n) -> matrix",
  doc = "The n-step transition matrix P^n of a row-stochastic P, by repeated squaring "
    .. "(Norris, Markov Chains, 1997, thm. 1.1.3). Returns a k x k matrix." })
luma.doc.set(M.propagate, { name = "luma.markov.propagate",
  signature = "propagate(p0, P [, n = 1]) -> matrix",
  doc = "The distribution after n steps from p0, p0 P^n, with distributions as row vectors "
    .. "and P row-stochastic (P[i][j] = Pr(i -> j)). Returns a 1 x k matrix." })
luma.doc.set(M.is_irreducible, { name = "luma.markov.is_irreducible",
  signature = "is_irreducible(P) -> boolean",
  doc = "Whether every state reaches every other through positive transitions (one "
    .. "communicating class). Returns a boolean." })
luma.doc.set(M.period, { name = "luma.markov.period", signature = "period(P) -> integer",
  doc = "The period of an irreducible chain: the gcd of its cycle lengths (1 means "
    .. "aperiodic), from breadth-first levels. Returns an integer; a reducible P is an error." })
luma.doc.set(M.stationary, { name = "luma.markov.stationary",
  signature = "stationary(P [, opts]) -> pi, info",
  doc = "The equilibrium distribution pi = pi P of a row-stochastic P (Norris 1997, sec. 1.7): "
    .. "by solving the linear system (P - I)^T pi = 0 with sum(pi) = 1, or by the power method "
    .. "p <- p P until the L1 change is below tol. Returns pi (1 x k) and a table "
    .. "(method, and n_iter, converged, err for the power method).",
  params = {
    { name = "method", type = "string", default = "solve", doc = "\"solve\" or \"power\"" },
    { name = "tol", type = "number", default = 1e-12, doc = "power method: L1 change to stop at" },
    { name = "max_iter", type = "integer", default = 10000, doc = "power method: iteration limit" },
    { name = "start", type = "matrix", default = "uniform", doc = "power method: starting distribution (warm start)" },
  } })
luma.doc.set(M.hitting_times, { name = "luma.markov.hitting_times",
  signature = "hitting_times(P, targets) -> matrix",
  doc = "Expected numbers of steps to reach a set of states from each state, solving "
    .. "h = 1 + P h off the targets and h = 0 on them (Norris 1997, thm. 1.3.5); states that "
    .. "cannot reach the targets get inf. targets: a state or a table of states. Returns a "
    .. "k x 1 matrix." })
luma.doc.set(M.sample_path, { name = "luma.markov.sample_path",
  signature = "sample_path(P, n [, opts]) -> matrix",
  doc = "Draws a path of n states of the chain P: the first from opts.start (a state) or "
    .. "opts.startprob (default uniform), then each from the row of the previous one. "
    .. "Returns an n x 1 matrix of states 1..k.",
  params = {
    { name = "start", type = "integer", default = "nil", doc = "the first state" },
    { name = "startprob", type = "matrix", default = "uniform", doc = "distribution of the first state" },
    SEED_PARAM,
  } })
luma.doc.set(M.random_walk_matrix, { name = "luma.markov.random_walk_matrix",
  signature = "random_walk_matrix(A) -> matrix",
  doc = "The transition matrix of the random walk on a graph with non-negative (weighted) "
    .. "adjacency A: each row divided by the node's degree (Lovasz, Random walks on graphs, "
    .. "1993). A node without edges is an error. Returns a k x k row-stochastic matrix." })
luma.doc.set(M.random_walk, { name = "luma.markov.random_walk",
  signature = "random_walk(A, n [, opts]) -> matrix",
  doc = "Draws a random walk of n nodes on the graph with adjacency A: a uniform first node "
    .. "(or opts.start), then a neighbour chosen with probability proportional to the edge "
    .. "weight. Returns an n x 1 matrix of nodes.",
  params = {
    { name = "start", type = "integer", default = "nil", doc = "the first node (default: uniform)" },
    SEED_PARAM,
  } })

return M
