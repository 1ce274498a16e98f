-- luma.pgm graphs, factors, belief networks, Markov networks and factor
-- graphs (lua/luma/pgm/, src/ml/pgm/factor.c).  References: values worked
-- by hand in the comments (the Asia network's marginals, the sprinkler's
-- posterior, the notes' Jeffrey's-rule fixture), brute-force enumeration,
-- and networkx 2.8's d_separated on 500 random queries
-- (tests/pgm/reference/dsep_networkx.py writes dsep_networkx.lua).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local pgm = luma.pgm

local function close(a, b, tol, what)
  assert(math.abs(a - b) <= tol, string.format("%s: %.17g vs %.17g", what or "value", a, b))
end

-- An error raised at this file's line (the caller's), matching pattern.
local function errors_here(pattern, fn)
  local ok, err = pcall(fn)
  assert(not ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert(err:match("pgm_spec%.lua:%d+: "), "error not located at the caller's line: " .. err)
  assert(err:match(pattern), string.format("error %q does not match %q", err, pattern))
end

-- ------------------------------------------------------------ fixtures

-- Pearl's sprinkler (Russell and Norvig's numbers).
local function sprinkler()
  local bn = pgm.BayesianNetwork{ { "Cloudy", "Sprinkler" }, { "Cloudy", "Rain" },
    { "Sprinkler", "WetGrass" }, { "Rain", "WetGrass" } }
  bn:set_cpt("Cloudy", { states = { "F", "T" }, probs = { 0.5, 0.5 } })
  bn:set_cpt("Sprinkler", { states = { "F", "T" }, parents = { "Cloudy" },
    probs = { F = { 0.5, 0.5 }, T = { 0.9, 0.1 } } })
  bn:set_cpt("Rain", { states = { "F", "T" }, parents = { "Cloudy" },
    probs = { { 0.8, 0.2 }, { 0.2, 0.8 } } })
  bn:set_cpt("WetGrass", { states = { "F", "T" }, parents = { "Sprinkler", "Rain" },
    probs = { { 1, 0 }, { 0.1, 0.9 }, { 0.1, 0.9 }, { 0.01, 0.99 } } })
  return bn
end

-- Asia (Lauritzen and Spiegelhalter 1988).
local function asia()
  local yn = { "yes", "no" }
  local bn = pgm.BayesianNetwork()
  bn:set_cpt("asia", { states = yn, probs = { 0.01, 0.99 } })
  bn:set_cpt("smoke", { states = yn, probs = { 0.5, 0.5 } })
  bn:set_cpt("tub", { states = yn, parents = { "asia" }, probs = { { 0.05, 0.95 }, { 0.01, 0.99 } } })
  bn:set_cpt("lung", { states = yn, parents = { "smoke" }, probs = { { 0.1, 0.9 }, { 0.01, 0.99 } } })
  bn:set_cpt("bronc", { states = yn, parents = { "smoke" }, probs = { { 0.6, 0.4 }, { 0.3, 0.7 } } })
  bn:set_cpt("either", { states = yn, parents = { "tub", "lung" },
    probs = { { 1, 0 }, { 1, 0 }, { 1, 0 }, { 0, 1 } } })
  bn:set_cpt("xray", { states = yn, parents = { "either" }, probs = { { 0.98, 0.02 }, { 0.05, 0.95 } } })
  bn:set_cpt("dysp", { states = yn, parents = { "either", "bronc" },
    probs = { { 0.9, 0.1 }, { 0.7, 0.3 }, { 0.8, 0.2 }, { 0.1, 0.9 } } })
  return bn
end

