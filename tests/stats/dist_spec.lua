-- luma.dist against SciPy 1.10.1 (scipy.stats: norm(1, 2), gamma(2.5,
-- scale=1/1.5), beta(2, 3), t(4, 1, 2), f(3, 7), chi2(3), lognorm(0.5,
-- scale=e^0.2), laplace(1, 2), expon(scale=1/3), binom(10, .3), poisson(4),
-- nbinom(2.5, .4), geom(.3), multivariate_normal, dirichlet, multinomial:
-- logpdf/logpmf, cdf, ppf at the points below), plus sampling moments at
-- fixed seeds and maximum-likelihood fits recovering their parameters.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local d = luma.dist
local M = luma.matrix

local function near(expected, got, tol)
  assert.matrix_near(luma.ismatrix(expected) and expected or M(expected), got, tol or 1e-10)
end

local xs, qs, ks = M{0.3, 1.7}, M{0.01, 0.7}, M{0, 3, 7}

describe("univariate distributions #smoke", function()
  it("match SciPy's densities, cdfs, quantiles and entropies", function()
    local N = d.Normal{ mu = 1, sigma = 2 }
    near({ -1.6733357137646179, -1.6733357137646179 }, N:logpdf(xs))
    near({ 0.3631693488243809, 0.6368306511756191 }, N:cdf(xs))
    near({ -3.6526957480816815, 2.0488010254160813 }, N:ppf(qs))
    assert.is_true(math.abs(N:entropy() - 2.112085713764618) < 1e-10)
    local G = d.Gamma{ shape = 2.5, rate = 1.5 }
    near({ -1.5269793066914121, -1.0250777236092528 }, G:logpdf(xs))
    near({ 0.029778361590214426, 0.5962015428957922 }, G:cdf(xs))
    near({ 0.1847660255760924, 2.0214766613849666 }, G:ppf(qs))
    assert.is_true(math.abs(G:entropy() - 1.3244828013968901) < 1e-10)
    near(G:logpdf(xs), d.Gamma{ shape = 2.5, scale = 1 / 1.5 }:logpdf(xs), 1e-15)
    local B = d.Beta{ a = 2, b = 3 }
    near({ 0.5675839575845993, -0.9571127263944104 }, B:logpdf(M{0.3, 0.8}))
    near({ 0.34829999999999994, 0.9728 }, B:cdf(M{0.3, 0.8}))
    near({ 0.04199863562170072, 0.5084047548725844 }, B:ppf(qs))
    assert.is_true(math.abs(B:entropy() - -0.23490664978903172) < 1e-10)
    local T = d.StudentT{ df = 4, loc = 1, scale = 2 }
    near({ -1.749389969400987, -1.749389969400987 }, T:logpdf(xs))
    near({ 0.37199532066062585, 0.6280046793393741 }, T:cdf(xs))
    near({ -6.493894775962275, 2.1372981260771047 }, T:ppf(qs))
    assert.is_true(math.abs(T:entropy() - 2.3749071974386116) < 1e-10)
    local F = d.F{ d1 = 3, d2 = 7 }
    near({ -0.3798337791959696, -1.644246717150514 }, F:logpdf(xs))
    near({ 0.17534136610063897, 0.7467560729351993 }, F:cdf(xs))
    near({ 0.036138008940924816, 1.4822416746463882 }, F:ppf(qs))
    near({ -1.6709249353676408, -1.5036244076735874 }, d.ChiSquared{ df = 3 }:logpdf(xs))
    near({ 0.039971519693122404, 0.3630662043472606 }, d.ChiSquared{ df = 3 }:cdf(xs))
    local LN = d.LogNormal{ mu = 0.2, sigma = 0.5 }
    near({ -2.9640978188924576, -0.9750496845077568 }, LN:logpdf(xs))
    near({ 0.002492932354457065, 0.7457760841488378 }, LN:cdf(xs))
    local Lp = d.Laplace{ mu = 1, b = 2 }
    near({ -1.7362943611198904, -1.7362943611198904 }, Lp:logpdf(xs))
    near({ 0.3523440448593567, 0.6476559551406433 }, Lp:cdf(xs))
    near({ -6.824046010856292, 2.021651247531981 }, Lp:ppf(qs))
    local E = d.Exponential{ rate = 3 }
    near({ 0.19861228866810976, -4.0013877113318905 }, E:logpdf(xs))
    near({ 0.5934303402594009, 0.9939032534344844 }, E:cdf(xs))
    assert.equal(-math.huge, E:logpdf(-1))
    assert.is_true(math.abs(N:pdf(1) - 1 / (2 * math.sqrt(2 * math.pi))) < 1e-16)
  end)

  it("match SciPy's discrete distributions", function()
    local Bn = d.Binomial{ n = 10, p = 0.3 }
    near({ -3.5667494393873245, -1.321151277766889, -4.710342719315704 }, Bn:logpmf(ks))
    near({ 0.028247524900000005, 0.6496107184000002, 0.9984096136 }, Bn:cdf(ks))
    near({ 0, 4 }, Bn:ppf(qs), 0)
    assert.is_true(math.abs(Bn:entropy() - 1.7790787840900626) < 1e-10)
    local P = d.Poisson{ lambda = 4 }
    near({ -4.0, -1.6328763858683835, -2.821100833226181 }, P:logpmf(ks))
    near({ 0.018315638888734182, 0.43347012036670896, 0.9488663842071527 }, P:cdf(ks))
    near({ 0, 5 }, P:ppf(qs), 0)
    assert.is_true(math.abs(P:entropy() - 2.086672699880963) < 1e-10)
    local NB = d.NegativeBinomial{ r = 2.5, p = 0.4 }
    near({ -2.2907268296853873, -1.9418320730656171, -2.987017006788388 }, NB:logpmf(ks))
    near({ 0.10119288512538815, 0.5558019215511945, 0.8861107439410609 }, NB:cdf(ks))
    local Ge = d.Geometric{ p = 0.3 }
    near({ -1.203972804325936, -1.9173226922034008 }, Ge:logpmf(M{1, 3}))
    near({ 0.3, 0.657 }, Ge:cdf(M{1, 3}))
    assert.is_true(math.abs(Ge:entropy() - 2.0362143401829433) < 1e-10)
    assert.equal(-math.huge, P:logpmf(2.5)) -- off the support
    local C = d.Categorical{ p = { 0.2, 0.5, 0.3 } }
    near({ math.log(0.5), -math.huge }, C:logpmf(M{2, 4}), 1e-15)
    near({ 0.2, 1 }, C:cdf(M{1, 3}), 1e-15)
    near({ 2 }, C:ppf(M{0.6}), 0)
    local Be = d.Bernoulli{ p = 0.25 }
    near({ math.log(0.75), math.log(0.25) }, Be:logpmf(M{0, 1}), 1e-15)
  end)

  it("sample with the right moments (5 standard errors, fixed seeds)", function()
    local n = 40000
    for _, D in ipairs({ d.Normal{ mu = 1, sigma = 2 }, d.Gamma{ shape = 2.5, rate = 1.5 },
      d.Beta{ a = 2, b = 3 }, d.StudentT{ df = 6, loc = 1, scale = 2 }, d.LogNormal{ mu = 0.2, sigma = 0.3 },
      d.Laplace{ mu = 1, b = 2 }, d.Exponential{ rate = 3 }, d.Binomial{ n = 10, p = 0.3 },
      d.Poisson{ lambda = 4 }, d.Geometric{ p = 0.3 }, d.NegativeBinomial{ r = 2.5, p = 0.4 },
      d.F{ d1 = 5, d2 = 12 }, d.ChiSquared{ df = 3 }, d.Uniform{ a = -1, b = 2 },
      d.Categorical{ p = { 0.2, 0.5, 0.3 } }, d.Bernoulli{ p = 0.3 } }) do
      local x = D:sample(n, luma.random.Generator(7))
      local se = math.sqrt(D:var() / n)
      assert.is_true(math.abs(x:mean() - D:mean()) < 5 * se, tostring(D))
    end
  end)

  it("fit by maximum likelihood", function()
    local g = luma.random.Generator(8)
    local n = 20000
    local G = d.Gamma.fit(d.Gamma{ shape = 2.5, rate = 1.5 }:sample(n, g))
    assert.is_true(math.abs(G.shape - 2.5) < 0.1 and math.abs(G.rate - 1.5) < 0.1)
    local B = d.Beta.fit(d.Beta{ a = 2, b = 3 }:sample(n, g))
    assert.is_true(math.abs(B.a - 2) < 0.1 and math.abs(B.b - 3) < 0.15)
    local N = d.Normal.fit(M{1, 2, 3, 4})
    assert.equal(2.5, N.mu)
    assert.is_true(math.abs(N.sigma - math.sqrt(1.25)) < 1e-15) -- divides by n
    assert.equal(0.25, d.Poisson.fit(M{0, 0, 1, 0}).lambda)
    assert.equal(0.3, d.Binomial.fit(M{3, 3}, { n = 10 }).p)
    assert.is_true(math.abs(d.Exponential.fit(M{1, 3}).rate - 0.5) < 1e-15)
    local NB = d.NegativeBinomial.fit(d.NegativeBinomial{ r = 2.5, p = 0.4 }:sample(n, g))
    assert.is_true(math.abs(NB.r - 2.5) < 0.25)
    local T = d.StudentT.fit(d.StudentT{ df = 5, loc = 1, scale = 2 }:sample(n, g), { df = 5 })
    assert.is_true(math.abs(T.loc - 1) < 0.05 and math.abs(T.scale - 2) < 0.05)
    near({ 0.25, 0.5, 0.25 }, d.Categorical.fit(M{1, 2, 2, 3}).p, 0)
  end)
end)

