-- Choosing the number of components of a Gaussian mixture by BIC
-- (luma.mixture.GaussianMixture; docs/MIXTURE.md).
--
-- 500 points from three elongated Gaussians in the plane.  Mixtures of 1
-- to 6 components with full covariances are fitted by EM (5
-- initializations each); the Bayesian information criterion
-- BIC = -2 log L + p log N is lowest at the true 3.  Prints the fitted
-- weights and means of the chosen model and how well its components
-- recover the true groups.  Draws the BIC curve and the points coloured by
-- component (mixture_bic.png in OUTDIR):
--   build/luma scripts/examples/mixture_bic.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]

local rng = luma.random.Generator(2)
local groups = {
  { n = 200, mean = { 0, 0 }, A = luma.matrix{ { 2.0, 0 }, { 0.8, 0.4 } } },
  { n = 150, mean = { 6, 3 }, A = luma.matrix{ { 0.5, 0 }, { -0.6, 1.2 } } },
  { n = 150, mean = { 1, 6 }, A = luma.matrix{ { 1.0, 0 }, { 0, 0.5 } } },
}
local parts, labels = {}, {}
for g, spec in ipairs(groups) do
  local Z = luma.randn(spec.n, 2, rng) * spec.A:t() + luma.matrix{ spec.mean }
  parts[#parts + 1] = Z
  for _ = 1, spec.n do labels[#labels + 1] = g end
end
local X = luma.matrix.vstack(parts)

local bics, models, best = {}, {}, 1
print(" k          BIC")
for k = 1, 6 do
  models[k] = luma.mixture.GaussianMixture{ n_components = k, n_init = 5, seed = 0 }:fit(X)
  bics[k] = models[k]:bic(X)
  if bics[k] < bics[best] then best = k end
  print(string.format("%2d  %11.2f", k, bics[k]))
end
print(string.format("BIC chooses k = %d", best))
local gm = models[best]
for j = 1, best do
  print(string.format("component %d: weight %.3f, mean (%.2f, %.2f)", j, gm.weights:get(j, 1),
    gm.means:get(j, 1), gm.means:get(j, 2)))
end
local assigned = gm:predict(X)
print(string.format("adjusted Rand index of the components against the true groups %.3f",
  luma.metrics.adjusted_rand_score(luma.matrix(labels), assigned)))

if outdir then
  local fig = luma.plot.figure{ cols = 2, width = 1000, height = 440,
    title = "A Gaussian mixture chosen by BIC" }
  fig:axes(1, 1):line(luma.arange(6), luma.matrix(bics), { marker = "o" })
  fig:axes(1, 1):set{ xlabel = "components k", ylabel = "BIC" }
  fig:axes(1, 2):scatter(X:col(1), X:col(2), { labels = assigned, size = 4 })
  fig:axes(1, 2):set{ title = string.format("%d components", best) }
  print("wrote " .. fig:save(outdir .. "/mixture_bic.png"))
end
