-- LinearSVC (L2-loss dual coordinate descent, C = 0.1, tol 0.1) fit on
-- 100,000 x 100 against LIBLINEAR's train -s 1 -B 1 on the same file, both
-- timed with reading it; issue 17 target: luma/peer <= 1.0.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "LinearSVC fit (L2-loss dual coordinate descent, C = 0.1, tol 0.1), 100,000 x 100, reading the file included",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/svm.lua", env.build, "linear", "1" } },
  peer = {
    name = "liblinear train",
    argv = { env.luma, env.dir .. "/kernels/svm_tools.lua", env.build, "linear" },
    check = { "sh", "-c", "command -v liblinear-train" },
  },
  target = { max_ratio = 1.0 },
}
