-- luma.linear: Perceptron, HuberRegressor, LADRegression / QuantileRegressor,
-- BayesianLogisticRegression, MixtureLinearRegression (lua/luma/linear/robust.lua).
--
-- References were computed with scikit-learn 1.2.1 / SciPy under Debian's
-- /usr/bin/python3, on exactly the matrices used here (Luma's diabetes
-- written with luma.io.write_csv and read back with numpy.loadtxt; it
-- differs from sklearn's load_diabetes by 3e-16).  How each number was
-- obtained is recorded next to it.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local L = luma.linear

local Xdb, ydb = luma.datasets.load("diabetes")
local Xir, yir = luma.datasets.load("iris")

-- Linearly separable points in the plane: labels by the side of the line
-- x1 + x2 = 0.5, with the points closer than 0.1 to it dropped (so the
-- margin of z* = (1, 1, -0.5)/sqrt(2) is at least 0.1).
local function separable(n, seed)
  local g = luma.random.Generator(seed)
  local P = g:uniform(3 * n, 2, -2, 2)
  local keep = {}
  for i = 1, P:rows() do
    local t = (P:get(i, 1) + P:get(i, 2) - 0.5) / math.sqrt(2)
    if math.abs(t) >= 0.1 and #keep < n then keep[#keep + 1] = i end
  end
  local X = P:take(luma.matrix(keep))
  local y = ((X:col(1) + X:col(2)):gt(0.5)) * 2 + 3 -- labels 3 and 5
  return X, y
end

describe("luma.linear.Perceptron", function()
  it("matches scikit-learn's Perceptron where the definitions coincide", function()
    -- Perceptron(shuffle=False, eta0=1, alpha=0, tol=None, max_iter=20).fit(X, y) on
    -- load_iris: its update (w += eta y x when y (w.x + b) <= 0, one sample at a
    -- time, one-vs-rest for three classes) is notes 002 L6 with erratum X7.
    local m = L.Perceptron{ shuffle = false, max_iter = 20 }:fit(Xir, yir)
    assert.matrix_near({ { 1.3, 8.3, -17.8 }, { 4.1, -8.4, -5.1 }, { -5.2, -12.2, 26.7 },
      { -2.2, -14.3, 21.2 } }, m.coef, 1e-12)
    assert.matrix_near({ { 1, -2, -1 } }, m.intercept, 1e-12)
    assert.near(0.6666666666666666, m:score(Xir, yir), 1e-15)
    -- the first two classes: one binary perceptron, class 1 is +1
    local Xb, yb = Xir:sub(1, 100, 1, 4):copy(), yir:sub(1, 100, 1, 1):copy()
    local b = L.Perceptron{ shuffle = false, max_iter = 20 }:fit(Xb, yb)
    assert.matrix_near({ { -1.3 }, { -4.1 }, { 5.2 }, { 2.2 } }, b.coef, 1e-12)
    assert.near(-1, b.intercept, 1e-12)
    assert.is_true(b.converged)
    assert.matrix_near(yb, b:predict(Xb))
  end)

  it("separates separable data within the perceptron mistake bound", function()
    local X, y = separable(200, 7)
    -- Novikoff: at most (R / gamma)^2 updates, R = max |x~_i|, gamma the margin
    -- of the unit separator z* = (1, 1, -0.5)/sqrt(2) on x~ = (x, 1).
    local Xa = luma.hstack{ X, luma.ones(X:rows(), 1) }
    local R = Xa:pow(2):sum(2):sqrt():max()
    local s = (y - 4) -- +-1
    local gamma = (Xa * (luma.matrix{ 1, 1, -0.5 } / math.sqrt(1 + 1 + 0.25))):mul(s):min()
    assert.is_true(gamma > 0)
    for _, rule in ipairs{ "single", "batch" } do
      for _, rate in ipairs{ "constant", "inverse" } do
        local m = L.Perceptron{ rule = rule, learning_rate = rate, seed = 1, max_iter = 100000 }:fit(X, y)
        assert.is_true(m.converged)
        assert.equal(0, m.training_errors)
        assert.equal(1, m:score(X, y))
        assert.matrix_near({ { 3 }, { 5 } }, m.classes)
        if rule == "single" and rate == "constant" then
          assert.is_true(m.n_updates <= (R / gamma) ^ 2)
        end
      end
    end
  end)

  it("keeps the best weights seen with pocket on non-separable data", function()
    -- versicolor against virginica is not linearly separable
    local X, y = Xir:sub(51, 150, 1, 4):copy(), yir:sub(51, 150, 1, 1):copy()
    local plain = L.Perceptron{ shuffle = false, max_iter = 50 }:fit(X, y)
    local pocket = L.Perceptron{ shuffle = false, max_iter = 50, pocket = true }:fit(X, y)
    assert.is_false(plain.converged)
    -- the pocket sees every weight vector of the plain run: in particular its
    -- state after each epoch (the plain run stopped after t epochs)
    local best_seen = plain.training_errors
    for t = 1, 50 do
      local e = L.Perceptron{ shuffle = false, max_iter = t }:fit(X, y).training_errors
      best_seen = math.min(best_seen, e)
    end
    assert.is_true(pocket.training_errors <= best_seen)
    assert.is_true(pocket.training_errors < plain.training_errors)
    assert.near(1 - pocket.training_errors / 100, pocket:score(X, y), 1e-15)
    -- the batch rule too
    local batch = L.Perceptron{ rule = "batch", max_iter = 200, pocket = true }:fit(X, y)
    local batch_plain = L.Perceptron{ rule = "batch", max_iter = 200 }:fit(X, y)
    assert.is_true(batch.training_errors <= batch_plain.training_errors)
  end)

  it("gives the same model for the same seed", function()
    local X, y = Xir:sub(51, 150, 1, 4):copy(), yir:sub(51, 150, 1, 1):copy()
    local a = L.Perceptron{ seed = 42, max_iter = 30 }:fit(X, y)
    local b = L.Perceptron{ seed = 42, max_iter = 30 }:fit(X, y)
    local c = L.Perceptron{ seed = 43, max_iter = 30 }:fit(X, y)
    assert.matrix_near(a.coef, b.coef, 0)
    assert.equal(a.intercept, b.intercept)
    assert.is_false(a.coef:equal(c.coef))
    a:fit(X, y) -- refitting gives the same model too
    assert.matrix_near(b.coef, a.coef, 0)
  end)

  it("rejects bad input", function()
    errors_with("single class", function() L.Perceptron{}:fit(Xir:sub(1, 10), luma.ones(10, 1)) end)
    errors_with("rule", function() L.Perceptron{ rule = "online" } end)
    errors_with("X has a non%-finite element, nan at row 3, column 2", function()
      local X = Xir:copy(); X:set(3, 2, 0 / 0); L.Perceptron{}:fit(X, yir)
    end)
    errors_with("150 rows but y has 149", function() L.Perceptron{}:fit(Xir, yir:sub(1, 149)) end)
  end)
end)

describe("luma.linear.HuberRegressor", function()
  -- The exact optimum of scikit-learn's objective (_huber_loss_and_gradient):
  -- SciPy L-BFGS-B with ftol=0, gtol=1e-12 located the outlier set; with it
  -- fixed the stationarity conditions are linear in (w, b) given sigma and
  -- sigma^2 = sum_inliers r^2 / (N - |outliers| eps^2), iterated to a fixed
  -- point; the result has gradient 3.5e-13 and the same outlier set (no
  -- residual within 0.095 of eps sigma).  sklearn's HuberRegressor(tol=1e-10,
  -- max_iter=10000) stops on SciPy's relative-decrease test (factr 1e7) at
  -- gradient 1e-2: its coef agree with these to 1e-3 relative only.
  it("reaches scikit-learn's Huber optimum on diabetes", function()
    local m = L.HuberRegressor{ max_iter = 10000, tol = 1e-8 }:fit(Xdb, ydb)
    assert.matrix_near({ { -29.109169528549277, -281.6898634884224, 530.1334378039826,
      335.61179213647887, -457.9939748273477, 186.5839996308367, -61.027982034113954,
      129.85353887129511, 670.066495888148, 45.06407860541605 } }, m.coef:t(), 2e-5)
    assert.near(151.18151707500502, m.intercept, 1e-6 * 151)
    assert.near(37.39239444691802, m.scale, 1e-7 * 37)
    assert.equal(159, m.outliers:sum())
    assert.is_true(m.n_iter > 0)
  end)

  it("matches without an intercept and with a strong penalty", function()
    -- same procedure, HuberRegressor(epsilon=2, alpha=1, fit_intercept=False)
    local m = L.HuberRegressor{ epsilon = 2, alpha = 1, fit_intercept = false, tol = 1e-10,
      max_iter = 1000 }:fit(Xdb, ydb)
    assert.matrix_near({ { 1.7377018967831555, 0.3714582340039182, 5.485151133387046,
      4.124912132412844, 1.9466779173038489, 1.5854183269905686, -3.677933194130159,
      3.9914794377857508, 5.282169674142733, 3.554889303713355 } }, m.coef:t(), 1e-7)
    assert.equal(0, m.intercept)
    assert.near(170.20233933502297, m.scale, 1e-9 * 170)
    assert.equal(1, m.outliers:sum())
  end)

  it("ignores gross outliers that drag least squares away", function()
    local g = luma.random.Generator(3)
    local X = g:normal(80, 2)
    local y = X * luma.matrix{ 2, -1 } + 0.5 + g:normal(80, 1, 0, 0.1)
    for i = 1, 8 do y:set(i * 10, 1, y:get(i * 10, 1) + 50) end -- 10% gross outliers
    local m = L.HuberRegressor{ tol = 1e-9, max_iter = 1000 }:fit(X, y)
    assert.matrix_near({ { 2 }, { -1 } }, m.coef, 0.05)
    assert.near(0.5, m.intercept, 0.05)
    for i = 1, 8 do assert.equal(1, m.outliers:get(i * 10, 1)) end
    local ls = L.LinearRegression{}:fit(X, y)
    assert.is_true(math.abs(ls.intercept - 0.5) > 1) -- least squares is dragged away
  end)

  it("rejects bad input", function()
    errors_with("epsilon", function() L.HuberRegressor{ epsilon = 1 } end)
    errors_with("alpha", function() L.HuberRegressor{ alpha = -1 } end)
    errors_with("NaN or Inf", function()
      local y = ydb:copy(); y:set(5, 1, math.huge); L.HuberRegressor{}:fit(Xdb, y)
    end)
    errors_with("442 rows but y has 10", function() L.HuberRegressor{}:fit(Xdb, ydb:sub(1, 10)) end)
  end)
end)

