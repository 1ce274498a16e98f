-- luma.repl: the Lua half of the REPL: pretty-printing values, help texts
-- from the doc registry, and tab-completion candidates.  The C half
-- (src/vm/repl.c) reads lines and calls these.
local luma = require("luma")

local repl = {}

local MAX_ITEMS = 40      -- table entries shown before "..."
local MAX_DEPTH = 3       -- nested tables shown before "{...}"

-- Printers by metatable __name (types can also define __pretty).
repl.printers = {}

--- Registers fn(value) -> string as the printer of values whose metatable
--- has __name == type_name.  Returns nothing.
function repl.register_printer(type_name, fn)
  assert(type(type_name) == "string", "register_printer: type name must be a string")
  assert(type(fn) == "function", "register_printer: printer must be a function")
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
    return tostring(v)
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

-- ------------------------------------------------------------------ help

local function first_sentence(text)
  if not text then return "" end
  return text:match("^(.-%.)%s") or text:match("^(.-%.)$") or text
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
local function member_lines(tbl, lines, own_rec)
  local names = {}
  for k, member in pairs(tbl) do
    if type(k) == "string" and type(member) ~= "string" then
      local rec = luma.doc.get(member)
      if rec and rec ~= own_rec then names[#names + 1] = k end
    end
  end
  table.sort(names)
  if #names == 0 then return end
  lines[#lines + 1] = ""
  for _, k in ipairs(names) do
    local rec = luma.doc.get(tbl[k])
    lines[#lines + 1] = string.format("  %-20s %s", rec.signature or k, first_sentence(rec.doc))
  end
end

local GENERAL_HELP = [[
Luma %s - machine learning in Lua 5.4.
  help(x)        documentation of a function, module, object or "luma.name"
  luma.matrix    dense matrices: luma.matrix{{1,2},{3,4}}, luma.zeros(3, 3)
  luma.config()  build information (BLAS, threads, compiler)
In the REPL: Tab completes names, Ctrl-C interrupts a computation,
Ctrl-D exits. Expressions print their value.]]

--- Returns the help text of x as a string (see luma.help).
function repl.help_text(x)
  if x == nil then return string.format(GENERAL_HELP, luma.VERSION) end
  local target = x
  if type(x) == "string" then
    target = luma.doc.get(x) and x or resolve_path(x)
    if target == nil and x:match("^luma%.") then
      -- Records of modules not loaded yet (and of their types, such as
      -- luma.Generator) exist once the modules are: load them and retry.
      for _, name in ipairs(getmetatable(luma).__lazy) do pcall(function() return luma[name] end) end
      target = luma.doc.get(x) and x or resolve_path(x)
    end
    if target == nil then return "no documentation for '" .. x .. "'" end
  end
  local rec = luma.doc.get(target)
  local mt = getmetatable(target)
  if not rec and type(mt) == "table" and rawget(mt, "__name") then
    rec = luma.doc.get(mt) -- an instance: document its type
    target = mt
  end
  if not rec then
    return "no documentation for this " .. type(x) .. " value"
  end
  local lines = { rec.signature and (rec.name .. ": " .. rec.signature) or rec.name }
  if rec.doc then lines[#lines + 1] = "  " .. rec.doc end
  if rec.params then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Parameters:"
    for _, p in ipairs(rec.params) do
      local default = p.default ~= p.default and "nan" or repl.pretty(p.default)
      lines[#lines + 1] = string.format("  %-16s %-10s default %-10s %s", p.name,
        p.type or "", default, p.doc or "")
    end
  end
  if type(target) == "table" then
    local index = rawget(target, "__methods") or rawget(target, "__index")
    member_lines(type(index) == "table" and index or target, lines, rec)
  end
  return table.concat(lines, "\n")
end

--- Prints the help text of x (the REPL's and the luma command's `help`).
function repl.help(x)
  io.stdout:write(repl.help_text(x), "\n")
end

-- ------------------------------------------------------------ completion

local KEYWORDS = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
  "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
}

-- Adds the string keys of t, and of tables reachable through __index, that
-- start with partial.
local function collect_keys(t, partial, out, seen)
  seen = seen or {}
  if seen[t] then return end
  seen[t] = true
  if type(t) == "table" then
    for k in pairs(t) do
      if is_identifier(k) and k:sub(1, #partial) == partial then out[k] = true end
    end
  end
  local mt = getmetatable(t)
  if type(mt) ~= "table" then return end
  local index = rawget(mt, "__methods") or rawget(mt, "__index")
  if type(index) == "table" then collect_keys(index, partial, out, seen) end
  local lazy = rawget(mt, "__lazy")
  if type(lazy) == "table" then
    for _, k in ipairs(lazy) do
      if k:sub(1, #partial) == partial then out[k] = true end
    end
  end
end

--- Returns a sorted array of completions of text ("luma.ma", "A:tr", "pri").
function repl.complete(text)
  local path, sep, partial = text:match("^(.-)([%.:])([%w_]*)$")
  local found = {}
  if path and path ~= "" and path:match("^[%a_][%w_%.]*$") then
    local v = resolve_path(path)
    if v ~= nil then collect_keys(v, partial, found) end
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
  doc = "REPL helpers: pretty(v), show(...), help_text(x), help(x), complete(text), "
     .. "register_printer(type_name, fn)." })
luma.doc.set(repl.pretty, { name = "luma.repl.pretty", signature = "pretty(v)",
  doc = "Returns the REPL's text for v: tables expanded with limits, types through their printer." })
luma.doc.set(repl.register_printer, { name = "luma.repl.register_printer",
  signature = "register_printer(type_name, fn)",
  doc = "Makes fn(value) -> string the REPL printer of values whose metatable __name is type_name." })
luma.doc.set(repl.complete, { name = "luma.repl.complete", signature = "complete(text)",
  doc = "Returns the sorted completions of text, as the REPL's Tab key shows them." })
luma.doc.set(repl.help_text, { name = "luma.repl.help_text", signature = "help_text(x)",
  doc = "Returns the help text of x (nil: an overview)." })

return repl
