--- Help texts of the whole public API, and help()'s search, wrapping and
-- paging.  The walk covers whatever luma.repl.public_api() finds (every
-- lazily loaded module, its functions, classes and their methods, native
-- types' methods), so a family that lands later is checked as it lands.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local repl = require("luma.repl")

-- The declared parameters of a signature such as "f(X [, k = 5] [, opts])"
-- or "a(n) | a(first, last [, step = 1])": {text, optional} for each.
local function declared_parameters(signature)
  local out = {}
  for args in signature:gmatch("%b()") do
    -- A piece is optional when it starts inside brackets or opens them.
    local depth, nest, start, start_depth = 0, 0, 2, 0
    local body = args:sub(1, -2) .. ","
    for i = 2, #body do
      local c = body:sub(i, i)
      if c == "[" then depth = depth + 1
      elseif c == "]" then depth = depth - 1
      elseif c == "{" or c == "(" then nest = nest + 1
      elseif c == "}" or c == ")" then nest = nest - 1
      elseif c == "," and nest == 0 then
        local piece = body:sub(start, i - 1)
        local text = piece:gsub("[%[%]]", ""):match("^%s*(.-)%s*$")
        if text ~= "" then
          out[#out + 1] = { text = text, optional = start_depth > 0 or piece:match("^%s*%[") ~= nil }
        end
        start, start_depth = i + 1, depth
      end
    end
  end
  return out
end

local function has_param(rec, name)
  for _, p in ipairs(rec.params or {}) do
    if p.name == name then return true end
  end
  return false
end

-- What the record of a public name lacks under the convention of
-- docs/ARCHITECTURE.md ("Documentation registry"); an empty list if none.
local function problems(entry)
  local rec = entry.record
  if not rec then return { "no help record" } end
  local out = {}
  local doc = rec.doc
  if type(doc) ~= "string" or not doc:match("^[^\n]-%S.-%.") then
    out[#out + 1] = "no one-line summary ending in '.'"
  end
  -- Users have the textbooks and papers, not the course notes the
  -- methods came from: help cites those (the notes stay in code comments).
  local texts = { doc or "" }
  for _, p in ipairs(rec.params or {}) do texts[#texts + 1] = tostring(p.doc) end
  for _, text in ipairs(texts) do
    if text:find("notes %d%d%d") or text:find("the notes") then
      out[#out + 1] = "cites the course notes instead of a published source"
      break
    end
  end
  if entry.kind == "module" then return out end
  local sig = rec.signature
  if type(sig) ~= "string" or not sig:find("[%(%{]") then
    out[#out + 1] = "no signature"
    return out
  end
  if entry.kind == "class" then
    if type(rec.params) ~= "table" then out[#out + 1] = "no params list" end
    return out
  end
  if not (rec.returns or sig:find("[%)%}] %->") or (doc or ""):find("%f[%a][Rr]eturns?%f[%A]")) then
    out[#out + 1] = "does not say what it returns"
  end
  for _, p in ipairs(declared_parameters(sig)) do
    local name = p.text:match("^([%w_]+)")
    if name == "opts" or name == "options" then
      if type(rec.params) ~= "table" or #rec.params == 0 then
        out[#out + 1] = "'" .. name .. "' without a params list of its fields"
      end
    elseif p.optional and not p.text:find("=", 1, true) and p.text ~= "..."
      and not has_param(rec, name) then
      out[#out + 1] = "optional '" .. p.text .. "' without a default"
    end
  end
  return out
end

describe("help records of the public API", function()
  local entries = repl.public_api()

  it("walks modules, functions, classes and methods", function()
    local kinds, names = {}, {}
    for _, e in ipairs(entries) do
      kinds[e.kind] = (kinds[e.kind] or 0) + 1
      names[e.name] = e.kind
    end
    assert.is_true(kinds.module >= 25 and kinds["function"] >= 250 and kinds.class >= 80
      and kinds.method >= 500)
    assert.equal("module", names["luma.metrics"])
    assert.equal("function", names["luma.model_selection.cross_validate"])
    assert.equal("class", names["luma.linear.Ridge"])
    assert.equal("method", names["luma.linear.Ridge.fit"])
    assert.equal("method", names["luma.Matrix.t"])
    assert.equal("method", names["luma.model_selection.KFold.split"])
    assert.is_nil(names["luma.linear.common"]) -- package parts are not public
    assert.is_nil(names["luma.linear.native"])
  end)

  it("gives every public name a signature, a summary, defaults and what it returns", function()
    local missing = {}
    for _, e in ipairs(entries) do
      local found = problems(e)
      if #found > 0 then
        missing[#missing + 1] = string.format("  %-8s %s: %s", e.kind, e.name,
          table.concat(found, "; "))
      end
    end
    assert(#missing == 0, string.format("\n%d public names lack help:\n%s", #missing,
      table.concat(missing, "\n")))
  end)

  it("checks the convention itself", function()
    local function check(kind, rec) return problems({ kind = kind, record = rec }) end
    assert.same({}, check("function", { signature = "f(X [, k = 5])",
      doc = "Does f. Returns a number." }))
    assert.same({ "optional 'k' without a default" },
      check("function", { signature = "f(X [, k])", doc = "Does f. Returns a number." }))
    assert.same({}, check("function", { signature = "f(X [, k])", params = { { name = "k", default = 5 } },
      doc = "Does f. Returns a number." }))
    assert.same({ "'opts' without a params list of its fields" },
      check("function", { signature = "f(X [, opts])", doc = "Does f. Returns a number." }))
    assert.same({ "does not say what it returns" },
      check("method", { signature = "A:f()", doc = "Does f." }))
    assert.same({ "no one-line summary ending in '.'", "no signature" },
      check("function", {}))
    assert.same({}, check("function", { signature = "a(n) | a(first, last [, step = 1]) -> matrix",
      doc = "Ranges." }))
  end)
end)

describe("help search", function()
  it("finds a class by its short name", function()
    assert.equal(luma.help(luma.linear.Ridge), luma.help("Ridge"))
    assert.equal(luma.help(luma.model_selection.cross_validate), luma.help("cross_validate"))
  end)

  it("lists matching names first, then matching summaries, case-insensitively", function()
    local text = luma.help("cross")
    assert.matches("^no exact match for 'cross'; %d+ related", text)
    local lines = {}
    for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
    local function position(name)
      for i, line in ipairs(lines) do
        if line:match("^  " .. name:gsub("%.", "%%.") .. " ") then return i end
      end
    end
    local by_name = position("luma.model_selection.cross_validate")
    local by_summary = position("luma.linear.LassoCV") -- "cross-validated" in its summary
    assert.is_number(by_name)
    assert.is_number(by_summary)
    assert.is_true(by_name < by_summary)
    assert.matches("cross_validate%s+Fits a clone of est", text)
    assert.equal(text:gsub("'cross'", "'CROSS'"), (luma.help("CROSS")))
    assert.matches("luma%.stats%.kstest", luma.help("kolmogorov"))
  end)

  it("says when nothing matches", function()
    assert.equal("no documentation for 'qqzzxq'", luma.help("qqzzxq"))
  end)

  it("lists the shared name's owners when a short name is ambiguous", function()
    local text = luma.help("fit")
    assert.matches("^no exact match for 'fit'", text)
    -- (which owners fit in the first 50 lines depends on the families loaded)
    assert.matches("\n  luma%.[%w_.]+%.fit +Fits %w+ to the rows of X", text)
    assert.matches("\n  %.%.%. %d+ more$", text)
  end)
end)

describe("help formatting", function()
  it("shows a function's option fields and what it returns", function()
    local text = luma.help(luma.model_selection.cross_validate)
    assert.matches("^luma%.model_selection%.cross_validate: cross_validate%(est, X, y %[, opts%]%) "
      .. "%-> results\n", text)
    assert.matches("\nParameters:\n", text)
    assert.matches("\n  return_train_score +default false +also score the training folds", text)
    assert.matches("Returns a table of columns (one row per fold)", text, 1, true)
  end)

  it("lists an estimator class's methods with their signatures", function()
    local text = luma.help(luma.linear.Ridge)
    assert.matches("\n  est:fit%(X, y %[, sample_weight = nil%]%) +Fits Ridge", text)
    assert.matches("\n  est:predict%(X%) +Predicts targets", text)
    assert.matches("\n  est:get_params%(%[deep = true%]%) +The estimator's parameters", text)
  end)

  it("wraps long lines to a given width under their text", function()
    local text = "luma.x: f(a)\n  A long line of documentation that needs two lines at this "
      .. "width.\n  name    a summary that also wraps here\nshort"
    assert.equal("luma.x: f(a)\n"
      .. "  A long line of documentation that\n"
      .. "  needs two lines at this width.\n"
      .. "  name    a summary that also wraps\n"
      .. "          here\n"
      .. "short", repl.wrap(text, 36))
    assert.equal("averyveryverylongword\nfits", repl.wrap("averyveryverylongword fits", 10))
    for line in repl.wrap(luma.help(luma.linalg.svd), 50):gmatch("[^\n]+") do
      assert.is_true(#line <= 50 or not line:match("^%s*%S+%s"), line)
    end
  end)

  it("returns unwrapped text from luma.help", function()
    local text = luma.help(luma.model_selection.cross_validate)
    local longest = 0
    for line in text:gmatch("[^\n]+") do longest = math.max(longest, #line) end
    assert.is_true(longest > 120)
  end)
end)

describe("completion", function()
  it("hides internal fields until the underscores are typed", function()
    local model = luma.linear.Ridge{}:fit(luma.eye(3), luma.ones(3, 1))
    _G.completion_model = model
    local shown = repl.complete("completion_model.")
    _G.completion_model = nil
    local set = {}
    for _, name in ipairs(shown) do set[name] = true end
    assert.is_true(set["completion_model.coef"] and set["completion_model.fit"])
    for name in pairs(set) do assert.is_nil(name:match("%.__")) end
    _G.completion_model = model
    local internal = repl.complete("completion_model.__f")
    _G.completion_model = nil
    assert.same({ "completion_model.__fitted" }, internal)
  end)

  it("offers methods after ':' with their opening parenthesis, and only methods", function()
    _G.completion_model = luma.linear.Ridge{}:fit(luma.eye(3), luma.ones(3, 1))
    _G.completion_matrix = luma.zeros(2, 3)
    local shape = repl.complete("completion_matrix:sha")
    local fit = repl.complete("completion_model:fi")
    local fields = repl.complete("completion_model:coef") -- coef is a field, not a method
    local dotted = repl.complete("completion_model.coef")
    _G.completion_model, _G.completion_matrix = nil, nil
    assert.same({ "completion_matrix:shape(" }, shape)
    assert.same({ "completion_model:fit(" }, fit) -- (Ridge has no fit_transform)
    assert.same({ "completion_model:coef_table(" }, fields)
    assert.same({ "completion_model.coef", "completion_model.coef_table" }, dotted)
  end)
end)
