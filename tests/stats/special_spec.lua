-- luma.special: every function within 1e-10 relative of SciPy's values
-- (tests/stats/special_reference.lua says how they were computed), identities
-- that tie the functions together, matrix broadcasting, and domain errors.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sf = luma.special
local M = luma.matrix

describe("special functions #smoke", function()
  it("agree with SciPy to 1e-10 relative, tails included", function()
    local ref = dofile("tests/stats/special_reference.lua")
    assert.is_true(#ref > 300)
    for _, r in ipairs(ref) do
      local name, args, expected = r[1], r[2], r[3]
      if name == "mvlgamma" then args = { args[1], math.tointeger(args[2]) } end
      local got = sf[name](table.unpack(args))
      local err = got == expected and 0 or math.abs(got - expected) / math.max(math.abs(expected), 1e-300)
      assert.is_true(err <= 1e-10, string.format("%s(%s) = %.17g, expected %.17g", name,
        table.concat(args, ", "), got, expected))
    end
  end)

  it("satisfy their identities", function()
    for _, x in ipairs({ 0.3, 1.7, 4.2, 12.5 }) do
      assert.is_true(math.abs(sf.gamma(x + 1) / (x * sf.gamma(x)) - 1) < 1e-14)
      assert.is_true(math.abs(sf.digamma(x + 1) - sf.digamma(x) - 1 / x) < 1e-13)
      assert.is_true(math.abs(sf.trigamma(x) - sf.trigamma(x + 1) - 1 / (x * x)) < 1e-12)
      assert.is_true(math.abs(sf.gammainc(x, 2) + sf.gammaincc(x, 2) - 1) < 1e-14)
      assert.is_true(math.abs(sf.betainc(x, 2, 0.3) - (1 - sf.betainc(2, x, 0.7))) < 1e-14)
      -- erfinv's slope is sqrt(pi)/2 e^(x^2) (459 at 2.5), which magnifies y's rounding
      assert.is_true(math.abs(sf.erfinv(sf.erf(x / 5)) - x / 5) < 1e-13)
      assert.is_true(math.abs(sf.gammaincinv(x, sf.gammainc(x, 1.5)) / 1.5 - 1) < 1e-12)
      assert.is_true(math.abs(sf.betaincinv(x, 3, sf.betainc(x, 3, 0.4)) / 0.4 - 1) < 1e-12)
    end
    assert.is_true(math.abs(sf.lgamma(0.5) - 0.5 * math.log(math.pi)) < 1e-15)
    assert.equal(120, sf.choose(10, 3))
    assert.equal(252, sf.choose(10, 5))
    assert.is_true(math.abs(sf.lchoose(10, 5) - math.log(252)) < 1e-14)
    assert.equal(0, sf.logit(0.5))
    assert.equal(0.5, sf.expit(0))
  end)

  it("work element-wise on matrices with broadcasting", function()
    local x = M{{0.5, 1}, {2, 3}}
    assert.matrix_near({{sf.lgamma(0.5), 0}, {0, math.log(2)}}, sf.lgamma(x), 1e-15)
    local P = sf.gammainc(M{{1, 2}}, M{1, 2}) -- a 1 x 2 row of a against a 2 x 1 column of x
    assert.matrix_near({{sf.gammainc(1, 1), sf.gammainc(2, 1)}, {sf.gammainc(1, 2), sf.gammainc(2, 2)}}, P, 0)
    local I = sf.betainc(2, 3, x:t():mul(0.25))
    assert.matrix_near({{sf.betainc(2, 3, 0.125), sf.betainc(2, 3, 0.5)},
      {sf.betainc(2, 3, 0.25), sf.betainc(2, 3, 0.75)}}, I, 0)
    -- out of the domain inside a matrix: NaN at that element only
    local g = sf.gammainc(M{1, -1}, 1)
    assert.is_true(g:get(2, 1) ~= g:get(2, 1) and g:get(1, 1) > 0)
  end)

  it("reject arguments outside their domains", function()
    assert.has_error(function() sf.gammainc(-1, 2) end, "luma.special: gammainc(a, x) needs a > 0 and x >= 0")
    assert.has_error(function() sf.betaincinv(1, 1, 2) end,
      "luma.special: betaincinv(a, b, p) needs a > 0, b > 0 and p in [0, 1]")
    assert.has_error(function() sf.erfinv(1.5) end, "luma.special: erfinv needs y in [-1, 1]")
    assert.has_error(function() sf.digamma(-2) end, "luma.special: digamma is undefined at non-positive integers")
    assert.has_error(function() sf.mvlgamma(0.5, 3) end,
      "luma.special: mvlgamma(x, d) needs an integer d >= 1 and x > (d - 1) / 2")
    assert.has_error(function() sf.lchoose(2, 3) end, "luma.special: lchoose(n, k) needs 0 <= k <= n")
    assert.has_error(function() sf.gammainc(M{1, 2, 3}, M{{1, 2}, {3, 4}}) end,
      "bad argument #2 to 'gammainc' (shapes 3 x 1 and 2 x 2 do not broadcast together)")
    assert.has_error(function() sf.erf("x") end,
      "bad argument #1 to 'erf' (luma.Matrix or number expected, got string)")
    assert.is_true(sf.lgamma(0 / 0) ~= sf.lgamma(0 / 0)) -- NaN in, NaN out, no error
  end)
end)