describe("multivariate distributions #smoke", function()
  local mvn = d.MultivariateNormal{ mean = { 1, 2 }, cov = M{{2, 0.5}, {0.5, 1}} }

  it("match SciPy", function()
    near({ -4.11768496, -2.11768496 }, mvn:logpdf(M{{0, 0}, {1, 2}}), 1e-8)
    assert.is_true(math.abs(mvn:entropy() - 3.1176849603770567) < 1e-10)
    local D = d.Dirichlet{ alpha = { 2, 3, 4 } }
    near({ 2.0228711901914433 }, D:logpdf(M{{0.2, 0.3, 0.5}}))
    assert.is_true(math.abs(D:entropy() - -1.312553395814394) < 1e-10)
    near({ -2.002480500543707 }, d.Multinomial{ n = 5, p = { 0.2, 0.3, 0.5 } }:logpmf(M{{1, 2, 2}}))
  end)

  it("condition and marginalize Gaussians (notes 001 §E)", function()
    local c = mvn:conditional({ 2 }, { 3 })
    near({ 1.5 }, c.mean, 1e-15) -- 1 + 0.5 / 1 * (3 - 2)
    near({{ 1.75 }}, c.cov, 1e-15) -- 2 - 0.5^2 / 1
    local m = mvn:marginal({ 2 })
    near({ 2 }, m.mean, 0)
    near({{ 1 }}, m.cov, 0)
  end)

  it("sample and fit", function()
    local X = mvn:sample(20000, luma.random.Generator(9))
    local fit = d.MultivariateNormal.fit(X)
    assert.matrix_near({{ 1 }, { 2 }}, fit.mean, 0.05)
    assert.matrix_near({{ 2, 0.5 }, { 0.5, 1 }}, fit.cov, 0.1)
    local P = d.Dirichlet{ alpha = { 2, 3, 4 } }:sample(5000, luma.random.Generator(10))
    assert.matrix_near(luma.ones(5000, 1), P:sum(2), 1e-12)
    local A = d.Dirichlet.fit(P).alpha
    assert.matrix_near({{ 2 }, { 3 }, { 4 }}, A, 0.1)
    local C = d.Multinomial{ n = 7, p = { 0.2, 0.3, 0.5 } }:sample(100, luma.random.Generator(11))
    assert.matrix_near(luma.full(100, 1, 7), C:sum(2), 0)
  end)

  it("mix components (notes 004 eq. 11.5)", function()
    local mix = d.Mixture{ components = { d.Normal{ mu = -2, sigma = math.sqrt(0.5) },
      d.Normal{ mu = 1, sigma = math.sqrt(2) }, d.Normal{ mu = 4, sigma = 1 } },
      weights = { 0.5, 0.2, 0.3 } }
    assert.is_true(math.abs(mix:pdf(0) - 0.049146024353024724) < 1e-15)
    -- the density integrates to 1
    local grid = luma.linspace(-15, 15, 6001)
    assert.is_true(math.abs(mix:pdf(grid):sum() * (30 / 6000) - 1) < 1e-9)
    local x = mix:sample(30000, luma.random.Generator(12))
    assert.is_true(math.abs(x:mean() - (0.5 * -2 + 0.2 * 1 + 0.3 * 4)) < 0.05)
  end)
end)

