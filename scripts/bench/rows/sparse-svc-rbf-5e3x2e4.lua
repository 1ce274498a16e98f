-- SVC (rbf, gamma "scale") on a sparse 5,000 x 20,000 tf-idf-like matrix
-- (20 words a document), against scikit-learn's SVC (LIBSVM on sparse
-- rows) on the same data (target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "SVC rbf on sparse 5e3 x 2e4, 20 entries a row",
  kind = "internal",
  unit = "s",
  runs = 2,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_svc.lua" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/sparse_svc.py" },
    check = { env.python, "-c", "import sklearn.svm" },
  },
  target = { max_ratio = 1.0 },
}
