--- luma.markov: Markov chains, random walks on graphs and PageRank
-- (docs/MARKOV.md).
--
-- One part per concern, merged here into the table users get as
-- luma.markov (every public member of a part):
--   chain     functions of transition matrices: n_step, propagate,
--             stationary, is_irreducible, period, hitting_times,
--             sample_path, random_walk_matrix, random_walk
--   model     MarkovChain (order L, fitted by counts; n-gram models),
--             from_transitions
--   pagerank  pagerank, google_matrix
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local markov = {}
local names = {}

-- chain's helpers for the other parts and luma.hmm (not public)
local PRIVATE = { fail = true, check_transition = true, check_distribution = true,
                  simulate = true, draw_rows = true }

for _, part in ipairs{ "chain", "model", "pagerank" } do
  for name, member in pairs(require("luma.markov." .. part)) do
    if not PRIVATE[name] then
      assert(markov[name] == nil, "luma.markov: two parts define " .. name)
      markov[name] = member
      names[#names + 1] = name
    end
  end
end
table.sort(names)
-- The parts' checks raise with no location: each function raises them at
-- its caller's line.
args.relay_functions(markov)

luma.doc.set(markov, { name = "luma.markov",
  doc = "Markov chains (row-stochastic transition matrices, P[i][j] = Pr(i -> j), "
    .. "distributions as row vectors), random walks on graphs and PageRank: "
    .. table.concat(names, ", ") .. ". States are 1-based." })

return markov
