-- luma.linear's Bayesian models (lua/luma/linear/bayes.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr.  The calls are quoted above each
-- block; "tight" means n_iter=100000, tol=1e-14 so that the fixed point is
-- reached (our own stopping rule differs: relative change of the
-- hyperparameters).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local L = luma.linear

local X, y = luma.datasets.load("diabetes")

local function col(t) return luma.matrix(t) end

-- A small fixed data set (8 x 2) used against scikit-learn.
local Xs = luma.matrix{ { 0.5, -1.0 }, { 1.5, 0.3 }, { -0.7, 2.0 }, { 2.2, 1.1 }, { -1.3, -0.4 },
  { 0.1, 0.9 }, { 1.0, -2.0 }, { -2.0, 0.5 } }
local ys = luma.matrix{ 1.2, 2.9, -0.8, 4.1, -2.5, 0.7, 3.3, -3.1 }
local Xt = luma.matrix{ { 0.0, 0.0 }, { 1.0, 1.0 }, { -3.0, 2.0 } }

describe("luma.linear.BayesianLinearRegression", function()
  local BLR = L.BayesianLinearRegression

  it("with evidence = true equals scikit-learn's BayesianRidge on the diabetes data", function()
    -- BayesianRidge(alpha_1=hp, alpha_2=hp, lambda_1=hp, lambda_2=hp, compute_score=True,
    --   tight).fit(X, y); predict(X[:3], return_std=True); alpha_, lambda_, scores_[-1]
    local cases = {
      { hp = 1e-6, beta = 0.00034101950714785585, alpha = 1.1462296185517655e-05,
        mean = { 202.63861243681384, 71.11080898053793, 174.1291075202316 },
        std = { 54.529450872427034, 54.612920247162286, 54.68236317435647 },
        coef = { -4.233562574072977, -226.32799127431406, 513.4730402104776, 314.9038588824732,
          -182.28434132423533, -4.368547729978133, -159.2010389244, 114.63541261738104,
          506.82346018203395, 76.25617555842007 } },
      { hp = 0, beta = 0.0003410195056986496, alpha = 1.1462293303115857e-05,
        mean = { 202.63861287909197, 71.11080861382601, 174.1291077585 },
        std = { 54.52945099397078, 54.61292037625166, 54.68236329741173 },
        coef = { -4.233563412623053, -226.3279939129078, 513.4730431228553, 314.9038606705601,
          -182.2843723241312, -4.368524303277894, -159.20102748993338, 114.63541387989581,
          506.82347553205057, 76.25617397686635 },
        -- with zero hyperpriors scikit-learn's score is the plain log evidence
        score = -2405.771307605374 },
    }
    for _, c in ipairs(cases) do
      local m = BLR{ evidence = true, noise_shape = c.hp, noise_rate = c.hp, prior_shape = c.hp,
        prior_rate = c.hp }:fit(X, y)
      assert.near(c.beta, m.beta, 1e-9 * c.beta)
      assert.near(c.alpha, m.alpha, 1e-8 * c.alpha)
      assert.near(1 / c.beta, m.sigma2, 1e-9 / c.beta)
      assert.matrix_near(col(c.coef), m.coef, 1e-8)
      assert.near(152.13348416289602, m.intercept, 1e-9)
      local mean, std = m:predict(X:sub(1, 3, 1, 10), { std = true })
      assert.matrix_near(col(c.mean), mean, 1e-9)
      assert.matrix_near(col(c.std), std, 1e-9)
      if c.score then assert.near(c.score, m.log_evidence, 1e-8) end
    end
  end)

  it("equals BayesianRidge on a small synthetic set, with and without an intercept", function()
    -- BayesianRidge(alpha_1=0, alpha_2=0, lambda_1=0, lambda_2=0, fit_intercept=False, tight)
    local m = BLR{ evidence = true, fit_intercept = false }:fit(Xs, ys)
    assert.near(2.0583200438323552, m.beta, 1e-9)
    assert.near(0.5784298186595928, m.alpha, 1e-9)
    assert.matrix_near(col{ 1.8357666064478488, -0.11297424962663191 }, m.coef, 1e-10)
    assert.matrix_near({ { 0.03318497223048879, 0.00399310052610885 },
      { 0.00399310052610885, 0.04164922052878995 } }, m.posterior_cov, 1e-9)
    local mean, std = m:predict(Xt, { std = true })
    assert.matrix_near(col{ 0, 1.722792356821217, -5.73324831859681 }, mean, 1e-10)
    assert.matrix_near(col{ 0.6970172854853023, 0.754091168279271, 0.9503565237012646 }, std, 1e-9)

    -- fit_intercept=True: same alpha, beta, coef, intercept and covariance.  The
    -- standard deviation differs on purpose: scikit-learn applies sigma_ to the raw
    -- x, Luma to x - xbar (the covariance is that of the centred model).  Luma's std
    -- at x equals scikit-learn's predict(x - Xs.mean(0), return_std=True)[1]:
    m = BLR{ evidence = true }:fit(Xs, ys)
    assert.near(4.612883073083849, m.beta, 1e-9)
    assert.near(0.6000413628145682, m.alpha, 1e-9)
    assert.matrix_near(col{ 1.8078966013352167, -0.17329913003628364 }, m.coef, 1e-10)
    assert.near(0.46154415003937677, m.intercept, 1e-10)
    assert.matrix_near({ { 0.0152548421049015, 0.00220361045661136 },
      { 0.00220361045661136, 0.01932600406381552 } }, m.posterior_cov, 1e-9)
    mean, std = m:predict(Xt, { std = true })
    assert.matrix_near(col{ 0.46154415003937677, 2.09614162133831, -5.308743914038841 }, mean, 1e-10)
    assert.matrix_near(col{ 0.4668020739642399, 0.49364246289659314, 0.6389719542887681 }, std, 1e-9)
  end)

  it("gives the 1-D posterior and predictive by hand (notes 004 (9.43), notes 001 errata 2-3)", function()
    -- x = (1, 2, 3), y = (1, 3, 2), prior N(0.5, 2), sigma^2 = 0.5, no intercept:
    -- S_N = 1 / (1/2 + 14/0.5) = 1/28.5, m_N = S_N (0.5/2 + (1 + 6 + 6)/0.5) = 26.25/28.5
    local x1, y1 = luma.matrix{ 1, 2, 3 }, luma.matrix{ 1, 3, 2 }
    local m = BLR{ fit_intercept = false, prior_mean = 0.5, prior_cov = luma.matrix{ { 2 } }, sigma2 = 0.5 }:fit(x1, y1)
    assert.near(1 / 28.5, m.posterior_cov:get(1, 1), 1e-15)
    assert.near(26.25 / 28.5, m.coef:get(1, 1), 1e-15)
    -- predictive at x = 4: mean 4 m_N, variance 16 S_N + sigma^2 (with noise) or 16 S_N
    local mean, std = m:predict(luma.matrix{ { 4 } }, { std = true })
    assert.near(4 * 26.25 / 28.5, mean:get(1, 1), 1e-14)
    assert.near(math.sqrt(16 / 28.5 + 0.5), std:get(1, 1), 1e-14)
    local _, std_f = m:predict(luma.matrix{ { 4 } }, { std = true, noise = false })
    assert.near(math.sqrt(16 / 28.5), std_f:get(1, 1), 1e-14)
    -- the same through beta = 1 / sigma^2 and alpha = 1 / prior variance
    local m2 = BLR{ fit_intercept = false, prior_mean = 0.5, alpha = 0.5, beta = 2 }:fit(x1, y1)
    assert.near(m.coef:get(1, 1), m2.coef:get(1, 1), 1e-15)
  end)

  it("has the MAP / ridge solution as its posterior mean (notes 004 (9.31), (9.43))", function()
    -- m_N = theta_MAP = (X^T X + (sigma^2 / b^2) I)^-1 X^T y for the prior N(0, b^2 I)
    local m = BLR{ alpha = 1 / 4, sigma2 = 0.3 }:fit(X, y)
    local ridge = L.Ridge{ alpha = 0.3 / 4 }:fit(X, y)
    assert.matrix_near(ridge.coef, m.coef, 1e-9)
    assert.near(ridge.intercept, m.intercept, 1e-9)
  end)

  it("has log_evidence = log N(y | X m0, X S0 X^T + sigma^2 I) (notes 004 (9.64))", function()
    local Xa = X:sub(1, 30, 1, 4)
    local ya = y:sub(1, 30, 1, 1) / 100
    local S0 = luma.matrix{ { 2, 0.3, 0, 0.1 }, { 0.3, 1, 0.2, 0 }, { 0, 0.2, 1.5, 0 }, { 0.1, 0, 0, 0.7 } }
    local m0 = luma.matrix{ 0.1, -0.2, 0.3, 0 }
    local m = BLR{ fit_intercept = false, prior_mean = m0, prior_cov = S0, sigma2 = 0.3 }:fit(Xa, ya)
    local cov = Xa * S0 * Xa:t()
    cov:diag():add(0.3, cov:diag())
    local mvn = luma.dist.MultivariateNormal{ mean = (Xa * m0):t(), cov = cov }
    local expected = mvn:logpdf(ya:t()):get(1, 1)
    assert.near(expected, m.log_evidence, 1e-10 * math.abs(expected))
    -- the method at other hyperparameters agrees with a refit at them
    local other = BLR{ fit_intercept = false, prior_mean = m0, alpha = 3, sigma2 = 0.1 }:fit(Xa, ya)
    assert.near(other.log_evidence, m:log_marginal_likelihood{ alpha = 3, sigma2 = 0.1 }, 1e-10)
    assert.near(m.log_evidence, m:log_marginal_likelihood(), 1e-12)
  end)

  it("never decreases the log evidence while maximising it, and stops at a maximum", function()
    local m = BLR{ evidence = true, compute_score = true }:fit(X, y)
    assert.is_true(#m.scores >= 3)
    for i = 2, #m.scores do assert.is_true(m.scores[i] >= m.scores[i - 1] - 1e-9) end
    assert.near(m.scores[#m.scores], m.log_evidence, 1e-12)
    -- a stationary point: moving alpha or beta by 1% lowers the evidence
    for _, f in ipairs{ 0.99, 1.01 } do
      assert.is_true(m:log_marginal_likelihood{ alpha = m.alpha * f } < m.log_evidence)
      assert.is_true(m:log_marginal_likelihood{ beta = m.beta * f } < m.log_evidence)
    end
  end)

  it("samples functions from the posterior and the prior (notes 004 Example 9.7)", function()
    local m = BLR{ fit_intercept = false, alpha = 1, sigma2 = 0.5 }:fit(Xs, ys)
    local F = m:sample_functions(Xt, 20000, { seed = 3 })
    assert.same({ 3, 20000 }, { F:shape() })
    local mean, std = m:predict(Xt, { std = true, noise = false })
    assert.matrix_near(mean, F:mean(2), 0.02)
    assert.matrix_near(std, F:std(2), 0.02)
    -- reproducible with the same seed
    assert.matrix_near(F, m:sample_functions(Xt, 20000, { seed = 3 }), 0)
    -- the prior N(0, I): f(x) has variance |x|^2, usable before fit
    local P = BLR{ fit_intercept = false }:sample_functions(Xt, 20000, { posterior = false, seed = 4 })
    assert.matrix_near(col{ 0, math.sqrt(2), math.sqrt(13) }, P:std(2), 0.03)
  end)

  it("rejects bad input, each with a clear message", function()
    local bad = Xs:copy(); bad:set(2, 1, 0 / 0)
    errors_with("X has a non%-finite element, nan at row 2, column 1; impute missing values",
      function() BLR{}:fit(bad, ys) end)
    bad:set(2, 1, math.huge)
    errors_with("X has a non%-finite element, inf at row 2, column 1%)", function() BLR{}:fit(bad, ys) end)
    local bady = ys:copy(); bady:set(1, 1, math.huge)
    errors_with("y contains NaN or Inf", function() BLR{}:fit(Xs, bady) end)
    errors_with("X has 8 rows but y has 7", function() BLR{}:fit(Xs, ys:sub(1, 7, 1, 1)) end)
    errors_with("'sigma2' must be a number > 0", function() BLR{ sigma2 = 0 } end)
    errors_with("'beta' must be a number > 0", function() BLR{ beta = -1 } end)
    errors_with("'alpha' must be a number > 0", function() BLR{ alpha = 0 } end)
    errors_with("give sigma2 or beta, not both", function() BLR{ sigma2 = 1, beta = 1 }:fit(Xs, ys) end)
    errors_with("prior_cov must be positive definite", function()
      BLR{ prior_cov = luma.matrix{ { 1, 2 }, { 2, 1 } } }:fit(Xs, ys)
    end)
    errors_with("prior_cov must be symmetric", function()
      BLR{ prior_cov = luma.matrix{ { 1, 0.5 }, { 0, 1 } } }:fit(Xs, ys)
    end)
    errors_with("prior_cov must be 2 x 2, got 3 x 3", function() BLR{ prior_cov = luma.eye(3) }:fit(Xs, ys) end)
    errors_with("prior_mean must be 2 x 1", function() BLR{ prior_mean = luma.zeros(3, 1) }:fit(Xs, ys) end)
    errors_with("prior_cov cannot be given with evidence", function()
      BLR{ evidence = true, prior_cov = luma.eye(2) }:fit(Xs, ys)
    end)
    errors_with("predict called before fit", function() BLR{}:predict(Xt) end)
    errors_with("sample_functions called before fit", function() BLR{}:sample_functions(Xt, 2) end)
    errors_with("log_marginal_likelihood called before fit", function() BLR{}:log_marginal_likelihood() end)
    local m = BLR{}:fit(Xs, ys)
    errors_with("unknown option 'stdev'", function() m:predict(Xt, { stdev = true }) end)
    errors_with("alpha must be a finite number > 0", function() m:log_marginal_likelihood{ alpha = -1 } end)
    errors_with("X has 3 columns but", function() m:predict(luma.zeros(2, 3)) end)
  end)

  it("is re-exported by luma.linear, clones and round-trips through luma.save", function()
    local m = BLR{ evidence = true }:fit(Xs, ys)
    local path = os.tmpname()
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.matrix_near(m:predict(Xt), back:predict(Xt), 1e-15)
    local _, s1 = m:predict(Xt, { std = true })
    local _, s2 = back:predict(Xt, { std = true })
    assert.matrix_near(s1, s2, 1e-15)
    assert.is_false(m:clone():is_fitted())
  end)
end)

-- Deterministic data shared with the scikit-learn scripts quoted below:
-- X_ij = sin(1.3 i j + j) (60 x 6), y = 2 x_1 - 3 x_3 + 0.1 cos(7 i).
local Xa, ya = luma.zeros(60, 6), luma.zeros(60, 1)
for i = 1, 60 do
  for j = 1, 6 do Xa:set(i, j, math.sin(1.3 * i * j + j)) end
  ya:set(i, 1, 2 * Xa:get(i, 1) - 3 * Xa:get(i, 3) + 0.1 * math.cos(7 * i))
end

describe("luma.linear.SparseBayesianRegression", function()
  local SBR = L.SparseBayesianRegression

  it("equals scikit-learn's ARDRegression with lambda_1 = lambda_2 = nu/2 on the diabetes data", function()
    -- ARDRegression(n_iter=100000, tol=1e-13, alpha_1=0, alpha_2=0, lambda_1=1e-6,
    --   lambda_2=1e-6).fit(X, y)  (threshold_lambda 1e4: nothing is pruned here)
    local m = SBR{ tol = 1e-14, max_iter = 100000 }:fit(X, y)
    assert.near(0.0003419337151595141, m.beta, 1e-8 * 0.00034)
    assert.matrix_near(col{ -7.5298144682150656e-05, -2.0614671055231915e+02, 5.3666664318559708e+02,
      3.1132033643166625e+02, -1.0800587955394317e+02, -5.5763055514081021e-04, -2.2931664355869856e+02,
      9.7218406430046303e-04, 5.3736336392888518e+02, 1.4368818984156380e+01 }, m.coef, 1e-6)
    assert.matrix_near(col{ 2.1819148152700539e-05, 3.4224931085268522e-06, 9.9291482293939956e-06,
      6.6093994780552046e-05 }, m.h:sub(2, 5, 1, 1), 1e-6)
    assert.near(152.13348416289602, m.intercept, 1e-9)
    local mean, std = m:predict(X:sub(1, 3, 1, 10), { std = true })
    assert.matrix_near(col{ 206.7785067452128, 71.32044499353259, 177.28585725162228 }, mean, 1e-8)
    assert.matrix_near(col{ 54.336371176682945, 54.31798695802503, 54.29873952270765 }, std, 1e-8)
  end)

  it("prunes irrelevant dimensions to exactly 0 (notes 000 §6.6), as ARDRegression", function()
    -- the same ARDRegression call on (Xa, ya)
    local m = SBR{}:fit(Xa, ya)
    assert.matrix_near(col{ 1, 3 }, m.active, 0)
    assert.matrix_near(col{ 2.000777275751063, 0, -3.001057345647371, 0, 0, 0 }, m.coef, 1e-9)
    for _, d in ipairs{ 2, 4, 5, 6 } do
      assert.equal(0, m.coef:get(d, 1))
      assert.is_true(m.h:get(d, 1) >= 1e4) -- pruned at the threshold
    end
    assert.matrix_near(col{ 2.4979554466228057e-01, 1.2115070385158284e+04, 1.1103096683322891e-01 },
      m.h:sub(1, 3, 1, 1), 1e-8)
    assert.near(-0.0022149870777604143, m.intercept, 1e-10)
    assert.near(197.57198491429125, m.beta, 1e-8 * 197.6)
    assert.same({ 2, 2 }, { m.posterior_cov:shape() })
    -- the evidence of the approximate marginal never decreases along the way
    for i = 2, #m.scores do assert.is_true(m.scores[i] >= m.scores[i - 1] - 1e-9) end
    assert.is_true(m.log_evidence >= m.scores[#m.scores] - 1e-9)
  end)

  it("rejects bad input", function()
    local bad = Xa:copy(); bad:set(3, 2, 0 / 0)
    errors_with("X has a non%-finite element, nan at row 3, column 2", function() SBR{}:fit(bad, ya) end)
    errors_with("X has 60 rows but y has 59", function() SBR{}:fit(Xa, ya:sub(1, 59, 1, 1)) end)
    errors_with("'sigma2' must be a number > 0", function() SBR{ sigma2 = -1 } end)
    errors_with("'nu' must be a number >= 0", function() SBR{ nu = -1 } end)
    errors_with("predict called before fit", function() SBR{}:predict(Xa) end)
  end)
end)

-- sinc data: x = 50 points on [-10, 10], y = sin(x)/x + 0.1 cos(7 i)
local xr = luma.linspace(-10, 10, 50)
local yr = xr:sin():div(xr)
for i = 1, 50 do yr:set(i, 1, yr:get(i, 1) + 0.1 * math.cos(7 * i)) end

describe("luma.linear.RelevanceVectorRegression", function()
  local RVR = L.RelevanceVectorRegression

  it("is ARD on the kernel basis [k(x, x_n), 1] (notes 000 §6.8): scikit-learn's ARDRegression on it", function()
    -- Phi = hstack([rbf_kernel(x, x, gamma=0.1), ones]); ARDRegression(fit_intercept=False,
    --   n_iter=100000, tol=1e-10, threshold_lambda=1e9, alpha_1=alpha_2=lambda_1=lambda_2=0)
    -- keeps columns 8 15 24 35 44 49 (0-based) and the bias
    local m = RVR{ gamma = 0.1, tol = 1e-10, max_iter = 100000 }:fit(xr, yr)
    assert.matrix_near(col{ 9, 16, 25, 36, 45, 50 }, m.relevance_indices, 0)
    assert.matrix_near(xr:take(m.relevance_indices, 1), m.relevance_vectors, 0)
    assert.matrix_near(col{ 0.4884750880513874, -0.5365234686912072, 1.3831093858364993,
      -0.328284798221701, 0.6487595281468754, -0.33481047693045174 }, m.dual_coef, 1e-8)
    assert.near(-0.21200095305033395, m.intercept, 1e-8)
    assert.near(0.005469518208347772, m.sigma2, 1e-10)
    local mean, std = m:predict(luma.matrix{ -7.5, 0.3, 4.0 }, { std = true })
    assert.matrix_near(col{ 0.11098783733787987, 0.980958852824392, -0.17634034025573594 }, mean, 1e-8)
    assert.matrix_near(col{ 0.07863497514228596, 0.07866315544089418, 0.07884280100160818 }, std, 1e-8)
    -- without noise the band is narrower: sqrt(std^2 - sigma^2)
    local _, std_f = m:predict(luma.matrix{ -7.5, 0.3, 4.0 }, { std = true, noise = false })
    assert.matrix_near(std:pow(2) - m.sigma2, std_f:pow(2), 1e-12)
  end)

  it("keeps few relevance vectors, has the pruned weights' precisions past the threshold", function()
    local m = RVR{ gamma = 0.1 }:fit(xr, yr)
    assert.is_true(m.relevance_vectors:rows() <= 10)
    local kept = {}
    for i = 1, m.relevance_indices:rows() do kept[m.relevance_indices:get(i, 1)] = true end
    for i = 1, 50 do
      if not kept[i] then assert.is_true(m.h:get(i, 1) >= 1e9) end
    end
    for i = 2, #m.scores do assert.is_true(m.scores[i] >= m.scores[i - 1] - 1e-9) end
    assert.is_true(m:score(xr, yr) > 0.95)
    -- a luma.kernels object gives the same model as the name
    local k = RVR{ kernel = luma.kernels.rbf{ gamma = 0.1 } }:fit(xr, yr)
    assert.matrix_near(m.dual_coef, k.dual_coef, 1e-12)
  end)

  it("rejects bad input", function()
    local bad = xr:copy(); bad:set(1, 1, math.huge)
    errors_with("X has a non%-finite element, inf at row 1, column 1", function() RVR{}:fit(bad, yr) end)
    errors_with("X has 50 rows but y has 49", function() RVR{}:fit(xr, yr:sub(1, 49, 1, 1)) end)
    errors_with("'gamma' must be a number > 0", function() RVR{ gamma = 0 } end)
    errors_with("predict called before fit", function() RVR{}:predict(xr) end)
  end)
end)

describe("luma.linear.RelevanceVectorClassification", function()
  local RVC = L.RelevanceVectorClassification
  local Xm, ym = luma.datasets.make_moons{ n_samples = 200, noise = 0.2, seed = 0 }

  it("classifies the moons with few relevance vectors (notes 000 §7.5)", function()
    local m = RVC{ gamma = 1 }:fit(Xm, ym)
    assert.is_true(m:score(Xm, ym) >= 0.95)
    assert.is_true(m.relevance_vectors:rows() <= 20) -- of 200
    -- the Laplace evidence never decreases over the rounds
    for i = 2, #m.scores do assert.is_true(m.scores[i] >= m.scores[i - 1] - 1e-8) end
    -- probabilities: rows sum to 1 and agree with the decision
    local P = m:predict_proba(Xm)
    assert.matrix_near(luma.ones(200, 1), P:sum(2), 1e-12)
    assert.matrix_near(m:decision_function(Xm):gt(0), P:col(2):gt(0.5), 0)
  end)

  it("ends at the posterior mode: the gradient of the penalised log-likelihood is 0", function()
    local m = RVC{ gamma = 1 }:fit(Xm, ym)
    local Phi = luma.pairwise.kernel(Xm, m.relevance_vectors, "rbf", { gamma = 1 })
    local w, h = m.dual_coef, m.h:take(m.relevance_indices, 1)
    if m.bias_kept then
      Phi = luma.hstack{ Phi, luma.ones(200, 1) }
      w = luma.vstack{ w, luma.matrix{ { m.intercept } } }
      h = luma.vstack{ h, m.h:sub(201, 201, 1, 1) }
    else
      assert.equal(0, m.intercept)
    end
    local t = ym:eq(m.classes:get(2, 1))
    local grad = Phi:t() * (t - luma.special.expit(Phi * w)) - h:mul(w)
    assert.is_true(grad:abs():max() < 1e-6)
    -- the probit-corrected probability is pulled towards 1/2 (notes 000 Ch. 7)
    local p = m:predict_proba(Xm):col(2)
    local plain = luma.special.expit(m:decision_function(Xm))
    assert.is_true(((p - 0.5):abs() - (plain - 0.5):abs()):max() <= 1e-12)
  end)

  it("handles more classes through luma.multiclass.OneVsRest, and refuses them alone", function()
    local Xi, yi = luma.datasets.load("iris")
    local ovr = luma.multiclass.OneVsRest{ estimator = RVC{ gamma = 0.5 } }:fit(Xi, yi)
    assert.is_true(ovr:score(Xi, yi) >= 0.95)
    errors_with("binary %(wrap it in luma.multiclass.OneVsRest", function() RVC{}:fit(Xi, yi) end)
    errors_with("y has 1 classes", function() RVC{}:fit(Xm, luma.ones(200, 1)) end)
    local bad = Xm:copy(); bad:set(1, 1, 0 / 0)
    errors_with("X has a non%-finite element, nan at row 1, column 1", function() RVC{}:fit(bad, ym) end)
    errors_with("predict_proba called before fit", function() RVC{}:predict_proba(Xm) end)
  end)
end)
