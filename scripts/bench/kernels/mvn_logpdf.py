# scipy.stats.multivariate_normal.logpdf of 10^5 points in 10 dimensions; best of 5.
# SPDX-License-Identifier: MIT
import time
import numpy as np
from scipy.stats import multivariate_normal
d = 10
i = np.arange(1, d + 1, dtype=float)
S = np.exp(-0.3 * np.abs(i[:, None] - i[None, :])) + np.eye(d)
X = np.random.default_rng(1).standard_normal((100000, d))
mvn = multivariate_normal(np.zeros(d), S)
best = float("inf")
for _ in range(5):
    t0 = time.perf_counter()
    lp = mvn.logpdf(X)
    best = min(best, time.perf_counter() - t0)
    assert lp.shape == (100000,)
print("time", best)
