-- luma.random generators and the rand/randn constructors.  Exact draws are
-- checked against an independent pure-Python transcription of splitmix64
-- seeding and xoshiro256** (Blackman & Vigna's reference C, rewritten with
-- Python integers masked to 64 bits); distributions are checked with
-- 5-sigma bounds on sample moments, which fail by chance with probability
-- below 1e-6.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local random = luma.random

describe("luma.random #smoke", function()
  it("reproduces the reference xoshiro256** stream", function()
    local g = random.Generator(42)
    assert.equal(0.08386297105988216, g:random())
    assert.equal(0.3789802506626686, g:random())
    assert.equal(0.6800434110281394, g:random())
  end)

  it("draws unbiased integers like the reference (Lemire's method)", function()
    local g = random.Generator(7)
    local got = {}
    for k = 1, 8 do got[k] = g:integers(1, 6) end
    assert.same({5, 2, 6, 6, 6, 6, 1, 1}, got)
  end)

  it("gives every state a default generator seeded with 0", function()
    random.seed(0)
    local a = luma.rand(1, 2)
    assert.equal(0.6012629994179048, a:get(1, 1))
    assert.equal(0.7477740925472398, a:get(1, 2))
    random.seed(0)
    assert.is_true(luma.rand(1, 2):equal(a))
  end)

  it("draws uniform matrices with the right moments and bounds", function()
    local n = 100000
    local u = random.Generator(1):uniform(n, 1, -2, 4)
    assert.is_true(u:min() >= -2 and u:max() < 4)
    -- uniform(-2, 4): mean 1, variance 36/12 = 3, so sd of the mean sqrt(3/n)
    assert.is_true(math.abs(u:mean() - 1) < 5 * math.sqrt(3 / n))
    assert.is_true(math.abs(u:var() - 3) < 0.05)
  end)

  it("draws normal matrices with the right moments", function()
    local n = 100000
    local z = luma.randn(n, 1, random.Generator(2))
    assert.is_true(math.abs(z:mean()) < 5 / math.sqrt(n))
    -- var of the sample variance of N(0,1) is 2/(n-1)
    assert.is_true(math.abs(z:var() - 1) < 5 * math.sqrt(2 / n))
    local w = random.Generator(3):normal(n, 1, 10, 2)
    assert.is_true(math.abs(w:mean() - 10) < 5 * 2 / math.sqrt(n))
  end)

  it("returns scalars without a shape", function()
    local g = random.Generator(5)
    assert.is_number(g:uniform())
    assert.is_number(g:normal())
    assert.is_true(math.type(g:integers(-3, 3)) == "integer")
  end)

  it("covers every integer of a range and no other", function()
    local m = random.Generator(9):integers(-2, 2, 1000, 1)
    local seen = {}
    for i = 1, 1000 do seen[m:get(i, 1)] = true end
    assert.same({[-2] = true, [-1] = true, [0] = true, [1] = true, [2] = true}, seen)
  end)

  it("permutes 1..n", function()
    local p = random.Generator(11):permutation(50)
    assert.matrix_near(luma.arange(50), p:sort())
    assert.is_false(p:equal(luma.arange(50))) -- identity has probability 1/50!
  end)

  it("copies, saves and restores state", function()
    local g = random.Generator(12)
    g:normal()
    local s, c = g:state(), g:copy()
    local a = g:normal(3, 1)
    assert.is_true(c:normal(3, 1):equal(a))
    assert.is_true(g:set_state(s):normal(3, 1):equal(a))
  end)

  it("splits into disjoint reproducible streams", function()
    local parts = random.Generator(13):split(3)
    assert.equal(3, #parts)
    local first = random.Generator(13):random()
    assert.equal(first, parts[1]:random()) -- the first child takes the parent's stream
    local again = random.Generator(13):split(3)
    assert.equal(parts[2]:random(), again[2]:random())
    assert.are_not.equal(parts[2]:random(), parts[3]:random())
    -- the second child is the parent's stream advanced by one jump (2^128 draws)
    assert.equal(random.Generator(13):jump():random(), random.Generator(13):split(3)[2]:random())
  end)

  it("chooses uniformly, with and without replacement", function()
    local g = random.Generator(21)
    local x = g:choice(6)
    assert.is_true(math.type(x) == "integer" and x >= 1 and x <= 6)
    local n = 60000
    local draws = g:choice(3, n)
    for v = 1, 3 do -- each value 1/3 of the time, within 5 standard deviations
      local share = draws:eq(v):mean()
      assert.is_true(math.abs(share - 1 / 3) < 5 * math.sqrt(2 / 9 / n), share)
    end
    local distinct = g:choice(10, 10, {replace = false})
    assert.matrix_near(luma.arange(10), distinct:sort())
    local some = g:choice(luma.matrix{10, 20, 30, 40}, 3, {replace = false})
    assert.equal(3, #some:unique())
    assert.equal(0, some:select(some:lt(10):add(some:gt(40)):gt(0)):rows())
    local picks = g:choice({"a", "b"}, 4)
    assert.equal(4, #picks)
    for _, v in ipairs(picks) do assert.is_true(v == "a" or v == "b") end
    assert.is_true(({a = true, b = true})[g:choice({"a", "b"})])
  end)

  it("chooses with given probabilities", function()
    local g = random.Generator(22)
    local p, n = {0.2, 0.3, 0.5, 0}, 60000
    local draws = g:choice(4, n, {p = p})
    for v = 1, 4 do
      local share = draws:eq(v):mean()
      assert.is_true(math.abs(share - p[v]) <= 5 * math.sqrt(p[v] * (1 - p[v]) / n), share)
    end
    -- without replacement the first pick still follows p, and weight 0 never comes up
    local first = luma.zeros(4, 1)
    for _ = 1, 6000 do
      local pick = g:choice(4, 3, {replace = false, p = luma.matrix(p)})
      first[pick:get(1, 1)][1] = first[pick:get(1, 1)][1] + 1
      assert.is_true(pick:eq(4):sum() == 0)
    end
    for v = 1, 3 do
      local share = first:get(v, 1) / 6000
      assert.is_true(math.abs(share - p[v]) <= 5 * math.sqrt(p[v] * (1 - p[v]) / 6000), share)
    end
  end)

  it("shuffles rows of matrices and elements of tables in place", function()
    local g = random.Generator(23)
    local A = luma.hstack{luma.arange(20), luma.arange(20) * 10}
    assert.equal(A, g:shuffle(A))
    assert.matrix_near(A:col(1) * 10, A:col(2)) -- rows moved whole
    assert.matrix_near(luma.arange(20), A:col(1):sort())
    assert.is_false(A:col(1):equal(luma.arange(20))) -- the identity has probability 1/20!
    local t = {1, 2, 3, 4, 5, 6, 7, 8}
    g:shuffle(t)
    local sorted = {table.unpack(t)}
    table.sort(sorted)
    assert.same({1, 2, 3, 4, 5, 6, 7, 8}, sorted)
    assert.are_not.same({1, 2, 3, 4, 5, 6, 7, 8}, t)
    local view = luma.arange(6):reshape(3, 2):t() -- 2 x 3, a strided view
    g:shuffle(view)
    assert.equal(21, view:sum())
  end)

  it("samples exponential, gamma, beta, Poisson and binomial with the right moments", function()
    local g, n = random.Generator(24), 100000
    -- {draws, mean, variance}: the sample mean within 5 standard errors, the
    -- sample variance within 5% (its own standard error is below 1% here)
    local cases = {
      {g:exponential(2, n), 0.5, 0.25},
      {g:gamma(0.5, n), 0.5, 0.5},          -- the shape < 1 boost
      {g:gamma(3, n), 3, 3},
      {g:beta(2, 5, n), 2 / 7, 10 / 392},   -- ab / ((a+b)^2 (a+b+1))
      {g:poisson(4, n), 4, 4},              -- product method
      {g:poisson(37.5, n), 37.5, 37.5},     -- PTRS
      {g:binomial(10, 0.3, n), 3, 2.1},     -- inversion
      {g:binomial(1000, 0.5, n), 500, 250}, -- BTRS
      {g:binomial(20, 0.9, n), 18, 1.8},    -- p > 1/2 by symmetry
    }
    for k, c in ipairs(cases) do
      local x, mean, var = c[1], c[2], c[3]
      assert.is_true(math.abs(x:mean() - mean) < 5 * math.sqrt(var / n), "case " .. k)
      assert.is_true(math.abs(x:var() / var - 1) < 0.05, "case " .. k)
    end
    local counts = g:poisson(4, n)
    assert.is_true(counts:eq(counts:floor()):all()) -- integers
    assert.equal(0, g:binomial(0, 0.5))
    assert.equal(7, g:binomial(7, 1))
    assert.equal(0, g:poisson(0))
  end)

  it("rejects bad arguments", function()
    local g = random.Generator(1)
    assert.has_error(function() random.Generator("x") end)
    assert.has_error(function() g:uniform(2, 2, 1, 1) end, "bad argument #4 to 'uniform' (hi must be greater than lo (1.0 <= 1.0))")
    assert.has_error(function() g:normal(2, 2, 0, -1) end, "bad argument #4 to 'normal' (std must be >= 0, got -1.0)")
    assert.has_error(function() g:integers(3, 1) end, "bad argument #2 to 'integers' (hi 1 is below lo 3)")
    assert.has_error(function() g:uniform(-1, 2) end, "bad argument #1 to 'uniform' (rows must be in [0, 1099511627776], got -1)")
    assert.has_error(function() g:set_state("short") end, "bad argument #1 to 'set_state' (not a generator state (5 bytes, expected 32))")
    assert.has_error(function() g:set_state(string.rep("\0", 32)) end, "bad argument #1 to 'set_state' (not a generator state (all-zero words))")
    assert.has_error(function() luma.rand(2, 2, {}) end, "bad argument #3 to 'rand' (luma.Generator expected, got table)")
    assert.has_error(function() g:split(0) end)
    assert.has_error(function() g:choice({}) end, "bad argument #1 to 'choice' (population is empty)")
    assert.has_error(function() g:choice(0) end,
      "bad argument #1 to 'choice' (population size must be in [1, 1099511627776], got 0)")
    assert.has_error(function() g:choice("abc") end,
      "bad argument #1 to 'choice' (integer, vector or table expected, got string)")
    assert.has_error(function() g:choice(luma.eye(2)) end,
      "bad argument #1 to 'choice' (population must be a vector, got a 2 x 2 matrix)")
    assert.has_error(function() g:choice(3, 4, {replace = false}) end,
      "bad argument #2 to 'choice' (cannot take 4 of 3 without replacement)")
    assert.has_error(function() g:choice(3, 1, {p = {0.5, 0.5}}) end,
      "bad argument #3 to 'choice' (option 'p' has 2 entries but the population has 3)")
    assert.has_error(function() g:choice(2, 1, {p = {0.5, 0.6}}) end,
      "bad argument #3 to 'choice' (option 'p' sums to 1.1, not 1)")
    assert.has_error(function() g:choice(2, 1, {p = {1.5, -0.5}}) end,
      "bad argument #3 to 'choice' (option 'p': entry 2 is -0.5, expected a probability)")
    assert.has_error(function() g:choice(3, 2, {replace = false, p = {1, 0, 0}}) end,
      "bad argument #2 to 'choice' (cannot take 2 without replacement: only 1 entries of p are positive)")
    assert.has_error(function() g:choice(3, 2, {weights = {1, 0, 0}}) end,
      "bad argument #3 to 'choice' (unknown option 'weights' (valid: replace|p))")
    assert.has_error(function() g:gamma(0) end, "bad argument #1 to 'gamma' (shape must be > 0, got 0.0)")
    assert.has_error(function() g:beta(1, -1) end, "bad argument #2 to 'beta' (b must be > 0, got -1.0)")
    assert.has_error(function() g:exponential(0) end, "bad argument #1 to 'exponential' (rate must be > 0, got 0.0)")
    assert.has_error(function() g:poisson(-1) end, "bad argument #1 to 'poisson' (lambda must be in [0, 1e15], got -1.0)")
    assert.has_error(function() g:binomial(3, 1.5) end, "bad argument #2 to 'binomial' (p must be in [0, 1], got 1.5)")
    assert.has_error(function() g:binomial(-1, 0.5) end)
    assert.has_error(function() g:shuffle(3) end,
      "bad argument #1 to 'shuffle' (luma.Matrix or table expected, got number)")
  end)
end)
