-- Start-up against the usual way to get the same ML toolbox in Python:
-- a script that needs scikit-learn pays this import before any work.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "luma -e '' against python3 -c 'import sklearn'",
  kind = "wall",
  unit = "ms",
  runs = 15,
  luma = { argv = { env.luma, "-e", "" } },
  peer = {
    name = "python3 + sklearn",
    argv = { env.python, "-c", "import sklearn" },
    -- Tells "sklearn is not installed" (skipped) from a failing run.
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max = 10 },
}
