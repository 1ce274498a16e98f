# scikit-learn's fit time of KMeans (k = 16, n_init = 1, Lloyd or Elkan:
# argv[1]) on 200,000 x 20, the initial centres and data of kmeans_fit.lua.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.cluster import KMeans
algorithm = sys.argv[1] if len(sys.argv) > 1 else "lloyd"
n, d, k = 200000, 20, 16
i = np.arange(n, dtype=float)[:, None]
j = np.arange(d, dtype=float)[None, :]
c = np.mod(i, k)
X = 2 * np.cos(1.3 * j + 0.7 * c) + 1.5 * np.sin(i * 0.37 + j * 1.91 + i * (j * 0.0013))
init = X[[r * (n // k) for r in range(k)]]
best = float("inf")
for _ in range(3):
    model = KMeans(k, init=init, n_init=1, algorithm=algorithm)
    t0 = time.perf_counter()
    model.fit(X)
    best = min(best, time.perf_counter() - t0)
print("sklearn %s: n_iter %d inertia %.10g" % (algorithm, model.n_iter_, model.inertia_), file=sys.stderr)
print("time", best)
