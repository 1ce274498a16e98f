-- luma.cluster.modularity, louvain and spectral_bisection
-- (lua/luma/cluster/community.lua, src/ml/cluster/graph_louvain.c).
--
-- Data: Zachary's karate club (tests/cluster/karate_club.lua, 34 members,
-- 78 edges, source cited there).
-- NETWORKX: networkx 2.8.8 on Debian's /usr/bin/python3, G = the karate
--   club without weights (nx.Graph(); add_edges_from(karate_club_graph()
--   .edges())), the factions split = members whose 'club' is "Mr. Hi":
--     modularity(G, split) = 0.3582347140039448,
--     modularity(G, split, resolution=0.5) = 0.6086045364891519;
--   the Erdos-Renyi null model by numpy from the adjacency matrix:
--     (sum_c A_cc - p sum_c n_c (n_c - 1)) / 2m, p = 2m / (n (n - 1)):
--     0.3741258741258741;
--   louvain_communities(G, seed=s) for s = 0..199: best modularity
--     0.41978961209730437 (the optimum, Brandes et al., On modularity
--     clustering, IEEE TKDE 20, 2008), below 0.41 for 18 of the 200 seeds;
--   the Fiedler bisection with numpy (eigh of L = D - A, the n1 largest or
--     smallest entries of the second eigenvector, the smaller cut): n1 = 16
--     cuts 10 edges, group {1..8, 11..14, 17, 18, 20, 22}.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local C = luma.cluster

local KARATE = luma.matrix((require("cluster.karate_club")))
local MR_HI = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 17, 18, 20, 22 }

local function split_labels()
  local labels = luma.full(34, 1, 2)
  for _, i in ipairs(MR_HI) do labels:set(i, 1, 1) end
  return labels
end

-- Two triangles {1, 2, 3} and {4, 5, 6} (weight 2) joined by 3 - 4 (weight 1).
local TRIANGLES = luma.matrix{ { 1, 2, 2 }, { 2, 3, 2 }, { 1, 3, 2 }, { 4, 5, 2 }, { 5, 6, 2 },
  { 4, 6, 2 }, { 3, 4, 1 } }
local TRIANGLE_LABELS = luma.matrix{ { 1 }, { 1 }, { 1 }, { 2 }, { 2 }, { 2 } }

describe("luma.cluster.modularity", function()
  it("matches networkx on the karate club factions", function()
    local labels = split_labels()
    assert.near(0.3582347140039448, C.modularity(KARATE, labels), 1e-14)
    assert.near(0.6086045364891519, C.modularity(KARATE, labels, { resolution = 0.5 }), 1e-14)
    assert.near(0.3741258741258741, C.modularity(KARATE, labels, { null_model = "erdos_renyi" }),
      1e-14)
    -- label values do not matter, only the partition
    assert.near(0.3582347140039448, C.modularity(KARATE, labels * 7 - 3), 1e-14)
  end)

  it("computes both null models on a weighted graph by hand", function()
    -- 2m = 26; degrees 4, 4, 5, 5, 4, 4; each triangle: internal 12, total 13
    -- configuration: 2 (12 - 13^2 / 26) / 26 = 11 / 26
    -- Erdos-Renyi: p = 26 / 30, (24 - p 2 * 3 * 2) / 26 = 13.6 / 26
    assert.near(11 / 26, C.modularity(TRIANGLES, TRIANGLE_LABELS), 1e-15)
    assert.near(13.6 / 26, C.modularity(TRIANGLES, TRIANGLE_LABELS,
      { null_model = "erdos_renyi" }), 1e-15)
    -- the same graph as an adjacency matrix
    local A = luma.zeros(6, 6)
    for r = 1, TRIANGLES:rows() do
      local i, j, w = TRIANGLES:get(r, 1), TRIANGLES:get(r, 2), TRIANGLES:get(r, 3)
      A:set(i, j, w)
      A:set(j, i, w)
    end
    assert.near(11 / 26, C.modularity(A, TRIANGLE_LABELS), 1e-15)
    -- one community: Q = 0 under the configuration model
    assert.near(0, C.modularity(A, luma.ones(6, 1)), 1e-15)
  end)

  it("rejects bad input", function()
    errors_with("bad argument #1 to 'modularity' %(weights must be finite and non%-negative",
      function() C.modularity(luma.matrix{ { 0, -1 }, { -1, 0 } }, luma.matrix{ { 1 }, { 2 } }) end)
    errors_with("labels must be a vector of 34 entries", function() C.modularity(KARATE, luma.ones(3, 1)) end)
    errors_with("null_model must be", function()
      C.modularity(KARATE, split_labels(), { null_model = "gnp" }) end)
    errors_with("the graph has no edges", function()
      C.modularity(luma.zeros(3, 3), luma.ones(3, 1)) end)
  end)
end)

