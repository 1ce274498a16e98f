--- The HTML reference (scripts/make-docs.lua, `make docs`): generated into
-- a temporary folder, every page parsed and every link followed with
-- python3's html.parser, and one page rendered by headless Chromium (the
-- test is pending where Chromium is not installed).
-- SPDX-License-Identifier: MIT
local support = require("support")

local CHECK_LINKS = [[
import html.parser, os, sys
out = sys.argv[1]
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links, self.text, self.tags = set(), [], [], {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if "id" in a: self.ids.add(a["id"])
        if tag == "a" and "href" in a: self.links.append(a["href"])
    def handle_data(self, data):
        self.text.append(data)
pages = {}
for name in sorted(os.listdir(out)):
    p = Page()
    p.feed(open(os.path.join(out, name), encoding="utf-8").read())
    pages[name] = p
bad, links = [], 0
for name, p in pages.items():
    for link in p.links:
        links += 1
        target, _, frag = link.partition("#")
        target = target or name
        if target not in pages: bad.append("%s -> %s (no page)" % (name, link))
        elif frag and frag not in pages[target].ids: bad.append("%s -> %s (no anchor)" % (name, link))
index = pages.get("index.html")
if index is None or "search" not in index.ids or index.tags.get("script", 0) != 1:
    bad.append("index.html has no search box and script")
print("pages %d links %d" % (len(pages), links))
for b in bad[:20]: print("BAD " + b)
]]

-- Whether a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes
-- them) has a pixel that is not white: decoded with zlib and the PNG
-- filters by hand (python3-pil is not a dependency).
local PNG_INK = [[
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, width = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, color = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and color in (2, 6)
        bpp = 3 if color == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride = zlib.decompress(idat), width * bpp
prev, ink, i = bytearray(stride), 0, 0
for _ in range(height):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        if line[x] < 250 or line[x + 1] < 250 or line[x + 2] < 250: ink += 1
    prev = line
print("ink %d of %d" % (ink, width * height))
]]

local function temp_dir()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. support.quote(dir)))
  return dir
end

local function python(script, arg)
  local path = support.write_temp(script, ".py")
  local out, err, code = support.run("python3 " .. support.quote(path) .. " " .. support.quote(arg))
  os.remove(path)
  assert.equal(0, code, err)
  return out
end

local function have(command)
  return select(3, support.run("command -v " .. command)) == 0
end

describe("the HTML reference", function()
  local dir

  setup(function()
    dir = temp_dir()
    local out, err, code = support.luma_run({ "scripts/make-docs.lua", dir })
    assert.equal(0, code, err)
    assert.matches("^wrote .-/index%.html and %d+ module pages\n$", out)
  end)

  teardown(function()
    os.execute("rm -rf " .. support.quote(dir))
  end)

  it("has an index and one page per module, every link resolving", function()
    if not have("python3") then
      pending("python3 is not installed")
      return
    end
    local report = python(CHECK_LINKS, dir)
    local pages, links = report:match("^pages (%d+) links (%d+)")
    assert.is_true(tonumber(pages) >= 30, report)
    assert.is_true(tonumber(links) >= 1000, report)
    assert.not_matches("BAD", report)
    for _, page in ipairs({ "index.html", "luma.linear.html", "luma.Matrix.html",
                            "luma.model_selection.html" }) do
      local f = io.open(dir .. "/" .. page)
      assert.is_not_nil(f, page)
      f:close()
    end
  end)

  it("documents entries with signature, text, parameters and cross-links", function()
    local f = assert(io.open(dir .. "/luma.model_selection.html"))
    local text = f:read("a")
    f:close()
    assert.matches('<section class="function" id="luma.model_selection.cross_validate">', text,
      1, true)
    assert.matches('<pre class="sig">cross_validate(est, X, y [, opts]) -&gt; results</pre>',
      text, 1, true)
    assert.matches("<td><code>return_train_score</code></td>", text, 1, true)
    -- cross_val_score's text names cross_validate: a link to its entry
    assert.matches('<a href="luma.model_selection.html#luma.model_selection.cross_validate">'
      .. "cross_validate</a> with one scorer", text, 1, true)
  end)

  it("renders a page in headless Chromium", function()
    local chromium = have("chromium") and "chromium"
      or have("chromium-browser") and "chromium-browser"
    if not chromium or not have("python3") then
      pending("chromium (Debian package chromium) or python3 is not installed")
      return
    end
    local page = "file://" .. dir .. "/luma.linear.html"
    local flags = "--headless --no-sandbox --disable-gpu --window-size=1000,800 "
    local dom = support.run(chromium .. " " .. flags .. "--dump-dom " .. support.quote(page))
    assert.matches("<h1><code>luma.linear</code></h1>", dom, 1, true)
    assert.matches("Ridge{alpha = 1", dom, 1, true)
    local png = dir .. "/shot.png"
    support.run(chromium .. " " .. flags .. "--screenshot=" .. support.quote(png) .. " "
      .. support.quote(page))
    local ink, total = python(PNG_INK, png):match("^ink (%d+) of (%d+)")
    assert.equal(800000, tonumber(total))
    assert.is_true(tonumber(ink) > 10000, "the page rendered blank")
  end)
end)
