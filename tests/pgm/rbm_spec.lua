--- luma.pgm.rbm: the Boltzmann machine (conditionals, Gibbs sampling) and
-- BernoulliRBM (issue 32 item 5).  The scikit-learn values of
-- tests/pgm/reference/rbm_sklearn.lua were printed by
--   /usr/bin/python3 tests/pgm/reference/rbm_sklearn.py > tests/pgm/reference/rbm_sklearn.lua
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local rbm = require("luma.pgm.rbm")
local errors_with = support.errors_with

local REFERENCE = dofile("tests/pgm/reference/rbm_sklearn.lua")
local DIGITS = luma.datasets.load("digits"):ge(8) -- binarized as the generator does

local function mean(list)
  local s = 0
  for _, v in ipairs(list) do s = s + v end
  return s / #list
end

describe("luma.pgm.BernoulliRBM", function()
  it("computes scikit-learn's free energy and the exact pseudo-likelihood of given weights to 1e-12", function()
    local est = rbm.BernoulliRBM{ n_components = 4, n_iter = 0, seed = 1 }:fit(DIGITS)
    -- the generator's formulas, 1-based here
    est.components = support.grid(4, 64, function(j, i) return 0.1 * math.sin(1 + 3 * j + i) end)
    est.intercept_hidden = support.grid(1, 4, function(_, j) return 0.05 * math.cos(j) end)
    est.intercept_visible = support.grid(1, 64, function(_, i) return 0.1 * math.cos(2 * i) end)
    local V = DIGITS:sub(1, 5, nil, nil)
    local fe, pl = est:free_energy(V), est:pseudo_likelihood(V)
    for r = 1, 5 do
      assert.near(REFERENCE.fixed_free_energy[r], fe:get(r, 1), 1e-12)
      assert.near(REFERENCE.fixed_pseudo_likelihood[r], pl:get(r, 1), 1e-12)
    end
    -- score_samples' expectation over its flipped feature is the pseudo-likelihood:
    -- averaged over many seeds it comes near
    local sum = luma.zeros(5, 1)
    for seed = 1, 400 do
      est:set_params{ seed = seed }
      sum = sum + est:score_samples(V)
    end
    assert.is_true(((sum / 400) - pl):abs():max() < 0.05 * math.abs(pl:mean()))
  end)

  it("reaches scikit-learn's pseudo-likelihood on binarized digits within 2% (mean of 10 fits each)", function()
    -- Same data and hyperparameters; the fits differ only in their random
    -- streams (NumPy's and Luma's cannot be shared), so each side's mean
    -- over seeds 0..9 of the exact (deterministic) pseudo-likelihood is
    -- compared: scikit-learn's spread over seeds is about 0.25.
    local ours = {}
    for seed = 0, 9 do
      local est = rbm.BernoulliRBM{ n_components = 32, learning_rate = 0.05, batch_size = 10,
        n_iter = 10, seed = seed }:fit(DIGITS)
      ours[#ours + 1] = est:pseudo_likelihood(DIGITS):mean()
    end
    local theirs = mean(REFERENCE.exact)
    local relative = math.abs(mean(ours) - theirs) / math.abs(theirs)
    assert(relative < 0.02, string.format("luma %.4f, scikit-learn %.4f (%.2f%%)", mean(ours),
      theirs, 100 * relative))
    -- and training helps: the initial weights score far lower
    local untrained = rbm.BernoulliRBM{ n_components = 32, n_iter = 0, seed = 0 }:fit(DIGITS)
    assert.is_true(untrained:pseudo_likelihood(DIGITS):mean() < theirs - 10)
  end)

  it("trains by CD-k from the batch too (persistent = false)", function()
    local est = rbm.BernoulliRBM{ n_components = 16, learning_rate = 0.05, n_iter = 5, k = 3,
      persistent = false, seed = 2 }:fit(DIGITS)
    local start = rbm.BernoulliRBM{ n_components = 16, n_iter = 0, seed = 2 }:fit(DIGITS)
    assert.is_true(est:pseudo_likelihood(DIGITS):mean() > start:pseudo_likelihood(DIGITS):mean() + 10)
  end)

  it("keeps the estimator contract: params, transform, partial_fit, gibbs, save and load", function()
    local X = DIGITS:sub(1, 200, nil, nil)
    local est = rbm.BernoulliRBM{ n_components = 8, n_iter = 2, seed = 3 }
    assert.equal(8, est:get_params().n_components)
    assert.equal(0.1, est:get_params().learning_rate)
    est:set_params{ learning_rate = 0.05 }
    est:fit(X)
    local H = est:transform(X)
    assert.same({ 200, 8 }, { H:shape() })
    assert.is_true(H:min() > 0 and H:max() < 1)
    -- the same seed, the same model
    local again = est:clone():fit(X)
    assert.same(est.components:totable(), again.components:totable())
    -- luma.save round trip
    local path = os.tmpname()
    luma.save(est, path)
    local loaded = luma.load(path)
    os.remove(path)
    assert.same(H:totable(), loaded:transform(X):totable())
    assert.same(est:pseudo_likelihood(X):totable(), loaded:pseudo_likelihood(X):totable())
    -- partial_fit: one update per call, the first one initializing
    local online = rbm.BernoulliRBM{ n_components = 8, seed = 4 }
    for start = 1, 200, 10 do online:partial_fit(X:sub(start, start + 9, nil, nil)) end
    assert.same({ 8, 64 }, { online.components:shape() })
    local V = online:gibbs(X:sub(1, 3, nil, nil))
    assert.same({ 3, 64 }, { V:shape() })
    assert.is_true((V:eq(0) + V:eq(1)):min() == 1)
  end)

  it("refuses non-binary data and shape mismatches at the caller's line", function()
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: bad argument #1 to 'fit' %(X must hold 0 and 1 only, got 3%.0 at row 1, column 2%)",
      function() rbm.BernoulliRBM{ n_components = 2 }:fit(luma.matrix{ { 0, 3 }, { 1, 0 } }) end)
    local est = rbm.BernoulliRBM{ n_components = 2, n_iter = 1 }:fit(luma.matrix{ { 0, 1 }, { 1, 0 } })
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: .*X has 3 columns but .* 2",
      function() est:transform(luma.ones(2, 3)) end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: bad argument #1 to 'partial_fit' %(X has 3 columns, expected 2%)",
      function() est:partial_fit(luma.ones(2, 3)) end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: bad argument #1 to 'pseudo_likelihood' %(X must hold 0 and 1 only",
      function() est:pseudo_likelihood(luma.matrix{ { 0.5, 1 } }) end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: .*n_components", function() rbm.BernoulliRBM{ n_components = 0 } end)
  end)
end)

