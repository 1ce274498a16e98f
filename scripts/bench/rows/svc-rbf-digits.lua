-- SVC (RBF, C = 10, gamma = 0.001, tol 1e-3) fit + predict on digits
-- (1,797 x 64, 10 classes, 45 one-vs-one machines) against LIBSVM's
-- svm-train + svm-predict on the same file, both timed with reading it;
-- issue 17 target: luma/peer <= 1.0.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "SVC fit + predict, RBF (C = 10, gamma = 0.001, tol 1e-3), digits 1,797 x 64, 10 classes one-vs-one, reading the file included",
  kind = "internal",
  unit = "s",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/svm.lua", env.build, "digits", "1" } },
  peer = {
    name = "svm-train + svm-predict",
    argv = { env.luma, env.dir .. "/kernels/svm_tools.lua", env.build, "digits" },
    check = { "sh", "-c", "command -v svm-train" },
  },
  target = { max_ratio = 1.0 },
}
