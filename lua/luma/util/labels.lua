--- luma.util.labels: class labels in every form a user holds them, read
-- one way (issue 29).  A classifier's y, a metric's y_true and y_pred, a
-- stratified splitter's y may be
--   * a luma.Matrix column (or row) of numbers, as the native kernels take;
--   * a Lua list of numbers, of strings or of booleans;
--   * a categorical column of a luma.Table (a Categorical: T.label,
--     T:column("label")), or a one-column luma.Table (T:select{"label"}),
--     which counts as its column.
-- read() turns any of them into a label vector, and the functions below
-- code, compare, select and rebuild such vectors, so that the estimator
-- contract, the metrics and model selection treat labels by value and give
-- back the kind of container the user gave.  Strings sort byte-wise
-- (whatever the C locale), booleans false before true.
-- Not a public API: luma.estimator.encode_labels and decode_labels are.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local labels = {}

local fail = args.fail
local NAN = 0 / 0

local function is_table(v) return args.type_of(v) == "luma.Table" end
local function is_categorical(v) return args.type_of(v) == "luma.Categorical" end

--- is_plain_list(v): a table without a metatable whose first entry is set
-- (a list of labels rather than an options table).
local function is_plain_list(v)
  return type(v) == "table" and getmetatable(v) == nil and (rawget(v, 1) ~= nil or next(v) == nil)
end

--- labels.accepts(v): whether v is a container read() takes.
function labels.accepts(v)
  return luma.ismatrix(v) or is_categorical(v) or is_table(v) or is_plain_list(v)
end

-- --------------------------------------------------------------- order

