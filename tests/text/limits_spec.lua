-- luma.text under a sandboxed host's limits: counting, hashing and LDA on
-- work far beyond the instruction budget end with the limit's error (the
-- kernels charge the meter as they go), and the state stays usable.
-- SPDX-License-Identifier: MIT
local support = require("support")


-- 4000 documents of about 1.2 KB (about 5 MB; counting charges 8 units a
-- byte per n-gram length, so about 4 * 10^7 units for words), and a small
-- corpus that fits the budget.
local SETUP = [[
  docs = {}
  for i = 1, 4000 do docs[i] = string.rep("alpha beta gamma delta ", 50) .. i end
  small = { "alpha beta", "gamma delta alpha" }
  C = luma.sparse.random(300, 2000, 0.2, luma.random.Generator(1)) * 10]]

describe("luma.text in a sandboxed state", function()
  local run, dir = support.sandboxed_runner(SETUP)

  for _, r in ipairs({
    { "CountVectorizer", "luma.text.CountVectorizer{}:fit(docs)" },
    { "TfidfVectorizer with char n-grams",
      "luma.text.TfidfVectorizer{ analyzer = 'char', ngram_range = {1, 4} }:fit(docs)" },
    { "HashingVectorizer", "luma.text.HashingVectorizer{}:fit_transform(docs)" },
    { "LatentDirichletAllocation",
      "luma.text.LatentDirichletAllocation{ n_components = 20, max_iter = 100 }:fit(C)" },
  }) do
    it(r[1] .. " stops with the instruction limit's error", function()
      local took, message, next_run = run(r[2])
      assert.truthy(message:find("instruction limit exceeded (10000000 instructions)", 1, true),
        message)
      assert.is_true(took < 10, took .. " s")
      assert.equal("2", next_run)
    end)
  end

  it("charges the vocabulary to the memory limit", function()
    -- the same host without an instruction limit: 2 MB of varied text
    -- has tens of millions of distinct character 1..30-grams, far more
    -- than 64 MB holds
    local unlimited, unlimited_dir = support.sandboxed_runner(
      "math.randomseed(1) docs = {} for i = 1, 2000 do local t = {} for j = 1, 1000 do "
        .. "t[j] = string.char(97 + math.random(0, 25)) end docs[i] = table.concat(t) end",
      { instruction_limit = 0, timeout = 60 })
    local _, message, next_run = unlimited("luma.text.CountVectorizer{ analyzer = 'char', "
      .. "ngram_range = {1, 30} }:fit(docs)")
    os.execute("rm -rf " .. support.quote(unlimited_dir))
    assert.truthy(message and message:find("not enough memory", 1, true), message)
    assert.equal("2", next_run)
  end)

  it("small corpora finish within the same limits", function()
    local _, message = run("local X = luma.text.TfidfVectorizer{}:fit_transform(small) "
      .. "assert(X:cols() == 4)")
    assert.equal("finished", message)
  end)

  teardown(function() os.execute("rm -rf " .. support.quote(dir)) end)
end)
