-- Sparse LogisticRegression by SAGA (l2, C = 1, tol 1e-4) on a 100,000 x
-- 100,000 tf-idf-like matrix (20 words a document, unit rows), against
-- scikit-learn's saga on the same data (issue 33 target: luma/peer <=
-- 1.0).  Both sample at random with their own generators: the same
-- problem to the same tolerance.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "LogisticRegression saga, sparse tf-idf-like 1e5 x 1e5 (2e6 entries)",
  kind = "internal",
  unit = "ms",
  runs = 2,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_logreg_saga.lua" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/sparse_logreg_saga.py" },
    check = { env.python, "-c", "import sklearn.linear_model" },
  },
  target = { max_ratio = 1.0 },
}
