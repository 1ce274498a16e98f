-- The luma module itself: version, configuration, clock, lazy submodules,
-- the doc registry and help texts.
local luma = require("luma")

describe("luma module #smoke", function()
  it("has a semantic version string matching luma.config()", function()
    assert.matches("^%d+%.%d+%.%d+$", luma.VERSION)
    assert.equal(luma.VERSION, luma.config().version)
  end)

  it("reports OpenBLAS and at least one BLAS thread", function()
    local cfg = luma.config()
    assert.equal("OpenBLAS", cfg.blas)
    assert.matches("OpenBLAS", cfg.blas_config)
    assert.is_true(cfg.blas_threads >= 1)
    assert.equal("Lua 5.4", cfg.lua:sub(1, 7))
    assert.is_false(cfg.sandboxed)
  end)

  it("has a monotonic clock that advances", function()
    local t0 = luma.now()
    local x = 0
    for i = 1, 100000 do x = x + i end
    local t1 = luma.now()
    assert.is_true(t1 >= t0)
    assert.equal(5000050000, x)
  end)

  it("loads Lua submodules on first use and caches them", function()
    assert.is_nil(rawget(luma, "repl"))
    local repl = luma.repl
    assert.equal("table", type(repl))
    assert.equal(repl, rawget(luma, "repl"))
    assert.equal(repl, require("luma.repl"))
    assert.is_nil(luma.no_such_module)
  end)

  it("gives the same module table to every require", function()
    assert.equal(luma, require("luma"))
  end)
end)

describe("doc registry", function()
  it("documents native functions by object and by qualified name", function()
    local rec = luma.doc.get(luma.zeros)
    assert.equal("luma.matrix.zeros", rec.name)
    assert.equal("zeros(rows [, cols])", rec.signature)
    assert.equal(rec, luma.doc.get("luma.matrix.zeros"))
  end)

  it("accepts records from Lua code and lists names", function()
    local function f() end
    luma.doc.set(f, { name = "test.f", signature = "f()", doc = "Does nothing." })
    assert.equal("test.f", luma.doc.get(f).name)
    local found = false
    for _, name in ipairs(luma.doc.names()) do found = found or name == "test.f" end
    assert.is_true(found)
  end)

  it("rejects records without a name", function()
    assert.has_error(function() luma.doc.set(print, {}) end,
      "bad argument #2 to 'set' (record needs a string field 'name')")
  end)

  it("returns nil for undocumented values", function()
    assert.is_nil(luma.doc.get({}))
    assert.is_nil(luma.doc.get("no.such.name"))
  end)
end)

describe("help", function()
  it("formats a function's signature and text", function()
    local text = luma.help(luma.zeros)
    assert.equal("luma.matrix.zeros: zeros(rows [, cols])\n"
      .. "  A rows x cols matrix of zeros (cols 1 if omitted).", text)
  end)

  it("lists a module's documented members", function()
    local text = luma.help(luma.matrix)
    assert.matches("luma.matrix: matrix%(t%)", text)
    assert.matches("\n  zeros%(rows %[, cols%]%) +A rows x cols matrix of zeros", text)
  end)

  it("documents an instance through its type, with its methods", function()
    local text = luma.help(luma.zeros(2, 2))
    assert.matches("^luma.Matrix\n  Dense float64 matrix", text)
    assert.matches("A:t%(%) +Returns the transpose as a view", text)
  end)

  it("resolves dotted names and says when nothing is known", function()
    assert.equal(luma.help(luma.zeros), luma.help("luma.zeros"))
    assert.equal("no documentation for 'nope.nothing'", luma.help("nope.nothing"))
    assert.equal("no documentation for this table value", luma.help({}))
  end)

  it("gives an overview with no argument", function()
    assert.matches("^Luma " .. luma.VERSION:gsub("%.", "%%.") .. " %- machine learning",
      luma.help(nil))
  end)

  it("requires an argument slot", function()
    assert.has_error(function() luma.help() end, "bad argument #1 to 'help' (value expected)")
  end)
end)
