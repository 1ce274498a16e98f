-- element-wise exp of 10^7 elements into out, against NumPy on the same data (issue 3 target: luma/peer <= 1.2).
local env = ...

return {
  about = "element-wise exp of 10^7 elements into out",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/elementwise.lua", "exp" } },
  peer = {
    name = "numpy",
    argv = { env.python, env.dir .. "/kernels/elementwise.py", "exp" },
    check = { env.python, "-c", "import numpy" },
  },
  target = { max_ratio = 1.2 },
}
