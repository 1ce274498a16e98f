-- Euclidean distances of 20,000 x 50 points with themselves (a 20,000 x
-- 20,000 result, 3.2 GB) with 2 threads against 1 thread
-- (luma.config{threads = n}, which also sets OpenBLAS's threads): issue 16
-- target at least 1.7x faster.  Needs two idle cores to mean anything.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "euclidean distances 20000 x 50 with themselves: 2 threads vs 1 thread",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/pairwise.lua", "20000", "50", "2" } },
  peer = {
    name = "luma 1 thread",
    argv = { env.luma, env.dir .. "/kernels/pairwise.lua", "20000", "50", "1" },
  },
  target = { max_ratio = 1 / 1.7 },
}
