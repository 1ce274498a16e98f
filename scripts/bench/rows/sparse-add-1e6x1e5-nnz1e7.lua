-- Sparse + sparse: two 1,000,000 x 100,000 CSR matrices with 10^7
-- entries each, added, against scipy.sparse (csr + csr) on the same data,
-- best of 3 each (target: luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "CSR + CSR, 1e6 x 1e5 with 1e7 entries each",
  kind = "internal",
  unit = "ms",
  runs = 2,
  luma = { argv = { env.luma, env.dir .. "/kernels/sparse_add.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/sparse_add.py" },
    check = { env.python, "-c", "import scipy" },
  },
  target = { max_ratio = 1.0 },
}
