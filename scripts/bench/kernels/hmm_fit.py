# The peer of hmm_fit.lua: Baum-Welch for a Gaussian HMM with diagonal
# covariances in pure NumPy (hmmlearn is not packaged by Debian): the
# scaled forward-backward recursion (Rabiner 1989; Bishop, PRML sec.
# 13.2.4) as a Python loop over time steps with vectorized state
# arithmetic, the log-emissions, xi sums and M-step vectorized.  Same
# data and initialization as hmm_fit.lua.  The Python loop makes one
# iteration take ~0.7 s of CPU (over 2 s on a loaded machine), so the
# peer runs 2 iterations and reports 10 times their time: the cost of the
# 20 iterations the Luma side runs (each iteration is the same work).  The
# log-likelihoods of the first two iterations go to stderr; hmm_fit.lua
# prints its own, and the two agree.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np

n, d, k, iters = 100000, 5, 4, 2
t = np.arange(n, dtype=float)[:, None]
j = np.arange(d, dtype=float)[None, :]
s = np.mod(np.floor(t / 250 + 0.5 * np.sin(t / 97)), k)
X = 2 * (s + 1) * np.cos(j + s) + np.sin(t * 0.37 + j * 1.91 + t * (j * 0.0013))
means = X[[r * (n // k) + 10 for r in range(k)]].copy()
var = np.ones((k, d))
start = np.full(k, 1.0 / k)
A = np.full((k, k), 0.1 / (k - 1)) + np.eye(k) * (0.9 - 0.1 / (k - 1))


def fit():
    global means, var, start, A
    mu, v, pi, T = means.copy(), var.copy(), start.copy(), A.copy()
    hist = []
    for _ in range(iters):
        logb = -0.5 * (np.log(2 * np.pi * v).sum(1)[None, :]
                       + ((X[:, None, :] - mu[None, :, :]) ** 2 / v[None, :, :]).sum(2))
        m = logb.max(1, keepdims=True)
        b = np.exp(logb - m)
        alpha = np.empty((n, k))
        c = np.empty(n)
        a = pi * b[0]
        c[0] = a.sum()
        alpha[0] = a / c[0]
        for i in range(1, n):
            a = (alpha[i - 1] @ T) * b[i]
            c[i] = a.sum()
            alpha[i] = a / c[i]
        beta = np.empty((n, k))
        beta[-1] = 1
        for i in range(n - 1, 0, -1):
            beta[i - 1] = T @ (b[i] * beta[i] / c[i])
        hist.append(np.log(c).sum() + m.sum())
        gamma = alpha * beta
        xi = (alpha[:-1].T @ (b[1:] * beta[1:] / c[1:, None])) * T
        pi = gamma[0] / gamma[0].sum()
        T = xi / xi.sum(1, keepdims=True)
        nk = gamma.sum(0)
        mu = (gamma.T @ X) / nk[:, None]
        v = (gamma.T @ X ** 2) / nk[:, None] - mu ** 2
    return hist


t0 = time.perf_counter()
hist = fit()
elapsed = time.perf_counter() - t0
print("loglik", *hist, file=sys.stderr)
print("time", elapsed * 20 / iters)
