--- luma.tsa AutoReg: the AR(p) model X_t = c + sum_i phi_i X_{t-i} + w_t
-- (notes 003 §1.20 L1367-1372, L1435-1466), fitted by conditional least
-- squares (statsmodels' AutoReg), by Yule-Walker (the notes' method of
-- moments, §3 item 27) or by Burg's method.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.tsa.common")
local stattools = require("luma.tsa.stattools")
local dcommon = require("luma.decomposition.common")

local fail = common.fail
local LOG_2PI = math.log(2 * math.pi)

local M = {}

local NAME = "AutoReg"

-- The n - p x (p [+ 1]) design of lagged values for t = p + 1..n.
local function design(y, p, const)
  local n = y:rows()
  local D = luma.ones(n - p, p + (const and 1 or 0))
  local off = const and 1 or 0
  for i = 1, p do D:col(i + off):assign(y:sub(p + 1 - i, n - i)) end
  return D
end

local function fit(self, X)
  local prm = self.params
  local y = common.series("fit", X)
  local n, p = y:rows(), prm.lags
  local const = prm.trend == "c"
  if n < 2 * p + 2 then
    fail("bad argument #1 to 'fit' (%s: the series has %d points; lags = %d needs at least %d)",
      NAME, n, p, 2 * p + 2)
  end
  local phi, c, sigma2
  if prm.method == "ols" then
    local D = design(y, p, const)
    local beta = luma.linalg.lstsq(D, y:sub(p + 1, n))
    local off = const and 1 or 0
    c = const and beta:get(1, 1) or 0
    phi = beta:sub(off + 1, off + p):copy()
    local r = y:sub(p + 1, n) - D * beta
    sigma2 = r:dot(r) / (n - p)
  else
    local fn = prm.method == "burg" and stattools.burg or stattools.yule_walker
    phi, sigma2 = fn(y, p, { demean = const })
    c = const and y:mean() * (1 - phi:sum()) or 0
  end
  if prm.enforce_stationarity and not common.stationary(common.totable(phi)) then
    fail("%s.fit: the fitted AR(%d) coefficients are not stationary (a root of 1 - sum phi_i "
      .. "z^i on or inside the unit circle) and enforce_stationarity is set; use method = "
      .. "\"yule_walker\" or \"burg\", which always give a stationary fit", NAME, p)
  end
  self.coef, self.intercept, self.sigma2 = phi, c, sigma2
  -- conditional Gaussian log-likelihood of x_{p+1..n} given the first p
  local r = y:sub(p + 1, n) - design(y, p, false) * phi - c
  local nobs = n - p
  self.resid = r
  self.nobs = nobs
  self.loglik = -0.5 * (nobs * (LOG_2PI + math.log(sigma2)) + r:dot(r) / sigma2)
  local k = p + (const and 1 or 0) + 1
  self.aic = -2 * self.loglik + 2 * k
  self.bic = -2 * self.loglik + k * math.log(nobs)
  self.last = y:sub(n - p + 1, n):copy()
end

-- One-step predictions c + sum phi_i x_{t-i} (NaN for t <= p).
local function predict(self, X)
  local y = common.series("predict", X)
  local n, p = y:rows(), self.params.lags
  local out = luma.full(n, 1, 0 / 0)
  if n > p then out:sub(p + 1, n):assign(design(y, p, false) * self.coef + self.intercept) end
  return out
end

local function forecast(self, steps)
  dcommon.check_fitted(self, "forecast")
  common.integer("forecast", "steps", steps, 1, 2147483647)
  local p = self.params.lags
  local hist = common.totable(self.last)
  local phi = common.totable(self.coef)
  local out = luma.zeros(steps, 1)
  for h = 1, steps do
    local s = self.intercept
    for i = 1, p do s = s + phi[i] * hist[#hist + 1 - i] end
    hist[#hist + 1] = s
    out:set(h, 1, s)
  end
  return out
end

M.AutoReg = estimator.class{
  name = "luma.tsa.AutoReg",
  kind = "density",
  doc = "The autoregression X_t = c + sum_{i=1}^{p} phi_i X_{t-i} + w_t (Box and Jenkins, Time "
    .. "Series Analysis, ch. 3) fitted to the series X (n x 1) by conditional least squares "
    .. "(\"ols\", statsmodels' AutoReg), the Yule-Walker equations or Burg's method (Brockwell "
    .. "and Davis, Introduction to Time Series and Forecasting, sec. 5.1). Fitted: coef (p x "
    .. "1), intercept, sigma2, resid, loglik (conditional on the first p values), aic, bic. "
    .. "predict(X) gives one-step predictions, forecast(steps) continues the fitted series.",
  params = {
    { name = "lags", type = "integer", default = 1, min = 1, doc = "the order p" },
    { name = "trend", type = "string", default = "c", values = { "c", "n" },
      doc = "\"c\" an intercept, \"n\" none" },
    { name = "method", type = "string", default = "ols", values = { "ols", "yule_walker", "burg" },
      doc = "the estimator" },
    { name = "enforce_stationarity", type = "boolean", default = false,
      doc = "make a non-stationary fit an error" },
  },
  example = function()
    return M.AutoReg{ lags = 2 }, luma.arange(1, 40):mul(0.7):sin()
  end,
  method_docs = {
    predict = { signature = "est:predict(X) -> matrix",
      doc = "One-step predictions c + sum phi_i x_{t-i} along the series X (NaN for the first p "
        .. "steps). Returns an n x 1 matrix." },
    score_samples = { signature = "est:score_samples(X) -> matrix",
      doc = "The Gaussian log-density of each one-step prediction error along X (NaN for the "
        .. "first p steps). Returns an n x 1 matrix." },
    forecast = { signature = "est:forecast(steps) -> matrix",
      doc = "Forecasts steps values past the end of the fitted series, by the recursion with "
        .. "future noise at its mean. Returns a steps x 1 matrix." },
  },
  fit = fit,
  predict = predict,
  score_samples = function(self, X)
    local e = common.series("score_samples", X) - predict(self, X)
    return e:pow(2) / (-2 * self.sigma2) - 0.5 * (LOG_2PI + math.log(self.sigma2))
  end,
  score = function(self, X)
    local s = self:score_samples(X)
    return s:sub(self.params.lags + 1, s:rows()):mean()
  end,
  forecast = forecast,
}

return M
