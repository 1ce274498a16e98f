-- Figures of the Gibbs sampler of a 2-D Ising model (notes 000 Ch. 11-12,
-- as ising_gibbs.lua): spins x_i in {-1, +1} on a 12 x 12 torus with the
-- pair potential exp(-(x_i - x_j)^2 / (2 T)), so that
-- P(x_i = +1 | neighbours) = 1 / (1 + exp(-2 sum_j x_j / T)).  Draws the
-- last sample at a low (T = 1) and a high (T = 5) temperature and the
-- magnetization trace of each chain.  Writes ising_gibbs.svg into OUTDIR:
--   build/luma scripts/examples/plot_ising.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local plot = luma.plot
local mc = luma.montecarlo

local outdir = ... or arg and arg[1] or "build/plots"
local L = 12

local function index(r, c) return ((r - 1) % L) * L + ((c - 1) % L) + 1 end

local function conditionals(T)
  local list = {}
  for r = 1, L do
    for c = 1, L do
      local nb = { index(r - 1, c), index(r + 1, c), index(r, c - 1), index(r, c + 1) }
      list[index(r, c)] = function(x, rng)
        local s = x:get(1, nb[1]) + x:get(1, nb[2]) + x:get(1, nb[3]) + x:get(1, nb[4])
        return rng:random() < 1 / (1 + math.exp(-2 * s / T)) and 1 or -1
      end
    end
  end
  return list
end

local fig = plot.figure{ rows = 2, cols = 2, width = 900, height = 760,
  title = "Gibbs sampling of a 12 x 12 Ising model" }
for col, T in ipairs({ 1.0, 5.0 }) do
  local samples = mc.gibbs{ conditionals = conditionals(T), init = luma.ones(1, L * L),
    n = 200, burn_in = 100, seed = 1 }
  -- the last sample's spins -1/+1 as the categories 1/2 of two colours
  local spins = samples:row(samples:rows()):reshape(L, L):add(3):div(2)
  fig:axes(1, col):heatmap(spins, { colors = { "#f0f0f0", "#1f3b73" } })
    :set{ title = string.format("last sample, T = %.0f", T) }
  fig:axes(2, col):line(samples:mean(2), { color = "C" .. col, width = 1 })
    :set{ title = "magnetization per sweep", xlabel = "sample", ylabel = "mean spin",
      ylim = { -1.05, 1.05 } }
end
fig:save(outdir .. "/ising_gibbs.svg")
print(outdir .. "/ising_gibbs.svg")
