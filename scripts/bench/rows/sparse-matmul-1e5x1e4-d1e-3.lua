-- Sparse x dense product: a 100,000 x 10,000 CSR matrix of density 1e-3
-- times a 10,000 x 64 dense matrix, vs scipy.sparse (csr @ ndarray) on
-- the same data (issue 33).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "CSR 1e5 x 1e4 (density 1e-3) times dense 1e4 x 64",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_matmul.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/sparse_matmul.py" },
    check = { env.python, "-c", "import scipy" },
  },
}
