-- Issue 34 item 1: the licence and citation files say what the code does.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

describe("release metadata", function()
  it("LICENSE is MIT with the project's copyright line", function()
    local text = slurp("LICENSE")
    local head = "MIT License\n\nCopyright (c) 2026 the Luma authors\n"
    assert.equal(head, text:sub(1, #head))
    assert.truthy(text:find("THE SOFTWARE IS PROVIDED \"AS IS\"", 1, true))
  end)

  it("CITATION.cff carries the library's version and licence", function()
    local text = slurp("CITATION.cff")
    assert.equal("cff-version: 1.2.0", text:match("^[^\n]+"))
    assert.equal(luma.VERSION, text:match('\nversion: "([^"]+)"'))
    assert.equal("MIT", text:match("\nlicense: (%S+)"))
  end)

  it("every C and Lua source file names its licence in its first comment (SPDX)", function()
    local pipe = assert(io.popen("git ls-files 'src/*.c' 'src/*.h' 'lua/*.lua' 2>/dev/null"))
    local missing, count = {}, 0
    for path in pipe:lines() do
      count = count + 1
      if not slurp(path):sub(1, 3000):find("SPDX-License-Identifier: MIT", 1, true) then
        missing[#missing + 1] = path
      end
    end
    pipe:close()
    if count == 0 then return pending("not a git checkout") end
    assert.are.same({}, missing)
  end)
end)