describe("luma.linear.LADRegression and QuantileRegressor", function()
  local X, y = Xdb:sub(1, 150, 1, 3):copy(), ydb:sub(1, 150, 1, 1):copy()

  it("solves the full diabetes problem exactly (442 x 10, an LP of 904 columns)", function()
    -- QuantileRegressor(quantile=0.5, alpha=0, solver="highs").fit(X, y) on all of diabetes
    local m = L.LADRegression{}:fit(Xdb, ydb)
    assert.near(465.86802885340296, m.coef:get(3, 1), 1e-9 * 466)
    assert.near(151.85445252616748, m.intercept, 1e-9 * 152)
  end)

  it("solves least absolute deviations exactly (scikit-learn's QuantileRegressor, highs)", function()
    -- QuantileRegressor(quantile=0.5, alpha=0, solver="highs").fit(X[:150, :3], y[:150])
    local m = L.LADRegression{}:fit(X, y)
    assert.matrix_near({ { -150.09020647141477, -180.5187414695748, 983.5642789897101 } }, m.coef:t(), 1e-9)
    assert.near(141.9322945120741, m.intercept, 1e-9 * 142)
    -- Laplace ML scale (notes 001 §A): mean |r|
    local r = y - m:predict(X)
    assert.near(r:abs():mean(), m.scale, 1e-12)
    assert.near(51.26873849485653, m.scale, 1e-9)
    assert.near(25.634369247428264, m.objective, 1e-9) -- mean |r| / 2
    -- the LP optimum: no other line does better, e.g. least squares
    local ls = L.LinearRegression{}:fit(X, y)
    assert.is_true((y - ls:predict(X)):abs():mean() > m.scale)
  end)

  it("fits quantiles with an l1 penalty and sample weights like scikit-learn", function()
    -- QuantileRegressor(quantile=q, alpha=a, fit_intercept=fi, solver="highs");
    -- objective = mean pinball + alpha |w|_1 computed in NumPy
    local cases = {
      { 0.8, 0, true, { 63.34518115391208, -365.99770075848966, 1114.0087132251613 }, 211.96905384458813, 17.666825836216837 },
      { 0.8, 0.002, true, { 0, -206.31876338980004, 1005.1226550400887 }, 206.19400452488685, 20.377549503526442 },
      { 0.3, 0.001, false, { -787.4254701947578, -16.350798459244576, 0 }, 0, 43.04337809437436 },
    }
    for _, c in ipairs(cases) do
      local m = L.QuantileRegressor{ quantile = c[1], alpha = c[2], fit_intercept = c[3] }:fit(X, y)
      assert.matrix_near({ c[4] }, m.coef:t(), 1e-9)
      assert.near(c[5], m.intercept, 1e-9 * 200)
      assert.near(c[6], m.objective, 1e-9)
    end
    -- .fit(X, y, sample_weight=np.linspace(0.5, 2, 150)) with quantile 0.5, alpha 0.001
    local w = luma.linspace(0.5, 2, 150)
    local m = L.LADRegression{ alpha = 0.001 }:fit(X, y, w)
    assert.matrix_near({ { 0, -215.0610838724196, 876.2607761887954 } }, m.coef:t(), 1e-9)
    assert.near(143.00402212166915, m.intercept, 1e-9 * 143)
  end)

  it("rejects bad input", function()
    errors_with("quantile", function() L.QuantileRegressor{ quantile = 1 } end)
    errors_with("alpha", function() L.LADRegression{ alpha = -0.1 } end)
    errors_with("X has a non%-finite element, nan at row 1, column 1", function()
      local Xn = X:copy(); Xn:set(1, 1, 0 / 0); L.LADRegression{}:fit(Xn, y)
    end)
    errors_with("150 rows but y has 149", function() L.LADRegression{}:fit(X, y:sub(1, 149)) end)
    errors_with("sample_weight", function() L.LADRegression{}:fit(X, y, luma.ones(150, 1) * -1) end)
  end)
end)

