# Fit time of a linear model with scikit-learn; prints the best of 3 fits.
# argv: model ("ols", "ridge" or "lasso_path"), n, d.  Same data as
# linear_fit.lua: X[i][j] = sin(0.37 i + 0.71 j + 0.013 i j) and
# y[i] = sum_j X[i][j] cos(j) + 0.1 sin(3 i), 1-based i and j.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn import linear_model as lm
model = sys.argv[1] if len(sys.argv) > 1 else "ols"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
d = int(sys.argv[3]) if len(sys.argv) > 3 else 100
i = np.arange(1, n + 1, dtype=float)[:, None]
j = np.arange(1, d + 1, dtype=float)[None, :]
X = np.sin(0.37 * i + 0.71 * j + 0.013 * i * j)
y = X @ np.cos(np.arange(1, d + 1, dtype=float)) + 0.1 * np.sin(3 * i[:, 0])
fit = {
    "ols": lambda: lm.LinearRegression().fit(X, y).coef_,
    "ridge": lambda: lm.Ridge(alpha=1.0).fit(X, y).coef_,
    "lasso_path": lambda: lm.lasso_path(X, y, n_alphas=100)[1][:, -1],
}[model]
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    coef = fit()
    best = min(best, time.perf_counter() - t0)
print("%s coef[1] = %.10g" % (model, coef[0]), file=sys.stderr)
print("time", best)
