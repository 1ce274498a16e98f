--- luma.plot.svg: a figure as a standalone SVG document, and files (SVG,
-- or PNG: luma.plot.raster's, else the SVG through librsvg's
-- rsvg-convert).
--
-- Every axes is a <g class="axes"> holding, in order: the grid, the
-- artists (each a <g class="KIND"> clipped to the plotting box, with
-- data-label when labelled), the frame, ticks and labels, the colorbar
-- and the legend; so tests and other tools can find a series by class
-- and label.  Coordinates are written with two decimals (1/100 px).
--
-- Large scatters (more than THIN opaque points of one size) are thinned:
-- positions are snapped to a quarter pixel and a marker of the same colour
-- already drawn at the same snapped position is not written again.  A
-- snapped marker moves by at most 1/8 px, so every pixel the markers
-- cover is still covered; only overdraw is dropped.  Their circles are
-- written as dots: one <path class="dots"> per colour whose subpaths
-- "Mx yh0" are zero-length strokes with round caps, which SVG renderers
-- draw as discs of the stroke width (one element instead of thousands).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local common = require("luma.plot.common")
local color = require("luma.plot.color")
local contour = require("luma.plot.contour")
local figure = require("luma.plot.figure")
local scale = require("luma.plot.scale")

-- numbers with "." whatever the locale (a comma would corrupt the SVG)
local fmt, concat = require("luma.util.native").format, table.concat
local fail = common.fail

local svg = {}

svg.THIN = 5000

local ESCAPES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

--- escape(s) -> s with the XML special characters escaped.
local function escape(s)
  return (tostring(s):gsub("[&<>\"']", ESCAPES))
end
svg.escape = escape

local function num(v) return fmt("%.2f", v) end

