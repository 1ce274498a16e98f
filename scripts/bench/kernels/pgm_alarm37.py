# The peer of pgm_alarm37.lua: every node's posterior marginal in the
# network of data/pgm/alarm37.net given the same evidence, by variable
# elimination in plain NumPy (one einsum per node over all the reduced
# CPTs, greedy contraction order); best of 20.  pgmpy is not installed.
# SPDX-License-Identifier: MIT
import string
import sys
import time

import numpy as np

path = sys.argv[1] if len(sys.argv) > 1 else "data/pgm/alarm37.net"
nodes, card, parents, probs = [], {}, {}, {}
for line in open(path):
    if line.startswith("node "):
        parts = line.split()
        name = parts[1]
        nodes.append(name)
        card[name] = int(parts[2])
        parents[name] = parts[3:]
        probs[name] = []
    elif line.startswith("probs "):
        probs[nodes[-1]].append([float(x) for x in line.split()[1:]])
letters = {v: (string.ascii_letters)[k] for k, v in enumerate(nodes)}
cpts = []
for v in nodes:
    shape = [card[p] for p in parents[v]] + [card[v]]
    cpts.append((parents[v] + [v], np.array(probs[v]).reshape(shape)))
evidence = {"N36": 0, "N20": 1}


def marginals():
    ops, subs = [], []
    for scope, t in cpts:
        idx = tuple(evidence[u] if u in evidence else slice(None) for u in scope)
        ops.append(t[idx])
        subs.append("".join(letters[u] for u in scope if u not in evidence))
    out = {}
    for v in nodes:
        if v in evidence:
            continue
        r = np.einsum(",".join(subs) + "->" + letters[v], *ops, optimize="greedy")
        out[v] = r / r.sum()
    return out


best = float("inf")
for _ in range(20):
    t0 = time.perf_counter()
    m = marginals()
    best = min(best, time.perf_counter() - t0)
assert abs(m["N0"].sum() - 1) < 1e-12
print("time %.9f" % best)
