-- 10^5 each of add, product, get/set on 3 x 3, against NumPy on the same data (issue 35 target: luma/peer <= 0.3; issue 3's was 0.5).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "10^5 each of add, product, get/set on 3 x 3",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/small.lua" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/small.py" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max_ratio = 0.3 },
}
