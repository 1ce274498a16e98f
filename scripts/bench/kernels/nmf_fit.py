# scikit-learn's fit time of NMF (cd, k = 20, nndsvda) on the 2,000 x
# 1,000 matrix of nmf_fit.lua, exactly 200 iterations; best of 3.
# SPDX-License-Identifier: MIT
import time, warnings
import numpy as np
from sklearn.decomposition import NMF
warnings.simplefilter("ignore")
n, d = 2000, 1000
i = np.arange(n, dtype=float)[:, None]
j = np.arange(d, dtype=float)[None, :]
X = np.abs(np.sin(i * 0.37 + j * 1.91 + i * (j * 0.0013))) * (1 + np.mod(j, 5)) + np.cos(0.05 * i) ** 2
best = float("inf")
for _ in range(3):
    model = NMF(20, tol=0, max_iter=200, random_state=0)
    t0 = time.perf_counter()
    model.fit(X)
    best = min(best, time.perf_counter() - t0)
    assert model.n_iter_ == 200
print("time", best)
