--- luma.plot.raster: a figure drawn in-process on the native canvas of
-- luma.plot.native (src/ml/plot: an anti-aliased rasterizer, FreeType
-- text in DejaVu Sans, a zlib PNG encoder) and saved as PNG.
--
-- It draws the figure model itself, element for element as the SVG
-- writer (luma.plot.svg) does, with the same layout, colours, marker
-- shapes, text placement and legend and colorbar geometry (shared from
-- svg, figure and scale); it never parses SVG.  Differences from an SVG
-- renderer: translucent markers and bars blend one by one (as
-- matplotlib's Agg does) where SVG's group opacity blends the group
-- once, the legend's box has square corners, and markers are stamped at
-- the nearest quarter pixel.
-- SPDX-License-Identifier: MIT
local common = require("luma.plot.common")
local color = require("luma.plot.color")
local contour = require("luma.plot.contour")
local figure = require("luma.plot.figure")
local scale = require("luma.plot.scale")
local svg = require("luma.plot.svg")
local numfmt = require("luma.util.native").format -- "." whatever the locale
local native = require("luma.plot.native")

local raster = {}

local ANCHOR = { start = 0, middle = 0.5, ["end"] = 1 }
local FRAME = "#333333"
local PIXELS = { log = false, lo = 0, k = 1, p0 = 0 } -- the identity map

--- available() -> true, or false and why PNG cannot be drawn in-process.
function raster.available()
  return native.support()
end

-- Text as svg's text(): size defaults to the figure's font size.
local function text(cv, font, x, y, s, o)
  o = o or {}
  local size = o.size or font
  cv:text(x, y, tostring(s), { size = size, color = o.color, anchor = ANCHOR[o.anchor or "start"],
    shift = svg.VALIGN[o.valign or "baseline"] * size, rotation = o.rotation,
    bold = o.weight == "bold" })
end

-- "6,4" -> {6, 4}
local function dashes(d)
  if not d then return nil end
  local out = {}
  for v in d:gmatch("[^,%s]+") do out[#out + 1] = tonumber(v) end
  return out
end

local function stroke(cv, paths, a, o)
  o = o or {}
  cv:stroke(paths, a.color, { width = a.width or 1, alpha = a.alpha or 1, dash = dashes(a.dash),
    cap = o.cap or "butt", join = o.join, closed = o.closed })
end

local function segment(x1, y1, x2, y2) return { x1, y1, x2, y2 } end

local function rect_path(x, y, w, h) return { x, y, x + w, y, x + w, y + h, x, y + h } end

-- Markers of artist a at its points xs, ys: the shared marker shape,
-- stroked crosses in the fill colour, an outline when edged.
local function markers(cv, ax, a, xs, ys, d, o)
  local m = a.marker or "o"
  local shape = svg.marker_shape(m, d)
  local mx, my
  if o.pixels then
    mx, my = PIXELS, PIXELS
  else
    mx, my = figure.maps(ax)
  end
  cv:markers(xs, ys, mx, my, { disc = shape.disc, poly = shape.poly, segs = shape.segs,
    seg_width = 1.5, edge_width = (shape.segs or not a.edge) and 0 or 0.8,
    color = o.color, edgecolor = a.edge, alpha = a.alpha or 1, shade = o.shade,
    palette = o.palette })
end

-- ------------------------------------------------------------- artists

local draw = {}

function draw.line(cv, ax, a, fx, fy)
  local pts = {}
  for i = 1, #a.xs do pts[2 * i - 1], pts[2 * i] = fx(a.xs[i]), fy(a.ys[i]) end
  stroke(cv, { pts }, a, { cap = "round", join = "round" })
  if a.marker then markers(cv, ax, a, a.xs, a.ys, a.size, { color = a.color }) end
end

function draw.scatter(cv, ax, a)
  local shade, colors = svg.shades(a)
  local palette
  if shade then
    palette = {}
    for k = 0, 255 do palette[k + 1] = colors[k] end
  end
  if not a.sizes then
    markers(cv, ax, a, a.xs, a.ys, a.size, { color = a.color, shade = shade, palette = palette })
    return
  end
  -- one call per distinct size, in the order of first appearance (the
  -- points keep their order within a size)
  local order, groups = {}, {}
  for i = 1, #a.xs do
    local d = a.sizes[i]
    local g = groups[d]
    if not g then
      g = { x = {}, y = {}, shade = shade and {} or nil }
      groups[d] = g
      order[#order + 1] = d
    end
    g.x[#g.x + 1], g.y[#g.y + 1] = a.xs[i], a.ys[i]
    if shade then g.shade[#g.shade + 1] = shade[i] end
  end
  for _, d in ipairs(order) do
    local g = groups[d]
    markers(cv, ax, a, g.x, g.y, d, { color = a.color, shade = g.shade, palette = palette })
  end
end

function draw.bars(cv, _, a, fx, fy)
  for _, r in ipairs(a.rects) do
    local xa, xb = fx(r[1]), fx(r[2])
    local ya, yb = fy(r[3]), fy(r[4])
    local x, y, w, h = math.min(xa, xb), math.min(ya, yb), math.abs(xb - xa), math.abs(yb - ya)
    cv:rect(x, y, w, h, a.color, { alpha = a.alpha })
    if a.edge then
      cv:stroke({ rect_path(x, y, w, h) }, a.edge, { width = 0.6, closed = true, join = "square" })
    end
  end
end

function draw.errorbar(cv, ax, a, fx, fy)
  local paths = {}
  if a.line and #a.px > 1 then
    local pts = {}
    for i = 1, #a.px do pts[2 * i - 1], pts[2 * i] = fx(a.px[i]), fy(a.py[i]) end
    stroke(cv, { pts }, a)
  end
  local c = a.cap
  for _, s in ipairs(a.segs) do
    local x1, y1, x2, y2 = fx(s[1]), fy(s[2]), fx(s[3]), fy(s[4])
    if s[5] == "y" then
      paths[#paths + 1] = segment(x1, y1, x1, y2)
      paths[#paths + 1] = segment(x1 - c, y1, x1 + c, y1)
      paths[#paths + 1] = segment(x2 - c, y2, x2 + c, y2)
    else
      paths[#paths + 1] = segment(x1, y1, x2, y1)
      paths[#paths + 1] = segment(x1, y1 - c, x1, y1 + c)
      paths[#paths + 1] = segment(x2, y2 - c, x2, y2 + c)
    end
  end
  stroke(cv, paths, a)
  markers(cv, ax, a, a.px, a.py, a.size, { color = a.color })
end

function draw.area(cv, _, a, fx, fy)
  local pts = {}
  for i = 1, #a.x do pts[#pts + 1], pts[#pts + 2] = fx(a.x[i]), fy(a.y1[i]) end
  for i = #a.x, 1, -1 do pts[#pts + 1], pts[#pts + 2] = fx(a.x[i]), fy(a.y2[i]) end
  cv:fill({ pts }, a.color, a.alpha)
end

function draw.image(cv, ax, a, fx, fy)
  local colour = svg.image_colors(a)
  local font = ax.fig.font_size
  for i = 1, a.nrows do
    for j = 1, a.ncols do
      local c = colour(i, j)
      if c then
        local x0, x1, y0, y1 = svg.cell_box(a, i, j)
        local px0, px1, py0, py1 = fx(x0), fx(x1), fy(y0), fy(y1)
        cv:rect(math.min(px0, px1), math.min(py0, py1), math.abs(px1 - px0), math.abs(py1 - py0),
          c, { crisp = true })
      end
    end
  end
  if not a.annotate then return end
  for i = 1, a.nrows do
    for j = 1, a.ncols do
      local v = a.rows[i][j]
      local c = colour(i, j)
      if c then
        local x0, x1, y0, y1 = svg.cell_box(a, i, j)
        -- "%d" of a non-integral value falls back to the short form
        local ok, s = pcall(numfmt, a.annotate, v)
        text(cv, font, fx((x0 + x1) / 2), fy((y0 + y1) / 2), ok and s or scale.short(v),
          { anchor = "middle", valign = "middle", color = svg.contrast(c) })
      end
    end
  end
end

function draw.contour(cv, _, a, fx, fy)
  local colors = svg.level_colors(a)
  if a.filled then
    for b, band in ipairs(contour.bands(a.x, a.y, a.Z, a.levels)) do
      local paths = {}
      for _, r in ipairs(band.rects) do
        local x0, x1, y0, y1 = fx(r[1]), fx(r[3]), fy(r[2]), fy(r[4])
        paths[#paths + 1] = { x0, y0, x1, y0, x1, y1, x0, y1 }
      end
      for _, p in ipairs(band.polys) do
        local q = {}
        for k = 1, #p, 2 do q[k], q[k + 1] = fx(p[k]), fy(p[k + 1]) end
        paths[#paths + 1] = q
      end
      if #paths > 0 then
        cv:fill(paths, colors[b], a.alpha)
        -- the thin stroke of the band's colour that the SVG has too, over
        -- the seams between bands
        cv:stroke(paths, colors[b], { width = 0.5, closed = true, alpha = a.alpha })
      end
    end
    return
  end
  for k, level in ipairs(a.levels) do
    local paths = {}
    for _, s in ipairs(contour.lines(a.x, a.y, a.Z, level)) do
      paths[#paths + 1] = segment(fx(s[1]), fy(s[2]), fx(s[3]), fy(s[4]))
    end
    if #paths > 0 then
      cv:stroke(paths, colors[k], { width = a.width, alpha = a.alpha })
    end
  end
end

function draw.text(cv, ax, a, fx, fy, box)
  local x, y
  if a.coords == "axes" then
    x, y = box.x + a.x * box.w, box.y + (1 - a.y) * box.h
  else
    x, y = fx(a.x), fy(a.y)
  end
  text(cv, ax.fig.font_size, x, y, a.text, { size = a.size, anchor = a.anchor, valign = a.valign,
    color = a.color, rotation = a.rotation, weight = a.weight })
end

function draw.arrow(cv, _, a, fx, fy)
  local x1, y1, x2, y2 = fx(a.x1), fy(a.y1), fx(a.x2), fy(a.y2)
  local dx, dy = x2 - x1, y2 - y1
  local len = math.sqrt(dx * dx + dy * dy)
  if len == 0 then return end
  local ux, uy = dx / len, dy / len
  local h = math.min(a.head, len)
  local bx, by = x2 - ux * h, y2 - uy * h
  stroke(cv, { segment(x1, y1, bx, by) }, a)
  cv:fill({ { x2, y2, bx - uy * h * 0.4, by + ux * h * 0.4, bx + uy * h * 0.4, by - ux * h * 0.4 } },
    a.color)
end

function draw.hline(cv, _, a, _, fy, box)
  local y = fy(a.value)
  stroke(cv, { segment(box.x, y, box.x + box.w, y) }, a)
end

function draw.vline(cv, _, a, fx, _, box)
  local x = fx(a.value)
  stroke(cv, { segment(x, box.y, x, box.y + box.h) }, a)
end

-- --------------------------------------------------- legend, colorbar

local function draw_legend(cv, ax, box, fx, fy, font)
  local x, y, w, h = svg.legend_box(ax, box, fx, fy)
  cv:rect(x, y, w, h, "#ffffff", { alpha = 0.85 })
  cv:stroke({ rect_path(x, y, w, h) }, "#bbbbbb", { closed = true, join = "square" })
  for k, a in ipairs(figure.legend_entries(ax)) do
    local cy = y + 5 + (k - 0.5) * (font + 6)
    local sx = x + 8
    if a.kind == "line" or a.kind == "hline" or a.kind == "vline" or a.kind == "arrow"
        or (a.kind == "contour" and not a.filled) then
      local c = a.colors and a.colors[1] or a.color or color.sample(a.cmap, 0.5)
      stroke(cv, { segment(sx, cy, sx + 24, cy) },
        { color = c, width = a.width or 1.5, dash = a.dash, alpha = a.alpha or 1 })
      if a.marker then
        markers(cv, ax, { marker = a.marker }, { sx + 12 }, { cy }, a.size,
          { color = c, pixels = true })
      end
    elseif a.kind == "scatter" or a.kind == "errorbar" then
      markers(cv, ax, { marker = a.marker }, { sx + 12 }, { cy }, math.min(a.size, font),
        { color = a.values and color.sample(a.cmap, 0.5) or a.color, pixels = true })
    else
      local c = a.color or (a.colors and a.colors[1]) or color.sample(a.cmap or "viridis", 0.5)
      cv:rect(sx, cy - font * 0.35, 24, font * 0.7, c, { alpha = a.alpha or 1 })
    end
    text(cv, font, sx + 32, cy, a.label, { valign = "middle" })
  end
end

local function draw_colorbar(cv, ax, box, font)
  local cb = ax.colorbar
  local x, y, w, h = box.x + box.w + 14, box.y, 12, box.h
  local lo, hi = math.min(cb.vmin, cb.vmax), math.max(cb.vmin, cb.vmax)
  local span = hi - lo
  local function py(v) return span ~= 0 and y + h - (v - lo) / span * h or y + h / 2 end
  if cb.levels then
    for b = 1, #cb.levels - 1 do
      local mid = (cb.levels[b] + cb.levels[b + 1]) / 2
      local ya, yb = py(cb.levels[b + 1]), py(cb.levels[b])
      cv:rect(x, ya, w, yb - ya, color.sample(cb.cmap, span ~= 0 and (mid - lo) / span or 0.5),
        { crisp = true })
    end
  else
    local n = 64
    for k = 0, n - 1 do
      local ya, yb = y + h - (k + 1) * h / n, y + h - k * h / n
      cv:rect(x, ya, w, yb - ya + 0.5, color.sample(cb.cmap, (k + 0.5) / n), { crisp = true })
    end
  end
  cv:stroke({ rect_path(x, y, w, h) }, FRAME, { width = 0.8, closed = true, join = "square" })
  local values, labels = scale.linear_ticks(lo, hi,
    math.max(2, math.min(9, math.floor(h / 45) + 1)))
  local tw, ticks = 0, {}
  for k, v in ipairs(values) do
    local ty = py(v)
    ticks[#ticks + 1] = segment(x + w, ty, x + w + 4, ty)
    text(cv, font, x + w + 7, ty, labels[k], { valign = "middle" })
    tw = math.max(tw, common.text_width(labels[k], font))
  end
  cv:stroke(ticks, FRAME)
  if cb.label then
    text(cv, font, x + w + 12 + tw + font, y + h / 2, cb.label, { anchor = "middle", rotation = 90 })
  end
end

-- ----------------------------------------------------------------- axes

local function draw_axes(cv, ax)
  local fig = ax.fig
  local font = fig.font_size
  local box = ax:box()
  local fx, fy = ax:transforms()
  local xv, xl, yv, yl = ax:ticks()
  cv:rect(box.x, box.y, box.w, box.h, "#ffffff")
  if ax.opts.grid ~= false then
    local grid = {}
    for _, v in ipairs(xv) do grid[#grid + 1] = segment(fx(v), box.y, fx(v), box.y + box.h) end
    for _, v in ipairs(yv) do grid[#grid + 1] = segment(box.x, fy(v), box.x + box.w, fy(v)) end
    cv:stroke(grid, "#e5e5e5", { width = 0.8 })
  end
  cv:clip(box.x, box.y, box.w, box.h)
  for _, a in ipairs(ax.artists) do draw[a.kind](cv, ax, a, fx, fy, box) end
  cv:clip()
  cv:stroke({ rect_path(box.x, box.y, box.w, box.h) }, FRAME, { closed = true, join = "square" })
  local ticks = {}
  for k, v in ipairs(xv) do
    local px = fx(v)
    ticks[#ticks + 1] = segment(px, box.y + box.h, px, box.y + box.h + 5)
    text(cv, font, px, box.y + box.h + 8, xl[k], { anchor = "middle", valign = "top" })
  end
  for k, v in ipairs(yv) do
    local py = fy(v)
    ticks[#ticks + 1] = segment(box.x - 5, py, box.x, py)
    text(cv, font, box.x - 8, py, yl[k], { anchor = "end", valign = "middle" })
  end
  cv:stroke(ticks, FRAME)
  local o = ax.opts
  if o.xlabel then
    text(cv, font, box.x + box.w / 2, box.y + box.h + 16 + font, o.xlabel,
      { anchor = "middle", valign = "top" })
  end
  if o.ylabel then
    local w = 0
    for _, l in ipairs(yl) do w = math.max(w, common.text_width(l, font)) end
    text(cv, font, box.x - 8 - w - 8 - font * 0.3, box.y + box.h / 2, o.ylabel,
      { anchor = "middle", rotation = 90 })
  end
  if o.title then
    text(cv, font, box.x + box.w / 2, box.y - 10, o.title, { anchor = "middle", size = font * 1.2 })
  end
  if ax.colorbar then draw_colorbar(cv, ax, box, font) end
  if figure.legend_place(ax) then draw_legend(cv, ax, box, fx, fy, font) end
end

--- render(fig [, zoom = 1]) -> a luma.plot.Canvas with the figure drawn.
function raster.render(fig, zoom)
  local cv = native.canvas(fig.width, fig.height, { scale = zoom or 1, background = fig.background })
  if fig.title then
    text(cv, fig.font_size, fig.width / 2, 8 + fig.font_size * 1.1, fig.title,
      { anchor = "middle", size = fig.font_size * 1.3 })
  end
  for ax in fig:each_axes() do draw_axes(cv, ax) end
  return cv
end

--- save(fig, path, zoom): writes the figure as a PNG file; true, or nil
-- and a message.
function raster.save(fig, path, zoom)
  return raster.render(fig, zoom):write_png(path)
end

return raster
