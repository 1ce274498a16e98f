--- luma.text.vectorizers: CountVectorizer, TfidfTransformer,
-- TfidfVectorizer and HashingVectorizer, scikit-learn 1.2.1's classes
-- (docs/TEXT.md).
--
-- The options are checked here; the documents are decoded, lowercased,
-- analyzed and counted in C (src/ml/text), which gives the counts as a
-- luma.sparse CSR matrix (documents x terms, float64).  Columns are the
-- terms in sorted order (code point order, as Python sorts str), numbered
-- from 1: vocabulary[term] is the term's column.  min_df and max_df read
-- as scikit-learn's: an integer is a count of documents, a float a
-- proportion of them (math.type tells them apart: 1 and 1.0 differ).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")
local native = require("luma.text.native")
local ENGLISH = require("luma.text.stop_words")

local fail = args.fail
local vectorizers = {}

-- ------------------------------------------------------------ checks

local function check_range(v)
  return type(v) == "table" and #v == 2 and math.type(v[1]) == "integer"
    and math.type(v[2]) == "integer" and v[1] >= 1 and v[1] <= v[2]
end

local function check_df(v)
  if math.type(v) == "integer" then return v >= 0 end
  return type(v) == "number" and v >= 0 and v <= 1
end

local function check_stop(v)
  if v == "english" then return true end
  if type(v) ~= "table" then return false end
  for _, w in ipairs(v) do
    if type(w) ~= "string" then return false end
  end
  return true
end

local function check_analyzer(v)
  return type(v) == "function" or v == "word" or v == "char" or v == "char_wb"
end

local function check_vocabulary(v)
  return type(v) == "table"
end

