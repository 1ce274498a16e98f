--- One figure-building function per plot kind luma.plot draws
-- (require("plot.kinds")): each adds its artists to an axes.  The SVG and
-- PNG specs draw every one.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local x = luma.linspace(0, 1, 11)
local Z = { { 0, 1, 2 }, { 1, 2, 3 }, { 2, 3, 4 } }
return {
  line = function(ax) ax:line(x, x:mul(x), { label = "sq", marker = "s", style = "--" }) end,
  scatter = function(ax) ax:scatter(x, x, { size = x:mul(10):add(2), label = "pts" }) end,
  scatter_c = function(ax) ax:scatter(x, x, { c = x, cmap = "magma" }) end,
  scatter_labels = function(ax) ax:scatter(x, x, { labels = { 1, 1, 2, 2, 3, 3, 1, 2, 3, 1, 2 }, marker = "^" }) end,
  scatter_edge = function(ax) ax:scatter(x, x, { edgecolor = "black", alpha = 0.5, marker = "s" }) end,
  markers = function(ax)
    for _, m in ipairs{ "o", "s", "^", "v", "d", "x", "+" } do ax:scatter({ 1 }, { 1 }, { marker = m }) end
  end,
  bar = function(ax) ax:bar({ "a", "b", "c" }, { 3, 1, 2 }, { label = "counts" }) end,
  barh = function(ax) ax:bar({ 1, 2 }, { 3, -1 }, { horizontal = true }) end,
  hist = function(ax) ax:hist(luma.random.Generator(1):normal(100, 1), { bins = 7, density = true }) end,
  step = function(ax) ax:step({ 1, 2, 3 }, { 1, 3, 2 }, { where = "mid" }) end,
  errorbar = function(ax) ax:errorbar({ 1, 2, 3 }, { 1, 3, 2 }, { 0.1, 0.2, 0.3 }, { xerr = 0.1, line = true }) end,
  fill_between = function(ax) ax:fill_between(x, x, 0, { label = "area" }) end,
  heatmap = function(ax) ax:heatmap(Z, { annotate = true, colorbar = "value" }) end,
  heatmap_extent = function(ax) ax:imshow(Z, { extent = { 0, 1, 0, 1 }, origin = "lower" }) end,
  contour = function(ax) ax:contour({ 0, 1, 2 }, { 0, 1, 2 }, Z, { levels = { 1.5, 2.5 }, label = "c" }) end,
  contourf = function(ax) ax:contourf({ 0, 1, 2 }, { 0, 1, 2 }, Z, { colorbar = true }) end,
  text = function(ax) ax:text(0.5, 0.5, "a < b & \"c\"", { anchor = "middle", rotation = 30 }) end,
  arrow = function(ax) ax:arrow(0, 0, 1, 1, { label = "dir" }) end,
  lines = function(ax) ax:hline(0.5, { label = "h" }):vline(0.5, { style = ":" }) end,
  log = function(ax) ax:line({ 1, 10, 100, 1000 }, { 5, 50, 0.5, 5 }):set{ xscale = "log", yscale = "log" } end,
}
