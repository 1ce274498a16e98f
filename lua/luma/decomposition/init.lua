--- luma.decomposition: matrix factorizations and latent linear models
-- (docs/DECOMPOSITION.md).
--
-- One part per concern, each returning its classes, merged here into the
-- table users get as luma.decomposition:
--   pca     PCA, IncrementalPCA
--   nmf     NMF
--   separable  SeparableNMF (anchor words)
--   latent  ProbabilisticPCA, FactorAnalysis
--   svd     TruncatedSVD
--   kernel_pca  KernelPCA
--   ica     FastICA
--   factor_model  LatentFactorModel
--   common  checks, svd_flip and the randomized SVD shared by the parts
--           (and by luma.mixture and luma.manifold; not public)
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local decomposition = {}
local names = {}

for _, part in ipairs{ "pca", "nmf", "latent", "svd", "kernel_pca", "ica", "separable", "factor_model" } do
  for name, member in pairs(require("luma.decomposition." .. part)) do
    if type(member) == "table" and member.methods then
      decomposition[name] = member
      names[#names + 1] = name
    end
  end
end
table.sort(names)

luma.doc.set(decomposition, { name = "luma.decomposition",
  doc = "Matrix factorizations and latent linear models (scikit-learn's "
    .. "sklearn.decomposition): " .. table.concat(names, ", ") .. "." })

return decomposition
