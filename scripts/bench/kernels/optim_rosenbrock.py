# scipy.optimize.minimize(method="L-BFGS-B") on the 100-D Rosenbrock
# function with SciPy's own NumPy objective and gradient (rosen, rosen_der),
# from x0 = (-1.2, 1, -1.2, 1, ...); best of 5.
# SPDX-License-Identifier: MIT
import sys
import time
import numpy as np
from scipy.optimize import minimize, rosen, rosen_der
n = 100
x0 = np.array([-1.2 if i % 2 == 0 else 1.0 for i in range(n)])
best = float("inf")
for _ in range(5):
    t0 = time.perf_counter()
    r = minimize(rosen, x0, jac=rosen_der, method="L-BFGS-B")
    best = min(best, time.perf_counter() - t0)
assert r.fun < 1e-6
sys.stderr.write("scipy: fun %.3g iterations %d nfev %d\n" % (r.fun, r.nit, r.nfev))
print("time", best)