describe("luma.pgm.BoltzmannMachine", function()
  local W = luma.matrix{ { 0, 1.2, -0.7 }, { 1.2, 0, 0.5 }, { -0.7, 0.5, 0 } }
  local b = luma.matrix{ { 0.2, -0.4, 0.3 } }
  local bm = rbm.BoltzmannMachine{ W = W, b = b }
  -- all 8 states, and their exact probabilities by hand
  local S = luma.matrix{ { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 }, { 0, 0, 1 }, { 1, 0, 1 },
                         { 0, 1, 1 }, { 1, 1, 1 } }
  local function unnormalized(x1, x2, x3)
    return math.exp(1.2 * x1 * x2 - 0.7 * x1 * x3 + 0.5 * x2 * x3 + 0.2 * x1 - 0.4 * x2 + 0.3 * x3)
  end
  local Z, p = 0, {}
  for s = 1, 8 do
    p[s] = unnormalized(S:get(s, 1), S:get(s, 2), S:get(s, 3))
    Z = Z + p[s]
  end

  it("has the notes' energy, partition function and log-probabilities", function()
    assert.near(math.log(Z), bm:log_partition(), 1e-12)
    local lp = bm:log_prob(S)
    for s = 1, 8 do assert.near(math.log(p[s] / Z), lp:get(s, 1), 1e-12) end
  end)

  it("has the conditionals p(x_i = 1 | rest) = sigmoid(b_i + sum_j w_ij x_j) of the joint", function()
    local C = bm:conditionals(S)
    for s = 1, 8 do
      for i = 1, 3 do
        local on, off = S:row(s):copy(), S:row(s):copy()
        on:set(1, i, 1)
        off:set(1, i, 0)
        local pon = unnormalized(on:get(1, 1), on:get(1, 2), on:get(1, 3))
        local poff = unnormalized(off:get(1, 1), off:get(1, 2), off:get(1, 3))
        assert.near(pon / (pon + poff), C:get(s, i), 1e-12)
      end
    end
  end)

  it("samples by Gibbs sweeps with the exact marginals, reproducibly", function()
    local X = bm:sample(20000, { seed = 5, burn_in = 50 })
    for i = 1, 3 do
      local exact = 0
      for s = 1, 8 do exact = exact + S:get(s, i) * p[s] / Z end
      assert.near(exact, X:col(i):mean(), 0.02)
    end
    assert.same(X:sub(1, 50, nil, nil):totable(), bm:sample(50, { seed = 5, burn_in = 50 }):totable())
  end)

  it("refuses bad couplings, biases and states at the caller's line", function()
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: luma%.pgm%.BoltzmannMachine: W must be symmetric",
      function() rbm.BoltzmannMachine{ W = luma.matrix{ { 0, 1 }, { 2, 0 } } } end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: luma%.pgm%.BoltzmannMachine: W must have a zero diagonal",
      function() rbm.BoltzmannMachine{ W = luma.matrix{ { 1, 1 }, { 1, 0 } } } end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: luma%.pgm%.BoltzmannMachine: b must be a vector of 3 biases",
      function() rbm.BoltzmannMachine{ W = W, b = luma.zeros(1, 2) } end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: luma%.pgm%.BoltzmannMachine: W must be a square",
      function() rbm.BoltzmannMachine{ W = luma.zeros(2, 3) } end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: bad argument #1 to 'conditionals' %(X has 2 columns, expected 3%)",
      function() bm:conditionals(luma.zeros(1, 2)) end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: bad argument #1 to 'energy' %(X must hold 0 and 1 only, got %-1",
      function() bm:energy(luma.matrix{ { 1, -1, 0 } }) end)
    errors_with("^tests/pgm/rbm_spec%.lua:%d+: .*unknown option 'w'",
      function() rbm.BoltzmannMachine{ w = W } end)
  end)
end)
