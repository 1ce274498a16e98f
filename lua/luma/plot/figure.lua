--- luma.plot.figure: figures, their grid of axes and the artists drawn in
-- them (lines, markers, bars, areas, images, contours, text, arrows).
--
-- A figure only records what to draw, in data coordinates; the SVG writer
-- (luma.plot.svg) and the terminal renderer (luma.plot.terminal) draw the
-- same records.  Limits, ticks and the pixel box of each axes are
-- computed on demand (Axes:layout), so adding data after setting labels
-- works in any order, and ax:transform(x, y) gives the pixel at which the
-- SVG draws the data point (x, y).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local common = require("luma.plot.common")
local color = require("luma.plot.color")
local scale = require("luma.plot.scale")

local fail, check_opts, vector = common.fail, common.check_opts, common.vector
local finite = common.finite

local figure = {}

local Figure = { __name = "luma.plot.Figure" }
Figure.__index = Figure
local Axes = { __name = "luma.plot.Axes" }
Axes.__index = Axes
figure.Figure, figure.Axes = Figure, Axes

figure.MARKERS = { "o", "s", "^", "v", "d", "x", "+" }
local DASHES = { ["-"] = false, solid = false, ["--"] = "6,4", dashed = "6,4",
                 [":"] = "1.5,3", dotted = "1.5,3", ["-."] = "6,3,1.5,3", dashdot = "6,3,1.5,3" }
figure.DASHES = DASHES
local LEGEND_PLACES = { "best", "upper right", "upper left", "lower left", "lower right",
                        "outside" }

-- ------------------------------------------------------------ figures

