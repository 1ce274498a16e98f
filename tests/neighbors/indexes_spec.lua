-- luma.neighbors indexes (luma.neighbors.native, luma.neighbors.index).
--
-- Every index must return exactly the brute force's neighbours: the same
-- indices and distances (they are computed by one function, so they agree
-- to the bit; the tests allow 1e-12 relative), on random data, on data full
-- of duplicates and ties, in 1 to 50 dimensions, for every metric each
-- index supports.  Hand-checked cases fix the tie rule (the smaller index
-- first), the notes' KD-tree construction (notes 000 §5.2.2 and §3: one
-- point per node, the median point at the root) and AESA's small number
-- of distance evaluations.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.neighbors.native")
local support = require("support")

-- required, not luma.neighbors: the index's luma.save loader registers
-- with the luma.persist this spec file uses (Busted reloads modules per file)
local NB = require("luma.neighbors")
local M = luma.matrix

local ALL = { "brute", "kd_tree", "ball_tree", "orchard", "aesa", "laesa" }

-- The index variants an algorithm has: both KD-tree splits, leaf sizes.
local function variants(algorithm)
  if algorithm == "kd_tree" then
    return { { leaf_size = 1, split = "median" }, { leaf_size = 6, split = "median" },
             { leaf_size = 1, split = "sliding_midpoint" }, { leaf_size = 6, split = "sliding_midpoint" } }
  elseif algorithm == "ball_tree" then
    return { { leaf_size = 1 }, { leaf_size = 6 } }
  elseif algorithm == "laesa" then
    return { { buoys = 1 }, { buoys = 7 } }
  end
  return { {} }
end

local function options(base, extra)
  local o = {}
  for k, v in pairs(base) do o[k] = v end
  for k, v in pairs(extra) do o[k] = v end
  return o
end

