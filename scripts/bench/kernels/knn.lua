-- KNeighborsClassifier{n_neighbors = 5}: fit on 100,000 points, predict
-- 10,000 others; prints the best of 3 runs (fit + predict).
--   knn.lua d algorithm threads
-- Points are rows of a Kronecker sequence, x[i][j] = frac(i sqrt(j + 1))
-- (1-based i, j; training rows i = 1..100000, queries the next 10,000),
-- uniform in the unit cube; the label is floor(4 frac(x[i][1] + x[i][2])).
-- knn.py computes the same data.
-- SPDX-License-Identifier: MIT
local d = math.tointeger(tonumber(arg[1])) or 3
local algorithm = arg[2] or "kd_tree"
luma.config{ threads = math.tointeger(tonumber(arg[3])) or 1 }
local n, m = 100000, 10000

local function points(first, count)
  local i = luma.arange(first, first + count - 1)
  local a = luma.arange(1, d):t():add(1):sqrt()
  local x = i * a
  return x - x:floor()
end

local function labels(x)
  local s = x:col(1) + x:col(2)
  return (s - s:floor()):mul(4):floor()
end

local X, Q = points(1, n), points(n + 1, m)
local y = labels(X)
local best, pred = math.huge, nil
for _ = 1, 3 do
  pred = nil
  collectgarbage()
  local t0 = luma.now()
  local model = luma.neighbors.KNeighborsClassifier{ n_neighbors = 5, algorithm = algorithm }
  pred = model:fit(X, y):predict(Q)
  best = math.min(best, luma.now() - t0)
  assert(model.effective_algorithm == algorithm)
end
-- the labels of the queries are a smooth function of two coordinates:
-- in 3 dimensions the vote gets most of them right
if d <= 3 then assert(pred:eq(labels(Q)):mean() > 0.9) end
print("time " .. best)
