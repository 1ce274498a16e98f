-- The luma(1) manual page (man/luma.1, installed by `make install` and
-- the Debian package) against `luma --help`: every option the help lists
-- is described in the page, and every environment variable the help or
-- the sources read.
-- SPDX-License-Identifier: MIT
local support = require("support")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- The page's tagged paragraphs (.TP followed by the tag line), as plain
-- text: font requests and escapes removed ("\-e" is "-e").
local function tags(page)
  local t = {}
  for tag in page:gmatch("%.TP\n([^\n]+)") do
    tag = tag:gsub("^%.%a+%s*", ""):gsub("\\%-", "-"):gsub('"', ""):gsub("%s+", " ")
    t[#t + 1] = tag
  end
  return t
end

describe("luma(1)", function()
  local page = read("man/luma.1")
  local tagged = tags(page)

  local function described(option)
    for _, tag in ipairs(tagged) do
      for word in tag:gmatch("[^,%s]+") do
        if word == option then return true end
      end
    end
    return false
  end

  it("describes every option of luma --help", function()
    local help, err, code = support.luma_run({ "--help" })
    assert.equal(0, code, err)
    local options = {}
    for line in help:gmatch("[^\n]+") do
      local opt = line:match("^  (%-%-?%S*)")
      if opt then options[#options + 1] = opt end
      for long in line:gmatch("also (%-%-%a+)") do options[#options + 1] = long end
    end
    -- what the help lists today, so that a parser gone wrong cannot pass
    assert.same({ "-e", "-i", "-l", "-l", "-v", "--version", "-E", "-h", "--help", "--", "-" },
      options)
    for _, opt in ipairs(options) do
      assert(described(opt), "man/luma.1 does not describe " .. opt)
    end
    assert.truthy(page:find(".BI \\-l \" g\" = mod", 1, true), "the -l g=mod form")
  end)

  it("describes every LUMA_ environment variable the sources read", function()
    local vars = {}
    local out = support.run("grep -rhoE 'getenv\\(\"(LUMA|OPENBLAS)_[A-Z_]+\"\\)' src")
    for name in out:gmatch('"([A-Z_]+)"') do vars[name] = true end
    assert.truthy(vars.LUMA_INIT and vars.LUMA_NUM_THREADS)
    for name in pairs(vars) do
      assert(described(name), "man/luma.1 does not describe " .. name)
    end
  end)

  it("is a page man can format without warnings", function()
    local _, err, code = support.run("groff -man -ww -z man/luma.1")
    if code == 127 then return pending("groff is not installed") end
    assert.equal(0, code, err)
    assert.equal("", err)
  end)
end)
