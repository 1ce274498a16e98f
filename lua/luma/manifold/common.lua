--- luma.manifold.common: the nearest-neighbour search the embeddings share
-- (t-SNE's sparse P, Isomap's and LLE's graphs); not a public API.
--
-- Squared distances from luma.pairwise, a block of rows at a time (at
-- most about 8 million distances in memory), and the k smallest of each
-- row by the native selection (luma.manifold.native.select).  The
-- neighbours family (luma.neighbors) will offer trees; brute force is
-- exact and, for the sizes these embeddings meet, fast.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.manifold.native")

local common = {}

--- common.neighbours(X, k [, Y]) -> idx (1-based), d2 (squared
-- distances), both n x k, ascending: the k nearest rows of X to each row
-- of Y, or to each row of X itself (the row itself left out) when Y is
-- nil.  With precomputed, X is the distance matrix (rows: the queries).
function common.neighbours(X, k, Y, precomputed)
  local queries = Y or X
  local n, m = queries:rows(), X:rows()
  if precomputed then m = X:cols() end
  local block = math.max(1, math.min(n, 8000000 // math.max(1, m)))
  local idx, dist = luma.zeros(n, k), luma.zeros(n, k)
  for r = 1, n, block do
    local r2 = math.min(n, r + block - 1)
    local D2
    if precomputed then
      D2 = queries:sub(r, r2, nil, nil):pow(2)
    else
      D2 = luma.pairwise.distances(queries:sub(r, r2, nil, nil), X, "sqeuclidean")
    end
    local bi, bd = native.select(D2, Y and 0 or r, k)
    idx:sub(r, r2, nil, nil):assign(bi)
    dist:sub(r, r2, nil, nil):assign(bd)
  end
  return idx, dist
end

return common
