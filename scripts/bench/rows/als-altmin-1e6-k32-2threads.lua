-- The AltMin iteration of als-altmin-1e6-k32 on two threads against
-- itself on one (issue 33: two threads at least 1.7x faster, a ratio of
-- at most 0.59).  Needs two idle cores to mean anything.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "AltMin iteration, 1e6 ratings, k = 32, 2 threads vs 1",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/als.lua", "2" } },
  peer = {
    name = "luma 1 thread",
    argv = { env.luma, env.dir .. "/kernels/als.lua", "1" },
  },
  target = { max_ratio = 0.59 },
}
