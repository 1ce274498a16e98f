# scikit-learn's fit time of AgglomerativeClustering (n_clusters = 8, the
# linkage given as the first argument, default ward) on the 10,000 x 10
# data of agglomerative.lua; best of 3.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.cluster import AgglomerativeClustering
linkage = sys.argv[1] if len(sys.argv) > 1 else "ward"
n, d = 10000, 10
i = np.arange(n, dtype=float)[:, None]
j = np.arange(d, dtype=float)[None, :]
c = np.mod(i, 7)
X = (c + 1) * np.sin(i * 0.731 + j * 1.37 + i * (j * 0.011)) + 3 * np.cos(j * 2.1 + c)
best = float("inf")
for _ in range(3):
    model = AgglomerativeClustering(n_clusters=8, linkage=linkage)
    t0 = time.perf_counter()
    model.fit(X)
    best = min(best, time.perf_counter() - t0)
    assert model.labels_.max() == 7
print("time", best)
