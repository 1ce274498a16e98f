-- L-BFGS on the native logistic loss (100,000 x 50) vs SciPy's L-BFGS-B on
-- the same loss written in NumPy (issue 6 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "L-BFGS, native logistic loss 1e5 x 50 vs SciPy L-BFGS-B with a NumPy loss",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/optim_logistic.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/optim_logistic.py" },
    check = { env.python, "-c", "import scipy.optimize" },
  },
  target = { max_ratio = 1.0 },
}
