-- luma.plot's in-process PNG renderer (lua/luma/plot/raster.lua on the
-- native canvas of src/ml/plot): every plot kind saves as a sane PNG, and
-- pixels of simple shapes have the colours the geometry implies.  The
-- files are decoded by tests/plot/png.lua (python3's zlib; pending
-- without python3), pending too when Luma was built without FreeType and
-- zlib.
--
-- Expected anti-aliased values: the canvas blends a colour c over a
-- background b with weight k = floor(256 coverage alpha + 1/2) as
-- (c k + b (256 - k) + 128) >> 8, and a rectangle's edge pixel is
-- covered by the fraction of it inside the rectangle.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local png = require("plot.png")
local native = require("luma.plot.native")
local plot = luma.plot

local function ready()
  if not native.support() then
    pending("Luma was built without its PNG renderer: " .. select(2, native.support()))
    return false
  end
  if not png.available() then
    pending("python3 (the PNG reader of the tests) is not installed")
    return false
  end
  return true
end

local function tmp_png()
  local base = os.tmpname() -- created by tmpname: the PNG goes next to it
  os.remove(base)
  return base .. ".png"
end

-- Saves fig as PNG (through fig:save) and reads it with the probes.
local function render(fig, points)
  local path = tmp_png()
  assert.equal(path, fig:save(path))
  local info = png.read(path, points)
  os.remove(path)
  return info
end

local function blend(c, k, b)
  b = b or 255
  return (c * k + b * (256 - k) + 128) >> 8
end

local function near_rgb(expected, got, tol, what)
  for i = 1, 3 do
    assert.is_true(math.abs(expected[i] - got[i]) <= tol, string.format(
      "%s: expected %.0f,%.0f,%.0f got %d,%d,%d", what, expected[1], expected[2], expected[3], got[1],
      got[2], got[3]))
  end
end

