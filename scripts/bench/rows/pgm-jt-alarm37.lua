-- Junction-tree calibration and every posterior marginal of a 37-node
-- ALARM-sized belief network (synthetic CPTs, data/pgm/alarm37.net) with
-- evidence on two nodes, vs NumPy variable elimination (one einsum per
-- node; pgmpy is not installed).  Issue 32 target: under 10 ms.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "junction tree: build, calibrate, all 35 posterior marginals, 37-node ALARM-sized network",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/pgm_alarm37.lua", env.dir .. "/../../data/pgm/alarm37.net" } },
  peer = {
    name = "numpy-einsum-VE",
    argv = { env.python, env.dir .. "/kernels/pgm_alarm37.py", env.dir .. "/../../data/pgm/alarm37.net" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max = 10 },
}
