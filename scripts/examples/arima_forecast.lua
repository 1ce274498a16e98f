-- Forecasting a seasonal series with a seasonal ARIMA (luma.tsa.ARIMA;
-- Box and Jenkins, Time Series Analysis, ch. 9).
--
-- Twelve years of a synthetic monthly series: a linear trend (0.5 a
-- month), a yearly cycle of amplitude 10 and AR(1) noise (phi = 0.6,
-- innovation sd 1).  The last two years are held out.  The seasonal
-- difference removes the cycle and turns the trend into a constant (a
-- drift of 12 x 0.5 = 6 per year); a seasonal MA term absorbs what the
-- difference does to the noise (Theta near -1: the cycle is
-- deterministic), so the model is ARIMA(p, 0, q)(0, 1, 1)_12 with a
-- constant, p and q picked by BIC on the seasonally differenced series.  Printed: the selected order,
-- the fitted coefficients and log-likelihood, the Ljung-Box p-value of
-- the residuals, and the forecasts of the held-out years against the
-- truth with their 95% interval coverage.  Given OUTDIR, also draws the
-- series and the forecast with its intervals into OUTDIR/arima_forecast.svg.
--
--   luma scripts/examples/arima_forecast.lua [SEED = 3 [OUTDIR]]
-- gallery-args: 3 OUTDIR
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local tsa = luma.tsa

local SEED = math.tointeger(tonumber(arg and arg[1])) or 3
local YEARS, HOLD = 12, 24
local n = 12 * YEARS
local t = luma.arange(1, n)
local noise = tsa.arma_generate({ 0.6 }, {}, n, { seed = SEED })
local y = t * 0.5 + (t * (2 * math.pi / 12)):sin() * 10 + noise
local train, test = y:sub(1, n - HOLD):copy(), y:sub(n - HOLD + 1, n)

local w = tsa.diff(train, { lag = 12 })
local order = tsa.select_order(w, { max_ar = 2, max_ma = 1, ic = "bic" })
print(string.format("seasonally differenced series: %d points; BIC picks ARMA(%d, %d)", w:rows(),
  order[1], order[3]))

local m = tsa.ARIMA{ order = order, seasonal_order = { 0, 1, 1, 12 }, trend = "c" }:fit(train)
local parts = {}
for i, name in ipairs(m.param_names) do
  parts[i] = string.format("%s %.3f", name, m.params_vector:get(i, 1))
end
print("fitted: " .. table.concat(parts, ", "))
print(string.format("log-likelihood %.3f  AIC %.2f  BIC %.2f", m.loglik, m.aic, m.bic))

local pred = m:predict(train)
local resid = (train - pred):sub(14, train:rows())
local _, p = tsa.ljung_box(resid, { lags = 12, model_df = order[1] + order[3] })
print(string.format("Ljung-Box p-value of the residuals at lag 12: %.3f", p:get(12, 1)))

local f, ci = m:forecast(HOLD)
local err = f - test
local inside = test:ge(ci:col(1)):mul(test:le(ci:col(2))):sum()
print(string.format("forecast RMSE over %d months %.3f (noise sd %.3f); 95%% intervals cover %d of %d",
  HOLD, math.sqrt(err:pow(2):mean()), math.sqrt(tsa.arma_acovf({ 0.6 }, {}, 0):get(1, 1)),
  math.tointeger(inside), HOLD))
print(" month  truth    forecast  95% interval")
for h = 1, HOLD, 6 do
  print(string.format("  %3d  %7.2f  %7.2f  [%7.2f, %7.2f]", n - HOLD + h, test:get(h, 1), f:get(h, 1),
    ci:get(h, 1), ci:get(h, 2)))
end

local outdir = arg and arg[2]
if outdir then
  local fig = luma.plot.figure{ width = 900, height = 420,
    title = "ARIMA forecast of a seasonal series with 95% prediction intervals" }
  local ax = fig:axes()
  local months = luma.arange(n)
  local ahead = months:sub(n - HOLD + 1, n)
  ax:line(months, y, { label = "series", color = "black" })
  ax:line(ahead, f, { label = "forecast", color = "C1" })
  ax:line(ahead, ci:col(1), { label = "95% interval", color = "C1", style = "--" })
  ax:line(ahead, ci:col(2), { color = "C1", style = "--" })
  ax:set{ xlabel = "month", ylabel = "value" }
  fig:save(outdir .. "/arima_forecast.svg")
  print("wrote " .. outdir .. "/arima_forecast.svg")
end
