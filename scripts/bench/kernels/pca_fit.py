# scikit-learn's fit time of PCA; best of 3.  argv[1]: "full" (10,000 x
# 500, SVD) or "randomized" (50,000 x 1,000, 20 components).  The data of
# pca_fit.lua (same formula).
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.decomposition import PCA
case = sys.argv[1] if len(sys.argv) > 1 else "full"
n, d = (10000, 500) if case == "full" else (50000, 1000)
make = (lambda: PCA(svd_solver="full")) if case == "full" else \
    (lambda: PCA(n_components=20, svd_solver="randomized", random_state=0))
i = np.arange(n, dtype=float)[:, None]
j = np.arange(d, dtype=float)[None, :]
X = np.sin(i * 0.37 + j * 1.91 + i * (j * 0.0013)) * (1 + np.mod(j, 5)) + np.cos(0.05 * i) * (j / d)
best = float("inf")
for _ in range(3):
    model = make()
    t0 = time.perf_counter()
    model.fit(X)
    best = min(best, time.perf_counter() - t0)
    assert model.explained_variance_ratio_.sum() > 0
print("time", best)
