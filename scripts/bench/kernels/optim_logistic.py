# scipy.optimize.minimize(method="L-BFGS-B") on the binary logistic loss
# C * sum log(1 + exp(-y (Xw + b))) + |w|^2 / 2 written in NumPy, same data
# as optim_logistic.lua (i, j 1-based): X[i][j] = sin(0.37 i + 1.3 j) +
# 0.1 cos(0.001 i j), y = sign(sum_j cos(j) X[i][j] + 0.5 sin(7.1 i)).
# Best of 3.
# SPDX-License-Identifier: MIT
import sys
import time
import numpy as np
from scipy.optimize import minimize
from scipy.special import expit
n, d = 100000, 50
i = np.arange(1, n + 1, dtype=float)[:, None]
j = np.arange(1, d + 1, dtype=float)[None, :]
X = np.sin(i * 0.37 + j * 1.3) + np.cos(i * j * 0.001) * 0.1
s = X @ np.cos(j[0]) + np.sin(i[:, 0] * 7.1) * 0.5
y = np.where(s > 0, 1.0, -1.0)
C = 1.0

def loss(v):
    w, b = v[:d], v[d]
    m = y * (X @ w + b)
    f = C * np.sum(np.logaddexp(0.0, -m)) + 0.5 * w @ w
    r = -C * y * expit(-m)
    g = np.empty(d + 1)
    g[:d] = X.T @ r + w
    g[d] = r.sum()
    return f, g

best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    res = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B")
    best = min(best, time.perf_counter() - t0)
sys.stderr.write("scipy: fun %.10g iterations %d nfev %d %s\n" % (res.fun, res.nit, res.nfev, res.message))
print("time", best)
