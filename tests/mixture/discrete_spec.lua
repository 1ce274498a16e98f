-- luma.mixture.BernoulliMixture, MultinomialMixture and StudentTMixture
-- (lua/luma/mixture/discrete.lua, student.lua): no scikit-learn peer, so
-- the references are closed forms, the notes' checks and properties: EM
-- never decreases the log-likelihood, the likelihood of one component is
-- the distribution's own, fixed points of the updates.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local BM, MM, TM = luma.mixture.BernoulliMixture, luma.mixture.MultinomialMixture,
  luma.mixture.StudentTMixture

-- Binary data from two known products of Bernoullis (120 and 80 rows).
local function binary_data()
  local g = luma.random.Generator(1)
  local mu = luma.matrix{ { 0.9, 0.9, 0.1, 0.1, 0.8, 0.2 }, { 0.1, 0.2, 0.9, 0.8, 0.3, 0.7 } }
  local U = g:uniform(200, 6)
  local rows = luma.matrix.vstack{ luma.ones(120, 1) * mu:row(1), luma.ones(80, 1) * mu:row(2) }
  return U:lt(rows), mu
end

-- Word counts of documents of two topics over six words.
local function count_data()
  local g = luma.random.Generator(2)
  local topics = { { 0.4, 0.3, 0.2, 0.05, 0.03, 0.02 }, { 0.02, 0.03, 0.05, 0.2, 0.3, 0.4 } }
  local X = luma.zeros(60, 6)
  for i = 1, 60 do
    local p = luma.matrix(topics[i <= 35 and 1 or 2])
    local words = g:choice(6, 30, { replace = true, p = p })
    for t = 1, 30 do
      local j = math.tointeger(words:get(t, 1))
      X:set(i, j, X:get(i, j) + 1)
    end
  end
  return X
end

local function assert_monotone(h, what)
  assert.is_true(h:rows() >= 2, what .. ": too few iterations")
  for t = 2, h:rows() do
    assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-12,
      string.format("%s: the log-likelihood fell at iteration %d", what, t))
  end
end

describe("luma.mixture.BernoulliMixture", function()
  local X, mu = binary_data()

  it("recovers the two products of Bernoullis and never decreases the likelihood", function()
    for _, init in ipairs{ "kmeans", "random" } do
      local b = BM{ n_components = 2, init_params = init, seed = 0, tol = 1e-12, max_iter = 300 }:fit(X)
      assert_monotone(b.lower_bound_history, init)
      local order = b.weights:get(1, 1) > b.weights:get(2, 1) and { 1, 2 } or { 2, 1 }
      assert.matrix_near(mu, b.means:take(order), 0.1)
      assert.near(0.6, b.weights:get(order[1], 1), 0.05)
    end
  end)

  it("is one product of Bernoullis with one component: the column means, log-likelihood by hand", function()
    local b = BM{ n_components = 1 }:fit(X)
    assert.matrix_near(X:mean(1), b.means, 1e-12)
    local m = X:mean(1)
    local expected = X * m:log():t() + (1 - X) * (1 - m):log():t()
    assert.matrix_near(expected, b:score_samples(X), 1e-12)
    assert.equal(6, b:n_parameters())
    assert.near(-2 * expected:sum() + 6 * math.log(200), b:bic(X), 1e-9)
  end)

  it("smooths with alpha (a Beta prior) and samples binary rows", function()
    local one = luma.matrix{ { 1, 0 }, { 1, 0 }, { 1, 1 } }
    local b = BM{ n_components = 1, alpha = 1 }:fit(one)
    assert.matrix_near({ { 4 / 5, 2 / 5 } }, b.means, 1e-12)
    local S, labels = BM{ n_components = 2, seed = 0 }:fit(X):sample(500)
    assert.is_true(S:eq(0):add(S:eq(1)):all())
    assert.equal(500, labels:rows())
  end)

  it("refuses values other than 0 and 1, NaN and too few rows", function()
    errors_with("BernoulliMixture: X must hold 0 and 1 only, X%[1%]%[2%] = 0.5",
      function() BM{}:fit(luma.matrix{ { 1, 0.5 }, { 0, 1 } }) end)
    errors_with("non%-finite", function() BM{}:fit(luma.matrix{ { 1, 0 / 0 } }) end)
    errors_with("needs at least n_components = 3 rows", function() BM{ n_components = 3 }:fit(X:sub(1, 2)) end)
  end)
end)

