# statsmodels' Kalman filter + smoother (state, state covariance and the
# lag-one autocovariance, the work luma's smooth does) over the model and
# data of kalman_smooth.lua; best of 3.
# SPDX-License-Identifier: MIT
import time
import numpy as np
from statsmodels.tsa.statespace.kalman_smoother import (KalmanSmoother, SMOOTHER_STATE,
    SMOOTHER_STATE_COV, SMOOTHER_STATE_AUTOCOV)
n = 100000
A = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0.95, 0], [0, 0, 0, 0.95]], float)
Q = np.eye(4) * 0.01 + np.ones((4, 4)) * 0.001
C = np.array([[1, 0, 0, 0], [0, 1, 0, 0]], float)
R = np.array([[0.2, 0.05], [0.05, 0.3]])
t = np.arange(n, dtype=float)[:, None]
j = np.arange(2, dtype=float)[None, :]
X = np.sin(t * 0.01 + j) + 0.3 * np.cos(t * 0.37 + j * 1.3)
best = float("inf")
for _ in range(3):
    k = KalmanSmoother(k_endog=2, k_states=4)
    k.bind(X.copy())
    k.design = C; k.obs_cov = R; k.transition = A; k.selection = np.eye(4); k.state_cov = Q
    k.initialize_known(np.zeros(4), np.eye(4))
    k.smoother_output = SMOOTHER_STATE | SMOOTHER_STATE_COV | SMOOTHER_STATE_AUTOCOV
    t0 = time.perf_counter()
    r = k.smooth()
    best = min(best, time.perf_counter() - t0)
    assert r.smoothed_state.shape == (4, n)
print("time", best)
