-- Sandboxed states replace the standard functions that loop in C for as
-- long as a script asks (src/vm/safelib.c; docs/RELIABILITY.md, "Standard
-- functions replaced in sandboxed states"): string.find, match, gmatch,
-- gsub and rep, table.insert, remove, move, concat and sort, and load and
-- collectgarbage charge their work to the state's budget.
--
-- A small host runs the same cases (tests/vm/safelib_cases.lua) in a
-- plain state, where the functions are stock Lua's, and in a sandboxed
-- one: every result and error message must be the same.  Then each way a
-- script could hang its host inside those functions must end at the
-- instruction limit, the time limit and luma_interrupt, and the state must
-- run the next script.
-- SPDX-License-Identifier: MIT
local support = require("support")

local HOST = [[
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "luma.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  size_t got = fread(text, 1, (size_t)n, f);
  text[got] = '\0';
  fclose(f);
  return text;
}

typedef struct Later { lua_State *L; int ms; } Later;

static void *interrupt_later(void *arg) {
  Later *later = arg;
  struct timespec ts = {later->ms / 1000, (long)(later->ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  luma_interrupt(later->L);
  return NULL;
}

/* host run SANDBOX FILE: prints the string FILE's chunk returns.
 * host limit INSTRUCTIONS SECONDS INTERRUPT_MS CODE: runs CODE in a
 * sandboxed state with a 256 MB memory limit, prints the wall time and
 * "finished RESULT" or the error, then what `return 1 + 1` gives. */
int main(int argc, char **argv) {
  luma_Options opts = {0};
  if (argc == 4 && strcmp(argv[1], "run") == 0) {
    opts.sandbox = atoi(argv[2]);
    lua_State *L = luma_newstate(&opts);
    char *code = slurp(argv[3]);
    int rc = luma_run_string(L, code, "=cases", 1);
    size_t len;
    const char *out = lua_tolstring(L, -1, &len);
    if (rc != LUA_OK) printf("ERROR %s\n", out);
    else fwrite(out, 1, len, stdout);
    free(code);
    luma_close(L);
    return rc != LUA_OK;
  }
  if (argc == 6 && strcmp(argv[1], "limit") == 0) {
    opts.sandbox = 1;
    opts.memory_limit = (size_t)256 << 20;
    opts.instruction_limit = strtoull(argv[2], NULL, 10);
    opts.time_limit = atof(argv[3]);
    lua_State *L = luma_newstate(&opts);
    Later later = {L, atoi(argv[4])};
    pthread_t thread;
    if (later.ms > 0) pthread_create(&thread, NULL, interrupt_later, &later);
    double start = now();
    int rc = luma_run_string(L, argv[5], "=limited", 1);
    double took = now() - start;
    if (later.ms > 0) pthread_join(thread, NULL);
    const char *msg = lua_tostring(L, -1);
    printf("%.3f %s%s\n", took, rc == LUA_OK ? "finished " : "", msg ? msg : "nil");
    lua_settop(L, 0);
    rc = luma_run_string(L, "return tostring(1 + 1)", "=after", 1);
    printf("then %s\n", rc == LUA_OK ? lua_tostring(L, -1) : "failed");
    luma_close(L);
    return 0;
  }
  return 2;
}
]]

local function lines_of(text)
  local out = {}
  for line in text:gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

-- Each runs for hours or more with stock Lua, in a few VM instructions:
-- the loop is in C.  `where` is the function the traceback must start in.
local HANGS = {
  { name = "string.match backtracking", where = "function 'string.match'",
    code = [[return string.match(string.rep("a", 1e5) .. "b", ".-.-.-.-.-.-.-.-x")]] },
  { name = "string.find backtracking with captures", where = "function 'string.find'",
    code = [[return string.find(string.rep("a", 1e5), "(.-)(.-)(.-)(.-)b")]] },
  { name = "string.gmatch backtracking", where = "for iterator",
    code = [[for _ in string.rep("a", 1e5):gmatch(".-.-.-.-b") do end]] },
  { name = "string.gsub backtracking", where = "function 'string.gsub'",
    code = [[return string.rep(" ", 1e5):gsub("%s*%s*%s*%s*x", "")]] },
  { name = "plain string.find (n x m compares)", where = "function 'string.find'",
    code = [[local big = string.rep("a", 4e6) return big:find(string.rep("a", 1e5) .. "b", 1, true)]] },
  { name = "table.move over 1e15 slots", where = "function 'table.move'",
    code = [[return table.move({}, 1, 1e15, 1)]] },
  { name = "table.insert with __len 1e15", where = "function 'table.insert'",
    code = [[table.insert(setmetatable({}, { __len = function() return 1e15 end }), 1, 1)]] },
  { name = "table.remove with __len 1e15", where = "function 'table.remove'",
    code = [[table.remove(setmetatable({}, { __len = function() return 1e15 end }), 1)]] },
  { name = "table.concat with __len 1e15 and a C __index", where = "function 'table.concat'",
    code = [[return table.concat(setmetatable({}, { __len = function() return 1e15 end,
      __index = rawlen }))]] },
  { name = "table.sort of 2^31 - 2 slots with a C comparator", where = "function 'table.sort'",
    code = [[table.sort(setmetatable({}, { __len = function() return 2^31 - 2 end }), math.type)]] },
  { name = "table.sort of 2^31 - 2 slots with C metamethods", where = "function 'table.sort'",
    code = [[table.sort(setmetatable({}, { __len = function() return 2^31 - 2 end,
      __index = rawlen, __newindex = rawequal }))]] },
  { name = "load with a C function as reader", where = "main chunk",
    code = [[local f, err = load(os.time) return err]] },
  { name = "a loop of full collections of a large heap", where = "function 'collectgarbage'",
    code = [[local t = {} for i = 1, 1e6 do t[i] = {} end while true do collectgarbage() end]] },
}

describe("standard functions replaced in sandboxed states", function()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. support.quote(dir)))
  local host = assert(support.compile_host(HOST, dir))
  -- a regression that hangs again fails the test after a minute
  local function limited(instructions, seconds, interrupt_ms, code)
    local out = support.run(string.format("timeout 60 %s limit %d %g %d %s", support.quote(host),
      instructions, seconds, interrupt_ms, support.quote(code)))
    local took, rest = out:match("^(%S+) (.*)$")
    return tonumber(took), rest or out
  end

  it("give the stock results and error messages on each case", function()
    local cases = "tests/vm/safelib_cases.lua"
    local run = "timeout 120 " .. support.quote(host) .. " run %d " .. cases
    local stock = lines_of(support.run(run:format(0)))
    local safe = lines_of(support.run(run:format(1)))
    assert.is_true(#stock > 40000, "the cases did not all run: " .. tostring(stock[#stock]))
    assert.equal(#stock, #safe)
    local differ = {}
    for i = 1, #stock do
      if stock[i] ~= safe[i] and #differ < 10 then
        differ[#differ + 1] = "stock:     " .. stock[i] .. "\nsandboxed: " .. safe[i]
      end
    end
    assert.equal("", table.concat(differ, "\n"))
  end)

  for _, hang in ipairs(HANGS) do
    it(hang.name .. " ends at the instruction limit", function()
      -- the 2 s time limit is the safety net: the budget must end it first
      local took, out = limited(10000000, 2, 0, hang.code)
      assert.truthy(out:find("instruction limit exceeded (10000000 instructions)", 1, true), out)
      assert.truthy(out:find("in " .. hang.where, 1, true), out)
      assert.truthy(took < 4, out)
      assert.truthy(out:find("\nthen 2\n", 1, true), out)
    end)
  end

  for _, k in ipairs({ 1, 5, 6, 10, 12, 13 }) do
    local hang = HANGS[k]
    it(hang.name .. " ends at the time limit", function()
      local took, out = limited(0, 1, 0, hang.code)
      assert.truthy(out:find("time limit exceeded (1.0 s)", 1, true), out)
      assert.truthy(took < 2, out)
      assert.truthy(out:find("\nthen 2\n", 1, true), out)
    end)
  end

  for _, k in ipairs({ 1, 5, 6, 10, 12, 13 }) do
    local hang = HANGS[k]
    it(hang.name .. " ends at luma_interrupt", function()
      local took, out = limited(0, 0, 500, hang.code)
      assert.truthy(out:find("interrupted!", 1, true), out)
      assert.is_nil(out:find("^finished"), out)
      assert.truthy(took < 1, out)
      assert.truthy(out:find("\nthen 2\n", 1, true), out)
    end)
  end

  it("table.sort stays O(n log n) on the input that makes quicksort quadratic", function()
    -- the adversary of tests/vm/safelib_cases.lua against 20,000 elements:
    -- about 1.05e6 comparisons; without the heapsort fallback, 1.0e8
    local script = support.write_temp([[
      local n = 20000
      local val, gas, solid, candidate, ptr = {}, n, 0, nil, {}
      for i = 1, n do val[i], ptr[i] = gas, i end
      table.sort(ptr, function(x, y)
        if val[x] == gas and val[y] == gas then
          if x == candidate then val[x] = solid else val[y] = solid end
          solid = solid + 1
        end
        if val[x] == gas then candidate = x elseif val[y] == gas then candidate = y end
        return val[x] < val[y]
      end)
      for i = 1, n do
        if val[i] == gas then val[i], solid = solid, solid + 1 end
      end
      local count = 0
      table.sort(val, function(x, y) count = count + 1 return x < y end)
      for i = 1, n do assert(val[i] == i - 1) end
      return tostring(count)
    ]], ".lua")
    local out = support.run("timeout 120 " .. support.quote(host) .. " run 1 " .. script)
    os.remove(script)
    local count = tonumber(out)
    assert.is_not_nil(count, out)
    assert.is_true(count < 10 * 20000 * math.log(20000, 2), out) -- 2.9e6
  end)

  it("string.rep of empty strings returns at once", function()
    -- stock Lua loops 10^15 times copying nothing
    local took, out = limited(10000000, 2, 0,
      [[return #string.rep("", 1e15) + #string.rep("", 1e15, "") + #("x"):rep(3, "")]])
    assert.equal("finished 3\nthen 2\n", out)
    assert.truthy(took < 1, out)
  end)
end)
