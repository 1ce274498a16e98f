-- TSNE (Barnes-Hut, 1,000 iterations) on digits (1,797 x 64) vs scikit-learn (issue 21 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "TSNE fit, Barnes-Hut, perplexity 30, 1,000 iterations, digits 1,797 x 64",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/tsne_fit.lua" } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/tsne_fit.py" },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 1.0 },
}
