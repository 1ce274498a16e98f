-- CSR x dense at issue 33's size: a 1,000,000 x 100,000 CSR matrix with
-- 10,000,000 entries times a 100,000 x 64 dense matrix (a 512 MB result),
-- against scipy.sparse (csr @ ndarray) on the same data, best of 3 each
-- (target: luma/peer <= 1.0).  About 2 GB per side while the data are
-- built.
-- SPDX-License-Identifier: MIT
local env = ...

local ARGS = { "1000000", "100000", "10", "64", "3" }

return {
  about = "CSR 1e6 x 1e5 (1e7 entries) times dense 1e5 x 64",
  kind = "internal",
  unit = "ms",
  runs = 2,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_matmul.lua", table.unpack(ARGS) } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/sparse_matmul.py", table.unpack(ARGS) },
    check = { env.python, "-c", "import scipy" },
  },
  target = { max_ratio = 1.0 },
}
