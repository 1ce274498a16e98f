-- luma.text vectorizers against scikit-learn 1.2.1: the same vocabulary,
-- the same sparsity pattern and the same values (counts exactly, tf-idf
-- weights to 1e-12) on a multilingual fixture, on the paragraphs of
-- dpkg's spec documents and on invalid UTF-8; reference values from
-- tests/text/reference/vectorizers.py (vectorizers_expected.lua).  Then the
-- estimator contract, persistence and the errors.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local text = luma.text
local ref = require("text.reference.vectorizers_expected")

local corpora = require("text.corpora")

local INVALID = { "caf\xe9 au lait", "ok \xf0\x9f\x98 trunc ated", "\xed\xa0\x80 surrogate xx",
  "\xc0\xaf overlong \xff\xfe end" }

local CORPORA = { multilingual = corpora.multilingual(), dpkg = corpora.dpkg(), invalid = INVALID }
if CORPORA.dpkg then
  -- the paragraphs that are all ASCII, where the script functions below
  -- read text as their Python twins in the reference script do
  CORPORA.dpkg_ascii = {}
  for _, d in ipairs(CORPORA.dpkg) do
    if not d:find("[\128-\255]") then CORPORA.dpkg_ascii[#CORPORA.dpkg_ascii + 1] = d end
  end
end

-- The reference script's CALLABLES, by name.
local CALLABLES = {
  split = function(s)
    local out = {}
    for w in s:gmatch("%S+") do out[#out + 1] = w end
    return out
  end,
  upper = string.upper,
  chars3 = function(s)
    local out = {}
    for i = 1, #s - 2 do out[i] = s:sub(i, i + 2) end
    return out
  end,
}

local function with_callables(options)
  local o = {}
  for k, v in pairs(options) do o[k] = CALLABLES[v] or v end
  return o
end

local CLASSES = { count = text.CountVectorizer, tfidf = text.TfidfVectorizer,
  hash = text.HashingVectorizer }

-- X against the case's triplets: shape, pattern and values (tol relative).
local function same_matrix(case, X, tol)
  assert.equal(case.rows, X:rows())
  assert.equal(case.cols, X:cols())
  assert.equal(case.nnz, X:nnz())
  local e = case.entries
  for k = 1, #e, 3 do
    local got = X:get(e[k], e[k + 1])
    local want = e[k + 2]
    if math.abs(got - want) > tol * math.max(1, math.abs(want)) then
      error(string.format("%s: entry (%d, %d) is %.17g, scikit-learn's %.17g", case.name, e[k],
        e[k + 1], got, want))
    end
  end
end

describe("luma.text vectorizers", function()
  it("read the corpora as the reference script did", function()
    assert.equal(ref.n_docs.multilingual, #CORPORA.multilingual)
    assert.equal(ref.n_docs.invalid, #CORPORA.invalid)
    if CORPORA.dpkg then
      assert.equal(ref.n_docs.dpkg, #CORPORA.dpkg)
      assert.equal(ref.n_docs.dpkg_ascii, #CORPORA.dpkg_ascii)
    end
  end)

  for _, case in ipairs(ref.cases) do
    it("give scikit-learn's vocabulary and matrix: " .. case.name, function()
      local docs = CORPORA[case.corpus]
      if not docs then
        pending("no /usr/share/doc/dpkg/spec on this system")
        return
      end
      local est = CLASSES[case.kind](with_callables(case.options))
      local X = est:fit_transform(docs)
      if case.terms then
        assert.same(case.terms, est:get_feature_names_out())
        for i, t in ipairs(case.terms) do assert.equal(i, est.vocabulary[t]) end
      end
      same_matrix(case, X, case.kind == "count" and 0 or 1e-12)
      -- transform with the fitted vocabulary gives the same matrix
      same_matrix(case, est:transform(docs), case.kind == "count" and 0 or 1e-12)
    end)
  end

  it("lowercase as Python's str.lower, final sigma and dotted I included", function()
    local v = text.CountVectorizer{}
    local analyze = v:build_analyzer()
    assert.same({ "οδυσσευς", "σίσυφος", "σας" }, analyze("ΟΔΥΣΣΕΥΣ ΣΊΣΥΦΟΣ ΣΑΣ"))
    -- U+0130 lowercases to "i" + U+0307 (a mark, not a word character)
    assert.same({ "stanbul" }, analyze("İstanbul"))
    assert.same({ "ǆemal", "ǆemal", "ǆemal", "мир", "ёлка" }, analyze("Ǆemal ǅemal ǆemal МИР ЁЛКА"))
  end)

  it("preprocess and analyze one document as fit does", function()
    local v = text.TfidfVectorizer{ analyzer = "char_wb", ngram_range = { 2, 2 } }
    assert.equal("ὀδυσσεύς ab", v:build_preprocessor()("ὈΔΥΣΣΕΎΣ Ab"))
    assert.same({ " a", "ab", "b " }, v:build_analyzer()("AB"))
    assert.equal("a\239\191\189b", text.HashingVectorizer{ decode_error = "replace" }
      :build_preprocessor()("A\255B"))
  end)

  it("tokenize as (?u)\\b\\w\\w+\\b: 2+ letters, digits or underscores", function()
    local analyze = text.CountVectorizer{}:build_analyzer()
    -- Ⅻ is one character (a number, so a word character): too short
    assert.same({ "snake_case", "x_1", "42", "14", "ⅻⅻ", "٣٤", "中文", "don" },
      analyze("snake_case x_1 a 42 7 3.14 Ⅻ ⅫⅫ ² ٣٤ 中文 😀 don't"))
    assert.same({ "the quick", "quick fox" },
      text.CountVectorizer{ ngram_range = { 2, 2 } }:build_analyzer()("The quick, fox!"))
  end)

  it("hash with MurmurHash3 as scikit-learn's murmurhash3_32", function()
    -- sklearn.utils.murmurhash3_32(s, seed) values
    assert.equal(613153351, text.murmurhash3_32("hello"))
    assert.equal(-488910111, text.murmurhash3_32("hello", 42))
    assert.equal(0, text.murmurhash3_32(""))
  end)

  it("learn a given vocabulary (a list or a map) and skip unknown terms", function()
    local docs = { "bb aa bb", "cc dd" }
    local X = text.CountVectorizer{ vocabulary = { "bb", "zz", "aa" } }:fit_transform(docs)
    assert.matrix_near({ { 2, 0, 1 }, { 0, 0, 0 } }, X:todense(), 0)
    local v = text.CountVectorizer{ vocabulary = { bb = 2, aa = 1 } }:fit(docs)
    assert.same({ "aa", "bb" }, v:get_feature_names_out())
    assert.same({ { "aa", "bb" }, {} }, v:inverse_transform(v:transform(docs)))
  end)

  it("keep max_features by corpus frequency and record the pruned terms", function()
    local v = text.CountVectorizer{ max_features = 2 }
    local X = v:fit_transform{ "a1 a1 a1 b1 b1 c1", "a1 b1 c1 d1" }
    assert.same({ "a1", "b1" }, v:get_feature_names_out())
    assert.same({ "c1", "d1" }, v.stop_words)
    assert.matrix_near({ { 3, 2 }, { 1, 1 } }, X:todense(), 0)
  end)

  it("apply TfidfTransformer to counts as scikit-learn does", function()
    -- scikit-learn's TfidfTransformer().fit_transform of this matrix
    -- (its user guide's example counts)
    local counts = luma.matrix{ { 3, 0, 1 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 }, { 3, 2, 0 },
      { 3, 0, 2 } }
    local t = text.TfidfTransformer{}
    local W = t:fit_transform(counts)
    assert.matrix_near({ { 1, 2.252762968495368, 1.8472978603872037 } }, t.idf, 1e-15)
    assert.matrix_near({ { 0.85151334721046, 0, 0.5243329281310096 }, { 1, 0, 0 }, { 1, 0, 0 },
      { 1, 0, 0 }, { 0.5542289327998063, 0.8323642772534078, 0 },
      { 0.63035730725644, 0, 0.7763051366495072 } }, W:todense(), 1e-15)
  end)

  it("round-trip through luma.save with the vocabulary", function()
    local docs = CORPORA.multilingual
    local v = text.TfidfVectorizer{ ngram_range = { 1, 2 } }:fit(docs)
    local path = os.tmpname()
    luma.save(v, path)
    local back = luma.load(path)
    os.remove(path)
    assert.same(v:get_feature_names_out(), back:get_feature_names_out())
    assert.same(v.vocabulary, back.vocabulary)
    assert.matrix_near(v:transform(docs):todense(), back:transform(docs):todense(), 0)
  end)

  it("work in a pipeline with LogisticRegression (sparse X all the way)", function()
    local docs = { "good great fine", "great good", "bad awful", "awful bad poor", "good fine",
      "poor bad" }
    local y = luma.matrix{ 1, 1, 0, 0, 1, 0 }
    local pipe = luma.pipeline.make_pipeline(
      text.TfidfVectorizer{},
      luma.linear.LogisticRegression{})
    pipe:fit(docs, y)
    assert.matrix_near(y, pipe:predict{ "good great fine", "great good", "bad awful",
      "awful bad poor", "good fine", "poor bad" }, 0)
    assert.equal(1, pipe:get_params().tfidfvectorizer__smooth_idf and 1 or 0)
    pipe:set_params{ tfidfvectorizer__norm = "l1" }
    assert.equal("l1", pipe:get_params().tfidfvectorizer__norm)
  end)

  describe("bad input", function()
    it("refuses invalid UTF-8 by default, at the caller's line", function()
      local v = text.CountVectorizer{}
      local ok, err = pcall(function() v:fit(INVALID) end)
      assert.is_false(ok)
      assert.matches("vectorizers_spec.lua:%d+: bad argument #1 to 'fit' %(document 1 is not "
        .. "valid UTF%-8: byte 0xe9 at position 4: invalid continuation byte", err)
      ok, err = pcall(function() v:fit{ "ok", "ab \xf0\x9f\x98" } end)
      assert.matches("document 2 is not valid UTF%-8: bytes at positions 4%-6: unexpected end "
        .. "of data", err)
    end)

    it("says when min_df or max_df leave no terms, as scikit-learn", function()
      local v = text.CountVectorizer{ min_df = 2 }
      local ok, err = pcall(function() v:fit{ "aa bb", "cc dd" } end)
      assert.is_false(ok)
      assert.matches("vectorizers_spec.lua:%d+: .*After pruning, no terms remain. Try a lower "
        .. "min_df or a higher max_df.", err)
      v = text.CountVectorizer{ stop_words = "english" }
      ok, err = pcall(function() v:fit{ "the and", "a of" } end)
      assert.matches("vectorizers_spec.lua:%d+: .*empty vocabulary; perhaps the documents only "
        .. "contain stop words", err)
    end)

    it("refuses max_df below min_df", function()
      local v = text.CountVectorizer{ min_df = 2, max_df = 1 }
      local ok, err = pcall(function() v:fit{ "aa bb", "bb cc" } end)
      assert.is_false(ok)
      assert.matches("vectorizers_spec.lua:%d+: .*max_df corresponds to < documents than min_df",
        err)
      -- a proportion: 0.4 of 4 documents is 1.6 < min_df 2
      v = text.TfidfVectorizer{ min_df = 2, max_df = 0.4 }
      ok, err = pcall(function() v:fit_transform{ "aa", "aa", "bb", "cc" } end)
      assert.matches("max_df corresponds to < documents than min_df", err)
    end)

    it("refuses a string for the list of documents and bad options", function()
      local v = text.CountVectorizer{}
      local ok, err = pcall(function() v:fit("one document") end)
      assert.matches("vectorizers_spec.lua:%d+: bad argument #1 to 'fit' %(a list of documents "
        .. "expected, got a string", err)
      ok, err = pcall(function() v:fit{ "ok", 3 } end)
      assert.matches("document 2 is a number, not a string", err)
      assert.has_error(function() text.CountVectorizer{ ngram_range = { 2, 1 } } end)
      assert.has_error(function() text.CountVectorizer{ min_df = 1.5 } end)
      assert.has_error(function() text.CountVectorizer{ analyzer = "sentence" } end)
    end)

    it("says which script function returned what, for which document, at the caller's line", function()
      -- the tokenizer fails on the second document only, at transform
      local v = text.CountVectorizer{ tokenizer = function(s) return s == "b" and 7 or { s } end }
      v:fit{ "a" }
      local ok, err = pcall(function() v:transform{ "a", "b" } end)
      assert.is_false(ok)
      assert.matches("vectorizers_spec.lua:%d+: bad argument #1 to 'transform' %(the tokenizer "
        .. "returned a number for document 2, not a list%)", err)
      v = text.CountVectorizer{ tokenizer = function() return { "x", true } end }
      ok, err = pcall(function() v:fit{ "a" } end)
      assert.matches("vectorizers_spec.lua:%d+: bad argument #1 to 'fit' %(the tokenizer gave "
        .. "document 1 a boolean as token 2, not a string%)", err)
      v = text.TfidfVectorizer{ preprocessor = function() end }
      ok, err = pcall(function() v:fit_transform{ "a" } end)
      assert.matches("vectorizers_spec.lua:%d+: bad argument #1 to 'fit_transform' %(the "
        .. "preprocessor returned a nil for document 1, not a string%)", err)
      v = text.HashingVectorizer{ analyzer = function() return { "ok", 2 } end }
      ok, err = pcall(function() v:fit_transform{ "a" } end)
      assert.matches("vectorizers_spec.lua:%d+: bad argument #1 to 'fit_transform' %(the "
        .. "analyzer gave document 1 a number as feature 2 %(strings expected%)%)", err)
      v = text.CountVectorizer{ analyzer = function() return "ab" end }
      ok, err = pcall(function() v:fit{ "a" } end)
      assert.matches("the analyzer returned a string for document 1, not a list", err)
      -- an error raised inside the script's function keeps its message
      v = text.CountVectorizer{ tokenizer = function() error("my own message", 0) end }
      ok, err = pcall(function() v:fit{ "a" } end)
      assert.matches("my own message$", err)
      -- functions cannot be saved
      v = text.CountVectorizer{ tokenizer = CALLABLES.split }:fit{ "a b" }
      assert.has_error(function() luma.save(v, os.tmpname()) end,
        "luma.save: luma.text.CountVectorizer parameter 'tokenizer' is a function and cannot be "
          .. "saved")
    end)
  end)

  describe("script functions", function()
    it("run in scikit-learn's order: decode, preprocess (or lowercase), tokenize, drop stop words, n-grams", function()
      local seen = {}
      local v = text.CountVectorizer{ ngram_range = { 1, 2 }, stop_words = { "the" },
        tokenizer = function(s) seen[#seen + 1] = s return CALLABLES.split(s) end }
      assert.same({ "cat", "sat", "cat sat" }, v:build_analyzer()("The  CAT sat"))
      assert.same({ "the  cat sat" }, seen) -- lowercased before the tokenizer
      -- a preprocessor replaces lowercasing; decode_error still applies first
      v = text.CountVectorizer{ preprocessor = function(s) return "<" .. s .. ">" end,
        decode_error = "replace" }
      assert.equal("<Ab\239\191\189>", v:build_preprocessor()("Ab\255"))
      assert.same({ "Ab" }, v:build_analyzer()("Ab\255")) -- not lowercased
      local X = v:fit_transform{ "Ab ab", "AB" }
      assert.same({ "AB", "Ab", "ab" }, v:get_feature_names_out())
      assert.same({ { 0, 1, 1 }, { 1, 0, 0 } }, X:todense():totable())
    end)

    it("give a callable analyzer the raw document and take its features as they are", function()
      local analyzer = function(s) return { s, s:lower(), s } end
      local v = text.CountVectorizer{ analyzer = analyzer, stop_words = "english",
        ngram_range = { 2, 3 }, lowercase = true }
      assert.equal(analyzer, v:build_analyzer())
      local X = v:fit_transform{ "The", "x" }
      assert.same({ "The", "the", "x" }, v:get_feature_names_out())
      assert.same({ { 2, 1, 0 }, { 0, 0, 3 } }, X:todense():totable())
      -- no feature at all is an empty row, as for an empty document
      v = text.CountVectorizer{ analyzer = function(s) return s == "" and {} or { s } end }
      X = v:fit_transform{ "a", "" }
      assert.same({ { 1 }, { 0 } }, X:todense():totable())
    end)
  end)
end)
