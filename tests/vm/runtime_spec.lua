-- The luma module itself: version, configuration, clock, lazy submodules,
-- the doc registry and help texts.
-- SPDX-License-Identifier: MIT
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
    rawset(luma, "repl", nil) -- another spec's walk of the API may have loaded it
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
    assert.equal("zeros(rows [, cols = 1]) -> matrix", rec.signature)
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
    assert.equal("luma.matrix.zeros: zeros(rows [, cols = 1]) -> matrix\n"
      .. "  A rows x cols matrix of zeros (cols 1 if omitted).", text)
  end)

  it("lists a module's documented members", function()
    local text = luma.help(luma.matrix)
    assert.matches("luma.matrix: matrix%(t%)", text)
    assert.matches("\n  zeros%(rows %[, cols = 1%]%) %-> matrix  +A rows x cols matrix of zeros", text)
  end)

  it("documents an instance through its type, with its methods", function()
    local text = luma.help(luma.zeros(2, 2))
    assert.matches("^luma.Matrix\n  Dense float64 matrix", text)
    assert.matches("A:t%(%) %-> matrix view  +Returns the transpose as a view", text)
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

  -- Counts the lines of text that contain the plain string s.
  local function count_lines(text, s)
    local n = 0
    for line in text:gmatch("[^\n]+") do
      if line:find(s, 1, true) then n = n + 1 end
    end
    return n
  end

  it("shows a class's signature and description once", function()
    for _, class in ipairs({ luma.model_selection.GridSearch, luma.linear.LassoCV,
                             luma.preprocessing.OneHotEncoder }) do
      local text = luma.help(class)
      local short = class.name:match("[^.]+$")
      assert.equal(1, count_lines(text, short .. "{"), class.name)
    end
  end)

  it("prints defaults by value: NaN as nan, tables not as addresses", function()
    local text = luma.help(luma.model_selection.GridSearch)
    assert.matches("error_score = nan", text, 1, true)
    assert.not_matches("table: 0x", text)
    assert.not_matches("%-nan", text)
  end)

  it("lists the parameters of splitters and distributions, for classes and instances", function()
    local ms = luma.model_selection
    for _, text in ipairs({ luma.help(ms.StratifiedKFold), luma.help(ms.KFold{ n_splits = 3 }) }) do
      assert.matches("n_splits%s+integer >= 2 default 5%s+number of folds", text)
      assert.matches("shuffle%s+boolean%s+default false", text)
      assert.not_matches("\n  name ", text) -- the class's name field is no member
    end
    for _, text in ipairs({ luma.help(luma.dist.Normal), luma.help(luma.dist.Normal{ mu = 1, sigma = 2 }) }) do
      assert.matches("^luma%.dist%.Normal: Normal{mu = 0, sigma = 1}", text)
      assert.matches("mu%s+default 0", text)
      assert.matches("sigma%s+default 1", text)
    end
  end)

  it("finds types by name before any module that defines them is loaded", function()
    local out = require("support").luma_run({ "-e", "io.write(luma.help('luma.Generator'))" })
    assert.matches("^luma%.Generator\n  Pseudo%-random generator", out)
  end)
end)

describe("printing estimators", function()
  it("shows nested estimators and tables by value and leaves NaN defaults out", function()
    local pp, lin, ms = luma.preprocessing, luma.linear, luma.model_selection
    local pipe = luma.pipeline.make_pipeline(pp.StandardScaler{}, lin.Ridge{ alpha = 2 })
    assert.equal('Pipeline(steps={{"standardscaler", StandardScaler()}, {"ridge", Ridge(alpha=2)}})',
      tostring(pipe))
    local search = ms.GridSearch{ estimator = lin.Ridge{}, param_grid = { alpha = { 0.1, 1 } } }
    assert.equal("GridSearch(estimator=Ridge(), param_grid={alpha = {0.1, 1}})", tostring(search))
  end)
end)
