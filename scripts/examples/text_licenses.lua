-- Text classification with tf-idf and logistic regression (docs/TEXT.md):
-- which licence family a paragraph of a licence text comes from.
--
-- The corpus is the licence texts Debian's base-files package installs in
-- /usr/share/common-licenses: the GPL (versions 1, 2, 3), the LGPL (2,
-- 2.1, 3), the GFDL (1.2, 1.3) and the MPL (1.1, 2.0).  Each paragraph
-- (text between blank lines) with at least 20 words is a document; every
-- fourth one is held out for testing.
--   luma scripts/examples/text_licenses.lua
-- SPDX-License-Identifier: MIT
local FAMILIES = {
  { "GPL", { "GPL-1", "GPL-2", "GPL-3" } },
  { "LGPL", { "LGPL-2", "LGPL-2.1", "LGPL-3" } },
  { "GFDL", { "GFDL-1.2", "GFDL-1.3" } },
  { "MPL", { "MPL-1.1", "MPL-2.0" } },
}

local train, test, ytrain, ytest = {}, {}, {}, {}
local n = 0
for label, family in ipairs(FAMILIES) do
  for _, name in ipairs(family[2]) do
    local f = assert(io.open("/usr/share/common-licenses/" .. name, "rb"))
    local text = f:read("a")
    f:close()
    for para in (text .. "\n\n"):gmatch("(.-)\n%s*\n") do
      local _, words = para:gsub("%w+", "")
      if words >= 20 then
        n = n + 1
        if n % 4 == 0 then
          test[#test + 1], ytest[#ytest + 1] = para, label
        else
          train[#train + 1], ytrain[#ytrain + 1] = para, label
        end
      end
    end
  end
end

local model = luma.pipeline.make_pipeline(
  luma.text.TfidfVectorizer{ stop_words = "english", ngram_range = { 1, 2 }, min_df = 2,
    sublinear_tf = true },
  luma.linear.LogisticRegression{ C = 10 })
model:fit(train, luma.matrix(ytrain))

local vectorizer = model:get_params().tfidfvectorizer
print(string.format("%d training and %d test paragraphs, %d terms", #train, #test,
  #vectorizer:get_feature_names_out()))
local predicted = model:predict(test)
print(string.format("test accuracy %.3f", luma.metrics.accuracy_score(luma.matrix(ytest),
  predicted)))
print((luma.metrics.confusion_matrix(luma.matrix(ytest), predicted)))
