-- Kalman filter + RTS smoother (with the lag-one cross-covariances) over
-- 100,000 steps, state 4 / observation 2 (luma.lds.KalmanFilter:smooth);
-- best of 3.  The model and the data repeat kalman_smooth.py exactly:
-- a damped two-dimensional constant-velocity model observed in position,
-- X[t][j] = sin(0.01 t + j) + 0.3 cos(0.37 t + 1.3 j) (0-based t, j).
-- SPDX-License-Identifier: MIT
local n = 100000
local A = luma.matrix{ { 1, 0, 1, 0 }, { 0, 1, 0, 1 }, { 0, 0, 0.95, 0 }, { 0, 0, 0, 0.95 } }
local Q = luma.eye(4) * 0.01 + luma.ones(4, 4) * 0.001
local C = luma.matrix{ { 1, 0, 0, 0 }, { 0, 1, 0, 0 } }
local R = luma.matrix{ { 0.2, 0.05 }, { 0.05, 0.3 } }
local t = luma.arange(0, n - 1)
local j = luma.arange(0, 1):t()
local X = (t * 0.01 + j):sin() + (t * 0.37 + j * 1.3):cos() * 0.3
local kf = luma.lds.KalmanFilter{ transition_matrix = A, transition_covariance = Q,
  observation_matrix = C, observation_covariance = R, initial_state_mean = luma.zeros(4, 1),
  initial_state_covariance = luma.eye(4) }
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  local means = kf:smooth(X)
  best = math.min(best, luma.now() - t0)
  assert(means:rows() == n)
end
print("time " .. best)
