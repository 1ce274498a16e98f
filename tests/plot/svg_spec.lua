-- luma.plot's SVG: every plot type is well formed (checked with the strict
-- parser in tests/plot/xml.lua) and its elements land where the data says
-- (the pixel the axes' transform computes, recomputed here from the plot
-- box and the limits by the linear or log formula).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local xml = require("plot.xml")
local plot = luma.plot

local function parse(fig)
  local doc, err = xml.parse(fig:svg())
  assert(doc, err)
  return doc
end

local function num(s) return tonumber(s) end

-- The one element of a class (asserting there is exactly one).
local function one(doc, class)
  local found = xml.by_class(doc, class)
  assert.equal(1, #found, "elements of class " .. class)
  return found[1]
end

describe("luma.plot SVG", function()
  local BUILDERS = require("plot.kinds")
  for name, build in pairs(BUILDERS) do
    it("writes well-formed SVG: " .. name, function()
      local fig = plot.figure{ title = "t & <t>" }
      build(fig:axes(1, 1))
      fig:axes(1, 1):set{ title = name, xlabel = "x", ylabel = "y" }
      local doc = parse(fig)
      assert.equal("svg", doc.name)
      assert.equal("http://www.w3.org/2000/svg", doc.attrs.xmlns)
      assert.equal("640", doc.attrs.width)
      assert.equal(1, #xml.by_class(doc, "axes"))
      assert.equal("t & <t>", one(doc, "suptitle").text)
    end)
  end

  it("puts a scatter point at data (2, 3) where the axis transform says", function()
    local fig = plot.figure{ width = 500, height = 400 }
    local ax = fig:axes()
    ax:scatter({ 2, 7 }, { 3, 9 }):set{ xlim = { 0, 10 }, ylim = { 0, 10 } }
    local doc = parse(fig)
    local box = ax:box()
    -- the plot area rectangle of the SVG is the box
    local area = one(doc, "plot-area")
    assert.near(box.x, num(area.attrs.x), 0.006)
    assert.near(box.w, num(area.attrs.width), 0.006)
    assert.is_true(box.x > 0 and box.x + box.w < 500 and box.y > 0 and box.y + box.h < 400)
    local circles = xml.by_name(one(doc, "scatter"), "circle")
    assert.equal(2, #circles)
    -- linear: px = x0 + (x - lo) / (hi - lo) w; py = y0 + h - (y - lo) / (hi - lo) h
    assert.near(box.x + 0.2 * box.w, num(circles[1].attrs.cx), 0.006)
    assert.near(box.y + box.h - 0.3 * box.h, num(circles[1].attrs.cy), 0.006)
    assert.near(box.x + 0.7 * box.w, num(circles[2].attrs.cx), 0.006)
    assert.near(box.y + box.h - 0.9 * box.h, num(circles[2].attrs.cy), 0.006)
    local px, py = ax:transform(2, 3)
    assert.near(px, num(circles[1].attrs.cx), 0.006)
    assert.near(py, num(circles[1].attrs.cy), 0.006)
  end)

  it("places points on log axes by log10", function()
    local fig = plot.figure()
    local ax = fig:axes()
    ax:line({ 100, 1000 }, { 10, 1 }):set{ xscale = "log", yscale = "log", xlim = { 1, 1e4 },
      ylim = { 0.1, 100 } }
    local box = ax:box()
    local pts = {}
    for a, b in one(parse(fig), "line").children[1].attrs.points:gmatch("([%d.-]+),([%d.-]+)") do
      pts[#pts + 1] = { num(a), num(b) }
    end
    -- log10(100) = 2 of [0, 4]; log10(10) = 1 of [-1, 2]
    assert.near(box.x + 0.5 * box.w, pts[1][1], 0.006)
    assert.near(box.y + box.h - 2 / 3 * box.h, pts[1][2], 0.006)
    assert.near(box.x + 0.75 * box.w, pts[2][1], 0.006)
    assert.near(box.y + box.h - 1 / 3 * box.h, pts[2][2], 0.006)
    -- ticks at the powers of ten
    local xv, xl = ax:ticks()
    assert.same({ 1, 10, 100, 1000, 10000 }, xv)
    assert.same({ "1", "10", "100", "1000", "10000" }, xl)
  end)

  it("puts steps, error bars, bands, text, arrows and lines at their data", function()
    local fig = plot.figure()
    local ax = fig:axes()
    ax:step({ 1, 2 }, { 1, 3 }, { where = "post" })
    ax:errorbar({ 2 }, { 2 }, { 0.5 })
    ax:fill_between({ 1, 3 }, { 1, 2 }, 0)
    ax:text(2, 3, "t", { anchor = "middle" })
    ax:arrow(1, 1, 3, 3, { head = 8 })
    ax:hline(2):vline(2)
    ax:set{ xlim = { 0, 4 }, ylim = { 0, 4 } }
    local doc = parse(fig)
    local function px(x, y) return ax:transform(x, y) end
    local function near_pt(x, y, gx, gy)
      local ex, ey = px(x, y)
      assert.near(ex, gx, 0.006)
      assert.near(ey, gy, 0.006)
    end
    -- post: (1, 1) holds until x = 2, then jumps to 3
    local step = {}
    for a, b in one(doc, "line").children[1].attrs.points:gmatch("([%d.-]+),([%d.-]+)") do
      step[#step + 1] = { tonumber(a), tonumber(b) }
    end
    assert.equal(3, #step)
    near_pt(1, 1, step[1][1], step[1][2])
    near_pt(2, 1, step[2][1], step[2][2])
    near_pt(2, 3, step[3][1], step[3][2])
    -- the error bar runs from y = 1.5 to 2.5 at x = 2
    local d = xml.by_name(one(doc, "errorbar"), "path")[1].attrs.d
    local x0, y0, y1 = d:match("^M([%d.]+) ([%d.]+)V([%d.]+)")
    near_pt(2, 1.5, tonumber(x0), tonumber(y0))
    assert.near(select(2, px(2, 2.5)), tonumber(y1), 0.006)
    -- the band: forward along y1, back along y2 = 0
    local poly = xml.by_name(one(doc, "area"), "polygon")[1].attrs.points
    local corners = {}
    for a, b in poly:gmatch("([%d.-]+),([%d.-]+)") do corners[#corners + 1] = { tonumber(a), tonumber(b) } end
    near_pt(1, 1, corners[1][1], corners[1][2])
    near_pt(3, 2, corners[2][1], corners[2][2])
    near_pt(3, 0, corners[3][1], corners[3][2])
    near_pt(1, 0, corners[4][1], corners[4][2])
    local t = xml.by_name(one(doc, "text"), "text")[1]
    near_pt(2, 3, tonumber(t.attrs.x), tonumber(t.attrs.y))
    assert.equal("middle", t.attrs["text-anchor"])
    -- the arrow's head ends at (3, 3)
    local head = xml.by_name(one(doc, "arrow"), "polygon")[1].attrs.points
    local hx, hy = head:match("^([%d.-]+),([%d.-]+)")
    near_pt(3, 3, tonumber(hx), tonumber(hy))
    local h = xml.by_name(one(doc, "hline"), "line")[1].attrs
    assert.near(select(2, px(0, 2)), tonumber(h.y1), 0.006)
    assert.near(ax:box().x, tonumber(h.x1), 0.006)
    assert.near(ax:box().x + ax:box().w, tonumber(h.x2), 0.006)
    assert.near(px(2, 0), tonumber(xml.by_name(one(doc, "vline"), "line")[1].attrs.x1), 0.006)
  end)

  it("draws bars from 0 to their heights and hist counts numpy's way", function()
    local fig = plot.figure()
    local ax = fig:axes()
    -- numpy.histogram([1, 2, 2, 3, 3, 3], bins=3) -> [1, 2, 3], edges 1, 5/3, 7/3, 3
    local counts, edges = ax:hist({ 1, 2, 2, 3, 3, 3 }, { bins = 3 })
    assert.same({ 1, 2, 3 }, counts)
    assert.near(5 / 3, edges[2], 1e-15)
    ax:set{ ylim = { 0, 4 }, xlim = { 0, 4 } }
    local rects = xml.by_name(one(parse(fig), "bars"), "rect")
    assert.equal(3, #rects)
    local box = ax:box()
    local r = rects[3].attrs
    assert.near(box.x + 7 / 3 / 4 * box.w, num(r.x), 0.006)
    assert.near(box.x + 3 / 4 * box.w, num(r.x) + num(r.width), 0.006)
    assert.near(box.y + box.h, num(r.y) + num(r.height), 0.006) -- bottom at y = 0
    assert.near(box.y + box.h / 4, num(r.y), 0.006)              -- top at y = 3
    -- density: the bars' area is 1
    local dens = plot.figure():axes():hist({ 1, 2, 2, 3, 3, 3 }, { bins = 3, density = true })
    local area = 0
    for _, d in ipairs(dens) do area = area + d * 2 / 3 end
    assert.near(1, area, 1e-12)
  end)

  it("colours heatmap cells by viridis with row 1 on top, and annotates them", function()
    local fig = plot.figure()
    local ax = fig:axes()
    ax:heatmap({ { 0, 1 }, { 2, 3 } }, { annotate = "%d" })
    local doc = parse(fig)
    local cells = xml.by_name(one(doc, "image"), "rect")
    assert.equal(4, #cells)
    -- matplotlib's viridis: 0 -> #440154, 1 -> #fde725
    local by_fill = {}
    for _, c in ipairs(cells) do by_fill[c.attrs.fill] = c.attrs end
    local low, high = by_fill["#440154"], by_fill["#fde725"]
    assert.truthy(low and high)
    assert.is_true(num(low.y) < num(high.y)) -- (1, 1) above (2, 2)
    assert.is_true(num(low.x) < num(high.x))
    local px, py = ax:transform(1, 1)
    assert.near(px, num(low.x) + num(low.width) / 2, 0.01)
    assert.near(py, num(low.y) + num(low.height) / 2, 0.01)
    local texts = {}
    for _, t in ipairs(xml.by_name(one(doc, "annotations"), "text")) do texts[#texts + 1] = t.text end
    assert.same({ "0", "1", "2", "3" }, texts)
    assert.equal("#ffffff", xml.by_name(one(doc, "annotations"), "text")[1].attrs.fill)
    assert.equal(1, #xml.by_class(doc, "colorbar"))
  end)

  it("draws the contour of a plane where the level is", function()
    -- Z = x on a 3 x 3 grid: the level 0.5 is the vertical line x = 0.5
    local fig = plot.figure()
    local ax = fig:axes()
    ax:contour({ 0, 1, 2 }, { 0, 1, 2 }, { { 0, 1, 2 }, { 0, 1, 2 }, { 0, 1, 2 } }, { levels = { 0.5 } })
    local path = xml.by_name(one(parse(fig), "contour"), "path")[1]
    assert.equal("0.5", path.attrs["data-level"])
    local px = ax:transform(0.5, 0)
    local n = 0
    for a in path.attrs.d:gmatch("[ML]([%d.-]+) ") do
      assert.near(px, num(a), 0.006)
      n = n + 1
    end
    assert.equal(8, n) -- 4 triangles crossed, one segment each
    -- filled: one band per pair of levels, named by its limits
    local f2 = plot.figure()
    f2:contourf({ 0, 1, 2 }, { 0, 1, 2 }, { { 0, 1, 2 }, { 0, 1, 2 }, { 0, 1, 2 } }, { levels = { 0, 1, 2 } })
    local bands = xml.by_class(parse(f2), "band")
    assert.equal(2, #bands)
    assert.equal("0", bands[1].attrs["data-low"])
    assert.equal("2", bands[2].attrs["data-high"])
  end)

  it("lists labelled series in the legend, escaped", function()
    local fig = plot.figure()
    fig:line({ 1, 2 }, { 1, 2 }, { label = "a<b & c" }):scatter({ 1 }, { 2 }, { label = "pts" })
    local entries = xml.by_class(one(parse(fig), "legend"), "entry")
    assert.equal(2, #entries)
    assert.equal("a<b & c", entries[1].attrs["data-label"])
    assert.equal("pts", entries[2].attrs["data-label"])
    -- no labels, no legend
    assert.equal(0, #xml.by_class(parse(plot.line({ 1, 2 }, { 1, 2 })), "legend"))
  end)

  it("puts the legend where it hides the fewest points ('best')", function()
    local fig = plot.figure()
    local ax = fig:axes()
    -- points crowd the upper right: the legend goes to the upper left
    local xs, ys = {}, {}
    for i = 1, 50 do xs[i], ys[i] = 9 + i / 50, 9 + (i % 7) / 7 end
    ax:scatter(xs, ys, { label = "crowd" }):scatter({ 0 }, { 0 }):set{ xlim = { 0, 10 }, ylim = { 0, 10 } }
    local rect = xml.by_name(one(parse(fig), "legend"), "rect")[1]
    local box = ax:box()
    assert.near(box.x + 8, num(rect.attrs.x), 0.006)
    assert.near(box.y + 8, num(rect.attrs.y), 0.006)
  end)

  it("lays out a grid of axes left to right, top to bottom", function()
    local fig = plot.figure{ rows = 2, cols = 3, width = 900, height = 600 }
    for i = 1, 2 do for j = 1, 3 do fig:axes(i, j):line({ 1, 2 }, { i, j }) end end
    local axes = xml.by_class(parse(fig), "axes")
    assert.equal(6, #axes)
    local b11, b12, b21 = fig:axes(1, 1):box(), fig:axes(1, 2):box(), fig:axes(2, 1):box()
    assert.is_true(b11.x + b11.w < b12.x and b11.y + b11.h < b21.y)
    assert.equal("2", axes[4].attrs["data-row"])
  end)

  it("chooses nice ticks (Heckbert's 1, 2, 5 steps)", function()
    assert.same({ { 0, 0.2, 0.4, 0.6, 0.8, 1 }, { "0.0", "0.2", "0.4", "0.6", "0.8", "1.0" } },
      { plot.ticks(0, 1) })
    local v, l = plot.ticks(-2.9, 2.6, { n = 3 })
    assert.same({ -2, 0, 2 }, v)
    assert.same({ "-2", "0", "2" }, l)
    v, l = plot.ticks(0.5, 25.5, { n = 9 })
    assert.same({ "5", "10", "15", "20", "25" }, l)
    v, l = plot.ticks(3, 900, { scale = "log" })
    assert.same({ 10, 100 }, v)
    v, l = plot.ticks(2, 30, { scale = "log" })
    assert.same({ "2", "5", "10", "20" }, l)
    v, l = plot.ticks(0, 3e6, { n = 4 })
    assert.same({ "0", "1e6", "2e6", "3e6" }, l)
    v, l = plot.ticks(-1, 1, { n = 3 })
    assert.same({ "-1", "0", "1" }, l) -- never "-0"
  end)

  it("ticks a range no nice step divides by its finite ends, never looping", function()
    -- a constant heatmap's colorbar spans [1, 1]: the step was 0 and the
    -- tick loop ran from inf to inf (the API fuzzer's hang)
    local fig = plot.figure()
    fig:heatmap(luma.ones(3, 3))
    local bar = one(parse(fig), "colorbar")
    local labels = {}
    for _, t in ipairs(xml.by_name(bar, "text")) do labels[#labels + 1] = t.text end
    assert.same({ "1" }, labels)
    local scale = require("luma.plot.scale")
    assert.same({ { 1 }, { "1" } }, { scale.linear_ticks(1, 1) })
    -- the range overflows a double: the two ends
    assert.same({ { -1e308, 1e308 }, { "-1e308", "1e308" } }, { scale.linear_ticks(-1e308, 1e308) })
    assert.same({ {}, {} }, { scale.linear_ticks(-1 / 0, 1 / 0) })
    -- log ticks from 0: infinitely many decades
    assert.same({ { 0, 10 }, { "0", "10" } }, { scale.log_ticks(0, 10) })
  end)

  it("samples colormaps as matplotlib 3.6 does", function()
    assert.equal("#440154", plot.colormap("viridis", 0))
    assert.equal("#21918c", plot.colormap("viridis", 0.5))
    assert.equal("#fde725", plot.colormap("viridis", 1))
    assert.equal("#fde725", plot.colormap("viridis_r", 0))
    assert.equal("#000004", plot.colormap("magma", 0))
    assert.equal("#1f77b4", plot.palette()[1])
  end)

  it("thins a large scatter only where markers coincide on a quarter pixel", function()
    -- 100 x 100 distinct grid points, each given twice: 20000 points, 10000 markers
    local xs, ys = {}, {}
    for i = 1, 100 do
      for j = 1, 100 do
        xs[#xs + 1], ys[#ys + 1] = i, j
        xs[#xs + 1], ys[#ys + 1] = i, j
      end
    end
    local fig = plot.scatter(xs, ys, { size = 2 })
    -- large scatters are written as dots: zero-length subpaths "Mx yh0"
    local dots = xml.by_class(one(parse(fig), "scatter"), "dots")
    assert.equal(1, #dots)
    assert.equal("2.00", one(parse(fig), "scatter").attrs["stroke-width"])
    local n, ax = 0, fig:axes()
    for px, py in dots[1].attrs.d:gmatch("M([%d.]+) ([%d.]+)h0") do
      n = n + 1
      if n == 1 then
        local ex, ey = ax:transform(1, 1)
        assert.is_true(math.abs(ex - tonumber(px)) <= 0.125 and math.abs(ey - tonumber(py)) <= 0.125)
      end
    end
    assert.equal(10000, n)
    -- translucent markers are never thinned (overdraw changes the colour)
    local fig2 = plot.scatter(xs, ys, { size = 2, alpha = 0.5 })
    assert.equal(20000, #xml.by_name(one(parse(fig2), "scatter"), "circle"))
  end)

  it("leaves out markers that the plot box would clip entirely", function()
    local fig = plot.scatter({ 1, 5, 9 }, { 1, 5, 9 }):set{ xlim = { 4, 6 }, ylim = { 4, 6 } }
    local circles = xml.by_name(one(parse(fig), "scatter"), "circle")
    assert.equal(1, #circles)
    assert.near(fig:axes():transform(5, 5), tonumber(circles[1].attrs.cx), 0.006)
  end)

  it("returns the SVG text and saves SVG files", function()
    local base = os.tmpname() -- created by tmpname: the SVG goes next to it
    local path = base .. ".svg"
    os.remove(base)
    local fig = plot.line({ 1, 2, 3 })
    assert.equal(path, fig:save(path))
    local f = assert(io.open(path, "rb"))
    assert.equal(fig:svg(), f:read("a"))
    f:close()
    os.remove(path)
  end)
end)

describe("luma.plot bad input", function()
  it("refuses mismatched x and y lengths", function()
    support.errors_with("bad argument #2 to 'line' %(y has 2 values but x has 3%)", function()
      plot.figure():axes():line({ 1, 2, 3 }, { 1, 2 })
    end)
    support.errors_with("y has 1 values but x has 2", function() plot.scatter({ 1, 2 }, { 1 }) end)
    support.errors_with("c has 1 values but x has 2", function() plot.scatter({ 1, 2 }, { 1, 2 }, { c = { 1 } }) end)
    support.errors_with("Z is 3 x 3 but x has 2 values", function()
      plot.contour({ 1, 2 }, { 1, 2, 3 }, { { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } })
    end)
  end)

  it("skips NaN and infinite points with a warning, as matplotlib", function()
    local fig
    local warnings = support.capture_warnings(function()
      fig = plot.scatter({ 1, 0 / 0, 3, 4 }, { 1, 2, 1 / 0, 4 })
    end)
    assert.same({ "luma.plot: scatter: skipped 2 of 4 points with NaN or infinite values" }, warnings)
    local circles = xml.by_name(xml.by_class(xml.parse(fig:svg()), "scatter")[1], "circle")
    assert.equal(2, #circles)
    warnings = support.capture_warnings(function() plot.line(luma.matrix{ 1, -1 / 0, 2 }) end)
    assert.equal(1, #warnings)
  end)

  it("requires the positions of text, hline and vline and the t of colormap", function()
    -- a missing one used to be stored as nil and fail later, inside svg()
    local ax = plot.figure():axes()
    assert.has_error(function() ax:text(nil, 1, "a") end,
      "bad argument #1 to 'text' (x must be a finite number, got nil)")
    assert.has_error(function() ax:text(1, nil, "a") end,
      "bad argument #2 to 'text' (y must be a finite number, got nil)")
    assert.has_error(function() ax:hline() end,
      "bad argument #1 to 'hline' (y must be a finite number, got nil)")
    assert.has_error(function() ax:vline() end,
      "bad argument #1 to 'vline' (x must be a finite number, got nil)")
    assert.has_error(function() plot.colormap("viridis") end,
      "bad argument #2 to 'colormap' (t must be a finite number, got nil)")
  end)

  it("refuses an empty series", function()
    support.errors_with("x is empty", function() plot.line({}, {}) end)
    support.errors_with("values is empty", function() plot.hist({}) end)
    support.errors_with("Z is empty", function() plot.heatmap({}) end)
    support.errors_with("x is empty", function() plot.scatter(luma.zeros(0, 1), luma.zeros(0, 1)) end)
  end)

  it("refuses non-positive values on a log scale, in either order", function()
    support.errors_with("the y axis has a log scale but the data has the non%-positive value 0",
      function() plot.line({ 1, 2 }, { 0, 1 }):set{ yscale = "log" } end)
    support.errors_with("the x axis has a log scale but the data has the non%-positive value %-1",
      function() plot.figure():set{ xscale = "log" }:scatter({ -1, 2 }, { 1, 2 }) end)
    support.errors_with("xlim must be positive on a log scale", function()
      plot.figure():set{ xlim = { 0, 1 } }:set{ xscale = "log" }
    end)
    support.errors_with("ylim must be positive on a log scale", function()
      plot.figure():set{ yscale = "log" }:set{ ylim = { -1, 1 } }
    end)
  end)

  it("names the valid colormaps and markers", function()
    support.errors_with("unknown colormap 'jet'; valid: cividis, coolwarm, gray, inferno, magma, "
      .. "plasma, viridis", function() plot.heatmap({ { 1 } }, { cmap = "jet" }) end)
    support.errors_with("unknown marker '%*'; valid: o, s, %^, v, d, x, %+", function()
      plot.scatter({ 1 }, { 1 }, { marker = "*" })
    end)
    support.errors_with("unknown colour 'rouge'", function() plot.line({ 1, 2 }, { color = "rouge" }) end)
    support.errors_with("unknown option 'colour'; valid options: ", function()
      plot.line({ 1 }, { 1 }, { colour = "red" })
    end)
    support.errors_with("unknown line style '~'", function() plot.line({ 1 }, { 1 }, { style = "~" }) end)
  end)

  it("refuses a path it cannot write", function()
    support.errors_with("path must end in %.svg or %.png", function() plot.line({ 1 }):save("x.pdf") end)
    support.errors_with("cannot write", function() plot.line({ 1 }):save("/nonexistent/dir/x.svg") end)
  end)
end)
