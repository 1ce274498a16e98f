--- make-docs.lua: the documentation site.  The HTML reference is
-- generated from the doc registry that help() reads, so the two never
-- disagree; the narrative pages are README.md, CHANGELOG.md and docs/*.md
-- rendered by cmark-gfm with their formulas typeset by KaTeX
-- (scripts/docs/markdown.lua); the gallery runs every example script
-- (scripts/docs/gallery.lua).  Every internal link is then checked
-- (scripts/docs/linkcheck.lua): a broken one, or an example that fails,
-- fails the build.
--
--   build/luma scripts/make-docs.lua OUTDIR      (make docs: build/docs)
--
-- Writes OUTDIR/index.html (the guides, the gallery, the modules, and a
-- search box filtering every name and one-line summary with a few lines of
-- inline JavaScript), one page per module, OUTDIR/<module>.html: each
-- function and class with its signature, text, parameter table and
-- methods; one page per narrative document (OUTDIR/LINEAR.html for
-- docs/LINEAR.md); OUTDIR/gallery/; and KaTeX (Debian's libjs-katex)
-- copied into OUTDIR/katex.  A qualified name in a text
-- (luma.linear.Ridge), or the short name of a unique public function or
-- class (cross_validate, KFold), links to its entry; "docs/X.md" to its
-- page.  Static HTML and CSS, no external assets: the pages work offline
-- and from file://.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local repl = require("luma.repl")

local outdir = arg and arg[1]
if not outdir or outdir == "" then
  io.stderr:write("usage: luma scripts/make-docs.lua OUTDIR\n")
  os.exit(2)
end

local function fail(msg)
  io.stderr:write("make-docs: ", msg, "\n")
  os.exit(1)
end

-- The helper modules live beside this script.
local here = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/docs/"
package.path = here .. "?.lua;" .. package.path
local markdown = require("markdown")
local gallery = require("gallery")
local linkcheck = require("linkcheck")

-- The two tools the site needs, named by their Debian packages.
local KATEX = os.getenv("LUMA_KATEX_DIR") or "/usr/share/javascript/katex"
do
  local ok, why = markdown.have_cmark()
  if not ok then fail(why) end
  local f = io.open(KATEX .. "/katex.min.js", "rb")
  if not f then
    fail("KaTeX is not installed: no " .. KATEX .. "/katex.min.js (Debian package "
      .. "libjs-katex; scripts/setup-deps installs it)")
  end
  f:close()
end

local function html_escape(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;" }))
end

-- The first sentence of a text, as help's member lists show it.
local function summary(text)
  if not text then return "" end
  return text:match("^(.-%.)%s+%u") or text:match("^(.-%.)%s*$") or text
end

-- ------------------------------------------------------------ the model

-- Every public name, grouped by module; classes carry their methods.
local entries = repl.public_api()
local modules, by_name = {}, {}
for _, e in ipairs(entries) do by_name[e.name] = e end
for _, e in ipairs(entries) do
  local m = modules[e.module]
  if not m then
    m = { name = e.module, members = {}, methods = {} }
    modules[e.module] = m
  end
  if e.kind == "module" then m.record = e.record
  elseif e.kind == "method" then
    local owner = e.name:match("^(.*)%.[^.]+$")
    m.methods[owner] = m.methods[owner] or {}
    table.insert(m.methods[owner], e)
  else
    table.insert(m.members, e)
  end
end
-- A type's methods without a class entry of its own (luma.Matrix) get
-- one, so its page lists them.
for _, m in pairs(modules) do
  for owner in pairs(m.methods) do
    if not by_name[owner] then
      local mt = debug and debug.getregistry and debug.getregistry()[owner]
      local e = { name = owner, kind = "class", module = m.name,
        record = mt and luma.doc.get(mt) }
      by_name[owner] = e
      table.insert(m.members, e)
    end
  end
end
local module_names = {}
for name in pairs(modules) do module_names[#module_names + 1] = name end
table.sort(module_names)

local function page_of(module_name) return module_name .. ".html" end
local function anchor(name) return name:gsub("[^%w_.-]", "_") end
local function href(name)
  local e = by_name[name]
  if not e then return nil end
  if e.kind == "module" then return page_of(name) end
  return page_of(e.module) .. "#" .. anchor(name)
end

-- Short names that name exactly one public function or class; only those
-- with an underscore or a capital letter are linked in running text
-- (a "mean" in prose is a word, not luma.stats.mean).
local short_names = {}
for _, e in ipairs(entries) do
  if e.kind == "function" or e.kind == "class" then
    local short = e.name:match("([^.]+)$")
    if short:find("[_%u]") then
      short_names[short] = short_names[short] == nil and e.name or false
    end
  end
end

-- ------------------------------------------------ the narrative pages

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- Repository path of each narrative document -> its page.
local guides, guide_of = {}, {}
do
  local sources = { "README.md", "CHANGELOG.md" }
  local p = assert(io.popen("ls docs/*.md"))
  for line in p:lines() do sources[#sources + 1] = line end
  p:close()
  for _, src in ipairs(sources) do
    local text = read(src)
    if text then
      local base = src:match("([^/]+)%.md$")
      local g = { src = src, page = base .. ".html", text = text,
        title = text:match("^#%s+([^\n]+)") or text:match("\n#%s+([^\n]+)") or base }
      guides[#guides + 1] = g
      guide_of[src] = g
    end
  end
end
-- LUMA_EXAMPLES names another folder of examples (the tests' failing one).
local EXAMPLES = os.getenv("LUMA_EXAMPLES") or "scripts/examples"
local examples = {}
for _, name in ipairs(gallery.scripts(EXAMPLES)) do examples[name] = true end

-- The modules a narrative page documents, and back: by name
-- (docs/LINEAR.md: luma.linear) and these.
local MORE_GUIDES = {
  ["luma.naive_bayes"] = "docs/CLASSIFIERS.md", ["luma.discriminant"] = "docs/CLASSIFIERS.md",
  ["luma.Matrix"] = "docs/MATRIX.md", ["luma.linalg"] = "docs/MATRIX.md",
  ["luma.Table"] = "docs/TABLE.md", ["luma.io"] = "docs/TABLE.md",
  ["luma.dist"] = "docs/STATS.md", ["luma.special"] = "docs/STATS.md",
  ["luma.model_selection"] = "docs/ESTIMATORS.md", ["luma.pipeline"] = "docs/ESTIMATORS.md",
  ["luma.estimator"] = "docs/ESTIMATORS.md", ["luma.autograd"] = "docs/NN.md",
  ["luma.persist"] = "docs/FORMAT.md", ["luma.mpi"] = "docs/PARALLEL.md",
}
local module_guide = {}
for _, g in ipairs(guides) do
  g.modules = {}
  local mod = "luma." .. g.src:match("([^/]+)%.md$"):lower()
  if g.src:match("^docs/") and modules[mod] then module_guide[mod] = g end
end
for mod, src in pairs(MORE_GUIDES) do
  if modules[mod] and guide_of[src] then module_guide[mod] = guide_of[src] end
end
for mod, g in pairs(module_guide) do g.modules[#g.modules + 1] = mod end
for _, g in ipairs(guides) do table.sort(g.modules) end

-- A repository path (relative to the folder of the file naming it, with
-- an optional #fragment) -> the href of its page from a page `depth`
-- folders below the site's root, or nil.
local function site_href(target, from_dir, depth)
  local path, frag = target:match("^([^#]*)(#?.*)$")
  local parts = {}
  for part in ((from_dir ~= "" and from_dir .. "/" or "") .. path):gmatch("[^/]+") do
    if part == ".." then parts[#parts] = nil elseif part ~= "." then parts[#parts + 1] = part end
  end
  path = table.concat(parts, "/")
  local up = string.rep("../", depth)
  if guide_of[path] then return up .. guide_of[path].page .. frag end
  if path == "scripts/examples" then return up .. "gallery/index.html" end
  local example = path:match("^scripts/examples/([%w_%-]+)%.lua$")
  if example and examples[example] then return up .. "gallery/" .. example .. ".html" end
  return nil
end

-- A path mentioned in prose: docs/X.md, X.md (a page of docs/ or the
-- root), scripts/examples/x.lua or x.lua (an example).
local function mention_href(word, depth)
  return site_href(word, "", depth) or site_href(word, "docs", depth)
    or site_href("scripts/examples/" .. word, "", depth)
end

-- Escapes text and links the documented names in it (but not self).
local linked_names
local function linked(text, self_name)
  local out, pos = {}, 1
  -- the mentions of narrative pages and examples first
  for start, word, stop in text:gmatch("()([%w_./-]+%.%a+)()") do
    local link = mention_href(word, 0)
    if link then
      out[#out + 1] = linked_names(text:sub(pos, start - 1), self_name)
      out[#out + 1] = string.format('<a href="%s">%s</a>', link, html_escape(word))
      pos = stop
    end
  end
  out[#out + 1] = linked_names(text:sub(pos), self_name)
  return table.concat(out)
end

function linked_names(text, self_name)
  local out, pos = {}, 1
  for start, word, stop in text:gmatch("()([%a_][%w_%.]*[%w_])()") do
    out[#out + 1] = html_escape(text:sub(pos, start - 1))
    local target = by_name[word] and word or short_names[word]
    local link = target and target ~= self_name and href(target)
    if link then
      out[#out + 1] = string.format('<a href="%s">%s</a>', link, html_escape(word))
    else
      out[#out + 1] = html_escape(word)
    end
    pos = stop
  end
  out[#out + 1] = html_escape(text:sub(pos))
  return table.concat(out)
end

-- ------------------------------------------------------------- the pages

local STYLE = [[
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2430; background: #fff; }
header { background: #1d3557; color: #fff; padding: 0.8em 2em; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
main { max-width: 60em; padding: 1em 2em 3em; }
h1 { font-size: 1.6em; margin: 0.4em 0; }
h2 { font-size: 1.25em; border-bottom: 1px solid #d0d7de; margin-top: 2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 0.3em; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.92em; }
pre.sig { background: #f3f5f8; border-left: 3px solid #457b9d; padding: 0.4em 0.8em;
  white-space: pre-wrap; margin: 0.3em 0; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #d0d7de; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f5f8; }
.method { margin-left: 1.5em; }
.kind { color: #6a737d; font-weight: normal; font-size: 0.85em; }
#search { width: 100%; font-size: 1.05em; padding: 0.4em; box-sizing: border-box; }
ul.names { list-style: none; padding: 0; }
ul.names li { padding: 0.15em 0; }
ul.names li span { color: #57606a; }
header nav { display: inline; margin-left: 2em; }
header nav a { font-weight: normal; margin-right: 1.2em; }
.guide pre, pre.code, pre.output { background: #f6f8fa; padding: 0.6em 0.9em; overflow-x: auto; }
pre.output { border-left: 3px solid #2a9d8f; }
.math.display { margin: 0.8em 0; overflow-x: auto; }
p.see { color: #57606a; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #d0d7de; }
.thumbs { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 1em; }
a.thumb { display: block; border: 1px solid #d0d7de; padding: 0.5em; color: inherit;
  text-decoration: none; }
a.thumb:hover { border-color: #457b9d; }
a.thumb img { width: 100%; height: 160px; object-fit: contain; display: block; }
a.thumb span { display: block; font-weight: 600; margin: 0.4em 0 0.2em; }
a.thumb code { color: #57606a; font-size: 0.8em; }
]]

-- A page of the site, `depth` folders below its root (gallery pages: 1),
-- with extra elements for its head (KaTeX) and the end of its body.
local function page(title, body, depth, head, tail)
  local up = string.rep("../", depth or 0)
  return table.concat({
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    "<title>", html_escape(title), "</title>\n<style>\n", STYLE, "</style>\n", head or "",
    "</head>\n<body>\n<header><a href=\"", up, "index.html\">Luma ", html_escape(luma.VERSION),
    "</a> <nav><a href=\"", up, "GETTING_STARTED.html\">Getting started</a> <a href=\"", up,
    "index.html#guides\">Guides</a> <a href=\"", up, "gallery/index.html\">Gallery</a> <a href=\"",
    up, "index.html#modules\">Reference</a></nav></header>\n<main>\n", body, "</main>\n",
    tail or "", "</body>\n</html>\n" })
end

local function params_table(params)
  if not params or #params == 0 then return "" end
  local rows = { "<table>\n<tr><th>parameter</th><th>type</th><th>default</th><th></th></tr>\n" }
  for _, p in ipairs(params) do
    local default = p.default
    if default == nil then default = ""
    elseif default ~= default then default = "nan"
    else default = repl.pretty(default) end
    rows[#rows + 1] = string.format("<tr><td><code>%s</code></td><td>%s</td><td><code>%s</code>"
      .. "</td><td>%s</td></tr>\n", html_escape(p.name), html_escape(p.type or ""),
      html_escape(default), html_escape(p.doc or ""))
  end
  rows[#rows + 1] = "</table>\n"
  return table.concat(rows)
end

-- An entry's section, left open for its methods.
local function entry_html(e, level, class)
  local rec = e.record or {}
  local parts = {
    string.format('<section class="%s" id="%s">\n<h%d><code>%s</code> <span class="kind">%s'
      .. '</span></h%d>\n', class or e.kind, anchor(e.name), level, html_escape(e.name), e.kind,
      level),
  }
  if rec.signature then
    parts[#parts + 1] = '<pre class="sig">' .. html_escape(rec.signature) .. "</pre>\n"
  end
  if rec.doc then parts[#parts + 1] = "<p>" .. linked(rec.doc, e.name) .. "</p>\n" end
  parts[#parts + 1] = params_table(rec.params)
  if rec.returns then
    parts[#parts + 1] = "<p>Returns: " .. linked(rec.returns, e.name) .. "</p>\n"
  end
  return table.concat(parts)
end

local function module_page(m)
  local rec = m.record or (by_name[m.name] and by_name[m.name].record) or {}
  local body = { "<h1><code>", html_escape(m.name), "</code></h1>\n" }
  if rec.doc then body[#body + 1] = "<p>" .. linked(rec.doc, m.name) .. "</p>\n" end
  local guide = module_guide[m.name]
  if guide then
    body[#body + 1] = string.format('<p class="see">Guide: <a href="%s">%s</a> (%s).</p>\n',
      guide.page, html_escape(guide.title), html_escape(guide.src))
  end
  table.sort(m.members, function(a, b) return a.name < b.name end)
  body[#body + 1] = "<h2>Contents</h2>\n<ul>\n"
  for _, e in ipairs(m.members) do
    body[#body + 1] = string.format('<li><a href="#%s"><code>%s</code></a> %s</li>\n',
      anchor(e.name), html_escape(e.name:match("([^.]+)$")),
      html_escape(summary(e.record and e.record.doc)))
  end
  body[#body + 1] = "</ul>\n"
  for _, e in ipairs(m.members) do
    body[#body + 1] = entry_html(e, 3)
    for _, method in ipairs(m.methods[e.name] or {}) do
      body[#body + 1] = '<div class="method">' .. entry_html(method, 4, "method")
        .. "</section></div>\n"
    end
    body[#body + 1] = "</section>\n"
  end
  return page(m.name .. " - Luma reference", table.concat(body))
end

local SEARCH_SCRIPT = [[
<script>
// Shows the names whose text (name and summary) contains every word typed.
document.getElementById("search").addEventListener("input", function (ev) {
  var words = ev.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  var items = document.querySelectorAll("#names li");
  var shown = 0;
  items.forEach(function (li) {
    var text = li.getAttribute("data-text");
    var hit = words.length > 0 && words.every(function (w) { return text.indexOf(w) >= 0; });
    li.style.display = hit ? "" : "none";
    if (hit) shown++;
  });
  document.getElementById("count").textContent = words.length ? shown + " found" : "";
});
</script>
]]

local function index_page()
  local body = { "<h1>Luma ", html_escape(luma.VERSION), " reference</h1>\n",
    "<p>Every public module, function, class and method, as <code>help()</code> shows "
      .. "them.</p>\n",
    "<p>New to Luma? <a href=\"GETTING_STARTED.html\">Getting started</a> (for scikit-learn "
      .. "users: <a href=\"SKLEARN.html\">the translation table</a>); embedding Luma in a C "
      .. "program: <a href=\"EMBEDDING.html\">the embedding guide</a>; examples with their "
      .. "output and figures: <a href=\"gallery/index.html\">the gallery</a>.</p>\n",
    '<input id="search" type="search" placeholder="Search names and summaries" '
      .. 'aria-label="Search">\n<p id="count"></p>\n<ul class="names" id="names">\n' }
  for _, e in ipairs(entries) do
    local link = href(e.name)
    if link and e.record then
      local text = summary(e.record.doc)
      body[#body + 1] = string.format('<li style="display:none" data-text="%s"><a href="%s">'
        .. '<code>%s</code></a> <span>%s</span></li>\n',
        html_escape((e.name .. " " .. text):lower()), link, html_escape(e.name),
        html_escape(text))
    end
  end
  body[#body + 1] = "</ul>\n<h2 id=\"guides\">Guides</h2>\n<ul>\n"
  for _, g in ipairs(guides) do
    body[#body + 1] = string.format('<li><a href="%s">%s</a> <span class="kind">%s</span></li>\n',
      g.page, html_escape(g.title), html_escape(g.src))
  end
  body[#body + 1] = "</ul>\n<h2 id=\"modules\">Modules</h2>\n<ul>\n"
  for _, name in ipairs(module_names) do
    local rec = modules[name].record or (by_name[name] and by_name[name].record)
    body[#body + 1] = string.format('<li><a href="%s"><code>%s</code></a> %s</li>\n',
      page_of(name), html_escape(name), html_escape(summary(rec and rec.doc)))
  end
  body[#body + 1] = "</ul>\n" .. SEARCH_SCRIPT
  return page("Luma reference", table.concat(body))
end

-- ------------------------------------------------------------- writing

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function sh_quote(p) return "'" .. p:gsub("'", "'\\''") .. "'" end

if not os.execute("mkdir -p " .. sh_quote(outdir)) then fail("cannot create " .. outdir) end
-- Pages of a previous build whose source is gone would otherwise stay
-- (and be installed): the pages and the gallery are written afresh.
os.execute("rm -rf " .. sh_quote(outdir) .. "/*.html " .. sh_quote(outdir .. "/gallery"))
write(outdir .. "/index.html", index_page())
for _, name in ipairs(module_names) do
  write(outdir .. "/" .. page_of(name), module_page(modules[name]))
end

-- KaTeX, copied (fonts included) so the pages need no network.
if not os.execute("rm -rf " .. sh_quote(outdir .. "/katex") .. " && mkdir -p "
    .. sh_quote(outdir .. "/katex") .. " && cp -rL " .. sh_quote(KATEX .. "/katex.min.js") .. " "
    .. sh_quote(KATEX .. "/katex.min.css") .. " " .. sh_quote(KATEX .. "/fonts") .. " "
    .. sh_quote(outdir .. "/katex/")) then
  fail("cannot copy KaTeX from " .. KATEX)
end
local function katex_head(up)
  return string.format('<link rel="stylesheet" href="%skatex/katex.min.css">\n', up)
end
-- Typesets each formula the Markdown post-processing marked; a formula
-- KaTeX cannot parse is shown in red with its source (throwOnError off),
-- and the tests look for those.
local function katex_tail(up)
  return string.format('<script src="%skatex/katex.min.js"></script>\n', up) .. [[
<script>
document.querySelectorAll(".math").forEach(function (el) {
  katex.render(el.textContent, el, {
    displayMode: el.classList.contains("display"), throwOnError: false });
});
</script>
]]
end

local function md_context(from_dir, depth)
  return {
    resolve = function(target) return site_href(target, from_dir, depth) end,
    mention = function(word) return mention_href(word, depth) end,
    api = function(name)
      local h = href(name)
      return h and string.rep("../", depth) .. h
    end,
  }
end

local n_math = 0
for _, g in ipairs(guides) do
  local html, has_math = markdown.render(g.text, md_context(g.src:match("^(.*)/") or "", 0))
  local refs = {}
  for _, mod in ipairs(g.modules) do
    refs[#refs + 1] = string.format('<a href="%s"><code>%s</code></a>', page_of(mod), mod)
  end
  local see = #refs > 0 and '<p class="see">Reference: ' .. table.concat(refs, ", ") .. ".</p>\n"
    or ""
  if has_math then n_math = n_math + 1 end
  write(outdir .. "/" .. g.page, page(g.title .. " - Luma", see .. '<div class="guide">' .. html
    .. "</div>\n", 0, has_math and katex_head("") or nil, has_math and katex_tail("") or nil))
end

local luma_bin = arg[-1] or "build/luma"
local root = os.getenv("PWD") or "."
if not luma_bin:match("^/") then luma_bin = root .. "/" .. luma_bin end
local cache = os.getenv("LUMA_GALLERY_CACHE") or (luma_bin:match("^(.*)/[^/]*$") .. "/gallery-cache")
local ran, failures = gallery.build({
  outdir = outdir, examples = EXAMPLES, root = root, luma = luma_bin, runner = here .. "run-example.lua",
  cache = cache, timeout = 300, jobs = luma.config().threads, escape = html_escape,
  render = function(text, depth) return (markdown.render(text, md_context("scripts/examples", depth))) end,
  page = page,
  api_module = function(name) return modules[name] and "../" .. page_of(name) or nil end,
  log = function(msg) io.stderr:write(msg, "\n") end,
})
if not ran then
  fail("examples failed:\n" .. table.concat(failures, "\n"))
end

local n_pages, n_links, bad = linkcheck.check(outdir)
if #bad > 0 then
  fail(string.format("%d broken links:\n%s", #bad, table.concat(bad, "\n")))
end
print(string.format("wrote %s/index.html, %d module pages, %d guides (%d with formulas), "
  .. "%d gallery examples; %d pages, %d links checked", outdir, #module_names, #guides, n_math,
  #ran, n_pages, n_links))