describe("matrix-variate and heavy-tailed distributions #smoke", function()
  it("match SciPy (multivariate_t, wishart, invwishart)", function()
    local t = d.MultivariateStudentT{ df = 4, loc = { 1, 2 }, shape = M{{2, 0.5}, {0.5, 1}} }
    near({ -4.1971265, -2.11768496 }, t:logpdf(M{{0, 0}, {1, 2}}), 1e-8)
    local V = M{{2, 0.3}, {0.3, 1}}
    local W = d.Wishart{ df = 5, scale = V }
    assert.is_true(math.abs(W:logpdf(M{{3, 1}, {1, 4}}) - -6.265159637550557) < 1e-10)
    local IW = d.InverseWishart{ df = 5, scale = V }
    assert.is_true(math.abs(IW:logpdf(M{{3, 1}, {1, 4}}) - -12.769333974971754) < 1e-10)
    assert.equal(-math.huge, W:logpdf(M{{1, 2}, {2, 1}})) -- not positive definite
  end)

  it("sample around their means", function()
    local V = M{{2, 0.3}, {0.3, 1}}
    local function average(list)
      local acc = luma.zeros(2, 2)
      for _, w in ipairs(list) do acc = acc + w end
      return acc / #list
    end
    assert.matrix_near(V * 5, average(d.Wishart{ df = 5, scale = V }:sample(4000, luma.random.Generator(1))), 0.05)
    assert.matrix_near(V / 2, average(d.InverseWishart{ df = 5, scale = V }:sample(4000, luma.random.Generator(2))), 0.05)
    local t = d.MultivariateStudentT{ df = 6, loc = { 1, 2 }, shape = V }
    local X = t:sample(20000, luma.random.Generator(3))
    assert.matrix_near({{ 1, 2 }}, X:mean(1), 0.05)
    assert.matrix_near(V * 1.5, luma.stats.cov(X), 0.15) -- shape df / (df - 2)
  end)
end)

