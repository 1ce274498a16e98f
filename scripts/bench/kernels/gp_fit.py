# Fit time of scikit-learn's GaussianProcessRegressor (L-BFGS-B, no
# restarts) on 2,000 points; one fit.  Same data and kernel as gp_fit.lua:
# X[i] = 3 (sin(0.37 i), cos(0.11 i)), y[i] = sin(X[i][0]) cos(X[i][1]) +
# 0.1 sin(7 i) (1-based i), ConstantKernel(1) * RBF([1, 1]) + WhiteKernel(0.1).
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, WhiteKernel, ConstantKernel
n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
i = np.arange(1, n + 1, dtype=float)
X = np.column_stack([np.sin(0.37 * i), np.cos(0.11 * i)]) * 3
y = np.sin(X[:, 0]) * np.cos(X[:, 1]) + 0.1 * np.sin(7 * i)
kernel = ConstantKernel(1.0) * RBF([1.0, 1.0]) + WhiteKernel(0.1)
t0 = time.perf_counter()
model = GaussianProcessRegressor(kernel=kernel).fit(X, y)
elapsed = time.perf_counter() - t0
print("kernel %s, log marginal likelihood %.10g" % (model.kernel_, model.log_marginal_likelihood_value_),
      file=sys.stderr)
print("time", elapsed)
