-- Tracking a moving target with the Kalman filter and the RTS smoother
-- (luma.lds.KalmanFilter; Bishop, Pattern Recognition and Machine
-- Learning, sec. 13.3).
--
-- A target moves in the plane with a nearly constant velocity: the state
-- is (x, y, vx, vy), each step z_t = A z_{t-1} + w_t with A the
-- constant-velocity transition (dt = 1) and w_t the piecewise-constant
-- white-noise acceleration (q = 0.05).  A sensor reports the position with
-- noise of standard deviation 2, and drops 10% of the reports (rows of
-- NaN: the filter skips their update).  Printed: the position RMSE of the
-- raw reports, of the filtered estimates and of the smoothed ones (the
-- smoother uses the whole track, so it is the most accurate), the mean
-- smoothed position standard deviation, and the noise variances that EM
-- learns back from the reports alone.  Given OUTDIR, also draws the track,
-- the reports and the smoothed estimate into OUTDIR/kalman_tracking.svg.
--
--   luma scripts/examples/kalman_tracking.lua [SEED = 7 [OUTDIR]]
-- gallery-args: 7 OUTDIR
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local SEED = math.tointeger(tonumber(arg and arg[1])) or 7
local N, SD, Q_ACC = 200, 2.0, 0.05

local A = luma.matrix{ { 1, 0, 1, 0 }, { 0, 1, 0, 1 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } }
-- discrete white-noise acceleration: G G^T q with G = (1/2, 1/2, 1, 1) per axis
local Q = luma.matrix{ { 0.25, 0, 0.5, 0 }, { 0, 0.25, 0, 0.5 }, { 0.5, 0, 1, 0 }, { 0, 0.5, 0, 1 } } * Q_ACC
local C = luma.matrix{ { 1, 0, 0, 0 }, { 0, 1, 0, 0 } }
local R = luma.eye(2) * SD ^ 2
local truth = luma.lds.KalmanFilter{ transition_matrix = A, transition_covariance = Q,
  observation_matrix = C, observation_covariance = R,
  initial_state_mean = luma.matrix{ { 0 }, { 0 }, { 1 }, { 0.5 } },
  initial_state_covariance = luma.eye(4) * 0.01, seed = SEED }
local states, reports = truth:sample(N)
local rng = luma.random.Generator(SEED + 1)
local missing = 0
for t = 2, N do
  if rng:uniform(1, 1):get(1, 1) < 0.1 then reports:row(t):fill(0 / 0); missing = missing + 1 end
end

local position = states:sub(1, N, 1, 2)
local function rmse(est, rows)
  local d = (est - position):take(rows)
  return math.sqrt(d:pow(2):sum(2):mean())
end
local seen = luma.matrix.find(reports:col(1):isnan():eq(0))
local all = luma.arange(1, N)

local kf = luma.lds.KalmanFilter{ transition_matrix = A, transition_covariance = Q,
  observation_matrix = C, observation_covariance = R,
  initial_state_mean = luma.matrix{ { 0 }, { 0 }, { 0 }, { 0 } },
  initial_state_covariance = luma.eye(4) * 10 }
local filtered, _, loglik = kf:filter(reports)
local smoothed, covs = kf:smooth(reports)

print(string.format("tracking %d steps, %d reports missing, sensor sd %.1f", N, missing, SD))
print(string.format("position RMSE  reports %.3f  filtered %.3f  smoothed %.3f",
  rmse(reports:sub(1, N, 1, 2), seen), rmse(filtered:sub(1, N, 1, 2), all),
  rmse(smoothed:sub(1, N, 1, 2), all)))
local sd = covs:col(1):sqrt():mean()
print(string.format("mean smoothed sd of x %.3f, log-likelihood %.2f", sd, loglik))

-- EM learns the two noise levels back (A and C known)
local em = luma.lds.KalmanFilter{ transition_matrix = A, observation_matrix = C,
  transition_covariance = luma.eye(4) * 0.1, observation_covariance = luma.eye(2),
  initial_state_mean = luma.zeros(4, 1), initial_state_covariance = luma.eye(4) * 10,
  em_vars = { "transition_covariance", "observation_covariance" }, max_iter = 50 }:fit(reports)
local h = em.loglik_history
print(string.format("EM: log-likelihood %.2f -> %.2f in %d iterations; learned sensor variance %.2f %.2f (true %.2f)",
  h:get(1, 1), h:get(h:rows(), 1), em.n_iter, em.observation_covariance:get(1, 1),
  em.observation_covariance:get(2, 2), SD ^ 2))

local outdir = arg and arg[2]
if outdir then
  local fig = luma.plot.figure{ width = 720, height = 560,
    title = "Tracking with the Kalman filter and the RTS smoother" }
  local ax = fig:axes()
  local got = reports:take(seen) -- the reports that arrived
  ax:scatter(got:col(1), got:col(2), { label = "reports (sd 2)", color = "C7", size = 3 })
  ax:line(position:col(1), position:col(2), { label = "true track", color = "black" })
  ax:line(filtered:col(1), filtered:col(2), { label = "filtered", color = "C2" })
  ax:line(smoothed:col(1), smoothed:col(2), { label = "smoothed", color = "C1" })
  ax:set{ xlabel = "x", ylabel = "y" }
  fig:save(outdir .. "/kalman_tracking.svg")
  print("wrote " .. outdir .. "/kalman_tracking.svg")
end
