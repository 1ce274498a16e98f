--- luma.generative: the generative classifiers as one package.
--
-- Each class models p(x | y) p(y) and classifies by Bayes' rule.  The
-- parts keep scikit-learn's module split and their own public names:
-- luma.discriminant (LDA, QDA, NearestCentroid, GaussianImputer:
-- generative/discriminant.lua) and luma.naive_bayes (GaussianNB,
-- MultinomialNB, BernoulliNB: generative/naive_bayes.lua); both share
-- generative/common.lua and the per-class statistics kernels of
-- luma.generative.native (src/ml/generative).  This file re-exports every
-- class, so luma.generative.GaussianNB is luma.naive_bayes.GaussianNB.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local generative = {}
local names = {}
for _, part in ipairs({ "luma.generative.discriminant", "luma.generative.naive_bayes" }) do
  for name, value in pairs(require(part)) do
    if type(value) == "table" and value.methods then
      generative[name] = value
      names[#names + 1] = name
    end
  end
end
table.sort(names)

luma.doc.set(generative, { name = "luma.generative",
  doc = "Generative classifiers (Bayes' rule on p(x | y) p(y)): " .. table.concat(names, ", ")
    .. ". Also reachable as luma.discriminant and luma.naive_bayes." })

return generative