describe("luma.plot PNG", function()
  for name, build in pairs(require("plot.kinds")) do
    it("draws every plot kind: " .. name, function()
      if not ready() then return end
      local fig = plot.figure{ width = 320, height = 240, title = "t" }
      build(fig:axes(1, 1))
      fig:axes(1, 1):set{ title = name, xlabel = "x", ylabel = "y" }
      local box = fig:axes(1, 1):box()
      -- probes: the top left corner (background) and the middle of the box
      local info = render(fig, { { 0, 0 }, { box.x + box.w / 2, box.y + box.h / 2 } })
      assert.equal(320, info.width)
      assert.equal(240, info.height)
      assert.same({ 255, 255, 255 }, info.pixels[1])
      -- frame, ticks and labels at least; never a blank or filled image
      assert.is_true(info.dark > 100, "dark pixels: " .. info.dark)
      assert.is_true(info.inked > 2 * (box.w + box.h), "inked pixels: " .. info.inked)
      assert.is_true(info.inked < 320 * 240 * 0.9, "inked pixels: " .. info.inked)
    end)
  end

  it("draws the ML plots", function()
    if not ready() then return end
    local figs = {
      plot.roc_curve({ 0, 0, 1, 1, 0, 1 }, { 0.1, 0.4, 0.35, 0.8, 0.2, 0.9 }),
      plot.confusion_matrix({ 1, 2, 2, 1, 2 }, { 1, 2, 1, 1, 2 }),
      plot.dendrogram(luma.matrix{ { 1, 2, 1 }, { 3, 4, 2 }, { 5, 6, 4 } }),
      plot.hist_kde({ 1, 2, 2, 3, 3, 3, 4, 4, 5 }, { bins = 5 }),
    }
    for _, fig in ipairs(figs) do
      local info = render(fig, { { 0, 0 } })
      assert.same({ 255, 255, 255 }, info.pixels[1])
      assert.is_true(info.dark > 100 and info.colors > 10)
    end
  end)

  it("fills a bar with its colour, anti-aliased at fractional edges", function()
    if not ready() then return end
    local fig = plot.bar({ 1 }, { 3 }, { width = 0.5 }):set{ xlim = { 0, 2 }, ylim = { 0, 4 },
      grid = false }
    local ax = fig:axes()
    local cx, cy = ax:transform(1, 1.5)
    local left = ax:transform(0.75, 1.5)
    local col = math.floor(left)
    local cover = col + 1 - left -- of the pixel column the left edge crosses
    assert.is_true(cover > 0.05 and cover < 0.95, "the edge must cut a pixel: " .. left)
    local info = render(fig, { { cx, cy }, { col, cy }, { col - 1, cy } })
    assert.same({ 31, 119, 180 }, info.pixels[1]) -- C1, #1f77b4
    local k = math.floor(cover * 256 + 0.5)
    near_rgb({ blend(31, k), blend(119, k), blend(180, k) }, info.pixels[2], 1, "edge pixel")
    assert.same({ 255, 255, 255 }, info.pixels[3])
  end)

  it("blends a translucent bar over white", function()
    if not ready() then return end
    local fig = plot.bar({ 1 }, { 3 }, { color = "#0000ff", alpha = 0.5 })
      :set{ xlim = { 0, 2 }, ylim = { 0, 4 }, grid = false }
    local cx, cy = fig:axes():transform(1, 1.5)
    -- k = 128: (0 * 128 + 255 * 128 + 128) >> 8 = 128
    assert.same({ 128, 128, 255 }, render(fig, { { cx, cy } }).pixels[1])
  end)

  it("stamps a round marker: full inside, half on the rim, nothing outside", function()
    if not ready() then return end
    local fig = plot.scatter({ 0.5 }, { 0.5 }, { size = 20, color = "#ff0000" })
      :set{ xlim = { 0, 1 }, ylim = { 0, 1 }, grid = false }
    local cx, cy = fig:axes():transform(0.5, 0.5)
    -- pixel centres at distance 0, 6, 10 (the rim of the 10 px radius) and 14
    local function at(d) return { math.floor(cx + d), math.floor(cy) } end
    local probes = {}
    for _, d in ipairs{ 0, 6, 10, 14 } do probes[#probes + 1] = at(d) end
    local info = render(fig, probes)
    assert.same({ 255, 0, 0 }, info.pixels[1])
    assert.same({ 255, 0, 0 }, info.pixels[2])
    -- the rim: coverage r + 1/2 - distance, about 1/2 (the marker may sit
    -- 1/8 px off, the probe up to 1 px): green and blue in 255 (1 - cover)
    local dist = math.abs(math.floor(cx + 10) + 0.5 - cx)
    local cover = math.max(0, math.min(1, 10.5 - dist))
    near_rgb({ 255, 255 * (1 - cover), 255 * (1 - cover) }, info.pixels[3], 36, "rim")
    assert.same({ 255, 255, 255 }, info.pixels[4])
  end)

  it("clips markers and lines to the axes box", function()
    if not ready() then return end
    local fig = plot.scatter({ 1.02 }, { 0.5 }, { size = 30, color = "#ff0000" })
      :line({ 0, 1.2 }, { 0.25, 0.25 }, { color = "#00ff00", width = 6 })
      :set{ xlim = { 0, 1 }, ylim = { 0, 1 }, grid = false }
    local box = fig:axes():box()
    local _, my = fig:axes():transform(1.02, 0.5)
    local _, ly = fig:axes():transform(1, 0.25)
    local right = box.x + box.w
    local info = render(fig, { { right - 3, my }, { right + 3, my }, { right - 3, ly },
      { right + 3, ly } })
    assert.same({ 255, 0, 0 }, info.pixels[1])
    assert.same({ 255, 255, 255 }, info.pixels[2])
    assert.same({ 0, 255, 0 }, info.pixels[3])
    assert.same({ 255, 255, 255 }, info.pixels[4])
  end)

  it("strokes a wide line solid and a dashed one with gaps", function()
    if not ready() then return end
    local fig = plot.line({ 0, 1 }, { 0.7, 0.7 }, { color = "#ff0000", width = 8 })
      :line({ 0, 1 }, { 0.3, 0.3 }, { color = "#000000", width = 2, style = "--" })
      :set{ xlim = { 0, 1 }, ylim = { 0, 1 }, grid = false }
    local ax = fig:axes()
    local sx, sy = ax:transform(0.5, 0.7)
    local box = ax:box()
    local _, dy = ax:transform(0, 0.3)
    local probes = { { sx, sy }, { sx, sy - 8 } }
    -- 30 pixels along the dashed line (dashes 6 on, 4 off)
    for k = 0, 29 do probes[#probes + 1] = { box.x + 20 + k, dy } end
    local info = render(fig, probes)
    assert.same({ 255, 0, 0 }, info.pixels[1])
    assert.same({ 255, 255, 255 }, info.pixels[2])
    local on, off = 0, 0
    for k = 3, #probes do
      local p = info.pixels[k]
      if p[1] < 100 then on = on + 1 elseif p[1] > 200 then off = off + 1 end
    end
    -- 3 periods of 10 px; lines have round caps (as in the SVG), which
    -- lengthen each 6 px dash by the half width 1 px at both ends: about
    -- 24 on and 6 off (anti-aliased ends aside)
    assert.is_true(on >= 20 and on <= 26, "dash pixels: " .. on)
    assert.is_true(off >= 3, "gap pixels: " .. off)
  end)

  it("writes text with FreeType where the title goes", function()
    if not ready() then return end
    -- a figure with a title and no axes: only the title is drawn
    local fig = plot.figure{ width = 200, height = 60, title = "Hello" }
    local info = render(fig, { { 100, 50 } })
    assert.same({ 255, 255, 255 }, info.pixels[1])
    -- "Hello" at 14.3 px: dozens of dark glyph pixels, and grey edges
    assert.is_true(info.dark > 30, "dark pixels: " .. info.dark)
    assert.is_true(info.colors > 10, "anti-aliased: " .. info.colors)
  end)

  it("doubles the pixels with scale = 2", function()
    if not ready() then return end
    local path = tmp_png()
    plot.line({ 1, 2 }):save(path, { scale = 2 })
    local info = png.read(path)
    os.remove(path)
    assert.equal(1280, info.width)
    assert.equal(960, info.height)
  end)

  it("says why a PNG cannot be written", function()
    if not native.support() then
      pending("Luma was built without its PNG renderer")
      return
    end
    assert.has_error(function() plot.line({ 1, 2 }):save("/nonexistent-dir/x.png") end,
      "save: cannot write /nonexistent-dir/x.png: No such file or directory")
  end)
end)

describe("luma.plot.native canvas", function()
  it("rejects bad arguments", function()
    if not native.support() then
      pending("Luma was built without its PNG renderer")
      return
    end
    assert.has_error(function() native.canvas(0, 10) end)
    assert.has_error(function() native.canvas(10, 10, { scale = 1e6 }) end)
    local cv = native.canvas(10, 10)
    assert.has_error(function() cv:fill({ { 0, 0, 1 } }, "#000000") end)
    assert.has_error(function() cv:fill({ { 0, 0, 1, 0 / 0, 2, 2 } }, "#000000") end)
    assert.has_error(function() cv:fill({ { 0, 0, 1, 1, 2, 0 } }, "red") end)
    assert.has_error(function() cv:stroke({ { 0, 0, 5, 5 } }, "#000000", { join = "butt" }) end)
    assert.has_error(function() cv:rect(0, 0, 5, 5, "#000000", { alpha = 2 }) end)
    assert.has_error(function()
      cv:markers({ 1 }, { 1, 2 }, { lo = 0, k = 1, p0 = 0 }, { lo = 0, k = 1, p0 = 0 }, { disc = 3 })
    end)
    assert.has_error(function()
      cv:markers({ 1 }, { 1 }, { lo = 0, k = 1, p0 = 0 }, { lo = 0, k = 1, p0 = 0 }, {})
    end)
    -- far-away coordinates are clipped, not a crash
    cv:fill({ { -1e300, -1e300, 1e300, 5, 3, 1e300 } }, "#000000")
    cv:stroke({ { -1e300, 5, 1e300, 5 } }, "#000000", { dash = { 1, 1 } })
  end)
end)
