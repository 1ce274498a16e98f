-- Distance evaluations per query of a metric-space index: the nearest
-- neighbour of 200 queries among 10,000 points in [0, 1)^6 under the
-- Manhattan metric, through AESA, linear AESA (16 buoys) or the brute
-- force (which evaluates all N).  Prints the mean as the "time" line the
-- bench runner reads: the row's numbers are evaluations per query, not
-- seconds.  Points are a Kronecker sequence, x[i][j] = frac(i sqrt(j + 1)).
--   aesa_evals.lua algorithm
-- SPDX-License-Identifier: MIT
local algorithm = arg[1] or "aesa"
local n, m, d = 10000, 200, 6

local function points(first, count)
  local i = luma.arange(first, first + count - 1)
  local x = i * luma.arange(1, d):t():add(1):sqrt()
  return x - x:floor()
end

local X, Q = points(1, n), points(n + 1, m)
local index = luma.neighbors.index(X, { algorithm = algorithm, metric = "manhattan" })
local dist, _, evals = index:query(Q, 1)
local brute = luma.neighbors.index(X, { algorithm = "brute", metric = "manhattan" })
assert((brute:query(Q, 1) - dist):abs():max() == 0)
print("time " .. evals:mean())
