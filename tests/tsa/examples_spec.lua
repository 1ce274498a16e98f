-- scripts/examples/arima_forecast.lua runs under the luma binary and
-- prints what its header says.
-- SPDX-License-Identifier: MIT
local support = require("support")

describe("the ARIMA forecast example", function()
  it("recovers the drift and the noise's AR coefficient and forecasts within the noise", function()
    local out, err, code = support.luma_run({ "scripts/examples/arima_forecast.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("BIC picks ARMA(1, 0)", 1, true))
    -- the drift is 12 x 0.5 = 6 a year, the AR(1) coefficient 0.6
    assert.near(6, tonumber(out:match("const ([%-%d.]+)")), 0.5)
    assert.near(0.6, tonumber(out:match("ar%.L1 ([%-%d.]+)")), 0.15)
    assert.is_true(tonumber(out:match("Ljung%-Box p%-value of the residuals at lag 12: ([%d.]+)")) > 0.05)
    local rmse, sd = out:match("forecast RMSE over 24 months ([%d.]+) %(noise sd ([%d.]+)%)")
    assert.is_true(tonumber(rmse) < 1.5 * tonumber(sd))
    assert.is_true(tonumber(out:match("intervals cover (%d+) of 24")) >= 20)
  end)
end)
