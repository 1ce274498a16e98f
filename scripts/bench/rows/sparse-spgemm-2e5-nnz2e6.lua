-- Sparse x sparse: two 200,000 x 200,000 CSR matrices with 2 x 10^6
-- entries each (a product of 2 x 10^7 entries), against scipy.sparse
-- (csr @ csr, one thread; its rows come out unsorted, Luma's sorted) on
-- the same data, best of 3 each (target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "CSR x CSR, 2e5 x 2e5 with 2e6 entries each",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_spgemm.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/sparse_spgemm.py" },
    check = { env.python, "-c", "import scipy" },
  },
  target = { max_ratio = 1.0 },
}
