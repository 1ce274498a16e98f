--- luma.manifold: embeddings that keep distances or neighbourhoods
-- (docs/MANIFOLD.md).
--
-- One part per concern, merged here into the table users get as
-- luma.manifold:
--   mds   MDS (classical and SMACOF)
--   tsne  TSNE (exact and Barnes-Hut; symmetric SNE as an option)
--   graph Isomap, LocallyLinearEmbedding (through the neighbour graph)
--   common  the nearest-neighbour search they share (not public)
-- and luma.manifold.native, t-SNE's kernels (src/ml/manifold/tsne_lua.c).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local manifold = {}
local names = {}

for _, part in ipairs{ "mds", "tsne", "graph" } do
  for name, member in pairs(require("luma.manifold." .. part)) do
    if type(member) == "table" and member.methods then
      manifold[name] = member
      names[#names + 1] = name
    end
  end
end
table.sort(names)

luma.doc.set(manifold, { name = "luma.manifold",
  doc = "Embeddings that keep distances or neighbourhoods (scikit-learn's sklearn.manifold): "
    .. table.concat(names, ", ") .. "." })

return manifold
