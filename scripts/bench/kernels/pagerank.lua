-- PageRank on a random directed graph of 100,000 nodes and 1,000,000
-- edges given as an edge list, to an L1 change below 1e-10 (damping
-- 0.85); the time includes building the sparse graph from the list; best
-- of 3.  The edges come from a formula pagerank.py repeats with NumPy
-- (0-based e): from = floor(e / 10) (out-degree 10), to = floor(n f^2)
-- with f the fractional part of 0.6180339887498949 e (golden-ratio
-- hashing, squared to skew the in-degrees), plus 1: the same IEEE
-- operations on both sides.  Prints the time; the iterations and the
-- largest score go to stderr.
-- SPDX-License-Identifier: MIT
local n, m = 100000, 1000000
local e = luma.arange(0, m - 1)
local a = e * 0.6180339887498949
local f = a - a:floor()
local to = (f:pow(2) * n):floor() + 1
local from = (e / 10):floor() + 1
local E = luma.matrix.hstack{ from, to }
local best, x, info = math.huge, nil, nil
for _ = 1, 3 do
  local t0 = luma.now()
  x, info = luma.markov.pagerank(E, { input = "edges", n_nodes = n, tol = 1e-10 })
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("n_iter %d max %.12g\n", info.n_iter, x:max()))
print("time " .. best)