describe("more fits, entropies and goodness of fit #smoke", function()
  it("fit F, multivariate t, Wishart, inverse Wishart and multinomial", function()
    local g = luma.random.Generator(3)
    local f = d.F.fit(d.F{ d1 = 6, d2 = 15 }:sample(20000, g))
    assert.is_true(math.abs(f.d1 - 6) < 0.5 and math.abs(f.d2 - 15) < 1.5)
    local V = M{{2, 0.5}, {0.5, 1}}
    local t = d.MultivariateStudentT.fit(d.MultivariateStudentT{ df = 5, loc = { 1, 2 }, shape = V }:sample(20000, g), { df = 5 })
    assert.matrix_near({{1}, {2}}, t.loc, 0.05)
    assert.matrix_near(V, t.shape, 0.08)
    local W = d.Wishart.fit(d.Wishart{ df = 6, scale = V }:sample(3000, g))
    assert.is_true(math.abs(W.df - 6) < 0.4)
    local IW = d.InverseWishart.fit(d.InverseWishart{ df = 7, scale = V }:sample(3000, g))
    assert.is_true(math.abs(IW.df - 7) < 0.5)
    near({ 1 / 3, 1 / 3, 1 / 3 }, d.Multinomial.fit(M{{1, 2, 3}, {3, 2, 1}}).p, 1e-15)
  end)

  it("give closed-form entropies (SciPy for F; the formula checked by Monte Carlo for t)", function()
    assert.is_true(math.abs(d.F{ d1 = 3, d2 = 7 }:entropy() - 1.2975738670236565) < 1e-10)
    local t = d.MultivariateStudentT{ df = 4, loc = { 1, 2 }, shape = M{{2, 0.5}, {0.5, 1}} }
    assert.is_true(math.abs(t:entropy() - 3.6176849603770567) < 1e-12)
    local x = t:sample(200000, luma.random.Generator(4))
    assert.is_true(math.abs(-t:logpdf(x):mean() - t:entropy()) < 0.02)
    local V = M{{2, 0.3}, {0.3, 1}}
    assert.is_true(math.abs(d.Wishart{ df = 5, scale = V }:entropy() - 7.781203242421553) < 1e-10) -- scipy
    -- inverse Wishart: against -E log p over 100,000 draws (standard error 0.0085)
    local IW = d.InverseWishart{ df = 5, scale = V }
    local draws, total = IW:sample(100000, luma.random.Generator(5)), 0
    for _, X in ipairs(draws) do total = total - IW:logpdf(X) end
    assert.is_true(math.abs(total / #draws - IW:entropy()) < 5 * 0.0085)
    -- multinomial: scipy.stats.multinomial(5, [.2, .3, .5]).entropy()
    assert.is_true(math.abs(d.Multinomial{ n = 5, p = { 0.2, 0.3, 0.5 } }:entropy() - 2.5918085962714983) < 1e-10)
  end)

  it("sample what their cdfs say (Kolmogorov-Smirnov at fixed seeds)", function()
    for _, D in ipairs({ d.Normal{ mu = 1, sigma = 2 }, d.Gamma{ shape = 0.7, rate = 2 },
      d.Beta{ a = 0.5, b = 3 }, d.StudentT{ df = 3 }, d.F{ d1 = 4, d2 = 9 }, d.Laplace{},
      d.LogNormal{ sigma = 0.8 }, d.Exponential{ rate = 0.5 } }) do
      local r = luma.stats.kstest(D:sample(5000, luma.random.Generator(5)), D)
      assert.is_true(r.pvalue > 0.01, tostring(D) .. " p = " .. r.pvalue)
    end
  end)

  it("reach the Normal-Inverse priors from luma.dist", function()
    assert.equal("luma.bayes.NormalInverseGamma", d.NormalInverseGamma.__name)
    local mu, var = d.NormalInverseGamma{ alpha = 3, beta = 4, gamma = 2, delta = 1 }:sample(50000, luma.random.Generator(6))
    assert.is_true(math.abs(var:mean() - 2) < 0.05) -- beta / (alpha - 1)
    assert.is_true(math.abs(mu:mean() - 1) < 0.02)
    local draws = d.NormalInverseWishart{ alpha = 5, psi = M{{2, 0.3}, {0.3, 1}}, gamma = 2, delta = { 1, 0 } }:sample(3, luma.random.Generator(7))
    assert.equal(3, #draws)
    assert.same({ 2, 2 }, { draws[1].sigma:shape() })
  end)
end)

describe("distribution errors", function()
  it("name the bad parameter", function()
    assert.has_error(function() d.Normal{ mu = 0, sigma = -1 } end,
      "luma.dist.Normal: sigma must be a finite number > 0, got -1")
    assert.has_error(function() d.Normal{ sd = 1 } end,
      "luma.dist.Normal: unknown parameter 'sd' (valid: mu, sigma)")
    assert.has_error(function() d.Gamma{ shape = 2, rate = 1, scale = 1 } end,
      "luma.dist.Gamma: give rate or scale, not both")
    assert.has_error(function() d.Binomial{ n = 2.5, p = 0.5 } end,
      "luma.dist.Binomial: n must be an integer >= 0, got 2.5")
    assert.has_error(function() d.Bernoulli{ p = 1.5 } end,
      "luma.dist.Bernoulli: p must be a probability in [0, 1], got 1.5")
    assert.has_error(function() d.Categorical{ p = { 0.5, 0.6 } } end,
      "luma.dist.Categorical: p sums to 1.1, not 1")
    assert.has_error(function() d.Uniform{ a = 2, b = 1 } end,
      "luma.dist.Uniform: b must be greater than a (1 <= 2)")
    assert.error_matches(function() d.MultivariateNormal{ mean = { 0, 0 }, cov = M{{1, 2}, {2, 1}} } end,
      "luma.dist.MultivariateNormal: cov is not symmetric positive definite")
    assert.has_error(function() d.StudentT{ df = 0 } end,
      "luma.dist.StudentT: df must be a finite number > 0, got 0")
    assert.has_error(function() d.Normal{}:ppf(1.5) end, "Normal.ppf: probabilities must be in [0, 1]")
    assert.has_error(function() d.Normal{}:sample(-1) end, "sample: n must be an integer >= 0, got -1")
    assert.has_error(function() d.Gamma.fit(M{1, -1}) end, "Gamma.fit: data must be > 0")
    assert.has_error(function() d.Normal.fit(luma.zeros(0, 1)) end, "Normal.fit: data must be a non-empty matrix")
    assert.has_error(function() d.Wishart{ df = 0.5, scale = luma.eye(2) } end,
      "luma.dist.Wishart: df must be > 1 (D - 1), got 0.5")
    assert.has_error(function() return d.MultivariateNormal{ mean = { 0, 0 } }:logpdf(M{1, 2, 3}) end,
      "MultivariateNormal.logpdf: points must be rows of 2 columns")
  end)
end)

describe("help of the distribution classes", function()
  -- pmf is pdf (one function under two names) and help records are keyed
  -- by function: each must be listed once, the other name as an alias.
  it("lists each method once", function()
    for _, name in ipairs({ "NegativeBinomial", "Normal", "Poisson", "Multinomial", "Wishart" }) do
      local text = luma.help(d[name])
      local seen = {}
      for line in text:gmatch("[^\n]+") do
        assert.is_nil(seen[line], name .. ": duplicated help line " .. line)
        seen[line] = true
      end
    end
    local nb = luma.help(d.NegativeBinomial)
    assert.truthy(nb:find("d:pmf(k)", 1, true))
    assert.truthy(nb:find("(also pdf)", 1, true))
    assert.falsy(nb:find("d:pdf(x)", 1, true))
    local normal = luma.help(d.Normal)
    assert.truthy(normal:find("d:logpdf(x)", 1, true))
    assert.falsy(normal:find("d:logpmf(k)", 1, true))
    assert.falsy(luma.help(d.Wishart):find("d:cdf(x)", 1, true)) -- no cdf for matrices
  end)
end)

describe("NegativeBinomial's parameterisation", function()
  -- failures before the r-th success, success probability p (scipy.stats.nbinom)
  it("has the documented pmf, mean and variance, and sample agrees", function()
    local nb = d.NegativeBinomial{ r = 3, p = 0.4 }
    -- C(k + r - 1, k) p^r (1 - p)^k at k = 2: C(4, 2) 0.4^3 0.6^2 = 6 * 0.064 * 0.36
    assert.is_true(math.abs(nb:pmf(2) - 0.13824) < 1e-15)
    assert.is_true(math.abs(nb:pmf(0) - 0.064) < 1e-16) -- three successes first
    -- the moments of the pmf summed over its support against mean() and var()
    local ks = luma.arange(0, 400)
    local pk = nb:pmf(ks)
    local m1 = pk:dot(ks)
    local m2 = pk:dot(ks:pow(2)) - m1 ^ 2
    assert.is_true(math.abs(pk:sum() - 1) < 1e-13)
    assert.is_true(math.abs(nb:mean() - 4.5) < 1e-15) -- r (1 - p) / p
    assert.is_true(math.abs(nb:var() - 11.25) < 1e-14) -- r (1 - p) / p^2
    assert.is_true(math.abs(m1 - 4.5) < 1e-11)
    assert.is_true(math.abs(m2 - 11.25) < 1e-10)
    -- sampling (a real r) against the same moments: 200000 draws, the
    -- mean within 4 standard errors, the variance within 3 %
    local real = d.NegativeBinomial{ r = 2.5, p = 0.4 }
    local draws = real:sample(200000, luma.random.Generator(11))
    assert.is_true(math.abs(draws:mean() - real:mean()) < 4 * math.sqrt(real:var() / 200000))
    assert.is_true(math.abs(draws:var() / real:var() - 1) < 0.03)
    assert.is_true(draws:eq(draws:floor()):all() and draws:min() >= 0)
  end)

  it("says so in help()", function()
    local text = luma.help(d.NegativeBinomial)
    assert.truthy(text:find("failures before the r-th success", 1, true))
    assert.truthy(text:find("C(k + r - 1, k) p^r (1 - p)^k", 1, true))
    assert.truthy(text:find("probability of success of each trial", 1, true))
  end)
end)
