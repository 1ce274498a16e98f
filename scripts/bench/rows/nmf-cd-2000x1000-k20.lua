-- NMF (coordinate descent, k = 20) fit on 2,000 x 1,000 non-negative data, 200 iterations, vs scikit-learn (issue 21 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "NMF fit, cd solver, k = 20, 2,000 x 1,000, 200 iterations",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/nmf_fit.lua" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/nmf_fit.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  -- NMF cd fit (lua/luma/decomposition/nmf.lua): per iteration two dgemm
  -- with X (n = 2000, d = 1000, k = 20), X H^T and X^T W, 2 n d k flops
  -- each: 200 x 2 x 8e7 = 3.2e10.  The nndsvda start's randomized SVD
  -- (common.randomized_svd: 7 + 1 fused passes, each two products of X
  -- with a 30-column block, 2 x 1.2e8 flops) adds 1.9e9.  The Gram
  -- matrices (H H^T, W^T W) and the sweeps, under 5e6 flops an
  -- iteration, are left out.
  limit = { kind = "flops",
    flops = 200 * 2 * (2 * 2000 * 1000 * 20) + 8 * 2 * (2 * 2000 * 1000 * 30) },
  target = { max_ratio = 1.0 },
}
