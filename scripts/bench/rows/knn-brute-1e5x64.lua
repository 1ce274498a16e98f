-- KNeighborsClassifier k = 5, fit + predict, 100,000 training x 10,000
-- query points in 64 dimensions by brute force (one dgemm per 512 x 512
-- panel, filtered, exact distances recomputed for the candidates), one
-- thread, against scikit-learn with n_jobs = 1 (issue 18 target:
-- luma/peer <= 1.0).  BLAS and OpenMP are held to one thread on both sides.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "KNeighborsClassifier k=5 fit + predict, 1e5 x 64 train, 1e4 queries, brute, 1 thread",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/knn.lua", "64", "brute", "1" } },
  peer = {
    name = "scikit-learn n_jobs=1",
    argv = { env.python, env.dir .. "/kernels/knn.py", "64", "brute", "1" },
    env = { OMP_NUM_THREADS = "1", OPENBLAS_NUM_THREADS = "1" },
    check = { env.python, "-c", "import sklearn.neighbors" },
  },
  target = { max_ratio = 1.0 },
}
