-- luma.bayes: conjugate updates on small data with the posteriors worked
-- out by hand (notes 002 D6 for the Normal-Normal case, including erratum
-- X29), and the Normal-Inverse-Gamma predictive checked against the
-- notes' ratio-of-normalizers form (notes 000 §3.3.5, Prince).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local bayes = luma.bayes
local M = luma.matrix

local function close(e, g, tol) assert.is_true(math.abs(g - e) <= (tol or 1e-12) * math.max(1, math.abs(e)), tostring(g)) end

describe("conjugate updating #smoke", function()
  it("updates Beta-Bernoulli", function()
    local post = bayes.BetaBernoulli{ a = 1, b = 1 }:update(M{1, 0, 1, 1})
    assert.equal(4, post.a)
    assert.equal(2, post.b)
    close(0.75, post:map()) -- (4 - 1) / (6 - 2)
    close(4 / 6, post:predictive().p)
    local same = bayes.BetaBernoulli{ a = 1, b = 1 }:update(3, 4)
    assert.equal(4, same.a)
    close(4 / 6, post:posterior():mean())
  end)

  it("updates Gamma-Poisson", function()
    local post = bayes.GammaPoisson{ shape = 2, rate = 1 }:update(M{3, 4, 5})
    assert.equal(14, post.shape)
    assert.equal(4, post.rate)
    close(13 / 4, post:map())
    close(3.5, post:predictive():mean()) -- E[x*] = shape / rate
    close(3.5 * (1 + 1 / 4), post:predictive():var()) -- shape (rate + 1) / rate^2
  end)

  it("updates Dirichlet-Categorical (notes 000 §3.3.6)", function()
    local post = bayes.DirichletCategorical{ alpha = { 2, 2, 2 } }:update(M{1, 2, 2, 3, 3, 3})
    assert.matrix_near({{3}, {4}, {5}}, post.alpha, 0)
    assert.matrix_near({{2 / 9}, {3 / 9}, {4 / 9}}, post:map(), 1e-15) -- (N_k + a_k - 1) / sum
    assert.matrix_near({{3 / 12}, {4 / 12}, {5 / 12}}, post:predictive().p, 1e-15)
    local counts = bayes.DirichletCategorical{ alpha = { 2, 2, 2 } }:update(M{1, 2, 3}, { counts = true })
    assert.matrix_near(post.alpha, counts.alpha, 0)
  end)

  it("updates a Normal mean with known variance (notes 002 D6, erratum X29)", function()
    local post = bayes.NormalKnownVariance{ mu0 = 0, sigma0 = 1, sigma = 2 }:update(M{1, 2, 3})
    close(6 / 7, post:map())
    close(4 / 7, post:posterior():var()) -- the notes' "sd" formula would give 2/7
    close(4 / 7 + 4, post:predictive():var())
  end)

  it("updates Normal-Inverse-Gamma and predicts with a Student t", function()
    local prior = bayes.NormalInverseGamma{ alpha = 2, beta = 3, gamma = 1.5, delta = 0.5 }
    local x = M{1.2, -0.3, 2.5, 0.8}
    local post = prior:update(x)
    -- notes 000 §3.3.5
    local I, sx, sxx = 4, x:sum(), x:pow(2):sum()
    close(2 + I / 2, post.alpha)
    close(sxx / 2 + 3 + 1.5 * 0.25 / 2 - (1.5 * 0.5 + sx) ^ 2 / (2 * 5.5), post.beta)
    close(5.5, post.gamma)
    close((0.75 + sx) / 5.5, post.delta)
    -- the notes' (Prince's) predictive: a ratio of normalizers
    local function prince(xs)
      local a, b, g, d = post.alpha, post.beta, post.gamma, post.delta
      local a2, g2 = a + 0.5, g + 1
      local b2 = xs * xs / 2 + b + g * d * d / 2 - (g * d + xs) ^ 2 / (2 * (g + 1))
      return 1 / math.sqrt(2 * math.pi) * math.sqrt(g) * b ^ a / (math.sqrt(g2) * b2 ^ a2)
        * math.exp(luma.special.lgamma(a2) - luma.special.lgamma(a))
    end
    for _, xs in ipairs({ -1, 0.3, 2 }) do close(prince(xs), post:predictive():pdf(xs), 1e-12) end
    local mu, var = prior:map(x)
    close((sx + 0.75) / 5.5, mu)
    close(((x - mu):pow(2):sum() + 6 + 1.5 * (0.5 - mu) ^ 2) / (4 + 3 + 4), var)
  end)

  it("updates Normal-Inverse-Wishart, matching Normal-Inverse-Gamma in one dimension", function()
    local x = M{1.2, -0.3, 2.5, 0.8}
    -- NIW(alpha, psi, gamma, delta) in 1-D is NIG(alpha / 2, psi / 2, gamma, delta)
    local niw = bayes.NormalInverseWishart{ alpha = 4, psi = M{{6}}, gamma = 1.5, delta = { 0.5 } }:update(x)
    local nig = bayes.NormalInverseGamma{ alpha = 2, beta = 3, gamma = 1.5, delta = 0.5 }:update(x)
    close(nig.alpha, niw.alpha / 2)
    close(nig.beta, niw.psi:get(1, 1) / 2)
    close(nig.gamma, niw.gamma)
    close(nig.delta, niw.delta:get(1, 1))
    close(nig:predictive():logpdf(0.3), niw:predictive():logpdf(M{{0.3}}):get(1, 1))
    -- the notes' density (normalizer 2^(alpha D / 2)), evaluated with NumPy:
    -- D/2 log g + a/2 log|Psi| - (a+D+2)/2 log|S| - (D/2 log 2pi + aD/2 log 2
    -- + multigammaln(a/2, D)) - (tr(Psi S^-1) + g (mu-d)' S^-1 (mu-d)) / 2
    local prior = bayes.NormalInverseWishart{ alpha = 5, psi = M{{2, 0.3}, {0.3, 1}}, gamma = 2, delta = { 1, 0 } }
    close(-6.060748968208491, prior:logpdf({ 0.5, 0.2 }, M{{1.5, 0.2}, {0.2, 0.8}}))
    local mu, S = prior:map(M{{1, 1}, {2, 0}, {0, -1}})
    assert.matrix_near({{ (3 + 2) / 5 }, { 0 }}, mu, 1e-15)
    assert.same({ 2, 2 }, { S:shape() })
  end)

  it("rejects bad hyperparameters and data", function()
    assert.has_error(function() bayes.BetaBernoulli{ a = 0 } end,
      "luma.bayes.BetaBernoulli: a must be a finite number > 0, got 0")
    assert.has_error(function() bayes.BetaBernoulli{}:update(M{0, 2}) end,
      "luma.bayes.BetaBernoulli: observations must be 0 or 1")
    assert.has_error(function() bayes.BetaBernoulli{}:map() end,
      "luma.bayes.BetaBernoulli: Beta(1, 1) has no single mode")
    assert.has_error(function() bayes.GammaPoisson{}:update(M{1.5}) end,
      "luma.bayes.GammaPoisson: counts must be integers >= 0")
    assert.has_error(function() bayes.DirichletCategorical{ alpha = { 1, 2 } }:update(M{3}) end,
      "luma.bayes.DirichletCategorical: labels must be integers in 1..2")
    assert.has_error(function() bayes.NormalKnownVariance{ sigma = -1 } end,
      "luma.bayes.NormalKnownVariance: sigma must be a finite number > 0, got -1")
    assert.has_error(function() bayes.NormalInverseGamma{}:update(M{0 / 0}) end,
      "luma.bayes.NormalInverseGamma: data contain NaN or infinity")
  end)
end)
