-- Issue 28: native loops whose trip count comes from the input or an
-- option (a solver's max_iter, a dash's length, a marker's size, a CSV's
-- columns) go through the state's meter.  Each reproduction below ran for
-- tens of seconds (or allocated hundreds of MB outside the state) in a
-- sandboxed state with a 256 MB memory limit whatever its other limits;
-- now it ends with the limit's error within twice the limit, and the state
-- runs the next chunk as usual.
-- SPDX-License-Identifier: MIT
local support = require("support")

local HOST = [[
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "luma.h"

static lua_State *state;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double peak_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

static void *interrupt_later(void *arg) {
  (void)arg;
  struct timespec ts = {0, 500000000};
  nanosleep(&ts, NULL);
  luma_interrupt(state);
  return NULL;
}

/* host MODE SETUP CODE: a sandboxed state with a 256 MB memory limit and
 * MODE's limit (instructions: 10^7; time: 2 s; interrupt: luma_interrupt
 * from another thread after 0.5 s; memory: no other) runs SETUP, then CODE,
 * and prints the seconds CODE took, the first line of its error (or
 * "finished"), the state's memory in MB, how far the process' peak
 * resident memory rose during CODE in MB, and what the next run returns. */
int main(int argc, char **argv) {
  if (argc != 4) return 2;
  const char *mode = argv[1];
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.memory_limit = (size_t)256 << 20;
  if (strcmp(mode, "instructions") == 0) opts.instruction_limit = 10000000;
  if (strcmp(mode, "time") == 0) opts.time_limit = 2;
  state = luma_newstate(&opts);
  if (luma_run_string(state, argv[2], "=setup", 0) != LUA_OK) {
    printf("setup failed: %s\n", lua_tostring(state, -1));
    return 1;
  }
  pthread_t thread;
  int interrupting = strcmp(mode, "interrupt") == 0;
  double peak = peak_mb(), start = now();
  if (interrupting) pthread_create(&thread, NULL, interrupt_later, NULL);
  int rc = luma_run_string(state, argv[3], "=repro", 0);
  double took = now() - start;
  if (interrupting) pthread_join(thread, NULL);
  const char *msg = rc == LUA_OK ? "finished" : lua_tostring(state, -1);
  printf("%.3f\n%.*s\n%.1f\n%.1f\n", took, (int)strcspn(msg, "\n"), msg,
         (double)luma_memory_used(state) / 1048576.0, peak_mb() - peak);
  lua_settop(state, 0);
  rc = luma_run_string(state, "return tostring(1 + 1)", "=next", 1);
  puts(rc == LUA_OK ? lua_tostring(state, -1) : "the next run failed");
  luma_close(state);
  return 0;
}
]]

local SANITIZED = os.getenv("LUMA_SANITIZED") == "1"

local LIMIT_ERRORS = {
  instructions = "instruction limit exceeded (10000000 instructions)",
  time = "time limit exceeded (2.0 s)",
  interrupt = "interrupted!",
}

local LINEAR = [[
  local G = luma.random.Generator(1)
  X, y = G:normal(3000, 300), G:normal(3000, 1)]]
local KLEE_MINTY = [[
  local n, c, A, b = 30, {}, {}, {}
  for j = 1, n do c[j] = -(2 ^ (n - j)) end
  for i = 1, n do
    A[i], b[i] = {}, 5 ^ i
    for j = 1, n do A[i][j] = j < i and 2 ^ (i - j + 1) or (j == i and 1 or 0) end
  end
  C, A_ub, b_ub = luma.matrix(c), luma.matrix(A), luma.matrix(b)]]
local SVM = [[
  local G = luma.random.Generator(1)
  X = G:normal(300, 5)
  y = (X:col(1) + G:normal(300, 1) * 0.5):sign()
  X2 = G:normal(1000, 5)
  y2 = (X2:col(1) + G:normal(1000, 1) * 0.5):sign()]]
local PLOT = [[
  N = require("luma.plot.native")
  map = { lo = 0, k = 1, p0 = 0 }
  poly = {}
  for i = 0, 199999 do
    local a = 2 * math.pi * i / 200000
    poly[2 * i + 1], poly[2 * i + 2] = 400 * math.cos(a), 400 * math.sin(a)
  end]]
