-- luma.plot's braille renderer: where dots light up, colours, and
-- fig:show() on a real pseudo-terminal (build/ptydrive), where the REPL
-- draws what luma.plot.terminal draws at the terminal's size.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local xml = require("plot.xml")
local plot = luma.plot

local BLANK = 0x2800

-- The plotting area of a rendered single-axes figure: a list of rows,
-- each a list of codepoints between the frame's vertical bars.
local function plot_rows(text)
  local rows = {}
  for line in text:gmatch("[^\n]*") do
    local inside = line:match("│(.-)│")
    if inside then
      local cps = {}
      for _, c in utf8.codes(inside) do cps[#cps + 1] = c end
      rows[#rows + 1] = cps
    end
  end
  return rows
end

local function lit(c) return c > BLANK and c <= BLANK + 0xff end

-- Renders a 40-point diagonal scatter and checks that the lit braille
-- cells follow the diagonal: one or two adjacent cells per row, at the
-- column the row's height gives (the axes' 5% margins included).
local function check_diagonal(text)
  local rows = plot_rows(text)
  assert.is_true(#rows >= 10)
  local h, w = #rows, #rows[1]
  for r = 1, h do
    local cols = {}
    for c = 1, w do if lit(rows[r][c]) then cols[#cols + 1] = c end end
    -- row r (top = 1) spans the dots 4(r-1)..4r-1 from the top; the
    -- diagonal x = y crosses it at the same fraction of the width.  The
    -- data fill the middle 1/1.1 of each axis (5% margins), so only the
    -- rows inside it must have a lit cell.
    local t = 1 - (r - 0.5) / h
    if math.abs(t - 0.5) < 0.5 / 1.1 - 1 / h then
      assert.is_true(#cols >= 1, "row " .. r .. " has a lit cell")
    end
    local expect = 1 + t * (w - 1)
    for _, c in ipairs(cols) do
      assert.is_true(math.abs(c - expect) <= 0.05 * w + 1.5,
        string.format("row %d: lit column %d, diagonal at %.1f", r, c, expect))
    end
  end
end

local function diagonal_figure()
  local t = luma.linspace(0, 1, 40)
  return plot.scatter(t, t)
end

describe("luma.plot.terminal", function()
  it("lights braille cells along the diagonal of a diagonal scatter", function()
    local text = plot.terminal(diagonal_figure(), { width = 60, height = 20, color = false, write = false })
    check_diagonal(text)
    assert.is_nil(text:find("\27", 1, true))
    assert.equal(20, select(2, text:gsub("\n", "")))
  end)

  it("sets one dot per point: a single point lights the dot the transform gives", function()
    -- xlim/ylim 0..1 on a 10 x 5 character area: 20 x 20 dots; (0, 1) is
    -- dot (0, 0), the top-left dot of the first cell: U+2801
    local fig = plot.scatter({ 0 }, { 1 }):set{ xlim = { 0, 1 }, ylim = { 0, 1 } }
    local text = plot.terminal(fig, { width = 20, height = 9, color = false, write = false })
    local rows = plot_rows(text)
    assert.equal(BLANK + 0x01, rows[1][1])
    fig = plot.scatter({ 1 }, { 0 }):set{ xlim = { 0, 1 }, ylim = { 0, 1 } }
    rows = plot_rows(plot.terminal(fig, { width = 20, height = 9, color = false, write = false }))
    local last = rows[#rows]
    assert.equal(BLANK + 0x80, last[#last]) -- bottom-right dot
  end)

  it("colours series with ANSI escapes (256 colours or 24 bits) and legends them", function()
    local fig = plot.line({ 1, 2, 3 }, { 1, 3, 2 }, { label = "up" })
    local text = plot.terminal(fig, { width = 50, height = 12, color = "truecolor", write = false })
    assert.truthy(text:find("\27[38;2;31;119;180m", 1, true)) -- #1f77b4, the first colour
    assert.truthy(text:find("up", 1, true))
    text = plot.terminal(fig, { width = 50, height = 12, color = "256", write = false })
    assert.truthy(text:find("\27[38;5;31m", 1, true)) -- #1f77b4 -> cube (0, 2, 3)
    -- heatmaps paint cell backgrounds
    text = plot.terminal(plot.heatmap({ { 0, 1 }, { 1, 0 } }), { width = 40, height = 12,
      color = "truecolor", write = false })
    assert.truthy(text:find("\27[48;2;68;1;84m", 1, true)) -- viridis(0) = #440154
  end)

  it("draws every artist kind in a grid of panels at the size asked", function()
    local x = luma.linspace(0.1, 1, 12)
    local Z = { { 0, 1, 2 }, { 1, 2, 3 }, { 2, 3, 4 } }
    local fig = plot.figure{ rows = 3, cols = 3, title = "all" }
    fig:axes(1, 1):line(x, x, { label = "l", style = "--" }):step(x, x:mul(x)):hline(0.5):vline(0.5)
    fig:axes(1, 2):scatter(x, x, { c = x }):errorbar({ 0.5 }, { 0.5 }, 0.1, { xerr = 0.1 })
    fig:axes(1, 3):bar({ "a", "b" }, { 1, 2 }):text(1, 1.5, "txt"):arrow(1, 0.5, 2, 1)
    fig:axes(2, 1):hist({ 1, 2, 2, 3 }, { bins = 3 })
    fig:axes(2, 2):fill_between(x, x, 0, { label = "area" })
    fig:axes(2, 3):heatmap(Z, { annotate = true })
    fig:axes(3, 1):contour({ 0, 1, 2 }, { 0, 1, 2 }, Z)
    fig:axes(3, 2):contourf({ 0, 1, 2 }, { 0, 1, 2 }, Z, { colorbar = true })
    fig:axes(3, 3):line({ 1, 10, 100 }, { 1, 100, 10 }):set{ xscale = "log", yscale = "log", title = "log" }
    for _, mode in ipairs{ false, "256", "truecolor" } do
      local text = plot.terminal(fig, { width = 120, height = 45, color = mode, write = false })
      local lines = 0
      for line in text:gmatch("([^\n]*)\n") do
        lines = lines + 1
        local plain = line:gsub("\27%[[%d;]*m", "")
        assert.is_true(utf8.len(plain) <= 120, "line " .. lines .. " fits the width")
      end
      assert.equal(45, lines)
    end
  end)

  it("checks its options", function()
    support.errors_with("width must be an integer >= 20", function()
      plot.terminal(diagonal_figure(), { width = 5, write = false })
    end)
    support.errors_with("figure expected", function() plot.terminal({}) end)
    support.errors_with("unknown color 'yes'", function()
      plot.terminal(diagonal_figure(), { color = "yes", write = false })
    end)
  end)

  it("writes an SVG file and prints its path when stdout is not a terminal", function()
    local out, err, code = support.luma_run({ "-e",
      "luma.plot.line({1, 2, 3}):show()" }, nil, { TERM = "xterm" })
    assert.equal("", err)
    assert.equal(0, code)
    local path = out:match("luma%.plot: figure written to (%S+%.svg)")
    assert.truthy(path, out)
    local f = assert(io.open(path, "rb"))
    assert.truthy(xml.parse(f:read("a")))
    f:close()
    os.remove(path)
  end)
end)

describe("fig:show() in the REPL on a terminal", function()
  local ptydrive = support.build .. "/ptydrive"

  local function drive(steps, env)
    local script = support.write_temp(table.concat(steps, "\n") .. "\n")
    local out, err, code = support.run(string.format("%s -t 10 %s -- %s", ptydrive, script,
      support.luma), nil, env)
    os.remove(script)
    return out, err, code
  end

  it("draws the diagonal in braille at the terminal's size (100 x 30: 26 rows)", function()
    -- what the REPL must show: the same figure drawn at 100 x 26 without colour
    local expected = plot.terminal(diagonal_figure(), { width = 100, height = 26, color = false,
      write = false })
    check_diagonal(expected)
    local steps = { "expect > ",
      "send fig = luma.plot.scatter(luma.linspace(0, 1, 40), luma.linspace(0, 1, 40))\\r",
      "expect > ", "send fig:show()\\r" }
    for line in expected:gmatch("([^\n]*)\n") do
      if line ~= "" then steps[#steps + 1] = "expect " .. line:gsub("\\", "\\\\") .. "\\r\\n" end
    end
    steps[#steps + 1] = "expect > "
    steps[#steps + 1] = "send \\x04"
    steps[#steps + 1] = "wait"
    local out, err, code = drive(steps, { LUMA_HISTORY = "", TERM = "xterm", NO_COLOR = "1" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("exit 0\n", out)
  end)

  it("writes an SVG file instead when TERM is dumb", function()
    local out, err, code = drive({ "expect > ",
      "send path = luma.plot.line({1, 2}):show()\\r", "expect luma.plot: figure written to /",
      "expect .svg", "expect > ",
      -- the path is returned too (and the file removed here)
      "send =path:match('%.svg$') and #io.open(path):read('a') > 1000 and os.remove(path)\\r",
      "expect true", "expect > ", "send \\x04", "wait" }, { LUMA_HISTORY = "", TERM = "dumb" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("exit 0\n", out)
  end)
end)
