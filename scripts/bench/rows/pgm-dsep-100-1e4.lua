-- 10,000 d-separation queries on a random 100-node DAG (Bayes ball in C)
-- vs networkx 2.8's d_separated.  Issue 32 target: at most 0.2x networkx.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "d-separation, 10,000 random queries (|x| = |y| = 1, |z| = 3), 100-node DAG",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/pgm_dsep.lua" } },
  peer = {
    name = "networkx",
    argv = { env.python, env.dir .. "/kernels/pgm_dsep.py" },
    check = { env.python, "-c", "import networkx" },
  },
  target = { max_ratio = 0.2 },
}
