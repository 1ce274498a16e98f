-- The tails of the 1-D distributions (sf, logsf, logcdf, isf), computed
-- directly rather than as 1 - cdf: one point in each tail for each
-- distribution.  Unless a comment says otherwise the reference is SciPy
-- 1.10.1 (Debian /usr/bin/python3) with the call written next to it, e.g.
-- scipy.stats.chi2(3).sf(200), printed with repr().  Where SciPy's own
-- value is wrong (it computes that quantity as 1 - something, or gives
-- inf / nan), the reference is mpmath 1.2.1 at 50 digits, as noted.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local d = luma.dist

local function close(expected, got, rtol, what)
  rtol = rtol or 1e-10
  local ok = expected == got or math.abs(got - expected) <= rtol * math.abs(expected)
  assert(ok, string.format("%s: expected %.17g, got %.17g", what or "", expected, got))
end

describe("distribution tails #smoke", function()
  it("Normal: erfc tails and the asymptotic log-cdf", function()
    local N = d.Normal{}
    close(4.906713927147908e-198, N:sf(30))            -- norm().sf(30)
    close(-804.6084420137539, N:logcdf(-40), 1e-14)    -- norm().logcdf(-40)
    close(-804.6084420137539, N:logsf(40), 1e-14)      -- norm().logsf(40)
    close(-7.619853024160473e-24, N:logcdf(10), 1e-12) -- norm().logcdf(10)
    close(-7.619853024160473e-24, N:logsf(-10), 1e-12) -- norm().logsf(-10)
    close(37.0470962993612, N:isf(1e-300), 1e-14)      -- norm().isf(1e-300)
    close(0.5244005127080409, N:isf(0.3))              -- norm().isf(0.3)
    local N2 = d.Normal{ mu = 1, sigma = 2 }
    close(2.7536241186061556e-89, N2:sf(41))           -- norm(1, 2).sf(41)
    close(19.524680179596817, N2:isf(1e-20))           -- norm(1, 2).isf(1e-20)
    close(-804.6084420137539, N2:logcdf(-79), 1e-14)   -- norm(1, 2).logcdf(-79)
    -- log_ndtr against scipy.special.log_ndtr on both sides of its switches
    close(-214.06672896326387, luma.special.log_ndtr(-20.5), 1e-14)
    close(-194.01696577749752, luma.special.log_ndtr(-19.5), 1e-14)
    close(-2.8665161296376305e-07, luma.special.log_ndtr(5), 1e-12)
  end)

  it("LogNormal, Uniform, Exponential and Laplace: closed forms", function()
    local L = d.LogNormal{ mu = 0.2, sigma = 0.5 } -- lognorm(0.5, scale=exp(0.2))
    close(6.238321940766018e-19, L:sf(100))         -- .sf(100)
    close(-166.1859817859027, L:logsf(1e4))         -- .logsf(1e4)
    close(-180.96571013796162, L:logcdf(1e-4))      -- .logcdf(1e-4)
    -- SciPy's lognorm.isf(1e-15) is 64.7622 (its sf there is 9.992e-16: it
    -- inverts 1 - q); exp(0.2 + 0.5 * norm.isf(1e-15)) = 64.75899844746279:
    close(64.75899844746279, L:isf(1e-15))
    assert.equal(1, L:sf(-1))
    assert.equal(-math.huge, L:logcdf(0))
    local U = d.Uniform{ a = -1, b = 3 }            -- uniform(-1, 4)
    close(0.125, U:sf(2.5), 1e-15)                  -- .sf(2.5)
    close(-2.0794415416798357, U:logsf(2.5), 1e-15) -- .logsf(2.5)
    close(-2.0794415416798357, U:logcdf(-0.5), 1e-15) -- .logcdf(-0.5)
    close(2.0, U:isf(0.25), 1e-15)                  -- .isf(0.25)
    local E = d.Exponential{ rate = 3 }             -- expon(scale=1/3)
    close(7.175095973164411e-66, E:sf(50))          -- .sf(50)
    close(-3000.0, E:logsf(1000), 1e-15)            -- .logsf(1000)
    close(-44.9530895712128, E:logcdf(1e-20))       -- .logcdf(1e-20)
    close(153.5056728662697, E:isf(1e-200))         -- .isf(1e-200)
    -- SciPy's expon.logcdf(20) is 0.0; log(1 - e^-60) by mpmath:
    close(-8.7565107626965203385e-27, E:logcdf(20))
    local La = d.Laplace{ mu = 1, b = 2 }           -- laplace(1, 2)
    close(2.200375341953781e-109, La:sf(500))       -- .sf(500)
    close(460.1307242376892, La:isf(1e-100))        -- .isf(1e-100)
    -- SciPy's laplace.logcdf(60) is -7.71605e-14 (log of a rounded cdf);
    -- log(1 - e^-29.5 / 2) by mpmath:
    close(-7.7140560159597366982e-14, La:logcdf(60))
    -- SciPy gives -inf for both (log of an underflowed sf); the closed
    -- form log(1/2) - 4999/2, by mpmath:
    close(-2500.1931471805599453, La:logsf(5000), 1e-15)
    close(-2500.1931471805599453, La:logcdf(-4998), 1e-15)
  end)

  it("Gamma and ChiSquared: the upper incomplete gamma", function()
    local C = d.ChiSquared{ df = 3 }
    close(4.218541107192018e-43, C:sf(200))          -- chi2(3).sf(200)
    close(-97.57166963966344, C:logsf(200))          -- chi2(3).logsf(200)
    close(202.89320056877028, C:isf(1e-43))          -- chi2(3).isf(1e-43)
    assert.equal(0, 1 - C:cdf(200)) -- what 1 - cdf gave
    local G = d.Gamma{ shape = 2.5, rate = 1.5 }     -- gamma(2.5, scale=1/1.5)
    close(1.0015302305957817e-62, G:sf(100))         -- .sf(100)
    close(-142.75874670464486, G:logsf(100))         -- .logsf(100)
    close(65.81489537731662, G:isf(1e-40))           -- .isf(1e-40)
    close(-28.969635208782847, G:logcdf(1e-5))       -- .logcdf(1e-5)
    close(0.5367693289874407, G:isf(0.9))            -- .isf(0.9)
  end)

  it("Beta, StudentT and F: the incomplete beta with swapped arguments", function()
    local B = d.Beta{ a = 2, b = 3 }                 -- beta(2, 3)
    close(3.999699999998678e-12, B:sf(0.9999), 1e-9) -- .sf(0.9999)
    close(0.9999370029553327, B:isf(1e-12))          -- .isf(1e-12)
    close(-25.839262980034214, B:logcdf(1e-6))       -- .logcdf(1e-6)
    -- SciPy's beta.logsf(1e-6) is -5.99998e-12 (log of a rounded sf);
    -- log(1 - I_x(2, 3)) at x = 1e-6 by mpmath:
    close(-5.999992000020999409e-12, B:logsf(1e-6))
    close(0.04199863562170074, B:isf(0.99))          -- .isf(0.99)
    local T = d.StudentT{ df = 4, loc = 1, scale = 2 } -- t(4, 1, 2)
    close(4.8019191993280135e-15, T:sf(1e4))         -- .sf(1e4)
    close(-32.97056072361149, T:logcdf(-1e4))        -- .logcdf(-1e4)
    close(0.9999999999521928, T:sf(-1e3), 1e-15)     -- .sf(-1e3)
    -- SciPy's t.logsf(-1e3) is -4.78072026e-11 (log of a rounded sf);
    -- log(1 - I_{4/(4+z^2)}(2, 1/2) / 2) at z = -500.5 by mpmath:
    close(-4.7807206722677013085e-11, T:logsf(-1e3))
    -- SciPy's t.isf(1e-30) is 83235829.945883 (its sf there is
    -- 1.0000000029e-30); the root of sf = 1e-30 by mpmath (betainc):
    close(83235830.005756264173, T:isf(1e-30))
    local F = d.F{ d1 = 3, d2 = 7 }                  -- f(3, 7)
    close(1.4285695505804222e-16, F:sf(1e5))         -- .sf(1e5)
    close(-36.48468785856057, F:logsf(1e5))          -- .logsf(1e5)
    close(0.007599774174264018, F:isf(0.999))        -- .isf(0.999)
    -- SciPy's f.isf(1e-25) is inf; the root of sf = 1e-25 by mpmath:
    close(41275975.23730727502, F:isf(1e-25))
  end)

  it("discrete: Bernoulli, Binomial, Geometric, NegativeBinomial, Poisson, Categorical", function()
    local Be = d.Bernoulli{ p = 0.3 }                -- bernoulli(0.3)
    assert.same({ 1, 0.3, 0 }, { Be:sf(-1), Be:sf(0), Be:sf(1) })
    assert.same({ 1, 0 }, { Be:isf(0.2), Be:isf(0.5) }) -- .isf(0.2), .isf(0.5)
    close(-1.203972804325936, Be:logsf(0), 1e-15)    -- .logsf(0)
    local Bi = d.Binomial{ n = 100, p = 0.3 }        -- binom(100, 0.3)
    close(2.09740116652312e-37, Bi:sf(90))           -- .sf(90)
    close(-84.45494940218587, Bi:logsf(90))          -- .logsf(90)
    close(-21.641322274349946, Bi:logcdf(5))         -- .logcdf(5)
    close(0.9999999999996917, Bi:sf(2), 1e-15)       -- .sf(2)
    assert.equal(100, Bi:isf(0))                     -- .isf(0)
    -- SciPy's binom.isf(1e-30) is 100 (it inverts 1 - q); the smallest k
    -- with sf(k) <= 1e-30: binom.sf(84) = 4.67e-30, binom.sf(85) = 3.47e-31
    assert.equal(85, Bi:isf(1e-30))
    local Ge = d.Geometric{ p = 0.3 }                -- geom(0.3)
    close(3.234476509624748e-16, Ge:sf(100))         -- .sf(100)
    close(-356.6749439387324, Ge:logsf(1000))        -- .logsf(1000)
    assert.equal(97, Ge:isf(1e-15))                  -- .isf(1e-15)
    -- SciPy's geom.logcdf(100) is -3.33e-16 (log of 1 - sf); log(1 - 0.7^100) by mpmath:
    close(-3.2344765096247585144e-16, Ge:logcdf(100))
    assert.equal(2, d.Geometric{ p = 0.5 }:isf(0.25)) -- geom(0.5).isf(0.25): an exact boundary
    assert.equal(2, d.Geometric{ p = 0.5 }:ppf(0.75)) -- geom(0.5).ppf(0.75)
    local NB = d.NegativeBinomial{ r = 2.5, p = 0.4 } -- nbinom(2.5, 0.4)
    close(1.4174749311134104e-42, NB:sf(200))        -- .sf(200)
    close(-96.35969683456808, NB:logsf(200))         -- .logsf(200)
    close(-2.2907268296853873, NB:logcdf(0))         -- .logcdf(0)
    assert.equal(146, NB:isf(1e-30))                 -- .isf(1e-30)
    local P = d.Poisson{ lambda = 4 }                -- poisson(4)
    close(2.050727303928192e-49, P:sf(60))           -- .sf(60)
    close(-112.10847504407431, P:logsf(60))          -- .logsf(60)
    close(-4, P:logcdf(0), 1e-15)                    -- .logcdf(0)
    -- SciPy's poisson.isf(1e-40) is nan; poisson.sf(52) = 3.75e-40 and
    -- poisson.sf(53) = 2.78e-41, so the smallest k with sf(k) <= 1e-40 is 53
    assert.equal(53, P:isf(1e-40))
    -- rv_discrete(values=([1, 2, 3], [0.6, 0.4 - 1e-12, 1e-12])).sf(2) is
    -- 9.99978e-13 (1 - cdf); the sum of the probabilities above 2 is 1e-12
    local Ca = d.Categorical{ p = { 0.6, 0.4 - 1e-12, 1e-12 } }
    close(1e-12, Ca:sf(2), 1e-15)
    assert.same({ 1, 1, 0 }, { Ca:sf(0), Ca:sf(0.5), Ca:sf(3) })
    assert.same({ 2, 3, 1 }, { Ca:isf(1e-12), Ca:isf(5e-13), Ca:isf(0.5) }) -- the same from rv_discrete.isf
  end)

  it("agree with cdf and ppf in the body: sf + cdf = 1, isf(q) = ppf(1 - q)", function()
    local dists = { d.Normal{ mu = 1, sigma = 2 }, d.LogNormal{ mu = 0.2, sigma = 0.5 },
      d.Uniform{ a = -1, b = 3 }, d.Exponential{ rate = 3 }, d.Laplace{ mu = 1, b = 2 },
      d.Gamma{ shape = 2.5, rate = 1.5 }, d.ChiSquared{ df = 3 }, d.Beta{ a = 2, b = 3 },
      d.StudentT{ df = 4, loc = 1, scale = 2 }, d.F{ d1 = 3, d2 = 7 } }
    local xs = luma.matrix{ 0.3, 0.7, 1.7 }
    local qs = luma.matrix{ 0.05, 0.5, 0.75 }
    for _, D in ipairs(dists) do
      assert.matrix_near(luma.ones(3, 1), D:sf(xs) + D:cdf(xs), 1e-14)
      assert.matrix_near(D:cdf(xs):log(), D:logcdf(xs), 1e-12)
      assert.matrix_near(D:sf(xs):log(), D:logsf(xs), 1e-12)
      assert.matrix_near(D:ppf(qs * -1 + 1), D:isf(qs), 1e-9)
    end
    local discrete = { d.Bernoulli{ p = 0.3 }, d.Binomial{ n = 10, p = 0.3 }, d.Geometric{ p = 0.3 },
      d.NegativeBinomial{ r = 2.5, p = 0.4 }, d.Poisson{ lambda = 4 }, d.Categorical{ p = { 0.2, 0.5, 0.3 } } }
    local ks = luma.matrix{ -1, 0, 1, 2, 3, 7 }
    for _, D in ipairs(discrete) do
      assert.matrix_near(luma.ones(6, 1), D:sf(ks) + D:cdf(ks), 1e-14)
      assert.matrix_near(D:ppf(luma.matrix{ 0.95, 0.5, 0.25 }), D:isf(luma.matrix{ 0.05, 0.5, 0.75 }), 0)
    end
  end)

  it("reject probabilities outside [0, 1] in isf; multivariate kinds have no tails", function()
    assert.has_error(function() d.Normal{}:isf(1.5) end, "Normal.isf: probabilities must be in [0, 1]")
    assert.has_error(function() d.Poisson{ lambda = 1 }:isf(luma.matrix{ 0.5, -0.1 }) end,
      "Poisson.isf: probabilities must be in [0, 1]")
    assert.is_nil(d.MultivariateNormal{ mean = { 0, 0 } }.sf)
    assert.is_nil(d.Wishart{ df = 3, scale = luma.eye(2) }.isf)
  end)
end)
