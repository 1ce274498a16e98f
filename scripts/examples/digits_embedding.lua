-- The digits (1,797 8 x 8 images, 64 pixel values) embedded in two
-- dimensions by PCA and by t-SNE (Barnes-Hut, perplexity 30), as CSV
-- files of coordinates plus the digit label (pca.csv and tsne.csv, with
-- columns x, y, label) and as scatter plots coloured by digit
-- (digits_pca.svg, digits_tsne.svg).  t-SNE separates the ten digits
-- into clusters that PCA's two directions of largest variance overlap.
--   build/luma scripts/examples/digits_embedding.lua [OUTDIR [N_ITER]]
-- (OUTDIR defaults to build/plots, N_ITER, t-SNE's iterations, to 1000.)
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local outdir = arg and arg[1] or "build/plots"
local n_iter = math.tointeger(tonumber(arg and arg[2] or "1000"))
os.execute("mkdir -p '" .. outdir:gsub("'", "'\\''") .. "'")

local X, y = luma.datasets.load("digits")

local embeddings = {
  { "pca", "PCA (first two components)",
    luma.decomposition.PCA{ n_components = 2 }:fit_transform(X) },
}
local tsne = luma.manifold.TSNE{ perplexity = 30, n_iter = n_iter, seed = 0 }
embeddings[2] = { "tsne", "t-SNE (Barnes-Hut, perplexity 30)", tsne:fit_transform(X) }

for _, e in ipairs(embeddings) do
  local name, title, Z = e[1], e[2], e[3]
  luma.io.write_csv(luma.matrix.hstack{ Z, y }, outdir .. "/" .. name .. ".csv",
    { header = { "x", "y", "label" } })
  local fig = luma.plot.figure{ width = 640, height = 560 }
  local ax = fig:axes()
  ax:scatter(Z:col(1), Z:col(2), { labels = y, size = 3 })
  ax:set{ title = "digits: " .. title, xlabel = "x", ylabel = "y" }
  fig:save(outdir .. "/digits_" .. name .. ".svg")
  print(string.format("%-4s %s/%s.csv, %s/digits_%s.svg", name, outdir, name, outdir, name))
end
print(string.format("t-SNE KL divergence %.4f after %d iterations", tsne.kl_divergence, tsne.n_iter + 1))
