-- The exponential-family form of luma.dist (notes 002 X1-X3) and the
-- natural conjugate prior (Y4), checked by identities: the density
-- rebuilt from S, theta, h and psi; grad psi by finite differences;
-- moment matching against each family's maximum-likelihood fit; and the
-- conjugate update against every named pair of luma.bayes.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local D, B = luma.dist, luma.bayes

local CASES = {
  { D.Normal{ mu = 1.5, sigma = 0.7 }, luma.matrix{ -1, 0.3, 2.2, 1.1 } },
  { D.Bernoulli{ p = 0.3 }, luma.matrix{ 0, 1, 1, 0, 1 } },
  { D.Categorical{ p = { 0.2, 0.5, 0.3 } }, luma.matrix{ 1, 2, 3, 2, 2 } },
  { D.Poisson{ lambda = 2.5 }, luma.matrix{ 0, 3, 7, 2 } },
  { D.Exponential{ rate = 1.7 }, luma.matrix{ 0.1, 2, 0.6 } },
  { D.Gamma{ shape = 2.5, rate = 1.3 }, luma.matrix{ 0.4, 3, 1.7, 2.2 } },
  { D.Beta{ a = 2, b = 3.5 }, luma.matrix{ 0.2, 0.7, 0.35, 0.5 } },
  { D.Multinomial{ n = 5, p = { 0.2, 0.5, 0.3 } }, luma.matrix{ { 1, 2, 2 }, { 5, 0, 0 }, { 0, 4, 1 } } },
  { D.MultivariateNormal{ mean = { 1, -1 }, cov = luma.matrix{ { 2, 0.3 }, { 0.3, 1 } } },
    luma.matrix{ { 0, 0 }, { 1, 2 }, { -0.5, 0.3 } } },
}

