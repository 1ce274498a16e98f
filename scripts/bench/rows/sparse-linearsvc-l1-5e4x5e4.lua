-- LinearSVC(penalty = "l1") on a sparse 50,000 x 50,000 tf-idf-like
-- matrix (20 words a document), against scikit-learn's LinearSVC
-- (LIBLINEAR's primal solver) on the same data (target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "LinearSVC l1 (primal CD) on sparse 5e4 x 5e4, 20 entries a row",
  kind = "internal",
  unit = "s",
  runs = 2,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_linearsvc_l1.lua" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/sparse_linearsvc_l1.py" },
    check = { env.python, "-c", "import sklearn.svm" },
  },
  target = { max_ratio = 1.0 },
}
