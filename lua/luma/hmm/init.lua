--- luma.hmm: hidden Markov models (docs/HMM.md).
--
-- One part per emission model, merged here into the table users get as
-- luma.hmm:
--   categorical  CategoricalHMM
--   gaussian     GaussianHMM, GMMHMM
--   base         the shared recursions, Baum-Welch loop and methods (not public)
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local hmm = {}
local names = {}

for _, part in ipairs{ "categorical", "gaussian" } do
  for name, member in pairs(require("luma.hmm." .. part)) do
    assert(hmm[name] == nil, "luma.hmm: two parts define " .. name)
    hmm[name] = member
    names[#names + 1] = name
  end
end
table.sort(names)

luma.doc.set(hmm, { name = "luma.hmm",
  doc = "Hidden Markov models (Rabiner 1989), as hmmlearn: " .. table.concat(names, ", ")
    .. ". States and symbols are 1-based." })

return hmm
