--- luma.tsa stattools: autocovariance, ACF, PACF, Yule-Walker, Burg,
-- white-noise tests, detrending and differencing (notes 003 §1.20
-- L1333-1489, §3 items 26-27).
--
-- Estimators divide by n (notes 003 L1348-1356), statsmodels' default
-- (acovf(adjusted=False), acf, pacf(method="ywm"), yule_walker(method=
-- "mle")), so their Toeplitz matrices are positive semi-definite and the
-- Yule-Walker fit is always stationary.  The PACF at lag h is phi_hh, the
-- last coefficient of the best linear predictor of order h (notes 003
-- L1478-1489): by the Durbin-Levinson recursion, by solving each order's
-- Yule-Walker system directly (the regression definition), or by least
-- squares on the lagged sample (statsmodels' "ols").
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.tsa.native")
local common = require("luma.tsa.common")

local fail, series, options = common.fail, common.series, common.options

local M = {}

local function nlags_of(fname, opts, n, default)
  local k = opts.nlags
  if k == nil then k = math.min(default, n - 1) end
  return common.integer(fname, "nlags", k, 0, n - 1)
end

--- acovf(x [, opts]) -> (nlags + 1) x 1
function M.acovf(x, opts)
  x = series("acovf", x)
  opts = options("acovf", opts, { nlags = true, adjusted = true, demean = true }, 2)
  local nlags = nlags_of("acovf", opts, x:rows(), x:rows() - 1)
  return native.acovf(x, nlags, { adjusted = opts.adjusted == true, demean = opts.demean ~= false })
end

local function z_of(alpha)
  if type(alpha) ~= "number" or not (alpha > 0 and alpha < 1) then
    fail("alpha must be a number in (0, 1), got %s", tostring(alpha))
  end
  return luma.dist.Normal{}:ppf(1 - alpha / 2)
end

--- acf(x [, opts]) -> rho [, confint]
function M.acf(x, opts)
  x = series("acf", x)
  opts = options("acf", opts, { nlags = true, adjusted = true, alpha = true }, 2)
  local n = x:rows()
  local nlags = nlags_of("acf", opts, n, math.floor(10 * math.log(n, 10)))
  local g = native.acovf(x, nlags, { adjusted = opts.adjusted == true })
  local rho = g / g:get(1, 1)
  if not opts.alpha then return rho end
  -- Bartlett's formula: var rho_h = (1 + 2 sum_{k<h} rho_k^2) / n
  local z = z_of(opts.alpha)
  local half = luma.zeros(nlags + 1, 1)
  local acc = 1
  for h = 1, nlags do
    half:set(h + 1, 1, z * math.sqrt(acc / n))
    acc = acc + 2 * rho:get(h + 1, 1) ^ 2
  end
  return rho, luma.matrix.hstack{ rho - half, rho + half }
end

-- PACF by least squares on the lagged sample: for each k, x_t on a
-- constant and x_{t-1..t-k} over t = k + 1..n (statsmodels' pacf_ols).
local function pacf_ols(x, nlags)
  local n = x:rows()
  local out = luma.zeros(nlags + 1, 1)
  out:set(1, 1, 1)
  for k = 1, nlags do
    local D = luma.ones(n - k, k + 1)
    for i = 1, k do D:col(i + 1):assign(x:sub(k + 1 - i, n - i)) end
    local beta = luma.linalg.lstsq(D, x:sub(k + 1, n))
    out:set(k + 1, 1, beta:get(k + 1, 1))
  end
  return out
end

-- PACF by the regression definition: for each h solve the order-h
-- Yule-Walker system Gamma_h phi = gamma_h and keep phi_h.
local function pacf_regression(g, nlags)
  local out = luma.zeros(nlags + 1, 1)
  out:set(1, 1, 1)
  for h = 1, nlags do
    local G = luma.zeros(h, h)
    for i = 1, h do for j = 1, h do G:set(i, j, g:get(math.abs(i - j) + 1, 1)) end end
    local phi = luma.linalg.solve(G, g:sub(2, h + 1))
    out:set(h + 1, 1, phi:get(h, 1))
  end
  return out
end

local PACF_METHODS = { ywm = true, durbin_levinson = true, regression = true, ols = true }

--- pacf(x [, opts]) -> phi [, confint]
function M.pacf(x, opts)
  x = series("pacf", x)
  opts = options("pacf", opts, { nlags = true, method = true, alpha = true }, 2)
  local n = x:rows()
  local nlags = nlags_of("pacf", opts, n, math.min(math.floor(10 * math.log(n, 10)), n // 2 - 1))
  if nlags >= n // 2 then
    fail("pacf: nlags must be below n / 2 = %d (the regression needs twice as many points), got %d",
      n // 2, nlags)
  end
  local method = opts.method or "ywm"
  if not PACF_METHODS[method] then
    fail("pacf: method must be \"ywm\" (\"durbin_levinson\"), \"regression\" or \"ols\", got %s",
      tostring(method))
  end
  local out
  if method == "ols" then
    out = pacf_ols(x, nlags)
  else
    local g = native.acovf(x, nlags)
    if method == "regression" then
      out = pacf_regression(g, nlags)
    else
      local _, _, pc = common.levinson(g, nlags)
      out = luma.matrix.vstack{ luma.ones(1, 1), pc }
    end
  end
  if not opts.alpha then return out end
  local half = luma.full(nlags + 1, 1, z_of(opts.alpha) / math.sqrt(n))
  half:set(1, 1, 0)
  return out, luma.matrix.hstack{ out - half, out + half }
end

--- yule_walker(x, order [, opts]) -> phi, sigma2
function M.yule_walker(x, order, opts)
  x = series("yule_walker", x)
  opts = options("yule_walker", opts, { method = true, demean = true }, 3)
  local n = x:rows()
  common.integer("yule_walker", "order", order, 1, n - 1)
  local method = opts.method or "mle"
  if method ~= "mle" and method ~= "adjusted" then
    fail("yule_walker: method must be \"mle\" or \"adjusted\", got %s", tostring(method))
  end
  local g = native.acovf(x, order, { adjusted = method == "adjusted", demean = opts.demean ~= false })
  -- Gamma_p phi = gamma_p, sigma2 = gamma(0) - phi' gamma_p (notes 003 §3 item 27)
  local G = luma.zeros(order, order)
  for i = 1, order do for j = 1, order do G:set(i, j, g:get(math.abs(i - j) + 1, 1)) end end
  local rhs = g:sub(2, order + 1)
  local ok, phi = pcall(luma.linalg.solve, G, rhs)
  if not ok then fail("yule_walker: the autocovariance matrix is singular (a constant series?)") end
  return phi, g:get(1, 1) - phi:dot(rhs)
end

--- burg(x, order [, opts]) -> phi, sigma2
function M.burg(x, order, opts)
  x = series("burg", x)
  opts = options("burg", opts, { demean = true }, 3)
  local n = x:rows()
  common.integer("burg", "order", order, 1, n - 1)
  if opts.demean ~= false then x = x - x:mean() end
  -- Burg (1968): forward and backward prediction errors f, b; at order k
  -- the reflection coefficient minimizing their summed squares.
  local f, b = x:sub(2, n):copy(), x:sub(1, n - 1):copy()
  local sigma2
  local r = {}
  for k = 1, order do
    local den = f:dot(f) + b:dot(b)
    if not (den > 0) then fail("burg: the series is constant (no prediction error left at order %d)", k) end
    local rk = 2 * f:dot(b) / den
    r[k] = rk
    -- the mean of the squared forward and backward errors at order k
    sigma2 = (1 - rk * rk) * den / (2 * (n - k))
    if k < order then
      local m = f:rows()
      local fn = f:sub(2, m) - b:sub(2, m) * rk
      local bn = b:sub(1, m - 1) - f:sub(1, m - 1) * rk
      f, b = fn, bn
    end
  end
  return luma.matrix(common.step_up(r)), sigma2
end

-- The Q statistics at lags 1..lags: Ljung-Box n (n + 2) sum rho_k^2 / (n -
-- k) (Ljung and Box 1978) or Box-Pierce n sum rho_k^2 (Box and Pierce
-- 1970), with chi^2 p-values on lags - model_df degrees of freedom.
local function portmanteau(fname, x, opts, ljung)
  x = series(fname, x)
  opts = options(fname, opts, { lags = true, model_df = true }, 2)
  local n = x:rows()
  local lags = opts.lags or math.min(10, n - 1)
  common.integer(fname, "lags", lags, 1, n - 1)
  local df0 = opts.model_df or 0
  common.integer(fname, "model_df", df0, 0)
  local rho = native.acovf(x, lags)
  rho = rho / rho:get(1, 1)
  local Q, P = luma.zeros(lags, 1), luma.zeros(lags, 1)
  local acc = 0
  for k = 1, lags do
    local r2 = rho:get(k + 1, 1) ^ 2
    acc = acc + (ljung and r2 / (n - k) or r2)
    local q = ljung and n * (n + 2) * acc or n * acc
    Q:set(k, 1, q)
    P:set(k, 1, k > df0 and common.chi2_sf(q, k - df0) or 0 / 0)
  end
  return Q, P
end

--- ljung_box(x [, opts]) -> Q, pvalues
function M.ljung_box(x, opts) return portmanteau("ljung_box", x, opts, true) end

--- box_pierce(x [, opts]) -> Q, pvalues
function M.box_pierce(x, opts) return portmanteau("box_pierce", x, opts, false) end

--- detrend(x [, opts]) -> residual, trend
function M.detrend(x, opts)
  x = series("detrend", x)
  opts = options("detrend", opts, { method = true, order = true, bandwidth = true }, 2)
  local n = x:rows()
  local method = opts.method or "polynomial"
  local t = luma.arange(1, n)
  local trend
  if method == "polynomial" then
    local order = opts.order or 1
    common.integer("detrend", "order", order, 0, n - 1)
    -- least squares on 1, s, s^2, ... with s = t scaled to [-1, 1]
    local s = n > 1 and (t - (n + 1) / 2) / ((n - 1) / 2) or t * 0
    local V = luma.ones(n, order + 1)
    for k = 1, order do V:col(k + 1):assign(s:pow(k)) end
    trend = V * luma.linalg.lstsq(V, x)
  elseif method == "kernel" then
    -- Nadaraya (1964)-Watson (1964) smoothing on t, Gaussian kernel
    local h = opts.bandwidth or math.max(1, n / 10)
    if type(h) ~= "number" or not (h > 0) then fail("detrend: bandwidth must be a number > 0") end
    local D = t - t:t()
    local W = (D:pow(2) / (-2 * h * h)):exp()
    trend = (W * x):div(W:sum(2))
  else
    fail("detrend: method must be \"polynomial\" or \"kernel\", got %s", tostring(method))
  end
  return x - trend, trend
end

--- diff(x [, opts]) -> d
function M.diff(x, opts)
  x = series("diff", x)
  opts = options("diff", opts, { lag = true, differences = true }, 2)
  local lag, k = opts.lag or 1, opts.differences or 1
  common.integer("diff", "lag", lag, 1)
  common.integer("diff", "differences", k, 0)
  if x:rows() <= lag * k then
    fail("diff: the series has %d points, not more than lag * differences = %d", x:rows(), lag * k)
  end
  for _ = 1, k do
    local n = x:rows()
    x = x:sub(lag + 1, n) - x:sub(1, n - lag)
  end
  return x:copy()
end

--- undiff(d, head [, opts]) -> x
function M.undiff(d, head, opts)
  d = series("undiff", d)
  head = series("undiff", head, 2)
  opts = options("undiff", opts, { lag = true, differences = true }, 3)
  local lag, k = opts.lag or 1, opts.differences or 1
  common.integer("undiff", "lag", lag, 1)
  common.integer("undiff", "differences", k, 0)
  if head:rows() ~= lag * k then
    fail("bad argument #2 to 'undiff' (head must hold the first lag * differences = %d values "
      .. "of the series, got %d)", lag * k, head:rows())
  end
  -- the heads of every intermediate difference, from the original's
  local heads = { head }
  for j = 1, k - 1 do
    local prev = heads[j]
    local m = prev:rows()
    heads[j + 1] = prev:sub(lag + 1, m) - prev:sub(1, m - lag)
  end
  local x = d
  for j = k, 1, -1 do
    local h = heads[j]:sub(1, lag)
    local n = x:rows() + lag
    local out = luma.zeros(n, 1)
    out:sub(1, lag):assign(h)
    local xs = common.totable(x)
    local vals = common.totable(out)
    for t = lag + 1, n do vals[t] = vals[t - lag] + xs[t - lag] end
    x = luma.matrix(vals)
  end
  return x
end

luma.doc.set_members(M, "luma.tsa", {
  acovf = { signature = "acovf(x [, opts]) -> matrix",
    doc = "Sample autocovariances gamma(h) = (1/n) sum_t (x_t - mean)(x_{t+h} - mean) at lags "
      .. "0..nlags (Brockwell and Davis, Introduction to Time Series and Forecasting, sec. "
      .. "1.4; statsmodels' acovf). Returns an (nlags + 1) x 1 matrix.",
    params = { { name = "nlags", default = "n - 1", doc = "the largest lag" },
      { name = "adjusted", default = false, doc = "divide by n - h instead of n" },
      { name = "demean", default = true, doc = "subtract the sample mean" } } },
  acf = { signature = "acf(x [, opts]) -> rho [, confint]",
    doc = "The sample autocorrelation rho(h) = gamma(h) / gamma(0) at lags 0..nlags "
      .. "(statsmodels' acf); with alpha, also (nlags + 1) x 2 confidence bands by Bartlett's "
      .. "formula. Returns an (nlags + 1) x 1 matrix (and the bands).",
    params = { { name = "nlags", default = "min(10 log10 n, n - 1)", doc = "the largest lag" },
      { name = "adjusted", default = false, doc = "autocovariances divided by n - h" },
      { name = "alpha", default = "nil", doc = "confidence bands at level 1 - alpha" } } },
  pacf = { signature = "pacf(x [, opts]) -> phi [, confint]",
    doc = "The sample partial autocorrelation phi_hh, the last coefficient of the best linear "
      .. "predictor of order h (Brockwell and Davis, sec. 3.2.3): by the Durbin-Levinson "
      .. "recursion on the 1/n autocovariances (\"ywm\", statsmodels' pacf(method=\"ywm\")), "
      .. "by solving each order's Yule-Walker system (\"regression\"; the same numbers), or "
      .. "by least squares on the lagged series (\"ols\"). With alpha, also bands +- "
      .. "z/sqrt(n). Returns an (nlags + 1) x 1 matrix (and the bands).",
    params = { { name = "nlags", default = "min(10 log10 n, n / 2 - 1)", doc = "the largest lag" },
      { name = "method", default = "ywm", doc = "\"ywm\" (or \"durbin_levinson\"), \"regression\", \"ols\"" },
      { name = "alpha", default = "nil", doc = "confidence bands at level 1 - alpha" } } },
  yule_walker = { signature = "yule_walker(x, order [, opts]) -> phi, sigma2",
    doc = "AR(order) coefficients by the Yule-Walker equations Gamma_p phi = gamma_p and the "
      .. "innovation variance sigma2 = gamma(0) - phi' gamma_p (Brockwell and Davis, sec. "
      .. "5.1.1; statsmodels' yule_walker, whose sigma is sqrt(sigma2)). Returns an order x 1 "
      .. "matrix and a number.",
    params = { { name = "method", default = "mle", doc = "\"mle\" (1/n) or \"adjusted\" (1/(n - h))" },
      { name = "demean", default = true, doc = "subtract the sample mean first" } } },
  burg = { signature = "burg(x, order [, opts]) -> phi, sigma2",
    doc = "AR(order) coefficients by Burg's method (Burg 1968; Brockwell and Davis, sec. "
      .. "5.1.2; statsmodels' burg): reflection coefficients minimizing the forward and "
      .. "backward prediction errors. Returns an order x 1 matrix and the innovation variance "
      .. "(the mean squared forward and backward error).",
    params = { { name = "demean", default = true, doc = "subtract the sample mean first" } } },
  ljung_box = { signature = "ljung_box(x [, opts]) -> Q, pvalues",
    doc = "The Ljung-Box statistics Q(k) = n (n + 2) sum_{j<=k} rho_j^2 / (n - j) for k = "
      .. "1..lags and their chi^2(k - model_df) p-values (Ljung and Box 1978; statsmodels' "
      .. "acorr_ljungbox). Returns two lags x 1 matrices.",
    params = { { name = "lags", default = "min(10, n - 1)", doc = "the largest lag" },
      { name = "model_df", default = 0, doc = "degrees of freedom used by a fitted model" } } },
  box_pierce = { signature = "box_pierce(x [, opts]) -> Q, pvalues",
    doc = "The Box-Pierce statistics Q(k) = n sum_{j<=k} rho_j^2 and their chi^2 p-values (Box "
      .. "and Pierce 1970). Returns two lags x 1 matrices.",
    params = { { name = "lags", default = "min(10, n - 1)", doc = "the largest lag" },
      { name = "model_df", default = 0, doc = "degrees of freedom used by a fitted model" } } },
  detrend = { signature = "detrend(x [, opts]) -> residual, trend",
    doc = "Removes a trend in t: a least-squares polynomial of the given order (0 the mean, "
      .. "1 a line) or a Nadaraya-Watson Gaussian-kernel smooth (Shumway and Stoffer, Time "
      .. "Series Analysis and Its Applications, sec. 2.3). Returns two n x 1 matrices.",
    params = { { name = "method", default = "polynomial", doc = "\"polynomial\" or \"kernel\"" },
      { name = "order", default = 1, doc = "the polynomial's degree" },
      { name = "bandwidth", default = "max(1, n / 10)", doc = "the kernel's standard deviation, in steps" } } },
  diff = { signature = "diff(x [, opts]) -> matrix",
    doc = "Differences x_t - x_{t-lag}, applied differences times (lag = s: the seasonal "
      .. "difference; Box and Jenkins, Time Series Analysis, ch. 9). Returns an (n - lag * "
      .. "differences) x 1 matrix.",
    params = { { name = "lag", default = 1, doc = "the lag (the season length for seasonal differences)" },
      { name = "differences", default = 1, doc = "how many times to difference" } } },
  undiff = { signature = "undiff(d, head [, opts]) -> matrix",
    doc = "The inverse of diff: the series whose differences are d and whose first lag * "
      .. "differences values are head. Returns an n x 1 matrix.",
    params = { { name = "lag", default = 1, doc = "as given to diff" },
      { name = "differences", default = 1, doc = "as given to diff" } } },
})

return M
