-- SVC (rbf, C = 1, gamma "scale") on the sparse tf-idf-like matrix of
-- tfidf_data.lua at 5,000 x 20,000 with 20 words a document (sparse_svc.py
-- builds the same with tfidf_data.py); best of 2 fits.  Prints
-- the time; the support vectors and the training accuracy go to stderr.
-- SPDX-License-Identifier: MIT
local n, m, per = 5000, 20000, 20
local S, y = dofile(arg[0]:match("^(.*)/") .. "/tfidf_data.lua")(n, m, per)
local best, model = math.huge, nil
for _ = 1, 2 do
  local t0 = luma.now()
  model = luma.svm.SVC{}:fit(S, y)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("support vectors %d accuracy %.4f\n", model.support:rows(),
  model:predict(S):eq(y):mean()))
print("time " .. best)
