-- luma.plot's SVG rendered by real renderers: librsvg (rsvg-convert, the
-- PNG fallback when Luma is built without its own renderer) and headless
-- Chromium (a page embedding three figures, screenshotted).  Each check
-- reads the PNG's pixels where the axes' transform puts known series and
-- compares their colours (the palette's first colour, viridis' ends, a
-- red line); fig:save's own PNGs get the same checks.  Pending when
-- rsvg-convert, chromium or python3 (the PNG reader) is missing;
-- setup-deps installs librsvg2-bin and chromium.  Also: files in a
-- sandboxed state.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local png = require("plot.png")
local plot = luma.plot

local function has(cmd)
  return os.execute("command -v " .. cmd .. " >/dev/null 2>&1") == true
end

-- Three figures with colours at known places; returns {fig, probes},
-- probes a list of {x, y, {r, g, b}, what} in the figure's pixels.
local function figures()
  local bar = plot.bar({ 1 }, { 3 }, { width = 0.5 }):set{ xlim = { 0, 2 }, ylim = { 0, 4 } }
  local bx, by = bar:axes():transform(1, 1.5)
  local heat = plot.heatmap({ { 0, 1 }, { 2, 3 } })
  local h1x, h1y = heat:axes():transform(1, 1)
  local h4x, h4y = heat:axes():transform(2, 2)
  local line = plot.line({ 0, 1 }, { 0.5, 0.5 }, { color = "red", width = 8 })
    :set{ xlim = { 0, 1 }, ylim = { 0, 1 } }
  local lx, ly = line:axes():transform(0.5, 0.5)
  return {
    { bar, { { bx, by, { 31, 119, 180 }, "bar in C1 #1f77b4" } } },
    { heat, { { h1x, h1y, { 68, 1, 84 }, "cell (1, 1) viridis(0)" },
              { h4x, h4y, { 253, 231, 37 }, "cell (2, 2) viridis(1)" } } },
    { line, { { lx, ly, { 214, 39, 40 }, "red line #d62728" } } },
  }
end

local function near_color(expected, got, what)
  for k = 1, 3 do
    assert.is_true(math.abs(expected[k] - got[k]) <= 3, string.format("%s: expected %d,%d,%d got %d,%d,%d",
      what, expected[1], expected[2], expected[3], got[1], got[2], got[3]))
  end
end

