-- luma.tsa (lua/luma/tsa/*.lua, src/ml/tsa/tsa.c).
--
-- STATSMODELS: statsmodels 0.13.5 (Debian /usr/bin/python3) on the series
-- built by series() below, which the script repeats with NumPy:
--   t = arange(1, 401); h = sin(12.9898 t) * 43758.5453; e = h - floor(h) - 0.5
--   x[0] = e[0]; x[i] = 0.6 x[i-1] + e[i] + 0.3 e[i-1]; x += 2
--   acovf(x, nlag=5, fft=False); acf(x, nlags=10, alpha=0.05, fft=False);
--   pacf(x, nlags=10, method="ywm", alpha=0.05); pacf(x, nlags=10, method="ols");
--   yule_walker(x, 3, method="mle") (sigma squared); burg(x, 3);
--   acorr_ljungbox(x, lags=5, boxpierce=True);
--   m = ARIMA(x, order=(1, 0, 1)); m.loglike([2.0, 0.5, 0.2, 0.09]); r = m.fit():
--     r.params, r.llf, r.aic, r.bic, r.get_forecast(3) (predicted_mean, conf_int(0.05));
--   ARIMA(x, order=(2, 0, 1), trend="n").loglike([0.5, 0.1, 0.2, 1.5]);
--   AutoReg(x, 2).fit(): params, sigma2;
--   y = cumsum(x - 2) + 0.05 t; s = SARIMAX(y, order=(1, 1, 1), trend="c",
--     simple_differencing=True).fit(disp=False): llf, get_forecast(1) (of the
--     differenced series: add y[-1]).
-- All printed with repr.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local tsa = luma.tsa

local function errors_with(text, fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  assert.truthy(tostring(err):find(text, 1, true), tostring(err))
end

local function series()
  local n = 400
  local t = luma.arange(1, n)
  local h = (t * 12.9898):sin() * 43758.5453
  local e = h - h:floor() - 0.5
  local x = luma.zeros(n, 1)
  local prev_x, prev_e = 0, 0
  for i = 1, n do
    local v = e:get(i, 1) + (i > 1 and 0.3 * prev_e + 0.6 * prev_x or 0)
    x:set(i, 1, v)
    prev_x, prev_e = v, e:get(i, 1)
  end
  return x + 2.0, t
end

local x, t = series()

local function col(list) return luma.matrix(list) end

describe("autocorrelation against statsmodels", function()
  it("acovf with the 1/n divisor", function()
    assert.matrix_near(col{ 0.182283893729607, 0.13362782004668378, 0.08019081311070582,
      0.05016552254351796, 0.03194992911004095, 0.02690065243255882 },
      tsa.acovf(x, { nlags = 5 }), 1e-12)
  end)

  it("acf and its Bartlett bands", function()
    local rho, ci = tsa.acf(x, { nlags = 10, alpha = 0.05 })
    assert.matrix_near(col{ 1.0, 0.7330752998117442, 0.43992264741534337, 0.2752054584588345,
      0.17527565632010397, 0.14757558598381834, 0.14858665121070777, 0.15769150407028146,
      0.17931747387227898, 0.1925384776500254, 0.1724228332062968 }, rho, 1e-12)
    assert.matrix_near({ { 1.0, 1.0 }, { 0.6350771005847415, 0.8310734990387469 },
      { 0.2987644549989794, 0.5810808398317073 } }, ci:sub(1, 3), 1e-10)
    assert.matrix_near({ { 0.004086005539877535, 0.3407596608727161 } }, ci:sub(11, 11), 1e-10)
  end)

  it("pacf: Durbin-Levinson (ywm) and the regression definition agree with statsmodels", function()
    local ywm = col{ 1.0, 0.7330752998117446, -0.2107147002534317, 0.08872995326960481,
      -0.026973097677633576, 0.09152291718032521, 0.02479105909221527, 0.053789329487447725,
      0.06463548554766584, 0.037637942868172396, -0.01191688158482661 }
    local p, ci = tsa.pacf(x, { nlags = 10, alpha = 0.05 })
    assert.matrix_near(ywm, p, 1e-12)
    assert.matrix_near(ywm, tsa.pacf(x, { nlags = 10, method = "regression" }), 1e-12)
    assert.matrix_near({ { -0.3087128994804344, -0.112716501026429 } }, ci:sub(3, 3), 1e-10)
    assert.matrix_near(col{ 1.0, 0.7330984075251706, -0.21635579693405688, 0.09234848750487205,
      -0.028976839693721328, 0.0943357959182091, 0.02765890116864482, 0.050714054302492984,
      0.06690191564712246, 0.03795548474568722, -0.007365335751944562 },
      tsa.pacf(x, { nlags = 10, method = "ols" }), 1e-10)
  end)

  it("Yule-Walker and Burg", function()
    local phi, s2 = tsa.yule_walker(x, 3)
    assert.matrix_near(col{ 0.9062417473814768, -0.2894665303436496, 0.08872995326960481 }, phi, 1e-12)
    assert.near(0.07994615655728311, s2, 1e-12)
    -- the PACF at lag 3 is the last Yule-Walker coefficient of order 3
    assert.near(phi:get(3, 1), tsa.pacf(x, { nlags = 3 }):get(4, 1), 1e-14)
    phi, s2 = tsa.burg(x, 3)
    assert.matrix_near(col{ 0.9125165739823949, -0.2986661616297402, 0.09226582035720844 }, phi, 1e-10)
    assert.near(0.07952497070900584, s2, 1e-12)
  end)

  it("Ljung-Box and Box-Pierce", function()
    local Q, P = tsa.ljung_box(x, { lags = 5 })
    assert.matrix_near(col{ 216.57599686017008, 294.76678897573555, 325.44355858273406,
      337.91837210876855, 346.7841731604585 }, Q, 1e-12)
    -- p-values relative to statsmodels' (they are tiny)
    local ref = { 5.049775693932797e-49, 9.822115793499093e-65, 3.0926832513582815e-70,
      7.11709023746197e-72, 8.618524065000964e-73 }
    for k = 1, 5 do assert.near(1, P:get(k, 1) / ref[k], 1e-8) end
    Q, P = tsa.box_pierce(x, { lags = 5 })
    assert.near(343.6677938181805, Q:get(5, 1), 1e-8)
    assert.near(1, P:get(5, 1) / 4.0392375358075375e-72, 1e-8)
    -- white noise passes: the hash noise alone
    local h = (t * 12.9898):sin() * 43758.5453
    local _, Pw = tsa.ljung_box(h - h:floor(), { lags = 10 })
    assert.is_true(Pw:get(10, 1) > 0.01)
  end)
end)

describe("ARIMA against statsmodels (exact likelihood)", function()
  it("gives statsmodels' exact log-likelihood at fixed parameters", function()
    local m = tsa.ARIMA{ order = { 1, 0, 1 } }
    assert.near(-72.6550643931345, m:loglikelihood(x, { 2.0, 0.5, 0.2, 0.09 }), 1e-9)
    assert.near(-522.4138745448147,
      tsa.ARIMA{ order = { 2, 0, 1 }, trend = "n" }:loglikelihood(x, { 0.5, 0.1, 0.2, 1.5 }), 1e-7)
  end)

  it("fits ARIMA(1,0,1) to statsmodels' maximum likelihood within 1e-6", function()
    local m = tsa.ARIMA{ order = { 1, 0, 1 } }:fit(x)
    assert.near(-61.26691382918558, m.loglik, 1e-6)
    assert.is_true(m.loglik >= -61.26691382918558 - 1e-9) -- never a worse optimum
    assert.matrix_near(col{ 2.0405390868057403, 0.5810827298094736, 0.34511187460510406,
      0.07935392650167886 }, m.params_vector, 1e-3)
    assert.same({ "const", "ar.L1", "ma.L1", "sigma2" }, m.param_names)
    assert.near(130.53382765837117, m.aic, 1e-5)
    assert.near(146.4996858468031, m.bic, 1e-5)
    local f, ci = m:forecast(3)
    assert.matrix_near(col{ 1.881026330217771, 1.947848978768169, 1.9866784658009333 }, f, 1e-4)
    assert.matrix_near({ { 1.3289078276147632, 2.433144832820779 }, { 1.1952977996209904,
      2.7004001579153476 }, { 1.1775863257663812, 2.7957706058354854 } }, ci, 1e-4)
  end)

  it("fits ARIMA(1,1,1) with drift as statsmodels' SARIMAX with simple differencing", function()
    local y = (x - 2.0):cumsum(1) + t * 0.05
    local m = tsa.ARIMA{ order = { 1, 1, 1 }, trend = "c" }:fit(y)
    assert.near(-60.373087487706286, m.loglik, 1e-6)
    local f, ci = m:forecast(3)
    local last = y:get(400, 1)
    assert.near(-0.06975427815885563, f:get(1, 1) - last, 1e-4)
    assert.matrix_near({ { -0.6208458731737596, 0.4813373168560484 } }, ci:sub(1, 1) - last, 1e-4)
    -- the integrated forecast's variance grows, and its mean follows the drift
    local _, _, var = m:forecast(20)
    for h = 2, 20 do assert.is_true(var:get(h, 1) > var:get(h - 1, 1)) end
  end)

  it("forecasts a seasonal ARIMA with seasonal differencing", function()
    local n = 120
    local s = luma.arange(1, n)
    local noise = tsa.arma_generate({ 0.5 }, {}, n, { seed = 3, sigma2 = 0.01 })
    local y = (s * (2 * math.pi / 12)):sin() * 3 + noise
    local m = tsa.ARIMA{ order = { 1, 0, 0 }, seasonal_order = { 0, 1, 0, 12 } }:fit(y)
    assert.same({ "ar.L1", "sigma2" }, m.param_names)
    local f = m:forecast(12)
    local truth = (luma.arange(n + 1, n + 12) * (2 * math.pi / 12)):sin() * 3
    assert.is_true((f - truth):abs():max() < 0.5)
    -- one-step predictions equal the differencing identity on the training series
    local pred = m:predict(y)
    assert.is_true(pred:get(12, 1) ~= pred:get(12, 1)) -- NaN before a season has passed
    assert.is_true((pred:sub(13, n) - y:sub(13, n)):abs():mean() < 0.2)
  end)

  it("selects the order by AIC/BIC over a grid", function()
    local z = tsa.arma_generate({ 0.7, -0.3 }, {}, 600, { seed = 8 })
    local best, grid = tsa.select_order(z, { max_ar = 3, max_ma = 1, ic = "bic" })
    assert.same({ 2, 0, 0 }, best)
    -- labelled: one row per AR order p, one column per MA order q
    assert.same({ "p", "q0", "q1" }, grid:names())
    assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 3 } }, grid.p, 0)
    local bic = grid:to_matrix({ "q0", "q1" })
    assert.equal(bic:get(3, 1), bic:min())
    assert.equal(tsa.ARIMA{ order = { 2, 0, 1 } }:fit(z).bic, grid.q1:get(3, 1))
    local text = tostring(grid)
    assert.matches("^%s*p%s+q0%s+q1\n", text)
  end)
end)

describe("AutoReg", function()
  it("OLS equals statsmodels' AutoReg", function()
    local m = tsa.AutoReg{ lags = 2 }:fit(x)
    assert.near(0.6570008126144541, m.intercept, 1e-10)
    assert.matrix_near(col{ 0.8940997564918014, -0.2163557969340571 }, m.coef, 1e-10)
    assert.near(0.08007776949147166, m.sigma2, 1e-12)
    -- its lag-2 coefficient is the OLS PACF at lag 2 (same regression)
    assert.near(m.coef:get(2, 1), tsa.pacf(x, { nlags = 2, method = "ols" }):get(3, 1), 1e-12)
  end)

  it("Yule-Walker and Burg fits recover a simulated AR(2)", function()
    local z = tsa.arma_generate({ 0.5, 0.3 }, {}, 20000, { seed = 4 })
    for _, method in ipairs{ "yule_walker", "burg", "ols" } do
      local m = tsa.AutoReg{ lags = 2, method = method }:fit(z)
      -- standard errors are about 0.007 at n = 20000
      assert.matrix_near(col{ 0.5, 0.3 }, m.coef, 0.03)
      assert.near(1.0, m.sigma2, 0.04)
    end
    local m = tsa.AutoReg{ lags = 2, method = "yule_walker" }:fit(z)
    assert.matrix_near(m.coef, (tsa.yule_walker(z, 2)), 0)
    local f = m:forecast(3)
    local a, b = m.coef:get(1, 1), m.coef:get(2, 1)
    local z1, z0 = z:get(20000, 1), z:get(19999, 1)
    local f1 = m.intercept + a * z1 + b * z0
    assert.near(f1, f:get(1, 1), 1e-12)
    assert.near(m.intercept + a * f1 + b * z1, f:get(2, 1), 1e-12)
  end)
end)

describe("simulation against the theoretical moments (Monte Carlo)", function()
  it("MA(2): gamma(h) = sigma2 sum_{j=0}^{q-h} theta_j theta_{j+h}, zero beyond q", function()
    local th = { 0.6, -0.4 }
    local g = tsa.arma_acovf({}, th, 4, 2.0)
    assert.matrix_near(col{ 2 * (1 + 0.36 + 0.16), 2 * (0.6 - 0.24), 2 * -0.4, 0, 0 }, g, 1e-14)
    local z = tsa.arma_generate({}, th, 200000, { seed = 2, sigma2 = 2.0 })
    -- sampling sd of these estimates is about 0.01 at n = 200000
    assert.matrix_near(g, tsa.acovf(z, { nlags = 4 }), 0.03)
  end)

  it("warn when ar[1] is 1 (statsmodels' lag polynomials) and say what to write", function()
    local warnings = {}
    local saved = _G.warn
    _G.warn = function(msg) warnings[#warnings + 1] = msg end
    local ok, z = pcall(tsa.arma_generate, { 1, -0.6, 0.3 }, { 1 }, 500, { seed = 1 })
    local ok2 = pcall(tsa.arma_acovf, { 1 }, { 0.4 }, 2)
    tsa.arma_generate({ 0.6, -0.3 }, {}, 10, { seed = 1 }) -- the coefficients: silent
    _G.warn = saved
    assert.is_true(ok)
    assert.is_false(ok2) -- phi_1 = 1 alone is a unit root: an error, after the warning
    assert.equal(2, #warnings)
    assert.equal("luma.tsa.arma_generate: ar[1] is 1, as in statsmodels' lag polynomials (ar = "
      .. "{1, -phi_1, ...}, ma = {1, theta_1, ...}); Luma takes the coefficients themselves, "
      .. "X_t = sum_i ar_i X_{t-i} + w_t + sum_j ma_j w_{t-j}, so ar[1] = 1 is phi_1 = 1. For "
      .. "statsmodels' polynomials write ar = {0.6, -0.3}, ma = {}", warnings[1])
    assert.truthy(warnings[2]:find("^luma.tsa.arma_acovf: ar%[1%] is 1"))
    assert.truthy(warnings[2]:find("write ar = {}, ma = (your ma without its leading 1)", 1, true))
    -- what was simulated is phi = (1, -0.6, 0.3) with theta_1 = 1, not the AR(2) meant: its
    -- lag-1 autocorrelation (0.786 on this draw) is far from the AR(2)'s phi_1 / (1 - phi_2)
    -- = 0.6 / 1.3 = 0.46 (the sampling sd at n = 500 is about 0.05)
    assert.is_true(tsa.acf(z, { nlags = 1 }):get(2, 1) > 0.7)
  end)

  it("AR(1): Var = sigma2 / (1 - phi^2), gamma(h) = phi^h Var", function()
    local g = tsa.arma_acovf({ 0.8 }, {}, 3)
    assert.near(1 / (1 - 0.64), g:get(1, 1), 1e-12)
    assert.near(0.8 ^ 3 / 0.36, g:get(4, 1), 1e-12)
    local z = tsa.arma_generate({ 0.8 }, {}, 200000, { seed = 6 })
    assert.matrix_near(g, tsa.acovf(z, { nlags = 3 }), 0.05)
    -- ARMA(1,1) closed form: gamma(0) = sigma2 (1 + 2 phi theta + theta^2) / (1 - phi^2)
    assert.near((1 + 2 * 0.6 * 0.3 + 0.09) / (1 - 0.36), tsa.arma_acovf({ 0.6 }, { 0.3 }, 0):get(1, 1), 1e-12)
  end)

  it("random walk with drift: mean x0 + delta t, Var t sigma2, cov min(s, t) sigma2", function()
    local paths, steps = 4000, 30
    local rng = luma.random.Generator(12)
    local P = luma.zeros(paths, steps)
    for i = 1, paths do
      P:row(i):assign(tsa.random_walk(steps, { drift = 0.2, sigma2 = 0.5, x0 = 1, rng = rng }):t())
    end
    local mean = P:mean(1)
    local C = P - mean
    local cov = (C:t() * C) / paths
    for _, s in ipairs{ 1, 10, 30 } do
      assert.near(1 + 0.2 * s, mean:get(1, s), 4 * math.sqrt(0.5 * s / paths))
      assert.near(0.5 * s, cov:get(s, s), 0.1 * 0.5 * s)
    end
    assert.near(0.5 * 10, cov:get(10, 30), 0.1 * 0.5 * 10)
  end)
end)

-- issue 28: a length beyond a matrix's rows failed inside process.lua, in
-- the generator's normal()
describe("simulation lengths", function()
  it("are refused beyond a matrix's rows, burn-in included", function()
    local ok, err = pcall(tsa.arma_generate, { 1, -0.5 }, { 1 }, 1 << 40)
    assert.is_false(ok)
    assert.equal("arma_generate: n must be an integer in 1..2147483647, got 1099511627776", err)
    assert.error_matches(function()
      tsa.arma_generate({ 0.5 }, {}, 2147483647 - 10, { burnin = 11 })
    end, "^arma_generate: burnin must be an integer in 0..10, got 11$")
  end)
end)

describe("detrending and differencing", function()
  it("removes polynomial trends exactly", function()
    local y = 1 + t * 2 + t:pow(2) * 0.5
    local r, trend = tsa.detrend(y, { order = 2 })
    assert.is_true(r:abs():max() < 1e-6)
    assert.matrix_near(y, trend, 1e-9)
    local r1 = tsa.detrend(3 + t * 0.1)
    assert.is_true(r1:abs():max() < 1e-10)
  end)

  it("kernel smoothing keeps a constant and follows a slow trend", function()
    local r, trend = tsa.detrend(luma.full(50, 1, 4), { method = "kernel", bandwidth = 3 })
    assert.matrix_near(luma.full(50, 1, 4), trend, 1e-12)
    assert.is_true(r:abs():max() < 1e-12)
    local slow = (t * 0.01):sin() + (t * 2.1):sin() * 0.1
    local _, tr = tsa.detrend(slow, { method = "kernel", bandwidth = 5 })
    assert.is_true((tr - (t * 0.01):sin()):sub(20, 380):abs():max() < 0.05)
  end)

  it("differences, seasonal differences and their inverses", function()
    local y = t:pow(2)
    assert.matrix_near(luma.full(398, 1, 2), tsa.diff(y, { differences = 2 }), 1e-9)
    local seasonal = (t * (2 * math.pi / 12)):sin() * 5 + t * 0.3
    assert.matrix_near(luma.full(388, 1, 3.6), tsa.diff(seasonal, { lag = 12 }), 1e-9)
    for _, o in ipairs{ { lag = 1, differences = 1 }, { lag = 1, differences = 2 }, { lag = 12, differences = 1 },
        { lag = 4, differences = 2 } } do
      local d = tsa.diff(x, o)
      local back = tsa.undiff(d, x:sub(1, o.lag * o.differences), o)
      assert.matrix_near(x, back, 1e-11)
    end
  end)
end)

describe("luma.tsa bad input", function()
  it("rejects non-finite observations", function()
    local bad = x:copy()
    bad:set(7, 1, 0 / 0)
    errors_with("bad argument #1 to 'acf' (x has a non-finite element, nan at 7)", function() tsa.acf(bad) end)
    bad:set(7, 1, math.huge)
    errors_with("x has a non-finite element, inf at 7", function() tsa.ARIMA{ order = { 1, 0, 0 } }:fit(bad) end)
  end)

  it("rejects an ARIMA order too large for the series", function()
    errors_with("ARIMA: the series has 20 points, too short for order {5, 1, 5}",
      function() tsa.ARIMA{ order = { 5, 1, 5 } }:fit(x:sub(1, 20)) end)
    errors_with("too short for order {1, 0, 0} and seasonal_order {1, 1, 0, 12}",
      function() tsa.ARIMA{ order = { 1, 0, 0 }, seasonal_order = { 1, 1, 0, 12 } }:fit(x:sub(1, 25)) end)
  end)

  it("rejects a non-stationary AR fit when enforce_stationarity is set", function()
    local e = tsa.arma_generate({}, {}, 200, { seed = 1 })
    local z = luma.zeros(200, 1)
    local prev = 1
    for i = 1, 200 do prev = 1.05 * prev + e:get(i, 1); z:set(i, 1, prev) end
    errors_with("AutoReg.fit: the fitted AR(1) coefficients are not stationary",
      function() tsa.AutoReg{ lags = 1, enforce_stationarity = true }:fit(z) end)
    -- without the flag the explosive fit is returned
    assert.is_true(tsa.AutoReg{ lags = 1 }:fit(z).coef:get(1, 1) > 1)
    errors_with("ARIMA.loglikelihood: params give a non-stationary AR part",
      function() tsa.ARIMA{ order = { 1, 0, 0 } }:loglikelihood(x, { 0, 1.2, 1 }) end)
  end)

  it("rejects wrong shapes", function()
    errors_with("bad argument #1 to 'acovf' (x must be a vector, got 10 x 2)",
      function() tsa.acovf(luma.zeros(10, 2)) end)
    errors_with("bad argument #1 to 'fit' (x must be a vector, got 400 x 2)",
      function() tsa.ARIMA{}:fit(luma.matrix.hstack{ x, x }) end)
    errors_with("params must hold 4 values, got 3",
      function() tsa.ARIMA{ order = { 1, 0, 1 } }:loglikelihood(x, { 1, 2, 3 }) end)
    errors_with("head must hold the first lag * differences = 12 values",
      function() tsa.undiff(x, x:sub(1, 3), { lag = 12 }) end)
  end)

  it("checks order and seasonal_order at construction, showing the value", function()
    errors_with("luma.tsa.ARIMA: parameter 'order' must be {p, d, q}: 3 integers >= 0, got "
      .. "{1, 0}", function() tsa.ARIMA{ order = { 1, 0 } } end)
    errors_with("parameter 'order' must be {p, d, q}: 3 integers >= 0, got {-1, 0, 0}",
      function() tsa.ARIMA{ order = { -1, 0, 0 } } end)
    errors_with("parameter 'order' must be {p, d, q}: 3 integers >= 0, got {1, 0.5, 0}",
      function() tsa.ARIMA{}:set_params{ order = { 1, 0.5, 0 } } end)
    errors_with("parameter 'seasonal_order' must be {P, D, Q, s}: 4 integers >= 0, the period "
      .. "s >= 2 when P, D or Q > 0, got {1, 0, 0, 1}",
      function() tsa.ARIMA{ seasonal_order = { 1, 0, 0, 1 } } end)
    -- the value kept is a copy: changing the caller's table later cannot undo the check
    local order = { 1, 0, 0 }
    local m = tsa.ARIMA{ order = order }
    order[1] = -1
    assert.same({ 1, 0, 0 }, m.params.order)
    assert.truthy(tostring(luma.doc.get(tsa.ARIMA).params[1].type):find("3 integers >= 0", 1, true))
  end)

  it("rejects a pacf lag beyond half the series", function()
    errors_with("pacf: nlags must be below n / 2 = 10", function() tsa.pacf(x:sub(1, 20), { nlags = 12 }) end)
  end)
end)