-- The parameters every text vectorizer shares (scikit-learn's names).
local function input_params(extra)
  local list = {
    { name = "decode_error", type = "string", default = "strict",
      values = { "strict", "replace", "ignore" },
      doc = "invalid UTF-8 in a document: an error, U+FFFD per invalid sequence, or dropped" },
    { name = "lowercase", type = "boolean", default = true,
      doc = "lowercase as Python's str.lower() (full Unicode case mapping)" },
    { name = "stop_words", type = "any", check = check_stop,
      expect = "\"english\" or a list of strings",
      doc = "words the word analyzer drops before making n-grams (nil: none)" },
    { name = "analyzer", type = "string|function", default = "word", check = check_analyzer,
      expect = "\"word\", \"char\", \"char_wb\" or a function",
      doc = "features: word n-grams, character n-grams, character n-grams inside words, or a "
        .. "function of one document returning its list of features (then lowercase, "
        .. "preprocessor, tokenizer, stop_words and ngram_range do not apply)" },
    { name = "preprocessor", type = "function",
      doc = "a function of one decoded document returning the text to tokenize, in place of "
        .. "lowercasing (nil: lowercase's)" },
    { name = "tokenizer", type = "function",
      doc = "a function of one preprocessed document returning its list of tokens, in place of "
        .. "the default word tokens; the word analyzer then drops stop words and makes n-grams "
        .. "of them (nil: runs of 2+ word characters)" },
    { name = "ngram_range", type = "table", default = { 1, 1 }, check = check_range,
      expect = "{min_n, max_n} with 1 <= min_n <= max_n", doc = "the n-gram lengths" },
    { name = "dtype", type = "string", default = "float64", values = { "float64" },
      doc = "the values' type (luma.sparse holds float64)" },
  }
  for _, p in ipairs(extra) do list[#list + 1] = p end
  return list
end

local COUNT_PARAMS = {
  { name = "max_df", type = "number", default = 1.0, check = check_df,
    expect = "an integer >= 0 (documents) or a float in [0, 1] (a proportion)",
    doc = "drop terms in more documents than this" },
  { name = "min_df", type = "number", default = 1, check = check_df,
    expect = "an integer >= 0 (documents) or a float in [0, 1] (a proportion)",
    doc = "drop terms in fewer documents than this" },
  { name = "max_features", type = "integer", min = 1,
    doc = "keep only this many terms, the most frequent in the corpus (nil: all)" },
  { name = "vocabulary", type = "table", check = check_vocabulary,
    expect = "a list of terms or a table term -> column",
    doc = "fixed columns: a list of terms, or {term = column} with columns 1..n (nil: learned)" },
  { name = "binary", type = "boolean", default = false, doc = "counts become 1" },
}

local TFIDF_PARAMS = {
  { name = "norm", type = "string", default = "l2", values = { "l1", "l2", "none" },
    doc = "each row scaled to unit l1 or l2 norm, or left" },
  { name = "use_idf", type = "boolean", default = true, doc = "weight terms by idf" },
  { name = "smooth_idf", type = "boolean", default = true,
    doc = "idf = ln((1 + n) / (1 + df)) + 1 (one extra document holding every term); "
      .. "false: ln(n / df) + 1" },
  { name = "sublinear_tf", type = "boolean", default = false, doc = "tf becomes 1 + ln(tf)" },
}

-- The documents: a list of strings (a string alone is refused, as
-- scikit-learn refuses it).
local function documents(X, method)
  if type(X) == "string" then
    fail(3, "bad argument #1 to '%s' (a list of documents expected, got a string: "
      .. "wrap one document as {doc})", method)
  end
  if type(X) ~= "table" or getmetatable(X) ~= nil then
    fail(3, "bad argument #1 to '%s' (a list of strings expected, got %s)", method,
      args.type_of(X))
  end
  return X
end

local function stop_list(p)
  if p.stop_words == "english" then return ENGLISH end
  return p.stop_words
end

-- The analyzer options for the native side.  A script's preprocessor
-- replaces lowercasing; a script's analyzer or tokenizer gives the
-- features itself (given: each document arrives as its list of features).
local function analyzer_opts(p)
  local own = type(p.analyzer) == "function" or (p.tokenizer ~= nil and p.analyzer == "word")
  return { analyzer = own and "word" or p.analyzer, decode_error = p.decode_error,
    lowercase = p.lowercase and p.preprocessor == nil,
    min_n = p.ngram_range[1], max_n = p.ngram_range[2],
    stop_words = p.analyzer == "word" and stop_list(p) or nil, given = own }
end

-- The result of a script's function for document k, which must be a
-- string (want "string") or a list (want "table").
local function checked(result, want, what, k, method)
  if type(result) ~= want then
    fail(5, "bad argument #1 to '%s' (the %s returned a %s for document %d, not a %s)", method,
      what, args.type_of(result), k, want == "table" and "list" or "string")
  end
  return result
end

-- The word analyzer with a script's tokenizer (scikit-learn's
-- _word_ngrams): the tokens less the stop words, then for each n of
-- ngram_range the runs of n consecutive tokens joined by one space.
local function word_ngrams(tokens, stop, min_n, max_n)
  local kept = {}
  for _, tok in ipairs(tokens) do
    if not stop[tok] then kept[#kept + 1] = tok end
  end
  if min_n == 1 and max_n == 1 then return kept end
  local out = {}
  for n = min_n, max_n do
    for i = 1, #kept - n + 1 do out[#out + 1] = table.concat(kept, " ", i, i + n - 1) end
  end
  return out
end

-- The text a document becomes before tokenizing: decoded (under
-- decode_error), then the script's preprocessor or lowercasing.
local function preprocessed(p, opts, doc, k, method)
  local text, msg = native.preprocess(doc, opts)
  if not text then fail(4, "bad argument #1 to '%s' (document %d: %s)", method, k, msg) end
  if p.preprocessor then text = checked(p.preprocessor(text), "string", "preprocessor", k, method) end
  return text
end

-- The documents as the native side reads them (analyzer_opts says how):
-- unchanged, preprocessed by the script, or each the list of its
-- features from the script's analyzer or tokenizer.
local function native_documents(p, opts, docs, method)
  if type(p.analyzer) ~= "function" and p.preprocessor == nil and not opts.given then return docs end
  local out, stop = {}, {}
  for _, w in ipairs(opts.stop_words or {}) do stop[w] = true end
  local decode = { decode_error = p.decode_error, lowercase = opts.lowercase }
  for k, doc in ipairs(docs) do
    if type(doc) ~= "string" then
      fail(3, "bad argument #1 to '%s' (document %d is a %s, not a string)", method, k,
        args.type_of(doc))
    end
    if type(p.analyzer) == "function" then
      out[k] = checked(p.analyzer(doc), "table", "analyzer", k, method)
    elseif opts.given then
      local tokens = checked(p.tokenizer(preprocessed(p, decode, doc, k, method)), "table",
        "tokenizer", k, method)
      for i, tok in ipairs(tokens) do
        if type(tok) ~= "string" then
          fail(3, "bad argument #1 to '%s' (the tokenizer gave document %d a %s as token %d, "
            .. "not a string)", method, k, args.type_of(tok), i)
        end
      end
      out[k] = word_ngrams(tokens, stop, opts.min_n, opts.max_n)
    else
      out[k] = preprocessed(p, decode, doc, k, method)
    end
  end
  return out
end

-- A given vocabulary as the list of its terms in column order, checked as
-- scikit-learn's _validate_vocabulary checks it.
local function vocabulary_list(v, method)
  local list = {}
  if #v > 0 or next(v) == nil then
    local seen = {}
    for i, term in ipairs(v) do
      if type(term) ~= "string" then
        fail(3, "bad argument #1 to '%s' (vocabulary[%d] is not a string)", method, i)
      end
      if seen[term] then fail(3, "bad argument #1 to '%s' (Duplicate term in vocabulary: %q)",
        method, term) end
      seen[term] = true
      list[i] = term
    end
  else
    local n = 0
    for term, col in pairs(v) do
      n = n + 1
      if type(term) ~= "string" or math.type(col) ~= "integer" then
        fail(3, "bad argument #1 to '%s' (vocabulary must map terms to integer columns)", method)
      end
      if list[col] then fail(3, "bad argument #1 to '%s' (Vocabulary contains repeated indices.)",
        method) end
      list[col] = term
    end
    for i = 1, n do
      if list[i] == nil then
        fail(3, "bad argument #1 to '%s' (Vocabulary of size %d doesn't contain index %d.)",
          method, n, i)
      end
    end
  end
  if #list == 0 then fail(3, "bad argument #1 to '%s' (empty vocabulary passed to fit)", method) end
  return list
end

local function index_of(terms)
  local vocab = {}
  for i, t in ipairs(terms) do vocab[t] = i end
  return vocab
end

-- Counts docs with the fitted (or given) terms as fixed columns.
local function count_fixed(self, docs, method)
  local opts = analyzer_opts(self.params)
  opts.vocabulary = self.terms
  opts.binary = self.params.binary
  local X, msg = native.count(native_documents(self.params, opts, docs, method), opts)
  if not X then fail(3, "bad argument #1 to '%s' (%s)", method, msg) end
  return X
end

-- CountVectorizer's fit_transform: the vocabulary learned (or taken), the
-- counts of the training documents.
local function count_fit(self, X, method)
  local docs = documents(X, method)
  local p = self.params
  if p.vocabulary then
    self.terms = vocabulary_list(p.vocabulary, method)
    self.vocabulary = index_of(self.terms)
    self.stop_words = {}
    return count_fixed(self, docs, method)
  end
  local n = #docs
  local function bound(v) return math.type(v) == "integer" and v or v * n end
  local opts = analyzer_opts(p)
  opts.binary = p.binary
  opts.min_count, opts.max_count = bound(p.min_df), bound(p.max_df)
  opts.max_features = p.max_features
  local C, terms, pruned = native.count(native_documents(p, opts, docs, method), opts)
  if not C then fail(3, "bad argument #1 to '%s' (%s)", method, terms) end
  self.terms, self.vocabulary, self.stop_words = terms, index_of(terms), pruned
  return C
end

local function feature_names(self)
  if not self:is_fitted() then
    fail(3, "%s: get_feature_names_out called before fit", self.__class.name)
  end
  return { table.unpack(self.terms) }
end

local function inverse(self, X)
  if luma.ismatrix(X) then X = luma.sparse.from_dense(X) end
  if not luma.sparse.issparse(X) then
    fail(3, "bad argument #1 to 'inverse_transform' (a luma.SparseMatrix or luma.Matrix "
      .. "expected, got %s)", args.type_of(X))
  end
  if X:cols() ~= #self.terms then
    fail(3, "bad argument #1 to 'inverse_transform' (X has %d columns but the vocabulary has "
      .. "%d terms)", X:cols(), #self.terms)
  end
  return native.row_terms(X, self.terms)
end

local function check_vocab_state(self)
  estimator.check_fields(self, { terms = "table", vocabulary = "table" })
  for i, t in ipairs(self.terms) do
    if type(t) ~= "string" or self.vocabulary[t] ~= i then
      error("the vocabulary and its terms disagree at column " .. i, 0)
    end
  end
end

local CORPUS = {
  "The quick brown fox jumps over the lazy dog.",
  "The dog sleeps; the fox runs away.",
  "Ein schneller brauner Fuchs springt über den faulen Hund.",
  "ΤΑΧΕΙΑ αλεπού, ΣΚΥΛΟΣ.",
}

local function text_example(make)
  return function() return make(), CORPUS, nil end
end

-- est:build_analyzer() and est:build_preprocessor(): the native analysis
-- of one document as a function.
local function one_document(self, fn, what)
  local opts = analyzer_opts(self.params)
  return function(doc)
    if type(doc) ~= "string" then
      fail(2, "bad argument #1 to '%s' (string expected, got %s)", what, args.type_of(doc))
    end
    local out, msg = fn(doc, opts)
    if not out then fail(2, "bad argument #1 to '%s' (%s)", what, msg) end
    return out
  end
end

local function build_analyzer(self)
  local p = self.params
  if type(p.analyzer) == "function" then return p.analyzer end
  local opts = analyzer_opts(p)
  if not opts.given and p.preprocessor == nil then
    return one_document(self, native.analyze, "analyzer")
  end
  return function(doc)
    local features = native_documents(p, opts, { doc }, "analyzer")[1]
    if type(features) == "table" then return features end
    local out, msg = native.analyze(features, opts)
    if not out then fail(2, "bad argument #1 to 'analyzer' (%s)", msg) end
    return out
  end
end

local function build_preprocessor(self)
  local p = self.params
  if p.preprocessor == nil then return one_document(self, native.preprocess, "preprocessor") end
  local decode = { decode_error = p.decode_error, lowercase = false }
  return function(doc)
    if type(doc) ~= "string" then
      fail(2, "bad argument #1 to 'preprocessor' (string expected, got %s)", args.type_of(doc))
    end
    return preprocessed(p, decode, doc, 1, "preprocessor")
  end
end

local METHOD_DOCS = {
  fit = { signature = "est:fit(docs) -> est", doc = "Learns the vocabulary of a list of strings." },
  transform = { signature = "est:transform(docs) -> SparseMatrix",
    doc = "The documents as a luma.SparseMatrix (documents x terms), columns as fitted." },
  fit_transform = { signature = "est:fit_transform(docs) -> SparseMatrix",
    doc = "fit, then the training documents' matrix, in one pass." },
  get_feature_names_out = { signature = "est:get_feature_names_out() -> list",
    doc = "The terms, in column order (a new list of strings)." },
  inverse_transform = { signature = "est:inverse_transform(X) -> list",
    doc = "For each row of X (sparse or dense), the list of terms with non-zero entries." },
  build_analyzer = { signature = "est:build_analyzer() -> function",
    doc = "The analyzer as a function of one document (a string) that returns the list of "
      .. "its features (tokens or n-grams, stop words removed) in order; a function given as "
      .. "analyzer is returned itself." },
  build_preprocessor = { signature = "est:build_preprocessor() -> function",
    doc = "The preprocessor as a function of one document (a string) that returns it decoded "
      .. "(under decode_error) and lowercased (under lowercase), as UTF-8, or decoded and "
      .. "passed through the preprocessor given." },
}

vectorizers.CountVectorizer = estimator.class{
  name = "luma.text.CountVectorizer", kind = "transformer", input = "any",
  doc = "Counts words or character n-grams of UTF-8 documents into a sparse documents x "
    .. "terms matrix (scikit-learn 1.2.1's CountVectorizer: same tokens, vocabulary and "
    .. "counts). Word tokens are runs of 2+ Unicode letters, digits or underscores (the "
    .. "default token_pattern (?u)\\b\\w\\w+\\b). Fitted: vocabulary (term -> column), "
    .. "terms (the columns' terms), stop_words (terms pruned by min_df, max_df, "
    .. "max_features).",
  params = input_params(COUNT_PARAMS),
  method_docs = METHOD_DOCS,
  example = text_example(function() return vectorizers.CountVectorizer{} end),
  check_state = check_vocab_state,
  fit = function(self, X) count_fit(self, X, "fit") end,
  fit_transform = function(self, X) return count_fit(self, X, "fit_transform") end,
  transform = function(self, X) return count_fixed(self, documents(X, "transform"), "transform") end,
  get_feature_names_out = feature_names,
  inverse_transform = inverse,
  build_analyzer = build_analyzer,
  build_preprocessor = build_preprocessor,
}

-- ------------------------------------------------------------ tf-idf

-- idf of a counts matrix (1 x terms): ln((n + s) / (df + s)) + 1.
-- Written as numpy computes it, ln(n / df), not ln(n * (1 / df)).
local function idf_of(C, smooth)
  local s = smooth and 1 or 0
  local df = native.df(C)
  local n = C:rows() + s
  for j = 1, df:cols() do df:set(1, j, math.log(n / (df:get(1, j) + s)) + 1) end
  return df
end

local function weigh(self, C, idf)
  local p = self.params
  return native.weights(C, { sublinear = p.sublinear_tf, idf = p.use_idf and idf or nil,
    norm = p.norm ~= "none" and p.norm or nil })
end

local function counts_matrix(X, method)
  if luma.ismatrix(X) then return luma.sparse.from_dense(X) end
  if luma.sparse.issparse(X) then return X end
  fail(3, "bad argument #1 to '%s' (a luma.SparseMatrix or luma.Matrix of counts expected, "
    .. "got %s)", method, args.type_of(X))
end

vectorizers.TfidfTransformer = estimator.class{
  name = "luma.text.TfidfTransformer", kind = "transformer", input = "any",
  doc = "Turns a counts matrix (sparse or dense, documents x terms) into tf-idf weights: "
    .. "tf (1 + ln tf when sublinear_tf) times idf, rows scaled to unit norm "
    .. "(scikit-learn 1.2.1's TfidfTransformer). Fitted: idf (1 x terms).",
  params = TFIDF_PARAMS,
  example = function()
    return vectorizers.TfidfTransformer{}, luma.matrix{ { 3, 0, 1 }, { 2, 0, 0 }, { 3, 0, 0 },
      { 4, 0, 0 }, { 3, 2, 0 }, { 3, 0, 2 } }, nil
  end,
  check_state = function(self)
    if self.params.use_idf then estimator.check_fields(self, { idf = "matrix" }) end
  end,
  fit = function(self, X)
    local C = counts_matrix(X, "fit")
    self.n_terms = C:cols()
    if self.params.use_idf then self.idf = idf_of(C, self.params.smooth_idf) end
  end,
  transform = function(self, X)
    local C = counts_matrix(X, "transform")
    if C:cols() ~= self.n_terms then
      fail(2, "bad argument #1 to 'transform' (X has %d columns but %s was fitted on %d)",
        C:cols(), "TfidfTransformer", self.n_terms)
    end
    return weigh(self, C, self.idf)
  end,
}

local tfidf_params = input_params(COUNT_PARAMS)
for _, p in ipairs(TFIDF_PARAMS) do tfidf_params[#tfidf_params + 1] = p end

local function tfidf_fit(self, X, method)
  local C = count_fit(self, X, method)
  if self.params.use_idf then self.idf = idf_of(C, self.params.smooth_idf) end
  return C
end

vectorizers.TfidfVectorizer = estimator.class{
  name = "luma.text.TfidfVectorizer", kind = "transformer", input = "any",
  doc = "CountVectorizer followed by TfidfTransformer: tf-idf weights of UTF-8 documents as a "
    .. "sparse documents x terms matrix (scikit-learn 1.2.1's TfidfVectorizer). Fitted: "
    .. "vocabulary, terms, stop_words (as CountVectorizer) and idf (1 x terms).",
  params = tfidf_params,
  method_docs = METHOD_DOCS,
  example = text_example(function() return vectorizers.TfidfVectorizer{} end),
  check_state = check_vocab_state,
  fit = function(self, X) tfidf_fit(self, X, "fit") end,
  fit_transform = function(self, X)
    return weigh(self, tfidf_fit(self, X, "fit_transform"), self.idf)
  end,
  transform = function(self, X)
    return weigh(self, count_fixed(self, documents(X, "transform"), "transform"), self.idf)
  end,
  get_feature_names_out = feature_names,
  inverse_transform = inverse,
  build_analyzer = build_analyzer,
  build_preprocessor = build_preprocessor,
}

-- ------------------------------------------------------------ hashing

local function hashed(self, X, method)
  local p = self.params
  local opts = analyzer_opts(p)
  opts.n_features, opts.alternate_sign = p.n_features, p.alternate_sign
  local H, msg = native.hash(native_documents(p, opts, documents(X, method), method), opts)
  if not H then fail(3, "bad argument #1 to '%s' (%s)", method, msg) end
  return native.weights(H, { binary = p.binary, norm = p.norm ~= "none" and p.norm or nil })
end

local hashing_params = input_params{
  { name = "n_features", type = "integer", default = 1048576, min = 1, max = 2147483647,
    doc = "columns (2^20 by default)" },
  { name = "binary", type = "boolean", default = false, doc = "non-zero values become 1" },
  { name = "norm", type = "string", default = "l2", values = { "l1", "l2", "none" },
    doc = "each row scaled to unit l1 or l2 norm, or left" },
  { name = "alternate_sign", type = "boolean", default = true,
    doc = "the hash's sign gives each feature's sign (sums of features cancel in expectation)" },
}

vectorizers.HashingVectorizer = estimator.class{
  name = "luma.text.HashingVectorizer", kind = "transformer", input = "any",
  doc = "Hashes words or character n-grams of UTF-8 documents to n_features columns with "
    .. "MurmurHash3 (x86, 32-bit, seed 0, of the feature's UTF-8 bytes), column |h| mod "
    .. "n_features: the columns scikit-learn 1.2.1's HashingVectorizer gives. Keeps no "
    .. "vocabulary; fit learns nothing but is needed before transform (the estimator contract).",
  params = hashing_params,
  method_docs = { build_analyzer = METHOD_DOCS.build_analyzer,
    build_preprocessor = METHOD_DOCS.build_preprocessor,
    transform = { signature = "est:transform(docs) -> SparseMatrix",
      doc = "The documents as a luma.SparseMatrix (documents x n_features)." },
    fit_transform = { signature = "est:fit_transform(docs) -> SparseMatrix",
      doc = "fit (which learns nothing) and transform." } },
  example = text_example(function() return vectorizers.HashingVectorizer{ n_features = 64 } end),
  build_analyzer = build_analyzer,
  build_preprocessor = build_preprocessor,
  fit = function(self, X) documents(X, "fit") end,
  fit_transform = function(self, X) return hashed(self, X, "fit_transform") end,
  transform = function(self, X) return hashed(self, X, "transform") end,
}

-- ------------------------------------------------------------ functions

--- murmurhash3_32(s [, seed = 0]) -> integer: MurmurHash3_x86_32 of the
-- bytes of s as a signed 32-bit value (scikit-learn's murmurhash3_32 with
-- positive = False).
function vectorizers.murmurhash3_32(s, seed)
  args.arg(type(s) == "string", 1, "murmurhash3_32", "string", s, 2)
  if seed ~= nil then args.integer(seed, "seed", "murmurhash3_32", 0, 2) end
  return native.murmurhash3_32(s, seed or 0)
end
luma.doc.set(vectorizers.murmurhash3_32, { name = "luma.text.murmurhash3_32",
  signature = "luma.text.murmurhash3_32(s [, seed = 0]) -> integer",
  doc = "MurmurHash3_x86_32 of the bytes of s, as a signed 32-bit integer (scikit-learn's "
    .. "murmurhash3_32(s, seed, positive=False)): the hash HashingVectorizer uses." })

--- english_stop_words() -> list: a copy of the "english" stop word list.
function vectorizers.english_stop_words()
  return { table.unpack(ENGLISH) }
end
luma.doc.set(vectorizers.english_stop_words, { name = "luma.text.english_stop_words",
  signature = "luma.text.english_stop_words() -> list",
  doc = "The 318 words stop_words = \"english\" removes (scikit-learn 1.2.1's "
    .. "ENGLISH_STOP_WORDS), sorted, as a new list." })

return vectorizers
