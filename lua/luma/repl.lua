-- luma.repl: the Lua half of the REPL: pretty-printing values, help texts
-- from the doc registry, and tab-completion candidates.  The C half
-- (src/vm/repl.c) reads lines and calls these.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.util.native") -- numbers with "." whatever the locale

local repl = {}

local MAX_ITEMS = 40      -- table entries shown before "..."
local MAX_DEPTH = 3       -- nested tables shown before "{...}"

-- Printers by metatable __name (types can also define __pretty).
repl.printers = {}

--- Registers fn(value) -> string as the printer of values whose metatable
--- has __name == type_name.  Returns nothing.
function repl.register_printer(type_name, fn)
  args.arg(type(type_name) == "string", 1, "register_printer", "string", type_name, 2)
  args.arg(type(fn) == "function", 2, "register_printer", "function", fn, 2)
  repl.printers[type_name] = fn
end

local function is_identifier(s)
  return type(s) == "string" and s:match("^[%a_][%w_]*$") ~= nil
end

local custom_printer -- forward

local function pretty_value(v, depth, seen)
  local t = type(v)
  if t == "string" then
    return string.format("%q", v)
  elseif t ~= "table" then
    local printer = custom_printer(v)
    if printer then return printer(v) end
    return native.tostring(v)
  end
  local printer = custom_printer(v)
  if printer then return printer(v) end
  if seen[v] then return "<cycle>" end
  if depth >= MAX_DEPTH then return "{...}" end
  seen[v] = true
  local parts, n = {}, 0
  local len = #v
  for i = 1, len do
    n = n + 1
    if n > MAX_ITEMS then break end
    parts[#parts + 1] = pretty_value(v[i], depth + 1, seen)
  end
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= len) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "string" or ta == "number" then return a < b end
    return tostring(a) < tostring(b)
  end)
  for _, k in ipairs(keys) do
    n = n + 1
    if n > MAX_ITEMS then break end
    local key = is_identifier(k) and k or ("[" .. pretty_value(k, MAX_DEPTH, seen) .. "]")
    parts[#parts + 1] = key .. " = " .. pretty_value(v[k], depth + 1, seen)
  end
  seen[v] = nil
  if n > MAX_ITEMS then parts[#parts + 1] = "..." end
  return "{" .. table.concat(parts, ", ") .. "}"
end

custom_printer = function(v)
  local mt = getmetatable(v)
  if type(mt) ~= "table" then return nil end
  if type(rawget(mt, "__pretty")) == "function" then return rawget(mt, "__pretty") end
  local name = rawget(mt, "__name")
  if name and repl.printers[name] then return repl.printers[name] end
  if rawget(mt, "__tostring") then return tostring end
  return nil
end

--- Returns the REPL's text for a value: strings as they are, tables
--- expanded (depth- and length-limited), types with a printer through it.
function repl.pretty(v)
  if type(v) == "string" then return v end
  return pretty_value(v, 0, {})
end

--- Returns the line the REPL prints for a call's results (tab-separated).
function repl.show(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = repl.pretty((select(i, ...))) end
  return table.concat(parts, "\t")
end

-- ------------------------------------------------------------ public API

-- Loads every lazily loaded public module (luma.linear, luma.dist, ...).
local function load_all_modules()
  for _, name in ipairs(getmetatable(luma).__lazy) do pcall(function() return luma[name] end) end
end

-- The instance method table of a class or type: an estimator's methods,
-- a native type's __methods, or __index; a class that is its own
-- __index (luma.dist) has its methods in itself.
local function method_table(t)
  for _, field in ipairs({ "methods", "__methods", "__index" }) do
    local m = rawget(t, field)
    if type(m) == "table" then return m end
  end
  return t
end

local function is_callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(v) == "table" and type(mt) == "table" and rawget(mt, "__call") ~= nil
end

local function sorted_public_keys(t)
  local keys = {}
  for k in pairs(t) do
    if is_identifier(k) and k:sub(1, 1) ~= "_" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  return keys
end

--- Returns every public name reachable from the luma table: a sorted
--- array of {name = "luma.linear.Ridge", kind = "module" | "function" |
--- "class" | "method", value = v, module = "luma.linear", record = the
--- value's doc record or nil}.  Public: the luma table and its lazily
--- loaded modules, their functions, nested tables and classes (keys not
--- starting with "_"), a class's or type's instance methods, and the
--- methods of native types (registry metatables named luma.*).  Package
--- parts that only `require` reaches (luma.linear.common) are not public.
function repl.public_api()
  load_all_modules()
  local entries, seen = {}, {}
  local function add(name, kind, value, module)
    entries[#entries + 1] = { name = name, kind = kind, value = value, module = module,
      record = luma.doc.get(value) }
  end
  local walk_table
  local function walk_methods(t, prefix, module)
    if seen[t] then return end
    seen[t] = true
    local methods = method_table(t)
    for _, k in ipairs(sorted_public_keys(methods)) do
      local m = rawget(methods, k)
      if type(m) == "function" then add(prefix .. "." .. k, "method", m, module) end
    end
  end
  walk_table = function(t, prefix, module)
    for _, k in ipairs(sorted_public_keys(t)) do
      local v, name = rawget(t, k), prefix .. "." .. k
      if is_callable(v) and not seen[v] then
        seen[v] = true
        if type(v) == "function" then
          add(name, "function", v, module)
        else
          add(name, "class", v, module)
          seen[v] = nil
          walk_methods(v, name, module)
        end
      elseif type(v) == "table" and not seen[v] then
        seen[v] = true
        if rawget(v, "__name") then -- a type's metatable: its methods
          seen[v] = nil
          walk_methods(v, name, module)
        else
          walk_table(v, name, module)
        end
      end
    end
  end
  -- Modules: the lazily loaded ones and the tables the luma table holds
  -- under their own documented name (luma.matrix, luma.doc).  Their
  -- members are walked before luma's own, so luma.zeros is listed as
  -- luma.matrix.zeros.
  seen[luma] = true
  add("luma", "module", luma, "luma")
  local modules = {}
  for _, k in ipairs(sorted_public_keys(luma)) do
    local v = rawget(luma, k)
    local rec = type(v) == "table" and luma.doc.get(v)
    if rec and rec.name == "luma." .. k then
      seen[v] = true
      modules[#modules + 1] = k
      add("luma." .. k, "module", v, "luma." .. k)
    end
  end
  for _, k in ipairs(modules) do
    local v = rawget(luma, k)
    walk_table(v, "luma." .. k, "luma." .. k)
  end
  walk_table(luma, "luma", "luma")
  local registry = debug and debug.getregistry and debug.getregistry()
  if registry then
    local types = {}
    for k, v in pairs(registry) do
      if type(k) == "string" and k:match("^luma%.[%u]") and type(v) == "table" then
        types[#types + 1] = k
      end
    end
    table.sort(types)
    for _, k in ipairs(types) do walk_methods(registry[k], k, k) end
  end
  table.sort(entries, function(a, b) return a.name < b.name end)
  return entries
end

-- ------------------------------------------------------------------ help

-- The first sentence of a doc text: up to a period followed by a capital
-- letter or the end (so "sec. 7.10" and "e.g. x" do not end it).
local function first_sentence(text)
  if not text then return "" end
  return text:match("^(.-%.)%s+%u") or text:match("^(.-%.)%s*$") or text
end

-- Finds a value by dotted path ("luma.matrix.zeros") from the globals;
-- "luma" means this module even where it is not a global.
local function resolve_path(path)
  local v = _G
  for part in path:gmatch("[^%.]+") do
    if v == _G and part == "luma" and rawget(_G, "luma") == nil then v = { luma = luma } end
    if type(v) ~= "table" and type(v) ~= "userdata" then return nil end
    local ok, nextv = pcall(function() return v[part] end)
    if not ok then return nil end
    v = nextv
  end
  return v
end

-- The documented members of tbl, one line each.  Strings are skipped
-- (luma.doc.get of a string looks a name up: a class's `name` field would
-- document the class again), and so is anything documented by own_rec
-- itself (a class's instance metatable shares the class's record).
-- Records are keyed by value, so a function stored under two names (an
-- alias such as a distribution's pmf = pdf) has one record: it is listed
-- once, under the name its record gives, the other names shown as aliases.
local function member_lines(tbl, lines, own_rec)
  local keys_of, order = {}, {}
  for k, member in pairs(tbl) do
    if type(k) == "string" and type(member) ~= "string" then
      local rec = luma.doc.get(member)
      if rec and rec ~= own_rec then
        if not keys_of[rec] then
          keys_of[rec] = {}
          order[#order + 1] = rec
        end
        table.insert(keys_of[rec], k)
      end
    end
  end
  if #order == 0 then return end
  local entries = {}
  for _, rec in ipairs(order) do
    local keys = keys_of[rec]
    table.sort(keys)
    local own = rec.name and rec.name:match("([^%.:]+)$")
    local main = keys[1]
    for _, k in ipairs(keys) do if k == own then main = k end end
    local aliases = {}
    for _, k in ipairs(keys) do if k ~= main then aliases[#aliases + 1] = k end end
    local summary = first_sentence(rec.doc)
    if #aliases > 0 then summary = summary .. " (also " .. table.concat(aliases, ", ") .. ")" end
    entries[#entries + 1] = { key = main, text = string.format("  %-20s  %s", rec.signature or main, summary) }
  end
  table.sort(entries, function(a, b) return a.key < b.key end)
  lines[#lines + 1] = ""
  for _, e in ipairs(entries) do lines[#lines + 1] = e.text end
end

local GENERAL_HELP = [[
Luma %s - machine learning in Lua 5.4.
  help(x)        documentation of a function, module, object or "luma.name"
  luma.matrix    dense matrices: luma.matrix{{1,2},{3,4}}, luma.zeros(3, 3)
  luma.config()  build information (BLAS, threads, compiler)
In the REPL: Tab completes names, Ctrl-C interrupts a computation,
Ctrl-D exits. Expressions print their value.]]

-- The help text of a documented value (or of an instance's type).
local function record_text(target, what)
  local rec = luma.doc.get(target)
  local mt = getmetatable(target)
  if not rec and type(mt) == "table" and rawget(mt, "__name") then
    rec = luma.doc.get(mt) -- an instance: document its type
    target = mt
  end
  if not rec then return "no documentation for this " .. what .. " value" end
  local lines = { rec.signature and (rec.name .. ": " .. rec.signature) or rec.name }
  if rec.doc then lines[#lines + 1] = "  " .. rec.doc end
  if rec.params and #rec.params > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Parameters:"
    for _, p in ipairs(rec.params) do
      local default = p.default ~= p.default and "nan" or repl.pretty(p.default)
      lines[#lines + 1] = string.format("  %-16s %-10s default %-10s %s", p.name,
        p.type or "", default, p.doc or "")
    end
  end
  if rec.returns then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Returns: " .. rec.returns
  end
  if type(target) == "table" then member_lines(method_table(target), lines, rec) end
  return table.concat(lines, "\n")
end

local MAX_MATCHES = 50 -- apropos lines shown before "... more"

-- What help("query") shows when no name matches exactly: the one public
-- name whose last part is query (help("Ridge") is luma.linear.Ridge), or
-- a list of the names containing query, then of the names whose summary
-- contains it (case-insensitive), each with its one-line summary.
local function apropos(query)
  local q = query:lower()
  local exact, named, summarized, seen = {}, {}, {}, {}
  local entries, public = repl.public_api(), {}
  for _, e in ipairs(entries) do public[e.name] = true end
  for _, e in ipairs(entries) do
    local rec = e.record
    if rec and not seen[rec] then
      seen[rec] = true
      -- a record shared by several names shows under its own name when
      -- that is public (luma.matrix.zeros, not luma.zeros)
      local name = public[rec.name] and rec.name or e.name
      local short = name:match("([^%.]+)$")
      local entry = { name = name, value = e.value, summary = first_sentence(rec.doc) }
      if short == query then exact[#exact + 1] = entry
      elseif name:lower():find(q, 1, true) then named[#named + 1] = entry
      elseif entry.summary:lower():find(q, 1, true) then summarized[#summarized + 1] = entry end
    end
  end
  if #exact == 1 then return record_text(exact[1].value, type(exact[1].value)) end
  local matches = {}
  table.move(exact, 1, #exact, 1, matches)
  table.move(named, 1, #named, #matches + 1, matches)
  table.move(summarized, 1, #summarized, #matches + 1, matches)
  if #matches == 0 then return "no documentation for '" .. query .. "'" end
  local lines = { string.format("no exact match for '%s'; %d related (help(\"name\") for one):",
    query, #matches) }
  for i, m in ipairs(matches) do
    if i > MAX_MATCHES then
      lines[#lines + 1] = string.format("  ... %d more", #matches - MAX_MATCHES)
      break
    end
    lines[#lines + 1] = string.format("  %-40s %s", m.name, m.summary)
  end
  return table.concat(lines, "\n")
end

--- Returns the help text of x as a string (see luma.help).
function repl.help_text(x)
  if x == nil then return string.format(GENERAL_HELP, luma.VERSION) end
  if type(x) ~= "string" then return record_text(x, type(x)) end
  local target = luma.doc.get(x) and x or resolve_path(x)
  if target == nil and x:match("^luma%.") then
    -- Records of modules not loaded yet (and of their types, such as
    -- luma.Generator) exist once the modules are: load them and retry.
    load_all_modules()
    target = luma.doc.get(x) and x or resolve_path(x)
  end
  if target == nil then return apropos(x) end
  return record_text(target, type(x))
end

--- Wraps text to width columns: a long line breaks at spaces, its
--- continuation indented under the line's text (under the second column
--- of a "  name   summary" line); a word longer than a line stays whole.
--- Returns the wrapped text.
function repl.wrap(text, width)
  args.arg(type(text) == "string", 1, "wrap", "string", text, 2)
  args.arg(math.type(width) == "integer" and width > 0, 2, "wrap", "integer > 0", width, 2)
  local out = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do
    local lead = #line:match("^%s*")
    local column = line:match("^(%s*%S+%s%s+)%S")
    local indent = (column and #column <= width // 2) and #column or lead
    local prefix, rest, floor = "", line, lead
    while #prefix + #rest > width do
      local cut
      for i = width - #prefix + 1, floor + 1, -1 do
        if rest:sub(i, i) == " " then cut = i break end
      end
      cut = cut or rest:find(" ", width - #prefix + 1, true)
      if not cut then break end
      out[#out + 1] = prefix .. rest:sub(1, cut - 1):gsub("%s+$", "")
      rest = rest:sub(cut + 1):gsub("^%s+", "")
      prefix, floor = string.rep(" ", indent), 0
    end
    out[#out + 1] = prefix .. rest
  end
  return table.concat(out, "\n")
end

-- The terminal's width: $COLUMNS, else what stty reports for the
-- terminal on standard input, else 80.
local function terminal_width()
  local columns = tonumber(os.getenv("COLUMNS") or "")
  if columns and columns >= 20 then return math.floor(columns) end
  local ok, pipe = pcall(io.popen, "stty size 2>/dev/null")
  if ok and pipe then
    local size = pipe:read("a") or ""
    pipe:close()
    columns = tonumber(size:match("^%d+%s+(%d+)"))
    if columns and columns >= 20 then return columns end
  end
  return 80
end

-- Whether standard output is a terminal (false where os.execute is not
-- available, as in sandboxed states).
local function stdout_is_terminal()
  return type(os.execute) == "function" and os.execute("test -t 1") == true
end

--- Prints the help text of x (the REPL's and the luma command's `help`):
--- on a terminal wrapped to its width and shown through $PAGER (default
--- "less -FRX", which prints a short text and returns at once); elsewhere
--- unwrapped, as luma.help returns it.  Returns nothing.
function repl.help(x)
  local text = repl.help_text(x)
  if not stdout_is_terminal() then
    io.stdout:write(text, "\n")
    return
  end
  text = repl.wrap(text, terminal_width() - 1)
  local pager = os.getenv("PAGER") or "less -FRX"
  local ok, pipe = false, nil
  if pager ~= "" then ok, pipe = pcall(io.popen, pager, "w") end
  if ok and pipe then
    io.stdout:flush()
    pipe:write(text, "\n")
    pipe:close()
  else
    io.stdout:write(text, "\n")
  end
end

-- ------------------------------------------------------------ completion

local KEYWORDS = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
  "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
}

-- Whether completing partial may show key k: k starts with partial, and
-- internal fields (an estimator's __class, __fitted, ...) show only once
-- the user types the underscores.
local function offers(k, partial)
  return k:sub(1, #partial) == partial and (k:sub(1, 2) ~= "__" or partial:sub(1, 2) == "__")
end

-- Adds the string keys of t, and of tables reachable through __index, that
-- complete partial.
local function collect_keys(t, partial, out, seen)
  seen = seen or {}
  if seen[t] then return end
  seen[t] = true
  if type(t) == "table" then
    for k in pairs(t) do
      if is_identifier(k) and offers(k, partial) then out[k] = true end
    end
  end
  local mt = getmetatable(t)
  if type(mt) ~= "table" then return end
  local index = rawget(mt, "__methods") or rawget(mt, "__index")
  if type(index) == "table" then collect_keys(index, partial, out, seen) end
  local lazy = rawget(mt, "__lazy")
  if type(lazy) == "table" then
    for _, k in ipairs(lazy) do
      if offers(k, partial) then out[k] = true end
    end
  end
end

--- Returns a sorted array of completions of text ("luma.ma", "A:tr", "pri").
--- After ":" only methods are offered, each with its "(" (A:sha -> A:shape().
function repl.complete(text)
  args.arg(type(text) == "string", 1, "complete", "string", text, 2)
  local path, sep, partial = text:match("^(.-)([%.:])([%w_]*)$")
  local found = {}
  if path and path ~= "" and path:match("^[%a_][%w_%.]*$") then
    local v = resolve_path(path)
    if v ~= nil then collect_keys(v, partial, found) end
    if sep == ":" then
      local methods = {}
      for k in pairs(found) do
        local ok, member = pcall(function() return v[k] end)
        if ok and is_callable(member) then methods[k .. "("] = true end
      end
      found = methods
    end
  elseif text:match("^[%a_]?[%w_]*$") then
    path, sep, partial = "", "", text
    collect_keys(_G, partial, found)
    for _, k in ipairs(KEYWORDS) do
      if k:sub(1, #partial) == partial then found[k] = true end
    end
  end
  local result = {}
  for k in pairs(found) do result[#result + 1] = path .. sep .. k end
  table.sort(result)
  return result
end

luma.doc.set(repl, { name = "luma.repl",
  doc = "REPL helpers: pretty(v), show(...), help_text(x), help(x), wrap(text, width), "
     .. "public_api(), complete(text), register_printer(type_name, fn)." })
luma.doc.set_members(repl, "luma.repl", {
  pretty = { signature = "pretty(v) -> string",
    doc = "The REPL's text for v: tables expanded with limits, types through their printer." },
  show = { signature = "show(...) -> string",
    doc = "The line the REPL prints for a call's results, tab-separated." },
  register_printer = { signature = "register_printer(type_name, fn) -> nothing",
    doc = "Makes fn(value) -> string the REPL printer of values whose metatable __name is "
      .. "type_name." },
  complete = { signature = "complete(text) -> table of strings",
    doc = "The sorted completions of text, as the REPL's Tab key shows them; after \":\" "
      .. "only methods, each with its opening parenthesis (\"A:sha\" gives \"A:shape(\")." },
  help_text = { signature = "help_text(x) -> string",
    doc = "The help text of x: a value, a qualified name, a short name (\"Ridge\") or a "
      .. "search word (\"cross\": the names and summaries containing it); nil gives an "
      .. "overview. luma.help is the same." },
  help = { signature = "help(x) -> nothing",
    doc = "Prints help_text(x); on a terminal wrapped to its width ($COLUMNS, else the "
      .. "terminal's) and shown through $PAGER (default \"less -FRX\")." },
  wrap = { signature = "wrap(text, width) -> string",
    doc = "Breaks the lines of text longer than width at spaces, continuations indented "
      .. "under the line's text." },
  public_api = { signature = "public_api() -> table",
    doc = "Every public name reachable from the luma table (modules loaded on the way), "
      .. "sorted: {name, kind = \"module\" | \"function\" | \"class\" | \"method\", value, "
      .. "module, record} each; what the help test and the HTML reference walk." },
})

return repl
