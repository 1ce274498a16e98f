-- PageRank on a random graph of 100,000 nodes and 1,000,000 edges (edge
-- list input) to an L1 change below 1e-10, vs SciPy sparse power
-- iteration (networkx's algorithm).  Issue 23 target: under 1 s.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "PageRank, 100,000 nodes, 1,000,000 edges from an edge list, tol 1e-10 (L1)",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/pagerank.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/pagerank.py" },
    check = { env.python, "-c", "import scipy" },
  },
  target = { max = 1000 },
}