-- a header of n distinct names "1.0", "2.0", ... and one row of numbers
-- (the names are c<i>_s<j> for i, j up to sqrt(n), built by joining
-- strings: formatting a million numbers took longer than the 2 s limit
-- on a loaded machine)
local function header(n)
  local side = math.tointeger(math.sqrt(n))
  return string.format([[
  local suffixes, parts = {}, {}
  for j = 1, %d do suffixes[j] = "s" .. j end
  for i = 1, %d do
    local prefix = "c" .. i .. "_"
    parts[i] = prefix .. table.concat(suffixes, "," .. prefix)
  end
  TEXT = table.concat(parts, ",") .. "\n" .. string.rep("1,", %d) .. "1\n"]], side, side, n - 1)
end

-- Each reproduction, and the modes that stop it: every limit applies to
-- the solvers, which would run for minutes; the memory mode checks what
-- the state counts against what the process holds.
local ALL = { instructions = true, time = true, interrupt = true }
local REPROS = {
  { name = "Lasso coordinate descent", setup = LINEAR, modes = ALL,
    code = "luma.linear.Lasso{alpha = 1e-12, max_iter = (1 << 31) - 1, tol = 1e-300}:fit(X, y)" },
  { name = "ElasticNet on X^T and the residual", setup = LINEAR, modes = ALL,
    code = "luma.linear.ElasticNet{alpha = 1e-12, max_iter = (1 << 31) - 1, tol = 1e-300, "
      .. "precompute = false}:fit(X, y)" },
  { name = "linprog on a Klee-Minty cube", setup = KLEE_MINTY, modes = ALL,
    code = "luma.optim.linprog(C, {A_ub = A_ub, b_ub = b_ub, max_iter = 1 << 40})" },
  { name = "a stroke dashed by 1e-9 px", setup = PLOT, modes = ALL,
    code = [[N.canvas(100, 100):stroke({{0, 0, 100, 100}}, "#000000",
      {width = 1, dash = {1e-9, 1e-9}})]] },
  { name = "LinearSVC's dual", setup = SVM, modes = ALL,
    code = "luma.svm.LinearSVC{max_iter = (1 << 31) - 1, tol = 1e-300, C = 1e10}:fit(X, y)" },
  { name = "LinearSVC's l1 primal", setup = SVM, modes = ALL,
    code = "luma.svm.LinearSVC{penalty = 'l1', dual = false, max_iter = (1 << 31) - 1, "
      .. "tol = 1e-300, C = 1e10}:fit(X, y)" },
  { name = "SVC with max_iter = 2^40", setup = SVM, modes = ALL,
    code = "luma.svm.SVC{max_iter = 1 << 40, tol = 1e-300}:fit(X, y)" },
  -- its kernel rows are all cached after the first iterations: the
  -- iterations themselves must meet the clock
  { name = "SVC with its default max_iter on 1000 x 5", setup = SVM, modes = ALL,
    code = "luma.svm.SVC{tol = 1e-300, C = 1e10}:fit(X2, y2)" },
  { name = "MLPClassifier with max_iter = 2^31 - 1", setup = SVM, modes = ALL,
    code = "luma.nn.MLPClassifier{hidden_layer_sizes = {64}, max_iter = (1 << 31) - 1, tol = 0, "
      .. "n_iter_no_change = 1 << 30}:fit(X2, y2)" },
  { name = "a 2000 px marker on a 10 x 10 canvas", setup = PLOT,
    modes = { instructions = true, memory = true },
    code = "N.canvas(10, 10):markers({1}, {1}, map, map, {disc = 1000, edge_width = 999, "
      .. "seg_width = 0})" },
  { name = "a marker of 200,000 vertices", setup = PLOT,
    modes = { instructions = true, memory = true },
    code = "N.canvas(10, 10):markers({1}, {1}, map, map, {poly = poly, edge_width = 3})" },
  -- (40 million empty fields need 320 MB: when the scan is quick enough,
  -- the state's memory refusal ends it first, as good an end)
  { name = "40 MB of commas without a header", setup = [[TEXT = string.rep(",", 40000000)]],
    modes = { instructions = true, time = true }, or_else = "not enough memory",
    code = "luma.io.parse_csv(TEXT, {header = false})" },
  -- found by scripts/audit-loops: the pruning path searches the whole tree
  -- for each of its ~n/2 steps (6.7 s for this tree of 60,000 nodes)
  { name = "the pruning path of a 60,000-node tree", modes = { time = true, interrupt = true },
    setup = [[
  local G = luma.random.Generator(1)
  local X, y = G:normal(30000, 3), G:normal(30000, 1)
  M = luma.tree.DecisionTreeRegressor{}:fit(X, y)]],
    code = "require('luma.tree.native').prune_path(M.tree)" },
  -- the million columns' bookkeeping may also exceed the 256 MB: a memory
  -- error, the state's own refusal, is as good an end
  -- (its setup, under the same 2 s limit, may take longer than that under
  -- the sanitizers on a busy machine)
  { name = "a header of a million columns", setup = header(1000000), not_sanitized = true,
    modes = { time = true, interrupt = true }, or_else = "not enough memory",
    code = "luma.io.parse_csv(TEXT)" },
}

describe("native loops under a sandboxed state's limits (issue 28)", function()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. support.quote(dir)))
  local host = assert(support.compile_host(HOST, dir))

  -- took (s), message, state MB, peak RSS growth MB, the next run's result;
  -- a regression is killed after 30 s (these ran for minutes)
  local function run(mode, setup, code)
    local out = support.run("timeout 30 " .. support.quote(host) .. " " .. mode .. " "
      .. support.quote(setup) .. " " .. support.quote(code))
    local took, message, state, rss, next_run =
      out:match("^(%S+)\n([^\n]*)\n(%S+)\n(%S+)\n([^\n]*)\n$")
    assert(took, "the host printed: " .. out)
    return tonumber(took), message, tonumber(state), tonumber(rss), next_run
  end

  for _, r in ipairs(REPROS) do
    for _, mode in ipairs({ "instructions", "time", "interrupt" }) do
      if r.modes[mode] and not (SANITIZED and r.not_sanitized) then
        it(r.name .. " stops with the " .. mode .. " error in bounded time", function()
          local took, message, _, _, next_run = run(mode, r.setup, r.code)
          assert.truthy(message:find(LIMIT_ERRORS[mode], 1, true)
            or (r.or_else and message:find(r.or_else, 1, true)), message)
          -- twice the 2 s limit (the interrupt comes at 0.5 s)
          assert.is_true(took < (mode == "interrupt" and 2.5 or 4), took .. " s")
          assert.equal("2", next_run)
        end)
      end
    end
    if r.modes.memory then
      it(r.name .. " draws within the state's memory", function()
        local _, message, _, rss, next_run = run("memory", r.setup, r.code)
        assert.equal("finished", message)
        -- the sprites of the one offset used, in the state (16 MB for the
        -- 2000 px disc and its outline); all sixteen were 256 MB of malloc
        -- (the sanitizers' shadow memory makes the resident size meaningless)
        if not SANITIZED then assert.is_true(rss < 128, rss .. " MB") end
        assert.equal("2", next_run)
      end)
    end
  end

  it("reads a header of 40,000 columns at once and still finds a duplicate", function()
    local took, message = run("instructions", header(40000), "assert(#luma.io.parse_csv(TEXT, "
      .. "{as = 'matrix'}):totable()[1] == 40000)")
    assert.equal("finished", message)
    assert.is_true(took < 4, took .. " s")
    local renamed = header(40000) .. [[ TEXT = "a," .. TEXT:gsub("c1_s1", "a", 1)]]
    local _, dup = run("instructions", renamed, "luma.io.parse_csv(TEXT)")
    assert.truthy(dup:find("duplicate column name 'a' (columns 1 and 2)", 1, true), dup)
  end)

  it("ends a dash pattern finer than the path's precision, even without limits", function()
    -- 1.4e11 px from the canvas, a 1e-5 px dash cannot move the phase
    -- (pos + 1e-5 == pos): the loop never ended, limits or not
    local _, message = run("memory", PLOT, [[N.canvas(100, 100):stroke({{-1e11, -1e11, 100, 100}},
      "#000000", {width = 1, dash = {1e-5, 1e-5}})]])
    assert.equal("finished", message)
  end)

  it("sizes a CSV's staging by its records, not its line breaks", function()
    -- 30 million blank lines after the header: the staging matrix had a row
    -- for each (240 MB); now the whole parse holds the text and its copy
    local blank = [[TEXT = "a\n" .. string.rep("\n", 30000000)]]
    local _, message, state, rss, next_run = run("memory", blank,
      "local T = luma.io.parse_csv(TEXT) assert(T:nrows() == 0 and T:ncols() == 1)")
    assert.equal("finished", message)
    assert.is_true(state < 100, state .. " MB")
    if not SANITIZED then assert.is_true(rss < 128, rss .. " MB") end
    assert.equal("2", next_run)
  end)

  teardown(function() os.execute("rm -rf " .. support.quote(dir)) end)
end)
