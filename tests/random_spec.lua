-- luma.random generators and the rand/randn constructors.  Exact draws are
-- checked against an independent pure-Python transcription of splitmix64
-- seeding and xoshiro256** (Blackman & Vigna's reference C, rewritten with
-- Python integers masked to 64 bits); distributions are checked with
-- 5-sigma bounds on sample moments, which fail by chance with probability
-- below 1e-6.
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
  end)
end)
