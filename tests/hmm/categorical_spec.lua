-- luma.hmm.CategoricalHMM (lua/luma/hmm/categorical.lua, base.lua,
-- src/ml/hmm/hmm.c).  References: the dice HMM of notes 002 §1.16 Q12
-- with the derived numbers of its D5 check; a direct enumeration over all
-- state paths (written here, independent of the recursions) for the
-- likelihood, the posteriors, the Viterbi path and one Baum-Welch step;
-- a closed form for a 10^6-step sequence.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local CHMM = luma.hmm.CategoricalHMM

local DICE_A = luma.matrix{ { 0.95, 0.05 }, { 0.1, 0.9 } }
local DICE_E = luma.matrix{ { 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6 },
                            { 0.1, 0.1, 0.1, 0.1, 0.1, 0.5 } }

-- A model with the given parameters (n_iter = 0 keeps them), fitted on X
-- only to be marked fitted.
local function fixed(start, A, E, X)
  return CHMM{ n_components = A:rows(), n_iter = 0, startprob_init = start, transmat_init = A,
               emissionprob_init = E }:fit(X)
end

-- Everything by brute force over the k^T paths of one sequence x (a Lua
-- table of symbols): p(x), gamma (T x k), xi sums (k x k), the best path
-- and its log-probability.
local function enumerate(start, A, E, x)
  local k, T = A:rows(), #x
  local px, best, best_path = 0, -1, nil
  local gamma, xi = luma.zeros(T, k), luma.zeros(k, k)
  local z = {}
  for i = 1, T do z[i] = 1 end
  while true do
    local p = start:get(1, z[1]) * E:get(z[1], x[1])
    for t = 2, T do p = p * A:get(z[t - 1], z[t]) * E:get(z[t], x[t]) end
    px = px + p
    if p > best then best, best_path = p, { table.unpack(z) } end
    for t = 1, T do gamma:set(t, z[t], gamma:get(t, z[t]) + p) end
    for t = 2, T do xi:set(z[t - 1], z[t], xi:get(z[t - 1], z[t]) + p) end
    local i = T
    while i >= 1 and z[i] == k do z[i] = 1; i = i - 1 end
    if i == 0 then break end
    z[i] = z[i] + 1
  end
  return px, gamma / px, xi / px, best_path, math.log(best)
end