describe("luma.cluster.louvain", function()
  it("reaches modularity >= 0.41 on the karate club", function()
    local labels, q, history = C.louvain(KARATE, { seed = 1 })
    assert.near(0.41978961209730437, q, 1e-12)
    assert.near(q, C.modularity(KARATE, labels), 1e-14)
    assert.equal(4, labels:max())
    -- the history rises level after level and ends at Q
    for l = 2, history:rows() do assert.is_true(history:get(l, 1) > history:get(l - 1, 1)) end
    assert.equal(q, history:get(history:rows(), 1))
    -- deterministic for a seed
    local again = C.louvain(KARATE, { seed = 1 })
    assert.matrix_near(labels, again, 0)
  end)

  it("reaches 0.41 for at least 90% of the seeds (networkx: 182 of 200)", function()
    local good, best = 0, 0
    for s = 0, 199 do
      local _, q = C.louvain(KARATE, { seed = s })
      if q >= 0.41 then good = good + 1 end
      best = math.max(best, q)
    end
    assert.is_true(good >= 180, "only " .. good .. " seeds reach 0.41")
    assert.near(0.41978961209730437, best, 1e-12)
  end)

  it("finds the two triangles of a weighted graph", function()
    for s = 0, 9 do
      local labels, q = C.louvain(TRIANGLES, { seed = s })
      assert.matrix_near(TRIANGLE_LABELS, labels, 0)
      assert.near(11 / 26, q, 1e-15)
    end
    local _, q = C.louvain(TRIANGLES, { seed = 0 })
    -- a larger resolution favours smaller communities: Q counted with it
    local _, q2 = C.louvain(TRIANGLES, { seed = 0, resolution = 2 })
    assert.is_true(q2 < q)
  end)

  it("gives isolated nodes their own community", function()
    local labels = C.louvain(luma.matrix{ { 1, 2 } }, { n_nodes = 3, seed = 0 })
    assert.matrix_near(luma.matrix{ { 1 }, { 1 }, { 2 } }, labels, 0)
    local w = capture_warnings(function() C.louvain(luma.zeros(3, 3), { seed = 0 }) end)
    assert.equal(1, #w)
    assert.truthy(w[1]:find("no edges", 1, true))
  end)

  it("rejects negative weights and other bad input", function()
    errors_with("bad argument #1 to 'louvain' %(weights must be finite and non%-negative, got "
      .. "%-1%.0+ at row 1, column 2%)", function() C.louvain(luma.matrix{ { 0, -1 }, { -1, 0 } }) end)
    errors_with("bad argument #1 to 'louvain' %(weights must be finite and non%-negative, got "
      .. "%-2%.0+ at edge 2%)", function() C.louvain(luma.matrix{ { 1, 2, 1 }, { 2, 3, -2 } }) end)
    errors_with("edge 1: node 1.5 is not an integer", function() C.louvain(luma.matrix{ { 1.5, 2 } }) end)
    errors_with("seed must be an integer or a luma.Generator", function()
      C.louvain(KARATE, { seed = "x" }) end)
    errors_with("unknown option 'weight'", function() C.louvain(KARATE, { weight = 1 }) end)
    errors_with("bad argument #1 to 'louvain' %(the adjacency matrix must be symmetric: entries "
      .. "%(1, 2%) and %(2, 1%) differ%)", function()
        C.louvain(luma.matrix{ { 0, 1, 1 }, { 2, 0, 1 }, { 1, 1, 0 } }) end)
    errors_with("resolution must be a finite number >= 0, got %-1", function()
      C.louvain(KARATE, { resolution = -1 }) end)
  end)
end)

describe("luma.cluster.spectral_bisection", function()
  it("matches the numpy Fiedler bisection of the karate club", function()
    local labels, cut = C.spectral_bisection(KARATE, { n1 = 16 })
    assert.equal(10, cut)
    local expected = luma.full(34, 1, 2)
    for _, i in ipairs{ 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 17, 18, 20, 22 } do
      expected:set(i, 1, 1)
    end
    assert.matrix_near(expected, labels, 0)
    local A = require("luma.cluster.native").dense(require("luma.cluster.native").graph(KARATE, 34,
      { format = "edges" }))
    assert.equal(cut, luma.metrics.graph_cut(A, labels))
  end)

  it("cuts the single edge between two triangles", function()
    local labels, cut = C.spectral_bisection(TRIANGLES, { n1 = 3 })
    assert.equal(1, cut)
    assert.equal(1, luma.metrics.adjusted_rand_score(TRIANGLE_LABELS, labels))
  end)

  it("rejects bad input", function()
    errors_with("n1 must be an integer in 1..33", function() C.spectral_bisection(KARATE, { n1 = 34 }) end)
    errors_with("the adjacency matrix must be symmetric", function()
      C.spectral_bisection(luma.matrix{ { 0, 1 }, { 0, 0 } }) end)
  end)
end)
