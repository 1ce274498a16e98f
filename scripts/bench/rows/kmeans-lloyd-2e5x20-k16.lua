-- KMeans (lloyd, k = 16, n_init = 1, same initial centres) fit on 200,000 x 20 vs scikit-learn (issue 35 target: luma/peer <= 0.7;
-- issue 20 asked 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "KMeans fit, algorithm = \"lloyd\", k = 16, n_init = 1, 200,000 rows x 20 features, same initial centres",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/kmeans_fit.lua", "lloyd" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/kmeans_fit.py", "lloyd" },
    check = { env.python, "-c", "import sklearn" },
  },
  -- Lloyd's iterations (src/ml/cluster/kmeans.c, lloyd_chunk): each
  -- iteration's distances are the products of X (n = 2e5, d = 20) with the
  -- k = 16 centres (src/ml/core/smalldots.c, as a dgemm would count them), 2 n k d = 1.28e8 flops; the fit takes 70 iterations
  -- (both sides; the kernel prints n_iter) plus a last labelling pass: 71
  -- products, 9.1e9 flops.  Counted as flops, not bytes: X is 32 MB, one
  -- pass per iteration, and stays in a large last-level cache.
  limit = { kind = "flops", flops = 71 * 2 * 2e5 * 16 * 20 },
  target = { max_ratio = 0.7 },
}
