-- The same grid search with the mpi backend under `mpirun --oversubscribe
-- -np 3` (rank 0 hands out the fits, two ranks run them) against one
-- process with n_jobs = 1 (issue 16 target: at least 1.6x faster,
-- luma/peer <= 1/1.6).  Needs Open MPI (scripts/setup-deps) and two idle
-- cores to mean anything; the kernel times the searches only, not mpirun's
-- start-up.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "grid search 20 x 5 logistic regression on breast_cancer: mpirun -np 3 (2 workers) "
    .. "vs n_jobs = 1",
  kind = "internal",
  unit = "ms",
  runs = 7,
  luma = {
    argv = { "mpirun", "--oversubscribe", "-np", "3", env.luma,
      env.dir .. "/kernels/gridsearch_logreg.lua", "mpi" },
    env = { OMPI_ALLOW_RUN_AS_ROOT = "1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = "1" },
  },
  peer = {
    name = "luma n_jobs = 1",
    argv = { env.luma, env.dir .. "/kernels/gridsearch_logreg.lua", "1" },
  },
  target = { max_ratio = 1 / 1.6 },
}
