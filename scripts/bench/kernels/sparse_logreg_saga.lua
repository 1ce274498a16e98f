-- LogisticRegression (saga, l2, C = 1, tol 1e-4, max_iter 100) on a
-- sparse tf-idf-like matrix (tfidf_data.lua; sparse_logreg_saga.py
-- builds the same with tfidf_data.py); best of 2 fits.  arg: rows,
-- columns, entries per row.  Prints the time; the accuracy and a weight
-- go to stderr.  SAGA samples at
-- random on both sides (different generators), so the fits are the same
-- problem solved to the same tolerance, not the same iterates.
-- SPDX-License-Identifier: MIT
local n, m, per = tonumber(arg[1]) or 100000, tonumber(arg[2]) or 100000, tonumber(arg[3]) or 20
local S, y = dofile(arg[0]:match("^(.*)/") .. "/tfidf_data.lua")(n, m, per)
local best, model = math.huge, nil
for _ = 1, 2 do
  local t0 = luma.now()
  model = luma.linear.LogisticRegression{ solver = "saga", seed = 1 }:fit(S, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("nnz %d epochs %d accuracy %.4f coef[1] %.6g\n", S:nnz(),
  model.n_iter, model:predict(S):eq(y):mean(), model.coef:get(1, 1)))
print("time " .. best)
