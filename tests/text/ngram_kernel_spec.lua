-- luma.text.bow_kernel and luma.text.NgramModel on cases small enough to
-- compute by hand (the arithmetic is in the comments).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local text = luma.text

describe("luma.text.bow_kernel", function()
  -- rows: counts (2, 1, 0), (1, 1, 1), an empty document
  local X = luma.sparse.from_dense(luma.matrix{ { 2, 1, 0 }, { 1, 1, 1 }, { 0, 0, 0 } })

  it("sums the smaller counts, normalized by the totals (notes 001 erratum)", function()
    -- min sums: (1,1) 3, (1,2) 1 + 1 + 0 = 2, (2,2) 3; totals 3 and 3
    assert.matrix_near({ { 3, 2, 0 }, { 2, 3, 0 }, { 0, 0, 0 } },
      text.bow_kernel(X, { normalize = false }), 0)
    -- 2 / sqrt(3 * 3) = 2/3; an empty document gives 0, not 0/0
    assert.matrix_near({ { 1, 2 / 3, 0 }, { 2 / 3, 1, 0 }, { 0, 0, 0 } }, text.bow_kernel(X), 1e-15)
  end)

  it("takes dense counts and a second matrix", function()
    local Y = luma.matrix{ { 4, 0, 1 } }
    -- min with (2, 1, 0): 2; with (1, 1, 1): 1 + 0 + 1 = 2; totals 3, 3, 5
    assert.matrix_near({ { 2 / math.sqrt(15) }, { 2 / math.sqrt(15) }, { 0 } },
      text.bow_kernel(X:todense(), Y), 1e-15)
  end)

  it("refuses negative counts and mismatched columns at the caller's line", function()
    local ok, err = pcall(function() text.bow_kernel(luma.matrix{ { 1, -1 } }) end)
    assert.is_false(ok)
    assert.matches("ngram_kernel_spec.lua:%d+: bad argument #1 to 'bow_kernel' %(counts must be "
      .. "finite and >= 0", err)
    ok, err = pcall(function() text.bow_kernel(X, luma.ones(1, 2)) end)
    assert.matches("ngram_kernel_spec.lua:%d+: .*Y has 2 columns but X has 3", err)
  end)
end)

describe("luma.text.NgramModel", function()
  -- Padded: <s> a b </s> and <s> a c </s>.  V = {</s>, <unk>, a, b, c}:
  -- |V| = 5.  Bigram counts: (<s> a) 2, (a b) 1, (a c) 1, (b </s>) 1,
  -- (c </s>) 1; context totals c(<s>) = 2, c(a) = 2, c(b) = c(c) = 1.
  local corpus = { { "a", "b" }, { "a", "c" } }

  it("smooths by add-k", function()
    local m = text.NgramModel{ order = 2, smoothing = "add_k", k = 1 }:fit(corpus)
    assert.same({ "</s>", "<unk>", "a", "b", "c" }, m.vocabulary)
    -- P(a | <s>) = 3/7, P(b | a) = 2/7, P(</s> | b) = 2/6
    local lp = math.log(3 / 7) + math.log(2 / 7) + math.log(2 / 6)
    assert.near(lp, m:score_samples{ { "a", "b" } }:get(1, 1), 1e-14)
    assert.near(math.exp(-lp / 3), m:perplexity{ { "a", "b" } }, 1e-13)
    -- an unseen word: P(<unk> | a) = 1/7
    assert.near(math.log(1 / 7), m:logprob("zebra", { "a" }), 1e-14)
    m:set_params{ k = 0.5 }:fit(corpus)
    assert.near(math.log(2.5 / 4.5), m:logprob("a"), 1e-14) -- (2 + .5) / (2 + .5 * 5)
  end)

  it("smooths by interpolated Kneser-Ney", function()
    local m = text.NgramModel{ order = 2, discount = 0.75 }:fit(corpus)
    -- continuation counts N1+(. w): a 1, b 1, c 1, </s> 2 (total 5, 4 types)
    -- P1(w) = max(N1+(. w) - .75, 0) / 5 + .75 * 4/5 * 1/5:
    --   a, b, c: .05 + .12 = .17; </s>: .25 + .12 = .37; <unk>: .12
    -- P(a | <s>)  = 1.25/2 + .75 * 1/2 * .17 = .68875
    -- P(b | a)    = .25/2 + .75 * 2/2 * .17 = .2525
    -- P(</s> | b) = .25/1 + .75 * 1/1 * .37 = .5275
    assert.near(math.log(0.68875), m:logprob("a", {}), 1e-14)
    assert.near(math.log(0.2525), m:logprob("b", { "a" }), 1e-14)
    assert.near(math.log(0.5275), m:logprob("</s>", { "b" }), 1e-14)
    local lp = math.log(0.68875) + math.log(0.2525) + math.log(0.5275)
    assert.near(lp, m:score{ { "a", "b" } }, 1e-14)
    -- an unseen context passes everything to the unigrams
    assert.near(math.log(0.17), m:logprob("a", { "zebra" }), 1e-14)
    -- a distribution: the probabilities after "a" sum to 1
    local total = 0
    for _, w in ipairs(m.vocabulary) do total = total + math.exp(m:logprob(w, { "a" })) end
    assert.near(1, total, 1e-14)
  end)

  it("samples sentences with a generator", function()
    local m = text.NgramModel{ order = 2 }:fit(corpus)
    local g = luma.random.Generator(11)
    local first_a, n = 0, 2000
    for _ = 1, n do
      local s = m:generate(g, { max_length = 1 })
      assert.is_true(#s <= 1)
      if s[1] == "a" then first_a = first_a + 1 end
    end
    -- P(a | <s>) = .68875; 4 standard deviations: 4 sqrt(.69 * .31 / 2000) = .041
    assert.near(0.68875, first_a / n, 0.041)
    local a, b = m:generate(luma.random.Generator(5)), m:generate(luma.random.Generator(5))
    assert.same(a, b)
  end)

  it("survives luma.save and refuses bad sentences", function()
    local m = text.NgramModel{ order = 3 }:fit{ { "x", "y", "z" }, { "x", "y" } }
    local back = luma.persist.decode(luma.persist.encode(m))
    assert.equal(m:perplexity{ { "x", "y", "z" } }, back:perplexity{ { "x", "y", "z" } })
    local ok, err = pcall(function() m:fit{ { "a", 3 } } end)
    assert.is_false(ok)
    assert.matches("ngram_kernel_spec.lua:%d+: bad argument #1 to 'fit' %(sentence 1, token 2 is "
      .. "a number", err)
  end)
end)