--- figure.new([opts]) -> a Figure (see luma.plot.figure's help).
function figure.new(opts)
  opts = check_opts("figure", 1, opts, { width = true, height = true, rows = true,
    cols = true, title = true, font_size = true, background = true })
  local function int(name, default, lo)
    local v = opts[name]
    if v == nil then return default end
    if type(v) ~= "number" or v ~= math.floor(v) or v < lo or v > 100000 then
      fail(3, "bad argument #1 to 'figure' (%s must be an integer in %d..100000, got %s)", name,
        lo, tostring(v))
    end
    return math.tointeger(v)
  end
  local fig = setmetatable({
    rows = int("rows", 1, 1), cols = int("cols", 1, 1),
    width = int("width", 640, 50), height = int("height", 480, 50),
    title = opts.title ~= nil and tostring(opts.title) or nil,
    font_size = common.number("figure", 1, "font_size", opts.font_size, 11),
    background = color.check("figure", 1, opts.background or "white", "background"),
    grid = {},
  }, Figure)
  if fig.rows * fig.cols > 64 then fail(2, "bad argument #1 to 'figure' (at most 64 axes)") end
  return fig
end

--- fig:axes([row = 1, col = 1]) -> the Axes at that grid position.
function Figure:axes(row, col)
  row, col = row or 1, col or 1
  if math.type(row) ~= "integer" or row < 1 or row > self.rows then
    fail(2, "bad argument #1 to 'axes' (row must be an integer in 1..%d)", self.rows)
  end
  if math.type(col) ~= "integer" or col < 1 or col > self.cols then
    fail(2, "bad argument #2 to 'axes' (col must be an integer in 1..%d)", self.cols)
  end
  local k = (row - 1) * self.cols + col
  local ax = self.grid[k]
  if not ax then
    ax = setmetatable({ fig = self, row = row, col = col, artists = {}, opts = {}, cycle = 0 },
      Axes)
    self.grid[k] = ax
  end
  return ax
end

--- fig:each_axes() -> iterator over the axes that exist, in grid order.
function Figure:each_axes()
  local k = 0
  return function()
    while k < self.rows * self.cols do
      k = k + 1
      if self.grid[k] then return self.grid[k] end
    end
  end
end

function Figure:__tostring()
  local n = 0
  for _ in self:each_axes() do n = n + 1 end
  return string.format("luma.plot.Figure %d x %d px, %d x %d grid, %d axes%s", self.width,
    self.height, self.rows, self.cols, n, self.title and (": " .. self.title) or "")
end

-- ----------------------------------------------------------------- axes

function Axes:__tostring()
  return string.format("luma.plot.Axes (%d, %d) with %d artists%s", self.row, self.col,
    #self.artists, self.opts.title and (": " .. self.opts.title) or "")
end

local SET_OPTS = { title = true, xlabel = true, ylabel = true, xlim = true, ylim = true,
  xscale = true, yscale = true, grid = true, legend = true, aspect = true, xticks = true,
  yticks = true, xticklabels = true, yticklabels = true }

-- The values of every artist on one axis ("x" or "y"), for log checks.
local function axis_values(artist, axis)
  return artist[axis .. "s"] or {}
end

-- An error when a log axis would get a value <= 0.
local function check_log(fname, arg, ax, axis, artists)
  if ax.opts[axis .. "scale"] ~= "log" then return end
  for _, a in ipairs(artists) do
    for _, v in ipairs(axis_values(a, axis)) do
      if v <= 0 then
        fail(4, "bad argument #%d to '%s' (the %s axis has a log scale but the data has the "
          .. "non-positive value %s; use a linear scale or positive data)", arg, fname, axis,
          tostring(v))
      end
    end
  end
end

local function check_limits(fname, name, v)
  if v == nil then return nil end
  if type(v) ~= "table" or type(v[1]) ~= "number" or type(v[2]) ~= "number" or not finite(v[1])
      or not finite(v[2]) or v[1] == v[2] then
    fail(4, "bad argument #1 to '%s' (%s must be {lo, hi}, two different finite numbers)",
      fname, name)
  end
  return { v[1], v[2] }
end

--- ax:set{title, xlabel, ylabel, xlim, ylim, xscale, yscale, grid, legend,
-- aspect, xticks, yticks, xticklabels, yticklabels} -> ax.
function Axes:set(opts)
  opts = check_opts("set", 1, opts, SET_OPTS)
  local o = self.opts
  for _, k in ipairs{ "title", "xlabel", "ylabel" } do
    if opts[k] ~= nil then o[k] = tostring(opts[k]) end
  end
  o.xlim = check_limits("set", "xlim", opts.xlim) or o.xlim
  o.ylim = check_limits("set", "ylim", opts.ylim) or o.ylim
  for _, axis in ipairs{ "x", "y" } do
    local k = axis .. "scale"
    if opts[k] ~= nil then
      o[k] = common.choice("set", 1, k, opts[k], { "linear", "log" })
      check_log("set", 1, self, axis, self.artists)
    end
    local lim = o[axis .. "lim"]
    if o[k] == "log" and lim and (lim[1] <= 0 or lim[2] <= 0) then
      fail(2, "bad argument #1 to 'set' (%slim must be positive on a log scale)", axis)
    end
    for _, t in ipairs{ axis .. "ticks", axis .. "ticklabels" } do
      if opts[t] ~= nil then
        o[t] = t:match("labels$") and common.labels("set", 1, t, opts[t])
          or vector("set", 1, t, opts[t])
      end
    end
  end
  if opts.grid ~= nil then o.grid = opts.grid and true or false end
  if opts.legend ~= nil then
    o.legend = opts.legend == false and false
      or common.choice("set", 1, "legend position", opts.legend == true and "best" or opts.legend,
        LEGEND_PLACES)
  end
  if opts.aspect ~= nil then o.aspect = common.choice("set", 1, "aspect", opts.aspect, { "auto", "equal" }) end
  return self
end

-- The next colour of the axes' cycle.
local function next_color(ax)
  ax.cycle = ax.cycle + 1
  return color.palette(ax.cycle)
end

local function add(ax, fname, artist)
  check_log(fname, 1, ax, "x", { artist })
  check_log(fname, 1, ax, "y", { artist })
  ax.artists[#ax.artists + 1] = artist
  return artist
end

local STYLE = { color = true, width = true, style = true, label = true, alpha = true,
  marker = true, size = true }

local function style(fname, ax, opts, default_color)
  local dash = opts.style
  if dash ~= nil and DASHES[dash] == nil then
    fail(3, "bad argument #3 to '%s' (unknown line style '%s'; valid: -, --, :, -., solid, "
      .. "dashed, dotted, dashdot)", fname, tostring(dash))
  end
  return {
    color = opts.color and color.check(fname, 3, opts.color) or default_color or next_color(ax),
    width = common.number(fname, 3, "width", opts.width, 1.5),
    dash = dash and DASHES[dash] or false,
    label = opts.label ~= nil and tostring(opts.label) or nil,
    alpha = common.number(fname, 3, "alpha", opts.alpha, 1),
    marker = opts.marker ~= nil and common.choice(fname, 3, "marker", opts.marker, figure.MARKERS) or nil,
    size = common.number(fname, 3, "size", opts.size, 6),
  }
end

-- Paired x and y lists: y alone means x = 1..n.
local function xy(fname, x, y)
  if y == nil then
    local ys = vector(fname, 1, "y", x)
    local xs = {}
    for i = 1, #ys do xs[i] = i end
    return xs, ys
  end
  local xs, ys = vector(fname, 1, "x", x), vector(fname, 2, "y", y)
  common.same_length(fname, 2, "y", #xs, ys)
  return xs, ys
end

--- ax:line(x, y [, {color, width, style, label, alpha, marker, size}]) ->
-- ax: a polyline through the points; NaN or infinite points are skipped
-- with a warning.  line(y) uses x = 1..n.
function Axes:line(x, y, opts)
  if type(y) == "table" and not luma.ismatrix(y) and opts == nil and #y == 0 and next(y) then
    opts, y = y, nil
  end
  opts = check_opts("line", 3, opts, STYLE)
  local xs, ys = xy("line", x, y)
  common.nonempty("line", 1, "x", xs)
  local kept = common.keep_finite("line", { xs, ys })
  local a = style("line", self, opts)
  a.kind, a.xs, a.ys = "line", kept[1], kept[2]
  add(self, "line", a)
  return self
end
Axes.plot = Axes.line

local SCATTER = { color = true, label = true, alpha = true, marker = true, size = true,
  c = true, labels = true, cmap = true, vmin = true, vmax = true, colorbar = true,
  edgecolor = true, classes = true }

--- ax:scatter(x, y [, {size, color, marker, label, alpha, c, cmap, vmin,
-- vmax, colorbar, labels, classes, edgecolor}]) -> ax.
function Axes:scatter(x, y, opts)
  opts = check_opts("scatter", 3, opts, SCATTER)
  local xs, ys = vector("scatter", 1, "x", x), vector("scatter", 2, "y", y)
  common.same_length("scatter", 2, "y", #xs, ys)
  common.nonempty("scatter", 1, "x", xs)
  local n = #xs
  local sizes = opts.size
  if type(sizes) ~= "number" and sizes ~= nil then
    sizes = vector("scatter", 3, "size", sizes)
    common.same_length("scatter", 3, "size", n, sizes)
  end
  local values, labels
  if opts.c ~= nil then
    values = vector("scatter", 3, "c", opts.c)
    common.same_length("scatter", 3, "c", n, values)
  end
  if opts.labels ~= nil then
    labels = common.labels("scatter", 3, "labels", opts.labels)
    common.same_length("scatter", 3, "labels", n, labels)
  end
  local lists, also = { xs, ys }, {}
  if values then lists[3] = values end
  if type(sizes) == "table" then also[#also + 1] = sizes end
  if labels then also[#also + 1] = labels end
  local kept, kept_also = common.keep_finite("scatter", lists, also)
  xs, ys, values = kept[1], kept[2], kept[3]
  if type(sizes) == "table" then sizes = kept_also[1] end
  if labels then labels = kept_also[#kept_also] end
  local base = style("scatter", self, { marker = opts.marker or "o", alpha = opts.alpha,
    label = opts.label, color = opts.color }, opts.color == nil and (values or labels) and "#000000" or nil)
  base.size = type(sizes) == "number" and sizes or base.size
  base.edge = opts.edgecolor and color.check("scatter", 3, opts.edgecolor, "edgecolor") or nil
  local function point_artist(px, py, fill, label, sz)
    local a = {}
    for k, v in pairs(base) do a[k] = v end
    a.kind, a.xs, a.ys, a.label = "scatter", px, py, label
    if fill then a.color = fill end
    a.sizes = type(sz) == "table" and sz or nil
    return add(self, "scatter", a)
  end
  if labels then
    -- one artist per class, in sorted order (numbers, strings, booleans), the
    -- classes' colours from the qualitative palette by position in
    -- `classes` when given (so several plots colour a class alike)
    local classes = opts.classes and common.labels("scatter", 3, "classes", opts.classes)
    if not classes then
      local seen = {}
      classes = {}
      for _, l in ipairs(labels) do
        if not seen[l] then seen[l] = true classes[#classes + 1] = l end
      end
      table.sort(classes, common.label_before)
    end
    local index = {}
    for k, c in ipairs(classes) do index[c] = k end
    for _, l in ipairs(labels) do
      if not index[l] then
        fail(2, "bad argument #3 to 'scatter' (label %s is not among classes)", tostring(l))
      end
    end
    for k, c in ipairs(classes) do
      local px, py, sz = {}, {}, type(sizes) == "table" and {} or nil
      for i = 1, #xs do
        if labels[i] == c then
          px[#px + 1], py[#py + 1] = xs[i], ys[i]
          if sz then sz[#sz + 1] = sizes[i] end
        end
      end
      if #px > 0 then
        point_artist(px, py, color.palette(k), type(c) == "number" and scale.short(c) or c, sz)
      end
    end
    return self
  end
  local a = point_artist(xs, ys, nil, base.label, sizes)
  if values then
    local vlo, vhi = common.minmax(values)
    if not vlo then vlo, vhi = 0, 1 end -- every point was skipped
    a.values = values
    a.cmap = color.check_cmap("scatter", 3, opts.cmap or "viridis")
    a.vmin = common.number("scatter", 3, "vmin", opts.vmin, vlo)
    a.vmax = common.number("scatter", 3, "vmax", opts.vmax, vhi)
    if opts.colorbar ~= false then
      self.colorbar = { cmap = a.cmap, vmin = a.vmin, vmax = a.vmax,
        label = type(opts.colorbar) == "string" and opts.colorbar or nil }
    end
  end
  return self
end

local BAR = { color = true, label = true, alpha = true, width = true, bottom = true,
  horizontal = true, edgecolor = true }

-- Bars given as rectangles {x0, x1, y0, y1} in data coordinates.
local function bars(ax, fname, rects, opts, horizontal, sticky)
  local a = style(fname, ax, { color = opts.color, label = opts.label, alpha = opts.alpha })
  a.kind, a.rects, a.horizontal = "bars", rects, horizontal
  a.edge = opts.edgecolor and color.check(fname, 3, opts.edgecolor, "edgecolor") or nil
  a.xs, a.ys = {}, {}
  for _, r in ipairs(rects) do
    a.xs[#a.xs + 1], a.xs[#a.xs + 2] = r[1], r[2]
    a.ys[#a.ys + 1], a.ys[#a.ys + 2] = r[3], r[4]
  end
  if horizontal then a.sticky_x = sticky else a.sticky_y = sticky end
  return add(ax, fname, a)
end

--- ax:bar(x, heights [, {width = 0.8, bottom = 0, color, label, alpha,
-- horizontal, edgecolor}]) -> ax.  x may be a list of names: bars at
-- 1..n labelled with them.
function Axes:bar(x, heights, opts)
  opts = check_opts("bar", 3, opts, BAR)
  local names
  if type(x) == "table" and not luma.ismatrix(x) and type(x[1]) == "string" then
    names = common.labels("bar", 1, "x", x)
    x = {}
    for i = 1, #names do x[i] = i end
  end
  local xs, hs = vector("bar", 1, "x", x), vector("bar", 2, "heights", heights)
  common.same_length("bar", 2, "heights", #xs, hs)
  common.nonempty("bar", 1, "x", xs)
  local kept = common.keep_finite("bar", { xs, hs })
  xs, hs = kept[1], kept[2]
  local w = common.number("bar", 3, "width", opts.width, 0.8)
  local bottom = common.number("bar", 3, "bottom", opts.bottom, 0)
  local rects = {}
  for i = 1, #xs do
    if opts.horizontal then
      rects[i] = { bottom, bottom + hs[i], xs[i] - w / 2, xs[i] + w / 2 }
    else
      rects[i] = { xs[i] - w / 2, xs[i] + w / 2, bottom, bottom + hs[i] }
    end
  end
  bars(self, "bar", rects, opts, opts.horizontal, bottom)
  if names then
    local axis = opts.horizontal and "y" or "x"
    self.opts[axis .. "ticks"], self.opts[axis .. "ticklabels"] = xs, names
  end
  return self
end

local HIST = { bins = true, range = true, density = true, color = true, label = true,
  alpha = true, edgecolor = true }

--- ax:hist(values [, {bins = 10, range, density, color, label, alpha,
-- edgecolor}]) -> counts, edges (Lua lists): numpy's binning (equal
-- widths over range, the last bin closed) or explicit edges.
function Axes:hist(values, opts)
  opts = check_opts("hist", 2, opts, HIST)
  local v = vector("hist", 1, "values", values)
  common.nonempty("hist", 1, "values", v)
  v = common.keep_finite("hist", { v })[1]
  if #v == 0 then fail(2, "bad argument #1 to 'hist' (values has no finite value)") end
  local edges
  if type(opts.bins) == "table" or luma.ismatrix(opts.bins) then
    edges = vector("hist", 2, "bins", opts.bins)
    if #edges < 2 then fail(2, "bad argument #2 to 'hist' (bins needs at least 2 edges)") end
    for i = 2, #edges do
      if not (edges[i] > edges[i - 1]) then
        fail(2, "bad argument #2 to 'hist' (bin edges must increase)")
      end
    end
  else
    local k = opts.bins or 10
    if math.type(k) ~= "integer" or k < 1 then
      fail(2, "bad argument #2 to 'hist' (bins must be a positive integer or a list of edges)")
    end
    local lo, hi = common.minmax(v)
    if opts.range then
      local r = check_limits("hist", "range", opts.range)
      lo, hi = r[1], r[2]
    end
    if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
    edges = {}
    for i = 0, k do edges[i + 1] = lo + (hi - lo) * i / k end
  end
  local nb = #edges - 1
  local counts = {}
  for b = 1, nb do counts[b] = 0 end
  local lo, hi = edges[1], edges[#edges]
  local total = 0
  for _, x in ipairs(v) do
    if x >= lo and x <= hi then
      local a, b = 1, nb
      while a < b do
        local mid = (a + b + 1) // 2
        if x >= edges[mid] then a = mid else b = mid - 1 end
      end
      counts[a] = counts[a] + 1
      total = total + 1
    end
  end
  local heights = {}
  for b = 1, nb do
    heights[b] = opts.density and (total > 0 and counts[b] / (total * (edges[b + 1] - edges[b])) or 0)
      or counts[b]
  end
  local rects = {}
  for b = 1, nb do rects[b] = { edges[b], edges[b + 1], 0, heights[b] } end
  bars(self, "hist", rects, { color = opts.color, label = opts.label, alpha = opts.alpha,
    edgecolor = opts.edgecolor or "white" }, false, 0)
  return (opts.density and heights or counts), edges
end

--- ax:step(x, y [, {where = "pre", color, width, style, label, alpha}]) -> ax.
function Axes:step(x, y, opts)
  opts = check_opts("step", 3, opts, { where = true, color = true, width = true, style = true,
    label = true, alpha = true })
  local where = common.choice("step", 3, "where", opts.where, { "pre", "post", "mid" }, "pre")
  local xs, ys = xy("step", x, y)
  common.nonempty("step", 1, "x", xs)
  local kept = common.keep_finite("step", { xs, ys })
  xs, ys = kept[1], kept[2]
  local sx, sy = {}, {}
  local function put(a, b) sx[#sx + 1], sy[#sy + 1] = a, b end
  for i = 1, #xs do
    if i == 1 then
      put(xs[1], ys[1])
    elseif where == "pre" then
      put(xs[i - 1], ys[i]) put(xs[i], ys[i])
    elseif where == "post" then
      put(xs[i], ys[i - 1]) put(xs[i], ys[i])
    else
      local m = (xs[i - 1] + xs[i]) / 2
      put(m, ys[i - 1]) put(m, ys[i]) put(xs[i], ys[i])
    end
  end
  local a = style("step", self, opts)
  a.kind, a.xs, a.ys = "line", sx, sy
  add(self, "step", a)
  return self
end

--- ax:errorbar(x, y, yerr [, {xerr, color, width, label, marker, size,
-- line = false, capsize = 3}]) -> ax.  yerr/xerr: a number, a list (±
-- symmetric) or {lower, upper} lists.
function Axes:errorbar(x, y, yerr, opts)
  opts = check_opts("errorbar", 4, opts, { xerr = true, color = true, width = true,
    label = true, marker = true, size = true, line = true, capsize = true, alpha = true })
  local xs, ys = vector("errorbar", 1, "x", x), vector("errorbar", 2, "y", y)
  common.same_length("errorbar", 2, "y", #xs, ys)
  common.nonempty("errorbar", 1, "x", xs)
  local n = #xs
  local function errs(arg, name, e)
    if e == nil then return nil end
    local lo, hi
    if type(e) == "number" then
      lo, hi = {}, {}
      for i = 1, n do lo[i], hi[i] = e, e end
    elseif type(e) == "table" and not luma.ismatrix(e) and #e == 2 and n ~= 2
        and type(e[1]) ~= "number" then
      lo, hi = vector("errorbar", arg, name .. "[1]", e[1]), vector("errorbar", arg, name .. "[2]", e[2])
    else
      lo = vector("errorbar", arg, name, e)
      hi = lo
    end
    common.same_length("errorbar", arg, name, n, lo)
    common.same_length("errorbar", arg, name, n, hi)
    return lo, hi
  end
  local ylo, yhi = errs(3, "yerr", yerr)
  local xlo, xhi = errs(4, "xerr", opts.xerr)
  local lists = { xs, ys }
  for _, l in ipairs{ ylo, yhi, xlo, xhi } do if l then lists[#lists + 1] = l end end
  local kept = common.keep_finite("errorbar", lists)
  xs, ys = kept[1], kept[2]
  local k = 3
  if ylo then ylo, yhi, k = kept[3], kept[4], 5 end
  if xlo then xlo, xhi = kept[k], kept[k + 1] end
  local a = style("errorbar", self, { color = opts.color, width = opts.width, label = opts.label,
    marker = opts.marker or "o", size = opts.size, alpha = opts.alpha })
  a.kind, a.line, a.cap = "errorbar", opts.line and true or false,
    common.number("errorbar", 4, "capsize", opts.capsize, 3)
  a.px, a.py, a.segs = xs, ys, {}
  a.xs, a.ys = {}, {}
  for i = 1, #xs do
    if ylo then
      a.segs[#a.segs + 1] = { xs[i], ys[i] - ylo[i], xs[i], ys[i] + yhi[i], "y" }
      a.ys[#a.ys + 1], a.ys[#a.ys + 2] = ys[i] - ylo[i], ys[i] + yhi[i]
    end
    if xlo then
      a.segs[#a.segs + 1] = { xs[i] - xlo[i], ys[i], xs[i] + xhi[i], ys[i], "x" }
      a.xs[#a.xs + 1], a.xs[#a.xs + 2] = xs[i] - xlo[i], xs[i] + xhi[i]
    end
    a.xs[#a.xs + 1], a.ys[#a.ys + 1] = xs[i], ys[i]
  end
  add(self, "errorbar", a)
  return self
end

--- ax:fill_between(x, y1, y2 [, {color, alpha = 0.3, label}]) -> ax: the
-- area between two curves (y2 may be a number, default 0).
function Axes:fill_between(x, y1, y2, opts)
  opts = check_opts("fill_between", 4, opts, { color = true, alpha = true, label = true })
  local xs, a1 = vector("fill_between", 1, "x", x), vector("fill_between", 2, "y1", y1)
  common.same_length("fill_between", 2, "y1", #xs, a1)
  common.nonempty("fill_between", 1, "x", xs)
  local a2
  if y2 == nil or type(y2) == "number" then
    a2 = {}
    for i = 1, #xs do a2[i] = y2 or 0 end
  else
    a2 = vector("fill_between", 3, "y2", y2)
    common.same_length("fill_between", 3, "y2", #xs, a2)
  end
  local kept = common.keep_finite("fill_between", { xs, a1, a2 })
  local a = style("fill_between", self, { color = opts.color, label = opts.label,
    alpha = opts.alpha or 0.3 })
  a.kind, a.x, a.y1, a.y2 = "area", kept[1], kept[2], kept[3]
  a.xs, a.ys = {}, {}
  for i = 1, #a.x do
    a.xs[#a.xs + 1], a.ys[#a.ys + 1] = a.x[i], a.y1[i]
    a.ys[#a.ys + 1] = a.y2[i]
  end
  add(self, "fill_between", a)
  return self
end

local HEATMAP = { cmap = true, vmin = true, vmax = true, extent = true, colorbar = true,
  annotate = true, origin = true, colors = true, xticklabels = true, yticklabels = true,
  label = true }

--- ax:heatmap(Z [, {cmap = "viridis", vmin, vmax, extent = {x0, x1, y0,
-- y1}, origin = "upper", colorbar = true, annotate, colors,
-- xticklabels, yticklabels}]) -> ax.  Also ax:imshow.
function Axes:heatmap(Z, opts)
  opts = check_opts("heatmap", 2, opts, HEATMAP)
  local rows, n, m = common.grid("heatmap", 1, "Z", Z)
  local origin = common.choice("heatmap", 2, "origin", opts.origin, { "upper", "lower" }, "upper")
  local a = { kind = "image", rows = rows, nrows = n, ncols = m, origin = origin,
    label = opts.label, alpha = 1 }
  local lo, hi = math.huge, -math.huge
  for i = 1, n do
    for j = 1, m do
      local v = rows[i][j]
      if finite(v) then
        if v < lo then lo = v end
        if v > hi then hi = v end
      end
    end
  end
  if lo > hi then fail(2, "bad argument #1 to 'heatmap' (Z has no finite value)") end
  if opts.colors then
    -- categorical: Z holds integers 1..k naming colours
    a.colors = {}
    for k, c in ipairs(common.labels("heatmap", 2, "colors", opts.colors)) do
      a.colors[k] = color.check("heatmap", 2, c, "colors")
    end
  else
    a.cmap = color.check_cmap("heatmap", 2, opts.cmap or "viridis")
    a.vmin = common.number("heatmap", 2, "vmin", opts.vmin, lo)
    a.vmax = common.number("heatmap", 2, "vmax", opts.vmax, hi)
  end
  local e = opts.extent
  if e ~= nil then
    if type(e) ~= "table" or #e ~= 4 then
      fail(2, "bad argument #2 to 'heatmap' (extent must be {x0, x1, y0, y1})")
    end
    for k = 1, 4 do common.number("heatmap", 2, "extent", e[k]) end
    a.extent = { e[1], e[2], e[3], e[4] }
    a.row1_top = origin == "upper"
  else
    a.extent = { 0.5, m + 0.5, 0.5, n + 0.5 }
    -- cells at integer positions: ticks at every cell for small grids
    local function positions(k)
      local t = {}
      for i = 1, k do t[i] = i end
      return t
    end
    if m <= 25 and not self.opts.xticks then self.opts.xticks = positions(m) end
    if n <= 25 and not self.opts.yticks then self.opts.yticks = positions(n) end
    if origin == "upper" and not self.opts.ylim then self.opts.ylim = { n + 0.5, 0.5 } end
  end
  if opts.xticklabels then
    self.opts.xticklabels = common.labels("heatmap", 2, "xticklabels", opts.xticklabels)
  end
  if opts.yticklabels then
    self.opts.yticklabels = common.labels("heatmap", 2, "yticklabels", opts.yticklabels)
  end
  if opts.annotate then
    a.annotate = type(opts.annotate) == "string" and opts.annotate or "%.3g"
    if not pcall(string.format, a.annotate, 1.0) then
      fail(2, "bad argument #2 to 'heatmap' (annotate must be true or a format such as '%%.2f')")
    end
  end
  a.xs = { a.extent[1], a.extent[2] }
  a.ys = { a.extent[3], a.extent[4] }
  a.sticky_x, a.sticky_y = true, true
  add(self, "heatmap", a)
  if a.cmap and opts.colorbar ~= false then
    self.colorbar = { cmap = a.cmap, vmin = a.vmin, vmax = a.vmax,
      label = type(opts.colorbar) == "string" and opts.colorbar or nil }
  end
  return self
end
Axes.imshow = Axes.heatmap

local CONTOUR = { levels = true, cmap = true, colors = true, width = true, label = true,
  colorbar = true, alpha = true, vmin = true, vmax = true }

local function contour_artist(ax, fname, x, y, Z, opts, filled)
  opts = check_opts(fname, 4, opts, CONTOUR)
  local xs, ys = vector(fname, 1, "x", x), vector(fname, 2, "y", y)
  local rows, n, m = common.grid(fname, 3, "Z", Z)
  if #xs ~= m or #ys ~= n then
    fail(3, "bad argument #3 to '%s' (Z is %d x %d but x has %d values and y has %d; Z[i][j] "
      .. "is the value at (x[j], y[i]))", fname, n, m, #xs, #ys)
  end
  if n < 2 or m < 2 then fail(3, "bad argument #3 to '%s' (Z needs at least 2 x 2 values)", fname) end
  for i = 2, #xs do
    if not (xs[i] > xs[i - 1]) then fail(3, "bad argument #1 to '%s' (x must increase)", fname) end
  end
  for i = 2, #ys do
    if not (ys[i] > ys[i - 1]) then fail(3, "bad argument #2 to '%s' (y must increase)", fname) end
  end
  local lo, hi = math.huge, -math.huge
  for i = 1, n do
    for j = 1, m do
      local v = rows[i][j]
      if finite(v) then
        if v < lo then lo = v end
        if v > hi then hi = v end
      end
    end
  end
  if lo > hi then fail(3, "bad argument #3 to '%s' (Z has no finite value)", fname) end
  local levels
  if type(opts.levels) == "table" or luma.ismatrix(opts.levels) then
    levels = vector(fname, 4, "levels", opts.levels)
    for i = 2, #levels do
      if not (levels[i] > levels[i - 1]) then
        fail(3, "bad argument #4 to '%s' (levels must increase)", fname)
      end
    end
  else
    local k = opts.levels or 8
    if math.type(k) ~= "integer" or k < 1 then
      fail(3, "bad argument #4 to '%s' (levels must be a positive integer or a list)", fname)
    end
    if lo == hi then
      levels = { lo - 0.5, hi + 0.5 }
    else
      -- nice levels covering [lo, hi], as matplotlib's MaxNLocator
      local step = scale.nicenum((hi - lo) / k, true)
      levels = {}
      for t = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9) do
        levels[#levels + 1] = t * step
      end
      if not filled and #levels > 2 then
        table.remove(levels, 1)
        table.remove(levels)
      end
    end
  end
  if #levels < (filled and 2 or 1) then
    fail(3, "bad argument #4 to '%s' (%s)", fname, filled and "a filled contour needs at least 2 levels"
      or "no levels")
  end
  local a = { kind = "contour", x = xs, y = ys, Z = rows, levels = levels, filled = filled,
    width = common.number(fname, 4, "width", opts.width, 1.2),
    alpha = common.number(fname, 4, "alpha", opts.alpha, 1),
    label = opts.label ~= nil and tostring(opts.label) or nil,
    xs = { xs[1], xs[#xs] }, ys = { ys[1], ys[#ys] }, sticky_x = true, sticky_y = true }
  if opts.colors then
    local list = type(opts.colors) == "string" and { opts.colors } or opts.colors
    a.colors = {}
    for k, c in ipairs(list) do a.colors[k] = color.check(fname, 4, c, "colors") end
  else
    a.cmap = color.check_cmap(fname, 4, opts.cmap or "viridis")
  end
  a.vmin = common.number(fname, 4, "vmin", opts.vmin, levels[1])
  a.vmax = common.number(fname, 4, "vmax", opts.vmax, levels[#levels])
  add(ax, fname, a)
  if a.cmap and opts.colorbar and filled ~= nil then
    ax.colorbar = { cmap = a.cmap, vmin = levels[1], vmax = levels[#levels],
      levels = filled and levels or nil,
      label = type(opts.colorbar) == "string" and opts.colorbar or nil }
  end
  return ax
end

--- ax:contour(x, y, Z [, {levels = 8, cmap, colors, width, label,
-- colorbar}]) -> ax: level lines of Z[i][j] given at (x[j], y[i]).
function Axes:contour(x, y, Z, opts)
  return contour_artist(self, "contour", x, y, Z, opts, false)
end

--- ax:contourf(x, y, Z [, {levels = 8, cmap, colors, alpha, colorbar}]) ->
-- ax: the bands between levels, filled.
function Axes:contourf(x, y, Z, opts)
  return contour_artist(self, "contourf", x, y, Z, opts, true)
end

local TEXT = { color = true, size = true, anchor = true, valign = true, rotation = true,
  coords = true, weight = true }

--- ax:text(x, y, s [, {color, size, anchor = "start", valign = "baseline",
-- rotation, coords = "data", weight}]) -> ax.  coords "axes" places (x,
-- y) in [0, 1]^2 of the axes box.
function Axes:text(x, y, s, opts)
  opts = check_opts("text", 4, opts, TEXT)
  local a = { kind = "text",
    x = common.required_number("text", 1, "x", x), y = common.required_number("text", 2, "y", y),
    text = tostring(s),
    color = color.check("text", 4, opts.color or "black"),
    size = common.number("text", 4, "size", opts.size, self.fig.font_size),
    anchor = common.choice("text", 4, "anchor", opts.anchor, { "start", "middle", "end" }, "start"),
    valign = common.choice("text", 4, "valign", opts.valign, { "baseline", "middle", "top",
      "bottom" }, "baseline"),
    rotation = common.number("text", 4, "rotation", opts.rotation, 0),
    coords = common.choice("text", 4, "coords", opts.coords, { "data", "axes" }, "data"),
    weight = common.choice("text", 4, "weight", opts.weight, { "normal", "bold" }, "normal"),
  }
  if s == nil then fail(2, "bad argument #3 to 'text' (text expected, got nil)") end
  if a.coords == "data" then a.xs, a.ys = { a.x }, { a.y } end
  add(self, "text", a)
  return self
end

--- ax:arrow(x1, y1, x2, y2 [, {color, width, head = 8, label}]) -> ax: an
-- arrow from (x1, y1) to (x2, y2) in data coordinates.
function Axes:arrow(x1, y1, x2, y2, opts)
  opts = check_opts("arrow", 5, opts, { color = true, width = true, head = true, label = true,
    style = true, alpha = true })
  local a = style("arrow", self, opts, opts.color and nil or "#000000")
  a.kind = "arrow"
  local coords = { x1, y1, x2, y2 }
  for i, name in ipairs({ "x1", "y1", "x2", "y2" }) do
    if coords[i] == nil then fail(2, "bad argument #%d to 'arrow' (%s is required)", i, name) end
  end
  a.x1, a.y1 = common.number("arrow", 1, "x1", x1), common.number("arrow", 2, "y1", y1)
  a.x2, a.y2 = common.number("arrow", 3, "x2", x2), common.number("arrow", 4, "y2", y2)
  a.head = common.number("arrow", 5, "head", opts.head, 8)
  a.xs, a.ys = { a.x1, a.x2 }, { a.y1, a.y2 }
  add(self, "arrow", a)
  return self
end

--- ax:hline(y [, style]) / ax:vline(x [, style]) -> ax: a line across the
-- whole axes at one value.
function Axes:hline(y, opts)
  opts = check_opts("hline", 2, opts, STYLE)
  local a = style("hline", self, opts, opts.color and nil or "#404040")
  a.kind, a.value, a.ys = "hline", common.required_number("hline", 1, "y", y), { y }
  add(self, "hline", a)
  return self
end

function Axes:vline(x, opts)
  opts = check_opts("vline", 2, opts, STYLE)
  local a = style("vline", self, opts, opts.color and nil or "#404040")
  a.kind, a.value, a.xs = "vline", common.required_number("vline", 1, "x", x), { x }
  add(self, "vline", a)
  return self
end

-- --------------------------------------------------- limits and layout

-- The limits of one axis: the user's, else the data's widened by 5%
-- (not past the sticky edges of bars and images).
local function axis_limits(ax, axis)
  local user = ax.opts[axis .. "lim"]
  if user then return user[1], user[2] end
  local kind = ax.opts[axis .. "scale"] or "linear"
  local lo, hi = math.huge, -math.huge
  local sticky_lo, sticky_hi, margin = nil, nil, 0.05
  local only_sticky = true
  for _, a in ipairs(ax.artists) do
    -- artists never change, so their extents are computed once
    local ext = a["extent_" .. axis]
    if not ext then
      ext = { common.minmax(a[axis .. "s"] or {}) }
      a["extent_" .. axis] = ext
    end
    local alo, ahi = ext[1], ext[2]
    if alo then
      if alo < lo then lo = alo end
      if ahi > hi then hi = ahi end
      local sticky = a["sticky_" .. axis]
      if sticky == true then
        sticky_lo = sticky_lo and math.min(sticky_lo, alo) or alo
        sticky_hi = sticky_hi and math.max(sticky_hi, ahi) or ahi
      elseif type(sticky) == "number" then
        sticky_lo = sticky_lo and math.min(sticky_lo, sticky) or sticky
        sticky_hi = sticky_hi and math.max(sticky_hi, sticky) or sticky
        only_sticky = false
      else
        only_sticky = false
      end
    end
  end
  if lo > hi then return kind == "log" and 1 or 0, kind == "log" and 10 or 1 end
  if only_sticky then margin = 0 end
  return scale.limits(kind, lo, hi, margin, sticky_lo, sticky_hi)
end

-- Ticks of one axis: the user's values (and labels) when set, else nice
-- ones inside the limits.
local function axis_ticks(ax, axis, lo, hi, n)
  local values = ax.opts[axis .. "ticks"]
  local names = ax.opts[axis .. "ticklabels"]
  if values then
    local labels = {}
    local a, b = math.min(lo, hi), math.max(lo, hi)
    local vs = {}
    for i, v in ipairs(values) do
      if v >= a - 1e-9 * (b - a) and v <= b + 1e-9 * (b - a) then
        vs[#vs + 1] = v
        labels[#vs] = names and names[i] ~= nil and tostring(names[i]) or scale.short(v)
      end
    end
    return vs, labels
  end
  return scale.ticks(ax.opts[axis .. "scale"] or "linear", lo, hi, n)
end

--- ax:limits() -> x0, x1, y0, y1: the limits the axes are drawn with.
function Axes:limits()
  local x0, x1 = axis_limits(self, "x")
  local y0, y1 = axis_limits(self, "y")
  if self.opts.aspect == "equal" and not self.opts.xlim and not self.opts.ylim then
    -- equal aspect widens the shorter range (the box keeps its shape)
    local box = self:box()
    local sx, sy = math.abs(x1 - x0) / box.w, math.abs(y1 - y0) / box.h
    if sx > sy then
      local c, half = (y0 + y1) / 2, (y1 - y0) / 2 * sx / sy
      y0, y1 = c - half, c + half
    elseif sy > sx then
      local c, half = (x0 + x1) / 2, (x1 - x0) / 2 * sy / sx
      x0, x1 = c - half, c + half
    end
  end
  return x0, x1, y0, y1
end

-- How many ticks an axis of `pixels` gets: one per `per` pixels, 2..9.
local function tick_count(pixels, per)
  return math.max(2, math.min(9, math.floor(pixels / per) + 1))
end

--- ax:ticks() -> xvalues, xlabels, yvalues, ylabels.
function Axes:ticks()
  local x0, x1, y0, y1 = self:limits()
  local box = self:box()
  local xv, xl = axis_ticks(self, "x", x0, x1, tick_count(box.w, 70))
  local yv, yl = axis_ticks(self, "y", y0, y1, tick_count(box.h, 45))
  return xv, xl, yv, yl
end

-- Widest y tick label of the axes, for a plotting area h pixels high
-- (the y ticks depend on the height only, so the left margin can be
-- sized before the width is known).
local function ytick_width(ax, font, h)
  local y0, y1 = axis_limits(ax, "y")
  local _, labels = axis_ticks(ax, "y", y0, y1, tick_count(h, 45))
  local w = 0
  for _, l in ipairs(labels) do w = math.max(w, common.text_width(l, font)) end
  return w
end

--- colorbar_width(ax) -> the pixels the colorbar takes right of the box.
function figure.colorbar_width(ax)
  local cb, font = ax.colorbar, ax.fig.font_size
  if not cb then return 0 end
  local _, labels = scale.linear_ticks(math.min(cb.vmin, cb.vmax), math.max(cb.vmin, cb.vmax), 6)
  local w = 0
  for _, l in ipairs(labels) do w = math.max(w, common.text_width(l, font)) end
  return 14 + 12 + 6 + w + (cb.label and font + 8 or 0)
end

--- ax:box() -> {x, y, w, h}: the plotting area in figure pixels (origin
-- top left, y down).
function Axes:box()
  local fig = self.fig
  local font = fig.font_size
  local top0 = fig.title and font * 1.4 + 14 or 0
  local cw = fig.width / fig.cols
  local ch = (fig.height - top0) / fig.rows
  local cx, cy = (self.col - 1) * cw, top0 + (self.row - 1) * ch
  local o = self.opts
  local bottom = 8 + font + 8 + (o.xlabel and font + 8 or 0)
  local top = 10 + (o.title and font * 1.2 + 10 or 0)
  local h = math.max(ch - top - bottom, 10)
  local left = 10 + (o.ylabel and font + 8 or 0) + ytick_width(self, font, h) + 8
  local right = 16 + figure.colorbar_width(self)
  if figure.legend_place(self) == "outside" then right = right + figure.legend_size(self) + 10 end
  local w = math.max(cw - left - right, 10)
  return { x = cx + left, y = cy + top, w = w, h = h }
end

--- legend_entries(ax) -> the labelled artists in drawing order.
function figure.legend_entries(ax)
  local out = {}
  for _, a in ipairs(ax.artists) do
    if a.label and a.kind ~= "text" then out[#out + 1] = a end
  end
  return out
end

--- legend_place(ax) -> the legend's position, or nil for none.
function figure.legend_place(ax)
  local o = ax.opts.legend
  if o == false then return nil end
  if #figure.legend_entries(ax) == 0 then return nil end
  return o or "best"
end

--- legend_size(ax) -> width, height of the legend box in pixels.
function figure.legend_size(ax)
  local font = ax.fig.font_size
  local w = 0
  local entries = figure.legend_entries(ax)
  for _, a in ipairs(entries) do w = math.max(w, common.text_width(a.label, font)) end
  return w + 44, #entries * (font + 6) + 10
end

--- figure.maps(ax) -> mx, my: the axes' maps from data x and y to pixels
-- as numbers (scale.mapping), for the native renderer.
function figure.maps(ax)
  local box = ax:box()
  local x0, x1, y0, y1 = ax:limits()
  return scale.mapping(ax.opts.xscale or "linear", x0, x1, box.x, box.x + box.w),
    scale.mapping(ax.opts.yscale or "linear", y0, y1, box.y + box.h, box.y)
end

--- ax:transforms() -> fx, fy: functions from data x and y to pixels.
function Axes:transforms()
  local mx, my = figure.maps(self)
  return scale.mapper(mx), scale.mapper(my)
end

--- ax:transform(x, y) -> px, py: the pixel of data point (x, y) in the
-- SVG (origin top left).
function Axes:transform(x, y)
  if type(x) ~= "number" then
    fail(2, "bad argument #1 to 'transform' (number expected, got %s)", type(x))
  end
  if type(y) ~= "number" then
    fail(2, "bad argument #2 to 'transform' (number expected, got %s)", type(y))
  end
  local fx, fy = self:transforms()
  return fx(x), fy(y)
end

-- Plot methods are also figure methods drawing into axes (1, 1), so a
-- one-panel figure reads fig:line(...):set{...}.
for _, name in ipairs{ "line", "plot", "scatter", "bar", "step", "errorbar", "fill_between",
    "heatmap", "imshow", "contour", "contourf", "text", "arrow", "hline", "vline", "set" } do
  Figure[name] = function(self, ...)
    self:axes(1, 1)[name](self:axes(1, 1), ...)
    return self
  end
end
function Figure:hist(...)
  return self:axes(1, 1):hist(...)
end

return figure
