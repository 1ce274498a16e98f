-- luma.montecarlo at fixed seeds: estimates within 5 standard errors of
-- closed forms, samplers reproducing their targets' moments, effective
-- sample sizes against the AR(1) formula, and the Ising example.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local mc = luma.montecarlo
local d = luma.dist
local M = luma.matrix
local support = require("support")

describe("Monte Carlo #smoke", function()
  it("estimates expectations with standard errors", function()
    local est, se = mc.estimate(function(x) return x:get(1, 1) ^ 2 end, d.Normal{}, 20000, { seed = 1 })
    assert.is_true(math.abs(est - 1) < 5 * se) -- E[X^2] = 1
    assert.is_true(se > 0.005 and se < 0.02) -- sqrt(Var X^2 / n) = sqrt(2 / 20000) = 0.01
  end)

  it("importance-samples with self-normalized weights", function()
    -- target N(1, 0.5^2) (unnormalized), proposal N(0, 2^2): E[x] = 1
    local log_p = function(x) return -((x:get(1, 1) - 1) ^ 2) / (2 * 0.25) end
    local est, w, ess = mc.importance_sampling(function(x) return x:get(1, 1) end, log_p,
      d.Normal{ mu = 0, sigma = 2 }, 20000, { seed = 2 })
    assert.is_true(math.abs(est - 1) < 0.03)
    assert.is_true(math.abs(w:sum() - 1) < 1e-12)
    assert.is_true(ess > 2000 and ess < 20000)
  end)

  it("rejection-samples under an envelope", function()
    -- Beta(2, 5) from Uniform(0, 1): the density's maximum is 2.4576 at x = 0.2
    local beta = d.Beta{ a = 2, b = 5 }
    local x, rate = mc.rejection_sampling(function(v) return beta:logpdf(v:get(1, 1)) end,
      d.Uniform{}, 2.5, 5000, { seed = 3 })
    assert.is_true(math.abs(x:mean() - 2 / 7) < 5 * math.sqrt(beta:var() / 5000))
    assert.is_true(math.abs(rate - 1 / 2.5) < 0.03) -- acceptance 1 / c
    assert.error_matches(function()
      mc.rejection_sampling(function(v) return beta:logpdf(v:get(1, 1)) end, d.Uniform{}, 1, 100, { seed = 3 })
    end, "p > c q at a draw")
  end)

  it("runs Metropolis-Hastings and reports the acceptance rate", function()
    local x, rate = mc.metropolis_hastings{ log_density = function(v) return -0.5 * v:get(1, 1) ^ 2 end,
      init = M{{3}}, n = 20000, step = 2.4, burn_in = 500, seed = 4 }
    assert.is_true(math.abs(x:mean()) < 0.1 and math.abs(x:var() - 1) < 0.1)
    assert.is_true(rate > 0.3 and rate < 0.6)
    -- an asymmetric (independence) proposal with its correction
    local q = d.Normal{ mu = 0.5, sigma = 1.5 }
    local y = mc.metropolis_hastings{ log_density = function(v) return -0.5 * v:get(1, 1) ^ 2 end,
      init = M{{0}}, n = 20000, seed = 5,
      proposal = function(_, g) return M{{ q:sample(1, g):get(1, 1) }} end,
      log_proposal = function(to) return q:logpdf(to:get(1, 1)) end }
    assert.is_true(math.abs(y:mean()) < 0.1 and math.abs(y:var() - 1) < 0.1)
  end)

  it("Gibbs-samples a bivariate normal from its conditionals", function()
    local rho = 0.8
    local sd = math.sqrt(1 - rho * rho)
    local x = mc.gibbs{ init = M{{0, 0}}, n = 20000, burn_in = 100, seed = 6, conditionals = {
      function(v, g) return g:normal(nil, nil, rho * v:get(1, 2), sd) end,
      function(v, g) return g:normal(nil, nil, rho * v:get(1, 1), sd) end } }
    local r = luma.stats.corr(x):get(1, 2)
    assert.is_true(math.abs(r - rho) < 0.03)
  end)

  it("computes effective sample sizes", function()
    local g = luma.random.Generator(7)
    local n = 20000
    local iid = mc.effective_sample_size(g:normal(n, 1)):get(1, 1)
    assert.is_true(math.abs(iid / n - 1) < 0.1)
    local ar = luma.zeros(n, 1) -- AR(1) with rho 0.9: ESS ~ n (1 - rho) / (1 + rho)
    local prev = 0
    for i = 1, n do
      prev = 0.9 * prev + g:normal()
      ar:set(i, 1, prev)
    end
    local ess = mc.effective_sample_size(ar):get(1, 1)
    assert.is_true(math.abs(ess / (n * 0.1 / 1.9) - 1) < 0.25, tostring(ess))
  end)

  it("runs the Ising example", function()
    local out, err, code = support.luma_run({ "scripts/examples/ising_gibbs.lua" })
    assert.equal(0, code)
    assert.equal("", err)
    local cold = tonumber(out:match("T = 1.0  mean |magnetization| = ([%d.]+)"))
    local hot = tonumber(out:match("T = 5.0  mean |magnetization| = ([%d.]+)"))
    assert.is_true(cold > 0.9 and hot < 0.3) -- ordered below, disordered above T_c = 2.27
  end)

  it("reports bad objectives and arguments", function()
    assert.has_error(function() mc.estimate(function() return "x" end, d.Normal{}, 3) end,
      "luma.montecarlo.estimate: the function returned a string at draw 1, expected a number")
    assert.has_error(function()
      mc.metropolis_hastings{ log_density = function() return -math.huge end, init = M{{0}}, n = 3 }
    end, "luma.montecarlo.metropolis_hastings: init has zero density")
    assert.has_error(function() mc.gibbs{ conditionals = { print }, init = M{{1, 2}}, n = 2 } end,
      "luma.montecarlo.gibbs: init has 2 entries for 1 conditionals")
    assert.has_error(function() mc.effective_sample_size(M{1, 2}) end,
      "luma.montecarlo.effective_sample_size: needs a chain of at least 4 rows")
  end)
end)
