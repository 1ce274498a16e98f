-- ARIMA(2, 0, 1) exact-likelihood fit on 10,000 points vs statsmodels' ARIMA (issue 23: reported, no target).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "ARIMA(2, 0, 1) with a constant, exact MLE, 10,000 points",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/arima_fit.lua" } },
  peer = {
    name = "statsmodels",
    argv = { env.python, env.dir .. "/kernels/arima_fit.py" },
    check = { env.python, "-c", "import statsmodels" },
  },
}
