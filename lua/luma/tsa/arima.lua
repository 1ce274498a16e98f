--- luma.tsa ARIMA: seasonal ARIMA(p, d, q)(P, D, Q)_s by exact Gaussian
-- maximum likelihood through the Kalman filter of luma.lds (notes 003
-- §1.20 L1400-1426: ARMA on a differenced series; L1491-1493: AIC/BIC).
--
-- The series is differenced first, (1 - B)^d (1 - B^s)^D y_t = w_t
-- (statsmodels' simple_differencing = True), and w_t - mu is the ARMA
-- process phi(B) Phi(B^s) u_t = theta(B) Theta(B^s) e_t, e_t ~ N(0,
-- sigma2), in Harvey's state-space form (Harvey, Forecasting, Structural
-- Time Series Models and the Kalman Filter, sec. 3.3; Durbin and Koopman,
-- Time Series Analysis by State Space Methods, sec. 3.4): state dimension
-- r = max(p + sP, q + sQ + 1), transition T with the AR coefficients in
-- its first column and ones on the superdiagonal, selection R = (1,
-- theta_1, ..., theta_{r-1}), observation Z = e_1, no observation noise,
-- and the stationary initial state N(0, P0), P0 = T P0 T^T + sigma2 R R^T
-- (solved exactly).  The likelihood is then exact: statsmodels' ARIMA
-- (exact MLE) gives the same numbers.
--
-- Stationarity and invertibility are enforced as statsmodels does, by
-- optimizing over unconstrained values u mapped to partial
-- autocorrelations u / sqrt(1 + u^2) and stepped up to coefficients
-- (Monahan 1984; Jones 1980); sigma2 is optimized on the log scale.  The
-- optimizer is luma.optim.minimize's L-BFGS-B with central-difference
-- gradients.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.tsa.common")
local stattools = require("luma.tsa.stattools")
local dcommon = require("luma.decomposition.common")
local lds_native = require("luma.lds.native")

local fail, totable = common.fail, common.totable
local LOG_2PI = math.log(2 * math.pi)

local M = {}

local NAME = "ARIMA"

-- ------------------------------------------------------------ polynomials

-- (1 - sum a_i B^i)(1 - sum b_j B^{s j}) = 1 - sum c_k B^k: the lag
-- coefficients c (a table, index = lag) of a product of AR-type factors.
local function ar_product(a, b, s)
  local poly = { [0] = 1 }
  for i = 1, #a do poly[i] = -a[i] end
  local deg = #a
  local out = {}
  for k = 0, deg + s * #b do out[k] = 0 end
  for i = 0, deg do
    out[i] = out[i] + (poly[i] or 0)
    for j = 1, #b do out[i + s * j] = out[i + s * j] - (poly[i] or 0) * b[j] end
  end
  local c = {}
  for k = 1, deg + s * #b do c[k] = -out[k] end
  return c
end

-- (1 + sum a_i B^i)(1 + sum b_j B^{s j}) = 1 + sum c_k B^k.
local function ma_product(a, b, s)
  local na, nb = {}, {}
  for i = 1, #a do na[i] = -a[i] end
  for j = 1, #b do nb[j] = -b[j] end
  local c = ar_product(na, nb, s)
  for k = 1, #c do c[k] = -c[k] end
  return c
end

-- The differencing polynomial (1 - B)^d (1 - B^s)^D as lag coefficients c
-- with y_t - sum c_k y_{t-k} = w_t.
local function integration(d, D, s)
  local c = {}
  for _ = 1, d do c = ar_product(c, { 1 }, 1) end
  for _ = 1, D do c = ar_product(c, { 1 }, s) end
  return c
end

-- ------------------------------------------------------------ state space

