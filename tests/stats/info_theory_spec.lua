-- luma.info and luma.theory: the notes' worked numbers (notes 002 D3, D4,
-- D9), closed forms, and values computed with Python's math module (the
-- VC bound and sample size, by the same formulas: see each comment).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local info, th = luma.info, luma.theory
local M = luma.matrix

local function close(e, g, tol) assert.is_true(math.abs(g - e) <= (tol or 1e-12) * math.max(1, math.abs(e)), tostring(g)) end

describe("information measures #smoke", function()
  it("match the notes and closed forms", function()
    close(0.5108256237659907, info.kl_divergence({ 0.5, 0.5 }, { 0.9, 0.1 })) -- notes 002 D9
    close(math.log(4), info.entropy({ 0.25, 0.25, 0.25, 0.25 }))
    close(2, info.entropy({ 0.25, 0.25, 0.25, 0.25 }, { base = 2 }))
    close(math.log(2), info.entropy(M{0.5, 0, 0.5})) -- 0 log 0 = 0
    close(info.entropy({ 0.5, 0.5 }) + info.kl_divergence({ 0.5, 0.5 }, { 0.9, 0.1 }),
      info.cross_entropy({ 0.5, 0.5 }, { 0.9, 0.1 }))
    assert.equal(math.huge, info.kl_divergence({ 0.5, 0.5 }, { 1, 0 }))
    -- KL between N(0, 1) and N(1, 4): (log 4 + (1 + 1) / 4 - 1) / 2
    close(0.5 * (math.log(4) + 0.5 - 1), info.kl_normal(0, 1, 1, 4))
    close(info.kl_normal(0, 1, 1, 4), info.kl_mvnormal(M{0}, M{{1}}, M{1}, M{{4}}), 1e-14)
    -- independent 2 x 2 table: I = 0; H(X, Y) = H(X) + H(Y)
    local P = M{0.3, 0.7} * M{{0.4, 0.6}}
    close(0, info.mutual_information(P), 1e-14)
    close(info.entropy({ 0.3, 0.7 }) + info.entropy({ 0.4, 0.6 }), info.joint_entropy(P))
    close(info.entropy({ 0.4, 0.6 }), info.conditional_entropy(P))
    -- identical labels: I(x; x) = H(x)
    local x = M{1, 1, 2, 3, 3, 3}
    close(info.entropy_labels(x), info.mutual_information_labels(x, x))
    close(info.entropy({ 2 / 6, 1 / 6, 3 / 6 }), info.entropy_labels(x))
  end)

  it("reject bad input", function()
    assert.has_error(function() info.entropy({ 0.5, 0.6 }) end, "luma.info.entropy: p sums to 1.1, not 1")
    assert.has_error(function() info.entropy({ -0.5, 1.5 }) end,
      "luma.info.entropy: p has a negative or non-finite entry")
    assert.has_error(function() info.kl_divergence({ 1 }, { 0.5, 0.5 }) end,
      "luma.info.kl_divergence: p has 1 entries but q has 2")
    assert.has_error(function() info.entropy({ 1 }, { base = 1 }) end,
      "luma.info: base must be a number > 0 other than 1, got 1")
    assert.has_error(function() info.mutual_information_labels(M{1, 2}, M{1}) end,
      "luma.info.mutual_information_labels: x has 2 labels but y has 1")
  end)
end)

describe("learning-theory calculators #smoke", function()
  it("reproduce the notes' numbers", function()
    close(0.784, th.condorcet(0.7, 3)) -- notes 002 D3
    close(0.68256, th.condorcet(0.6, 5))
    close(0.25, th.bootstrap_left_out(2)) -- notes 002 D4
    close(0.3486784401, th.bootstrap_left_out(10))
  end)

  it("compute the bounds (notes 003 §1.3-1.5, corrected)", function()
    -- math.sqrt(8/10000*math.log(4*((2*10000)**3+1)/0.05))
    close(0.16514839216240015, th.vc_bound(10000, 3, 0.05))
    -- the fixed point of N = 8/0.1^2 ln(4((2N)^3 + 1)/0.05) from N = 1000
    assert.equal(29903, th.vc_sample_size(0.1, 0.05, 3))
    local sauer, poly = th.growth_bound(10, 3)
    assert.equal(56, sauer) -- C(10,0) + C(10,1) + C(10,2)
    assert.equal(101, poly)
    close(2 * math.exp(-2 * 100 * 0.01), th.hoeffding(100, 0.1))
    close(2 * math.exp(-2 * 400 * 0.01 / 4), th.hoeffding(400, 0.1, { range = 2 })) -- (b - a)^2
    assert.equal(1, th.hoeffding(10, 0.1, { range = 2 })) -- capped at 1
    close(math.exp(-2), th.hoeffding(100, 0.1, { two_sided = false }))
    close(2 * 5 * math.exp(-6), th.union_bound(5, 300, 0.1))
    assert.equal(math.ceil(math.log(2 / 0.05) / (2 * 0.01)), th.hoeffding_sample_size(0.1, 0.05))
  end)

  it("reject bad arguments", function()
    assert.has_error(function() th.condorcet(0.7, 4) end, "luma.theory.condorcet: m must be odd, got 4")
    assert.has_error(function() th.vc_bound(100, 3, 1.5) end, "luma.theory.vc_bound: delta must be in (0, 1), got 1.5")
    assert.has_error(function() th.hoeffding(0, 0.1) end, "luma.theory.hoeffding: n must be an integer >= 1, got 0")
  end)
end)