-- k-nearest (queries and the index's own rows) and radius results of one
-- index, for comparison with the brute force's.
local function answers(ix, Q, k, r)
  local d, i = ix:query(Q, k)
  local sd, si = ix:query(nil, k - 1)
  local rd, ri, rc = ix:query_radius(Q, r)
  local srd, sri, src = ix:query_radius(nil, r)
  return { d, i, sd, si, rd, ri, rc, srd, sri, src }
end

local function results(X, Q, opts, k, r)
  return answers(native.build(X, opts), Q, k, r)
end

local function assert_same(expected, actual, what)
  for n = 1, #expected do
    local e, a = expected[n], actual[n]
    assert.are.same({ e:shape() }, { a:shape() }, what)
    if e:rows() * e:cols() > 0 then
      local tol = (n % 2 == 1 and n ~= 7 and n ~= 10) and 1e-12 or 0 -- indices and counts exactly
      assert.matrix_near(e, a, tol)
    end
  end
end

-- Every supported (algorithm, variant) against the brute force.
local function check_all(X, Q, metric_opts, k, r, algorithms)
  local ref = results(X, Q, options(metric_opts, { algorithm = "brute" }), k, r)
  for _, algorithm in ipairs(algorithms or ALL) do
    if algorithm ~= "brute" then
      for _, v in ipairs(variants(algorithm)) do
        local opts = options(options(metric_opts, v), { algorithm = algorithm })
        assert_same(ref, results(X, Q, opts, k, r), algorithm)
      end
    end
  end
  return ref
end

describe("neighbors indexes", function()
  it("agree with the brute force on random data in 1 to 50 dimensions", function()
    local g = luma.random.Generator(11)
    for _, d in ipairs({ 1, 2, 3, 5, 10, 20, 50 }) do
      local X, Q = g:normal(120, d), g:normal(25, d)
      local r = math.sqrt(d) -- about a tenth of the points within reach
      check_all(X, Q, { metric = "euclidean" }, 6, r)
      check_all(X, Q, { metric = "manhattan" }, 6, r * 1.5)
      check_all(X, Q, { metric = "chebyshev" }, 6, r / 2)
      check_all(X, Q, { metric = "minkowski", p = 3 }, 6, r * 0.8)
    end
  end)

  it("agree with the brute force on duplicates and ties", function()
    local g = luma.random.Generator(5)
    for _, d in ipairs({ 1, 2, 3, 8 }) do
      -- coordinates on a coarse integer grid: many equal points and many
      -- equal distances; half the rows repeat the other half
      local half = (g:normal(70, d) * 1.2):round()
      local X = M.vstack{ half, half }
      local Q = (g:normal(20, d) * 1.2):round()
      for _, metric in ipairs({ "euclidean", "manhattan", "chebyshev" }) do
        check_all(X, Q, { metric = metric }, 9, 1.5)
      end
    end
  end)

  it("order equal distances by index (hand-checked)", function()
    -- 1-D points 0, 1, 3, 6, 10 and the query 2: distances 2, 1, 1, 4, 8
    local X = M{ 0, 1, 3, 6, 10 }
    for _, algorithm in ipairs(ALL) do
      local ix = native.build(X, { algorithm = algorithm, leaf_size = 1 })
      local d, i = ix:query(M{ { 2 } }, 3)
      assert.matrix_near({ { 1, 1, 2 } }, d)
      assert.matrix_near({ { 2, 3, 1 } }, i, 0)
      local rd, ri, rc = ix:query_radius(M{ { 2 } }, 4) -- 4 is inclusive
      assert.matrix_near({ { 1 }, { 1 }, { 2 }, { 4 } }, rd)
      assert.matrix_near({ { 2 }, { 3 }, { 1 }, { 4 } }, ri, 0)
      assert.matrix_near({ { 4 } }, rc, 0)
      -- all points equal: the k smallest indices, at distance 0
      local same = native.build(luma.full(9, 2, 1.5), { algorithm = algorithm, leaf_size = 1 })
      local sd, si = same:query(M{ { 1.5, 1.5 } }, 4)
      assert.matrix_near({ { 0, 0, 0, 0 } }, sd, 0)
      assert.matrix_near({ { 1, 2, 3, 4 } }, si, 0)
      -- the index's own rows: each without itself
      local _, oi = same:query(nil, 2)
      assert.matrix_near({ { 2, 3 } }, oi:row(1), 0)
      assert.matrix_near({ { 1, 3 } }, oi:row(2), 0)
    end
  end)

  it("build the notes' KD-tree with leaf_size = 1", function()
    -- notes 000 §3: N nodes, one point each; the root holds the point
    -- closest to the median of the split axis (here x, the wider spread:
    -- values 1..7, median 4 at row 4), the rows before it go left
    local X = M{ { 4, 0.5 }, { 2, 0.1 }, { 7, 0.3 }, { 4.5, 0.2 }, { 1, 0.9 }, { 6, 0.0 }, { 3, 0.4 } }
    local ix = native.build(X, { algorithm = "kd_tree", leaf_size = 1 })
    local info = ix:info()
    assert.equal(7, info.nodes)
    assert.equal(3, info.depth) -- log2(7) + 1
    local s = ix:state()
    local root = s.nodes:row(1)
    -- start 0, end 7, cut 3 (the 4th of 7 rows), axis 0 (x), own point
    assert.matrix_near({ { 0, 7, 3, 1, 2, 0, 1, 4 } }, root, 0)
    assert.equal(0, s.perm:get(4, 1)) -- row 1 (x = 4, 0-based 0) is the root's point
    -- every node holds exactly one point of its own or in its leaf
    for n = 1, 7 do
      local node = s.nodes:row(n)
      local size = node:get(1, 2) - node:get(1, 1)
      local leaf = node:get(1, 4) == -1 and node:get(1, 5) == -1
      assert.is_true(leaf and size == 1 or node:get(1, 7) == 1)
    end
  end)

  it("need few distance evaluations with AESA and linear AESA", function()
    local g = luma.random.Generator(3)
    local X, Q = g:uniform(2000, 4), g:uniform(50, 4)
    local counts = {}
    for _, algorithm in ipairs({ "aesa", "laesa", "orchard" }) do
      local ix = native.build(X, { algorithm = algorithm })
      local _, _, evals = ix:query(Q, 1)
      counts[algorithm] = evals:mean()
    end
    -- measured: AESA 7.0, linear AESA (16 buoys) 17.5, Orchard 38 of 2000
    assert.is_true(counts.aesa < 20, "aesa " .. counts.aesa)
    assert.is_true(counts.laesa < 40, "laesa " .. counts.laesa)
    assert.is_true(counts.orchard < 100, "orchard " .. counts.orchard)
    local _, _, brute = native.build(X):query(Q, 1)
    assert.matrix_near(luma.full(50, 1, 2000), brute, 0)
  end)

  it("take a metric given as a Lua function", function()
    local g = luma.random.Generator(8)
    local X, Q = (g:normal(80, 3) * 2):round(), (g:normal(10, 3) * 2):round()
    local calls = 0
    local function l1(u, v)
      calls = calls + 1
      return (u - v):abs():sum()
    end
    local ref = results(X, Q, { metric = "manhattan" }, 5, 2.5)
    for _, algorithm in ipairs({ "brute", "ball_tree", "orchard", "aesa", "laesa" }) do
      assert_same(ref, results(X, Q, { algorithm = algorithm, metric = l1 }, 5, 2.5), algorithm)
    end
    assert.is_true(calls > 0)
    -- the function's own error passes through unchanged
    local boom = native.build(X, { algorithm = "aesa", metric = l1 })
    assert.has_error(function()
      native.build(X, { metric = function() error({ code = 7 }) end }):query(Q, 1)
    end, { code = 7 })
    assert.is_not_nil(boom)
  end)

  it("compute Mahalanobis distances by whitening", function()
    local g = luma.random.Generator(4)
    local X, Q = g:normal(90, 3), g:normal(12, 3)
    local S = M{ { 2, 0.3, 0 }, { 0.3, 1, -0.2 }, { 0, -0.2, 0.5 } }
    local D = luma.pairwise.distances(Q, X, "mahalanobis", { cov = S })
    local order = D:argsort(2)
    for _, algorithm in ipairs({ "brute", "kd_tree", "ball_tree", "aesa" }) do
      local d, i = native.build(X, { algorithm = algorithm, metric = "mahalanobis", cov = S }):query(Q, 4)
      assert.matrix_near(order:sub(1, 12, 1, 4), i, 0)
      for r = 1, 12 do
        for c = 1, 4 do assert.near(D:get(r, i:get(r, c)), d:get(r, c), 1e-12) end
      end
      local _, vi = native.build(X, { algorithm = algorithm, metric = "mahalanobis",
        VI = luma.linalg.inv(S) }):query(Q, 4)
      assert.matrix_near(i, vi, 0)
    end
  end)

  it("compute cosine distances (brute force only)", function()
    local g = luma.random.Generator(6)
    local X, Q = g:normal(50, 4), g:normal(5, 4)
    local D = luma.pairwise.distances(Q, X, "cosine")
    local d, i = native.build(X, { metric = "cosine" }):query(Q, 3)
    assert.matrix_near(D:argsort(2):sub(1, 5, 1, 3), i, 0)
    for r = 1, 5 do assert.near(D:get(r, i:get(r, 1)), d:get(r, 1), 1e-12) end
  end)

  it("give the same bits for 1 and 2 threads", function()
    local g = luma.random.Generator(9)
    local X, Q = g:normal(3000, 4), g:normal(1500, 4)
    local before = luma.config().threads
    local out = {}
    for _, threads in ipairs({ 1, 2 }) do
      luma.config{ threads = threads }
      out[threads] = {}
      for _, algorithm in ipairs({ "brute", "kd_tree", "laesa" }) do
        local ix = native.build(X, { algorithm = algorithm })
        local d, i = ix:query(Q, 5)
        local rd, ri = ix:query_radius(Q, 0.3)
        out[threads][algorithm] = { d, i, rd, ri }
      end
    end
    luma.config{ threads = before }
    for algorithm, r1 in pairs(out[1]) do
      for n = 1, 4 do assert.matrix_near(r1[n], out[2][algorithm][n], 0) end
    end
  end)

  it("save and load without rebuilding", function()
    local g = luma.random.Generator(10)
    local X, Q = g:normal(60, 3), g:normal(8, 3)
    for _, algorithm in ipairs(ALL) do
      for _, v in ipairs(variants(algorithm)) do
        local ix = native.build(X, options(v, { algorithm = algorithm, metric = "manhattan" }))
        local path = os.tmpname()
        luma.save(ix, path)
        local back = luma.load(path)
        os.remove(path)
        assert.are.same(ix:info(), back:info())
        assert_same(answers(ix, Q, 4, 2), answers(back, Q, 4, 2), algorithm)
      end
    end
    -- a Mahalanobis index keeps its whitening
    local S = M{ { 2, 0.5, 0 }, { 0.5, 1, 0 }, { 0, 0, 3 } }
    local ix = native.build(X, { algorithm = "kd_tree", metric = "mahalanobis", cov = S })
    local back = luma.persist.decode(luma.persist.encode(ix))
    assert.matrix_near(select(1, ix:query(Q, 3)), select(1, back:query(Q, 3)), 0)
  end)

  it("refuse unsound saved states", function()
    local X = luma.random.Generator(2):normal(20, 2)
    local function corrupt(algorithm, field, r, c, value, pattern)
      local s = native.build(X, { algorithm = algorithm, leaf_size = 2 }):state()
      s[field] = s[field]:copy()
      s[field]:set(r, c, value)
      support.errors_with(pattern, function() native.restore(s) end)
    end
    corrupt("kd_tree", "perm", 2, 1, 0, "not a permutation")
    corrupt("kd_tree", "nodes", 1, 4, 0, "child")
    corrupt("kd_tree", "nodes", 1, 2, 25, "not an integer in")
    corrupt("ball_tree", "nodes", 2, 1, 1, "cover")
    corrupt("orchard", "lists", 1, 1, 0, "neighbour list")
    corrupt("aesa", "pair", 3, 1, -1, "negative")
    corrupt("laesa", "buoys", 2, 1, 0, "distinct")
    corrupt("brute", "data", 1, 1, 0 / 0, "non%-finite")
    local s = native.build(X, { algorithm = "kd_tree" }):state()
    s.nodes = s.nodes:sub(1, 1, 1, 7)
    support.errors_with("field 'nodes' is 1 x 7", function() native.restore(s) end)
  end)

  it("choose an algorithm for auto", function()
    local g = luma.random.Generator(1)
    assert.equal("kd_tree", NB.index(g:normal(100, 3)):info().algorithm)
    assert.equal("brute", NB.index(g:normal(100, 16)):info().algorithm)
    assert.equal("brute", NB.index(g:normal(100, 3), { metric = "cosine" }):info().algorithm)
    assert.equal("brute", NB.index(g:normal(100, 3), { k = 50 }):info().algorithm)
    local f = function(u, v) return (u - v):abs():max() end
    assert.equal("laesa", NB.index(g:normal(100, 3), { metric = f }):info().algorithm)
    assert.equal("brute", NB.index(g:normal(10, 3), { metric = f }):info().algorithm)
    assert.equal("kd_tree", NB.KDTree(g:normal(30, 2)):info().algorithm)
    assert.equal("ball_tree", NB.BallTree(g:normal(30, 2)):info().algorithm)
  end)
end)
