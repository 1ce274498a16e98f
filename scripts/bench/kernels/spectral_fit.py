# scikit-learn's fit time of SpectralClustering (2 clusters,
# nearest_neighbors affinity with 10 neighbours, k-means with 10 restarts,
# its default arpack eigensolver) on the 5,000 points spectral_fit.lua
# builds (the same formula, jitter amplitude sys.argv[1], default 0.1);
# one fit.
# SPDX-License-Identifier: MIT
import math, sys, time, warnings
import numpy as np
from sklearn.cluster import SpectralClustering
from sklearn.metrics import adjusted_rand_score

warnings.simplefilter("ignore")  # "Graph is not fully connected" (as Luma's warning)
amp = float(sys.argv[1]) if len(sys.argv) > 1 else 0.1
n = 5000
h = n // 2
X, y = np.zeros((n, 2)), np.zeros(n)
def jitter(i):
    v = math.sin(i * 12.9898) * 43758.5453
    return amp * (v - math.floor(v)) - amp / 2
for i in range(h):
    t = math.pi * i / (h - 1)
    X[i] = (math.cos(t) + jitter(4 * i), math.sin(t) + jitter(4 * i + 1))
    X[h + i] = (1 - math.cos(t) + jitter(4 * i + 2), 0.5 - math.sin(t) + jitter(4 * i + 3))
    y[h + i] = 1
t0 = time.perf_counter()
model = SpectralClustering(n_clusters=2, affinity="nearest_neighbors", n_neighbors=10, n_init=10,
                           random_state=0)
model.fit(X)
elapsed = time.perf_counter() - t0
print("adjusted Rand index %.4f" % adjusted_rand_score(y, model.labels_), file=sys.stderr)
print("time", elapsed)