describe("exponential families", function()
  it("rebuild each density as h(x) exp(<S(x), theta> - psi(theta))", function()
    for _, c in ipairs(CASES) do
      local d, x = c[1], c[2]
      local rebuilt = d:sufficient_statistics(x) * d:natural_parameters() + d:log_base_measure(x)
        - d:log_partition()
      assert.matrix_near(d:logpdf(x), rebuilt, 1e-12)
    end
  end)

  it("have grad psi(theta) = E[S] (central differences of psi)", function()
    for _, c in ipairs(CASES) do
      local d = c[1]
      local theta, mean = d:natural_parameters(), d:mean_statistics()
      for i = 1, theta:rows() do
        local h = 1e-5 * math.max(1, math.abs(theta:get(i, 1)))
        local up, down = theta:copy(), theta:copy()
        up:set(i, 1, theta:get(i, 1) + h)
        down:set(i, 1, theta:get(i, 1) - h)
        local fd = (d:from_natural(up):log_partition() - d:from_natural(down):log_partition()) / (2 * h)
        assert.near(mean:get(i, 1), fd, 1e-6 * math.max(1, math.abs(fd)),
          tostring(d) .. " entry " .. i)
      end
    end
  end)

  it("map theta and the mean statistics back to the distribution", function()
    for _, c in ipairs(CASES) do
      local d = c[1]
      local theta = d:natural_parameters()
      assert.matrix_near(theta, d:from_natural(theta):natural_parameters(), 1e-10)
      assert.matrix_near(theta, d:from_mean_statistics(d:mean_statistics()):natural_parameters(), 1e-9)
    end
    -- the mean statistics are the moments they name
    local g = D.Gamma{ shape = 2.5, rate = 1.3 }
    assert.matrix_near({ { luma.special.digamma(2.5) - math.log(1.3) }, { 2.5 / 1.3 } },
      g:mean_statistics(), 1e-14)
    assert.matrix_near({ { 0.49 + 2.25 }, { 1.5 } }, D.Normal{ mu = 1.5, sigma = 0.7 }:mean_statistics(), 1e-14)
  end)

  it("fit by moment matching as each family's maximum likelihood", function()
    local g = luma.random.Generator(3)
    local data = {
      Normal = g:normal(200, 1, 2, 3), Exponential = g:exponential(2, 200, 1),
      Gamma = g:gamma(3, 200, 1) * 0.5, Beta = g:beta(2, 5, 200, 1),
      Poisson = g:poisson(4, 200, 1), Bernoulli = g:uniform(200, 1):lt(0.3),
    }
    for _, c in ipairs(CASES) do
      local d = c[1]
      local name = getmetatable(d).__name:match("([^.]+)$")
      local x = data[name]
      if x then
        local mle = D[name].fit(x)
        assert.matrix_near(mle:natural_parameters(), d:fit_moments(x):natural_parameters(), 1e-9)
      end
    end
    local labels = luma.matrix{ 1, 3, 3, 2, 3, 1 }
    assert.matrix_near(D.Categorical.fit(labels):natural_parameters(),
      CASES[3][1]:fit_moments(labels):natural_parameters(), 1e-12)
    local X = g:normal(100, 2) * luma.matrix{ { 1, 0.5 }, { 0, 2 } }
    local mvn = D.MultivariateNormal.fit(X)
    local by_moments = CASES[9][1]:fit_moments(X)
    assert.matrix_near(mvn.mean, by_moments.mean, 1e-12)
    assert.matrix_near(mvn.cov, by_moments.cov, 1e-12)
    local counts = luma.matrix{ { 1, 2, 2 }, { 3, 1, 1 }, { 0, 4, 1 } }
    assert.matrix_near({ { 4 / 15 }, { 7 / 15 }, { 4 / 15 } }, CASES[8][1]:fit_moments(counts).p, 1e-14)
  end)

  it("refuse points outside the support and parameters outside the domain", function()
    support.errors_with("expfamily_spec.lua:%d+: luma.dist.Poisson.sufficient_statistics: point 2 "
      .. "of x lies outside the support", function()
        D.Poisson{ lambda = 1 }:sufficient_statistics(luma.matrix{ 1, -1 })
      end)
    support.errors_with("expfamily_spec.lua:%d+: luma.dist.Normal.from_natural: theta%[1%] must "
      .. "be < 0", function() D.Normal{}:from_natural({ 0.5, 1 }) end)
    support.errors_with("expfamily_spec.lua:%d+: luma.dist.Gamma.from_natural: theta must be a "
      .. "vector of 2 entries", function() D.Gamma{ shape = 1, rate = 1 }:from_natural({ 1 }) end)
    support.errors_with("expfamily_spec.lua:%d+: luma.dist.Gamma.fit_moments: point 1 of x lies "
      .. "outside", function() D.Gamma{ shape = 1, rate = 1 }:fit_moments(luma.matrix{ 0, 1 }) end)
  end)
end)

-- The named prior and data of each pair luma.bayes has.
local PAIRS = {
  { B.NaturalConjugate{ family = D.Bernoulli{ p = 0.5 }, lambda = 4, y = 1.5 }, luma.matrix{ 1, 0, 1, 1 } },
  { B.NaturalConjugate{ family = D.Categorical{ p = { 0.2, 0.3, 0.5 } }, lambda = 6, y = { 2, 1.5 } },
    luma.matrix{ 1, 3, 3, 2 } },
  { B.NaturalConjugate{ family = D.Poisson{ lambda = 1 }, lambda = 2, y = 3 }, luma.matrix{ 4, 0, 2 } },
  { B.NaturalConjugate{ family = D.Normal{}, sigma = 0.5, lambda = 3, y = 1.2 }, luma.matrix{ 0.3, 0.9 } },
  { B.NaturalConjugate{ family = D.Normal{}, lambda = 3, y = { 5, 1.2 } }, luma.matrix{ 0.3, 0.9, -0.4 } },
  { B.NaturalConjugate{ family = D.MultivariateNormal{ mean = { 0, 0 } }, lambda = 5,
      y = { 6, 0.5, 0.5, 4, 1, -1 } }, luma.matrix{ { 0.3, 0.9 }, { -1, 0.2 } } },
}

local function fields(prior)
  local out = {}
  for _, key in ipairs({ "a", "b", "alpha", "shape", "rate", "mu0", "sigma0", "beta", "gamma",
                         "delta", "psi" }) do
    local v = prior[key]
    if v ~= nil then out[key] = luma.ismatrix(v) and v or luma.matrix{ { v } } end
  end
  return out
