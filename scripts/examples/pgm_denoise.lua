-- Denoising a binary image with the Markov random field of notes 000
-- Ch. 11 (docs/PGM.md; Bishop, PRML, sec. 8.3.3).
--
-- A handwritten 3 from the bundled digits, thresholded and scaled up 8
-- times to 64 x 64 pixels (-1/+1), has 10% of its pixels flipped.  The
-- MRF p(x | y) ∝ exp(beta sum x_i x_j + eta sum x_i y_i) with Bishop's
-- beta = 1, eta = 2.1 is then solved three ways: iterated conditional
-- modes (a local minimum of the energy), loopy belief propagation
-- (sum-product: each pixel's most probable value) and the exact MAP by a
-- graph cut.  Prints each result's energy and pixel error against the
-- clean image; given OUTDIR, also draws the five images into
-- OUTDIR/pgm_denoise.svg.
--
--   luma scripts/examples/pgm_denoise.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local grid = require("luma.pgm.grid")

local X, y = luma.datasets.load("digits")
local first3 = math.tointeger(luma.matrix.find(y:eq(3)):get(1, 1))
local clean = X:row(first3):reshape(8, 8):ge(8):kron(luma.ones(8, 8)) * 2 - 1
local rng = luma.random.Generator(2024)
local flips = rng:uniform(64, 64):lt(0.1)
local noisy = clean:mul(flips * -2 + 1)

local model = { beta = 1.0, eta = 2.1 }
local function error_of(x) return x:ne(clean):mean() end

local results = {}
local x_icm, icm = grid.icm(noisy, model)
results[#results + 1] = { "ICM", x_icm, icm.energy, string.format("%d sweeps", icm.n_sweeps) }
local _, bp = grid.bp(noisy, { beta = 1.0, eta = 2.1, damping = 0.5, max_iter = 200 })
results[#results + 1] = { "loopy BP", bp.map, bp.energy,
  string.format("%d iterations%s", bp.n_iter, bp.converged and "" or ", not converged") }
local x_cut, cut = grid.graphcut(noisy, model)
results[#results + 1] = { "graph cut", x_cut, cut.energy, "exact MAP" }

print(string.format("noisy image: %d of %d pixels flipped, pixel error %.4f, energy %.1f",
  math.tointeger(flips:sum()), 64 * 64, error_of(noisy), grid.energy(noisy, noisy, model)))
print(string.format("%-10s %10s %12s  %s", "method", "energy", "pixel error", ""))
for _, r in ipairs(results) do
  print(string.format("%-10s %10.1f %12.4f  %s", r[1], r[3], error_of(r[2]), r[4]))
end

local outdir = arg and arg[1]
if outdir then
  local plot = luma.plot
  local fig = plot.figure{ rows = 1, cols = 5, width = 1250, height = 300,
    title = "Binary image denoising with an MRF (beta = 1, eta = 2.1)" }
  local panels = { { "clean", clean }, { "noisy (10% flipped)", noisy } }
  for _, r in ipairs(results) do panels[#panels + 1] = { r[1], r[2] } end
  for i, p in ipairs(panels) do
    -- -1/+1 as the categories 1/2 of two colours
    fig:axes(1, i):heatmap(p[2]:add(3):div(2), { colors = { "#f0f0f0", "#1f3b73" } })
      :set{ title = p[1] }
  end
  fig:save(outdir .. "/pgm_denoise.svg")
  print("wrote " .. outdir .. "/pgm_denoise.svg")
end
