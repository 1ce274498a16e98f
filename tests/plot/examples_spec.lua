-- scripts/make-plots.lua (make plots): the notes' figures as well-formed
-- SVG files and a gallery page.  The EM example reproduces notes 004's
-- running example: negative log-likelihood 28.3255 at the initialisation,
-- 14.4105 after one iteration, 13.9733 after five (the notes print 28.3
-- -> 14.4; the inventory's recomputation gives the four decimals).
-- SPDX-License-Identifier: MIT
local support = require("support")
local xml = require("plot.xml")

describe("make plots", function()
  it("writes the notes' figures and an index page", function()
    local dir = os.tmpname()
    os.remove(dir)
    local out, err, code = support.luma_run({ "scripts/make-plots.lua", dir })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("NLL 28.3255 -> 14.4105 after one iteration, 13.9733 after five", 1, true))
    assert.truthy(out:find("5 figures and " .. dir .. "/index.html", 1, true))
    for _, name in ipairs{ "polynomial_fits", "polynomial_rmse", "gmm_mixture", "gmm_em", "ising_gibbs" } do
      local f = assert(io.open(dir .. "/" .. name .. ".svg", "rb"))
      local doc, why = xml.parse(f:read("a"))
      f:close()
      assert(doc, name .. ": " .. tostring(why))
      assert.is_true(#xml.by_class(doc, "axes") >= 1)
    end
    -- ten panels of fits, M = 0..9
    local f = assert(io.open(dir .. "/polynomial_fits.svg", "rb"))
    assert.equal(10, #xml.by_class(xml.parse(f:read("a")), "axes"))
    f:close()
    local index = assert(io.open(dir .. "/index.html", "rb"))
    assert.equal(5, select(2, index:read("a"):gsub("<img ", "")))
    index:close()
    os.execute("rm -rf " .. support.quote(dir))
  end)
end)
