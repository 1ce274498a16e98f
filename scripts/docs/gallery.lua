--- The gallery of the documentation site (scikit-learn's auto-examples
-- are the model): every scripts/examples/*.lua is run, and gets a page
-- with its header comment as text, its code, what it printed and its
-- figures; gallery/index.html shows a thumbnail of each (its first
-- figure, or the first lines of its output drawn as an SVG card).
--
-- An example runs as `luma SCRIPT OUTDIR` through run-example.lua, which
-- sends every figure it saves into a folder of its own; a header line
-- "-- gallery-args: A B" gives other arguments instead (OUTDIR in them is
-- replaced by that folder, and an empty list runs the script with none).
-- Runs are cached under the build folder and repeated only when the
-- script, the luma binary or a Lua module is newer than the cached run.
-- SPDX-License-Identifier: MIT
local M = {}

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function sh(cmd)
  local ok = os.execute(cmd)
  return ok == true
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function lines_of(cmd)
  local list = {}
  local p = assert(io.popen(cmd))
  for line in p:lines() do list[#list + 1] = line end
  p:close()
  return list
end

--- scripts(dir) -> the example names (file names without .lua), sorted.
function M.scripts(dir)
  local names = {}
  for _, path in ipairs(lines_of("ls " .. shell_quote(dir) .. " 2>/dev/null")) do
    local name = path:match("^([%w_%-]+)%.lua$")
    if name then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

-- The header comment of a script: its leading "--" lines as Markdown
-- (lines indented by two spaces or more are commands: code), without
-- the SPDX line; and the gallery-args directive, if any.
local function header(source)
  local text, args = {}, nil
  for line in (source .. "\n"):gmatch("(.-)\n") do
    local body = line:match("^%-%-%-?(.*)$")
    if not body then break end
    body = body:gsub("^ ", "")
    local directive = body:match("^gallery%-args:(.*)$")
    if directive then
      args = {}
      for word in directive:gmatch("%S+") do args[#args + 1] = word end
    elseif not body:match("^SPDX%-License%-Identifier:") then
      if body:match("^  %S") then
        -- a command: a code block, which must not continue a paragraph
        if #text > 0 and text[#text] ~= "" and not text[#text]:match("^    ") then
          text[#text + 1] = ""
        end
        body = "    " .. body
      end
      text[#text + 1] = body
    end
  end
  return table.concat(text, "\n"), args
end

-- The title: the first sentence of the header, without its
-- parenthesized references.
local function title_of(text, name)
  local para = text:match("^(.-)\n%s*\n") or text
  para = para:gsub("\n", " "):gsub("%s*%b()", "")
  local sentence = para:match("^(.-[%.:])%s") or para:match("^(.-)%.?$") or para
  sentence = sentence:gsub("[%.:]$", ""):gsub("%s+", " ")
  if sentence == "" then return name end
  return sentence
end

local function newer_than(stamp, paths)
  local words = {}
  for _, p in ipairs(paths) do words[#words + 1] = shell_quote(p) end
  local out = lines_of("find " .. table.concat(words, " ") .. " -newer " .. shell_quote(stamp)
    .. " -print 2>/dev/null | head -n 1")
  return #out > 0
end

-- The examples whose cached run (cache/<name>) is not current, each
-- prepared to run again: its folder emptied, and the command that runs
-- it, which writes out.txt, err.txt and, last, status (exit code, then
-- seconds taken).
local function stale_runs(ctx, names)
  local stale = {}
  for _, name in ipairs(names) do
    local script = ctx.examples .. "/" .. name .. ".lua"
    local dir = ctx.cache .. "/" .. name
    local stamp = dir .. "/stamp"
    if not (read(stamp) and not newer_than(stamp, { script, ctx.luma, ctx.runner, "lua" })) then
      assert(sh("rm -rf " .. shell_quote(dir) .. " && mkdir -p " .. shell_quote(dir .. "/figures")))
      -- the stamp's time is the run's start: an edit during the run counts
      write(dir .. "/stamp.new", "")
      local _, args = header(assert(read(script)))
      local words = {}
      for _, a in ipairs(args or { "OUTDIR" }) do
        words[#words + 1] = shell_quote(a == "OUTDIR" and "figures" or a)
      end
      local function absolute(path) return path:match("^/") and path or ctx.root .. "/" .. path end
      stale[#stale + 1] = { name = name, script = script, dir = dir,
        cmd = string.format("cd %s && t0=$(date +%%s) && { timeout %d %s %s figures %s %s"
          .. " > out.txt 2> err.txt; echo $? $(( $(date +%%s) - t0 )) > status; }",
          shell_quote(dir), ctx.timeout, shell_quote(ctx.luma), shell_quote(absolute(ctx.runner)),
          shell_quote(absolute(script)), table.concat(words, " ")) }
    end
  end
  return stale
end

-- Runs the stale examples, ctx.jobs at a time (xargs -P: most examples
-- are a single thread's work, and the site's build time is mostly
-- theirs).  Returns a table of error texts by name for the runs that
-- failed.
local function run_stale(ctx, stale)
  local errors = {}
  if #stale == 0 then return errors end
  local list = os.tmpname()
  local f = assert(io.open(list, "wb"))
  for _, run in ipairs(stale) do f:write(run.cmd, "\0") end
  f:close()
  sh(string.format("xargs -0 -n 1 -P %d sh -c < %s", ctx.jobs or 2, shell_quote(list)))
  os.remove(list)
  for _, run in ipairs(stale) do
    local code, seconds = (read(run.dir .. "/status") or ""):match("^(%d+) (%d+)")
    if code == "0" then
      assert(os.rename(run.dir .. "/stamp.new", run.dir .. "/stamp"))
      ctx.log(string.format("gallery: ran %s (%s s)", run.script, seconds))
    else
      local err = (read(run.dir .. "/err.txt") or ""):gsub("%s+$", "")
      if code == "124" then err = string.format("timed out after %d s\n%s", ctx.timeout, err) end
      errors[run.name] = code and err or "did not run\n" .. err
    end
  end
  return errors
end

local THUMB_LINES, THUMB_COLS = 11, 44

-- An SVG card with the first lines of an example's output, the thumbnail
-- of an example that draws no figure.
local function text_card(esc, title, output)
  local rows = {}
  local n = 0
  for line in (output .. "\n"):gmatch("(.-)\n") do
    if n >= THUMB_LINES then break end
    n = n + 1
    if #line > THUMB_COLS then line = line:sub(1, THUMB_COLS - 1) .. "…" end
    rows[#rows + 1] = string.format('<text x="10" y="%d">%s</text>', 40 + 14 * n, esc(line))
  end
  return table.concat({
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="220" viewBox="0 0 320 220">',
    '<rect width="320" height="220" fill="#f6f8fa" stroke="#d0d7de"/>',
    '<text x="10" y="24" font-family="DejaVu Sans, sans-serif" font-size="13" font-weight="bold"'
      .. ' fill="#1d3557">', esc(title), "</text>",
    '<g font-family="DejaVu Sans Mono, monospace" font-size="10.5" fill="#1d2430"'
      .. ' xml:space="preserve">', table.concat(rows), "</g></svg>\n" })
end

--- build(ctx) -> list of {name, title, page}, or nil and the list of
-- failures ("scripts/examples/x.lua: error").
-- ctx: outdir, examples (the scripts' folder), root (repository), luma
-- (binary), runner, cache, timeout, jobs (examples run at once, default 2),
-- escape(s), render(markdown, depth) -> html, page(title, body, depth,
-- extra_head) -> html, api_module(name) -> href of a module from a
-- gallery page or nil, log(s).
function M.build(ctx)
  local names = M.scripts(ctx.examples)
  local gallery = ctx.outdir .. "/gallery"
  assert(sh("mkdir -p " .. shell_quote(gallery .. "/images")))
  local done, failures = {}, {}
  local errors = run_stale(ctx, stale_runs(ctx, names))
  for _, name in ipairs(names) do
    local script = ctx.examples .. "/" .. name .. ".lua"
    local source = assert(read(script))
    local text, args = header(source)
    local dir = ctx.cache .. "/" .. name
    if errors[name] then
      failures[#failures + 1] = script .. ": " .. errors[name]
    else
      local output = read(dir .. "/out.txt") or ""
      local stderr = read(dir .. "/err.txt") or ""
      local figures = lines_of("ls " .. shell_quote(dir .. "/figures"))
      local shown = {}
      for _, fig in ipairs(figures) do
        if fig:match("%.svg$") or fig:match("%.png$") then
          local target = "images/" .. name .. "--" .. fig
          assert(sh("cp " .. shell_quote(dir .. "/figures/" .. fig) .. " "
            .. shell_quote(gallery .. "/" .. target)))
          shown[#shown + 1] = target
        end
      end
      local title = title_of(text, name)
      local thumb = shown[1]
      if not thumb then
        thumb = "images/" .. name .. "--output.svg"
        write(gallery .. "/" .. thumb, text_card(ctx.escape, title, output))
      end
      write(gallery .. "/" .. name .. ".lua", source)
      done[#done + 1] = { name = name, title = title, thumb = thumb, text = text, source = source,
        args = args or { "OUTDIR" },
        output = output, stderr = stderr, figures = shown, script = script }
    end
  end
  if #failures > 0 then return nil, failures end

  local esc = ctx.escape
  for _, ex in ipairs(done) do
    local uses, seen = {}, {}
    for mod in ex.source:gmatch("luma%.([%a_]+)") do
      local href = ctx.api_module("luma." .. mod)
      if href and not seen[mod] then
        seen[mod] = true
        uses[#uses + 1] = string.format('<a href="%s"><code>luma.%s</code></a>', href, mod)
      end
    end
    table.sort(uses)
    ex.uses = uses
    local body = { "<h1>", esc(ex.title), "</h1>\n", ctx.render(ex.text, 1) }
    if #uses > 0 then body[#body + 1] = "<p>Uses " .. table.concat(uses, ", ") .. ".</p>\n" end
    local argv = ex.args
    body[#body + 1] = string.format('<p>Run it: <code>build/luma %s%s</code> (<a href="%s.lua">'
      .. "download %s.lua</a>)</p>\n", esc(ex.script), #argv > 0 and " " .. esc(table.concat(argv, " "))
      or "", ex.name, ex.name)
    for _, fig in ipairs(ex.figures) do
      body[#body + 1] = string.format('<figure><img src="%s" alt="%s"></figure>\n', fig,
        esc(fig:match("%-%-(.*)$")))
    end
    body[#body + 1] = "<h2>Output</h2>\n<pre class=\"output\">" .. esc(ex.output) .. "</pre>\n"
    if ex.stderr ~= "" then
      body[#body + 1] = "<h2>Standard error</h2>\n<pre class=\"output\">" .. esc(ex.stderr)
        .. "</pre>\n"
    end
    body[#body + 1] = "<h2>Code</h2>\n<pre class=\"code\"><code>" .. esc(ex.source)
      .. "</code></pre>\n"
    write(gallery .. "/" .. ex.name .. ".html", ctx.page(ex.title .. " - Luma gallery",
      table.concat(body), 1))
  end

  local index = { "<h1>Gallery</h1>\n<p>", #done, " example scripts from <code>scripts/examples</code>,"
    .. " each run when the documentation was built: its code, what it printed and its"
    .. " figures.</p>\n<div class=\"thumbs\">\n" }
  for _, ex in ipairs(done) do
    index[#index + 1] = string.format('<a class="thumb" href="%s.html"><img src="%s" alt="">'
      .. "<span>%s</span><code>%s.lua</code></a>\n", ex.name, ex.thumb, esc(ex.title), ex.name)
  end
  index[#index + 1] = "</div>\n"
  write(gallery .. "/index.html", ctx.page("Gallery - Luma", table.concat(index), 1))
  return done
end

return M