-- Byte order of strings (independent of the locale, which Lua's < follows),
-- numbers by value, false before true.
local function before(a, b)
  local ta = type(a)
  if ta == "number" then return a < b end
  if ta == "boolean" then return (not a) and b end
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = a:byte(i), b:byte(i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
labels.before = before

--- sorted_distinct(list) -> the distinct values of a list, sorted.
function labels.sorted_distinct(list, n)
  local seen, out = {}, {}
  for i = 1, n or #list do
    local v = list[i]
    if not seen[v] then
      seen[v] = true
      out[#out + 1] = v
    end
  end
  table.sort(out, before)
  return out
end

-- A value as messages show it: strings quoted, numbers as %.15g.
local function shown(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" then
    if v ~= v then return "nan" end
    return string.format("%.15g", v)
  end
  return tostring(v)
end
labels.shown = shown

-- ---------------------------------------------------------------- read

-- A label vector: {n = rows, type = "number" | "string" | "boolean",
-- kind = "matrix" | "list" | "categorical" (the container: a one-column
-- Table counts as its column), column = n x 1 matrix (numbers), list =
-- Lua list of the values (strings, booleans; for a categorical column
-- made on demand), cat = the Categorical}.

-- Raises a message about the labels ctx names (at level, as fail's):
-- "bad argument #argn to 'fname' (text)", or "prefix: text" when ctx has a
-- prefix (functions whose messages name themselves, as luma.metrics').
local function complain(ctx, level, fmt, ...)
  local text = string.format(fmt, ...)
  if ctx.prefix then fail(level + 1, "%s: %s", ctx.prefix, text) end
  fail(level + 1, "bad argument #%d to '%s' (%s)", ctx.argn or 1, ctx.fname or "?", text)
end

-- A categorical column stays coded: its codes are checked and read as
-- they are (native operations), its strings listed only on demand.
local function from_categorical(c, ctx, level)
  local codes = c.codes
  if codes:isnan():any() then
    local rows = luma.matrix.find(codes:isnan())
    complain(ctx, level + 1, "%s has a missing label in row %d; drop or impute those rows "
      .. "first", ctx.what or "y", math.tointeger(rows:get(1, 1)))
  end
  return { n = codes:rows(), type = "string", kind = "categorical", cat = c }
end

local function from_list(v, ctx, level)
  local n = #v
  local kind_of_first = n > 0 and type(v[1]) or "number"
  local what = ctx.what or "y"
  for k in pairs(v) do
    if math.type(k) ~= "integer" or k < 1 or k > n then
      complain(ctx, level + 1, "%s must be a list of labels (entries 1..%d), but it has the "
        .. "key %s", what, n, shown(k))
    end
  end
  if kind_of_first ~= "number" and kind_of_first ~= "string" and kind_of_first ~= "boolean" then
    complain(ctx, level + 1, "%s[1] is a %s; labels are numbers, strings or booleans", what,
      args.type_of(v[1]))
  end
  for i = 2, n do
    local t = type(v[i])
    if t ~= kind_of_first then
      complain(ctx, level + 1, "%s mixes labels of two types: %s[1] is a %s but %s[%d] is a %s",
        what, what, kind_of_first, what, i, t == "table" and args.type_of(v[i]) or t)
    end
  end
  if kind_of_first == "number" then
    return { n = n, type = "number", kind = "list", column = n > 0 and luma.matrix(v)
      or luma.zeros(0, 1) }
  end
  return { n = n, type = kind_of_first, kind = "list", list = v }
end

--- read(y, ctx, level) -> label vector.  ctx = {fname, argn, what} names
-- the argument in errors (raised at level, counted as fail's); with
-- ctx.prefix, errors read "prefix: what ...".
function labels.read(y, ctx, level)
  ctx = ctx or {}
  level = level or 1
  if luma.ismatrix(y) then
    local r, c = y:shape()
    if c == 1 then return { n = r, type = "number", kind = "matrix", column = y } end
    if r == 1 then return { n = c, type = "number", kind = "matrix", column = y:t() } end
    complain(ctx, level + 1, "%s must be one column of labels, got a %d x %d matrix",
      ctx.what or "y", r, c)
  end
  -- (no tail calls: the helpers' levels count this function's frame)
  if is_categorical(y) then
    local lv = from_categorical(y, ctx, level + 1)
    return lv
  end
  if is_table(y) then
    if y:ncols() ~= 1 then
      complain(ctx, level + 1, "%s as a luma.Table must have one column, got %d",
        ctx.what or "y", y:ncols())
    end
    local col = y:column(y:names()[1])
    if luma.ismatrix(col) then return { n = col:rows(), type = "number", kind = "matrix",
      column = col } end
    local lv = from_categorical(col, ctx, level + 1)
    return lv
  end
  if type(y) == "table" and getmetatable(y) == nil then
    local lv = from_list(y, ctx, level + 1)
    return lv
  end
  complain(ctx, level + 1, "%s must be a luma.Matrix, a list of labels, a categorical column "
    .. "or a one-column luma.Table, got %s", ctx.what or "y", args.type_of(y))
end

--- count(y) -> the number of labels of any container read() takes, or nil.
function labels.count(y)
  if luma.ismatrix(y) then
    local r, c = y:shape()
    return (c == 1 or r ~= 1) and r or c
  end
  if is_categorical(y) then return #y end
  if is_table(y) then return y:nrows() end
  if is_plain_list(y) then return #y end
  return nil
end

-- ------------------------------------------------------------- values

-- The labels of a label vector that holds strings or booleans, as a list
-- (a categorical column's strings are listed once, on first use).
local function list_of(lv)
  if lv.list == nil then
    local cats, codes, list = lv.cat.categories, lv.cat.codes, {}
    for i = 1, lv.n do list[i] = cats[math.tointeger(codes:get(i, 1))] end
    lv.list = list
  end
  return lv.list
end

--- value(lv, i) -> the i-th label of a label vector.
function labels.value(lv, i)
  if lv.column then return lv.column:get(i, 1) end
  if lv.list == nil then return lv.cat.categories[math.tointeger(lv.cat.codes:get(i, 1))] end
  return lv.list[i]
end

--- distinct(lv) -> the sorted distinct labels: a k x 1 matrix for
-- numbers, a Lua list otherwise.
function labels.distinct(lv)
  if lv.column then return lv.column:unique() end
  if lv.list == nil then
    -- the categories that occur (a category list given by the user need
    -- not be sorted)
    local present, cats, out = lv.cat.codes:unique(), lv.cat.categories, {}
    for j = 1, present:rows() do out[j] = cats[math.tointeger(present:get(j, 1))] end
    table.sort(out, before)
    return out
  end
  return labels.sorted_distinct(lv.list, lv.n)
end

--- index_of(classes) -> value -> position, for a k x 1 matrix or a list
-- (a NaN class has no position: it matches nothing).
function labels.index_of(classes)
  local idx = {}
  if luma.ismatrix(classes) then
    for i = 1, classes:rows() do
      local v = classes:get(i, 1)
      if v == v then idx[v] = i end
    end
  else
    for i, v in ipairs(classes) do idx[v] = i end
  end
  return idx
end

--- codes(lv, classes [, unknown]) -> n x 1 matrix: each label's position
-- among classes (a matrix or a list), unknown (default NaN) for a label
-- not among them.
function labels.codes(lv, classes, unknown)
  if unknown == nil then unknown = NAN end
  local idx, n = labels.index_of(classes), lv.n
  if lv.list == nil and lv.cat then
    -- through the category codes: one look-up per category, then a
    -- native gather
    local cats = lv.cat.categories
    if n == 0 or #cats == 0 then return luma.zeros(n, 1) end
    local map = luma.zeros(#cats, 1)
    for k, c in ipairs(cats) do map:set(k, 1, idx[c] or unknown) end
    return map:take(lv.cat.codes)
  end
  if n == 0 then return luma.zeros(0, 1) end
  -- (a Lua list made into a matrix at once: one call, not one per row)
  local out = {}
  if lv.column then
    local column = lv.column
    for i = 1, n do out[i] = idx[column:get(i, 1)] or unknown end
  else
    local list = list_of(lv)
    for i = 1, n do out[i] = idx[list[i]] or unknown end
  end
  return luma.matrix(out)
end

--- encode(lv) -> codes (n x 1, 1..k), classes (the sorted distinct labels:
-- a k x 1 matrix for numbers, a list otherwise).
function labels.encode(lv)
  if lv.column then
    if lv.n == 0 then return luma.zeros(0, 1), luma.zeros(0, 1) end
    local classes, _, codes = lv.column:unique{ inverse = true }
    return codes, classes
  end
  local classes = labels.distinct(lv)
  return labels.codes(lv, classes), classes
end

--- numeric(y, ctx, level) -> an n x 1 matrix: numbers as they are,
-- strings and booleans as their codes 1..k in sorted order (what
-- functions that only group equal labels need).
function labels.numeric(y, ctx, level)
  local lv = labels.read(y, ctx, (level or 1) + 1)
  if lv.column then return lv.column end
  return (labels.encode(lv))
end

--- encode_pair(a, b, ctx, level) -> codes_a, codes_b, values: two label
-- vectors of one type (numbers, strings or booleans) coded against the
-- sorted union of their labels (values: a k x 1 matrix for numbers, a
-- list otherwise).  Numbers are returned as they are (values nil).
function labels.encode_pair(a, b, ctx, level)
  ctx, level = ctx or {}, level or 1
  if a.type ~= b.type then
    complain(ctx, level + 1, "%s holds %ss but %s holds %ss", ctx.what_a or "y_true", a.type,
      ctx.what_b or "y_pred", b.type)
  end
  if a.column then return a.column, b.column, nil end
  local all = labels.distinct(a)
  for _, v in ipairs(labels.distinct(b)) do all[#all + 1] = v end
  local values = labels.sorted_distinct(all)
  return labels.codes(a, values), labels.codes(b, values), values
end

-- ------------------------------------------------------------ rebuild

--- take(y, idx) -> the labels of y at the rows idx (an n x 1 matrix of
-- 1-based indices), in the container y is.
function labels.take(y, idx)
  if luma.ismatrix(y) then
    if y:cols() == 1 or y:rows() ~= 1 then return y:take(idx) end
    return y:t():take(idx)
  end
  if is_categorical(y) or is_table(y) then return y:take(idx) end
  local out = {}
  for i = 1, idx:rows() do out[i] = y[math.tointeger(idx:get(i, 1))] end
  return out
end

--- build(kind, list, categories) -> a container of the kind given holding
-- the values of list (n of them): "list" a Lua list, "categorical" a
-- Categorical over categories (a value outside them is missing),
-- "matrix" an n x 1 matrix (numbers).
function labels.build(kind, list, n, categories)
  if kind == "matrix" then
    local out = luma.zeros(n, 1)
    for i = 1, n do out:set(i, 1, list[i]) end
    return out
  end
  if kind == "categorical" then
    local idx = labels.index_of(categories)
    local codes = luma.zeros(n, 1)
    for i = 1, n do codes:set(i, 1, idx[list[i]] or NAN) end
    return luma.Table.Categorical.from_codes(codes, categories)
  end
  local out = {}
  for i = 1, n do out[i] = list[i] end
  return out
end

--- values(y) -> a Lua list of the labels of any container (for plots and
-- messages): numbers, strings or booleans.
function labels.values(y, ctx, level)
  local lv = labels.read(y, ctx, (level or 1) + 1)
  if not lv.column then return list_of(lv) end
  local out = {}
  for i = 1, lv.n do out[i] = lv.column:get(i, 1) end
  return out
end

luma.doc.set_members(labels, "luma.util.labels", {
  accepts = { signature = "accepts(v)",
    doc = "Whether v is a container of labels: a luma.Matrix, a Lua list, a Categorical or a "
      .. "luma.Table. Returns a boolean." },
  before = { signature = "before(a, b)",
    doc = "The order of labels: numbers by value, strings byte-wise, false before true. "
      .. "Returns a boolean." },
  sorted_distinct = { signature = "sorted_distinct(list [, n = #list])",
    doc = "The distinct values of list, sorted by before(). Returns a list." },
  shown = { signature = "shown(v)",
    doc = "A label as messages show it (strings quoted). Returns a string." },
  read = { signature = "read(y [, ctx [, level]])",
    doc = "Reads labels given as a matrix column or row, a Lua list of numbers, strings or "
      .. "booleans, a Categorical or a one-column luma.Table; ctx = {fname, argn, what} names "
      .. "the argument in errors. Returns a label vector {n, type, kind, column | list}." },
  count = { signature = "count(y)",
    doc = "The number of labels of a container read() takes. Returns an integer, or nil." },
  value = { signature = "value(lv, i)", doc = "The i-th label of a label vector. Returns it." },
  distinct = { signature = "distinct(lv)",
    doc = "The sorted distinct labels of a label vector. Returns a k x 1 matrix for numbers, "
      .. "a list otherwise." },
  index_of = { signature = "index_of(classes)",
    doc = "The position of each label among classes (a matrix or a list). Returns a table "
      .. "label -> position." },
  codes = { signature = "codes(lv, classes [, unknown = nan])",
    doc = "Each label's position among classes, unknown where it is not one. Returns an "
      .. "n x 1 matrix." },
  encode = { signature = "encode(lv)",
    doc = "Codes a label vector 1..k in sorted order. Returns the codes (n x 1) and the "
      .. "classes (k x 1 matrix for numbers, a list otherwise)." },
  numeric = { signature = "numeric(y [, ctx [, level]])",
    doc = "Labels as numbers: numbers as they are, strings and booleans as their codes. "
      .. "Returns an n x 1 matrix." },
  encode_pair = { signature = "encode_pair(a, b [, ctx [, level]])",
    doc = "Codes two label vectors of one type against the sorted union of their labels. "
      .. "Returns codes_a, codes_b and the values (nil for numbers, left as they are)." },
  take = { signature = "take(y, idx)",
    doc = "The labels of y at the rows idx, in y's kind of container. Returns the container." },
  build = { signature = "build(kind, list, n [, categories])",
    doc = "A container of the kind \"list\", \"categorical\" or \"matrix\" holding the n "
      .. "values of list. Returns it." },
  values = { signature = "values(y [, ctx [, level]])",
    doc = "The labels of any container as a Lua list. Returns the list." },
})
luma.doc.set(labels, { name = "luma.util.labels",
  doc = "Class labels in every form (matrix, list of numbers, strings or booleans, "
    .. "categorical column, one-column Table), read, coded, compared and rebuilt one way." })

return labels