describe("luma.mixture.MultinomialMixture", function()
  local X = count_data()

  it("has the multinomial pmf of notes 002 D10: n = 3, H = (2, 1), t = (0.5, 0.5) -> 0.375", function()
    local m = MM{ n_components = 1 }:fit(luma.matrix{ { 2, 1 }, { 1, 2 } })
    assert.matrix_near({ { 0.5, 0.5 } }, m.probabilities, 1e-12)
    assert.near(0.375, math.exp(m:score_samples(luma.matrix{ { 2, 1 } }):get(1, 1)), 1e-12)
  end)

  it("separates the two topics and never decreases the likelihood", function()
    local m = MM{ n_components = 2, seed = 0, tol = 1e-12, max_iter = 200, init_params = "random" }:fit(X)
    assert_monotone(m.lower_bound_history, "multinomial")
    local labels = m:predict(X)
    assert.is_true(labels:sub(1, 35, 1, 1):eq(labels:get(1, 1)):all())
    assert.is_true(labels:sub(36, 60, 1, 1):ne(labels:get(1, 1)):all())
    assert.matrix_near(luma.ones(2, 1), m.probabilities:sum(2), 1e-12)
    local docs = m:sample(4, nil, 25)
    assert.matrix_near(luma.full(4, 1, 25), docs:sum(2), 0)
  end)

  it("refuses negative counts", function()
    errors_with("MultinomialMixture: X must be non%-negative, X%[1%]%[2%] = %-1",
      function() MM{}:fit(luma.matrix{ { 1, -1 }, { 2, 0 } }) end)
  end)
end)

describe("luma.mixture.StudentTMixture", function()
  local g = luma.random.Generator(3)
  local clean = luma.matrix.vstack{ g:normal(150, 2), g:normal(100, 2) * 0.5 + 5 }
  local outliers = g:normal(10, 2) * 20
  local X = luma.matrix.vstack{ clean, outliers }

  it("never decreases the likelihood, for fixed, searched and grid degrees of freedom", function()
    for _, method in ipairs{ "fixed", "search", "grid" } do
      local t = TM{ n_components = 2, dof_method = method, init_params = "random", reg_covar = 0,
        seed = 0, tol = 1e-10, max_iter = 150 }
      capture_warnings(function() t:fit(X) end)
      assert_monotone(t.lower_bound_history, method)
    end
  end)

  it("keeps the means where the clean data are, where a Gaussian mixture is pulled away", function()
    local t = TM{ n_components = 2, seed = 0, init_params = "random", tol = 1e-8, max_iter = 500 }:fit(X)
    local means = t.means:take(t.means:col(1):argsort())
    assert.matrix_near({ { 0, 0 }, { 5, 5 } }, means, 0.2)
  end)

  it("fits one component as luma.dist.StudentT.fit does (the ML fixed point, mean E[h] = 1)", function()
    local x = luma.matrix.vstack{ g:normal(300, 1) * 2 + 1, luma.matrix{ 25, -30, 40 } }
    local t = TM{ n_components = 1, dof = 5, reg_covar = 0, tol = 1e-14, max_iter = 2000 }:fit(x)
    local ref = luma.dist.StudentT.fit(x, { df = 5 })
    assert.near(ref.loc, t.means:get(1, 1), 1e-6)
    assert.near(ref.scale ^ 2, t.covariances[1]:get(1, 1), 1e-6)
    local d = luma.dist.StudentT{ df = 5, loc = t.means:get(1, 1), scale = math.sqrt(t.covariances[1]:get(1, 1)) }
    assert.matrix_near(d:logpdf(x), t:score_samples(x), 1e-10)
    local u = (((x - t.means:get(1, 1)):pow(2) / t.covariances[1]:get(1, 1)) + 5):pow(-1) * 6
    assert.near(1, u:mean(), 1e-6)
  end)

  it("estimates the degrees of freedom of t-distributed data (search and grid)", function()
    local n = 4000
    local h = g:gamma(1.5, n, 1) * (2 / 3) -- nu = 3
    local T = g:normal(n, 2):div(h:sqrt())
    local s = TM{ n_components = 1, dof_method = "search", tol = 1e-10, max_iter = 500 }:fit(T)
    assert.near(3, s.dof:get(1, 1), 0.5)
    local grid = TM{ n_components = 1, dof_method = "grid", tol = 1e-10, max_iter = 500 }:fit(T)
    assert.equal(3, grid.dof:get(1, 1))
    local S = s:sample(10)
    assert.equal(10, S:rows())
  end)

  it("refuses a singular scale without reg_covar and NaN", function()
    local dup = luma.matrix{ { 0, 0 }, { 0, 0 }, { 0, 0 }, { 5, 5 }, { 6, 5 }, { 5, 6 } }
    errors_with("StudentTMixture.fit: the scale matrix of component %d is singular.*reg_covar > 0",
      function() TM{ n_components = 2, reg_covar = 0, seed = 0 }:fit(dup) end)
    errors_with("StudentTMixture: X has a non%-finite element", function() TM{}:fit(luma.matrix{ { 0 / 0, 1 } }) end)
  end)
end)

