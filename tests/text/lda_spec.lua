-- luma.text.LatentDirichletAllocation against scikit-learn 1.2.1 from the
-- same start (tests/text/reference/lda.py, lda_expected.lua): the
-- topic-word matrix after batch and online fits to 1e-6, the iteration
-- counts, the bound, score, perplexity and transform; then the contract.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local text = luma.text
local corpora = require("text.corpora")
local ref = require("text.reference.lda_expected")

local docs = corpora.dpkg()
local K = 4

-- The reference script's starting topics: 0.5 + ((31 j + 17 w) mod 23) / 23,
-- j and w counted from 0.
local function init_components(k, v)
  local M = luma.zeros(k, v)
  for j = 1, k do
    for w = 1, v do M:set(j, w, 0.5 + ((31 * (j - 1) + 17 * (w - 1)) % 23) / 23) end
  end
  return M
end

local function counts()
  return text.CountVectorizer{ min_df = 2, stop_words = "english" }:fit_transform(docs)
end

local function near_rel(want, got, tol)
  assert(math.abs(got - want) <= tol * math.max(1, math.abs(want)),
    string.format("expected %.17g, got %.17g (tol %g)", want, got, tol))
end

describe("luma.text.LatentDirichletAllocation", function()
  if not docs then
    it("needs /usr/share/doc/dpkg/spec", function() pending("no dpkg spec documents") end)
    return
  end
  local X = counts()

  it("fits the same topics as scikit-learn's batch method from the same start", function()
    assert.same(ref.shape, { X:rows(), X:cols() })
    local m = text.LatentDirichletAllocation{ n_components = K, max_iter = 10,
      evaluate_every = 2, perp_tol = 1e-3, init_components = init_components(K, X:cols()),
      doc_topic_init = "ones" }:fit(X)
    local r = ref.batch
    assert.equal(r.n_iter, m.n_iter)
    assert.equal(r.n_batch_iter, m.n_batch_iter)
    assert.matrix_near(r.components, m.components, 1e-6)
    near_rel(r.bound, m.bound, 1e-9)
    near_rel(r.perplexity, m:perplexity(X), 1e-9)
    near_rel(r.score, m:score(X), 1e-9)
    assert.matrix_near(r.transform5, m:transform(X:sub(1, 5)), 1e-6)
  end)

  it("and the same as its online method", function()
    local m = text.LatentDirichletAllocation{ n_components = K, learning_method = "online",
      max_iter = 5, batch_size = 50, learning_offset = 5.0, learning_decay = 0.6,
      doc_topic_prior = 0.3, topic_word_prior = 0.05,
      init_components = init_components(K, X:cols()), doc_topic_init = "ones" }:fit(X)
    local r = ref.online
    assert.equal(r.n_batch_iter, m.n_batch_iter)
    assert.matrix_near(r.components, m.components, 1e-6)
    near_rel(r.perplexity, m:perplexity(X), 1e-9)
    assert.matrix_near(r.transform5, m:transform(X:sub(1, 5)), 1e-6)
  end)

  it("and the same as its partial_fit over two calls", function()
    local m = text.LatentDirichletAllocation{ n_components = K, batch_size = 40,
      total_samples = 500, learning_offset = 4.0, learning_decay = 0.8,
      doc_topic_prior = 0.3, topic_word_prior = 0.05,
      init_components = init_components(K, X:cols()), doc_topic_init = "ones" }
    assert.equal(m, m:partial_fit(X:sub(1, 100)))
    m:partial_fit(X:sub(101, X:rows()))
    local r = ref.partial
    assert.equal(r.n_iter, m.n_iter)
    assert.equal(r.n_batch_iter, m.n_batch_iter) -- 1 + 3 + ceil((rows - 100) / 40)
    assert.matrix_near(r.components, m.components, 1e-6)
    near_rel(r.perplexity, m:perplexity(X), 1e-9)
    assert.matrix_near(r.transform5, m:transform(X:sub(1, 5)), 1e-6)
    -- a later call must have the fitted number of terms
    local ok, err = pcall(function() m:partial_fit(X:sub(1, 3, 1, 10)) end)
    assert.is_false(ok)
    assert.matches("lda_spec.lua:%d+: bad argument #1 to 'partial_fit' %(X has 10 columns but "
      .. "LatentDirichletAllocation was fitted on %d+%)", err)
    ok, err = pcall(function() text.LatentDirichletAllocation{ total_samples = 0 } end)
    assert.is_false(ok)
  end)

  it("takes dense counts, draws its start from the seed, and survives luma.save", function()
    local D = X:todense()
    local a = text.LatentDirichletAllocation{ n_components = 3, max_iter = 3, seed = 7 }:fit(X)
    local b = text.LatentDirichletAllocation{ n_components = 3, max_iter = 3, seed = 7 }:fit(D)
    assert.matrix_near(a.components, b.components, 1e-12)
    local T = a:transform(X)
    assert.matrix_near(luma.ones(X:rows(), 1), T:sum(2), 1e-12)
    local back = luma.persist.decode(luma.persist.encode(a))
    assert.matrix_near(T, back:transform(X), 0)
  end)

  it("refuses negative counts and a wrong init at the caller's line", function()
    local m = text.LatentDirichletAllocation{ n_components = 2 }
    local ok, err = pcall(function() m:fit(luma.matrix{ { 1, -1 }, { 0, 2 } }) end)
    assert.is_false(ok)
    assert.matches("lda_spec.lua:%d+: bad argument #1 to 'fit' %(Negative or non%-finite values "
      .. "in data passed to LatentDirichletAllocation.fit, row 1", err)
    m = text.LatentDirichletAllocation{ n_components = 2, init_components = luma.ones(3, 2) }
    ok, err = pcall(function() m:fit(luma.matrix{ { 1, 1 }, { 0, 2 } }) end)
    assert.matches("lda_spec.lua:%d+: .*init_components is 3 x 2 but must be 2 x 2", err)
  end)
end)