describe("luma.plot rendered", function()
  local function check_pngs(write)
    for _, case in ipairs(figures()) do
      local base = os.tmpname() -- created by tmpname: the PNG goes next to it
      local path = base .. ".png"
      os.remove(base)
      write(case[1], path)
      local pts = {}
      for _, p in ipairs(case[2]) do pts[#pts + 1] = { p[1], p[2] } end
      local info = png.read(path, pts)
      os.remove(path)
      assert.equal(640, info.width)
      assert.equal(480, info.height)
      assert.is_true(info.colors > 10 and info.inked > 640 * 480 * 0.05, "not blank")
      for k, p in ipairs(case[2]) do near_color(p[3], info.pixels[k], p[4]) end
    end
  end

  it("through rsvg-convert: the SVG has the series' colours where the data says", function()
    if not (has("rsvg-convert") and png.available()) then
      pending("rsvg-convert (librsvg2-bin) or python3 is not installed")
      return
    end
    check_pngs(function(fig, path)
      local svg = support.write_temp(fig:svg(), ".svg")
      local _, err, code = support.run(string.format("rsvg-convert -f png -o %s %s",
        support.quote(path), support.quote(svg)))
      os.remove(svg)
      assert(code == 0, err)
    end)
  end)

  it("fig:save('x.png') has the series' colours where the data says", function()
    if not png.available() then
      pending("python3 is not installed")
      return
    end
    if not (require("luma.plot.native").support() or has("rsvg-convert")) then
      pending("neither Luma's PNG renderer nor rsvg-convert is available")
      return
    end
    check_pngs(function(fig, path) assert.equal(path, fig:save(path)) end)
  end)

  it("in headless Chromium: a page embedding the SVGs shows them", function()
    if not (has("chromium") and png.available()) then
      pending("chromium or python3 is not installed")
      return
    end
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    local imgs, probes = {}, {}
    for k, case in ipairs(figures()) do
      local name = string.format("fig%d.svg", k)
      case[1]:save(dir .. "/" .. name)
      -- figures side by side, 640 px apart
      imgs[#imgs + 1] = string.format('<img src="%s" style="position:absolute;left:%dpx;top:0">',
        name, (k - 1) * 640)
      for _, p in ipairs(case[2]) do
        probes[#probes + 1] = { p[1] + (k - 1) * 640, p[2], p[3], p[4] }
      end
    end
    local page = dir .. "/page.html"
    local f = assert(io.open(page, "wb"))
    f:write('<!DOCTYPE html><html><body style="margin:0;background:#fff">',
      table.concat(imgs), "</body></html>")
    f:close()
    local shot = dir .. "/shot.png"
    local _, err, code = support.run(string.format("timeout 120 chromium --headless --no-sandbox "
      .. "--disable-gpu --hide-scrollbars --force-device-scale-factor=1 --window-size=1920,480 "
      .. "--screenshot=%s file://%s", support.quote(shot), support.quote(page)))
    assert(code == 0, err)
    local pts = {}
    for _, p in ipairs(probes) do pts[#pts + 1] = { p[1], p[2] } end
    local info = png.read(shot, pts)
    os.execute("rm -rf " .. support.quote(dir))
    assert.equal(1920, info.width)
    assert.is_true(info.colors > 10 and info.inked > 1920 * 480 * 0.05, "not blank")
    for k, p in ipairs(probes) do near_color(p[3], info.pixels[k], p[4]) end
  end)
end)

describe("luma.plot in a sandboxed or limited state", function()
  it("returns the SVG text and refuses paths; PNG drawing is charged to the budget", function()
    -- A sandboxed state exists only through the C API: a small host
    -- compiled against this build's libluma.a runs the calls.
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    local src = dir .. "/host.c"
    local f = assert(io.open(src, "wb"))
    f:write([[
#include <stdio.h>
#include <stdlib.h>
#include "luma.h"
/* sandboxed, or with LIMIT set, unsandboxed with that instruction limit */
int main(int argc, char **argv) {
  luma_Options opts = {0};
  const char *limit = getenv("LIMIT");
  opts.sandbox = limit == NULL;
  opts.instruction_limit = limit ? strtoull(limit, NULL, 10) : 0;
  lua_State *L = luma_newstate(&opts);
  for (int i = 1; i < argc; i++) {
    if (luma_run_string(L, argv[i], "=sandboxed", 0) == LUA_OK) puts("ran");
    else puts(lua_tostring(L, -1));
    lua_settop(L, 0);
  }
  luma_close(L);
  return 0;
}
]])
    f:close()
    local sanitize = os.getenv("LUMA_SANITIZED") == "1" and " -fsanitize=address,undefined" or ""
    local cc = os.getenv("LUMA_SANITIZED") == "1" and "clang" or "cc"
    local host = dir .. "/host"
    -- the libraries libluma.a needs are the build's luma.pc Libs.private
    -- (BLAS and LAPACK, FreeType and zlib when the build has them)
    local pc = assert(io.open(support.build .. "/luma.pc", "rb"))
    local private = pc:read("a"):match("Libs%.private:([^\n]*)")
    pc:close()
    assert(os.execute(cc .. sanitize .. " -std=c11 -Isrc/vm $(pkg-config --cflags lua5.4) -o "
      .. support.quote(host) .. " " .. support.quote(src) .. " "
      .. support.quote(support.build .. "/libluma.a")
      .. " $(pkg-config --libs lua5.4) " .. private .. " -lpthread"))
    local target = dir .. "/x.svg"
    local out, _, status = support.run(table.concat({ support.quote(host),
      support.quote("assert(luma.plot.scatter({1, 2}, {3, 4}):svg():find('<circle', 1, true))"),
      support.quote("luma.plot.line({1, 2}):save('" .. target .. "')"),
      support.quote("luma.plot.line({1, 2}):save('" .. dir .. "/x.png')"),
      support.quote("luma.plot.line({1, 2}):show({width = 30, height = 8, color = false})"),
      -- the native canvas is one of Luma's modules: it draws, but writes
      -- no file
      support.quote("require('luma.plot.native').canvas(8, 8):write_png('" .. dir .. "/y.png')") },
      " "))
    assert.equal(0, status)
    -- each call prints "ran" or its error (with a traceback)
    assert.equal("ran", out:match("^[^\n]*"))
    local _, refusals = out:gsub("'luma%.plot%.save' is not available in a sandboxed state %(fig:svg%(%) "
      .. "returns the SVG text%)", "")
    assert.equal(2, refusals)
    -- show() draws braille through print: a framed drawing, then "ran"
    assert.truthy(out:find("'luma.plot.Canvas.write_png' is not available in a sandboxed state",
      1, true), out)
    assert.is_nil(io.open(dir .. "/y.png", "rb"))
    local drawing = out:match("\n(%s*┌.-)ran\n")
    assert.truthy(drawing, out)
    assert.truthy(drawing:find("└", 1, true))
    assert.equal(8, select(2, drawing:gsub("\n", "")))
    assert.is_nil(io.open(target, "rb")) -- nothing was created
    -- with an instruction limit of 10^7, stamping 2 x 10^5 discs of 40 px
    -- (about 1700 pixels each, 3.4 x 10^8 units) stops with the limit error
    -- (when the renderer is built in; else drawing the discs is all that runs)
    if require("luma.plot.native").support() then
      out, _, status = support.run("LIMIT=10000000 " .. support.quote(host) .. " " .. support.quote(
        "local c = require('luma.plot.native').canvas(200, 200) local x = {} "
        .. "for i = 1, 200000 do x[i] = i % 200 end "
        .. "local m = {lo = 0, k = 1, p0 = 0} c:markers(x, x, m, m, {disc = 40})"))
      assert.equal(0, status)
      assert.truthy(out:find("instruction limit exceeded", 1, true), out)
    end
    os.execute("rm -rf " .. support.quote(dir))
  end)
end)
