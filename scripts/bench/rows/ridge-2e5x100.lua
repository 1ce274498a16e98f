-- Ridge (alpha = 1) fit, 200,000 x 100, against scikit-learn on the same data (issue 7 target:
-- luma/peer <= 1.0).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "Ridge (alpha = 1) fit, 200,000 x 100",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/linear_fit.lua", "ridge", "200000", "100" } },
  peer = {
    name = "scikit-learn",
    argv = { env.python, env.dir .. "/kernels/linear_fit.py", "ridge", "200000", "100" },
    check = { env.python, "-c", "import sklearn.linear_model" },
  },
  target = { max_ratio = 1.0 },
}
