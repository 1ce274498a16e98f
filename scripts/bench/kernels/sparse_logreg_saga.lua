-- LogisticRegression (saga, l2, C = 1, tol 1e-4, max_iter 100) on a
-- sparse tf-idf-like matrix; best of 2 fits.  arg: rows, columns,
-- entries per row.  Data from a formula sparse_logreg_saga.py repeats
-- with NumPy (0-based e = 0 .. n per - 1): row floor(e / per), column
-- floor(cols g^2) with g the fractional part of 0.6180339887498949 e
-- (squared: low columns are frequent words), count 1 + e mod 3, each
-- row scaled to unit length; the label is 1 where the row's dot product
-- with w_j = ((7 j) mod 11) / 11 - 0.45 (0-based j) is above 0.  Prints
-- the time; the accuracy and a weight go to stderr.  SAGA samples at
-- random on both sides (different generators), so the fits are the same
-- problem solved to the same tolerance, not the same iterates.
-- SPDX-License-Identifier: MIT
local n, m, per = tonumber(arg[1]) or 100000, tonumber(arg[2]) or 100000, tonumber(arg[3]) or 20
local e = luma.arange(0, n * per - 1)
local a = e * 0.6180339887498949
local f = a - a:floor()
local S = luma.sparse.csr(n, m, (e / per):floor() + 1, (f:pow(2) * m):floor() + 1, e % 3 + 1)
S = S:multiply_rows(S:pow(2):sum(2):sqrt():pow(-1))
local j = luma.arange(0, m - 1):reshape(m, 1)
local w = (j * 7 % 11) / 11 - 0.45
local y = (S * w):gt(0)
local best, model = math.huge, nil
for _ = 1, 2 do
  local t0 = luma.now()
  model = luma.linear.LogisticRegression{ solver = "saga", seed = 1 }:fit(S, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("nnz %d epochs %d accuracy %.4f coef[1] %.6g\n", S:nnz(),
  model.n_iter, model:predict(S):eq(y):mean(), model.coef:get(1, 1)))
print("time " .. best)
