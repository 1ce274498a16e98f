-- SVC (RBF, C = 1, gamma = 0.02, tol 1e-3, cache 100 MB) fit + predict on
-- a 20,000 x 50 two-class problem, one thread, against LIBSVM's svm-train +
-- svm-predict on the same file (scripts/bench/kernels/svm_data.lua), both
-- timed with reading the file; issue 17 target: luma/peer <= 1.0.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "SVC fit + predict, RBF (C = 1, gamma = 0.02, tol 1e-3, cache 100 MB), 20,000 x 50, 1 thread(s), reading the file included",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/svm.lua", env.build, "twoclass", "1" } },
  peer = {
    name = "svm-train + svm-predict",
    argv = { env.luma, env.dir .. "/kernels/svm_tools.lua", env.build, "twoclass" },
    check = { "sh", "-c", "command -v svm-train" },
  },
  target = { max_ratio = 1.0 },
}
