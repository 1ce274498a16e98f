-- The example scripts run under the luma binary and print what their docs
-- say they print.
local support = require("support")

describe("examples", function()
  it("tunes a user-written estimator in a pipeline (docs/ESTIMATORS.md)", function()
    local out, err, code = support.luma_run({ "scripts/examples/custom_estimator.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("rank_score  mean_score", 1, true))
    local acc = tonumber(out:match("cross%-validated accuracy ([%d.]+)"))
    assert.is_true(acc > 0.85) -- two blobs 2.8 standard deviations apart
    assert.truthy(out:find("[[10  20]]", 1, true))
  end)
end)
