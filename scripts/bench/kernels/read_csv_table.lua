-- Reads a 100,000 x 23 CSV (20 numeric columns as in read_csv.lua, then
-- city, grade and code text columns; written once into build/ by this
-- script) into a luma.Table; prints the best of 3 runs.
-- SPDX-License-Identifier: MIT
local path = (arg[1] or "build") .. "/bench-100000x23.csv"
local f = io.open(path, "rb")
if f then
  f:close()
else
  -- x[i][j] = sin(i * 0.001 * j) * 100 (17 significant digits); city, grade
  -- and code cycle through 5, 3 and 100 labels
  local i = luma.arange(100000)
  local X = (i * luma.arange(20):t() * 0.001):sin() * 100
  local cols, order = {}, {}
  for j = 1, 20 do
    order[j] = "c" .. j
    cols[order[j]] = X:col(j)
  end
  local cities = { "Paris", "Lyon", "Marseille", "Toulouse", "Nice" }
  local grades = { "low", "mid", "high" }
  local city, grade, code = {}, {}, {}
  for r = 1, 100000 do
    city[r] = cities[r % 5 + 1]
    grade[r] = grades[r * 7 % 3 + 1]
    code[r] = "k" .. r * 13 % 100
  end
  cols.city, cols.grade, cols.code = city, grade, code
  order[21], order[22], order[23] = "city", "grade", "code"
  luma.io.write_csv(luma.Table(cols, { columns = order }), path)
end
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  local T = luma.io.read_csv(path)
  best = math.min(best, luma.now() - t0)
  assert(T:nrows() == 100000 and T:ncols() == 23 and #T.code.categories == 100)
end
print("time " .. best)
