-- Figures of notes 004 Ch. 11 (density estimation with Gaussian
-- mixtures): the mixture of Fig. 11.1, p(x) = 0.5 N(x | -2, 1/2) +
-- 0.2 N(x | 1, 2) + 0.3 N(x | 4, 1) (11.5; the second argument is the
-- variance), with 250 samples drawn from it by ancestral sampling,
-- their histogram and a Gaussian KDE; and the running EM example
-- (Examples 11.1-11.5): X = {-3, -2.5, -1, 0, 2, 4, 5}, components
-- initialised at N(-4, 1), N(0, 0.2), N(8, 3), equal weights.  EM runs
-- its standard order (E-step, then the means, then the variances with the
-- updated means, then the weights), which is what reproduces the notes'
-- printed numbers (notes errata: the text calls the decreasing negative
-- log-likelihood 28.3 -> 14.4 a log-likelihood that increased).  The
-- densities at initialisation, after one iteration and after five
-- (converged), and the negative log-likelihood per iteration (Fig.
-- 11.6b), are drawn.  Writes gmm_mixture.svg and gmm_em.svg into OUTDIR:
--   build/luma scripts/examples/plot_gmm_em.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local plot = luma.plot

local outdir = ... or arg and arg[1] or "build/plots"

local function normal(x, mu, var)
  return math.exp(-(x - mu) ^ 2 / (2 * var)) / math.sqrt(2 * math.pi * var)
end

local function mixture(x, pi, mu, var)
  local p = 0
  for k = 1, #pi do p = p + pi[k] * normal(x, mu[k], var[k]) end
  return p
end

-- Fig. 11.1: the mixture, its components and 250 samples
local pi, mu, var = { 0.5, 0.2, 0.3 }, { -2, 1, 4 }, { 0.5, 2, 1 }
local rng = luma.random.Generator(11)
local samples = {}
for n = 1, 250 do
  local u, k = rng:random(), 1
  while u > pi[k] and k < #pi do u, k = u - pi[k], k + 1 end
  samples[n] = mu[k] + math.sqrt(var[k]) * rng:normal(1, 1):get(1, 1)
end
local grid = luma.linspace(-6, 8, 400):reshape(1, -1):totable()[1]
local fig = plot.figure{ width = 720, height = 440 }
local ax = fig:axes()
ax:hist(samples, { bins = 25, density = true, color = "lightgray", label = "250 samples" })
local kde = plot.kde(samples)
local dens, kd = {}, {}
for i, x in ipairs(grid) do dens[i], kd[i] = mixture(x, pi, mu, var), kde(x) end
for k = 1, 3 do
  local comp = {}
  for i, x in ipairs(grid) do comp[i] = pi[k] * normal(x, mu[k], var[k]) end
  ax:line(grid, comp, { style = "--", width = 1, color = "C" .. (k + 1),
    label = string.format("%.1f N(x | %g, %g)", pi[k], mu[k], var[k]) })
end
ax:line(grid, dens, { color = "C1", width = 2, label = "p(x) (11.5)" })
ax:line(grid, kd, { color = "black", width = 1, style = ":", label = "KDE of the samples" })
ax:set{ title = "Gaussian mixture of notes 004 Fig. 11.1", xlabel = "x", ylabel = "density" }
fig:save(outdir .. "/gmm_mixture.svg")

-- The running example: EM from the notes' initialisation
local X = { -3, -2.5, -1, 0, 2, 4, 5 }
pi, mu, var = { 1 / 3, 1 / 3, 1 / 3 }, { -4, 0, 8 }, { 1, 0.2, 3 }
local function nll()
  local s = 0
  for _, x in ipairs(X) do s = s - math.log(mixture(x, pi, mu, var)) end
  return s
end
local snapshots, nlls = { { pi = { table.unpack(pi) }, mu = { table.unpack(mu) }, var = { table.unpack(var) } } }, { nll() }
for iter = 1, 5 do
  -- E-step: responsibilities r_nk (11.17)
  local r, Nk = {}, { 0, 0, 0 }
  for n, x in ipairs(X) do
    local p = mixture(x, pi, mu, var)
    r[n] = {}
    for k = 1, 3 do
      r[n][k] = pi[k] * normal(x, mu[k], var[k]) / p
      Nk[k] = Nk[k] + r[n][k]
    end
  end
  -- M-step: means (11.20), variances with the new means (11.30), weights (11.42)
  for k = 1, 3 do
    local s = 0
    for n, x in ipairs(X) do s = s + r[n][k] * x end
    mu[k] = s / Nk[k]
    local v = 0
    for n, x in ipairs(X) do v = v + r[n][k] * (x - mu[k]) ^ 2 end
    var[k] = v / Nk[k]
    pi[k] = Nk[k] / #X
  end
  nlls[#nlls + 1] = nll()
  if iter == 1 or iter == 5 then
    snapshots[#snapshots + 1] = { pi = { table.unpack(pi) }, mu = { table.unpack(mu) }, var = { table.unpack(var) } }
  end
end
local em = plot.figure{ rows = 1, cols = 2, width = 1100, height = 420,
  title = "EM for the notes' 1-D mixture (notes 004 Examples 11.1-11.5)" }
local left = em:axes(1, 1)
local names = { "initialisation", "after 1 iteration", "after 5 iterations" }
local grid2 = luma.linspace(-6, 9, 400):reshape(1, -1):totable()[1]
for s, snap in ipairs(snapshots) do
  local d = {}
  for i, x in ipairs(grid2) do d[i] = mixture(x, snap.pi, snap.mu, snap.var) end
  left:line(grid2, d, { label = names[s], color = "C" .. s })
end
local zeros = {}
for i = 1, #X do zeros[i] = 0 end
left:scatter(X, zeros, { color = "black", marker = "x", size = 8, label = "data" })
left:set{ xlabel = "x", ylabel = "p(x)", title = "mixture density" }
local right = em:axes(1, 2)
local iters = {}
for i = 1, #nlls do iters[i] = i - 1 end
right:line(iters, nlls, { marker = "o", color = "C1" })
right:text(0.2, nlls[1], string.format("%.1f", nlls[1]))
right:text(1.2, nlls[2], string.format("%.1f", nlls[2]))
right:set{ xlabel = "iteration", ylabel = "negative log-likelihood", title = "convergence (Fig. 11.6b)",
  xticks = iters }
em:save(outdir .. "/gmm_em.svg")
print(outdir .. "/gmm_mixture.svg")
print(outdir .. "/gmm_em.svg")
print(string.format("NLL %.4f -> %.4f after one iteration, %.4f after five", nlls[1], nlls[2], nlls[#nlls]))
