-- L-BFGS on the 100-D Rosenbrock with a Lua objective vs scipy.optimize's
-- L-BFGS-B with its Python objective (issue 6 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "L-BFGS, 100-D Rosenbrock, Lua objective vs SciPy L-BFGS-B with rosen/rosen_der",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/optim_rosenbrock.lua" } },
  peer = {
    name = "scipy",
    argv = { env.python, env.dir .. "/kernels/optim_rosenbrock.py" },
    check = { env.python, "-c", "import scipy.optimize" },
  },
  target = { max_ratio = 1.0 },
}
