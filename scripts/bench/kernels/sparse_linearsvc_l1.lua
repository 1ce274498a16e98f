-- LinearSVC (penalty l1, squared hinge, primal, C = 1, tol 1e-4) on the
-- sparse tf-idf-like matrix of sparse_logreg_saga.lua (its formula, which
-- sparse_linearsvc_l1.py repeats with NumPy); best of 2 fits.  arg: rows,
-- columns, entries per row.  Both sides run LIBLINEAR's primal
-- coordinate descent, each from its own random visiting order.  Prints
-- the time; the passes, the accuracy and the zero weights go to stderr.
-- SPDX-License-Identifier: MIT
local n, m, per = tonumber(arg[1]) or 50000, tonumber(arg[2]) or 50000, tonumber(arg[3]) or 20
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
  model = luma.svm.LinearSVC{ penalty = "l1", dual = false, seed = 1 }:fit(S, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("passes %d accuracy %.4f zero weights %d\n", model.n_iter,
  model:predict(S):eq(y):mean(), model.coef:eq(0):sum()))
print("time " .. best)
