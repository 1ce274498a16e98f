--- The documentation site (scripts/make-docs.lua, `make docs`): generated
-- into a temporary folder, every internal link followed by
-- scripts/docs/linkcheck.lua, and pages rendered by headless Chromium (the
-- tests are pending where Chromium is not installed): a reference page, the
-- gallery's index with every thumbnail loaded, the narrative pages with
-- their formulas typeset by KaTeX.  Also: a broken link, a failing example
-- and a missing cmark-gfm or KaTeX each fail the build with a message
-- naming them.
-- SPDX-License-Identifier: MIT
local support = require("support")

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

local function chromium()
  return have("chromium") and "chromium" or have("chromium-browser") and "chromium-browser"
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function examples_in(dir)
  local n = 0
  local p = io.popen("ls " .. support.quote(dir))
  for name in p:lines() do if name:match("%.lua$") then n = n + 1 end end
  p:close()
  return n
end

-- The DOM of a page after its scripts ran and its images loaded.
local function dom(browser, url)
  return (support.run("timeout 120 " .. browser .. " --headless --no-sandbox --disable-gpu "
    .. "--virtual-time-budget=10000 --dump-dom " .. support.quote(url)))
end

describe("the documentation site", function()
  local dir, summary

  setup(function()
    dir = temp_dir()
    local out, err, code = support.luma_run({ "scripts/make-docs.lua", dir })
    assert.equal(0, code, err)
    summary = out
  end)

  teardown(function()
    os.execute("rm -rf " .. support.quote(dir))
  end)

  it("has the reference, the guides and a gallery of every example, every link resolving", function()
    local modules, guides, with_math, examples, pages, links = summary:match(
      "^wrote .-/index%.html, (%d+) module pages, (%d+) guides %((%d+) with formulas%), "
      .. "(%d+) gallery examples; (%d+) pages, (%d+) links checked\n$")
    assert.is_not_nil(modules, summary)
    assert.is_true(tonumber(modules) >= 30, summary)
    -- README, CHANGELOG and docs/*.md
    local n_docs = 0
    local ls = io.popen("ls docs")
    for name in ls:lines() do if name:match("%.md$") then n_docs = n_docs + 1 end end
    ls:close()
    assert.equal(n_docs + 2, tonumber(guides))
    assert.is_true(tonumber(with_math) >= 5, summary)
    assert.equal(examples_in("scripts/examples"), tonumber(examples))
    assert.is_true(tonumber(examples) >= 25, summary)
    assert.is_true(tonumber(links) >= 5000, summary)
    -- the checker, run again on its own, agrees
    local out, err, code = support.luma_run({ "scripts/docs/linkcheck.lua", dir })
    assert.equal(0, code, err .. out)
    assert.matches("^pages " .. pages .. " links " .. links .. " broken 0\n$", out)
    for _, page in ipairs({ "index.html", "luma.linear.html", "luma.Matrix.html", "LINEAR.html",
        "GETTING_STARTED.html", "SKLEARN.html", "EMBEDDING.html", "README.html",
        "gallery/index.html", "gallery/svm_kernels.html", "katex/katex.min.js" }) do
      local f = io.open(dir .. "/" .. page)
      assert.is_not_nil(f, page)
      f:close()
    end
  end)

  it("links the reference and the guides both ways", function()
    local ref = read(dir .. "/luma.linear.html")
    assert.matches('Guide: <a href="LINEAR.html">', ref, 1, true)
    local guide = read(dir .. "/LINEAR.html")
    assert.matches('Reference: <a href="luma.linear.html"><code>luma.linear</code></a>', guide, 1,
      true)
    -- a documented name in a code span links to its entry
    assert.matches('<code><a href="luma.optim.html#luma.optim.logistic_loss">'
      .. "luma.optim.logistic_loss</a>", guide, 1, true)
    -- a formula: $`...`$ inline, ```math displayed
    assert.matches('<span class="math inline">C \\sum_i s_i \\ell_i</span>', guide, 1, true)
    assert.matches('<div class="math display">\\begin{aligned}', guide, 1, true)
    -- the index lists the guides and the gallery
    local index = read(dir .. "/index.html")
    assert.matches('<a href="GETTING_STARTED.html">', index, 1, true)
    assert.matches('<a href="gallery/index.html">', index, 1, true)
  end)

  it("documents entries with signature, text, parameters and cross-links", function()
    local text = read(dir .. "/luma.model_selection.html")
    assert.matches('<section class="function" id="luma.model_selection.cross_validate">', text,
      1, true)
    assert.matches('<pre class="sig">cross_validate(est, X, y [, opts]) -&gt; results</pre>',
      text, 1, true)
    assert.matches("<td><code>return_train_score</code></td>", text, 1, true)
    -- cross_val_score's text names cross_validate: a link to its entry
    assert.matches('<a href="luma.model_selection.html#luma.model_selection.cross_validate">'
      .. "cross_validate</a> with one scorer", text, 1, true)
  end)

  it("shows each example's code, output and figures on its page", function()
    local page = read(dir .. "/gallery/svm_kernels.html")
    assert.matches("<h1>Support vector classifiers with a linear and a Gaussian", page, 1, true)
    assert.matches('<img src="images/svm_kernels--svm_regions.png"', page, 1, true)
    assert.matches("RBF kernel: %d+ support vectors, test accuracy 0%.%d+", page)
    assert.matches("local search = ms.GridSearch{", page, 1, true)
    assert.matches('<a href="../luma.svm.html"><code>luma.svm</code></a>', page, 1, true)
  end)

  it("renders a page in headless Chromium", function()
    local browser = chromium()
    if not browser or not have("python3") then
      pending("chromium (Debian package chromium) or python3 is not installed")
      return
    end
    local page = "file://" .. dir .. "/luma.linear.html"
    local flags = "--headless --no-sandbox --disable-gpu --window-size=1000,800 "
    local html = support.run(browser .. " " .. flags .. "--dump-dom " .. support.quote(page))
    assert.matches("<h1><code>luma.linear</code></h1>", html, 1, true)
    assert.matches("Ridge{alpha = 1", html, 1, true)
    local png = dir .. "/shot.png"
    support.run(browser .. " " .. flags .. "--screenshot=" .. support.quote(png) .. " "
      .. support.quote(page))
    local ink, total = python(PNG_INK, png):match("^ink (%d+) of (%d+)")
    assert.equal(800000, tonumber(total))
    assert.is_true(tonumber(ink) > 10000, "the page rendered blank")
  end)

  it("loads every thumbnail of the gallery in Chromium", function()
    local browser = chromium()
    if not browser then
      pending("chromium (Debian package chromium) is not installed")
      return
    end
    -- the index with a script counting the images that loaded
    local index = read(dir .. "/gallery/index.html")
    write(dir .. "/gallery/loaded.html", index:gsub("</body>", [[
<script>
window.addEventListener("load", function () {
  var imgs = document.querySelectorAll(".thumbs img"), ok = 0;
  imgs.forEach(function (img) { if (img.complete && img.naturalWidth > 0) ok++; });
  var p = document.createElement("p");
  p.id = "loaded";
  p.textContent = ok + " of " + imgs.length;
  document.body.appendChild(p);
});
</script>
</body>]]))
    local html = dom(browser, "file://" .. dir .. "/gallery/loaded.html")
    os.remove(dir .. "/gallery/loaded.html")
    local ok, n = html:match('<p id="loaded">(%d+) of (%d+)</p>')
    assert.is_not_nil(ok, "the page did not load")
    assert.equal(examples_in("scripts/examples"), tonumber(n))
    assert.equal(tonumber(n), tonumber(ok))
  end)

  it("typesets the formulas of every narrative page with KaTeX in Chromium", function()
    local browser = chromium()
    if not browser then
      pending("chromium (Debian package chromium) is not installed")
      return
    end
    local checked = 0
    local ls = io.popen("ls " .. support.quote(dir))
    for name in ls:lines() do
      if name:match("^[%u_]+%.html$") and read(dir .. "/" .. name):find('class="math ', 1, true) then
        local html = dom(browser, "file://" .. dir .. "/" .. name)
        assert.matches('class="katex"', html, 1, true)
        -- KaTeX marks a formula it cannot parse (throwOnError is off)
        assert.not_matches("katex-error", html, 1, true)
        checked = checked + 1
      end
    end
    ls:close()
    assert.is_true(checked >= 5, checked .. " pages with formulas")
  end)

  it("the link checker reports a missing page and a missing anchor", function()
    local site = temp_dir()
    write(site .. "/a.html", '<p id="top"><a href="b.html#nowhere">b</a> <a href="c.html">c</a> '
      .. '<a href="#top">top</a> <a href="https://example.org/x">out</a></p>')
    write(site .. "/b.html", '<p id="here">b</p>')
    local out, _, code = support.luma_run({ "scripts/docs/linkcheck.lua", site })
    os.execute("rm -rf " .. support.quote(site))
    assert.equal(1, code)
    assert.matches("pages 2 links 4 broken 2", out, 1, true)
    assert.matches("BROKEN a.html -> b.html#nowhere (no such anchor)", out, 1, true)
    assert.matches("BROKEN a.html -> c.html (no such file)", out, 1, true)
  end)
end)

describe("make-docs fails and says why", function()
  it("when an example fails, naming the script and its error", function()
    local examples, out, cache = temp_dir(), temp_dir(), temp_dir()
    write(examples .. "/fine.lua", "-- Prints a number.\nprint(1 + 1)\n")
    write(examples .. "/broken.lua", "-- Fails.\nlocal x = nil\nprint(x.field)\n")
    local _, err, code = support.run(support.luma .. " scripts/make-docs.lua " .. support.quote(out),
      nil, { LUMA_EXAMPLES = examples, LUMA_GALLERY_CACHE = cache })
    os.execute("rm -rf " .. support.quote(examples) .. " " .. support.quote(out) .. " "
      .. support.quote(cache))
    assert.equal(1, code)
    assert.matches("examples failed:\n" .. examples .. "/broken.lua: ", err, 1, true)
    assert.matches("attempt to index a nil value (local 'x')", err, 1, true)
    assert.not_matches("fine.lua: ", err, 1, true)
  end)

  it("unless scripts/setup-deps installed cmark-gfm and KaTeX (make docs runs it first)", function()
    local setup = read("scripts/setup-deps")
    local packages = {}
    for list in setup:gmatch('\nPACKAGES="([^"]*)"') do
      for name in list:gmatch("[%w.+-]+") do packages[name] = true end
    end
    assert.is_true(packages["cmark-gfm"])
    assert.is_true(packages["libjs-katex"])
    assert.matches("\ndocs: deps\n", read("Makefile"), 1, true)
  end)

  it("when cmark-gfm or KaTeX is missing, naming the Debian package", function()
    -- a PATH with the tools make-docs runs, but not cmark-gfm
    local bin, out = temp_dir(), temp_dir()
    for _, tool in ipairs{ "sh", "ls", "find", "cp", "mkdir", "rm", "head", "sort", "timeout" } do
      local path = support.run("command -v " .. tool):gsub("%s+$", "")
      os.execute("ln -s " .. support.quote(path) .. " " .. support.quote(bin .. "/" .. tool))
    end
    local _, err, code = support.run(support.luma .. " scripts/make-docs.lua " .. support.quote(out),
      nil, { PATH = bin })
    assert.equal(1, code)
    assert.matches("cmark-gfm is not installed (Debian package cmark-gfm", err, 1, true)
    _, err, code = support.run(support.luma .. " scripts/make-docs.lua " .. support.quote(out),
      nil, { LUMA_KATEX_DIR = bin .. "/none" })
    os.execute("rm -rf " .. support.quote(bin) .. " " .. support.quote(out))
    assert.equal(1, code)
    assert.matches("(Debian package libjs-katex; scripts/setup-deps installs it)", err, 1, true)
  end)
end)
