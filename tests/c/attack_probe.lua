-- The reproductions of the adversarial probe (issue 28), read by
-- tests/c/attack_probe.c (docs/RELIABILITY.md "Adversarial probe").  This
-- file runs in a plain Lua state of the driver and returns the list of
-- cases; each case's `code` then runs in a fresh Luma state of its own, in
-- a forked child process under a watchdog.
--
-- Fields of a case:
--   name     unique; ATTACK_ONLY=text runs the cases whose name contains it
--   code     the script (run 1)
--   expect   substrings of the error message, any of which passes
--   mode     "limits" (default): sandboxed, 256 MB, 10^7 instructions, 2 s;
--            "time": the same without the instruction limit (2 s of wall
--            time is what stops it); "interrupt": no instruction or time
--            limit, luma_interrupt from a second thread at 1 s
--   sandbox  false: a state without the sandbox (the fork pool cases: a
--            sandboxed state runs n_jobs > 1 serially and never forks)
--   ok       true: ending without an error (within the limit) also passes
--   then     run 2 in the same state, which must succeed (isolation: the
--            driver seals the state with luma_seal before run 1)
--   not_prefix  the error must not start with this (a library location)
--   rss_mb   the child's peak RSS (VmHWM) must stay under this
-- SPDX-License-Identifier: MIT

local INSTRUCTION = "instruction limit exceeded"
local TIME = "time limit exceeded"
local INTERRUPTED = "interrupted!"
local ARGUMENT = "bad argument"
local MEMORY = "not enough memory"
-- Native work is charged to the instruction budget and polls the clock:
-- whichever limit comes first ends it.
local LIMIT = { INSTRUCTION, TIME }
-- A refusal up front is as good as a stop at the limit.
local BOUNDED = { INSTRUCTION, TIME, ARGUMENT }

-- Random data of the estimator cases: X (n x d) standard normal, y a noisy
-- linear response, c its sign as classes 0/1 (about 15% of them flipped by
-- the noise, so the classes overlap).
local function data(n, d)
  return string.format([[
local g = luma.random.Generator(28)
local X = g:normal(%d, %d)
local w = g:normal(%d, 1)
local y = X * w + g:normal(%d, 1) * 0.5
local c = (X:col(1) + g:normal(%d, 1) * 0.5):gt(0)
]], n, d, d, n, n)
end

-- A pure-Lua estimator whose fit never returns, for the fork pool.
local FOREVER = [[
local Forever = luma.estimator.class{
  name = "attack.Forever", kind = "regressor", doc = "fit loops forever",
  params = {},
  fit = function(self) while true do end end,
  predict = function(self, X) return luma.zeros(X:rows(), 1) end,
}
local g = luma.random.Generator(28)
local X, y = g:normal(40, 2), g:normal(40, 1)
]]

-- Klee-Minty cube in n variables: maximize sum 2^(n-j) x_j subject to
-- 2 sum_{j<i} 2^(i-j) x_j + x_i <= 5^i, x >= 0; Dantzig's rule visits all
-- 2^n vertices.
local KLEE_MINTY = [[
local n = 30
local c, A, b = luma.zeros(n, 1), luma.zeros(n, n), luma.zeros(n, 1)
for j = 1, n do c:set(j, 1, -(2.0 ^ (n - j))) end
for i = 1, n do
  for j = 1, i - 1 do A:set(i, j, 2.0 ^ (i - j + 1)) end
  A:set(i, i, 1)
  b:set(i, 1, 5.0 ^ i)
end
]]

-- A 200,000-point polygon inside a 900 px radius (markers must stay under
-- 2000 px across).
local POLYGON = [[
local poly, k = {}, 200000
for i = 0, k - 1 do
  local a = 2 * math.pi * i / k
  poly[2 * i + 1], poly[2 * i + 2] = 900 * math.cos(a), 900 * math.sin(a)
end
]]