describe("luma.linear.BayesianLogisticRegression", function()
  local Xbc, ybc = luma.datasets.load("breast_cancer")
  Xbc = luma.preprocessing.StandardScaler{}:fit_transform(Xbc):sub(nil, nil, 1, 5):copy()

  it("has the MAP of LogisticRegression{C = 1/alpha} (the same objective)", function()
    -- alpha (sum of log-losses + alpha |w|^2 / 2) = C sum + |w|^2 / 2 with C = 1/alpha,
    -- flat prior on the intercept = LogisticRegression's unpenalised intercept
    for _, alpha in ipairs{ 0.5, 2 } do
      local m = L.BayesianLogisticRegression{ alpha = alpha }:fit(Xbc, ybc)
      local l = L.LogisticRegression{ C = 1 / alpha, tol = 1e-12, max_iter = 1000, solver = "newton" }:fit(Xbc, ybc)
      assert.matrix_near(l.coef, m.coef, 1e-9)
      assert.near(l.intercept, m.intercept, 1e-9)
      assert.matrix_near(l:predict(Xbc), m:predict(Xbc))
    end
    local y = ybc * 2 - 7 -- labels -7 and -5 are kept
    local m = L.BayesianLogisticRegression{}:fit(Xbc, y)
    assert.matrix_near({ { -7 }, { -5 } }, m.classes)
    assert.matrix_near(m:decision_function(Xbc):gt(0) * 2 - 7, m:predict(Xbc))
  end)

  it("takes the Laplace covariance from the Hessian of the negative log-posterior", function()
    local alpha = 2
    local m = L.BayesianLogisticRegression{ alpha = alpha }:fit(Xbc, ybc)
    -- the negative log-posterior through luma.optim's native loss:
    -- alpha * (C sum l + |w|^2/2) with C = 1/alpha; its Hessian by finite differences
    local obj = luma.optim.logistic_loss(Xbc, ybc, { C = 1 / alpha, fit_intercept = true })
    local f = function(beta) return alpha * obj(beta) end
    local mean = luma.vstack{ m.coef, luma.matrix{ { m.intercept } } }
    local H = luma.optim.hessian(f, mean)
    assert.matrix_near(luma.linalg.inv((H + H:t()) * 0.5), m.covariance, 1e-5)
    assert.matrix_near(m.covariance:t(), m.covariance, 0)
  end)

  it("predicts by the probit approximation, close to the Monte Carlo predictive", function()
    local m = L.BayesianLogisticRegression{ alpha = 2 }:fit(Xbc, ybc)
    local Xt = luma.matrix{ { 0.5, 0.5, 0.5, 0.5, 0.5 }, { 2, -1, 0, 1, -2 },
      { 0.1, 0.1, -0.1, 0.1, 0.1 }, { 3, -3, 3, -3, 3 } }
    local mu, s2 = m:predictive(Xt)
    local P = m:predict_proba(Xt)
    assert.matrix_near(luma.ones(4, 1), P:sum(2), 1e-15)
    -- 200000 draws from the Laplace posterior N(MAP, Sigma) (seed 2024)
    local S = 200000
    local g = luma.random.Generator(2024)
    local mean = luma.vstack{ m.coef, luma.matrix{ { m.intercept } } }
    local W = g:normal(S, 6) * luma.linalg.cholesky(m.covariance):t() + mean:t()
    local sig = luma.special.expit(luma.hstack{ Xt, luma.ones(4, 1) } * W:t())
    local mc, se = sig:mean(2), sig:std(2) / math.sqrt(S)
    for i = 1, 4 do
      local mi, si = mu:get(i, 1), math.sqrt(s2:get(i, 1))
      -- the exact predictive, E sig(a) with a ~ N(mu, s^2): trapezoid rule over
      -- mu +- 12 s with 20001 nodes (error far below 1e-8)
      local nodes, total = 20001, 0
      local lo, h = mi - 12 * si, 24 * si / 20000
      for k = 0, nodes - 1 do
        local a = lo + k * h
        total = total + ((k == 0 or k == nodes - 1) and 0.5 or 1) / (1 + math.exp(-a))
          * math.exp(-0.5 * ((a - mi) / si) ^ 2)
      end
      local exact = total * h / (si * math.sqrt(2 * math.pi))
      -- Monte Carlo within 4 standard errors of the exact value
      assert.is_true(math.abs(mc:get(i, 1) - exact) <= 4 * se:get(i, 1))
      -- the probit approximation's own error: 6e-4, 3e-3, 2e-4 and 8.4e-3 at these
      -- points (score variances 0.12, 1.2, 0.05 and 11.4): below 0.01
      assert.is_true(math.abs(P:get(i, 2) - exact) < 0.01)
      -- and it is sig(kappa mu), kappa = (1 + pi s^2/8)^(-1/2)
      assert.near(1 / (1 + math.exp(-mi / math.sqrt(1 + math.pi * si ^ 2 / 8))), P:get(i, 2), 1e-14)
    end
    -- larger posterior variance pulls the probability towards 1/2
    assert.is_true(P:get(4, 2) > luma.special.expit(mu:get(4, 1)))
  end)

  it("rejects bad input", function()
    errors_with("single class", function()
      L.BayesianLogisticRegression{}:fit(Xbc:sub(1, 10), luma.zeros(10, 1))
    end)
    errors_with("3 classes", function() L.BayesianLogisticRegression{}:fit(Xir, yir) end)
    errors_with("alpha", function() L.BayesianLogisticRegression{ alpha = 0 } end)
    errors_with("X has a non%-finite element, %-inf at row 2, column 2", function()
      local X = Xbc:copy(); X:set(2, 2, -math.huge); L.BayesianLogisticRegression{}:fit(X, ybc)
    end)
    errors_with("predict_proba called before fit", function()
      L.BayesianLogisticRegression{}:predict_proba(Xbc)
    end)
  end)
end)

