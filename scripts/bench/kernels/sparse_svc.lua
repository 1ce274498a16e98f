-- SVC (rbf, C = 1, gamma "scale") on a sparse tf-idf-like matrix: the
-- formula of sparse_logreg_saga.lua at 5,000 x 20,000 with 20 words a
-- document (sparse_svc.py repeats it with NumPy); best of 2 fits.  Prints
-- the time; the support vectors and the training accuracy go to stderr.
-- SPDX-License-Identifier: MIT
local n, m, per = 5000, 20000, 20
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
  model = luma.svm.SVC{}:fit(S, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("support vectors %d accuracy %.4f\n", model.support:rows(),
  model:predict(S):eq(y):mean()))
print("time " .. best)
