--- make-docs.lua: the HTML reference, generated from the doc registry that
-- help() reads, so the two never disagree.
--
--   build/luma scripts/make-docs.lua OUTDIR      (make docs: build/docs)
--
-- Writes OUTDIR/index.html (the modules, and a search box filtering every
-- name and one-line summary with a few lines of inline JavaScript) and one
-- page per module, OUTDIR/<module>.html: each function and class with its
-- signature, text, parameter table and methods.  A qualified name in a
-- text (luma.linear.Ridge), or the short name of a unique public function
-- or class (cross_validate, KFold), links to its entry.  Plain static HTML
-- and CSS, no external assets: the pages work offline and from file://.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local repl = require("luma.repl")

local outdir = arg and arg[1]
if not outdir or outdir == "" then
  io.stderr:write("usage: luma scripts/make-docs.lua OUTDIR\n")
  os.exit(2)
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

-- Escapes text and links the documented names in it (but not self).
local function linked(text, self_name)
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
]]

local function page(title, body)
  return table.concat({
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    "<title>", html_escape(title), "</title>\n<style>\n", STYLE, "</style>\n</head>\n<body>\n",
    "<header><a href=\"index.html\">Luma ", html_escape(luma.VERSION),
    " reference</a></header>\n<main>\n", body, "</main>\n</body>\n</html>\n" })
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
  body[#body + 1] = "</ul>\n<h2>Modules</h2>\n<ul>\n"
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

assert(os.execute("mkdir -p '" .. outdir:gsub("'", "'\\''") .. "'"), "cannot create " .. outdir)
write(outdir .. "/index.html", index_page())
for _, name in ipairs(module_names) do
  write(outdir .. "/" .. page_of(name), module_page(modules[name]))
end
print(string.format("wrote %s/index.html and %d module pages", outdir, #module_names))
