-- scripts/examples/kalman_tracking.lua runs under the luma binary and
-- prints what its header says.
-- SPDX-License-Identifier: MIT
local support = require("support")

describe("the Kalman tracking example", function()
  it("smooths better than it filters, filters better than the raw reports, and EM finds the sensor noise", function()
    local out, err, code = support.luma_run({ "scripts/examples/kalman_tracking.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    local raw, filt, smooth = out:match("reports ([%d.]+)%s+filtered ([%d.]+)%s+smoothed ([%d.]+)")
    raw, filt, smooth = tonumber(raw), tonumber(filt), tonumber(smooth)
    assert.is_true(smooth < filt and filt < raw)
    -- the raw reports' 2-D RMSE is about sd sqrt(2) = 2.83
    assert.near(2.83, raw, 0.4)
    local before, after = out:match("EM: log%-likelihood ([%-%d.]+) %-> ([%-%d.]+)")
    assert.is_true(tonumber(after) > tonumber(before))
    local v1, v2 = out:match("learned sensor variance ([%d.]+) ([%d.]+)")
    assert.near(4, tonumber(v1), 1)
    assert.near(4, tonumber(v2), 1)
  end)
end)
