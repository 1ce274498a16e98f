-- LinearSVC (penalty l1, squared hinge, primal, C = 1, tol 1e-4) on the
-- sparse tf-idf-like matrix of tfidf_data.lua (which
-- sparse_linearsvc_l1.py builds the same with tfidf_data.py); best of 2 fits.  arg: rows,
-- columns, entries per row.  Both sides run LIBLINEAR's primal
-- coordinate descent, each from its own random visiting order.  Prints
-- the time; the passes, the accuracy and the zero weights go to stderr.
-- SPDX-License-Identifier: MIT
local n, m, per = tonumber(arg[1]) or 50000, tonumber(arg[2]) or 50000, tonumber(arg[3]) or 20
local S, y = dofile(arg[0]:match("^(.*)/") .. "/tfidf_data.lua")(n, m, per)
local best, model = math.huge, nil
for _ = 1, 2 do
  local t0 = luma.now()
  model = luma.svm.LinearSVC{ penalty = "l1", dual = false, seed = 1 }:fit(S, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("passes %d accuracy %.4f zero weights %d\n", model.n_iter,
  model:predict(S):eq(y):mean(), model.coef:eq(0):sum()))
print("time " .. best)
