-- One AltMin iteration (the users' half-sweep, then the items'), k = 32,
-- reg = 0.1, on 1,000,000 ratings of 20,000 users x 5,000 items; prints
-- the best of 3.   als.lua threads
-- Rating e (0-based) is user floor(e / 50) (50 each), item floor(5000
-- frac(0.6180339887498949 e)^2) (golden-ratio hashing, squared to skew
-- the popularity), value 1 + floor(5 frac(0.7548776662466927 e)); a
-- (user, item) pair met again keeps the sum (both sides build the matrix
-- the same way).  The starting item factors are V[j][f] = frac(0.01 (j +
-- 1) (f + 1) sqrt 2) - 0.5 (0-based j, f).  als.py computes the same.
-- SPDX-License-Identifier: MIT
luma.config{ threads = math.tointeger(tonumber(arg[1])) or 1 }
local native = require("luma.recommend.native")
local n_users, n_items, m, k = 20000, 5000, 1000000, 32
local e = luma.arange(0, m - 1)
local function frac(x) return x - x:floor() end
local users = (e / 50):floor() + 1
local items = (frac(e * 0.6180339887498949):pow(2) * n_items):floor() + 1
local values = (frac(e * 0.7548776662466927) * 5):floor() + 1
local R = luma.sparse.csr(n_users, n_items, users, items, values)
local Rt = R:t()
local j = luma.arange(1, n_items)
local f = luma.arange(1, k):t()
local V0 = frac((j * f) * (0.01 * math.sqrt(2))) - 0.5
local best, U, V = math.huge, nil, nil
for _ = 1, 3 do
  U, V = luma.zeros(n_users, k), V0:copy()
  local t0 = luma.now()
  native.als_sweep(R, V, U, 0.1)
  native.als_sweep(Rt, U, V, 0.1)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("nnz %d objective %.12g\n", R:nnz(),
  native.als_objective(R, U, V, 0.1)))
print("time " .. best)
