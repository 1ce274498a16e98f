--- luma.mixture: mixture models fitted by EM (docs/MIXTURE.md).
--
-- One part per concern, merged here into the table users get as
-- luma.mixture:
--   gaussian  GaussianMixture
--   discrete  BernoulliMixture, MultinomialMixture
--   student   StudentTMixture
--   bayesian  BayesianGaussianMixture
--   em        the EM driver every mixture runs through (not public)
--   common    checks and helpers shared by the parts (not public)
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local mixture = {}
local names = {}

for _, part in ipairs{ "gaussian", "discrete", "student", "bayesian" } do
  for name, member in pairs(require("luma.mixture." .. part)) do
    if type(member) == "table" and member.methods then
      mixture[name] = member
      names[#names + 1] = name
    end
  end
end
table.sort(names)

luma.doc.set(mixture, { name = "luma.mixture",
  doc = "Mixture models fitted by expectation-maximization (scikit-learn's sklearn.mixture): "
    .. table.concat(names, ", ") .. "." })

return mixture
