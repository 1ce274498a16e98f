-- luma.hmm.GaussianHMM and GMMHMM (lua/luma/hmm/gaussian.lua).  References:
-- a direct enumeration over all state paths of a tiny 1-D model (written
-- here) for the likelihood, the Viterbi path and one Baum-Welch step;
-- EM's monotone likelihood for every covariance type; GMMHMM with one
-- component per state is GaussianHMM.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local GHMM, GMMHMM = luma.hmm.GaussianHMM, luma.hmm.GMMHMM

local function normal_pdf(x, mu, var)
  return math.exp(-(x - mu) ^ 2 / (2 * var)) / math.sqrt(2 * math.pi * var)
end

-- A 4-state, 3-dimensional regime series (the bench's kind of data).
local function regime_data(n, seed)
  local truth = GHMM{ n_components = 3, n_iter = 0, covariance_type = "diag",
    transmat_init = luma.matrix{ { 0.9, 0.05, 0.05 }, { 0.1, 0.8, 0.1 }, { 0.05, 0.05, 0.9 } },
    means_init = luma.matrix{ { 0, 0, 0 }, { 3, 3, 0 }, { 0, -3, 3 } },
    covars_init = luma.matrix{ { 1, 1, 1 }, { 0.5, 1, 2 }, { 1, 0.3, 1 } } }
  truth:fit(luma.zeros(3, 3))
  return truth:sample(n, luma.random.Generator(seed))
end

describe("luma.hmm.GaussianHMM", function()
  it("matches a direct enumeration and one Baum-Welch step on a tiny model", function()
    local x = { 0.1, 2.3, 1.9, -0.4, 0.2 }
    local start, A = { 0.7, 0.3 }, { { 0.8, 0.2 }, { 0.3, 0.7 } }
    local mu, var = { 0, 2 }, { 1, 0.5 }
    local T, k = #x, 2
    local px, best, best_path = 0, -1, nil
    local gamma, xi = luma.zeros(T, k), luma.zeros(k, k)
    for code = 0, 2 ^ T - 1 do
      local z = {}
      for t = 1, T do z[t] = ((code >> (T - t)) & 1) + 1 end
      local p = start[z[1]] * normal_pdf(x[1], mu[z[1]], var[z[1]])
      for t = 2, T do p = p * A[z[t - 1]][z[t]] * normal_pdf(x[t], mu[z[t]], var[z[t]]) end
      px = px + p
      if p > best then best, best_path = p, z end
      for t = 1, T do gamma:set(t, z[t], gamma:get(t, z[t]) + p) end
      for t = 2, T do xi:set(z[t - 1], z[t], xi:get(z[t - 1], z[t]) + p) end
    end
    gamma, xi = gamma / px, xi / px
    -- the M-step (Bishop, PRML eqs. 13.18-13.21): weighted means, then
    -- variances about the new means
    local X = luma.matrix(x)
    local nk = gamma:sum(1)
    local want_mu = (gamma:t() * X):div(nk:t())
    local want_var = luma.zeros(2, 1)
    for j = 1, 2 do
      local s = 0
      for t = 1, T do s = s + gamma:get(t, j) * (x[t] - want_mu:get(j, 1)) ^ 2 end
      want_var:set(j, 1, s / nk:get(1, j))
    end
    local function model(n_iter)
      return GHMM{ n_components = 2, n_iter = n_iter, covariance_type = "diag", min_covar = 0,
        startprob_init = luma.matrix{ start }, transmat_init = luma.matrix(A),
        means_init = luma.matrix(mu), covars_init = luma.matrix(var) }:fit(X)
    end
    local m0 = model(0)
    assert.near(math.log(px), m0:score(X), 1e-12)
    assert.matrix_near(gamma, m0:predict_proba(X), 1e-12)
    local logprob, states = m0:decode(X)
    assert.near(math.log(best), logprob, 1e-12)
    assert.same(best_path, states:t():totable()[1])
    local m1 = model(1)
    assert.near(math.log(px), m1.history:get(1, 1), 1e-12)
    assert.matrix_near(gamma:row(1), m1.startprob, 1e-12)
    assert.matrix_near(xi:div(xi:sum(2)), m1.transmat, 1e-12)
    assert.matrix_near(want_mu, m1.means, 1e-12)
    assert.matrix_near(want_var, m1.covars, 1e-9)
  end)

  it("never decreases the log-likelihood, for each covariance type", function()
    local X = regime_data(1500, 11)
    for _, ctype in ipairs{ "full", "tied", "diag", "spherical" } do
      -- min_covar = 0: exact EM (the floor on the variances makes the M-step
      -- a regularized one, whose likelihood can dip by ~1e-5 near convergence)
      local m = GHMM{ n_components = 3, covariance_type = ctype, n_iter = 30, tol = 1e-6,
                      min_covar = 0, seed = 2 }:fit(X, { 500, 700, 300 })
      local h = m.history
      assert.is_true(h:rows() >= 3, ctype)
      for t = 2, h:rows() do
        assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-9 * math.abs(h:get(t, 1)),
          ctype .. ": the log-likelihood decreased at iteration " .. t)
      end
      -- parameters: 2 + 6 + 9 means + covariances
      local cov = ({ full = 18, tied = 6, diag = 9, spherical = 3 })[ctype]
      assert.equal(17 + cov, m:n_parameters())
      local gamma = m:predict_proba(X, { 500, 700, 300 })
      assert.matrix_near(luma.ones(1500, 1), gamma:sum(2), 1e-12)
    end
  end)

  it("recovers well separated regimes", function()
    local X = regime_data(3000, 12)
    local truth_states = select(2, GHMM{ n_components = 3, n_iter = 0,
      transmat_init = luma.matrix{ { 0.9, 0.05, 0.05 }, { 0.1, 0.8, 0.1 }, { 0.05, 0.05, 0.9 } },
      means_init = luma.matrix{ { 0, 0, 0 }, { 3, 3, 0 }, { 0, -3, 3 } },
      covars_init = luma.matrix{ { 1, 1, 1 }, { 0.5, 1, 2 }, { 1, 0.3, 1 } } }
      :fit(luma.zeros(3, 3)):sample(3000, luma.random.Generator(12)))
    local m = GHMM{ n_components = 3, n_iter = 50, seed = 0 }:fit(X)
    local states = m:predict(X)
    -- agreement up to a relabelling: each fitted state maps to one true state
    local agree = 0
    for j = 1, 3 do
      local best = 0
      for c = 1, 3 do best = math.max(best, states:eq(j):mul(truth_states:eq(c)):sum()) end
      agree = agree + best
    end
    assert.is_true(agree / 3000 > 0.97, "agreement " .. agree / 3000)
  end)

  it("is GaussianHMM when GMMHMM has one component per state", function()
    local X = regime_data(600, 13)
    -- GMMHMM's "tied" shares one covariance among a state's components
    -- (hmmlearn's meaning): with one component it is GaussianHMM's "full"
    local same = { full = "full", diag = "diag", spherical = "spherical", tied = "full" }
    for _, ctype in ipairs{ "full", "diag", "spherical", "tied" } do
      local g = GHMM{ n_components = 3, covariance_type = same[ctype], n_iter = 5, seed = 4 }:fit(X)
      local h = GMMHMM{ n_components = 3, n_mix = 1, covariance_type = ctype, n_iter = 5, seed = 4 }:fit(X)
      assert.matrix_near(g.history, h.history, 1e-8 * math.abs(g.history:get(1, 1)))
      assert.matrix_near(g.transmat, h.transmat, 1e-8)
      for c = 1, 3 do assert.matrix_near(g.means:row(c), h.means[c], 1e-8) end
    end
  end)

  it("fits GMMHMM with a never decreasing log-likelihood and samples it", function()
    local X = regime_data(1200, 14)
    for _, ctype in ipairs{ "full", "diag", "spherical", "tied" } do
      local m = GMMHMM{ n_components = 2, n_mix = 2, covariance_type = ctype, n_iter = 20,
                        tol = 1e-6, min_covar = 0, seed = 5 }:fit(X)
      local h = m.history
      for t = 2, h:rows() do
        assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-9 * math.abs(h:get(t, 1)),
          ctype .. ": decreased at " .. t)
      end
      assert.matrix_near(luma.ones(2, 1), m.weights:sum(2), 1e-12)
      local S, z = m:sample(100)
      assert.equal(3, S:cols())
      assert.is_true(z:min() >= 1 and z:max() <= 2)
    end
  end)

  it("rejects bad input with clear errors", function()
    local X = regime_data(50, 15)
    local bad = X:copy()
    bad:set(7, 2, 0 / 0)
    errors_with("X has a non%-finite element, nan at row 7, column 2", function()
      GHMM{ n_components = 2 }:fit(bad)
    end)
    local m = GHMM{ n_components = 2, seed = 1 }:fit(X)
    bad:set(7, 2, math.huge)
    errors_with("non%-finite element, inf at row 7", function() m:score(bad) end)
    errors_with("X has 2 columns but GaussianHMM was fitted on 3", function()
      m:score(luma.zeros(4, 2))
    end)
    errors_with("row 1 of transmat_init sums to 0.5", function()
      GHMM{ n_components = 2, transmat_init = luma.matrix{ { 0.25, 0.25 }, { 0.5, 0.5 } } }:fit(X)
    end)
    errors_with("covars_init must be a finite 2 x 3 matrix", function()
      GHMM{ n_components = 2, covars_init = luma.ones(3, 3) }:fit(X)
    end)
    errors_with("covariance is singular or not positive definite", function()
      GHMM{ n_components = 2, covariance_type = "full", min_covar = 0,
            covars_init = { luma.zeros(3, 3), luma.eye(3) } }:fit(X)
    end)
  end)
end)
