# scikit-learn's KNeighborsClassifier(n_neighbors=5): fit on 100,000
# points, predict 10,000 others; prints the best of 3 runs.  The data of
# knn.lua: x[i][j] = frac(i sqrt(j + 1)), 1-based, training rows 1..100000,
# queries the next 10,000; label floor(4 frac(x[i][1] + x[i][2])).
#   knn.py d algorithm n_jobs
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.neighbors import KNeighborsClassifier
d = int(sys.argv[1]) if len(sys.argv) > 1 else 3
algorithm = sys.argv[2] if len(sys.argv) > 2 else "kd_tree"
n_jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
n, m = 100000, 10000

def points(first, count):
    i = np.arange(first, first + count, dtype=float)[:, None]
    a = np.sqrt(np.arange(1, d + 1, dtype=float) + 1)[None, :]
    x = i * a
    return x - np.floor(x)

def labels(x):
    s = x[:, 0] + x[:, 1]
    return np.floor((s - np.floor(s)) * 4)

X, Q = points(1, n), points(n + 1, m)
y = labels(X)
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    model = KNeighborsClassifier(n_neighbors=5, algorithm=algorithm, n_jobs=n_jobs)
    pred = model.fit(X, y).predict(Q)
    best = min(best, time.perf_counter() - t0)
if d <= 3:
    assert (pred == labels(Q)).mean() > 0.9
print("time", best)
