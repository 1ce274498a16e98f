--- luma.plot.terminal: figures drawn with Unicode braille characters and
-- ANSI colours, for a quick look from the REPL or a script on a terminal
-- (the idea of Julia's UnicodePlots).
--
-- Each character cell of the plotting area holds a 2 x 4 grid of dots (a
-- braille pattern U+2800 + bits), so a w x h character area is a canvas of
-- 2w x 4h dots.  A cell has one foreground colour (the last series drawn
-- through it) and optionally a background colour (images and filled
-- contours, sampled at the cell's centre).  Lines are rasterised with
-- Bresenham's algorithm after clipping to the canvas (Liang and Barsky);
-- markers are single dots; bars and histograms are solid dot blocks.
-- SPDX-License-Identifier: MIT
local common = require("luma.plot.common")
local color = require("luma.plot.color")
local contour = require("luma.plot.contour")
local figure = require("luma.plot.figure")
local native = require("luma.plot.native")
local scale = require("luma.plot.scale")
local svg = require("luma.plot.svg")

local fmt, concat = string.format, table.concat

local terminal = {}

-- Bit of the dot (col 0..1, row 0..3) in a braille cell (Unicode's dot
-- numbering: 1 2 3 7 down the left column, 4 5 6 8 down the right).
local BIT = { [0] = { [0] = 0x01, 0x02, 0x04, 0x40 }, [1] = { [0] = 0x08, 0x10, 0x20, 0x80 } }

-- ---------------------------------------------------------------- canvas

local Canvas = {}
Canvas.__index = Canvas

local function new_canvas(w, h)
  local c = setmetatable({ w = w, h = h, dw = 2 * w, dh = 4 * h, bits = {}, fg = {}, bg = {},
    chars = {}, cfg = {} }, Canvas)
  for i = 1, w * h do c.bits[i] = 0 end
  return c
end

-- Sets dot (x, y) (0-based, y down) in colour col.
function Canvas:dot(x, y, col)
  x, y = math.floor(x + 0.5), math.floor(y + 0.5)
  if x < 0 or y < 0 or x >= self.dw or y >= self.dh then return end
  local cx, cy = x // 2, y // 4
  local k = cy * self.w + cx + 1
  self.bits[k] = self.bits[k] | BIT[x % 2][y % 4]
  self.fg[k] = col
end

-- Liang-Barsky clipping of the segment to the canvas (in dot units);
-- returns the clipped end points or nil when nothing is inside.
local function clip(x1, y1, x2, y2, w, h)
  local t0, t1 = 0, 1
  local dx, dy = x2 - x1, y2 - y1
  for _, pq in ipairs{ { -dx, x1 + 0.5 }, { dx, w - 0.5 - x1 }, { -dy, y1 + 0.5 }, { dy, h - 0.5 - y1 } } do
    local p, q = pq[1], pq[2]
    if p == 0 then
      if q < 0 then return nil end
    else
      local r = q / p
      if p < 0 then
        if r > t1 then return nil end
        if r > t0 then t0 = r end
      else
        if r < t0 then return nil end
        if r < t1 then t1 = r end
      end
    end
  end
  return x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy
end

-- A line of dots from (x1, y1) to (x2, y2), every `skip`-th dot (dotted
-- styles) or all.
function Canvas:line(x1, y1, x2, y2, col, skip)
  if not (x1 == x1 and y1 == y1 and x2 == x2 and y2 == y2) then return end
  x1, y1, x2, y2 = clip(x1, y1, x2, y2, self.dw, self.dh)
  if not x1 then return end
  local ax, ay = math.floor(x1 + 0.5), math.floor(y1 + 0.5)
  local bx, by = math.floor(x2 + 0.5), math.floor(y2 + 0.5)
  local dx, dy = math.abs(bx - ax), -math.abs(by - ay)
  local sx, sy = ax < bx and 1 or -1, ay < by and 1 or -1
  local err = dx + dy
  local k = 0
  while true do
    if not skip or k % skip == 0 then self:dot(ax, ay, col) end
    k = k + 1
    if ax == bx and ay == by then break end
    local e2 = 2 * err
    if e2 >= dy then err = err + dy ax = ax + sx end
    if e2 <= dx then err = err + dx ay = ay + sy end
  end
end

-- Fills the dots of a rectangle (dot units, any corner order); with
-- sparse, only a checkerboard of them (translucent areas).
function Canvas:rect(x1, y1, x2, y2, col, sparse)
  local xa, xb = math.max(0, math.floor(math.min(x1, x2) + 0.5)), math.min(self.dw - 1, math.floor(math.max(x1, x2) + 0.5))
  local ya, yb = math.max(0, math.floor(math.min(y1, y2) + 0.5)), math.min(self.dh - 1, math.floor(math.max(y1, y2) + 0.5))
  for y = ya, yb do
    for x = xa, xb do
      if not sparse or (x + y) % 2 == 0 then self:dot(x, y, col) end
    end
  end
end

-- Background colour of the character cell (cx, cy), 0-based.
function Canvas:background(cx, cy, col)
  if cx < 0 or cy < 0 or cx >= self.w or cy >= self.h then return end
  self.bg[cy * self.w + cx + 1] = col
end

-- Text written into the cells from (cx, cy) on.
function Canvas:text(cx, cy, s, col)
  if cy < 0 or cy >= self.h then return end
  local i = 0
  for _, code in utf8.codes(s) do
    local x = cx + i
    if x >= 0 and x < self.w then
      self.chars[cy * self.w + x + 1] = utf8.char(code)
      self.cfg[cy * self.w + x + 1] = col
    end
    i = i + 1
  end
end

-- ---------------------------------------------------------------- colours

-- The colour escapes of a mode: "truecolor", "256" or false (none).
local function escapes(mode)
  if not mode then
    return function() return "" end, function() return "" end
  end
  if mode == "truecolor" then
    return function(c) return fmt("\27[38;2;%d;%d;%dm", color.rgb(c)) end,
      function(c) return fmt("\27[48;2;%d;%d;%dm", color.rgb(c)) end
  end
  -- xterm's 256 colours: the 6 x 6 x 6 cube or the 24 grays, the nearer
  local levels = { 0, 95, 135, 175, 215, 255 }
  local function nearest(v)
    local best, bi = math.huge, 0
    for i, l in ipairs(levels) do
      if math.abs(v - l) < best then best, bi = math.abs(v - l), i - 1 end
    end
    return bi
  end
  local cache = {}
  local function index(c)
    if cache[c] then return cache[c] end
    local r, g, b = color.rgb(c)
    local ri, gi, bi = nearest(r), nearest(g), nearest(b)
    local cube = 16 + 36 * ri + 6 * gi + bi
    local dc = (levels[ri + 1] - r) ^ 2 + (levels[gi + 1] - g) ^ 2 + (levels[bi + 1] - b) ^ 2
    local gray = math.max(0, math.min(23, math.floor(((r + g + b) / 3 - 8) / 10 + 0.5)))
    local gv = 8 + 10 * gray
    local dg = (gv - r) ^ 2 + (gv - g) ^ 2 + (gv - b) ^ 2
    local k = dg < dc and 232 + gray or cube
    cache[c] = k
    return k
  end
  return function(c) return fmt("\27[38;5;%dm", index(c)) end,
    function(c) return fmt("\27[48;5;%dm", index(c)) end
end

-- ------------------------------------------------------------- artists

local draw = {}

local function dash_skip(a)
  return a.dash and 2 or nil
end

function draw.line(cv, a, fx, fy)
  local skip = dash_skip(a)
  for i = 2, #a.xs do
    cv:line(fx(a.xs[i - 1]), fy(a.ys[i - 1]), fx(a.xs[i]), fy(a.ys[i]), a.color, skip)
  end
  if #a.xs == 1 then cv:dot(fx(a.xs[1]), fy(a.ys[1]), a.color) end
end

function draw.scatter(cv, a, fx, fy)
  local span = a.values and a.vmax - a.vmin or 0
  for i = 1, #a.xs do
    local c = a.color
    if a.values then c = color.sample(a.cmap, span ~= 0 and (a.values[i] - a.vmin) / span or 0.5) end
    cv:dot(fx(a.xs[i]), fy(a.ys[i]), c)
  end
end

function draw.bars(cv, a, fx, fy)
  for _, r in ipairs(a.rects) do
    cv:rect(fx(r[1]), fy(r[3]), fx(r[2]), fy(r[4]), a.color, a.alpha < 1)
  end
end

function draw.errorbar(cv, a, fx, fy)
  for _, s in ipairs(a.segs) do cv:line(fx(s[1]), fy(s[2]), fx(s[3]), fy(s[4]), a.color) end
  for i = 1, #a.px do
    local x, y = fx(a.px[i]), fy(a.py[i])
    cv:rect(x - 0.5, y - 0.5, x + 0.5, y + 0.5, a.color)
  end
end

function draw.area(cv, a, fx, fy)
  -- every other dot between the two curves, column by column
  for i = 2, #a.x do
    local xa, xb = fx(a.x[i - 1]), fx(a.x[i])
    local steps = math.max(1, math.ceil(math.abs(xb - xa)))
    for k = 0, steps do
      local t = k / steps
      local x = xa + t * (xb - xa)
      local y1 = fy(a.y1[i - 1] + t * (a.y1[i] - a.y1[i - 1]))
      local y2 = fy(a.y2[i - 1] + t * (a.y2[i] - a.y2[i - 1]))
      cv:rect(x, y1, x, y2, a.color, true)
    end
  end
end

-- Calls fn(cx, cy, dx, dy) with the data coordinates (dx, dy) of every
-- character cell's centre.
local function each_cell(cv, ix, iy, fn)
  for cy = 0, cv.h - 1 do
    for cx = 0, cv.w - 1 do fn(cx, cy, ix(2 * cx + 0.5), iy(4 * cy + 1.5)) end
  end
end

function draw.image(cv, a, _, _, ix, iy)
  local colour = svg.image_colors(a)
  local e = a.extent
  each_cell(cv, ix, iy, function(cx, cy, x, y)
    local xlo, xhi = math.min(e[1], e[2]), math.max(e[1], e[2])
    local ylo, yhi = math.min(e[3], e[4]), math.max(e[3], e[4])
    if x < xlo or x > xhi or y < ylo or y > yhi then return end
    local j = math.min(a.ncols, math.floor((x - e[1]) / (e[2] - e[1]) * a.ncols) + 1)
    local r = math.min(a.nrows, math.floor((y - e[3]) / (e[4] - e[3]) * a.nrows) + 1)
    local i = a.row1_top and a.nrows + 1 - r or r
    local c = colour(math.max(1, i), math.max(1, j))
    if c then cv:background(cx, cy, c) end
  end)
end

-- The grid index below v in the increasing list xs (nil outside).
local function locate(xs, v)
  if v < xs[1] or v > xs[#xs] then return nil end
  local lo, hi = 1, #xs - 1
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if v >= xs[mid] then lo = mid else hi = mid - 1 end
  end
  return lo
end

function draw.contour(cv, a, fx, fy, ix, iy)
  local colors = svg.level_colors(a)
  if a.filled then
    each_cell(cv, ix, iy, function(cx, cy, x, y)
      local j, i = locate(a.x, x), locate(a.y, y)
      if not (i and j) then return end
      -- bilinear value at the cell centre, then its band
      local tx = (x - a.x[j]) / (a.x[j + 1] - a.x[j])
      local ty = (y - a.y[i]) / (a.y[i + 1] - a.y[i])
      local Z = a.Z
      local v = (1 - ty) * ((1 - tx) * Z[i][j] + tx * Z[i][j + 1])
        + ty * ((1 - tx) * Z[i + 1][j] + tx * Z[i + 1][j + 1])
      if v ~= v then return end
      for b = 1, #a.levels - 1 do
        if v >= a.levels[b] and v <= a.levels[b + 1] then
          cv:background(cx, cy, colors[b])
          return
        end
      end
    end)
  else
    for k, level in ipairs(a.levels) do
      for _, s in ipairs(contour.lines(a.x, a.y, a.Z, level)) do
        cv:line(fx(s[1]), fy(s[2]), fx(s[3]), fy(s[4]), colors[k])
      end
    end
  end
end

function draw.text(cv, a, fx, fy)
  local x, y
  if a.coords == "axes" then
    x, y = a.x * (cv.dw - 1), (1 - a.y) * (cv.dh - 1)
  else
    x, y = fx(a.x), fy(a.y)
  end
  local n = utf8.len(a.text) or #a.text
  local cx = math.floor(x / 2 + 0.5)
  if a.anchor == "middle" then cx = cx - n // 2 elseif a.anchor == "end" then cx = cx - n end
  cv:text(cx, math.floor(y / 4), a.text, a.color)
end

local HEADS = { "→", "↗", "↑", "↖", "←", "↙", "↓", "↘" }

function draw.arrow(cv, a, fx, fy)
  local x1, y1, x2, y2 = fx(a.x1), fy(a.y1), fx(a.x2), fy(a.y2)
  cv:line(x1, y1, x2, y2, a.color)
  local angle = math.atan(-(y2 - y1), x2 - x1)
  local k = math.floor(angle / (math.pi / 4) + 0.5) % 8 + 1
  cv:text(math.floor(x2 / 2), math.floor(y2 / 4), HEADS[k], a.color)
end

function draw.hline(cv, a, _, fy)
  local y = fy(a.value)
  cv:line(0, y, cv.dw - 1, y, a.color, 2)
end

function draw.vline(cv, a, fx)
  local x = fx(a.value)
  cv:line(x, 0, x, cv.dh - 1, a.color, 2)
end

-- ------------------------------------------------------------- layout

local BOX = { tl = "┌", tr = "┐", bl = "└", br = "┘", h = "─", v = "│" }

-- Draws one axes into `screen` (a list of rows, each a list of cells
-- {char, fg, bg}) at character position (x0, y0) with size w x h.
local function draw_axes(screen, ax, x0, y0, w, h)
  local o = ax.opts
  local xlo, xhi, ylo, yhi = ax:limits()
  local entries = figure.legend_entries(ax)
  local legend_w = 0
  for _, a in ipairs(entries) do legend_w = math.max(legend_w, (utf8.len(a.label) or #a.label) + 3) end
  local cb_w = ax.colorbar and 10 or 0
  local top = (o.title and 1 or 0) + (o.ylabel and 1 or 0)
  local bottom = 1 + (o.xlabel and 1 or 0)
  local ph = math.max(2, h - top - bottom - 2)
  -- y tick labels: nice ticks for the plot's height, at the rows they fall on
  local yv, yl
  if o.yticks then
    yv, yl = select(3, ax:ticks())
  else
    yv, yl = scale.ticks(o.yscale or "linear", ylo, yhi, math.max(2, ph // 3))
  end
  local left = 0
  for _, l in ipairs(yl) do left = math.max(left, utf8.len(l) or #l) end
  left = left + 1
  local pw = math.max(4, w - left - 2 - (legend_w > 0 and legend_w + 1 or 0) - cb_w)
  local cv = new_canvas(pw, ph)
  local fx = scale.transform(o.xscale or "linear", xlo, xhi, 0, cv.dw - 1)
  local fy = scale.transform(o.yscale or "linear", ylo, yhi, cv.dh - 1, 0)
  -- the inverse maps (dot -> data) for images and filled contours
  local function inverse(kind, lo, hi, p0, p1)
    local f = scale.forward
    local a, b = f(kind, lo), f(kind, hi)
    return function(p)
      local t = a + (p - p0) / (p1 - p0) * (b - a)
      return kind == "log" and 10 ^ t or t
    end
  end
  local ix = inverse(o.xscale or "linear", xlo, xhi, 0, cv.dw - 1)
  local iy = inverse(o.yscale or "linear", ylo, yhi, cv.dh - 1, 0)
  for _, a in ipairs(ax.artists) do draw[a.kind](cv, a, fx, fy, ix, iy) end

  local function put(x, y, s, fg)
    local row = screen[y0 + y]
    if not row then return end
    local i = 0
    for _, code in utf8.codes(s) do
      local cell = row[x0 + x + i]
      if cell then cell[1], cell[2], cell[3] = utf8.char(code), fg, nil end
      i = i + 1
    end
  end
  local y = 0
  if o.title then
    local n = utf8.len(o.title) or #o.title
    put(left + 1 + math.max(0, (pw - n) // 2), y, o.title, nil)
    y = y + 1
  end
  if o.ylabel then
    put(0, y, o.ylabel, nil)
    y = y + 1
  end
  local ftop = y
  put(left, ftop, BOX.tl .. BOX.h:rep(pw) .. BOX.tr)
  for r = 0, ph - 1 do
    put(left, ftop + 1 + r, BOX.v)
    put(left + pw + 1, ftop + 1 + r, BOX.v)
    for c = 0, pw - 1 do
      local k = r * pw + c + 1
      local cell = screen[y0 + ftop + 1 + r][x0 + left + 1 + c]
      if cv.chars[k] then
        cell[1], cell[2] = cv.chars[k], cv.cfg[k]
      elseif cv.bits[k] ~= 0 then
        cell[1], cell[2] = utf8.char(0x2800 + cv.bits[k]), cv.fg[k]
      end
      cell[3] = cv.bg[k]
    end
  end
  put(left, ftop + ph + 1, BOX.bl .. BOX.h:rep(pw) .. BOX.br)
  -- y tick labels right-aligned before the frame
  for k, v in ipairs(yv) do
    local row = math.floor(fy(v) / 4)
    if row >= 0 and row < ph then
      put(left - 1 - (utf8.len(yl[k]) or #yl[k]), ftop + 1 + row, yl[k])
    end
  end
  -- x tick labels centred under their columns, skipped where they would touch
  local xv, xl
  if o.xticks then
    xv, xl = ax:ticks()
  else
    xv, xl = scale.ticks(o.xscale or "linear", xlo, xhi, math.max(2, pw // 10))
  end
  local used = -1
  for k, v in ipairs(xv) do
    local n = utf8.len(xl[k]) or #xl[k]
    local col = left + 1 + math.floor(fx(v) / 2) - n // 2
    col = math.max(0, math.min(col, left + pw + 2 - n))
    if col > used then
      put(col, ftop + ph + 2, xl[k])
      used = col + n
    end
  end
  if o.xlabel then
    local n = utf8.len(o.xlabel) or #o.xlabel
    put(left + 1 + math.max(0, (pw - n) // 2), ftop + ph + 3, o.xlabel)
  end
  -- colorbar: a column of blocks from vmax (top) to vmin, with the limits
  local lx = left + pw + 3
  if ax.colorbar then
    local cb = ax.colorbar
    for r = 0, ph - 1 do
      local t = ph > 1 and 1 - r / (ph - 1) or 0.5
      put(lx, ftop + 1 + r, "██", color.sample(cb.cmap, t))
    end
    put(lx + 3, ftop + 1, scale.short(math.max(cb.vmin, cb.vmax)))
    put(lx + 3, ftop + ph, scale.short(math.min(cb.vmin, cb.vmax)))
    lx = lx + cb_w
  end
  for k, a in ipairs(entries) do
    local c = a.color or (a.colors and a.colors[1]) or (a.cmap and color.sample(a.cmap, 0.5))
    local mark = (a.kind == "line" or a.kind == "hline" or a.kind == "vline") and "──" or
      (a.kind == "scatter" and "⣿ " or "██")
    if k <= ph then
      put(lx, ftop + k, mark, c)
      put(lx + 3, ftop + k, a.label)
    end
  end
end

--- size(opts) -> columns, rows: opts' width/height, else the terminal's
-- (standard output), else COLUMNS/LINES, else 80 x 24; the height is
-- the terminal's less 4 rows (the prompt and the command stay visible),
-- at most 30.
function terminal.size(opts)
  local cols, rows = native.terminal_size("stdout")
  cols = cols or tonumber(os and os.getenv and os.getenv("COLUMNS")) or 80
  rows = rows or tonumber(os and os.getenv and os.getenv("LINES")) or 24
  local w = opts.width or cols
  local h = opts.height or math.max(8, math.min(rows - 4, 30))
  return w, h
end

--- color_mode() -> "truecolor", "256" or false from the environment
-- (NO_COLOR turns colour off; COLORTERM=truecolor|24bit asks for 24 bits).
function terminal.color_mode()
  local getenv = os and os.getenv or function() return nil end
  if getenv("NO_COLOR") then return false end
  local ct = getenv("COLORTERM") or ""
  if ct:match("truecolor") or ct:match("24bit") then return "truecolor" end
  return "256"
end

--- render(fig [, {width, height, color}]) -> the drawing as text lines.
function terminal.render(fig, opts)
  opts = common.check_opts("terminal", 2, opts, { width = true, height = true, color = true,
    write = true })
  local w, h = terminal.size(opts)
  for name, v in pairs{ width = w, height = h } do
    if math.type(v) ~= "integer" or v < (name == "width" and 20 or 6) then
      common.fail(2, "bad argument #2 to 'terminal' (%s must be an integer >= %d, got %s)", name,
        name == "width" and 20 or 6, tostring(v))
    end
  end
  local mode = opts.color
  if mode == nil or mode == true then mode = terminal.color_mode() end
  if mode then mode = common.choice("terminal", 2, "color", mode, { "truecolor", "256" }) end
  local fgesc, bgesc = escapes(mode)
  local screen = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = { " " } end
    screen[y] = row
  end
  local top = 1
  if fig.title then
    local n = utf8.len(fig.title) or #fig.title
    local start = math.max(1, (w - n) // 2 + 1)
    local i = 0
    for _, code in utf8.codes(fig.title) do
      if screen[1][start + i] then screen[1][start + i][1] = utf8.char(code) end
      i = i + 1
    end
    top = 2
  end
  local cw, ch = w // fig.cols, (h - top + 1) // fig.rows
  for ax in fig:each_axes() do
    -- a blank column between neighbouring panels
    draw_axes(screen, ax, (ax.col - 1) * cw + 1, top + (ax.row - 1) * ch,
      ax.col < fig.cols and cw - 1 or cw, ch)
  end
  local lines = {}
  for y = 1, h do
    local parts, cur_fg, cur_bg = {}, nil, nil
    for x = 1, w do
      local cell = screen[y][x]
      local fg, bg = cell[2], cell[3]
      if mode and (fg ~= cur_fg or bg ~= cur_bg) then
        if (cur_fg or cur_bg) then parts[#parts + 1] = "\27[0m" end
        if fg then parts[#parts + 1] = fgesc(fg) end
        if bg then parts[#parts + 1] = bgesc(bg) end
        cur_fg, cur_bg = fg, bg
      end
      parts[#parts + 1] = cell[1]
    end
    if mode and (cur_fg or cur_bg) then parts[#parts + 1] = "\27[0m" end
    lines[y] = (concat(parts):gsub(" +$", ""))
  end
  return concat(lines, "\n") .. "\n"
end

return terminal
