# One epoch of Adam (batch 128) for an MLP 64-256-256-10 on 50,000 x 64
# with scikit-learn's MLPClassifier (max_iter=1; best of 3), on the data
# of mlp_epoch.lua.
# SPDX-License-Identifier: MIT
import time
import warnings
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

n, d = 50000, 64
i = np.arange(n, dtype=float)[:, None]
j = np.arange(d, dtype=float)[None, :]
X = np.sin(0.37 * i + 1.91 * j + 0.0013 * i * j)
y = (np.arange(n) % 10)
warnings.simplefilter("ignore", ConvergenceWarning)
best = float("inf")
for _ in range(3):
    m = MLPClassifier(hidden_layer_sizes=(256, 256), batch_size=128, max_iter=1, shuffle=False,
                      alpha=0.0, random_state=1)
    t0 = time.perf_counter()
    m.fit(X, y)
    best = min(best, time.perf_counter() - t0)
print("time", best)
