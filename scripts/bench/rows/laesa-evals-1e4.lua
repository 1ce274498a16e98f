-- Distance evaluations per query of linear AESA (16 buoys) for the
-- nearest neighbour among 10,000 points (Manhattan metric, 6 dimensions),
-- next to the brute force's N = 10,000 (issue 18).  The numbers are evaluations, not
-- seconds: the kernel prints them on the runner's "time" line, so the
-- unit column reads s.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "laesa: distance evaluations per query, 1e4 points (manhattan, 6-D), vs brute force's N",
  kind = "internal",
  unit = "s",
  runs = 1,
  luma = { argv = { env.luma, env.dir .. "/kernels/aesa_evals.lua", "laesa" } },
  peer = {
    name = "brute force (N)",
    argv = { env.luma, env.dir .. "/kernels/aesa_evals.lua", "brute" },
  },
}
