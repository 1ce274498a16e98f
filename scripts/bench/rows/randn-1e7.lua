-- 10^7 normal draws into a new matrix, against NumPy's default generator (issue 4 target: luma/peer <= 1).
local env = ...

return {
  about = "10^7 standard normal draws (xoshiro256** + ziggurat vs NumPy's PCG64 + ziggurat)",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/randn.lua" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/randn.py" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max_ratio = 1.0 },
}
