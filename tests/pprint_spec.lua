-- luma.pprint / pformat: the exact text for tables, lists, nesting,
-- matrices, special numbers, cycles and the width and depth options.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local pformat = luma.pprint.pformat

describe("luma.pprint", function()
  it("puts short tables on one line with sorted keys, the list part first", function()
    assert.equal('{ 1, 2, { x = 1 }, [10] = true, alpha = 0.1, name = "rbf" }',
      pformat({ 1, 2, { x = 1 }, name = "rbf", alpha = 0.1, [10] = true }))
    assert.equal("{}", pformat({}))
    assert.equal("{ a = 0.333333, b = nan, c = inf, d = -inf, e = 7 }",
      pformat({ a = 1 / 3, b = 0 / 0, c = math.huge, d = -math.huge, e = 7 }))
  end)

  it("breaks tables wider than width into indented lines", function()
    assert.equal("{\n  alpha = 1,\n  beta = { 1, 2 }\n}",
      pformat({ alpha = 1, beta = { 1, 2 } }, { width = 20 }))
  end)

  it("shows matrices by their own text, cycles and deep tables as markers", function()
    local text = pformat({ m = luma.eye(2) })
    assert.equal("{\n  m = " .. tostring(luma.eye(2)):gsub("\n", "\n  ") .. "\n}", text)
    local t = { name = "loop" }
    t.self = t
    assert.equal('{ name = "loop", self = <cycle> }', pformat(t))
    assert.equal("{ a = { b = {...} } }", pformat({ a = { b = { c = 1 } } }, { depth = 1 }))
  end)

  it("prints what pformat returns", function()
    local out = support.luma_run({ "-e", "luma.pprint({ C = 0.5, kernel = 'rbf' })" })
    assert.equal('{ C = 0.5, kernel = "rbf" }\n', out)
  end)

  it("rejects bad options", function()
    support.errors_with("bad argument #2 to 'pformat' %(options table expected, got number%)",
      function() pformat({}, 3) end)
    support.errors_with("pprint: unknown option 'indent' %(valid: depth, width%)",
      function() luma.pprint({}, { indent = 2 }) end)
    support.errors_with("pformat: width must be a positive integer",
      function() pformat({}, { width = 0 }) end)
  end)
end)