-- A random network: n nodes named 1..n, cardinalities 2..3, edges i -> j
-- (i < j) with probability p, at most max_parents parents, random CPTs.
local function random_network(rng, n, p, max_parents)
  local bn = pgm.BayesianNetwork()
  for j = 1, n do
    local k = 2 + math.floor(rng:uniform(1, 1):get(1, 1) * 2)
    local states = {}
    for s = 1, k do states[s] = "s" .. s end
    local parents = {}
    for i = 1, j - 1 do
      if #parents < max_parents and rng:uniform(1, 1):get(1, 1) < p then parents[#parents + 1] = i end
    end
    local rows = 1
    for _, q in ipairs(parents) do rows = rows * #bn.states[q] end
    local probs = {}
    for r = 1, rows do
      local u = rng:uniform(1, k) + 0.05
      local row, sum = {}, u:sum()
      for s = 1, k - 1 do row[s] = u:get(1, s) / sum end
      local rest = 1
      for s = 1, k - 1 do rest = rest - row[s] end
      row[k] = rest
      probs[r] = row
    end
    bn:set_cpt(j, { states = states, parents = parents, probs = #parents == 0 and probs[1] or probs })
  end
  return bn
end

-- Random hard evidence on up to two nodes, taken from a sample so that it
-- is possible.
local function random_evidence(bn, rng)
  local t = bn:sample(1, rng)
  local ev, nodes = {}, bn:nodes()
  local m = math.floor(rng:uniform(1, 1):get(1, 1) * 3)
  for _ = 1, m do
    local v = nodes[1 + math.floor(rng:uniform(1, 1):get(1, 1) * #nodes)]
    ev[v] = t:column(tostring(v)):get(1)
  end
  return ev
end

-- ---------------------------------------------------------------- graphs

describe("luma.pgm graphs", function()
  it("answers parents, children, ancestors, descendants and components", function()
    local g = pgm.DiGraph{ { "a", "b" }, { "b", "c" }, { "a", "d" }, { "e", "f" } }
    assert.same({ "a" }, g:parents("b"))
    assert.same({ "b", "d" }, g:children("a"))
    assert.same({ "a", "b" }, g:ancestors("c"))
    assert.same({ "b", "c", "d" }, g:descendants("a"))
    assert.same({ { "a", "b", "c", "d" }, { "e", "f" } }, g:connected_components())
    assert.is_true(g:is_dag())
    assert.same({ "a", "b", "c", "d", "e", "f" }, g:topological_order())
    g:add_edge("c", "a")
    assert.is_false(g:is_dag())
    assert.same({ "a", "b", "c", "a" }, g:find_cycle())
    errors_here("cycle 'a' %-> 'b' %-> 'c' %-> 'a'", function() g:topological_order() end)
  end)

  it("finds maximal cliques by Bron-Kerbosch", function()
    -- two triangles sharing the edge b-c, plus a pendant d-e
    local g = pgm.Graph{ { "a", "b" }, { "a", "c" }, { "b", "c" }, { "b", "d" }, { "c", "d" },
      { "d", "e" } }
    assert.same({ { "a", "b", "c" }, { "b", "c", "d" }, { "d", "e" } }, g:maximal_cliques())
    -- K4 minus nothing: one clique
    local k4 = pgm.Graph{ { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } }
    assert.same({ { 1, 2, 3, 4 } }, k4:maximal_cliques())
  end)

  it("moralises, triangulates by min-fill and min-degree and measures treewidth", function()
    local g = pgm.DiGraph{ { "a", "c" }, { "b", "c" } }
    local m = g:moralize()
    assert.is_true(m:has_edge("a", "b"))
    assert.same({ { "a", "c" }, { "a", "b" }, { "c", "b" } }, m:edges())
    -- a 5-cycle needs two chords; its treewidth is 2
    local cyc = pgm.Graph{ { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 5 }, { 5, 1 } }
    assert.is_false(cyc:is_chordal())
    for _, h in ipairs({ "min_fill", "min_degree" }) do
      local t, order = cyc:triangulate{ heuristic = h }
      assert.is_true(t:is_chordal())
      assert.equal(7, #t:edges())
      assert.equal(2, cyc:treewidth(order))
    end
    -- a 3 x 3 grid has treewidth 3 (min-fill finds it); eliminating the
    -- centre first joins its four neighbours
    local grid = pgm.Graph()
    for r = 0, 2 do
      for c = 0, 2 do
        local v = r * 3 + c + 1
        if c < 2 then grid:add_edge(v, v + 1) end
        if r < 2 then grid:add_edge(v, v + 3) end
      end
    end
    assert.equal(3, grid:treewidth(grid:elimination_order()))
    assert.equal(4, grid:treewidth({ 5, 1, 2, 3, 4, 6, 7, 8, 9 }))
  end)

  it("exports DOT", function()
    local g = pgm.DiGraph{ { "rain", "wet" } }
    assert.equal('digraph "G" {\n  "rain";\n  "wet";\n  "rain" -> "wet";\n}\n', g:to_dot())
    assert.equal('graph "M" {\n  "rain";\n  "wet";\n  "rain" -- "wet";\n}\n',
      g:to_undirected():to_dot{ name = "M" })
  end)

  it("decides Markov equivalence and builds the CPDAG", function()
    local chain = pgm.DiGraph{ { "a", "b" }, { "b", "c" } }
    local back = pgm.DiGraph{ { "c", "b" }, { "b", "a" } }
    local fork = pgm.DiGraph{ { "b", "a" }, { "b", "c" } }
    local vee = pgm.DiGraph{ { "a", "b" }, { "c", "b" } }
    assert.is_true(chain:is_markov_equivalent(back))
    assert.is_true(chain:is_markov_equivalent(fork))
    assert.is_false(chain:is_markov_equivalent(vee))
    assert.same({ { "a", "b", "c" } }, vee:immoralities())
    -- the v-structure stays directed; the chain becomes undirected (both ways)
    assert.same({ { "a", "b" }, { "c", "b" } }, vee:cpdag():edges())
    assert.same({ { "a", "b" }, { "b", "a" }, { "b", "c" }, { "c", "b" } }, chain:cpdag():edges())
    -- against brute force: on random DAGs of up to 6 nodes, an edge is
    -- directed in the CPDAG exactly when every Markov-equivalent DAG
    -- (all orientations of the skeleton) orients it the same way
    local rng = luma.random.Generator(9)
    for _ = 1, 40 do
      local n = 3 + math.floor(rng:uniform(1, 1):get(1, 1) * 4)
      local dag, pairs_ = pgm.DiGraph(), {}
      for v = 1, n do dag:add_node(v) end
      for i = 1, n do
        for j = i + 1, n do
          if rng:uniform(1, 1):get(1, 1) < 0.5 then dag:add_edge(i, j); pairs_[#pairs_ + 1] = { i, j } end
        end
      end
      local seen = {} -- seen[k] = set of orientations of edge k among equivalent DAGs
      for mask = 0, (1 << #pairs_) - 1 do
        local h = pgm.DiGraph()
        for v = 1, n do h:add_node(v) end
        for k, e in ipairs(pairs_) do
          if mask & (1 << (k - 1)) == 0 then h:add_edge(e[1], e[2]) else h:add_edge(e[2], e[1]) end
        end
        if h:is_dag() and h:is_markov_equivalent(dag) then
          for k = 1, #pairs_ do
            seen[k] = seen[k] or {}
            seen[k][mask & (1 << (k - 1)) == 0 and "fwd" or "back"] = true
          end
        end
      end
      local c = dag:cpdag()
      for k, e in ipairs(pairs_) do
        local both = seen[k].fwd and seen[k].back
        assert.equal(both and true or false, c:has_edge(e[1], e[2]) and c:has_edge(e[2], e[1]))
        if not both then assert.is_true(c:has_edge(e[1], e[2])) end
      end
    end
    -- a -> c <- b, c -> d: Meek R1 compels c -> d
    local g = pgm.DiGraph{ { "a", "c" }, { "b", "c" }, { "c", "d" } }
    assert.same({ { "a", "c" }, { "c", "d" }, { "b", "c" } }, g:cpdag():edges())
  end)
end)

describe("d-separation", function()
  local sprinkler_graph = pgm.DiGraph{ { "C", "S" }, { "C", "R" }, { "S", "W" }, { "R", "W" } }
  it("follows the three-node rules on the sprinkler", function()
    for _, method in ipairs({ "bayes_ball", "bayes_ball_lua", "moral", "path" }) do
      local o = { method = method }
      assert.is_false(sprinkler_graph:d_separated("S", "R", {}, o))
      assert.is_true(sprinkler_graph:d_separated("S", "R", { "C" }, o))      -- fork blocked
      assert.is_false(sprinkler_graph:d_separated("S", "R", { "C", "W" }, o)) -- collider opened
      assert.is_true(sprinkler_graph:d_separated("C", "W", { "S", "R" }, o))
    end
  end)

  it("recompiles the DAG of the C walk after the graph changes", function()
    local g = pgm.DiGraph{ { "a", "b" }, { "c", "d" } }
    assert.is_true(g:d_separated("a", "d"))
    g:add_edge("b", "c")
    assert.is_false(g:d_separated("a", "d"))
    assert.is_true(g:d_separated("a", "d", { "c" }))
    g:remove_edge("b", "c")
    assert.is_true(g:d_separated("a", "d"))
    g:add_node("e")
    g:add_edge("e", "a")
    assert.is_false(g:d_separated("e", "b"))
    errors_here("x and z share node 'a'", function() g:d_separated("a", "b", { "a" }) end)
  end)

  it("agrees with networkx 2.8 on 500 random queries, by all three methods", function()
    local cases = dofile("tests/pgm/reference/dsep_networkx.lua")
    assert.equal(500, #cases)
    local yes = 0
    for k, c in ipairs(cases) do
      local g = pgm.DiGraph()
      for v = 1, c.n do g:add_node(v) end
      for _, e in ipairs(c.edges) do g:add_edge(e[1], e[2]) end
      for _, method in ipairs({ "bayes_ball", "bayes_ball_lua", "moral", "path" }) do
        local got = g:d_separated(c.x, c.y, c.z, { method = method })
        assert(got == c.separated, string.format("case %d, %s: %s", k, method, tostring(got)))
      end
      if c.separated then yes = yes + 1 end
    end
    assert.equal(154, yes) -- both answers are well represented
  end)

  it("gives the same answer by the path rule and Bayes ball on 300 random DAGs", function()
    local rng = luma.random.Generator(5)
    for _ = 1, 300 do
      local n = 5 + math.floor(rng:uniform(1, 1):get(1, 1) * 6)
      local g = pgm.DiGraph()
      for v = 1, n do g:add_node(v) end
      for i = 1, n do
        for j = i + 1, n do if rng:uniform(1, 1):get(1, 1) < 0.35 then g:add_edge(i, j) end end
      end
      local perm = rng:permutation(n)
      local x, y, z = { perm:get(1, 1) }, { perm:get(2, 1) }, {}
      for k = 3, 2 + math.floor(rng:uniform(1, 1):get(1, 1) * (n - 2)) do z[#z + 1] = perm:get(k, 1) end
      local a = g:d_separated(x, y, z, { method = "path" })
      assert.equal(a, g:d_separated(x, y, z))
      assert.equal(a, g:d_separated(x, y, z, { method = "moral" }))
      assert.equal(a, g:d_separated(x, y, z, { method = "bayes_ball_lua" }))
    end
  end)
end)

-- --------------------------------------------------------------- factors

describe("luma.pgm.Factor", function()
  local a = pgm.Factor({ "A", "B" }, { 2, 2 }, { 0.1, 0.9, 0.4, 0.6 })
  local b = pgm.Factor({ "B", "C" }, { 2, 3 }, { 1, 2, 3, 4, 5, 6 })

  it("multiplies, marginalises, maximises, reduces and divides", function()
    local p = a * b
    assert.same({ "A", "B", "C" }, p:scope())
    -- p(A=2, B=2, C=3) = 0.6 * 6
    close(p:get{ A = 2, B = 2, C = 3 }, 3.6, 1e-15)
    local m = p:marginalize{ "B" }
    close(m:get{ A = 1, C = 1 }, 0.1 * 1 + 0.9 * 4, 1e-15)
    local x = p:maximize("A")
    close(x:get{ B = 1, C = 2 }, math.max(0.1 * 2, 0.4 * 2), 1e-15)
    local r = p:reduce{ B = 2 }
    assert.same({ "A", "C" }, r:scope())
    close(r:get{ A = 1, C = 3 }, 0.9 * 6, 1e-15)
    local q = p / b
    close(q:get{ A = 2, B = 1, C = 3 }, 0.4, 1e-15)
    -- 0 / 0 = 0
    local z = pgm.Factor({ "A" }, { 2 }, { 0, 3 }) / pgm.Factor({ "A" }, { 2 }, { 0, 1.5 })
    assert.same({ 0, 2 }, { z:get{ A = 1 }, z:get{ A = 2 } })
    local n, total = a:normalize()
    assert.equal(2, total)
    close(n:get{ A = 1, B = 2 }, 0.45, 1e-15)
  end)

  it("gives the same results in log space", function()
    local lp = (a:to_log() * b:to_log()):marginalize{ "B" }:to_prob()
    local pp = (a * b):marginalize{ "B" }
    for i = 1, 2 do
      for c = 1, 3 do close(lp:get{ A = i, C = c }, pp:get{ A = i, C = c }, 1e-14) end
    end
    close(a:to_log():sum(), math.log(2), 1e-15)
  end)

  it("reads and writes by state names", function()
    local f = pgm.Factor({ "X" }, { 3 }, { 0.2, 0.3, 0.5 },
      { states = { X = { "red", "blue", "green" } } })
    assert.equal(0.3, f:get{ X = "blue" })
    assert.same({ red = 0.2, blue = 0.3, green = 0.5 }, f:totable())
    local arg, v = f:argmax()
    assert.same({ X = "green" }, arg)
    assert.equal(0.5, v)
  end)

  it("refuses negative potentials and tables too large to hold", function()
    errors_here("value 2 is %-1: potentials must be finite and >= 0", function()
      pgm.Factor({ "A" }, { 2 }, { 1, -1 })
    end)
    local vars, card = {}, {}
    for k = 1, 41 do vars[k], card[k] = "v" .. k, 2 end
    errors_here("a table over 41 variables would have 2199023255552 cells", function()
      pgm.Factor(vars, card, {})
    end)
  end)
end)

-- ------------------------------------------------------- belief networks

describe("luma.pgm.BayesianNetwork", function()
  it("gives the sprinkler's posterior by every exact method", function()
    local bn = sprinkler()
    -- P(R=T, W=T) = sum_{c,s} P(c) P(s|c) P(R=T|c) P(W=T|s,R=T)
    --   = 0.5 (0.5 * 0.8 * (0.5 * 0.9 + 0.5 * 0.99) + 0.5 * 0.2 * ... ) worked out:
    --   c=F: 0.5 * 0.2 * (0.5 * 0.9 + 0.5 * 0.99) = 0.0945
    --   c=T: 0.5 * 0.8 * (0.9 * 0.9 + 0.1 * 0.99) = 0.3636
    -- P(R=F, W=T): c=F: 0.5 * 0.8 * (0.5 * 0 + 0.5 * 0.9) = 0.18
    --              c=T: 0.5 * 0.2 * (0.9 * 0 + 0.1 * 0.9) = 0.009
    local want = (0.0945 + 0.3636) / (0.0945 + 0.3636 + 0.18 + 0.009)
    for _, method in ipairs({ "ve", "jt", "enumeration" }) do
      local f = bn:query("Rain", { evidence = { WetGrass = "T" }, method = method })
      close(f:get{ Rain = "T" }, want, 1e-15, method)
    end
    close(bn:evidence_probability{ WetGrass = "T" }, 0.6471, 1e-15)
    close(bn:evidence_probability({ WetGrass = "T" }, { method = "jt" }), 0.6471, 1e-15)
    close(bn:probability{ Cloudy = "T", Sprinkler = "F", Rain = "T", WetGrass = "T" },
      0.5 * 0.9 * 0.8 * 0.9, 1e-15)
  end)

  it("matches the Asia network's published marginals", function()
    local bn = asia()
    -- prior marginals (Lauritzen and Spiegelhalter 1988), worked out:
    -- either = 1 - (1 - 0.0104)(1 - 0.055); xray = 0.98 either + 0.05 (1 - either);
    -- dysp from P(either, bronc) summed over smoke (0.0358524, 0.0289756,
    -- 0.4141476, 0.5210244 for yes/yes, yes/no, no/yes, no/no)
    local m = bn:marginals()
    close(m.tub.yes, 0.0104, 1e-15)
    close(m.lung.yes, 0.055, 1e-15)
    close(m.bronc.yes, 0.45, 1e-15)
    close(m.either.yes, 0.064828, 1e-15)
    close(m.xray.yes, 0.11029004, 1e-15)
    close(m.dysp.yes, 0.4359706, 1e-15)
    -- P(smoke = yes | dysp = yes) = 0.5 * P(d | s) / P(d), P(d | s = yes) = 0.552808
    local post = bn:query("smoke", { evidence = { dysp = "yes" } })
    close(post:get{ smoke = "yes" }, 0.5 * 0.552808 / 0.4359706, 1e-14)
  end)

  it("gives the Asia posteriors Lauritzen and Spiegelhalter report", function()
    -- (1988; also Cowell, Dawid, Lauritzen and Spiegelhalter, Probabilistic
    -- Networks and Expert Systems, 1999, sec. 2.9), printed to 3 decimals:
    -- a visit to Asia and dyspnoea, then a positive X-ray as well
    local m = asia():marginals{ evidence = { asia = "yes", dysp = "yes" } }
    close(m.tub.yes, 0.088, 5e-4)
    close(m.lung.yes, 0.100, 5e-4)
    close(m.bronc.yes, 0.811, 5e-4)
    m = asia():marginals{ evidence = { asia = "yes", dysp = "yes", xray = "yes" } }
    close(m.tub.yes, 0.392, 5e-4)
    close(m.lung.yes, 0.444, 5e-4)
    close(m.bronc.yes, 0.629, 5e-4)
  end)

  it("agrees to 1e-12 across enumeration, elimination and the junction tree", function()
    local function compare(bn, ev)
      local base = bn:marginals{ evidence = ev, method = "enumeration" }
      for _, method in ipairs({ "ve", "jt" }) do
        local got = bn:marginals{ evidence = ev, method = method }
        for v, t in pairs(base) do
          for s, p in pairs(t) do close(got[v][s], p, 1e-12, method) end
        end
      end
      return base
    end
    compare(asia(), { asia = "yes", xray = "yes" })
    -- log space gives the same posteriors
    local base = asia():marginals{ evidence = { xray = "no" }, method = "enumeration" }
    for _, method in ipairs({ "ve", "jt", "enumeration" }) do
      local got = asia():marginals{ evidence = { xray = "no" }, method = method, log = true }
      for v, t in pairs(base) do
        for s, p in pairs(t) do close(got[v][s], p, 1e-12, "log " .. method) end
      end
      close(asia():query("lung", { evidence = { xray = "no" }, method = method, log = true })
        :get{ lung = "yes" }, base.lung.yes, 1e-12)
    end
    compare(asia(), { smoke = "no", dysp = "yes" })
    local rng = luma.random.Generator(32)
    for _ = 1, 200 do
      local bn = random_network(rng, 3 + math.floor(rng:uniform(1, 1):get(1, 1) * 5), 0.5, 3)
      compare(bn, random_evidence(bn, rng))
    end
  end)

  it("makes belief propagation exact on polytrees (1e-12)", function()
    local rng = luma.random.Generator(33)
    for _ = 1, 50 do
      local bn = random_network(rng, 3 + math.floor(rng:uniform(1, 1):get(1, 1) * 5), 0.7, 1)
      local ev = random_evidence(bn, rng)
      local base = bn:marginals{ evidence = ev, method = "enumeration" }
      local got = bn:marginals{ evidence = ev, method = "bp" }
      for v, t in pairs(base) do
        for s, p in pairs(t) do close(got[v][s], p, 1e-12, "bp") end
      end
      assert.is_true(bn:to_factor_graph():is_tree())
    end
  end)

  it("applies the notes' soft evidence by Jeffrey's rule", function()
    -- Color in {red, blue, green} with prior (0.5, 0.3, 0.2); X | Color with
    -- P(X = a | red, blue, green) = (0.9, 0.2, 0.5).  Soft evidence q =
    -- (0.6, 0.1, 0.3) on Color gives the joint P2(x, y) = P1(x | y) q(y):
    --   (a, red) 0.54  (b, red) 0.06  (a, blue) 0.02  (b, blue) 0.08
    --   (a, green) 0.15  (b, green) 0.15
    local bn = pgm.BayesianNetwork{ { "Color", "X" } }
    bn:set_cpt("Color", { states = { "red", "blue", "green" }, probs = { 0.5, 0.3, 0.2 } })
    bn:set_cpt("X", { states = { "a", "b" }, parents = { "Color" },
      probs = { red = { 0.9, 0.1 }, blue = { 0.2, 0.8 }, green = { 0.5, 0.5 } } })
    local soft = { Color = { red = 0.6, blue = 0.1, green = 0.3 } }
    local joint = bn:query({ "Color", "X" }, { soft_evidence = soft })
    local want = { red = { a = 0.54, b = 0.06 }, blue = { a = 0.02, b = 0.08 },
      green = { a = 0.15, b = 0.15 } }
    for c, row in pairs(want) do
      for x, p in pairs(row) do close(joint:get{ Color = c, X = x }, p, 1e-15, c .. x) end
    end
    for _, method in ipairs({ "ve", "jt", "enumeration" }) do
      close(bn:query("X", { soft_evidence = soft, method = method }):get{ X = "a" }, 0.71, 1e-15)
    end
    -- two soft findings at once (iterative proportional fitting): both
    -- marginals come out as given
    local asia_bn = asia()
    local two = { smoke = { yes = 0.2, no = 0.8 }, xray = { yes = 0.5, no = 0.5 } }
    for _, method in ipairs({ "ve", "jt" }) do
      local m = asia_bn:marginals{ soft_evidence = two, method = method }
      close(m.smoke.yes, 0.2, 1e-12, method)
      close(m.xray.yes, 0.5, 1e-12, method)
    end
    -- virtual evidence is a likelihood: lambda = (0.6, 0.1, 0.3) weighs the prior
    local v = bn:query("Color", { virtual_evidence = { Color = { 0.6, 0.1, 0.3 } } })
    close(v:get{ Color = "red" }, 0.3 / (0.3 + 0.03 + 0.06), 1e-15)
  end)

  it("finds the MPE and MAP assignments of brute-force enumeration", function()
    local rng = luma.random.Generator(7)
    for _ = 1, 30 do
      local bn = random_network(rng, 3 + math.floor(rng:uniform(1, 1):get(1, 1) * 3), 0.5, 2)
      local ev = random_evidence(bn, rng)
      local free = {}
      for _, v in ipairs(bn:nodes()) do if ev[v] == nil then free[#free + 1] = v end end
      if #free > 0 then
        local joint = bn:query(free, { evidence = ev, method = "enumeration" })
        local best, bp = joint:argmax()
        local got, p = bn:mpe{ evidence = ev }
        assert.same(best, got)
        close(p, bp, 1e-12)
        local q = { free[1] }
        local marg = bn:query(q, { evidence = ev, method = "enumeration" })
        local mbest, mp = marg:argmax()
        local mgot, mq = bn:map_query(q, { evidence = ev })
        assert.same(mbest, mgot)
        close(mq, mp, 1e-12)
      end
    end
  end)

  it("converts to a Markov network (Z = 1, the moral graph) and a factor graph", function()
    local bn = asia()
    local mn = bn:to_markov_network()
    close(mn:partition_function(), 1, 1e-15)
    close(mn:partition_function{ method = "jt" }, 1, 1e-15)
    local g, moral = mn:to_graph(), bn:moralize()
    assert.equal(#moral:edges(), #g:edges())
    for _, e in ipairs(moral:edges()) do assert.is_true(g:has_edge(e[1], e[2])) end
    close(mn:query("lung", { evidence = { xray = "yes" } }):get{ lung = "yes" },
      bn:query("lung", { evidence = { xray = "yes" } }):get{ lung = "yes" }, 1e-14)
    local fg = bn:to_factor_graph()
    assert.equal(8, #fg:get_factors())
    assert.is_false(fg:is_tree()) -- smoke -> lung/bronc -> either/dysp closes a loop
  end)

  it("handles disconnected networks with a junction forest", function()
    local bn = pgm.BayesianNetwork{ { "a", "b" } }
    bn:set_cpt("a", { states = { 0, 1 }, probs = { 0.3, 0.7 } })
    bn:set_cpt("b", { states = { 0, 1 }, parents = { "a" }, probs = { { 0.9, 0.1 }, { 0.2, 0.8 } } })
    bn:set_cpt("c", { states = { 0, 1 }, probs = { 0.25, 0.75 } })
    local jt = bn:junction_tree{ evidence = { b = 1 } }
    assert.equal(2, #jt.cliques)
    assert.equal(0, #jt.edges)
    -- P(b = 1) = 0.3 * 0.1 + 0.7 * 0.8; the other tree contributes 1
    close(jt:normalizer(), 0.59, 1e-15)
    close(jt:marginal("c"):get{ c = 1 }, 0.75, 1e-15)
    close(jt:marginal("a"):get{ a = 1 }, 0.56 / 0.59, 1e-15)
  end)

  it("samples ancestrally with a generator", function()
    local bn = sprinkler()
    local t = bn:sample(20000, luma.random.Generator(11))
    assert.equal(20000, t:nrows())
    local rain = t:column("Rain"):counts()
    -- P(Rain = T) = 0.5; 20000 draws have sd 0.0035
    close(rain:get(2, 1) / 20000, 0.5, 0.02)
    local t2 = bn:sample(50, luma.random.Generator(11))
    assert.same(t:column("WetGrass"):totable()[50], t2:column("WetGrass"):totable()[50])
  end)
end)

-- ------------------------------------------------------------- learning

describe("learning belief networks", function()
  local data = { A = { "x", "x", "y", "y", "y", "x" }, B = { "u", "v", "v", "v", "u", "u" } }

  it("fits CPTs by maximum likelihood, Dirichlet and BDeu", function()
    local bn = pgm.BayesianNetwork{ { "A", "B" } }
    bn:fit(data)
    -- A: x 3, y 3; B | A = x: u 2, v 1; B | A = y: u 1, v 2
    close(bn:cpt("A"):get{ A = "x" }, 0.5, 1e-15)
    close(bn:cpt("B"):get{ A = "x", B = "u" }, 2 / 3, 1e-15)
    bn:fit(luma.Table(data), { estimator = "dirichlet", pseudo_count = 1 })
    close(bn:cpt("B"):get{ A = "y", B = "u" }, (1 + 1) / (3 + 2), 1e-15)
    bn:fit(data, { estimator = "bdeu", equivalent_sample_size = 4 })
    -- B: q = 2, r = 2: (N + 4 / 4) / (N_j + 4 / 2)
    close(bn:cpt("B"):get{ A = "x", B = "v" }, (1 + 1) / (3 + 2), 1e-15)
    close(bn:cpt("A"):get{ A = "y" }, (3 + 2) / (6 + 4), 1e-15)
  end)

  it("scores structures by BIC and BDeu", function()
    local bn = pgm.BayesianNetwork{ { "A", "B" } }
    -- BIC: 6 log(1/2) + 2 (2 log(2/3) + log(1/3)) - (log 6 / 2)(1 + 2)
    local bic = 6 * math.log(0.5) + 2 * (2 * math.log(2 / 3) + math.log(1 / 3)) - 1.5 * math.log(6)
    close(pgm.score(bn, data), bic, 1e-12)
    -- BDeu with s = 1 for A alone: lgamma(1) - lgamma(7) + 2 (lgamma(3.5) - lgamma(0.5))
    local lg = luma.special.lgamma
    local empty = pgm.BayesianNetwork{ "A" }
    close(pgm.score(empty, { A = data.A }, { score = "bdeu", equivalent_sample_size = 1 }),
      lg(1) - lg(7) + 2 * (lg(3.5) - lg(0.5)), 1e-12)
  end)

  it("recovers a tree by Chow-Liu and improves the score by hill climbing", function()
    local truth = pgm.BayesianNetwork{ { "a", "b" }, { "b", "c" }, { "b", "d" } }
    truth:set_cpt("a", { states = { "0", "1" }, probs = { 0.3, 0.7 } })
    truth:set_cpt("b", { states = { "0", "1" }, parents = { "a" }, probs = { { 0.9, 0.1 }, { 0.2, 0.8 } } })
    truth:set_cpt("c", { states = { "0", "1" }, parents = { "b" }, probs = { { 0.85, 0.15 }, { 0.1, 0.9 } } })
    truth:set_cpt("d", { states = { "0", "1" }, parents = { "b" }, probs = { { 0.7, 0.3 }, { 0.25, 0.75 } } })
    local t = truth:sample(3000, luma.random.Generator(3))
    local tree = pgm.chow_liu(t, { root = "a" })
    assert.same({ { "a", "b" }, { "b", "c" }, { "b", "d" } }, tree:edges())
    local net, info = pgm.hill_climb(t)
    close(info.score, pgm.score(net, t), 1e-9)
    local bnet, binfo = pgm.hill_climb(t, { score = "bdeu", max_indegree = 1 })
    close(binfo.score, pgm.score(bnet, t, { score = "bdeu" }), 1e-9)
    assert.is_true(bnet:is_markov_equivalent(truth))
    for _, v in ipairs(bnet:nodes()) do assert.is_true(#bnet:parents(v) <= 1) end
    assert.is_true(info.score > pgm.score(pgm.BayesianNetwork{ "a", "b", "c", "d" }, t))
    assert.is_true(net:is_markov_equivalent(truth))
  end)
end)

-- ----------------------------------------------- Markov networks and BP

describe("luma.pgm.MarkovNetwork and FactorGraph", function()
  -- the notes' example P(A..E) = psi(A,C) psi(C,D) psi(B,C,E) / Z
  local function notes_example()
    local mn = pgm.MarkovNetwork()
    for _, v in ipairs({ "A", "B", "C", "D", "E" }) do mn:add_variable(v, 2) end
    mn:add_factor({ "A", "C" }, { 1, 2, 3, 4 })
    mn:add_factor({ "C", "D" }, { 5, 1, 2, 3 })
    mn:add_factor({ "B", "C", "E" }, { 1, 2, 3, 4, 5, 6, 7, 8 })
    return mn
  end

  it("computes the partition function by every method", function()
    local mn = notes_example()
    -- Z = sum_C [sum_A psiAC] [sum_D psiCD] [sum_{B,E} psiBCE]:
    --   C=1: (1 + 3)(5 + 1)(1 + 2 + 5 + 6) = 4 * 6 * 14 = 336
    --   C=2: (2 + 4)(2 + 3)(3 + 4 + 7 + 8) = 6 * 5 * 22 = 660
    for _, method in ipairs({ "ve", "jt", "enumeration" }) do
      assert.equal(996, mn:partition_function{ method = method })
    end
    assert.same({ { "A", "C" }, { "B", "C", "E" }, { "C", "D" } }, mn:maximal_cliques())
  end)

  it("runs exact sum- and max-product on a tree", function()
    local fg = notes_example():to_factor_graph()
    assert.is_true(fg:is_tree())
    local beliefs, report = fg:belief_propagation()
    assert.is_true(report.converged)
    local mn = notes_example()
    for _, v in ipairs({ "A", "B", "C", "D", "E" }) do
      local q = mn:query(v, { method = "enumeration" })
      for s = 1, 2 do close(beliefs[v][s], q:get{ [v] = s }, 1e-12, v) end
    end
    close(beliefs.C[1], 336 / 996, 1e-12)
    local maxb = fg:belief_propagation{ mode = "max" }
    local best = mn:mpe()
    for v, s in pairs(best) do
      assert.is_true(maxb[v][s] >= maxb[v][3 - s], v)
    end
    local seq = fg:belief_propagation{ schedule = "sequential" }
    close(seq.D[1], beliefs.D[1], 1e-12)
  end)

  it("runs loopy BP with damping and reports convergence", function()
    local mn = pgm.MarkovNetwork()
    for v = 1, 4 do mn:add_variable(v, 2) end
    for _, e in ipairs({ { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 1 } }) do
      mn:add_factor(e, { 2, 1, 1, 2 })
    end
    mn:add_factor({ 1 }, { 3, 1 })
    local fg = mn:to_factor_graph()
    assert.is_false(fg:is_tree())
    local b, report = fg:belief_propagation{ damping = 0.5, max_iter = 200, tol = 1e-12 }
    assert.is_true(report.converged)
    assert.is_true(report.iterations > 5)
    -- loopy beliefs approximate the exact marginal: here within 0.02
    close(b[3][1], mn:query(3):get{ [3] = 1 }, 0.02)
    local _, short = fg:belief_propagation{ max_iter = 2 }
    assert.is_false(short.converged)
    assert.equal(2, short.iterations)
  end)
end)

-- ------------------------------------------------------------- bad input

describe("luma.pgm bad input", function()
  it("refuses cycles", function()
    errors_here("the graph has a cycle 'a' %-> 'b' %-> 'a' %(a belief network must be acyclic%)", function()
      pgm.BayesianNetwork{ { "a", "b" }, { "b", "a" } }
    end)
    local bn = pgm.BayesianNetwork{ { "a", "b" }, { "b", "c" } }
    errors_here("'c' %-> 'a' would make the cycle", function() bn:add_edge("c", "a") end)
    assert.is_true(bn.graph:is_dag())
  end)

  it("refuses CPTs that do not sum to 1 within 1e-6, or have negative entries", function()
    local bn = pgm.BayesianNetwork()
    errors_here("the CPT of 'a' sums to 0.9, not 1 %(tolerance 1e%-06%)", function()
      bn:set_cpt("a", { states = { "x", "y" }, probs = { 0.5, 0.4 } })
    end)
    bn:set_cpt("a", { states = { "x", "y" }, probs = { 0.5, 0.5 + 5e-7 } }) -- within tolerance
    errors_here("probability of state 'y' is %-0.1", function()
      bn:set_cpt("b", { states = { "x", "y" }, parents = { "a" }, probs = { { 1.1, -0.1 }, { 0.5, 0.5 } } })
    end)
    errors_here("needs 2 rows", function()
      bn:set_cpt("b", { states = { "x", "y" }, parents = { "a" }, probs = { { 1, 0 } } })
    end)
  end)

  it("names unknown variables and states in evidence and queries", function()
    local bn = sprinkler()
    errors_here("unknown variable 'Snow'", function() bn:query("Rain", { evidence = { Snow = "T" } }) end)
    errors_here("unknown state 'maybe' of variable 'WetGrass' %(states: F, T%)", function()
      bn:query("Rain", { evidence = { WetGrass = "maybe" } })
    end)
    errors_here("unknown variable 'Snow'", function() bn:query("Snow") end)
    errors_here("unknown option 'evidnce'", function() bn:query("Rain", { evidnce = {} }) end)
  end)

  it("reports impossible evidence as an error, not NaN", function()
    local bn = sprinkler()
    -- WetGrass = T is impossible when neither the sprinkler nor rain is on
    for _, method in ipairs({ "ve", "jt", "enumeration" }) do
      errors_here("impossible evidence: its probability is 0", function()
        bn:query("Cloudy", { evidence = { Sprinkler = "F", Rain = "F", WetGrass = "T" },
          method = method })
      end)
    end
    errors_here("impossible evidence", function()
      bn:mpe{ evidence = { Sprinkler = "F", Rain = "F", WetGrass = "T" } }
    end)
    errors_here("impossible evidence", function()
      bn:marginals{ evidence = { Sprinkler = "F", Rain = "F", WetGrass = "T" } }
    end)
    errors_here("soft_evidence of 'Rain' sums to 1.2", function()
      bn:query("Cloudy", { soft_evidence = { Rain = { 0.6, 0.6 } } })
    end)
  end)

  it("refuses negative potentials in Markov networks", function()
    local mn = pgm.MarkovNetwork():add_variable("a", 2)
    errors_here("value 1 is %-2: potentials must be finite and >= 0", function()
      mn:add_factor({ "a" }, { -2, 1 })
    end)
  end)

  it("refuses a junction tree whose clique exceeds the memory, naming the clique", function()
    -- pairwise potentials on a complete graph of 41 binary variables: the one
    -- clique has 2^41 cells, refused before any allocation
    local mn = pgm.MarkovNetwork()
    for v = 1, 41 do mn:add_variable(v, 2) end
    for i = 1, 41 do for j = i + 1, 41 do mn:add_factor({ i, j }, { 1, 0.5, 0.5, 1 }) end end
    errors_here("clique {1, 2, 3, .-41} over 41 variables would have 2199023255552 cells", function()
      mn:partition_function{ method = "jt" }
    end)
  end)
end)
