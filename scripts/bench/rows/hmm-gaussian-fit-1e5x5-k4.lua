-- GaussianHMM (diagonal covariances, 4 states) fit on 100,000 x 5, same
-- initialization, 20 Baum-Welch iterations, vs a pure-NumPy Baum-Welch
-- (hmmlearn is not packaged by Debian; the peer times 2 iterations and
-- reports 10 times that, see kernels/hmm_fit.py).  Issue 23 target:
-- luma/peer <= 1.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "GaussianHMM fit, diag covariances, 4 states, 100,000 x 5, 20 EM iterations "
    .. "(peer: NumPy forward-backward, 2 iterations x 10)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/hmm_fit.lua" } },
  peer = {
    name = "numpy-fb",
    argv = { env.python, env.dir .. "/kernels/hmm_fit.py" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max_ratio = 1.0 },
}