describe("luma.hmm.CategoricalHMM", function()
  it("reproduces the dice HMM's forward filter with the first-step convention", function()
    -- notes 002 D5: Q_init = (1/2, 1/2) weights the state of x_1 (no
    -- transition before it); two sixes give (1/4, 3/4), then (5/38, 33/38)
    local X = luma.matrix{ 6, 6 }
    local m = fixed(luma.matrix{ { 0.5, 0.5 } }, DICE_A, DICE_E, X)
    assert.matrix_near(luma.matrix{ { 0.25, 0.75 }, { 5 / 38, 33 / 38 } }, m:filter(X), 1e-15)
    -- the other convention (a transition from X_0 first) is startprob = Q_init A:
    -- (0.525, 0.475), and gives D5's 7/26 at the first step
    local m0 = fixed(luma.matrix{ { 0.5, 0.5 } } * DICE_A, DICE_A, DICE_E, X)
    assert.near(7 / 26, m0:filter(X):get(1, 1), 1e-15)
    -- p(6, 6) = sum over the four paths, by hand:
    -- 0.5/6 (0.95/6 + 0.05*0.5) + 0.5*0.5 (0.1/6 + 0.9*0.5)
    local p66 = 0.5 / 6 * (0.95 / 6 + 0.05 * 0.5) + 0.5 * 0.5 * (0.1 / 6 + 0.9 * 0.5)
    assert.near(math.log(p66), m:score(X), 1e-14)
  end)

  it("matches a direct enumeration: likelihood, posteriors, Viterbi path", function()
    local start = luma.matrix{ { 0.6, 0.4 } }
    local A = luma.matrix{ { 0.7, 0.3 }, { 0.2, 0.8 } }
    local E = luma.matrix{ { 0.5, 0.4, 0.1 }, { 0.1, 0.3, 0.6 } }
    local x = { 1, 3, 3, 2, 1, 3 }
    local X = luma.matrix(x)
    local m = fixed(start, A, E, X)
    local px, gamma, xi, path, best = enumerate(start, A, E, x)
    assert.near(math.log(px), m:score(X), 1e-13)
    assert.matrix_near(gamma, m:predict_proba(X), 1e-13)
    local g, xi_rows, ll = m:posteriors(X)
    assert.matrix_near(gamma, g, 1e-13)
    assert.near(math.log(px), ll, 1e-13)
    assert.matrix_near(xi, xi_rows:sum(1):reshape(2, 2), 1e-13)
    assert.matrix_near(luma.zeros(1, 4), xi_rows:row(1), 0)
    local logprob, states = m:decode(X)
    assert.near(best, logprob, 1e-13)
    assert.same(path, states:t():totable()[1])
    assert.matrix_near(states, m:predict(X), 0)
    -- map decoding: the argmax of gamma
    local _, map = m:decode(X, nil, "map")
    assert.matrix_near(gamma:argmax(2), map, 0)
  end)

  it("makes one Baum-Welch step equal to the enumerated re-estimation, over two sequences", function()
    local start = luma.matrix{ { 0.3, 0.7 } }
    local A = luma.matrix{ { 0.6, 0.4 }, { 0.25, 0.75 } }
    local E = luma.matrix{ { 0.2, 0.5, 0.3 }, { 0.6, 0.1, 0.3 } }
    local x1, x2 = { 2, 2, 1, 3 }, { 1, 3, 2, 2, 1 }
    local X = luma.matrix{ 2, 2, 1, 3, 1, 3, 2, 2, 1 }
    local p1, g1, xi1 = enumerate(start, A, E, x1)
    local p2, g2, xi2 = enumerate(start, A, E, x2)
    -- Rabiner (1989) eqs. 40a-c summed over the sequences
    local s = g1:row(1) + g2:row(1)
    local want_start = s / s:sum()
    local xs = xi1 + xi2
    local want_A = xs:div(xs:sum(2))
    local G = luma.matrix.vstack{ g1, g2 }
    local counts = luma.zeros(2, 3)
    local xs_all = { 2, 2, 1, 3, 1, 3, 2, 2, 1 }
    for t, v in ipairs(xs_all) do
      for j = 1, 2 do counts:set(j, v, counts:get(j, v) + G:get(t, j)) end
    end
    local want_E = counts:div(counts:sum(2))
    local m = CHMM{ n_components = 2, n_iter = 1, startprob_init = start, transmat_init = A,
                    emissionprob_init = E }:fit(X, { 4, 5 })
    assert.near(math.log(p1) + math.log(p2), m.history:get(1, 1), 1e-13)
    assert.matrix_near(want_start, m.startprob, 1e-13)
    assert.matrix_near(want_A, m.transmat, 1e-13)
    assert.matrix_near(want_E, m.emissionprob, 1e-13)
    -- and the lengths as a matrix mean the same
    local m2 = CHMM{ n_components = 2, n_iter = 1, startprob_init = start, transmat_init = A,
                     emissionprob_init = E }:fit(X, luma.matrix{ 4, 5 })
    assert.matrix_near(m.transmat, m2.transmat, 0)
  end)

  it("does not underflow on a sequence of a million steps", function()
    -- with the same emission row in every state, p(x) = prod_t e(x_t)
    -- exactly, whatever the chain: log p = sum_v n_v log e_v (about
    -- -1e6: the unscaled product would be 10^-450000)
    local n = 1000000
    local e = { 0.2, 0.3, 0.5 }
    local E = luma.matrix{ e, e }
    local X = luma.random.Generator(5):choice(3, n, { replace = true, p = luma.matrix(e) })
    local m = fixed(luma.matrix{ { 0.5, 0.5 } }, luma.matrix{ { 0.9, 0.1 }, { 0.2, 0.8 } }, E,
      X:slice({ 1, 10 }, nil))
    local want = 0
    for v = 1, 3 do want = want + X:eq(v):sum() * math.log(e[v]) end
    local got = m:score(X)
    assert.near(want, got, 1e-9 * math.abs(want))
    local gamma = m:predict_proba(X)
    assert.is_true(gamma:isfinite():all())
    assert.near(n, gamma:sum(), 1e-9 * n)
    local logprob, states = m:decode(X)
    assert.is_true(logprob > -math.huge and logprob < 0)
    assert.equal(n, states:rows())
  end)

  it("never decreases the log-likelihood and fits several sequences", function()
    local truth = fixed(luma.matrix{ { 0.5, 0.5 } }, DICE_A, DICE_E, luma.matrix{ 1 })
    local X = truth:sample(3000, luma.random.Generator(7))
    local m = CHMM{ n_components = 2, n_iter = 1000, tol = 1e-2, seed = 3 }:fit(X, { 1000, 1200, 800 })
    local h = m.history
    assert.is_true(h:rows() >= 10)
    for t = 2, h:rows() do
      assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-9 * math.abs(h:get(t, 1)),
        "log-likelihood decreased at iteration " .. t)
    end
    assert.is_true(m.converged)
    assert.equal(6, m.n_features)
    -- free parameters: 1 + 2 + 2 * 5; AIC and BIC from the score
    assert.equal(13, m:n_parameters())
    local ll = m:score(X, { 1000, 1200, 800 })
    assert.near(-2 * ll + 26, m:aic(X, { 1000, 1200, 800 }), 1e-9)
    assert.near(-2 * ll + 13 * math.log(3000), m:bic(X, { 1000, 1200, 800 }), 1e-9)
  end)

  it("samples reproducibly from its seed, with symbols in the alphabet", function()
    local m = fixed(luma.matrix{ { 1, 0 } }, DICE_A, DICE_E, luma.matrix{ 1 }):set_params{ seed = 4 }
    local X1, z1 = m:sample(50)
    local X2, z2 = m:sample(50)
    assert.matrix_near(X1, X2, 0)
    assert.matrix_near(z1, z2, 0)
    assert.equal(1, z1:get(1, 1)) -- startprob (1, 0)
    assert.is_true(X1:min() >= 1 and X1:max() <= 6 and X1:eq(X1:floor()):all())
  end)

  it("rejects bad input with clear errors", function()
    local X = luma.matrix{ 1, 2, 3, 1 }
    local bad_rows = luma.matrix{ { 0.9, 0.1 }, { 0.5, 0.6 } }
    errors_with("row 2 of transmat_init sums to 1.1", function()
      CHMM{ n_components = 2, transmat_init = bad_rows }:fit(X)
    end)
    errors_with("negative probability", function()
      CHMM{ n_components = 2, transmat_init = luma.matrix{ { 1.2, -0.2 }, { 0.5, 0.5 } } }:fit(X)
    end)
    errors_with("startprob_init has a negative probability", function()
      CHMM{ n_components = 2, startprob_init = luma.matrix{ { 1.5, -0.5 } } }:fit(X)
    end)
    errors_with("row 1 of emissionprob_init sums to", function()
      CHMM{ n_components = 2, emissionprob_init = luma.matrix{ { 0.5, 0.4, 0.2 }, { 0.2, 0.3, 0.5 } } }:fit(X)
    end)
    local m = CHMM{ n_components = 2, n_features = 3, seed = 1 }:fit(X)
    errors_with("X%[2%] = 4 is not a symbol of the alphabet 1..3", function()
      m:predict(luma.matrix{ 1, 4, 2 })
    end)
    errors_with("X%[1%] = 0 is not a symbol", function() m:score(luma.matrix{ 0, 1 }) end)
    errors_with("X%[3%] = 1.5 is not a symbol", function() m:filter(luma.matrix{ 1, 2, 1.5 }) end)
    errors_with("X%[2%] = nan is not a symbol", function() m:predict_proba(luma.matrix{ 1, 0 / 0 }) end)
    errors_with("X%[1%] = 5 is not a symbol of the alphabet 1..3", function()
      CHMM{ n_components = 2, n_features = 3 }:fit(luma.matrix{ 5, 1 })
    end)
    -- a sequence shorter than the model needs (GaussianHMM: k-means needs k rows)
    errors_with("needs at least 3 observations, X has 2", function()
      luma.hmm.GaussianHMM{ n_components = 3 }:fit(luma.matrix{ 1, 2 })
    end)
    errors_with("lengths%[2%] = 0: a sequence needs at least one observation", function()
      CHMM{ n_components = 2 }:fit(X, { 4, 0 })
    end)
    errors_with("lengths sum to 3 but X has 4 rows", function() m:score(X, { 1, 2 }) end)
    errors_with("predict called before fit", function() CHMM{}:predict(X) end)
    errors_with("n x 1 column of symbols", function() CHMM{}:fit(luma.ones(3, 2)) end)
    -- a symbol no reachable state can emit has zero probability
    local z = fixed(luma.matrix{ { 1, 0 } }, luma.matrix{ { 1, 0 }, { 0, 1 } },
      luma.matrix{ { 0.5, 0.5, 0 }, { 0, 0, 1 } }, X)
    assert.equal(-math.huge, z:score(luma.matrix{ 1, 3 }))
    errors_with("zero probability under the model %(row 2", function()
      z:predict_proba(luma.matrix{ 1, 3 })
    end)
  end)
end)
