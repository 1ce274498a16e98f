-- luma.markov (lua/luma/markov/, src/ml/markov/pagerank.c).  References:
-- the equilibrium of notes 002 D7 (exact), closed forms (two-state
-- chains, hitting times of a walk on a path), networkx 2.8's pagerank
-- (Debian /usr/bin/python3, values recorded below) and the eigenvector
-- of the Google matrix.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local mk = luma.markov

-- 002 D7: row-stochastic p = [[0.9, 0.1], [0.5, 0.5]] -> pi = (5/6, 1/6)
local P = luma.matrix{ { 0.9, 0.1 }, { 0.5, 0.5 } }

-- The weighted graph of the networkx references: node 5 is dangling.
local EDGES = luma.matrix{ { 1, 2, 1 }, { 1, 3, 2 }, { 2, 3, 1 }, { 3, 1, 1 }, { 4, 3, 0.5 },
                           { 4, 1, 1.5 } }

local function adjacency(E, n)
  local A = luma.zeros(n, n)
  for e = 1, E:rows() do
    local i, j = math.tointeger(E:get(e, 1)), math.tointeger(E:get(e, 2))
    A:set(i, j, A:get(i, j) + E:get(e, 3))
  end
  return A
end

describe("luma.markov chains", function()
  it("finds the equilibrium of notes 002 D7 by solving and by the power method", function()
    local want = luma.matrix{ { 5 / 6, 1 / 6 } }
    assert.matrix_near(want, mk.stationary(P), 1e-15)
    local pi, info = mk.stationary(P, { method = "power", tol = 1e-14 })
    assert.matrix_near(want, pi, 1e-13)
    assert.is_true(info.converged)
    -- warm start at the answer: one step
    local _, warm = mk.stationary(P, { method = "power", start = want, tol = 1e-14 })
    assert.equal(1, warm.n_iter)
    assert.matrix_near(want, mk.from_transitions(P):stationary(), 1e-15)
  end)

  it("propagates row distributions and takes powers", function()
    -- p_{n+1} = p_n P (erratum X32's orientation): from state 1, two steps:
    -- (0.9, 0.1) P = (0.86, 0.14)
    assert.matrix_near(luma.matrix{ { 0.86, 0.14 } }, mk.propagate({ 1, 0 }, P, 2), 1e-15)
    -- two-state closed form: P^n = Pi + 0.4^n (I - Pi) with Pi the rows of pi
    local Pi = luma.matrix{ { 5 / 6, 1 / 6 }, { 5 / 6, 1 / 6 } }
    local n = 7
    assert.matrix_near(Pi + (luma.eye(2) - Pi) * 0.4 ^ n, mk.n_step(P, n), 1e-15)
    assert.matrix_near(luma.eye(2), mk.n_step(P, 0), 0)
  end)

  it("checks irreducibility and the period", function()
    assert.is_true(mk.is_irreducible(P))
    assert.equal(1, mk.period(P))
    local cycle3 = luma.matrix{ { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 } }
    assert.equal(3, mk.period(cycle3))
    -- a bipartite walk (a 4-cycle, both directions) has period 2
    local walk = mk.random_walk_matrix(luma.matrix{ { 0, 1, 0, 1 }, { 1, 0, 1, 0 },
      { 0, 1, 0, 1 }, { 1, 0, 1, 0 } })
    assert.equal(2, mk.period(walk))
    local absorbing = luma.matrix{ { 1, 0 }, { 0.5, 0.5 } }
    assert.is_false(mk.is_irreducible(absorbing))
    errors_with("reducible", function() mk.period(absorbing) end)
    -- the power method oscillates on a periodic chain
    errors_with("did not converge", function()
      mk.stationary(cycle3, { method = "power", start = { 1, 0, 0 }, max_iter = 50 })
    end)
    assert.matrix_near(luma.full(1, 3, 1 / 3), mk.stationary(cycle3), 1e-15)
  end)

  it("computes hitting times", function()
    -- simple random walk on the path 1-2-3-4-5 reflected at 1: the expected
    -- time to reach 5 from i is 16 - (i - 1)^2 (h_i = (5-1)^2 - (i-1)^2)
    local A = luma.zeros(5, 5)
    for i = 1, 4 do A:set(i, i + 1, 1); A:set(i + 1, i, 1) end
    local h = mk.hitting_times(mk.random_walk_matrix(A), 5)
    assert.matrix_near(luma.matrix{ 16, 15, 12, 7, 0 }, h, 1e-12)
    -- from the absorbing state the other one is never reached
    local h2 = mk.hitting_times(luma.matrix{ { 1, 0 }, { 0.5, 0.5 } }, { 2 })
    assert.equal(math.huge, h2:get(1, 1))
    assert.equal(0, h2:get(2, 1))
    -- geometric waiting time: 1 / 0.1 steps from 1 to 2
    assert.near(10, mk.hitting_times(P, 2):get(1, 1), 1e-12)
  end)

  it("samples paths and random walks with the chain's frequencies", function()
    local path = mk.sample_path(P, 20000, { start = 1, seed = 3 })
    assert.equal(1, path:get(1, 1))
    -- the fraction of time in state 2 tends to 1/6 (sd about 0.006 here)
    assert.near(1 / 6, path:eq(2):mean(), 0.02)
    local again = mk.sample_path(P, 20000, { start = 1, seed = 3 })
    assert.matrix_near(path, again, 0)
    local A = luma.matrix{ { 0, 1, 1 }, { 1, 0, 0 }, { 1, 0, 0 } }
    local walk = mk.random_walk(A, 200, { seed = 1 })
    for t = 2, 200 do
      assert.equal(1, A:get(math.tointeger(walk:get(t - 1, 1)), math.tointeger(walk:get(t, 1))))
    end
  end)

  -- issue 28: a number in the options slot failed inside chain.lua
  -- ("attempt to index a number value")
  it("names random_walk's options and start in its errors", function()
    local A = luma.matrix{ { 0, 1 }, { 1, 0 } }
    local ok, err = pcall(mk.random_walk, A, 1, math.huge)
    assert.is_false(ok)
    assert.equal("bad argument #3 to 'random_walk' (options table expected, got number)", err)
    assert.error_matches(function() mk.random_walk(A, 5, { start = 3 }) end,
      "^bad argument to 'random_walk' %(start must be a node 1..2%)$")
    assert.error_matches(function() mk.random_walk(A, 5, { begin = 1 }) end,
      "random_walk: unknown option 'begin' %(valid: seed, start%)")
  end)

  it("fits chains of order L by counts, with Laplace smoothing, on integers and strings", function()
    local X = luma.matrix{ 1, 1, 2, 1, 2, 2, 1 }
    -- transitions: 1->1 once, 1->2 twice, 2->1 twice, 2->2 once
    local ml = mk.MarkovChain{ alpha = 0 }:fit(X)
    assert.matrix_near(luma.matrix{ { 1 / 3, 2 / 3 }, { 2 / 3, 1 / 3 } }, ml.transmat, 1e-15)
    local lap = mk.MarkovChain{ alpha = 1 }:fit(X)
    assert.matrix_near(luma.matrix{ { 2 / 5, 3 / 5 }, { 3 / 5, 2 / 5 } }, lap.transmat, 1e-15)
    -- score: log of the six transition probabilities (ML)
    assert.near(2 * math.log(1 / 3) + 4 * math.log(2 / 3), ml:score(X), 1e-13)
    -- a bigram (order 1) and a trigram (order 2) model on tokens
    local corpus = { { "a", "b", "a", "b", "c" }, { "b", "a", "b" } }
    local bigram = mk.MarkovChain{ alpha = 0 }:fit(corpus)
    assert.same({ "a", "b", "c" }, bigram.states)
    -- after "b": a twice, c once
    assert.matrix_near(luma.matrix{ { 2 / 3, 0, 1 / 3 } }, bigram:transition_proba{ "b" }, 1e-15)
    local trigram = mk.MarkovChain{ order = 2, alpha = 1 }:fit(corpus)
    assert.equal(9, trigram.transmat:rows())
    -- context (a, b) is followed by a once and c once: (1+1, 0+1, 1+1) / 5
    assert.matrix_near(luma.matrix{ { 0.4, 0.2, 0.4 } }, trigram:transition_proba{ "a", "b" }, 1e-15)
    local s = trigram:sample(10, luma.random.Generator(1))
    assert.equal(10, #s)
    -- stacked integer sequences with lengths
    local two = mk.MarkovChain{ alpha = 0 }:fit(luma.matrix{ 1, 2, 2, 1 }, { 2, 2 })
    assert.matrix_near(luma.matrix{ { 0, 1 }, { 1, 0 } }, two.transmat, 0)
  end)

  it("rejects bad input with clear errors", function()
    errors_with("row 2 of P sums to 0.9, not 1", function()
      mk.stationary(luma.matrix{ { 0.5, 0.5 }, { 0.4, 0.5 } })
    end)
    errors_with("P has a negative probability, P%[1%]%[2%] = %-0.1", function()
      mk.from_transitions(luma.matrix{ { 1.1, -0.1 }, { 0.5, 0.5 } })
    end)
    errors_with("must be square", function() mk.n_step(luma.ones(2, 3) / 3, 2) end)
    errors_with("p0 must be a vector of 2 probabilities", function() mk.propagate({ 1, 0, 0 }, P) end)
    errors_with("sequence 2 has 1 observations; order 2 needs at least 3", function()
      mk.MarkovChain{ order = 2 }:fit{ { 1, 2, 1 }, { 2 } }
    end)
    local c = mk.MarkovChain{}:fit{ "x", "y", "x" }
    errors_with("\"z\" is not a state", function() c:score{ "x", "z" } end)
    local ci = mk.MarkovChain{}:fit(luma.matrix{ 1, 2, 1 })
    errors_with("observation 2 = 3 is outside the alphabet 1..2", function()
      ci:score(luma.matrix{ 1, 3 })
    end)
    errors_with("not a state of the alphabet", function() mk.MarkovChain{}:fit{ 1, 0, 2 } end)
    errors_with("node 2 has no edges", function()
      mk.random_walk_matrix(luma.matrix{ { 0, 1 }, { 0, 0 } })
    end)
    errors_with("edge 2 has target node 7", function()
      mk.pagerank(luma.matrix{ { 1, 2 }, { 2, 7 } }, { input = "edges", n_nodes = 3 })
    end)
    errors_with("weights must be finite and >= 0", function()
      mk.pagerank(luma.matrix{ { 1, 2, -1 } }, { input = "edges" })
    end)
    errors_with("damping must be in %[0, 1%)", function()
      mk.pagerank(luma.eye(2), { damping = 1 })
    end)
    errors_with("must be square", function() mk.pagerank(luma.ones(3, 2)) end)
  end)
end)

describe("luma.markov.pagerank", function()
  it("matches networkx with weights, a dangling node and personalization", function()
    -- networkx 2.8.8 (Debian /usr/bin/python3): DiGraph with nodes 1..5 and
    -- the weighted EDGES, nx.pagerank(G, alpha=0.85, tol=1e-14,
    -- weight='weight'); then alpha=0.7, personalization
    -- {1: .1, 2: .2, 3: .3, 4: .2, 5: .2}
    local want = luma.matrix{ 0.39076193174451596, 0.14686045897420108, 0.39008845265477704,
                              0.03614457831325302, 0.03614457831325302 }
    local x, info = mk.pagerank(EDGES, { input = "edges", n_nodes = 5, tol = 1e-14 })
    assert.matrix_near(want, x, 1e-12)
    assert.is_true(info.converged)
    assert.matrix_near(want, mk.pagerank(adjacency(EDGES, 5), { tol = 1e-14 }), 1e-12)
    local pers = luma.matrix{ 0.1, 0.2, 0.3, 0.2, 0.2 }
    local want_p = luma.matrix{ 0.335420393559931, 0.14803220035777964, 0.37701252236135924,
                                0.06976744186046513, 0.06976744186046513 }
    assert.matrix_near(want_p, mk.pagerank(EDGES, { input = "edges", n_nodes = 5, damping = 0.7,
      personalization = pers, tol = 1e-14 }), 1e-12)
  end)

  it("is the eigenvector of the Google matrix for eigenvalue 1", function()
    -- a random directed graph with dangling nodes
    local g = luma.random.Generator(9)
    local A = g:uniform(30, 30):lt(0.1):mul(g:uniform(30, 30))
    A:row(4):fill(0)
    A:row(17):fill(0)
    local v = g:uniform(30, 1)
    local G = mk.google_matrix(A, { damping = 0.8, personalization = v })
    -- left eigenvector: G^T x = x, from the eigenvalue of largest real part
    local values, _, vectors = luma.linalg.eig(G:t())
    local best = values:argmax()
    local x = vectors:col(best):copy()
    x = x / x:sum()
    local pr = mk.pagerank(A, { damping = 0.8, personalization = v, tol = 1e-14 })
    assert.matrix_near(x, pr, 1e-11)
    assert.matrix_near(mk.stationary(G):t(), pr, 1e-11)
  end)

  it("warm-starts from previous scores", function()
    local E = luma.matrix{ { 1, 2 }, { 2, 3 }, { 3, 1 }, { 3, 2 }, { 4, 1 } }
    local x, cold = mk.pagerank(E, { input = "edges", tol = 1e-12 })
    -- the graph gains an edge: starting from the old scores converges sooner
    local E2 = luma.matrix.vstack{ E, luma.matrix{ { 2, 4 } } }
    local x2, warm = mk.pagerank(E2, { input = "edges", tol = 1e-12, start = x })
    local x3, fresh = mk.pagerank(E2, { input = "edges", tol = 1e-12 })
    assert.matrix_near(x3, x2, 1e-11)
    assert.is_true(warm.n_iter < fresh.n_iter, warm.n_iter .. " vs " .. fresh.n_iter)
    assert.is_true(cold.converged)
  end)
end)
