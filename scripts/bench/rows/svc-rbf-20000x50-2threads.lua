-- The same SVC fit + predict as svc-rbf-20000x50 with two threads (kernel
-- rows computed in parallel; results identical to one thread) against
-- single-threaded svm-train + svm-predict; issue 17 target: luma/peer <= 0.6.
-- Needs two idle cores to mean anything.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "SVC fit + predict, RBF (C = 1, gamma = 0.02, tol 1e-3, cache 100 MB), 20,000 x 50, 2 thread(s), reading the file included",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/svm.lua", env.build, "twoclass", "2" } },
  peer = {
    name = "svm-train + svm-predict",
    argv = { env.luma, env.dir .. "/kernels/svm_tools.lua", env.build, "twoclass" },
    check = { "sh", "-c", "command -v svm-train" },
  },
  target = { max_ratio = 0.6 },
}