describe("ExponentialFamilyMixture", function()
  local g = luma.random.Generator(2)
  local X = luma.matrix.vstack{ g:poisson(2, 300, 1), g:poisson(12, 200, 1) }

  it("converges to a fixed point of the closed-form Poisson EM update", function()
    local m = luma.mixture.ExponentialFamilyMixture{ n_components = 2, family = "Poisson",
      tol = 1e-12, max_iter = 500, seed = 1 }:fit(X)
    assert.is_true(m.converged)
    local rates = { m:components()[1].lambda, m:components()[2].lambda }
    -- one EM step by hand (Bishop 9.2.2 with Poisson components): r_ik
    -- proportional to w_k Poisson(x_i; lambda_k), lambda_k = sum r x / sum r
    local sums, totals = { 0, 0 }, { 0, 0 }
    for i = 1, X:rows() do
      local x = X:get(i, 1)
      local p = {}
      for k = 1, 2 do
        p[k] = m.weights:get(k, 1) * math.exp(x * math.log(rates[k]) - rates[k]
          - luma.special.lgamma(x + 1))
      end
      for k = 1, 2 do
        local r = p[k] / (p[1] + p[2])
        sums[k], totals[k] = sums[k] + r * x, totals[k] + r
      end
    end
    for k = 1, 2 do
      assert.near(sums[k] / totals[k], rates[k], 1e-6 * rates[k])
      assert.near(totals[k] / X:rows(), m.weights:get(k, 1), 1e-6)
    end
    -- the two rates are found, and the bound never decreased
    local low, high = math.min(rates[1], rates[2]), math.max(rates[1], rates[2])
    assert.is_true(math.abs(low - 2) < 0.3 and math.abs(high - 12) < 0.8)
    local h = m.lower_bound_history
    for t = 2, h:rows() do assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-12) end
  end)

  it("scores with the components' log-densities", function()
    local Y = luma.matrix.vstack{ g:gamma(2, 150, 1), g:gamma(20, 100, 1) * 0.5 }
    local m = luma.mixture.ExponentialFamilyMixture{ n_components = 2, family = "Gamma",
      seed = 1 }:fit(Y)
    local c = m:components()
    local direct = (c[1]:logpdf(Y) + math.log(m.weights:get(1, 1))):exp()
      + (c[2]:logpdf(Y) + math.log(m.weights:get(2, 1))):exp()
    assert.matrix_near(direct:log(), m:score_samples(Y), 1e-10)
  end)

  it("refuses data outside the family's support and several columns", function()
    support.errors_with("discrete_spec.lua:%d+: .*point 1 of x lies outside the support", function()
      luma.mixture.ExponentialFamilyMixture{ n_components = 2, family = "Gamma" }
        :fit(luma.matrix{ -1, 2, 3, 4 })
    end)
    support.errors_with("discrete_spec.lua:%d+: .*X must be one column of observations", function()
      luma.mixture.ExponentialFamilyMixture{ n_components = 2 }:fit(luma.ones(4, 2))
    end)
  end)
end)

describe("MultinomialMixture on sparse counts", function()
  local g = luma.random.Generator(1)
  local i, j, v = luma.sparse.random(40, 12, 0.3, g):coo()
  local Xs = luma.sparse.csr(40, 12, i, j, (v * 5):floor() + 1)
  local X = Xs:todense()

  it("fits the model the dense counts give", function()
    for _, init in ipairs({ "random", "random_from_data" }) do
      local a = MM{ n_components = 2, seed = 1, alpha = 0.01, init_params = init }:fit(X)
      local b = MM{ n_components = 2, seed = 1, alpha = 0.01, init_params = init }:fit(Xs)
      assert.matrix_near(a.probabilities, b.probabilities, 1e-12)
      assert.matrix_near(a.weights, b.weights, 1e-12)
      -- the multinomial coefficient from the stored counts only
      assert.matrix_near(a:score_samples(X), b:score_samples(Xs), 1e-12)
    end
    -- KMeans initializes from the sparse matrix itself
    assert.is_true(MM{ n_components = 2, seed = 1, alpha = 0.01 }:fit(Xs).converged)
  end)

  it("refuses k-means++ seeding of a sparse X, saying what to use", function()
    errors_with("discrete_spec.lua:%d+: .*init_params \"k%-means%+%+\" needs a dense X", function()
      MM{ n_components = 2, init_params = "k-means++" }:fit(Xs)
    end)
  end)
end)