end

describe("the natural conjugate prior", function()
  it("updates as (lambda + n, y + sum S), reproducing every named pair of luma.bayes", function()
    for _, pair in ipairs(PAIRS) do
      local prior, x = pair[1], pair[2]
      local via_natural = fields(prior:update(x):as_conjugate())
      local via_named = fields(prior:as_conjugate():update(x))
      for key, v in pairs(via_named) do
        assert.matrix_near(v, via_natural[key], 1e-12)
      end
      assert.equal(prior.lambda + x:rows(), prior:update(x).lambda)
    end
  end)

  it("has E[grad psi(theta)] = y / lambda (the notes' erratum X31)", function()
    -- Bernoulli: grad psi = p, and the prior is Beta(y, lambda - y), mean y / lambda
    local bern = PAIRS[1][1]
    assert.near(1.5 / 4, bern:as_conjugate():posterior():mean(), 1e-15)
    assert.matrix_near({ { 1.5 / 4 } }, bern:mean_statistics(), 1e-15)
    -- Poisson: grad psi = lambda, the prior Gamma(y, lambda), mean y / lambda
    assert.near(3 / 2, PAIRS[3][1]:as_conjugate():posterior():mean(), 1e-15)
    -- known-variance Normal: grad psi = mu, the prior N(y / lambda, sigma^2 / lambda)
    assert.near(1.2 / 3, PAIRS[4][1]:as_conjugate():posterior():mean(), 1e-15)
    -- map is the member whose mean statistics are y / lambda
    assert.matrix_near(bern:mean_statistics(), bern:map():mean_statistics(), 1e-15)
  end)

  it("has the density of the named prior in theta (the Jacobian accounted for)", function()
    -- Bernoulli: theta = logit p, dp/dtheta = p (1 - p); log q(theta) minus
    -- the Beta's log-density of p plus log dp/dtheta is a constant
    local bern = PAIRS[1][1]
    local beta = bern:as_conjugate():posterior()
    local offsets = {}
    for _, p in ipairs({ 0.1, 0.35, 0.8 }) do
      local theta = math.log(p / (1 - p))
      offsets[#offsets + 1] = bern:log_density(theta) - beta:logpdf(p) - math.log(p * (1 - p))
    end
    assert.near(offsets[1], offsets[2], 1e-12)
    assert.near(offsets[1], offsets[3], 1e-12)
    -- Normal: theta = (-1/(2 s), mu / s) with s = sigma^2, |d theta / d(mu, s)|
    -- = 1 / (2 s^3); the NormalInverseGamma must carry alpha = (lambda + 3) / 2
    local normal = PAIRS[5][1]
    local nig = normal:as_conjugate()
    offsets = {}
    for _, point in ipairs({ { 0.1, 0.5 }, { -0.7, 2 }, { 1.3, 0.9 } }) do
      local mu, s = point[1], point[2]
      offsets[#offsets + 1] = normal:log_density({ -1 / (2 * s), mu / s })
        - math.log(2 * s ^ 3) - nig:logpdf(mu, s)
    end
    assert.near(offsets[1], offsets[2], 1e-12)
    assert.near(offsets[1], offsets[3], 1e-12)
  end)

  it("refuses a family that is not exponential, and statistics of the wrong size", function()
    support.errors_with("expfamily_spec.lua:%d+: luma.bayes.NaturalConjugate: family must be a "
      .. "luma.dist distribution of an exponential family", function()
        B.NaturalConjugate{ family = D.StudentT{ df = 3 }, lambda = 1, y = 0 }
      end)
    support.errors_with("expfamily_spec.lua:%d+: luma.bayes.NaturalConjugate: y must be a finite "
      .. "vector of 2 entries", function()
        B.NaturalConjugate{ family = D.Normal{}, lambda = 1, y = 0 }
      end)
    support.errors_with("expfamily_spec.lua:%d+: luma.bayes.NaturalConjugate: luma.bayes has no "
      .. "named prior for the Gamma family", function()
        B.NaturalConjugate{ family = D.Gamma{ shape = 1, rate = 1 }, lambda = 1, y = { 0, -1 } }
          :as_conjugate()
      end)
  end)
end)
