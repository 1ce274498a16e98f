-- The KD-tree row with two threads against scikit-learn with n_jobs = 2
-- (issue 18 asks for the ratio, no target).  Needs two idle cores to mean
-- anything.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "KNeighborsClassifier k=5 fit + predict, 1e5 x 3 train, 1e4 queries, kd_tree, 2 threads",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/knn.lua", "3", "kd_tree", "2" } },
  peer = {
    name = "scikit-learn n_jobs=2",
    argv = { env.python, env.dir .. "/kernels/knn.py", "3", "kd_tree", "2" },
    env = { OPENBLAS_NUM_THREADS = "1" },
    check = { env.python, "-c", "import sklearn.neighbors" },
  },
}
