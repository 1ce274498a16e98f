-- Euclidean distances between the rows of a 5000 x 50 matrix and
-- themselves (a new 5000 x 5000 result per run, as scikit-learn allocates);
-- prints the best of 3 runs.  X[i][j] = sin(0.37 i + 0.71 j + 0.013 i j),
-- 1-based, the same formula as pairwise.py.
--   pairwise.lua [n [d [threads]]]   (threads: luma.config{threads = ...})
-- SPDX-License-Identifier: MIT
local n = tonumber(arg[1]) or 5000
local d = tonumber(arg[2]) or 50
if arg[3] then luma.config{ threads = math.tointeger(arg[3]) } end
local X = luma.zeros(n, d)
for i = 1, n do
  for j = 1, d do X:set(i, j, math.sin(0.37 * i + 0.71 * j + 0.013 * i * j)) end
end
local distances = luma.pairwise.distances
local best, D = math.huge, nil
for _ = 1, 3 do
  D = nil
  collectgarbage()
  local t0 = luma.now()
  D = distances(X, "euclidean")
  best = math.min(best, luma.now() - t0)
end
-- spot check against the direct sum of squares
local s = 0
for j = 1, d do s = s + (X:get(1, j) - X:get(2, j)) ^ 2 end
assert(math.abs(D:get(1, 2) - math.sqrt(s)) < 1e-9 and D:get(2, 1) == D:get(1, 2))
print("time " .. best)
