# Writes data/pgm/alarm37.net: a synthetic belief network the size of
# ALARM (Beinlich et al. 1989: 37 nodes, 46 edges, 2-4 states, at most 4
# parents), with random structure and CPTs, for the pgm-jt-alarm37 bench
# row.  Deterministic (Python's random with a fixed seed):
#   /usr/bin/python3 scripts/bench/kernels/make_alarm37.py > data/pgm/alarm37.net
# Format: "node NAME K PARENT..." then "probs" with one row of K
# probabilities per parent configuration (row-major, last parent fastest).
# SPDX-License-Identifier: MIT
import random

rng = random.Random(1989)
n, m = 37, 46
cards = [rng.choice([2, 2, 3, 3, 4]) for _ in range(n)]
parents = [[] for _ in range(n)]
edges = 0
while edges < m:
    j = rng.randrange(1, n)
    i = rng.randrange(max(0, j - 8), j)  # local structure, like ALARM's
    if i not in parents[j] and len(parents[j]) < 4:
        parents[j].append(i)
        edges += 1
print("# synthetic ALARM-sized network: 37 nodes, 46 edges (scripts/bench/kernels/make_alarm37.py)")
print("# SPDX-License-Identifier: MIT")
for j in range(n):
    ps = sorted(parents[j])
    print("node N%d %d %s" % (j, cards[j], " ".join("N%d" % p for p in ps)))
    rows = 1
    for p in ps:
        rows *= cards[p]
    for _ in range(rows):
        w = [rng.random() + 0.05 for _ in range(cards[j])]
        s = sum(w)
        print("probs " + " ".join(repr(x / s) for x in w))
