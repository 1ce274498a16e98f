# The peer of pgm_dsep.lua: the same 10,000 d-separation queries on the
# same random 100-node DAG, by networkx's d_separated; best of 3.
# SPDX-License-Identifier: MIT
import sys
import time

import networkx as nx

seed = 2026


def rand(n):
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n


n = 100
g = nx.DiGraph()
g.add_nodes_from(range(1, n + 1))
for i in range(1, n + 1):
    for j in range(i + 1, n + 1):
        if rand(1000) < 50:
            g.add_edge(i, j)
queries = []
for _ in range(10000):
    picked = []
    while len(picked) < 5:
        v = rand(n) + 1
        if v not in picked:
            picked.append(v)
    queries.append(({picked[0]}, {picked[1]}, set(picked[2:])))
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    count = sum(1 for x, y, z in queries if nx.d_separated(g, x, y, z))
    best = min(best, time.perf_counter() - t0)
sys.stderr.write("separated %d\n" % count)
print("time %.9f" % best)
