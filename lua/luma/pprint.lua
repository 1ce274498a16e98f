--- luma.pprint: readable printing of nested values in scripts (what the
-- REPL shows for a result, for print-style use): tables with their keys
-- sorted, short lists on one line, matrices, estimators and result tables
-- by their own __tostring, numbers to 6 significant digits.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local numfmt = require("luma.util.native").format -- "." whatever the locale

local function is_identifier(k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") ~= nil
end

local function scalar(v)
  if math.type(v) == "float" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return numfmt("%.6g", v)
  end
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

-- Keys in a stable order: the list part first, then numbers, then
-- strings, then anything else by its text.
local function sorted_keys(t)
  local n = #t
  local keys = {}
  for k in pairs(t) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  local rank = { number = 1, string = 2 }
  table.sort(keys, function(a, b)
    local ra, rb = rank[type(a)] or 3, rank[type(b)] or 3
    if ra ~= rb then return ra < rb end
    if ra == 3 then return tostring(a) < tostring(b) end
    return a < b
  end)
  return n, keys
end

local format

-- A value's own text (a matrix, an object with __tostring), indented as a
-- block under the line it starts on.
local function block(v, indent)
  return (tostring(v):gsub("\n", "\n" .. indent))
end

local function format_table(t, indent, depth, seen, opts)
  if seen[t] then return "<cycle>" end
  if depth > opts.depth then return "{...}" end
  seen[t] = true
  local n, keys = sorted_keys(t)
  local inner = indent .. "  "
  local items = {}
  for i = 1, n do items[#items + 1] = format(t[i], inner, depth + 1, seen, opts) end
  for _, k in ipairs(keys) do
    local key = is_identifier(k) and k or "[" .. scalar(k) .. "]"
    items[#items + 1] = key .. " = " .. format(t[k], inner, depth + 1, seen, opts)
  end
  seen[t] = nil
  if #items == 0 then return "{}" end
  local one_line = "{ " .. table.concat(items, ", ") .. " }"
  if #indent + #one_line <= opts.width and not one_line:find("\n", 1, true) then
    return one_line
  end
  return "{\n" .. inner .. table.concat(items, ",\n" .. inner) .. "\n" .. indent .. "}"
end

format = function(v, indent, depth, seen, opts)
  local t = type(v)
  if t == "table" then
    local mt = getmetatable(v)
    if mt and mt.__tostring then return block(v, indent) end
    return format_table(v, indent, depth, seen, opts)
  end
  if t == "userdata" then return block(v, indent) end
  return scalar(v)
end

local function check_opts(fname, opts)
  if opts == nil then return { width = 80, depth = 8 } end
  if type(opts) ~= "table" then
    error(string.format("bad argument #2 to '%s' (options table expected, got %s)", fname,
      type(opts)), 3)
  end
  for k in pairs(opts) do
    if k ~= "width" and k ~= "depth" then
      error(string.format("%s: unknown option '%s' (valid: depth, width)", fname, tostring(k)), 3)
    end
  end
  local width, depth = opts.width or 80, opts.depth or 8
  if math.type(width) ~= "integer" or width < 1 then
    error(string.format("%s: width must be a positive integer", fname), 3)
  end
  if math.type(depth) ~= "integer" or depth < 0 then
    error(string.format("%s: depth must be an integer >= 0", fname), 3)
  end
  return { width = width, depth = depth }
end

local pprint = {}

--- pformat(v [, opts]) -> the text pprint prints.
function pprint.pformat(v, opts)
  return format(v, "", 0, {}, check_opts("pformat", opts))
end

setmetatable(pprint, { __call = function(_, v, opts)
  print(format(v, "", 0, {}, check_opts("pprint", opts)))
end })

local OPTS = {
  { name = "width", default = 80, doc = "the line width a table must fit to stay on one line" },
  { name = "depth", default = 8, doc = "nesting levels shown; deeper tables print as {...}" },
}
luma.doc.set(pprint, { name = "luma.pprint",
  signature = "pprint(v [, {width = 80, depth = 8}]) -> nothing",
  doc = "Prints v readably: tables with their keys sorted (the list part first) on one line "
    .. "when they fit in width, else one entry per line, indented; matrices, estimators and "
    .. "result tables by their own text; numbers to 6 significant digits; strings quoted. "
    .. "The luma command's print shows tables this way; in other hosts (stock lua5.4 with "
    .. "require \"luma\") print(t) shows only table: 0x... See also pprint.pformat. "
    .. "Returns nothing.",
  params = OPTS })
luma.doc.set(pprint.pformat, { name = "luma.pprint.pformat",
  signature = "pformat(v [, {width = 80, depth = 8}]) -> string",
  doc = "The text luma.pprint prints for v. Returns a string.", params = OPTS })

return pprint
