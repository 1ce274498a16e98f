--- The narrative pages of the documentation site: Markdown rendered by
-- cmark-gfm (Debian package cmark-gfm), then post-processed here:
--   * formulas: a ```math block becomes <div class="math display">, an
--     inline $`...`$ (GitHub's own two conventions, which a code span
--     protects from Markdown's emphasis rules) becomes <span class="math
--     inline">; the page then typesets them with KaTeX;
--   * headings get GitHub's ids (lower case, spaces to hyphens), so
--     "X.md#some-heading" links resolve;
--   * links and plain mentions of docs/X.md, README.md, CHANGELOG.md and
--     scripts/examples/x.lua point at their pages; a Markdown link to any
--     other file of the repository (a source file) is left as its text,
--     since the site is read without the source tree;
--   * a documented function or class named in prose or in an inline
--     code span (`luma.linear.Ridge`) links to its reference entry.
-- SPDX-License-Identifier: MIT
local M = {}

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function html_escape(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;" }))
end
M.html_escape = html_escape

--- have_cmark() -> true, or nil and what to install.
function M.have_cmark()
  if os.execute("command -v cmark-gfm >/dev/null 2>&1") then return true end
  return nil, "cmark-gfm is not installed (Debian package cmark-gfm; scripts/setup-deps installs it)"
end

--- cmark(text) -> HTML: GitHub-flavoured Markdown (tables, autolinks,
-- strikethrough) by cmark-gfm; raw HTML in the source is omitted.
function M.cmark(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  local p = assert(io.popen("cmark-gfm -e table -e autolink -e strikethrough "
    .. shell_quote(path) .. " 2>&1"))
  local html = p:read("a")
  local ok = p:close()
  os.remove(path)
  if not ok then error("cmark-gfm failed: " .. html, 0) end
  return html
end

-- Splits HTML into tags and text, calling on_text(text, state) for each
-- text run outside tags (the state says whether it lies in an <a>, a
-- <pre> or a <code>) and keeping the tags as they are.
local function map_text(html, on_text)
  local out, pos = {}, 1
  local state = { a = 0, pre = 0, code = 0 }
  while pos <= #html do
    local s, e = html:find("<[^>]*>", pos)
    local text = html:sub(pos, (s or #html + 1) - 1)
    if text ~= "" then out[#out + 1] = on_text(text, state) end
    if not s then break end
    local tag = html:sub(s, e)
    out[#out + 1] = tag
    local close, name = tag:match("^<(/?)(%w+)")
    if name and state[name] then
      state[name] = state[name] + (close == "/" and -1 or 1)
    end
    pos = e + 1
  end
  return table.concat(out)
end

-- GitHub's heading id: the text in lower case, punctuation other than
-- hyphens and underscores dropped, spaces to hyphens.
local function slug(text)
  local plain = text:gsub("<[^>]*>", ""):gsub("&%a+;", ""):gsub("&#%d+;", ""):lower()
  return (plain:gsub("[^%w%s_-]", ""):gsub("%s", "-"))
end
M.slug = slug

local function add_heading_ids(html)
  local used = {}
  return (html:gsub("<h([1-6])>(.-)</h%1>", function(level, inner)
    local id = slug(inner)
    if used[id] then
      used[id] = used[id] + 1
      id = id .. "-" .. used[id]
    else
      used[id] = 0
    end
    return string.format('<h%s id="%s">%s</h%s>', level, id, inner, level)
  end))
end

local function math_spans(html)
  html = html:gsub('<pre><code class="language%-math">(.-)</code></pre>', function(tex)
    return '<div class="math display">' .. tex:gsub("\n$", "") .. "</div>"
  end)
  return (html:gsub("%$<code>(.-)</code>%$", '<span class="math inline">%1</span>'))
end

--- render(text, ctx) -> body HTML, whether it has formulas.
-- ctx.resolve(target) -> the site-relative href of a repository path
-- (with its fragment), or nil when the site has no page for it;
-- ctx.mention(text) -> the href for a plain "docs/X.md" or example path
-- mentioned in prose, or nil; ctx.api(name) -> the href of a documented
-- name, or nil.
function M.render(text, ctx)
  local html = add_heading_ids(math_spans(M.cmark(text)))
  local has_math = html:find('class="math ', 1, true) ~= nil
  -- Markdown links to repository files: to their pages, or unlinked.
  html = html:gsub('<a href="([^"]*)"([^>]*)>(.-)</a>', function(target, rest, inner)
    if target:match("^%a[%w+.-]*:") or target:match("^#") then return nil end
    local href = ctx.resolve(target)
    if href then return string.format('<a href="%s"%s>%s</a>', href, rest, inner) end
    return inner
  end)
  html = map_text(html, function(t, state)
    if state.a > 0 then return t end
    if state.code > 0 and state.pre == 0 then
      local name, tail = t:match("^(luma[%w_.]*[%w_])(.*)$")
      local href = name and ctx.api(name)
      if href then return string.format('<a href="%s">%s</a>%s', href, name, tail) end
    end
    if state.pre > 0 then return t end
    -- in prose: documented names (luma.tree.DecisionTreeClassifier) and
    -- mentions of docs/X.md, X.md, scripts/examples/x.lua
    return (t:gsub("[%w_][%w_./-]*[%w_]", function(word)
      local href = word:match("^luma[%w_.]*$") and ctx.api(word) or ctx.mention(word)
      if href then return string.format('<a href="%s">%s</a>', href, word) end
      return nil
    end))
  end)
  return html, has_math
end

return M
