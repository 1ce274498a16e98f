# Saving a scatter of n points (default 100,000) with matplotlib's savefig
# (Agg for PNG), 640 x 480 px, the same points as plot_scatter.lua.
# SPDX-License-Identifier: MIT
import os, sys, tempfile, time
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

ext = sys.argv[1] if len(sys.argv) > 1 else "svg"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
i = np.arange(1, n + 1, dtype=float)
x = np.sin(0.37 * i) * (1 + 0.5 * np.cos(0.0017 * i))
y = np.cos(0.11 * i) * (1 + 0.5 * np.sin(0.0023 * i))
fd, path = tempfile.mkstemp(suffix="." + ext)
os.close(fd)
t0 = time.perf_counter()
fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=100)
ax.scatter(x, y, s=3)
fig.savefig(path)
plt.close(fig)
elapsed = time.perf_counter() - t0
os.remove(path)
print("time", elapsed)
