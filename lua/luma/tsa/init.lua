--- luma.tsa: time series analysis (docs/TSA.md).
--
-- One part per concern, merged here into the table users get as luma.tsa:
--   stattools  acovf, acf, pacf, yule_walker, burg, ljung_box, box_pierce,
--              detrend, diff, undiff
--   process    arma_generate, random_walk, arma_acovf
--   ar_model   AutoReg
--   arima      ARIMA (exact likelihood through luma.lds's Kalman filter),
--              select_order
--   common     checks and the Levinson recursions (not public)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local tsa = {}

for _, part in ipairs{ "stattools", "process", "ar_model", "arima" } do
  for name, member in pairs(require("luma.tsa." .. part)) do tsa[name] = member end
end
-- The parts' checks raise with no location (luma.tsa.common.fail): each
-- function raises them at its caller's line.
args.relay_functions(tsa)

luma.doc.set(tsa, { name = "luma.tsa",
  doc = "Time series analysis: autocovariance, ACF and PACF with confidence bands, "
    .. "Yule-Walker and Burg, portmanteau tests, detrending and differencing, ARMA simulation, "
    .. "AutoReg, and seasonal ARIMA by exact likelihood through the Kalman filter with "
    .. "forecasts and order selection." })

return tsa
