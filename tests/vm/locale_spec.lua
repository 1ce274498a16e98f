-- Issue 34 item 5: numbers Luma writes or reads as text do not depend on
-- the host's LC_NUMERIC.  A host that calls setlocale(LC_ALL,
-- "de_DE.UTF-8") used to get "0,5" in write_csv's output (a CSV that read
-- back as four fields), in SVG coordinates, in printed matrices and
-- estimators; now every line tests/vm/locale_check.lua prints is the same
-- under that locale as under "C", and the host gets its locale back.
-- SPDX-License-Identifier: MIT
local support = require("support")

local HOST = [[
#include <locale.h>
#include <stdio.h>
#include "luma.h"
/* argv: locale, check script, scratch folder */
int main(int argc, char **argv) {
  if (argc != 4 || setlocale(LC_ALL, argv[1]) == NULL) {
    puts("no such locale");
    return 2;
  }
  char num[32];
  snprintf(num, sizeof num, "%g", 0.5);
  printf("host_before=%s\n", num);
  lua_State *L = luma_newstate(NULL);
  lua_pushstring(L, argv[2]);
  lua_setglobal(L, "CHECK");
  lua_pushstring(L, argv[3]);
  lua_setglobal(L, "DIR");
  fflush(stdout);
  if (luma_run_string(L, "assert(loadfile(CHECK))(DIR, 'embedded')", "=host", 0) != LUA_OK)
    printf("error=%s\n", lua_tostring(L, -1));
  fflush(stdout);
  luma_close(L);
  snprintf(num, sizeof num, "%g", 0.5);
  printf("host_after=%s\n", num);
  return 0;
}
]]

local CHECK = "tests/vm/locale_check.lua"

-- The lines every run prints, exactly (the SVG's whole text is compared
-- between the locales instead).
local EXPECTED = {
  "csv=x1,x2|0.5,9.9999999999999995e-08|",
  "csv_back=true",
  "csv_long=true",
  "libsvm=1.5 1:0.5 3:9.9999999999999995e-08|",
  "libsvm_back=true",
  "save_back=true",
  "matrix=matrix 1 x 2|[[5.0000e-01  1.0000e-07]]",
  "matrix_fixed=matrix 1 x 2|[[0.50  1.25]]",
  "table=     a|1  0.5|2  1.5|[2 rows x 1 columns]",
  "pprint={ 0.5, x = 1e-07 }",
  "ridge=Ridge(alpha=0.5)",
}

local function lines_of(out)
  local t = {}
  for l in out:gmatch("[^\n]+") do t[#t + 1] = l end
  return t
end

local function field(lines, key)
  for _, l in ipairs(lines) do
    if l:sub(1, #key + 1) == key .. "=" then return l:sub(#key + 2) end
  end
end

describe("numbers as text under a comma locale (issue 34)", function()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. support.quote(dir .. "/run")))
  -- a German locale made for this test: no root install needed
  local _, _, made = support.run("localedef -i de_DE -f UTF-8 " .. support.quote(dir .. "/de_DE.UTF-8"))
  local env = { LOCPATH = dir }
  local host = assert(support.compile_host(HOST, dir))

  local function run_host(locale)
    local out, err, code = support.run(support.quote(host) .. " " .. locale .. " " .. CHECK .. " "
      .. support.quote(dir .. "/run"), nil, env)
    assert.equal(0, code, out .. err)
    return lines_of(out)
  end

  local function run_lua(locale)
    local out, err, code = support.run("lua5.4 -e " .. support.quote("os.setlocale('" .. locale
      .. "')") .. " " .. CHECK .. " " .. support.quote(dir .. "/run") .. " require", nil, env)
    assert.equal(0, code, out .. err)
    return lines_of(out)
  end

  local function check_common(lines)
    for _, want in ipairs(EXPECTED) do
      local key = want:match("^[^=]+")
      assert.equal(want, key .. "=" .. tostring(field(lines, key)))
    end
    assert.truthy(field(lines, "help_lasso"):find("tol = 0.0001,", 1, true))
    local svg = field(lines, "svg")
    assert.truthy(svg:find('<polyline points="50.68,-45.38 154.98,231.50 259.29,342.25"', 1, true))
    assert.truthy(svg:find('<circle cx="71.54" cy="142.90" r="3.00"/>', 1, true))
    assert.truthy(svg:find('>0.5</text>', 1, true))
  end

  if made ~= 0 then
    pending("localedef or the de_DE locale source (Debian package locales) is missing")
    return
  end

  it("a host under de_DE.UTF-8 gets the C locale's text and keeps its own locale", function()
    local c, de = run_host("C"), run_host("de_DE.UTF-8")
    -- the locale is live in the host: its own printf writes a comma
    assert.equal("0.5", field(c, "host_before"))
    assert.equal("0,5", field(de, "host_before"))
    assert.equal("0,5", field(de, "host_after"))
    assert.is_nil(field(de, "error"))
    check_common(de)
    -- Lua's own tostring, string.format and concatenation inside a run
    assert.equal("0.5 0.25 0.5", field(de, "tostring"))
    assert.equal("0.5", field(de, "host_g"))
    -- every line the same as under "C"
    for i = 2, #c - 1 do assert.equal(c[i], de[i]) end
    assert.equal(#c, #de)
  end)

  it("require 'luma' from stock Lua under de_DE.UTF-8 writes the same text", function()
    -- (a sanitized C module cannot load into the uninstrumented lua5.4)
    if os.getenv("LUMA_SANITIZED") == "1" then return end
    local c, de = run_lua("C"), run_lua("de_DE.UTF-8")
    assert.equal("0,5", field(de, "host_g")) -- Lua's own string.format follows the locale
    check_common(de)
    for i = 2, #c do assert.equal(c[i], de[i]) end
    assert.equal(#c, #de)
  end)
end)
