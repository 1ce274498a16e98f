-- Kalman filter + RTS smoother, 100,000 steps, state 4 / observation 2, vs statsmodels' KalmanSmoother (issue 23 target: luma/peer <= 1).
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "Kalman filter + RTS smoother (with lag-one cross-covariances), 100,000 steps, state 4, observation 2",
  kind = "internal",
  unit = "ms",
  runs = 5,
  luma = { argv = { env.luma, env.dir .. "/kernels/kalman_smooth.lua" } },
  peer = {
    name = "statsmodels",
    argv = { env.python, env.dir .. "/kernels/kalman_smooth.py" },
    check = { env.python, "-c", "import statsmodels" },
  },
  target = { max_ratio = 1.0 },
}
