-- luma.pgm under a host's memory limit: a junction-tree clique or a factor
-- product too big for what is left is refused before anything is
-- allocated, with a message naming its size, and the state goes on.
-- SPDX-License-Identifier: MIT
local support = require("support")

local HOST = [[
#include <stdio.h>
#include <string.h>
#include "luma.h"

/* host CODE: a state with a 64 MB memory limit runs CODE and prints the
 * first line of its error (or "finished"), the memory in use afterwards
 * (MB) and what the next run returns. */
int main(int argc, char **argv) {
  if (argc != 2) return 2;
  luma_Options opts = {0};
  opts.memory_limit = (size_t)64 << 20;
  lua_State *L = luma_newstate(&opts);
  int rc = luma_run_string(L, argv[1], "=repro", 0);
  const char *msg = rc == LUA_OK ? "finished" : lua_tostring(L, -1);
  printf("%.*s\n", (int)strcspn(msg, "\n"), msg);
  lua_settop(L, 0);
  printf("%d\n", (int)(luma_memory_used(L) >> 20));
  rc = luma_run_string(L, "return tostring(1 + 1)", "=next", 1);
  puts(rc == LUA_OK ? lua_tostring(L, -1) : "the next run failed");
  luma_close(L);
  return 0;
}
]]

describe("luma.pgm under a memory limit", function()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. support.quote(dir)))
  local host = assert(support.compile_host(HOST, dir))

  local function run(code)
    local out = support.run("timeout 60 " .. support.quote(host) .. " " .. support.quote(code))
    local message, used, next_run = out:match("^([^\n]*)\n(%d+)\n([^\n]*)\n$")
    assert(message, "the host printed: " .. out)
    return message, tonumber(used), next_run
  end

  it("refuses a junction-tree clique of 2^24 cells (128 MB), naming it", function()
    -- pairwise potentials on a complete graph of 24 binary variables
    local message, used, next_run = run([[
      local mn = luma.pgm.MarkovNetwork()
      for v = 1, 24 do mn:add_variable(v, 2) end
      for i = 1, 24 do for j = i + 1, 24 do mn:add_factor({ i, j }, { 2, 1, 1, 2 }) end end
      local z = mn:partition_function{ method = "jt" }]])
    assert.matches("^repro:4: clique {1, 2, 3, .-, 24} over 24 variables would have 16777216 "
      .. "cells %(134217728 bytes%), more than the %d+ bytes left under the memory limit$", message)
    assert.is_true(used < 16)
    assert.equal("2", next_run)
  end)

  it("refuses a factor product too large for the memory left", function()
    local message, _, next_run = run([[
      local a, b = {}, {}
      for k = 1, 12 do a[k], b[k] = "a" .. k, "b" .. k end
      local ones = function(n) local t = {} for i = 1, 2 ^ n do t[i] = 1 end return t end
      local two = {} for k = 1, 12 do two[k] = 2 end
      local f = luma.pgm.Factor(a, two, ones(12))
      local g = luma.pgm.Factor(b, two, ones(12))
      local p = f * g]])
    assert.matches("^repro:7: a table over 24 variables would have 16777216 cells %(134217728 "
      .. "bytes%), more than the %d+ bytes left under the memory limit$", message)
    assert.equal("2", next_run)
  end)
end)
