-- Every code block of README.md runs as written: the Lua blocks (and
-- those of docs/FEATURES.md, where the README's longer sections moved) in
-- a fresh `luma` process each (in a scratch directory, since some save a
-- file), the C block compiled into a small host around it, the shell
-- block of "Using the build tree" in the repository.  The `make` blocks
-- are what runs this suite, so they are only checked to name real
-- targets.
-- SPDX-License-Identifier: MIT
local support = require("support")
local quote = support.quote

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- The fenced blocks of a Markdown file as {lang = ..., code = ..., line = ...}.
local function blocks(path)
  local list, lang, code, start, n = {}, nil, nil, nil, 0
  for line in (read(path) .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local fence = line:match("^```(%w*)%s*$")
    if fence and not lang then
      lang, code, start = fence, {}, n
    elseif fence and lang then
      list[#list + 1] = { lang = lang, code = table.concat(code, "\n") .. "\n", line = start,
        file = path }
      lang = nil
    elseif lang then
      code[#code + 1] = line
    end
  end
  return list
end

local function scratch_dir()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. quote(dir)))
  return dir
end

describe("README.md", function()
  local all = blocks("README.md")
  local features = blocks("docs/FEATURES.md")
  local luma_bin = os.getenv("PWD") .. "/" .. support.luma

  it("has the blocks this spec knows how to run", function()
    local langs = {}
    for _, b in ipairs(all) do langs[b.lang] = (langs[b.lang] or 0) + 1 end
    assert.equal(1, langs.lua) -- the tour
    assert.equal(1, langs.c)
    assert.equal(2, langs.sh)
    local n = 0
    for _, b in ipairs(features) do if b.lang == "lua" then n = n + 1 end end
    assert.is_true(n >= 4, "lua blocks of docs/FEATURES.md")
  end)

  local lua_blocks = {}
  for _, b in ipairs(all) do lua_blocks[#lua_blocks + 1] = b end
  for _, b in ipairs(features) do lua_blocks[#lua_blocks + 1] = b end
  for _, b in ipairs(lua_blocks) do
    if b.lang == "lua" then
      it("runs the Lua block of " .. b.file .. " at line " .. b.line, function()
        local dir = scratch_dir()
        local path = dir .. "/block.lua"
        local f = assert(io.open(path, "w"))
        f:write(b.code)
        f:close()
        local out, err, code = support.run("cd " .. quote(dir) .. " && " .. quote(luma_bin)
          .. " block.lua")
        os.execute("rm -rf " .. quote(dir))
        assert.equal(0, code, err)
        assert.equal("", err)
        assert.is_true(#out > 0, "the block prints nothing")
      end)
    end
  end

  it("compiles and runs the C block inside a host", function()
    local c
    for _, b in ipairs(all) do if b.lang == "c" then c = b.code end end
    -- Preprocessor lines stay at file scope; the statements go into main
    -- after the variables the fragment leaves to the host.
    local top, body = {}, {}
    for line in c:gmatch("(.-)\n") do
      if line:match("^#") then top[#top + 1] = line else body[#body + 1] = line end
    end
    local source = table.concat(top, "\n") .. [[

#include <stdio.h>
int main(void) {
  int64_t rows = 2, cols = 2;
  double data[] = {1, 2, 3, 4};
  const char *user_code = "return X * 2";
]] .. table.concat(body, "\n"):gsub("%.%.%.", "") .. [[

  return 0;
}
]]
    local dir = scratch_dir()
    local host, err = support.compile_host(source, dir)
    assert(host, (err or "") .. "\n" .. source)
    local _, run_err, code = support.run(quote(host))
    os.execute("rm -rf " .. quote(dir))
    assert.equal(0, code, run_err)
    assert.equal("", run_err)
  end)

  it("runs the build-tree shell block and names only real make targets", function()
    for _, b in ipairs(all) do
      -- (a sanitized luma.so cannot load into the uninstrumented lua5.4)
      if b.lang == "sh" and b.code:match("LUA_CPATH") and os.getenv("LUMA_SANITIZED") ~= "1" then
        local out, err, code = support.run("sh -c " .. quote(b.code:gsub("build/", support.build .. "/")))
        assert.equal(0, code, err)
        assert.matches("^%d+%.%d+%.%d+", out)
      elseif b.lang == "sh" and not b.code:match("LUA_CPATH") then
        local makefile = read("Makefile")
        for target in b.code:gmatch("make (%a+)") do
          assert.matches("\n" .. target .. ":", makefile)
        end
      end
    end
  end)
end)