-- The header of a CSV with 1000 k distinct columns (r1_c1, r1_c2, ...),
-- and one row of ones: a thousand names joined k times with a prefix in
-- the separator, so the text is made in C (a Lua loop over a million
-- names would spend most of the instruction budget before parse_csv).
local function wide_csv(k)
  return string.format([[
local cols, blocks = {}, {}
for j = 1, 1000 do cols[j] = "c" .. j end
for i = 1, %d do blocks[i] = "r" .. i .. "_" .. table.concat(cols, ",r" .. i .. "_") end
local text = table.concat(blocks, ",") .. "\n" .. string.rep("1", %d, ",") .. "\n"
cols, blocks = nil, nil
]], k, 1000 * k)
end

-- Run 2 of the isolation cases: the stock behaviour.
local STOCK = [[
assert(("abc"):upper() == "ABC", "string method upper changed: " .. tostring(("abc"):upper()))
assert(string.upper("abc") == "ABC", "string.upper changed")
assert(luma.ones(2, 2):sum() == 4, "Matrix:sum changed")
assert((luma.zeros(1, 1) + 1):get(1, 1) == 1, "matrix arithmetic changed")
]]

local cases = {
  -- 1. a message handler that never returns
  { name = "xpcall-handler-loops",
    code = [[xpcall(function() error("x") end, function() while true do end end)]],
    expect = INSTRUCTION },
  { name = "xpcall-handler-loops-interrupt",
    code = [[xpcall(function() error("x") end, function() while true do end end)]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "xpcall-nested-handler-loops",
    code = [[xpcall(function() xpcall(error, function() while true do end end) end, print)]],
    expect = INSTRUCTION },
  { name = "pcall-swallows-limit",
    code = [[while true do pcall(function() while true do end end) end]],
    expect = INSTRUCTION },
  { name = "pcall-swallows-interrupt",
    code = [[while true do pcall(function() while true do end end) end]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "error-tostring-loops",
    code = [[error(setmetatable({}, {__tostring = function() while true do end end}))]],
    expect = INSTRUCTION },

  -- 2. finalizers that never return
  -- (a sandboxed state refuses __gc: finalizers run with hooks off)
  { name = "gc-finalizer-loops",
    code = [[setmetatable({}, {__gc = function() while true do end end}) collectgarbage()]],
    expect = { INSTRUCTION, ARGUMENT } },
  -- anchored in a global, the object lives until luma_close finalizes it
  { name = "gc-finalizer-loops-at-close",
    code = [[keep = setmetatable({}, {__gc = function() while true do end end})]],
    ok = true, expect = BOUNDED },
  { name = "gc-finalizer-resurrects-forever",
    code = [[
local mt = {}
mt.__gc = function(o) setmetatable({}, mt) end
setmetatable({}, mt)
while true do collectgarbage() end]],
    expect = { INSTRUCTION, TIME, ARGUMENT } },

  -- 3. backtracking patterns and long plain searches
  { name = "pattern-match-backtracks",
    code = [[string.match(string.rep("a", 100000) .. "b", ".-.-.-.-.-.-.-.-x")]],
    expect = BOUNDED },
  { name = "pattern-find-backtracks",
    code = [[string.find(string.rep("a", 100000) .. "b", ".-.-.-.-.-.-.-.-x")]],
    expect = BOUNDED },
  { name = "pattern-gmatch-backtracks",
    code = [[for m in string.gmatch(string.rep("a", 100000) .. "b", ".-.-.-.-.-.-.-.-x") do end]],
    expect = BOUNDED },
  { name = "pattern-gsub-backtracks",
    code = [[string.gsub(string.rep("a", 100000) .. "b", ".-.-.-.-.-.-.-.-x", "")]],
    expect = BOUNDED },
  { name = "pattern-greedy-backtracks",
    code = [[string.find(string.rep("a", 100000), "a*a*a*a*a*a*b")]],
    expect = BOUNDED },
  -- a linear-time search (two-way) returns nil at once: ok
  { name = "plain-find-long-needle",
    code = [[local hay, needle = string.rep("a", 10000000), ("a"):rep(100000) .. "b"
assert(string.find(hay, needle, 1, true) == nil)]],
    ok = true, expect = LIMIT },
  { name = "plain-find-long-needle-interrupt",
    code = [[local hay, needle = string.rep("a", 10000000), ("a"):rep(100000) .. "b"
assert(string.find(hay, needle, 1, true) == nil)]],
    mode = "interrupt", ok = true, expect = INTERRUPTED },

  -- 4. table and string functions with huge counts
  -- moving a range onto itself may be skipped: ok
  { name = "table-move-huge",
    code = [[table.move({}, 1, 1e15, 1)]],
    ok = true, expect = BOUNDED },
  { name = "table-move-huge-shifted",
    code = [[table.move({}, 1, 1e15, 2)]],
    expect = BOUNDED },
  { name = "table-insert-huge-len",
    code = [[table.insert(setmetatable({}, {__len = function() return 1e15 end}), 1, "x")]],
    expect = BOUNDED },
  { name = "table-remove-huge-len",
    code = [[table.remove(setmetatable({}, {__len = function() return 1e15 end}), 1)]],
    expect = BOUNDED },
  { name = "table-concat-huge-range",
    code = [[table.concat(setmetatable({}, {__index = function() return "" end}), "", 1, 1e15)]],
    expect = BOUNDED },
  { name = "table-unpack-huge-range",
    code = [[table.unpack({}, 1, 1e8)]],
    expect = { INSTRUCTION, TIME, ARGUMENT, "too many results" } },
  { name = "string-rep-empty-huge",
    code = [[local s = string.rep("", 1e15) assert(s == "")]],
    ok = true, expect = BOUNDED },
  { name = "string-rep-empty-sep-huge",
    code = [[local s = string.rep("", 1e15, "") assert(s == "")]],
    ok = true, expect = BOUNDED },

  -- 5. coordinate descent that never converges
  { name = "lasso-no-convergence",
    code = data(3000, 300) .. [[
luma.linear.Lasso{alpha = 1e-12, max_iter = (1 << 31) - 1, tol = 1e-300}:fit(X, y)]],
    expect = LIMIT },
  { name = "elasticnet-no-convergence",
    code = data(3000, 300) .. [[
luma.linear.ElasticNet{alpha = 1e-12, max_iter = (1 << 31) - 1, tol = 1e-300}:fit(X, y)]],
    expect = LIMIT },
  { name = "lasso-no-convergence-interrupt",
    code = data(3000, 300) .. [[
luma.linear.Lasso{alpha = 1e-12, max_iter = (1 << 31) - 1, tol = 1e-300}:fit(X, y)]],
    mode = "interrupt", expect = INTERRUPTED },

  -- 6. exponential simplex
  { name = "linprog-klee-minty",
    code = KLEE_MINTY .. [[
luma.optim.linprog(c, {A_ub = A, b_ub = b, max_iter = 1 << 40})]],
    expect = LIMIT },
  { name = "linprog-klee-minty-interrupt",
    code = KLEE_MINTY .. [[
luma.optim.linprog(c, {A_ub = A, b_ub = b, max_iter = 1 << 40})]],
    mode = "interrupt", expect = INTERRUPTED },

  -- 7. dashes far shorter than a pixel
  { name = "plot-stroke-tiny-dash",
    code = [[require("luma.plot.native").canvas(100, 100):stroke({{0, 0, 100, 100}}, "#000000",
  {width = 1, dash = {1e-9, 1e-9}})]],
    ok = true, expect = BOUNDED },
  { name = "plot-stroke-tiny-dash-long-path",
    code = [[require("luma.plot.native").canvas(100, 100):stroke({{-1e6, -1e6, 1e6, 1e6}},
  "#000000", {width = 1, dash = {1e-6, 1e-6}})]],
    ok = true, expect = BOUNDED },

  -- 8. SVMs that never converge
  { name = "linearsvc-dual-no-convergence",
    code = data(300, 5) .. [[
luma.svm.LinearSVC{max_iter = (1 << 31) - 1, tol = 1e-300, C = 1e10}:fit(X, c)]],
    expect = LIMIT },
  { name = "linearsvc-l1-primal-no-convergence",
    code = data(300, 5) .. [[
luma.svm.LinearSVC{penalty = "l1", dual = false, max_iter = (1 << 31) - 1, tol = 1e-300,
  C = 1e10}:fit(X, c)]],
    expect = LIMIT },
  { name = "svc-max-iter-huge",
    code = data(1000, 5) .. [[
luma.svm.SVC{max_iter = 1 << 40, tol = 1e-300}:fit(X, c)]],
    expect = LIMIT },
  { name = "svc-default-max-iter",
    code = data(1000, 5) .. [[
luma.svm.SVC{tol = 1e-300, C = 1e10}:fit(X, c)]],
    expect = LIMIT },
  { name = "linearsvc-dual-interrupt",
    code = data(300, 5) .. [[
luma.svm.LinearSVC{max_iter = (1 << 31) - 1, tol = 1e-300, C = 1e10}:fit(X, c)]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "linearsvc-l1-primal-interrupt",
    code = data(300, 5) .. [[
luma.svm.LinearSVC{penalty = "l1", dual = false, max_iter = (1 << 31) - 1, tol = 1e-300,
  C = 1e10}:fit(X, c)]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "svc-max-iter-huge-interrupt",
    code = data(1000, 5) .. [[
luma.svm.SVC{max_iter = 1 << 40, tol = 1e-300}:fit(X, c)]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "svc-default-max-iter-interrupt",
    code = data(1000, 5) .. [[
luma.svm.SVC{tol = 1e-300, C = 1e10}:fit(X, c)]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "svr-no-convergence",
    code = data(1000, 5) .. [[
luma.svm.SVR{max_iter = 1 << 40, tol = 1e-300, C = 1e10}:fit(X, y)]],
    expect = LIMIT },

  -- 9. huge plot markers
  { name = "plot-markers-huge-disc",
    code = [[local map = {lo = 0, k = 1, p0 = 0}
require("luma.plot.native").canvas(10, 10):markers({1}, {1}, map, map,
  {disc = 1000, edge_width = 999, seg_width = 0})]],
    ok = true, expect = BOUNDED },
  { name = "plot-markers-huge-disc-many-points",
    code = [[local map = {lo = 0, k = 1, p0 = 0}
local x = {} for i = 1, 2000 do x[i] = i % 10 end
require("luma.plot.native").canvas(10, 10):markers(x, x, map, map,
  {disc = 1000, edge_width = 999, seg_width = 0})]],
    ok = true, expect = BOUNDED },
  { name = "plot-markers-200k-polygon",
    code = POLYGON .. [[local map = {lo = 0, k = 1, p0 = 0}
require("luma.plot.native").canvas(10, 10):markers({1}, {1}, map, map, {poly = poly})]],
    ok = true, expect = BOUNDED },

  -- 10. CSV shapes (the parser's own allocations count in peak RSS)
  { name = "csv-40k-header-columns",
    code = wide_csv(40) .. [[luma.io.parse_csv(text)]],
    ok = true, expect = { INSTRUCTION, TIME, ARGUMENT, MEMORY }, rss_mb = 400 },
  { name = "csv-1m-header-columns",
    code = wide_csv(1000) .. [[luma.io.parse_csv(text)]],
    ok = true, expect = { INSTRUCTION, TIME, ARGUMENT, MEMORY }, rss_mb = 400 },
  { name = "csv-40mb-commas-no-header",
    code = [[luma.io.parse_csv(string.rep(",", 40000000), {header = false})]],
    ok = true, expect = { INSTRUCTION, TIME, ARGUMENT, MEMORY }, rss_mb = 400 },
  { name = "csv-30mb-newlines",
    code = [[luma.io.parse_csv(string.rep("\n", 30000000))]],
    ok = true, expect = { INSTRUCTION, TIME, ARGUMENT, MEMORY, "the text is empty" }, rss_mb = 400 },
  { name = "csv-30mb-newlines-no-header",
    code = [[luma.io.parse_csv(string.rep("\n", 30000000), {header = false})]],
    ok = true, expect = { INSTRUCTION, TIME, ARGUMENT, MEMORY, "the text is empty" },
    rss_mb = 400 },

  -- 11. a coroutine that never yields
  { name = "coroutine-wrap-loops-interrupt",
    code = [[coroutine.wrap(function() while true do end end)()]],
    mode = "interrupt", expect = INTERRUPTED },
  { name = "coroutine-wrap-loops-time",
    code = [[coroutine.wrap(function() while true do end end)()]],
    mode = "time", expect = TIME },
  { name = "coroutine-wrap-loops",
    code = [[coroutine.wrap(function() while true do end end)()]],
    expect = INSTRUCTION },
  { name = "coroutine-resume-nested-interrupt",
    code = [[coroutine.resume(coroutine.create(function()
  coroutine.wrap(function() while true do end end)() end))]],
    mode = "interrupt", expect = INTERRUPTED },

  -- 12. forked workers whose fit never returns
  { name = "pool-cross-validate-time",
    code = FOREVER .. [[
luma.model_selection.cross_validate(Forever{}, X, y, {cv = 2, n_jobs = 2})]],
    sandbox = false, mode = "time", expect = TIME },
  { name = "pool-cross-validate-interrupt",
    code = FOREVER .. [[
luma.model_selection.cross_validate(Forever{}, X, y, {cv = 2, n_jobs = 2})]],
    sandbox = false, mode = "interrupt", expect = INTERRUPTED },
  { name = "pool-cross-validate-limits",
    code = FOREVER .. [[
luma.model_selection.cross_validate(Forever{}, X, y, {cv = 2, n_jobs = 2})]],
    sandbox = false, expect = LIMIT },
  { name = "pool-parallel-map-time",
    code = [[luma.parallel.map(function() while true do end end, {1, 2, 3}, {n_jobs = 2})]],
    sandbox = false, mode = "time", expect = TIME },
  -- sandboxed, n_jobs = 2 runs serially: the limit must still stop it
  { name = "sandboxed-cross-validate-serial-time",
    code = FOREVER .. [[
luma.model_selection.cross_validate(Forever{}, X, y, {cv = 2, n_jobs = 2})]],
    mode = "time", expect = TIME },

  -- 13. isolation between runs of one sandboxed state that the host sealed
  -- (luma_seal): run 2 must see the stock behaviour
  { name = "isolation-string-metatable-index",
    code = [[getmetatable("").__index.upper = function() return "pwned" end]],
    ok = true, expect = "", ["then"] = STOCK },
  { name = "isolation-string-metatable-replace",
    code = [[getmetatable("").__index = {upper = function() return "pwned" end}]],
    ok = true, expect = "", ["then"] = STOCK },
  { name = "isolation-string-library",
    code = [[string.upper = function() return "pwned" end]],
    ok = true, expect = "", ["then"] = STOCK },
  { name = "isolation-matrix-metatable",
    code = [[getmetatable(luma.zeros(1, 1)).__index =
  function() return function() return -1 end end]],
    ok = true, expect = "", ["then"] = STOCK },
  { name = "isolation-matrix-operator",
    code = [[getmetatable(luma.zeros(1, 1)).__add = function() return "pwned" end]],
    ok = true, expect = "", ["then"] = STOCK },
  { name = "isolation-luma-table",
    code = [[luma.ones = function() return luma.zeros(2, 2) end]],
    ok = true, expect = "", ["then"] = STOCK },
  { name = "isolation-global",
    code = [[string = {upper = function() return "pwned" end}]],
    ok = true, expect = "", ["then"] = STOCK },

  -- 15. errors raised inside the library must name the caller's line
  { name = "markov-random-walk-bad-opts",
    code = [[luma.markov.random_walk(luma.matrix{{0.5, 0.5}, {0.5, 0.5}}, 1, math.huge)]],
    expect = ARGUMENT, not_prefix = "lua/luma/" },
  { name = "markov-random-walk-huge-n",
    code = [[luma.markov.random_walk(luma.matrix{{0.5, 0.5}, {0.5, 0.5}}, math.huge)]],
    expect = ARGUMENT, not_prefix = "lua/luma/" },
  { name = "tsa-arma-generate-huge-n",
    code = [[luma.tsa.arma_generate({1, -0.5}, {1}, 1 << 40)]],
    expect = { ARGUMENT, "n must be an integer in" }, not_prefix = "lua/luma/" },
  { name = "tsa-arma-generate-huge-burnin",
    code = [[luma.tsa.arma_generate({0.5}, {}, 10, {burnin = 1 << 40})]],
    expect = { ARGUMENT, "burnin must be an integer in" }, not_prefix = "lua/luma/" },

  -- 16. instructions that each scan or copy a whole long string, in a
  -- loop: the count hook (every 1000 instructions) saw the clock after
  -- a minute.  New long strings are charged as they are made, the
  -- scanning functions by their time, and at the deadline a watchdog
  -- thread hooks the running thread (the main one or a coroutine).
  { name = "long-string-utf8-len-loop", mode = "time", expect = TIME,
    code = [[local s = string.rep("a", 100 << 20) while true do utf8.len(s) end]] },
  { name = "long-string-upper-loop", expect = LIMIT,
    code = [[local s = string.rep("a", 64 << 20) while true do local t = s:upper() end]] },
  { name = "long-string-concat-loop", mode = "time", expect = TIME,
    code = [[local s = string.rep("a", 64 << 20) while true do local t = s .. "x" end]] },
  { name = "long-string-tonumber-loop", expect = LIMIT,
    code = [[local s = string.rep(" ", 64 << 20) while true do tonumber(s) end]] },
  { name = "long-string-arithmetic-loop", expect = LIMIT,
    code = [[local s = string.rep(" ", 64 << 20) .. "1" while true do local x = s + 0 end]] },
  { name = "long-string-compare-loop", mode = "time", expect = TIME,
    code = [[local a = string.rep("a", 60 << 20) local b = a:sub(2) .. "a" while a == b do end]] },
  { name = "long-string-compare-loop-in-coroutine", mode = "time", expect = TIME,
    code = [[coroutine.wrap(function()
  local a = string.rep("a", 60 << 20) local b = a:sub(2) .. "a"
  while not (a < b) do end
end)()]] },
  { name = "sparse-array-next-loop", mode = "time", expect = TIME,
    code = [[local t = {} for i = 1, 1 << 22 do t[i] = i end
for i = 1, (1 << 22) - 1 do t[i] = nil end
while true do next(t) end]] },
  -- convolutions and pooling (luma.nn): im2col and dgemm charged a chunk
  -- of samples at a time, the scratch from the state's allocator
  { name = "conv2d-forward-loop", expect = LIMIT,
    code = [[local m = luma.nn.Conv2d(3, 8, 3, {stride = 2, input_size = {64, 64}})
local X = luma.zeros(500, 3 * 64 * 64)
while true do m(X) end]] },
  { name = "conv2d-backward-loop", expect = LIMIT,
    code = [[local m = luma.nn.Conv2d(3, 8, 3, {stride = 2, input_size = {64, 64}})
local x = luma.autograd.Variable(luma.zeros(500, 3 * 64 * 64), {requires_grad = true})
while true do m(x):sum():backward() end]] },
  { name = "conv2d-forward-interrupt", mode = "interrupt", expect = INTERRUPTED,
    code = [[local m = luma.nn.Conv2d(3, 8, 3, {stride = 2, input_size = {64, 64}})
local X = luma.zeros(500, 3 * 64 * 64)
while true do m(X) end]] },
  { name = "conv2d-huge-columns", expect = { MEMORY, INSTRUCTION, TIME },
    code = [[local m = luma.nn.Conv2d(1, 1, 256, {input_size = {512, 512}})
m(luma.zeros(1, 512 * 512))]] },
  { name = "maxpool2d-loop", expect = LIMIT,
    code = [[local p = luma.nn.MaxPool2d(3, {stride = 1, input_size = {3, 64, 64}})
local X = luma.zeros(500, 3 * 64 * 64)
while true do p(X) end]] },
  -- a run whose last statement is a tail call to a function that caught
  -- the stop still reports it
  { name = "stop-caught-by-tail-pcall", expect = LIMIT,
    code = [[return pcall(function() while true do end end)]] },
  { name = "stop-caught-by-tail-resume", expect = LIMIT,
    code = [[return coroutine.resume(coroutine.create(function() while true do end end))]] },
}

return cases
