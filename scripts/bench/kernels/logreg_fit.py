# LogisticRegression (lbfgs) fit time with scikit-learn; best of 3 fits.
# argv: K (2 or 10), n, d.  Same data as logreg_fit.lua.
# SPDX-License-Identifier: MIT
import sys, time, warnings
import numpy as np
from sklearn.linear_model import LogisticRegression
warnings.simplefilter("ignore")
K = int(sys.argv[1]) if len(sys.argv) > 1 else 2
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
d = int(sys.argv[3]) if len(sys.argv) > 3 else 50
i = np.arange(1, n + 1, dtype=float)[:, None]
j = np.arange(1, d + 1, dtype=float)[None, :]
X = np.sin(0.37 * i + 0.71 * j + 0.013 * i * j)
k = np.arange(1, K + 1, dtype=float)[None, :]
scores = X @ np.cos(j.T * k) + 2 * np.sin(7.1 * i + k)
y = scores.argmax(axis=1)
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    m = LogisticRegression().fit(X, y)
    best = min(best, time.perf_counter() - t0)
print("K=%d coef[1][1] = %.8g, train accuracy %.6f" % (K, m.coef_[-1 if K == 2 else 0, 0], m.score(X, y)), file=sys.stderr)
print("time", best)
