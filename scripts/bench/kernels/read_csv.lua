-- Reads a 100,000 x 20 numeric CSV (written once into build/ by this
-- script, with the same formula as read_csv.py); prints the best of 3 runs.
-- SPDX-License-Identifier: MIT
local path = (arg[1] or "build") .. "/bench-100000x20.csv"
local f = io.open(path, "rb")
if f then
  f:close()
else
  -- x[i][j] = sin(i * 0.001 * j) * 100, written with 17 significant digits
  local i = luma.arange(100000)
  local X = (i * luma.arange(20):t() * 0.001):sin() * 100
  luma.io.write_csv(X, path, { header = (function()
    local h = {}
    for j = 1, 20 do h[j] = "c" .. j end
    return h
  end)() })
end
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  local X = luma.io.read_csv(path, { as = "matrix" })
  best = math.min(best, luma.now() - t0)
  assert(X:rows() == 100000 and X:cols() == 20)
end
print("time " .. best)
