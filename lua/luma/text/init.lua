--- luma.text: text as data (docs/TEXT.md).
--
-- One part per concern, merged here into the table users get as
-- luma.text:
--   vectorizers  CountVectorizer, TfidfTransformer, TfidfVectorizer,
--                HashingVectorizer, murmurhash3_32, english_stop_words
--   kernels      bow_kernel (the bag-of-words intersection kernel, notes 001)
--   ngram        NgramModel (N-gram language models, notes 002 X10)
--   lda          LatentDirichletAllocation (variational Bayes, batch and online)
-- The counting runs in C (src/ml/text, luma.text.native).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local text = {}
local names = {}
for _, part in ipairs{ "vectorizers", "kernels", "ngram", "lda" } do
  for name, member in pairs(require("luma.text." .. part)) do
    assert(text[name] == nil, "luma.text: two parts define " .. name)
    text[name] = member
    names[#names + 1] = name
  end
end
table.sort(names)

luma.doc.set(text, { name = "luma.text",
  doc = "Text as data: vectorizers that turn UTF-8 documents into sparse count and tf-idf "
    .. "matrices as scikit-learn 1.2.1 does, the bag-of-words kernel and N-gram language "
    .. "models, topic models: " .. table.concat(names, ", ") .. "." })

return text