describe("luma.linear.MixtureLinearRegression", function()
  -- Two lines, y = 2x + 1 (40% of the points) and y = -x + 3, noise sd 0.2, x in
  -- [-3, 3]; they cross at x = 2/3.  The oracle is least squares on the true labels.
  local g = luma.random.Generator(11)
  local n = 300
  local X = g:uniform(n, 1, -3, 3)
  local z = g:uniform(n, 1):lt(0.4)
  local y = (X * 2 + 1):mul(z) + (X * -1 + 3):mul(z * -1 + 1) + g:normal(n, 1, 0, 0.2)
  local oracle = {}
  for c, label in ipairs{ 0, 1 } do -- ordered by slope: -1 first
    local idx = luma.matrix.find(z:eq(label))
    oracle[c] = L.LinearRegression{}:fit(X:take(idx), y:take(idx))
    oracle[c].share = idx:rows() / n
  end

  -- components ordered by slope
  local function by_slope(m)
    return m.coef:get(1, 1) <= m.coef:get(1, 2) and { 1, 2 } or { 2, 1 }
  end

  it("recovers two known lines by EM and by hard assignment", function()
    for _, method in ipairs{ "em", "hard" } do
      local m = L.MixtureLinearRegression{ method = method, seed = 5 }:fit(X, y)
      assert.is_true(m.converged)
      local order = by_slope(m)
      local truth = { { -1, 3 }, { 2, 1 } }
      for c = 1, 2 do
        local k = order[c]
        assert.near(truth[c][1], m.coef:get(1, k), 0.03)
        assert.near(truth[c][2], m.intercept:get(1, k), 0.03)
        -- near what least squares on the true labels gives (a few points near
        -- the crossing are shared or swapped)
        assert.near(oracle[c].coef:get(1, 1), m.coef:get(1, k), 5e-3)
        assert.near(oracle[c].intercept, m.intercept:get(1, k), 5e-3)
        assert.near(oracle[c].noise_variance, m.noise_variance:get(1, k), 0.1 * oracle[c].noise_variance)
        assert.near(oracle[c].share, m.weights:get(1, k), 0.02)
      end
      assert.near(1, m.weights:sum(), 1e-12)
      assert.matrix_near(luma.ones(n, 1), m.responsibilities:sum(2), 1e-12)
      -- the prediction is the mixture's mean: components weighted by pi
      local Xt = luma.matrix{ { -2 }, { 0 }, { 2.5 } }
      local comp = m:predict_components(Xt)
      assert.matrix_near(comp * m.weights:t(), m:predict(Xt), 1e-12)
      assert.matrix_near(Xt * m.coef + m.intercept, comp, 1e-12)
    end
  end)

  it("never decreases the log-likelihood (EM)", function()
    local settings = {
      { seed = 5 },
      { seed = 1, noise_variance = 1, equal_weights = true }, -- the notes' EM: q ~ exp(-r^2/2)
      { seed = 2, n_components = 3, n_init = 3 },
      { seed = 3, n_components = 4, max_iter = 500, tol = 0 },
    }
    for _, params in ipairs(settings) do
      local m
      capture_warnings(function() m = L.MixtureLinearRegression(params):fit(X, y) end)
      local h = m.log_likelihood_history
      assert.is_true(#h >= 2)
      for i = 2, #h do
        assert.is_true(h[i] >= h[i - 1] - 1e-9 * math.abs(h[i - 1]),
          string.format("log-likelihood fell from %.17g to %.17g at iteration %d", h[i - 1], h[i], i))
      end
      assert.is_true(m.log_likelihood >= h[#h] - 1e-9 * math.abs(h[#h]))
    end
  end)

  it("is a fixed point of the M-step: weighted least squares with the responsibilities", function()
    local m = L.MixtureLinearRegression{ seed = 5, tol = 0, max_iter = 100 }
    capture_warnings(function() m:fit(X, y) end)
    for c = 1, 2 do
      local w = m.responsibilities:col(c):copy()
      local wls = L.LinearRegression{}:fit(X, y, w) -- (X~'Q_c X~)^-1 X~'Q_c y, notes 001 §D
      assert.near(wls.coef:get(1, 1), m.coef:get(1, c), 1e-9)
      assert.near(wls.intercept, m.intercept:get(1, c), 1e-9)
      assert.near(wls.noise_variance, m.noise_variance:get(1, c), 1e-9)
    end
  end)

  it("gives the same model for the same seed", function()
    local a = L.MixtureLinearRegression{ seed = 9, n_components = 3 }:fit(X, y)
    local b = L.MixtureLinearRegression{ seed = 9, n_components = 3 }:fit(X, y)
    assert.matrix_near(a.coef, b.coef, 0)
    assert.equal(a.log_likelihood, b.log_likelihood)
  end)

  it("rejects bad input", function()
    errors_with("n_components", function() L.MixtureLinearRegression{ n_components = 0 } end)
    errors_with("n_components %(5%) must be <= the number of samples %(4%)", function()
      L.MixtureLinearRegression{ n_components = 5 }:fit(X:sub(1, 4), y:sub(1, 4))
    end)
    errors_with("method", function() L.MixtureLinearRegression{ method = "kmeans" } end)
    errors_with("NaN", function()
      local yn = y:copy(); yn:set(1, 1, 0 / 0); L.MixtureLinearRegression{}:fit(X, yn)
    end)
    errors_with("300 rows but y has 299", function() L.MixtureLinearRegression{}:fit(X, y:sub(1, 299)) end)
  end)
end)