-- T, Q (= sigma2 R R^T), Z and the stationary P0 of the ARMA(ar, ma).
local function state_space(ar, ma, sigma2)
  local r = math.max(#ar, #ma + 1)
  local T = luma.zeros(r, r)
  for i = 1, #ar do T:set(i, 1, ar[i]) end
  for i = 1, r - 1 do T:set(i, i + 1, 1) end
  local R = luma.zeros(r, 1)
  R:set(1, 1, 1)
  for j = 1, #ma do R:set(j + 1, 1, ma[j]) end
  local Q = (R * R:t()) * sigma2
  -- vec(P0) = (I - T kron T)^-1 vec(Q)
  local K = luma.eye(r * r) - luma.matrix.kron(T, T)
  local ok, v = pcall(luma.linalg.solve, K, Q:reshape(r * r, 1))
  if not ok then return nil end
  local P0 = v:reshape(r, r)
  P0 = (P0 + P0:t()) * 0.5
  local Z = luma.zeros(1, r)
  Z:set(1, 1, 1)
  return T, Q, Z, P0
end

-- The exact log-likelihood of w (n x 1, already centred) under ARMA(ar,
-- ma, sigma2); a filter result table with full = true.
local function loglik(w, ar, ma, sigma2, full)
  local T, Q, Z, P0 = state_space(ar, ma, sigma2)
  if not T then return nil end
  local r = T:rows()
  local ok, res = pcall(lds_native.filter, w, T, Q, Z, luma.zeros(1, 1), luma.zeros(r, 1), P0,
    { loglik_only = not full })
  if not ok then return nil end
  return res
end

-- --------------------------------------------------------- parameters

-- |u| -> partial autocorrelation in (-1, 1) -> coefficients.
local function constrain(u, negate)
  local r = {}
  for i = 1, #u do r[i] = u[i] / math.sqrt(1 + u[i] * u[i]) end
  local phi = common.step_up(r)
  if negate then for i = 1, #phi do phi[i] = -phi[i] end end
  return phi
end

local function unconstrain(phi, negate)
  local a = {}
  for i = 1, #phi do a[i] = negate and -phi[i] or phi[i] end
  local r = common.step_down(a)
  if not r then return nil end
  local u = {}
  for i = 1, #r do u[i] = r[i] / math.sqrt(1 - r[i] * r[i]) end
  return u
end

-- The layout of the parameter vector: const, ar, ma, sar, sma, sigma2.
local function layout(self)
  local o, so = self._order, self._seasonal
  return { const = self._trend == "c" and 1 or 0, p = o[1], q = o[3], P = so[1], Q = so[3], s = so[4] }
end

local function split(L, x)
  local pos = 1
  local function take(k)
    local t = {}
    for i = 1, k do t[i] = x[pos]; pos = pos + 1 end
    return t
  end
  local out = {}
  out.const = L.const == 1 and take(1)[1] or 0
  out.ar, out.ma, out.sar, out.sma = take(L.p), take(L.q), take(L.P), take(L.Q)
  out.sigma2 = x[pos]
  return out
end

-- unconstrained optimizer vector -> the model's parameters (a table).
local function transform(self, L, x)
  local v = split(L, x)
  local prm = self.params
  if prm.enforce_stationarity then
    v.ar, v.sar = constrain(v.ar), constrain(v.sar)
  end
  if prm.enforce_invertibility then
    v.ma, v.sma = constrain(v.ma, true), constrain(v.sma, true)
  end
  v.sigma2 = math.exp(v.sigma2)
  return v
end

local function flat(v)
  local t = {}
  local function add(list) for _, a in ipairs(list) do t[#t + 1] = a end end
  if v.has_const then t[#t + 1] = v.const end
  add(v.ar); add(v.ma); add(v.sar); add(v.sma)
  t[#t + 1] = v.sigma2
  return t
end

local function model_loglik(w, L, v)
  if not (v.sigma2 > 0) then return nil end
  local ar, ma = ar_product(v.ar, v.sar, L.s), ma_product(v.ma, v.sma, L.s)
  if #ar > 0 and not common.stationary(ar) then return nil end
  return loglik(L.const == 1 and (w - v.const) or w, ar, ma, v.sigma2)
end

-- Starting values: the mean, Yule-Walker AR coefficients (stationary),
-- zero MA and seasonal coefficients, the Yule-Walker innovation variance.
local function start(self, L, w)
  local mean = L.const == 1 and w:mean() or 0
  local ar, sigma2 = {}, (w - mean):dot(w - mean) / w:rows()
  if L.p > 0 then
    local phi, s2 = stattools.yule_walker(w, L.p, { demean = L.const == 1 })
    ar, sigma2 = totable(phi), s2
  end
  local x = {}
  if L.const == 1 then x[#x + 1] = mean end
  local prm = self.params
  local u = prm.enforce_stationarity and unconstrain(ar) or ar
  for i = 1, L.p do x[#x + 1] = u[i] end
  for _ = 1, L.q + L.P + L.Q do x[#x + 1] = 0 end
  x[#x + 1] = math.log(math.max(sigma2, 1e-12))
  return x
end

-- ------------------------------------------------------------------ fit

-- The schema's checks of order and seasonal_order (so that a bad order
-- is an error at construction, with the value, not at fit): a list of k
-- integers >= 0, nothing else in it.
local function counts(t, k)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  if n ~= k then return false end
  for i = 1, k do
    if math.type(t[i]) ~= "integer" or t[i] < 0 then return false end
  end
  return true
end

local function valid_order(t) return counts(t, 3) end

-- A seasonal part (P, D or Q > 0) needs a period s >= 2.
local function valid_seasonal(t)
  if not counts(t, 4) then return false end
  return not ((t[1] > 0 or t[2] > 0 or t[3] > 0) and t[4] < 2)
end

local function order_param(self)
  local o, so = self.params.order, self.params.seasonal_order
  self._order = { o[1], o[2], o[3] }
  self._seasonal = { so[1], so[2], so[3], so[4] }
  local s = self._seasonal
  if s[4] < 1 then s[4] = 1 end
  local trend = self.params.trend
  if trend == nil then
    trend = (self._order[2] + self._seasonal[2] == 0) and "c" or "n"
  end
  self._trend = trend
end

-- y differenced by (1 - B)^d (1 - B^s)^D.
local function difference(self, y)
  local w = y
  if self._order[2] > 0 then w = stattools.diff(w, { differences = self._order[2] }) end
  if self._seasonal[2] > 0 then
    w = stattools.diff(w, { lag = self._seasonal[4], differences = self._seasonal[2] })
  end
  return w
end

local function fit(self, X)
  local y = common.series("fit", X)
  order_param(self)
  local L = layout(self)
  local o = self._order
  local ic = integration(o[2], self._seasonal[2], L.s)
  local K = #ic
  local n = y:rows()
  local nparams = L.const + L.p + L.q + L.P + L.Q + 1
  local need = K + L.p + L.s * L.P + L.q + L.s * L.Q + nparams + 1
  if n < need then
    fail("bad argument #1 to 'fit' (%s: the series has %d points, too short for order {%d, %d, "
      .. "%d} and seasonal_order {%d, %d, %d, %d}: it needs at least %d)", NAME, n, o[1], o[2],
      o[3], L.P, self._seasonal[2], L.Q, L.s, need)
  end
  local w = difference(self, y)
  local nw = w:rows()
  local function objective(x)
    local v = transform(self, L, totable(x))
    local ll = model_loglik(w, L, v)
    return ll and -ll / nw or math.huge
  end
  local x0 = luma.matrix(start(self, L, w))
  if objective(x0) == math.huge then x0:fill(0) end
  local res = luma.optim.minimize(function(x, want)
    local f = objective(x)
    if not want then return f end
    return f, luma.optim.approx_grad(objective, x)
  end, x0, { method = "lbfgsb", gtol = self.params.gtol, max_iter = self.params.max_iter })
  local v = transform(self, L, totable(res.x))
  v.has_const = L.const == 1
  local llf = model_loglik(w, L, v)
  if not llf then fail("%s.fit: the likelihood could not be evaluated at the optimum", NAME) end
  self.params_vector = luma.matrix(flat(v))
  local names = {}
  if v.has_const then names[1] = "const" end
  for i = 1, L.p do names[#names + 1] = "ar.L" .. i end
  for i = 1, L.q do names[#names + 1] = "ma.L" .. i end
  for i = 1, L.P do names[#names + 1] = "ar.S.L" .. i * L.s end
  for i = 1, L.Q do names[#names + 1] = "ma.S.L" .. i * L.s end
  names[#names + 1] = "sigma2"
  self.param_names = names
  self.const, self.sigma2 = v.const, v.sigma2
  self.arparams, self.maparams = luma.matrix(#v.ar > 0 and v.ar or {}), luma.matrix(#v.ma > 0 and v.ma or {})
  self.ar_poly = ar_product(v.ar, v.sar, L.s)
  self.ma_poly = ma_product(v.ma, v.sma, L.s)
  self.loglik = llf
  self.nobs = nw
  self.aic = -2 * llf + 2 * nparams
  self.bic = -2 * llf + nparams * math.log(nw)
  self.converged = res.converged
  self.n_iter = res.iterations
  self._integration = ic
  self._w = w
  self._tail = K > 0 and y:sub(n - K + 1, n):copy() or luma.zeros(0, 1)
end

-- The filter over the centred differenced series of y (a fitted model).
local function filtered(self, y)
  local res = loglik(difference(self, y) - self.const, self.ar_poly, self.ma_poly, self.sigma2, true)
  return res, #self._integration
end

-- The exact log-likelihood of X at the fitted parameters or at theta
-- (values in param_names order: const, ar, ma, sar, sma, sigma2).
local function loglikelihood(self, X, theta)
  local y = common.series("loglikelihood", X)
  if theta == nil then
    dcommon.check_fitted(self, "loglikelihood")
    return (filtered(self, y)).loglik
  end
  order_param(self)
  local L = layout(self)
  local t = totable(common.coefficients(NAME, "params", theta))
  local k = L.const + L.p + L.q + L.P + L.Q + 1
  if #t ~= k then
    fail("bad argument #2 to 'loglikelihood' (%s: params must hold %d values, got %d)", NAME, k, #t)
  end
  local ll = model_loglik(difference(self, y), L, split(L, t))
  if not ll then
    fail("%s.loglikelihood: params give a non-stationary AR part or sigma2 <= 0", NAME)
  end
  return ll
end

-- One-step predictions of y_t: Z a_t + mu + sum c_k y_{t-k} (NaN for the
-- first d + sD steps).
local function predict(self, X)
  local y = common.series("predict", X)
  local res, K = filtered(self, y)
  local n = y:rows()
  local out = luma.full(n, 1, 0 / 0)
  local pw = res.predicted_means:col(1) + self.const
  local ic = self._integration
  local yt = totable(y)
  for t = K + 1, n do
    local s = pw:get(t - K, 1)
    for k = 1, K do s = s + ic[k] * yt[t - k] end
    out:set(t, 1, s)
  end
  return out
end

-- Forecasts by propagating the augmented state (the ARMA state and the
-- last K values of y) from the filter's last prediction.
local function forecast(self, steps, opts)
  dcommon.check_fitted(self, "forecast")
  common.integer("forecast", "steps", steps, 1, 2147483647)
  opts = common.options("forecast", opts, { alpha = true }, 2)
  local alpha = opts.alpha or 0.05
  if type(alpha) ~= "number" or not (alpha > 0 and alpha < 1) then
    fail("forecast: alpha must be a number in (0, 1)")
  end
  local res = loglik(self._w - self.const, self.ar_poly, self.ma_poly, self.sigma2, true)
  local T, Q = state_space(self.ar_poly, self.ma_poly, self.sigma2)
  local r = T:rows()
  local nw = self._w:rows()
  local a = res.filtered_means:row(nw):t()
  local V = res.filtered_covariances:row(nw):reshape(r, r)
  local ic = self._integration
  local K = #ic
  local dim = r + K
  -- s_{n+1}: alpha = T a, lags = (y_n, ..., y_{n-K+1}) known exactly
  local mean = luma.zeros(dim, 1)
  local S = luma.zeros(dim, dim)
  mean:sub(1, r):assign(T * a)
  S:sub(1, r, 1, r):assign(T * V * T:t() + Q)
  for k = 1, K do mean:set(r + k, 1, self._tail:get(K + 1 - k, 1)) end
  -- G: alpha' = T alpha; y_t = Z alpha + mu + c . lags; lags shift
  local G = luma.zeros(dim, dim)
  G:sub(1, r, 1, r):assign(T)
  local H = luma.zeros(1, dim) -- y_t = H s_t + mu
  H:set(1, 1, 1)
  for k = 1, K do H:set(1, r + k, ic[k]) end
  if K > 0 then
    G:sub(r + 1, r + 1, 1, dim):assign(H)
    for k = 2, K do G:set(r + k, r + k - 1, 1) end
  end
  local g = luma.zeros(dim, 1)
  if K > 0 then g:set(r + 1, 1, self.const) end
  local Qa = luma.zeros(dim, dim)
  Qa:sub(1, r, 1, r):assign(Q)
  local out, var = luma.zeros(steps, 1), luma.zeros(steps, 1)
  for h = 1, steps do
    out:set(h, 1, (H * mean):get(1, 1) + self.const)
    var:set(h, 1, (H * S * H:t()):get(1, 1))
    mean = G * mean + g
    S = G * S * G:t() + Qa
  end
  local z = luma.dist.Normal{}:ppf(1 - alpha / 2)
  local half = var:sqrt() * z
  return out, luma.matrix.hstack{ out - half, out + half }, var
end

M.ARIMA = estimator.class{
  name = "luma.tsa.ARIMA",
  kind = "density",
  doc = "The seasonal ARIMA(p, d, q)(P, D, Q)_s model (Box and Jenkins, Time Series Analysis, "
    .. "chs. 4 and 9) fitted to the series X (n x 1) by exact Gaussian maximum likelihood: the "
    .. "differenced series in state-space form through the Kalman filter (Harvey 1989, sec. "
    .. "3.3), stationarity and invertibility enforced by the Monahan (1984) reparametrization, "
    .. "optimized by L-BFGS-B. Matches statsmodels' ARIMA with simple_differencing = True (the "
    .. "same model when d = D = 0). Fitted: params_vector and param_names (const, ar.L*, ma.L*, "
    .. "ar.S.L*, ma.S.L*, sigma2), const (the mean of the differenced series), arparams, "
    .. "maparams, sigma2, loglik, aic, bic, nobs, converged. forecast(steps [, {alpha}]) gives "
    .. "forecasts with prediction intervals.",
  params = {
    { name = "order", type = "table", default = { 1, 0, 0 }, check = valid_order,
      expect = "{p, d, q}: 3 integers >= 0", doc = "{p, d, q}" },
    { name = "seasonal_order", type = "table", default = { 0, 0, 0, 0 }, check = valid_seasonal,
      expect = "{P, D, Q, s}: 4 integers >= 0, the period s >= 2 when P, D or Q > 0",
      doc = "{P, D, Q, s}" },
    { name = "trend", type = "string", values = { "c", "n" }, nullable = true,
      doc = "\"c\" a mean (a drift when differenced) or \"n\" none; default \"c\" when d = D = 0" },
    { name = "enforce_stationarity", type = "boolean", default = true,
      doc = "keep the AR polynomials stationary" },
    { name = "enforce_invertibility", type = "boolean", default = true,
      doc = "keep the MA polynomials invertible" },
    { name = "gtol", type = "number", default = 1e-8, gt = 0,
      doc = "L-BFGS-B gradient tolerance (on the mean negative log-likelihood)" },
    { name = "max_iter", type = "integer", default = 500, min = 1, doc = "L-BFGS-B iterations" },
  },
  example = function()
    return M.ARIMA{ order = { 1, 0, 1 } }, luma.arange(1, 60):mul(0.5):sin() + luma.arange(1, 60):mul(1.7):cos() * 0.3
  end,
  method_docs = {
    predict = { signature = "est:predict(X) -> matrix",
      doc = "One-step-ahead predictions along the series X from the fitted model (NaN for the "
        .. "first d + s D steps). Returns an n x 1 matrix." },
    score_samples = { signature = "est:score_samples(X) -> matrix",
      doc = "The log-density of each differenced observation given the earlier ones (the "
        .. "innovations' terms of the exact likelihood). Returns an (n - d - s D) x 1 matrix." },
    loglikelihood = { signature = "est:loglikelihood(X [, params = nil]) -> number",
      doc = "The exact Gaussian log-likelihood of the (differenced) series X at the fitted "
        .. "parameters, or at params (a vector in param_names order; the model need not be "
        .. "fitted). Returns a number." },
    forecast = { signature = "est:forecast(steps [, opts]) -> mean, interval, variance",
      doc = "Forecasts steps values past the end of the fitted series with their (1 - alpha) "
        .. "prediction intervals, from the Kalman filter's last state propagated through the "
        .. "differencing. Returns steps x 1 means, steps x 2 intervals and steps x 1 variances.",
      params = { { name = "alpha", default = 0.05, doc = "1 - the intervals' coverage" } } },
  },
  fit = fit,
  predict = predict,
  score_samples = function(self, X)
    local res = filtered(self, common.series("score_samples", X))
    return res.loglik_steps
  end,
  score = function(self, X)
    return filtered(self, common.series("score", X)).loglik_steps:mean()
  end,
  forecast = forecast,
  loglikelihood = loglikelihood,
}

--- select_order(x [, opts]) -> best, table
function M.select_order(x, opts)
  x = common.series("select_order", x)
  opts = common.options("select_order", opts, { max_ar = true, max_ma = true, d = true, ic = true,
    trend = true }, 2)
  local max_ar, max_ma, d = opts.max_ar or 3, opts.max_ma or 2, opts.d or 0
  common.integer("select_order", "max_ar", max_ar, 0)
  common.integer("select_order", "max_ma", max_ma, 0)
  common.integer("select_order", "d", d, 0)
  local ic = opts.ic or "aic"
  if ic ~= "aic" and ic ~= "bic" then fail("select_order: ic must be \"aic\" or \"bic\"") end
  local grid = luma.full(max_ar + 1, max_ma + 1, 0 / 0)
  local best, best_v
  for p = 0, max_ar do
    for q = 0, max_ma do
      local ok, m = pcall(function()
        return M.ARIMA{ order = { p, d, q }, trend = opts.trend }:fit(x)
      end)
      if ok then
        local v = m[ic]
        grid:set(p + 1, q + 1, v)
        if not best_v or v < best_v then best, best_v = { p, d, q }, v end
      end
    end
  end
  if not best then fail("select_order: no order in the grid could be fitted") end
  -- labelled as statsmodels' arma_order_select_ic labels its DataFrame:
  -- one row per AR order p, one column per MA order q
  local columns, names = { p = luma.arange(0, max_ar) }, { "p" }
  for q = 0, max_ma do
    names[#names + 1] = "q" .. q
    columns["q" .. q] = grid:col(q + 1)
  end
  return best, luma.Table(columns, { columns = names })
end

luma.doc.set(M.select_order, { name = "luma.tsa.select_order",
  signature = "select_order(x [, opts]) -> order, table",
  doc = "Fits ARIMA(p, d, q) for p = 0..max_ar, q = 0..max_ma and picks the order of smallest "
    .. "AIC = -2 log L + 2 k (Akaike 1974) or BIC = -2 log L + k log n (Schwarz 1978). Returns "
    .. "the best {p, d, q} and the criteria as a luma.Table: column p (0..max_ar), then one "
    .. "column per MA order, q0 .. q<max_ma> (NaN where a fit failed); "
    .. "t:to_matrix(names) gives the bare grid.",
  params = { { name = "max_ar", default = 3, doc = "the largest p" },
    { name = "max_ma", default = 2, doc = "the largest q" },
    { name = "d", default = 0, doc = "the differencing order" },
    { name = "ic", default = "aic", doc = "\"aic\" or \"bic\"" },
    { name = "trend", default = "nil", doc = "as ARIMA's trend" } } })

return M
