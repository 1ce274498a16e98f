-- scripts/examples/hmm_regimes.lua runs under the luma binary and prints
-- what its header says: the two regimes recovered, Viterbi agreeing with
-- the generating regimes, BIC choosing two states.
-- SPDX-License-Identifier: MIT
local support = require("support")

describe("the regime-switching example (scripts/examples/hmm_regimes.lua)", function()
  it("recovers the two regimes and their persistence", function()
    local out, err, code = support.luma_run({ "scripts/examples/hmm_regimes.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    local sd_calm, stay_calm = out:match("\ncalm%s+[-%d.]+%s+([%d.]+)%s+([%d.]+)")
    local sd_turb, stay_turb = out:match("\nturbulent%s+[-%d.]+%s+([%d.]+)%s+([%d.]+)")
    -- generated with sds 0.5 and 2, staying probabilities 0.98 and 0.95
    assert.near(0.5, tonumber(sd_calm), 0.05)
    assert.near(2, tonumber(sd_turb), 0.2)
    assert.near(0.98, tonumber(stay_calm), 0.01)
    assert.near(0.95, tonumber(stay_turb), 0.02)
    local agree = tonumber(out:match("Viterbi agrees with the true regimes on ([%d.]+)%%"))
    assert.is_true(agree > 90)
    assert.truthy(out:find("BIC chooses 2 states", 1, true))
  end)
end)
