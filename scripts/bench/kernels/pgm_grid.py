# The peers of pgm_grid.lua, on the same noisy image (the same formula):
#   graphcut  networkx 2.8's minimum_cut (preflow-push, pure Python) on the
#             s-t graph of the denoising MRF, as luma.pgm.grid.graphcut
#             builds it: capacity 2 beta both ways between neighbours,
#             2 max(f, 0) from s and 2 max(-f, 0) to t, f = eta y.  The
#             time is minimum_cut's alone (building the graph excluded).
#   bp        50 iterations of sum-product loopy belief propagation with
#             NumPy arrays: the flooding schedule and normalized messages
#             of src/ml/pgm/grid_mrf.c (no peer library does grid BP).
# Best of 3 for bp; one run for the cut (tens of seconds).  Prints the time,
# and the energy or the mean belief to stderr.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np

which = sys.argv[1] if len(sys.argv) > 1 else "graphcut"
n = 256 if which == "bp" else 512
beta, eta = 1.0, 2.1

k = np.arange(n * n, dtype=float).reshape(n, n)
r = np.floor(k / n)
c = k - r * n
dr, dc = r - n / 2, c - n / 2
disc = (dr * dr + dc * dc < (0.35 * n) ** 2).astype(float)
stripes = np.mod(np.floor(c / 32), 2)
clean = np.mod(disc + stripes, 2) * 2 - 1
a = k * k * 0.6180339887498949
flip = (a - np.floor(a) < 0.1).astype(float)
y = clean * (flip * -2 + 1)
f = eta * y


def graphcut():
    import networkx as nx
    G = nx.DiGraph()
    w = 2 * beta
    for i in range(n):
        for j in range(n):
            p = i * n + j
            if j + 1 < n:
                G.add_edge(p, p + 1, capacity=w)
                G.add_edge(p + 1, p, capacity=w)
            if i + 1 < n:
                G.add_edge(p, p + n, capacity=w)
                G.add_edge(p + n, p, capacity=w)
            if f[i, j] > 0:
                G.add_edge("s", p, capacity=2 * f[i, j])
            elif f[i, j] < 0:
                G.add_edge(p, "t", capacity=-2 * f[i, j])
    t0 = time.perf_counter()
    value, (S, T) = nx.minimum_cut(G, "s", "t")
    elapsed = time.perf_counter() - t0
    x = np.full(n * n, -1.0)
    for p in S:
        if p != "s":
            x[p] = 1
    x = x.reshape(n, n)
    energy = -beta * ((x[:, 1:] * x[:, :-1]).sum() + (x[1:, :] * x[:-1, :]).sum()) - (f * x).sum()
    sys.stderr.write("energy %.12g flow %.12g\n" % (energy, value))
    return elapsed


def bp():
    w = np.exp(-2 * abs(beta))
    s, o = (1.0, w) if beta >= 0 else (w, 1.0)
    # incoming messages at +1, by direction: from above, below, left, right
    up, down, left, right = (np.full((n, n), 0.5) for _ in range(4))
    fa = np.where(f >= 0, 1.0, np.exp(2 * f))
    fb = np.where(f >= 0, np.exp(-2 * f), 1.0)

    def send(a, b):
        p = a / (a + b)
        q = 1 - p
        hi, lo = s * p + o * q, o * p + s * q
        return hi / (hi + lo)

    t0 = time.perf_counter()
    for _ in range(50):
        ins = (up, down, left, right)
        out = []
        for d in range(4):
            a, b = fa.copy(), fb.copy()
            for e in range(4):
                if e != d:
                    a *= ins[e]
                    b *= 1 - ins[e]
            out.append(send(a, b))
        to_up, to_down, to_left, to_right = out
        nu, nd, nl, nr = (np.full((n, n), 0.5) for _ in range(4))
        nd[:-1, :] = to_up[1:, :]      # the pixel below sends up: its neighbour's "from below"
        nu[1:, :] = to_down[:-1, :]
        nr[:, :-1] = to_left[:, 1:]
        nl[:, 1:] = to_right[:, :-1]
        up, down, left, right = nu, nd, nl, nr
    a, b = fa.copy(), fb.copy()
    for m in (up, down, left, right):
        a *= m
        b *= 1 - m
    belief = a / (a + b)
    elapsed = time.perf_counter() - t0
    sys.stderr.write("mean belief %.12g\n" % belief.mean())
    return elapsed


if which == "bp":
    print("time %r" % min(bp() for _ in range(3)))
else:
    print("time %r" % graphcut())
