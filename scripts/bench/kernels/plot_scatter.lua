-- Saving a scatter of n points (default 100,000) with luma.plot, to SVG or
-- PNG (arg[1]); times building the figure and writing the file (PNG
-- drawn in-process by luma.plot's raster renderer).  The points come from a deterministic formula
-- that plot_scatter.py repeats with NumPy (1-based i):
-- x[i] = sin(0.37 i) (1 + 0.5 cos(0.0017 i)), y[i] = cos(0.11 i) (1 + 0.5 sin(0.0023 i)).
-- SPDX-License-Identifier: MIT
local ext = arg[1] or "svg"
local n = tonumber(arg[2]) or 100000
local i = luma.arange(1, n)
local x = (i * 0.37):sin():mul((i * 0.0017):cos():mul(0.5):add(1))
local y = (i * 0.11):cos():mul((i * 0.0023):sin():mul(0.5):add(1))
local base = os.tmpname() -- created by tmpname: the figure goes next to it
local path = base .. "." .. ext
os.remove(base)
local t0 = luma.now()
luma.plot.scatter(x, y, { size = 3 }):save(path)
local elapsed = luma.now() - t0
os.remove(path)
print("time " .. elapsed)
