-- scripts/check-layers (the two layering rules `make test` enforces,
-- docs/ARCHITECTURE.md): each rule passes on the real tree and fails on a
-- deliberate violation, naming the offender.
-- SPDX-License-Identifier: MIT
local support = require("support")
local quote = support.quote

local function tmpdir()
  local path = os.tmpname()
  os.remove(path)
  assert(os.execute("mkdir -p " .. quote(path .. "/core")))
  return path
end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function check_layers(...)
  local words = { "scripts/check-layers" }
  for _, a in ipairs({ ... }) do words[#words + 1] = quote(a) end
  return support.run(table.concat(words, " "))
end

describe("scripts/check-layers", function()
  it("passes on this tree", function()
    local out, _, status = check_layers("includes", "src/ml")
    assert.equal(0, status, out)
    out, _, status = check_layers("symbols", support.build .. "/libluma.a")
    assert.equal(0, status, out)
  end)

  it("fails when a numeric kernel includes a Lua header, and names the file", function()
    local dir = tmpdir()
    write(dir .. "/core/clean.c", '#include "core/matrix.h"\nint luma_x(void) { return 0; }\n')
    write(dir .. "/core/clean_lua.c", "#include <lauxlib.h>\n") -- bindings may
    local out, _, status = check_layers("includes", dir)
    assert.equal(0, status, out)
    write(dir .. "/core/leaky.c", "#include <lua.h>\nint luma_y(void) { return 1; }\n")
    write(dir .. "/core/runtime.h", '#include "core.h"\n')
    out, _, status = check_layers("includes", dir)
    assert.equal(1, status)
    assert.matches("core/leaky%.c", out)
    assert.matches("core/runtime%.h", out)
    assert.not_matches("clean", out)
    os.execute("rm -rf " .. quote(dir))
  end)

  it("fails when the library exports a symbol without the luma_ prefix, and names it", function()
    local dir = tmpdir()
    write(dir .. "/a.c", "int luma_ok(void) { return 0; }\nint helper(void) { return 1; }\n"
      .. "static int hidden(void) { return 2; }\nint luma_uses(void) { return hidden(); }\n")
    assert(os.execute("cc -c -o " .. quote(dir .. "/a.o") .. " " .. quote(dir .. "/a.c")
      .. " && ar rcs " .. quote(dir .. "/liba.a") .. " " .. quote(dir .. "/a.o")))
    local out, _, status = check_layers("symbols", dir .. "/liba.a")
    assert.equal(1, status)
    assert.matches("helper", out)
    assert.not_matches("luma_ok", out)
    assert.not_matches("hidden", out)
    os.execute("rm -rf " .. quote(dir))
  end)

  it("refuses a missing folder or library instead of passing", function()
    local _, _, status = check_layers("includes", "/nonexistent/src")
    assert.equal(2, status)
    _, _, status = check_layers("symbols", "/nonexistent/lib.a")
    assert.equal(2, status)
  end)
end)
