-- One MLP epoch (Adam, batch 128, 64-256-256-10 on 50,000 x 64) with
-- data_parallel under `mpirun -np 2` (each rank one shard of every batch,
-- one BLAS thread each) against one process alone with its default
-- threads (issue 30 target: at least 1.6x faster, luma/peer <= 1/1.6).
-- Needs Open MPI and two idle cores; the kernel times the fits only.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "MLP epoch with data_parallel: mpirun -np 2 vs one process",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = {
    argv = { "mpirun", "-np", "2", env.luma, env.dir .. "/kernels/mlp_epoch.lua", "parallel" },
    env = { OMPI_ALLOW_RUN_AS_ROOT = "1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = "1" },
  },
  peer = {
    name = "luma, one process",
    argv = { env.luma, env.dir .. "/kernels/mlp_epoch.lua" },
  },
  target = { max_ratio = 1 / 1.6 },
}
