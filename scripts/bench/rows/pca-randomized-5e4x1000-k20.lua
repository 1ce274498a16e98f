-- PCA (svd_solver "randomized", 20 components) fit on 50,000 x 1,000 vs scikit-learn (issue 35 target: luma/peer <= 0.5;
-- issue 21 asked 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "PCA fit, randomized solver, k = 20, 50,000 rows x 1,000 features",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/pca_fit.lua", "randomized" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/pca_fit.py", "randomized" },
    check = { env.python, "-c", "import sklearn" },
  },
  -- PCA fit, randomized (lua/luma/decomposition/pca.lua and common.lua):
  -- X is 5e4 x 1000 float64 = 4e8 bytes, read once per pass, and the
  -- small products (n x 30 blocks, Q, the QR) stay in cache.  Passes:
  -- check_finite's X:sum() 1, column_means (a gemv) 1, the 7 power
  -- iterations 7 (native.range_pass, src/ml/decomposition/range_pass.c,
  -- reads each 1 MB block of X once for A Q and A^T (A Q), and the first
  -- also for |A|_F^2; the products by src/ml/core/narrow.c, which reads
  -- the block in place where BLAS packed it twice), the final fused pass 1:
  -- 10 passes, 4e9 bytes (scikit-learn's randomized_svd reads X twice
  -- per power iteration, and centres a copy of it first).
  limit = { kind = "bandwidth", bytes = 10 * 5e4 * 1000 * 8 },
  target = { max_ratio = 0.5 },
}