--- VALIGN[valign] -> how far text's baseline moves down, in ems, to put
-- its middle, top or bottom at the given y (DejaVu Sans' metrics).
svg.VALIGN = { baseline = 0, middle = 0.35, top = 0.8, bottom = -0.25 }

-- Text at (x, y) in pixels; valign shifts the baseline by font metrics.
local function text(out, x, y, s, o)
  o = o or {}
  local size = o.size or 11
  local shift = svg.VALIGN[o.valign or "baseline"]
  local attrs = { fmt('x="%s" y="%s"', num(x), num(y + shift * size)) }
  if o.anchor and o.anchor ~= "start" then attrs[#attrs + 1] = fmt('text-anchor="%s"', o.anchor) end
  if o.size then attrs[#attrs + 1] = fmt('font-size="%s"', num(size)) end
  if o.color and o.color ~= "#000000" then attrs[#attrs + 1] = fmt('fill="%s"', o.color) end
  if o.weight == "bold" then attrs[#attrs + 1] = 'font-weight="bold"' end
  if o.rotation and o.rotation ~= 0 then
    attrs[#attrs + 1] = fmt('transform="rotate(%s %s %s)"', num(-o.rotation), num(x), num(y))
  end
  if o.class then attrs[#attrs + 1] = fmt('class="%s"', o.class) end
  out[#out + 1] = fmt("<text %s>%s</text>", concat(attrs, " "), escape(s))
end

local function stroke_attrs(a)
  local s = fmt('stroke="%s" stroke-width="%s"', a.color, num(a.width))
  if a.dash then s = s .. fmt(' stroke-dasharray="%s"', a.dash) end
  if a.alpha < 1 then s = s .. fmt(' stroke-opacity="%s"', num(a.alpha)) end
  return s
end

local function group_open(out, class, a, attrs)
  local label = a.label and fmt(' data-label="%s"', escape(a.label)) or ""
  out[#out + 1] = fmt('<g class="%s"%s%s>', class, label, attrs and (" " .. attrs) or "")
end

-- ------------------------------------------------------------- markers

--- marker_shape(m, d) -> the marker m of diameter d around (0, 0):
-- {disc = d} for "o", {poly = {x1, y1, ...}} for the filled ones,
-- {segs = {x1, y1, x2, y2, ...}} for the stroked crosses.
function svg.marker_shape(m, d)
  if m == "o" then return { disc = d } end
  if m == "s" then
    local r = d / 2
    return { poly = { -r, -r, r, -r, r, r, -r, r } }
  end
  local r = d * 0.6
  if m == "^" then return { poly = { 0, -r, r * 0.866, r * 0.5, -r * 0.866, r * 0.5 } } end
  if m == "v" then return { poly = { 0, r, r * 0.866, -r * 0.5, -r * 0.866, -r * 0.5 } } end
  if m == "d" then return { poly = { 0, -r, r * 0.7, 0, 0, r, -r * 0.7, 0 } } end
  r = d / 2
  if m == "x" then return { segs = { -r, -r, r, r, -r, r, r, -r } } end
  return { segs = { -r, 0, r, 0, 0, -r, 0, r } } -- "+"
end

-- One marker of diameter d centred at (x, y), as an SVG element.
local function marker_element(m, x, y, d)
  if m == "o" then return fmt('<circle cx="%.2f" cy="%.2f" r="%.2f"/>', x, y, d / 2) end
  if m == "s" then
    return fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>', x - d / 2, y - d / 2, d, d)
  end
  local shape = svg.marker_shape(m, d)
  local p, pts = shape.poly or shape.segs, {}
  for k = 1, #p, 2 do pts[#pts + 1] = fmt("%.2f,%.2f", x + p[k], y + p[k + 1]) end
  if shape.poly then return fmt('<polygon points="%s"/>', concat(pts, " ")) end
  return (fmt('<path d="M%sL%sM%sL%s"/>', pts[1], pts[2], pts[3], pts[4]):gsub(",", " "))
end
local MARKER = setmetatable({}, { __index = function(_, m)
  return function(x, y, d) return marker_element(m, x, y, d) end
end })
local STROKED = { x = true, ["+"] = true }

-- The opening of a group of markers: filled shapes, or stroked crosses.
local function marker_group(out, class, a, fill)
  local m = a.marker or "o"
  local attrs
  if STROKED[m] then
    attrs = fmt('fill="none" stroke="%s" stroke-width="1.5"', fill)
  else
    attrs = fmt('fill="%s"', fill)
    if a.edge then attrs = attrs .. fmt(' stroke="%s" stroke-width="0.8"', a.edge) end
  end
  if a.alpha < 1 then attrs = attrs .. fmt(' opacity="%s"', num(a.alpha)) end
  group_open(out, class, a, attrs)
end

-- ------------------------------------------------------------- artists

local draw = {}

function draw.line(out, a, fx, fy)
  local pts = {}
  for i = 1, #a.xs do pts[i] = fmt("%.2f,%.2f", fx(a.xs[i]), fy(a.ys[i])) end
  group_open(out, "line", a)
  out[#out + 1] = fmt('<polyline points="%s" fill="none" %s stroke-linejoin="round" '
    .. 'stroke-linecap="round"/>', concat(pts, " "), stroke_attrs(a))
  out[#out + 1] = "</g>"
  if a.marker then
    marker_group(out, "markers", { marker = a.marker, alpha = a.alpha }, a.color)
    local mk = MARKER[a.marker]
    for i = 1, #a.xs do out[#out + 1] = mk(fx(a.xs[i]), fy(a.ys[i]), a.size) end
    out[#out + 1] = "</g>"
  end
end

-- Decimals of a quarter pixel: "Mx yh0" for a point on the quarter-pixel
-- grid is written by integer arithmetic, several times faster than
-- string.format for the 100,000 points of a large scatter.
local QUARTERS = { [0] = "", ".25", ".5", ".75" }

--- shades(a) -> shade, colors for a scatter coloured by value (else
-- nil): each point's entry 0..255 of the colormap, and the colour of each
-- entry used.
function svg.shades(a)
  local values = a.values
  if not values then return nil end
  local shade, colors = {}, {}
  local span = a.vmax - a.vmin
  for i = 1, #values do
    local t = span ~= 0 and (values[i] - a.vmin) / span or 0.5
    local k = math.floor(math.max(0, math.min(1, t)) * 255 + 0.5)
    shade[i] = k
    if not colors[k] then colors[k] = color.sample(a.cmap, k / 255) end
  end
  return shade, colors
end

function draw.scatter(out, a, fx, fy, box)
  local marker = a.marker or "o"
  local mk = MARKER[marker]
  local xs, ys, n = a.xs, a.ys, #a.xs
  local sizes = a.sizes
  -- colour by value: each point's entry 0..255 of the colormap
  local shade, colors = svg.shades(a)
  local large = n > svg.THIN and a.alpha >= 1 and not sizes
  local seen = large and {} or nil
  -- a kept point's pixel, or nil when its marker would be clipped away
  -- entirely or one of the same colour is already at its snapped quarter
  -- pixel
  local reach = a.size
  if sizes then reach = math.max(reach, select(2, common.minmax(sizes))) end
  local xlo, xhi, ylo, yhi = box.x - reach, box.x + box.w + reach, box.y - reach, box.y + box.h + reach
  local function place(i)
    local px, py = fx(xs[i]), fy(ys[i])
    if px < xlo or px > xhi or py < ylo or py > yhi then return nil end
    if seen then
      px, py = math.floor(px * 4 + 0.5), math.floor(py * 4 + 0.5)
      local key = (px * 65536 + py) * 256 + (shade and shade[i] or 0)
      if seen[key] then return nil end
      seen[key] = true
      px, py = px / 4, py / 4
    end
    return px, py
  end
  if large and marker == "o" and not a.edge then
    -- dots: per colour one path of zero-length subpaths with round caps
    -- (one element instead of thousands, which renderers draw much faster)
    group_open(out, "scatter", a, fmt('fill="none" stroke-width="%s" stroke-linecap="round"',
      num(a.size)))
    -- the loop of place() inlined, on quarter-pixel integers (x, y >= 0
    -- inside the figure): this is the hot path of large scatters
    local dots = {}
    local floor = math.floor
    local qxlo, qxhi = floor(xlo * 4 + 0.5), floor(xhi * 4 + 0.5)
    local qylo, qyhi = floor(ylo * 4 + 0.5), floor(yhi * 4 + 0.5)
    for i = 1, n do
      local qx, qy = floor(fx(xs[i]) * 4 + 0.5), floor(fy(ys[i]) * 4 + 0.5)
      if qx >= qxlo and qx <= qxhi and qy >= qylo and qy <= qyhi and qx >= 0 and qy >= 0 then
        local k = shade and shade[i] or 0
        local key = (qx * 65536 + qy) * 256 + k
        if not seen[key] then
          seen[key] = true
          local d = dots[k]
          if not d then
            d = {}
            dots[k] = d
          end
          d[#d + 1] = "M" .. (qx >> 2) .. QUARTERS[qx & 3] .. " " .. (qy >> 2) .. QUARTERS[qy & 3] .. "h0"
        end
      end
    end
    for k = 0, 255 do
      if dots[k] then
        out[#out + 1] = fmt('<path class="dots" stroke="%s" d="%s"/>',
          colors and colors[k] or a.color, concat(dots[k]))
      end
    end
    out[#out + 1] = "</g>"
    return
  end
  marker_group(out, "scatter", a, colors and "none" or a.color)
  local d = a.size
  local k = #out
  for i = 1, n do
    local px, py = place(i)
    if px then
      local e = mk(px, py, sizes and sizes[i] or d)
      if colors then e = e:gsub("/>$", fmt(' fill="%s"/>', colors[shade[i]]), 1) end
      k = k + 1
      out[k] = e
    end
  end
  out[#out + 1] = "</g>"
end

function draw.bars(out, a, fx, fy)
  local attrs = fmt('fill="%s"', a.color)
  if a.alpha < 1 then attrs = attrs .. fmt(' fill-opacity="%s"', num(a.alpha)) end
  if a.edge then attrs = attrs .. fmt(' stroke="%s" stroke-width="0.6"', a.edge) end
  group_open(out, "bars", a, attrs)
  for _, r in ipairs(a.rects) do
    local xa, xb = fx(r[1]), fx(r[2])
    local ya, yb = fy(r[3]), fy(r[4])
    out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>', math.min(xa, xb),
      math.min(ya, yb), math.abs(xb - xa), math.abs(yb - ya))
  end
  out[#out + 1] = "</g>"
end

function draw.errorbar(out, a, fx, fy)
  group_open(out, "errorbar", a, stroke_attrs(a) .. ' fill="none"')
  if a.line and #a.px > 1 then
    local pts = {}
    for i = 1, #a.px do pts[i] = fmt("%.2f,%.2f", fx(a.px[i]), fy(a.py[i])) end
    out[#out + 1] = fmt('<polyline points="%s"/>', concat(pts, " "))
  end
  local c = a.cap
  for _, s in ipairs(a.segs) do
    local x1, y1, x2, y2 = fx(s[1]), fy(s[2]), fx(s[3]), fy(s[4])
    if s[5] == "y" then
      out[#out + 1] = fmt('<path d="M%.2f %.2fV%.2fM%.2f %.2fH%.2fM%.2f %.2fH%.2f"/>', x1, y1, y2,
        x1 - c, y1, x1 + c, x2 - c, y2, x2 + c)
    else
      out[#out + 1] = fmt('<path d="M%.2f %.2fH%.2fM%.2f %.2fV%.2fM%.2f %.2fV%.2f"/>', x1, y1, x2,
        x1, y1 - c, y1 + c, x2, y2 - c, y2 + c)
    end
  end
  out[#out + 1] = "</g>"
  marker_group(out, "markers", a, a.color)
  local mk = MARKER[a.marker]
  for i = 1, #a.px do out[#out + 1] = mk(fx(a.px[i]), fy(a.py[i]), a.size) end
  out[#out + 1] = "</g>"
end

function draw.area(out, a, fx, fy)
  local pts = {}
  for i = 1, #a.x do pts[#pts + 1] = fmt("%.2f,%.2f", fx(a.x[i]), fy(a.y1[i])) end
  for i = #a.x, 1, -1 do pts[#pts + 1] = fmt("%.2f,%.2f", fx(a.x[i]), fy(a.y2[i])) end
  group_open(out, "area", a)
  out[#out + 1] = fmt('<polygon points="%s" fill="%s" fill-opacity="%s" stroke="none"/>',
    concat(pts, " "), a.color, num(a.alpha))
  out[#out + 1] = "</g>"
end

--- image_colors(a) -> function(i, j) -> "#rrggbb" or nil (NaN cells).
function svg.image_colors(a)
  local rows = a.rows
  if a.colors then
    return function(i, j)
      local v = rows[i][j]
      if v ~= v then return nil end
      return a.colors[(math.floor(v + 0.5) - 1) % #a.colors + 1]
    end
  end
  local span = a.vmax - a.vmin
  return function(i, j)
    local v = rows[i][j]
    if not common.finite(v) then return nil end
    return color.sample(a.cmap, span ~= 0 and (v - a.vmin) / span or 0.5)
  end
end

--- cell_box(a, i, j) -> x0, x1, y0, y1 of cell (i, j) in data coordinates.
function svg.cell_box(a, i, j)
  local e = a.extent
  local dx, dy = (e[2] - e[1]) / a.ncols, (e[4] - e[3]) / a.nrows
  local ya, yb
  if a.row1_top then
    ya, yb = e[4] - i * dy, e[4] - (i - 1) * dy
  else
    ya, yb = e[3] + (i - 1) * dy, e[3] + i * dy
  end
  return e[1] + (j - 1) * dx, e[1] + j * dx, ya, yb
end

--- contrast(c) -> black or white, whichever reads better on the colour c.
local function contrast(c)
  local r, g, b = color.rgb(c)
  return (0.299 * r + 0.587 * g + 0.114 * b) / 255 > 0.5 and "#000000" or "#ffffff"
end
svg.contrast = contrast

function draw.image(out, a, fx, fy)
  local colour = svg.image_colors(a)
  group_open(out, "image", a, 'shape-rendering="crispEdges"')
  -- runs of equal colour along a row are one rectangle
  for i = 1, a.nrows do
    local j = 1
    while j <= a.ncols do
      local c = colour(i, j)
      local k = j
      while k < a.ncols and colour(i, k + 1) == c do k = k + 1 end
      if c then
        local x0, _, y0, y1 = svg.cell_box(a, i, j)
        local _, x1 = svg.cell_box(a, i, k)
        local px0, px1, py0, py1 = fx(x0), fx(x1), fy(y0), fy(y1)
        out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>',
          math.min(px0, px1), math.min(py0, py1), math.abs(px1 - px0), math.abs(py1 - py0), c)
      end
      j = k + 1
    end
  end
  out[#out + 1] = "</g>"
  if a.annotate then
    out[#out + 1] = '<g class="annotations" text-anchor="middle">'
    for i = 1, a.nrows do
      for j = 1, a.ncols do
        local v = a.rows[i][j]
        local c = colour(i, j)
        if c then
          local x0, x1, y0, y1 = svg.cell_box(a, i, j)
          -- "%d" of a non-integral value falls back to the short form
          local ok, s = pcall(fmt, a.annotate, v)
          text(out, fx((x0 + x1) / 2), fy((y0 + y1) / 2), ok and s or scale.short(v),
            { valign = "middle", color = contrast(c) })
        end
      end
    end
    out[#out + 1] = "</g>"
  end
end

--- level_colors(a) -> list of colours, one per level (lines) or band.
function svg.level_colors(a)
  local n = a.filled and #a.levels - 1 or #a.levels
  local out = {}
  for k = 1, n do
    if a.colors then
      out[k] = a.colors[(k - 1) % #a.colors + 1]
    else
      local v = a.filled and (a.levels[k] + a.levels[k + 1]) / 2 or a.levels[k]
      local span = a.vmax - a.vmin
      out[k] = color.sample(a.cmap, span ~= 0 and (v - a.vmin) / span or 0.5)
    end
  end
  return out
end

function draw.contour(out, a, fx, fy)
  local colors = svg.level_colors(a)
  if a.filled then
    group_open(out, "contourf", a, a.alpha < 1 and fmt('opacity="%s"', num(a.alpha)) or nil)
    for b, band in ipairs(contour.bands(a.x, a.y, a.Z, a.levels)) do
      local d = {}
      for _, r in ipairs(band.rects) do
        local x0, x1, y0, y1 = fx(r[1]), fx(r[3]), fy(r[2]), fy(r[4])
        d[#d + 1] = fmt("M%.2f %.2fH%.2fV%.2fH%.2fZ", x0, y0, x1, y1, x0)
      end
      for _, p in ipairs(band.polys) do
        local s = { fmt("M%.2f %.2f", fx(p[1]), fy(p[2])) }
        for k = 3, #p, 2 do s[#s + 1] = fmt("L%.2f %.2f", fx(p[k]), fy(p[k + 1])) end
        d[#d + 1] = concat(s) .. "Z"
      end
      if #d > 0 then
        -- a thin stroke of the band's own colour hides the hairline seams
        -- that anti-aliasing leaves between adjacent pieces
        out[#out + 1] = fmt('<path class="band" data-low="%s" data-high="%s" fill="%s" stroke="%s" '
          .. 'stroke-width="0.5" stroke-linejoin="round" d="%s"/>', a.levels[b], a.levels[b + 1],
          colors[b], colors[b], concat(d))
      end
    end
  else
    group_open(out, "contour", a, fmt('fill="none" stroke-width="%s"', num(a.width))
      .. (a.alpha < 1 and fmt(' opacity="%s"', num(a.alpha)) or ""))
    for k, level in ipairs(a.levels) do
      local d = {}
      for _, s in ipairs(contour.lines(a.x, a.y, a.Z, level)) do
        d[#d + 1] = fmt("M%.2f %.2fL%.2f %.2f", fx(s[1]), fy(s[2]), fx(s[3]), fy(s[4]))
      end
      if #d > 0 then
        out[#out + 1] = fmt('<path class="level" data-level="%s" stroke="%s" d="%s"/>', level,
          colors[k], concat(d))
      end
    end
  end
  out[#out + 1] = "</g>"
end

function draw.text(out, a, fx, fy, box)
  local x, y
  if a.coords == "axes" then
    x, y = box.x + a.x * box.w, box.y + (1 - a.y) * box.h
  else
    x, y = fx(a.x), fy(a.y)
  end
  out[#out + 1] = '<g class="text">'
  text(out, x, y, a.text, { size = a.size, anchor = a.anchor, valign = a.valign,
    color = a.color, rotation = a.rotation, weight = a.weight })
  out[#out + 1] = "</g>"
end

function draw.arrow(out, a, fx, fy)
  local x1, y1, x2, y2 = fx(a.x1), fy(a.y1), fx(a.x2), fy(a.y2)
  local dx, dy = x2 - x1, y2 - y1
  local len = math.sqrt(dx * dx + dy * dy)
  group_open(out, "arrow", a)
  if len > 0 then
    local ux, uy = dx / len, dy / len
    local h = math.min(a.head, len)
    local bx, by = x2 - ux * h, y2 - uy * h
    out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" %s/>', x1, y1, bx, by,
      stroke_attrs(a))
    out[#out + 1] = fmt('<polygon points="%.2f,%.2f %.2f,%.2f %.2f,%.2f" fill="%s"/>', x2, y2,
      bx - uy * h * 0.4, by + ux * h * 0.4, bx + uy * h * 0.4, by - ux * h * 0.4, a.color)
  end
  out[#out + 1] = "</g>"
end

function draw.hline(out, a, fx, fy, box)
  local y = fy(a.value)
  group_open(out, "hline", a)
  out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" %s/>', box.x, y,
    box.x + box.w, y, stroke_attrs(a))
  out[#out + 1] = "</g>"
end

function draw.vline(out, a, fx, fy, box)
  local x = fx(a.value)
  group_open(out, "vline", a)
  out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" %s/>', x, box.y, x,
    box.y + box.h, stroke_attrs(a))
  out[#out + 1] = "</g>"
end

-- --------------------------------------------------- legend, colorbar

-- Pixel positions of the artists' points, for the legend's "best" place.
local function points_of(ax, fx, fy)
  local pts = {}
  for _, a in ipairs(ax.artists) do
    local xs, ys = a.xs or {}, a.ys or {}
    if #xs == #ys then
      local step = math.max(1, #xs // 2000)
      for i = 1, #xs, step do pts[#pts + 1] = { fx(xs[i]), fy(ys[i]) } end
    end
  end
  return pts
end

--- legend_box(ax, box, fx, fy) -> x, y, w, h of the legend in pixels
-- (matplotlib's "best": the corner that hides the fewest data points).
function svg.legend_box(ax, box, fx, fy)
  local place = figure.legend_place(ax)
  local w, h = figure.legend_size(ax)
  local pad = 8
  local corners = {
    ["upper right"] = { box.x + box.w - w - pad, box.y + pad },
    ["upper left"] = { box.x + pad, box.y + pad },
    ["lower left"] = { box.x + pad, box.y + box.h - h - pad },
    ["lower right"] = { box.x + box.w - w - pad, box.y + box.h - h - pad },
  }
  if place == "outside" then
    return box.x + box.w + 10 + figure.colorbar_width(ax), box.y, w, h
  end
  if place == "best" then
    local pts = points_of(ax, fx, fy)
    local best, fewest = "upper right", math.huge
    for _, name in ipairs{ "upper right", "upper left", "lower left", "lower right" } do
      local c = corners[name]
      local n = 0
      for _, p in ipairs(pts) do
        if p[1] >= c[1] and p[1] <= c[1] + w and p[2] >= c[2] and p[2] <= c[2] + h then n = n + 1 end
      end
      if n < fewest then best, fewest = name, n end
    end
    place = best
  end
  local c = corners[place]
  return c[1], c[2], w, h
end

local function draw_legend(out, ax, box, fx, fy, font)
  local x, y, w, h = svg.legend_box(ax, box, fx, fy)
  out[#out + 1] = '<g class="legend">'
  out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="white" '
    .. 'fill-opacity="0.85" stroke="#bbbbbb" rx="3"/>', x, y, w, h)
  for k, a in ipairs(figure.legend_entries(ax)) do
    local cy = y + 5 + (k - 0.5) * (font + 6)
    local sx = x + 8
    out[#out + 1] = fmt('<g class="entry" data-label="%s">', escape(a.label))
    if a.kind == "line" or a.kind == "hline" or a.kind == "vline" or a.kind == "arrow"
        or (a.kind == "contour" and not a.filled) then
      local c = a.colors and a.colors[1] or a.color or color.sample(a.cmap, 0.5)
      out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" %s/>', sx, cy, sx + 24,
        cy, stroke_attrs({ color = c, width = a.width or 1.5, dash = a.dash, alpha = a.alpha or 1 }))
      if a.marker then
        out[#out + 1] = MARKER[a.marker](sx + 12, cy, a.size):gsub("/>$", fmt(' fill="%s"/>', c), 1)
      end
    elseif a.kind == "scatter" or a.kind == "errorbar" then
      local m = a.marker or "o"
      local e = MARKER[m](sx + 12, cy, math.min(a.size, font))
      if STROKED[m] then
        e = e:gsub("/>$", fmt(' fill="none" stroke="%s" stroke-width="1.5"/>', a.color), 1)
      else
        e = e:gsub("/>$", fmt(' fill="%s"/>', a.values and color.sample(a.cmap, 0.5) or a.color), 1)
      end
      out[#out + 1] = e
    else
      local c = a.color or (a.colors and a.colors[1]) or color.sample(a.cmap or "viridis", 0.5)
      out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="24" height="%.2f" fill="%s" '
        .. 'fill-opacity="%s"/>', sx, cy - font * 0.35, font * 0.7, c, num(a.alpha or 1))
    end
    text(out, sx + 32, cy, a.label, { valign = "middle" })
    out[#out + 1] = "</g>"
  end
  out[#out + 1] = "</g>"
end

local function draw_colorbar(out, ax, box, font)
  local cb = ax.colorbar
  local x, y, w, h = box.x + box.w + 14, box.y, 12, box.h
  local lo, hi = math.min(cb.vmin, cb.vmax), math.max(cb.vmin, cb.vmax)
  local span = hi - lo
  local function py(v) return span ~= 0 and y + h - (v - lo) / span * h or y + h / 2 end
  out[#out + 1] = fmt('<g class="colorbar" data-cmap="%s" shape-rendering="crispEdges">', cb.cmap)
  if cb.levels then
    for b = 1, #cb.levels - 1 do
      local mid = (cb.levels[b] + cb.levels[b + 1]) / 2
      local ya, yb = py(cb.levels[b + 1]), py(cb.levels[b])
      out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>', x, ya,
        w, yb - ya, color.sample(cb.cmap, span ~= 0 and (mid - lo) / span or 0.5))
    end
  else
    local n = 64
    for k = 0, n - 1 do
      local ya, yb = y + h - (k + 1) * h / n, y + h - k * h / n
      out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>', x, ya,
        w, yb - ya + 0.5, color.sample(cb.cmap, (k + 0.5) / n))
    end
  end
  out[#out + 1] = fmt('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="none" '
    .. 'stroke="#333333" stroke-width="0.8"/>', x, y, w, h)
  local values, labels = scale.linear_ticks(lo, hi,
    math.max(2, math.min(9, math.floor(h / 45) + 1)))
  local tw = 0
  for k, v in ipairs(values) do
    local ty = py(v)
    out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#333333"/>', x + w,
      ty, x + w + 4, ty)
    text(out, x + w + 7, ty, labels[k], { valign = "middle" })
    tw = math.max(tw, common.text_width(labels[k], font))
  end
  if cb.label then
    local lx = x + w + 12 + tw + font
    text(out, lx, y + h / 2, cb.label, { anchor = "middle", rotation = 90 })
  end
  out[#out + 1] = "</g>"
end

-- ----------------------------------------------------------------- axes

local function draw_axes(out, ax, id)
  local fig = ax.fig
  local font = fig.font_size
  local box = ax:box()
  local fx, fy = ax:transforms()
  local x0, x1, y0, y1 = ax:limits()
  local xv, xl, yv, yl = ax:ticks()
  out[#out + 1] = fmt('<g class="axes" data-row="%d" data-col="%d" data-xlim="%s %s" '
    .. 'data-ylim="%s %s">', ax.row, ax.col, x0, x1, y0, y1)
  out[#out + 1] = fmt('<clipPath id="clip%d"><rect x="%.2f" y="%.2f" width="%.2f" '
    .. 'height="%.2f"/></clipPath>', id, box.x, box.y, box.w, box.h)
  out[#out + 1] = fmt('<rect class="plot-area" x="%.2f" y="%.2f" width="%.2f" height="%.2f" '
    .. 'fill="white"/>', box.x, box.y, box.w, box.h)
  if ax.opts.grid ~= false then
    out[#out + 1] = '<g class="grid" stroke="#e5e5e5" stroke-width="0.8">'
    for _, v in ipairs(xv) do
      out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>', fx(v), box.y, fx(v),
        box.y + box.h)
    end
    for _, v in ipairs(yv) do
      out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>', box.x, fy(v),
        box.x + box.w, fy(v))
    end
    out[#out + 1] = "</g>"
  end
  out[#out + 1] = fmt('<g class="artists" clip-path="url(#clip%d)">', id)
  for _, a in ipairs(ax.artists) do draw[a.kind](out, a, fx, fy, box) end
  out[#out + 1] = "</g>"
  out[#out + 1] = fmt('<rect class="frame" x="%.2f" y="%.2f" width="%.2f" height="%.2f" '
    .. 'fill="none" stroke="#333333" stroke-width="1"/>', box.x, box.y, box.w, box.h)
  out[#out + 1] = '<g class="xticks">'
  for k, v in ipairs(xv) do
    local px = fx(v)
    out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#333333"/>', px,
      box.y + box.h, px, box.y + box.h + 5)
    text(out, px, box.y + box.h + 8, xl[k], { anchor = "middle", valign = "top" })
  end
  out[#out + 1] = "</g>"
  out[#out + 1] = '<g class="yticks">'
  for k, v in ipairs(yv) do
    local py = fy(v)
    out[#out + 1] = fmt('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#333333"/>',
      box.x - 5, py, box.x, py)
    text(out, box.x - 8, py, yl[k], { anchor = "end", valign = "middle" })
  end
  out[#out + 1] = "</g>"
  local o = ax.opts
  if o.xlabel then
    text(out, box.x + box.w / 2, box.y + box.h + 16 + font, o.xlabel,
      { anchor = "middle", valign = "top", class = "xlabel" })
  end
  if o.ylabel then
    local w = 0
    for _, l in ipairs(yl) do w = math.max(w, common.text_width(l, font)) end
    local lx = box.x - 8 - w - 8 - font * 0.3
    text(out, lx, box.y + box.h / 2, o.ylabel, { anchor = "middle", rotation = 90, class = "ylabel" })
  end
  if o.title then
    text(out, box.x + box.w / 2, box.y - 10, o.title, { anchor = "middle", size = font * 1.2,
      class = "title" })
  end
  if ax.colorbar then draw_colorbar(out, ax, box, font) end
  if figure.legend_place(ax) then draw_legend(out, ax, box, fx, fy, font) end
  out[#out + 1] = "</g>"
end

--- render(fig) -> the SVG document as a string.
function svg.render(fig)
  local out = {
    '<?xml version="1.0" encoding="UTF-8"?>',
    fmt('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      .. 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="%s">', fig.width,
      fig.height, fig.width, fig.height, num(fig.font_size)),
    fmt('<rect class="background" x="0" y="0" width="%d" height="%d" fill="%s"/>', fig.width,
      fig.height, fig.background),
  }
  if fig.title then
    text(out, fig.width / 2, 8 + fig.font_size * 1.1, fig.title,
      { anchor = "middle", size = fig.font_size * 1.3, class = "suptitle" })
  end
  local id = 0
  for ax in fig:each_axes() do
    id = id + 1
    draw_axes(out, ax, id)
  end
  out[#out + 1] = "</svg>\n"
  return concat(out, "\n")
end

-- ---------------------------------------------------------------- files

local function check_files(fname)
  if luma.config().sandboxed or type(io) ~= "table" or not io.open then
    fail(3, "'%s' is not available in a sandboxed state (fig:svg() returns the SVG text)", fname)
  end
end

local function write_file(fname, path, data)
  local f, err = io.open(path, "wb")
  if not f then fail(3, "%s: cannot write %s", fname, err) end
  f:write(data)
  f:close()
end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- rsvg_available() -> true when rsvg-convert can be run.
function svg.rsvg_available()
  if not os or not os.execute then return false end
  return os.execute("command -v rsvg-convert >/dev/null 2>&1") == true
end

--- save(fig, path [, opts]): SVG or PNG by the path's extension.
function svg.save(fig, path, opts)
  if type(path) ~= "string" then
    fail(2, "bad argument #1 to 'save' (path expected, got %s)", type(path))
  end
  opts = common.check_opts("save", 2, opts, { scale = true })
  local ext = path:match("%.(%w+)$")
  ext = ext and ext:lower()
  if ext ~= "svg" and ext ~= "png" then
    fail(2, "bad argument #1 to 'save' (path must end in .svg or .png, got '%s')", path)
  end
  check_files("luma.plot.save")
  if ext == "svg" then
    write_file("save", path, svg.render(fig))
    return path
  end
  local zoom = common.number("save", 2, "scale", opts.scale, 1)
  if zoom <= 0 then fail(2, "bad argument #2 to 'save' (scale must be positive)") end
  -- PNG: drawn in-process when Luma has its raster renderer (FreeType,
  -- zlib and DejaVu Sans), else the SVG through rsvg-convert
  local raster = require("luma.plot.raster")
  local native_ok, why = raster.available()
  if native_ok then
    local ok, err = raster.save(fig, path, zoom)
    if not ok then fail(2, "save: %s", err) end
    return path
  end
  if not svg.rsvg_available() then
    fail(2, "luma.plot: saving PNG needs Luma's raster renderer (%s) or rsvg-convert (Debian "
      .. "package librsvg2-bin); save as .svg instead", why)
  end
  local doc = svg.render(fig)
  local tmp = os.tmpname()
  write_file("save", tmp, doc)
  local errfile = os.tmpname()
  local ok = os.execute(fmt("rsvg-convert -z %s -f png -o %s %s 2>%s", num(zoom), quote(path),
    quote(tmp), quote(errfile)))
  os.remove(tmp)
  local ef = io.open(errfile, "rb")
  local msg = ef and ef:read("a") or ""
  if ef then ef:close() end
  os.remove(errfile)
  if ok ~= true then
    fail(2, "luma.plot: rsvg-convert failed writing %s: %s", path, msg:gsub("%s+$", ""))
  end
  return path
end

return svg
