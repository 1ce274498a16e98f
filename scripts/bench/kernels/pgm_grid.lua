-- The grid MRF rows (issue 32): graph-cut MAP on a 512 x 512 binary
-- image (`graphcut`) or 50 iterations of sum-product loopy belief
-- propagation on a 256 x 256 one (`bp`), the denoising MRF with beta = 1,
-- eta = 2.1 (Bishop's values).  The noisy image comes from a formula
-- pgm_grid.py repeats with NumPy: pixel k = r W + c (0-based) of the clean
-- image is +1 inside a disc of radius 0.35 W and in 32-pixel stripes,
-- and is flipped where the fractional part of 0.6180339887498949 k^2 is
-- below 0.1 (10% noise; the same IEEE products on both sides).  Times the
-- inference alone (graph construction included for the cut), best of 3;
-- prints the time, and the energy (cut) or the mean belief (bp) to stderr.
--   build/luma scripts/bench/kernels/pgm_grid.lua graphcut|bp
-- SPDX-License-Identifier: MIT
local grid = require("luma.pgm.grid")
local which = ... or arg and arg[1] or "graphcut"
local n = which == "bp" and 256 or 512

local k = luma.arange(0, n * n - 1):reshape(n, n)
local r = (k / n):floor()
local c = k - r * n
local dr, dc = r - n / 2, c - n / 2
local disc = (dr:mul(dr) + dc:mul(dc)):lt((0.35 * n) ^ 2)
local stripes = (c / 32):floor():mod(2)
local clean = (disc + stripes):mod(2) * 2 - 1
local a = k:mul(k) * 0.6180339887498949
local flip = (a - a:floor()):lt(0.1)
local y = clean:mul(flip * -2 + 1)

local best, detail = math.huge, nil
for _ = 1, 3 do
  local t0 = luma.now()
  if which == "bp" then
    local marg = grid.bp(y, { beta = 1, eta = 2.1, tol = 0, max_iter = 50 })
    detail = string.format("mean belief %.12g", marg:mean())
  else
    local _, info = grid.graphcut(y, { beta = 1, eta = 2.1 })
    detail = string.format("energy %.12g flow %.12g", info.energy, info.flow)
  end
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(detail, "\n")
print("time " .. best)
