--- luma.Table: an ordered set of named columns, each numeric (an n x 1
-- float64 matrix) or categorical (codes into a list of category strings,
-- with missing values).  See docs/TABLE.md.
--
-- Storage.  Numeric columns are views of a numeric block: a matrix whose
-- columns are the table's numeric columns.  Tables made by read_csv,
-- from_matrix, the constructor and row selections keep all their numeric
-- columns in one block, in table order, so to_matrix() of those columns
-- is the block itself (or a view of consecutive columns of it): no copy.
-- Tables joined from several sources may hold several blocks; to_matrix
-- then copies.  A categorical column is a Categorical: `codes`, an n x 1
-- matrix of 1-based codes with NaN for a missing value, and
-- `categories`, the list of category strings (sorted byte-wise when
-- learned from data, so the codes do not depend on row order).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local numfmt = require("luma.util.native").format -- "." whatever the locale

local Table = {}          -- the class: callable, its static functions and methods
local Categorical = {}    -- the categorical column class
local TABLE_MT = { __name = "luma.Table" }
local CAT_MT = { __name = "luma.Categorical", __index = Categorical }

local NAN = 0 / 0

local fail = args.fail

-- By the metatable's name, not its identity: a test runner that reloads
-- modules between files makes a second copy of this module, whose Tables
-- must still count (luma.save's handlers are shared through the luma
-- table, see luma.persist).
local function named(v, name)
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__name") == name
end
local function is_table(v) return named(v, "luma.Table") end
local function is_categorical(v) return named(v, "luma.Categorical") end

-- The self of a method of a Table (Categorical): anything else is an error
-- at the method's caller.
local function check_self(t, fname)
  if not is_table(t) then args.bad_self(fname:match("[%w_]+$"), "luma.Table", t, 3) end
end
local function check_cat(c, method)
  if not is_categorical(c) then args.bad_self(method, "luma.Categorical", c, 3) end
end

local function quote(name) return "'" .. tostring(name) .. "'" end

-- ------------------------------------------------------------ Categorical

local function new_categorical(codes, categories)
  return setmetatable({ codes = codes, categories = categories }, CAT_MT)
end

-- Sorted distinct strings of a list (false entries are missing).
local function sorted_distinct(values, n)
  local seen, list = {}, {}
  for i = 1, n do
    local v = values[i]
    if v and not seen[v] then
      seen[v] = true
      list[#list + 1] = v
    end
  end
  table.sort(list)
  return list
end

local function index_of(categories)
  local index = {}
  for k, s in ipairs(categories) do index[s] = k end
  return index
end

-- A Categorical from a Lua list of strings (false: missing).
local function categorical_from_list(fname, values, n, categories, column)
  for i = 1, n do
    local v = values[i]
    if v ~= false and type(v) ~= "string" then
      fail(4, "%s: %srow %d holds a %s; a categorical column holds strings (false for missing)",
        fname, column and ("column " .. quote(column) .. " ") or "", i, type(v))
    end
  end
  if categories == nil then
    categories = sorted_distinct(values, n)
  else
    local seen = {}
    for k, s in ipairs(categories) do
      if type(s) ~= "string" then fail(4, "%s: category %d is not a string", fname, k) end
      if seen[s] then fail(4, "%s: category '%s' is listed twice", fname, s) end
      seen[s] = true
    end
  end
  local index, codes = index_of(categories), luma.zeros(n, 1)
  for i = 1, n do
    local v = values[i]
    local code = v and index[v]
    if v and not code then
      fail(4, "%s: row %d holds '%s', which is not among the categories", fname, i, v)
    end
    codes:set(i, 1, code or NAN)
  end
  return new_categorical(codes, categories)
end

--- Categorical(values [, {categories = sorted distinct values}]) -> Categorical
local function Categorical_new(values, opts)
  local fname = "luma.Table.Categorical"
  if type(values) ~= "table" or getmetatable(values) ~= nil then
    fail(3, "%s: values must be a list of strings (false for missing)", fname)
  end
  opts = args.options(fname, 2, opts, nil, { categories = true }, 3)
  local n = #values
  local c = categorical_from_list(fname, values, n, opts.categories) -- (its errors count this level)
  return c
end

--- Categorical.from_codes(codes, categories) -> Categorical
function Categorical.from_codes(codes, categories)
  local fname = "luma.Table.Categorical.from_codes"
  if not luma.ismatrix(codes) or codes:cols() ~= 1 then
    fail(2, "%s: codes must be an n x 1 matrix", fname)
  end
  if type(categories) ~= "table" then fail(2, "%s: categories must be a list of strings", fname) end
  local seen, k = {}, #categories
  for j, s in ipairs(categories) do
    if type(s) ~= "string" then fail(2, "%s: category %d is not a string", fname, j) end
    if seen[s] then fail(2, "%s: category '%s' is listed twice", fname, s) end
    seen[s] = true
  end
  -- checked by native operations (a NaN compares false: counted apart);
  -- rows are searched one by one only to name a bad one
  local valid = codes:eq(codes:floor()):mul(codes:ge(1)):mul(codes:le(k)) + codes:isnan()
  if codes:rows() > 0 and valid:min() == 0 then
    for i = 1, codes:rows() do
      local c = codes:get(i, 1)
      if c == c and (c ~= math.floor(c) or c < 1 or c > k) then
        fail(2, "%s: code %s in row %d is not in 1..%d (NaN: missing)", fname, tostring(c), i, k)
      end
    end
  end
  return new_categorical(codes, table.move(categories, 1, k, 1, {}))
end

--- c:get(i) -> string | nil (missing)
function Categorical:get(i)
  check_cat(self, "get")
  local n = self.codes:rows()
  if math.type(i) ~= "integer" or i < 1 or i > n then
    fail(2, "bad argument #1 to 'get' (row index in 1..%d expected, got %s)", n,
      math.type(i) and tostring(i) or args.type_of(i))
  end
  local code = self.codes:get(i, 1)
  if code ~= code then return nil end
  return self.categories[math.tointeger(code)]
end

--- c:totable() -> list of strings, missing entries nil
function Categorical:totable()
  check_cat(self, "totable")
  local out, cats, codes = {}, self.categories, self.codes
  for i = 1, codes:rows() do
    local code = codes:get(i, 1)
    if code == code then out[i] = cats[math.tointeger(code)] end
  end
  return out
end

--- c:take(indices) -> Categorical
function Categorical:take(indices)
  check_cat(self, "take")
  args.arg(luma.ismatrix(indices) or type(indices) == "table", 1, "take",
    "index vector (luma.Matrix or list)", indices, 2)
  -- (a method call, so take's errors name 'take' and argument #1)
  local codes = args.relay(2, function() return self.codes:take(indices) end)
  return new_categorical(codes, self.categories)
end

--- c:recode(categories) -> Categorical, unknown rows
function Categorical:recode(categories)
  check_cat(self, "recode")
  if type(categories) ~= "table" then
    fail(2, "bad argument #1 to 'recode' (list of category strings expected, got %s)",
      args.type_of(categories))
  end
  for k, s in pairs(categories) do
    if math.type(k) ~= "integer" or type(s) ~= "string" then
      fail(2, "bad argument #1 to 'recode' (list of category strings expected, entry %s is "
        .. "a %s)", tostring(k), args.type_of(s))
    end
  end
  local index, map = index_of(categories), {}
  for k, s in ipairs(self.categories) do map[k] = index[s] or NAN end
  local n = self.codes:rows()
  local codes, unknown = luma.zeros(n, 1), {}
  for i = 1, n do
    local code = self.codes:get(i, 1)
    if code == code then
      local new = map[math.tointeger(code)]
      if new ~= new then unknown[#unknown + 1] = i end
      codes:set(i, 1, new)
    else
      codes:set(i, 1, NAN)
    end
  end
  return new_categorical(codes, categories), unknown
end

--- c:counts() -> n_categories x 1 matrix of occurrences
function Categorical:counts()
  check_cat(self, "counts")
  local counts = luma.zeros(#self.categories, 1)
  local codes = self.codes
  for i = 1, codes:rows() do
    local code = codes:get(i, 1)
    if code == code then counts:set(code, 1, counts:get(code, 1) + 1) end
  end
  return counts
end

CAT_MT.__len = function(c)
  check_cat(c, "__len")
  return c.codes:rows()
end
CAT_MT.__tostring = function(c)
  check_cat(c, "__tostring")
  local shown, n = {}, c.codes:rows()
  for i = 1, math.min(n, 10) do shown[i] = c:get(i) or "<NA>" end
  return string.format("Categorical %d rows, %d categories: %s%s", n, #c.categories,
    table.concat(shown, ", "), n > 10 and ", ..." or "")
end

-- ----------------------------------------------------------------- tables

-- A column record: {kind = "numeric", values = n x 1 matrix, block = B,
-- j = column of B} or {kind = "category", values = Categorical}.
local function make(names, cols, n)
  return setmetatable({ _names = names, _cols = cols, _n = n }, TABLE_MT)
end

local function numeric_record(block, j)
  return { kind = "numeric", values = block:col(j), block = block, j = j }
end

-- Makes one block from the numeric matrices of `sources` (name -> n x 1
-- matrix, in the order of `order`) and returns name -> record.
local function block_records(order, sources, n)
  local out = {}
  if #order == 0 then return out end
  local block = luma.zeros(n, #order)
  for j, name in ipairs(order) do
    if n > 0 then block:col(j):assign(sources[name]) end
    out[name] = numeric_record(block, j)
  end
  return out
end

local function check_name(fname, name, level)
  if type(name) ~= "string" or name == "" then
    fail(level + 1, "%s: a column name must be a non-empty string, got %s", fname,
      type(name) == "string" and "''" or tostring(name))
  end
end

-- The text of a number as a category label: %.17g trimmed to the
-- shortest form that reads back as the same number ("3", "0.1").
local function format_number(x)
  for digits = 1, 17 do
    local s = numfmt("%." .. digits .. "g", x)
    if tonumber(s) == x then return s end
  end
  return numfmt("%.17g", x)
end

-- Normalizes one column value given to the constructor: a numeric n x 1
-- matrix, or a Categorical.  `dtype` is nil, "numeric" or "category".
local function column_value(fname, name, v, dtype, level)
  if luma.ismatrix(v) then
    if v:cols() ~= 1 then
      fail(level + 1, "%s: column %s must be an n x 1 matrix, got %d x %d", fname, quote(name),
        v:rows(), v:cols())
    end
    if dtype == "category" then
      fail(level + 1, "%s: column %s is a matrix; make a category column from strings", fname,
        quote(name))
    end
    return v
  end
  if is_categorical(v) then
    if dtype == "numeric" then
      fail(level + 1, "%s: column %s is categorical, not numeric", fname, quote(name))
    end
    return v
  end
  if type(v) ~= "table" or getmetatable(v) ~= nil then
    fail(level + 1, "%s: column %s must be a list, an n x 1 matrix or a Categorical, got %s",
      fname, quote(name), type(v))
  end
  local n, numbers, strings = #v, 0, 0
  for i = 1, n do
    local x = v[i]
    if type(x) == "number" then numbers = numbers + 1
    elseif type(x) == "string" or x == false then strings = strings + 1
    else
      fail(level + 1, "%s: column %s row %d holds a %s", fname, quote(name), i, type(x))
    end
  end
  if dtype == "category" then
    local strs = {}
    for i = 1, n do
      local x = v[i]
      strs[i] = type(x) == "number" and (x ~= x and false or format_number(x)) or x
    end
    return categorical_from_list(fname, strs, n, nil, name)
  end
  if strings > 0 and (numbers > 0 or dtype == "numeric") then
    for i = 1, n do
      if type(v[i]) ~= "number" then
        fail(level + 1, "%s: column %s row %d holds %s, not a number (declare the column "
          .. "with dtypes = {%s = \"category\"} to keep it as text)", fname, quote(name), i,
          v[i] and ("'" .. v[i] .. "'") or "false", name)
      end
    end
  end
  if strings > 0 then return categorical_from_list(fname, v, n, nil, name) end
  return luma.matrix(v)
end


-- Builds a table from name -> value (matrices and Categoricals) in `order`:
-- the numeric columns are copied into one new block.
local function assemble(fname, order, values, level)
  local n, numeric = nil, {}
  for _, name in ipairs(order) do
    local v = values[name]
    local rows = luma.ismatrix(v) and v:rows() or #v
    if n == nil then n = rows
    elseif rows ~= n then
      fail(level + 1, "%s: column %s has %d rows but column %s has %d", fname, quote(name), rows,
        quote(order[1]), n)
    end
    if luma.ismatrix(v) then numeric[#numeric + 1] = name end
  end
  local cols = block_records(numeric, values, n or 0)
  for _, name in ipairs(order) do
    if not cols[name] then cols[name] = { kind = "category", values = values[name] } end
  end
  local names = table.move(order, 1, #order, 1, {})
  return make(names, cols, n or 0)
end

local function check_options(fname, opts, valid, level)
  if opts == nil then return {} end
  if type(opts) ~= "table" then fail(level + 1, "%s: options must be a table", fname) end
  for k in pairs(opts) do
    if not valid:find("%f[%w_]" .. tostring(k) .. "%f[^%w_]") then
      fail(level + 1, "%s: unknown option '%s' (valid: %s)", fname, tostring(k), valid)
    end
  end
  return opts
end

-- Checks that every name of `list` is a column (of the table t, or of the
-- set `known`) and appears once.
local function check_names(fname, list, known, what, level)
  if type(list) ~= "table" then fail(level + 1, "%s: %s must be a list of column names", fname, what) end
  local seen = {}
  for _, name in ipairs(list) do
    if not known[name] then
      fail(level + 1, "%s: unknown column %s in %s", fname, quote(name), what)
    end
    if seen[name] then fail(level + 1, "%s: column %s appears twice in %s", fname, quote(name), what) end
    seen[name] = true
  end
end

local function new_table(columns, opts)
  local fname = "luma.Table"
  if type(columns) ~= "table" or getmetatable(columns) ~= nil then
    fail(3, "%s: expected a table of columns {name = values, ...}", fname)
  end
  opts = check_options(fname, opts, "columns dtypes", 3)
  local order = opts.columns
  if order == nil then
    order = {}
    for name in pairs(columns) do
      check_name(fname, name, 3)
      order[#order + 1] = name
    end
    table.sort(order)
  else
    check_names(fname, order, columns, "option 'columns'", 3)
    for name in pairs(columns) do
      local listed = false
      for _, o in ipairs(order) do listed = listed or o == name end
      if not listed then fail(3, "%s: column %s is missing from option 'columns'", fname, quote(name)) end
    end
  end
  local dtypes = opts.dtypes or {}
  for name, d in pairs(dtypes) do
    if columns[name] == nil then fail(3, "%s: unknown column %s in option 'dtypes'", fname, quote(name)) end
    if d ~= "numeric" and d ~= "category" then
      fail(3, "%s: dtype of %s must be \"numeric\" or \"category\", got %s", fname, quote(name), tostring(d))
    end
  end
  local values = {}
  for _, name in ipairs(order) do
    values[name] = column_value(fname, name, columns[name], dtypes[name], 3)
  end
  return assemble(fname, order, values, 3)
end

--- Table.from_matrix(M [, names = {"x1", ..., "xk"}]) -> Table sharing M's storage
function Table.from_matrix(M, names)
  local fname = "luma.Table.from_matrix"
  if not luma.ismatrix(M) then fail(2, "%s: M must be a matrix, got %s", fname, type(M)) end
  local k = M:cols()
  if names == nil then
    names = {}
    for j = 1, k do names[j] = "x" .. j end
  end
  if type(names) ~= "table" or #names ~= k then
    fail(2, "%s: names must list %d column names", fname, k)
  end
  local cols, seen = {}, {}
  for j, name in ipairs(names) do
    check_name(fname, name, 2)
    if seen[name] then fail(2, "%s: duplicate column name %s", fname, quote(name)) end
    seen[name] = true
    cols[name] = numeric_record(M, j)
  end
  return make(table.move(names, 1, k, 1, {}), cols, M:rows())
end

--- Table.is_table(v) -> boolean
function Table.is_table(v) return is_table(v) end

function Table:nrows()
  check_self(self, "nrows")
  return self._n
end
function Table:ncols()
  check_self(self, "ncols")
  return #self._names
end
function Table:names()
  check_self(self, "names")
  return table.move(self._names, 1, #self._names, 1, {})
end

function Table:dtypes()
  check_self(self, "dtypes")
  local out = {}
  for _, name in ipairs(self._names) do out[name] = self._cols[name].kind end
  return out
end

function Table:has_column(name)
  check_self(self, "has_column")
  return self._cols[name] ~= nil
end

local function record_of(t, fname, name, level)
  local rec = t._cols[name]
  if rec == nil then
    fail(level + 1, "%s: unknown column %s (columns: %s)", fname, quote(name),
      table.concat(t._names, ", "))
  end
  return rec
end

function Table:column(name)
  check_self(self, "luma.Table.column")
  return record_of(self, "luma.Table.column", name, 2).values
end

-- Derives a table with the same row count from a list of names and
-- their records (shared, not copied).
local function derive(t, names, cols)
  return make(names, cols, t._n)
end

function Table:select(names)
  local fname = "luma.Table.select"
  check_self(self, fname)
  if type(names) == "string" then names = { names } end
  check_names(fname, names, self._cols, "the selection", 2)
  local cols = {}
  for _, name in ipairs(names) do cols[name] = self._cols[name] end
  return derive(self, table.move(names, 1, #names, 1, {}), cols)
end

function Table:drop(names)
  local fname = "luma.Table.drop"
  check_self(self, fname)
  if type(names) == "string" then names = { names } end
  check_names(fname, names, self._cols, "the names to drop", 2)
  local dropped, keep, cols = {}, {}, {}
  for _, name in ipairs(names) do dropped[name] = true end
  for _, name in ipairs(self._names) do
    if not dropped[name] then
      keep[#keep + 1] = name
      cols[name] = self._cols[name]
    end
  end
  return derive(self, keep, cols)
end

function Table:rename(mapping)
  local fname = "luma.Table.rename"
  check_self(self, fname)
  if type(mapping) ~= "table" then fail(2, "%s: expected {old = new, ...}", fname) end
  local names, cols = {}, {}
  for old, new in pairs(mapping) do
    record_of(self, fname, old, 2)
    check_name(fname, new, 2)
  end
  for j, name in ipairs(self._names) do
    local new = mapping[name] or name
    if cols[new] then fail(2, "%s: two columns would be named %s", fname, quote(new)) end
    names[j], cols[new] = new, self._cols[name]
  end
  return derive(self, names, cols)
end

-- One column value for add_column / t[name] = v, with t's row count.
local function added_record(t, fname, name, values, level)
  check_name(fname, name, level + 1)
  local v = column_value(fname, name, values, nil, level + 1)
  local rows = luma.ismatrix(v) and v:rows() or #v
  if rows ~= t._n then
    fail(level + 1, "%s: column %s has %d rows, the table %d", fname, quote(name), rows, t._n)
  end
  if luma.ismatrix(v) then return { kind = "numeric", values = v } end
  return { kind = "category", values = v }
end

function Table:add_column(name, values)
  local fname = "luma.Table.add_column"
  check_self(self, fname)
  if self._cols[name] then
    fail(2, "%s: the table already has a column %s (drop it first, or assign t[%q] = values)",
      fname, quote(name), tostring(name))
  end
  local rec = added_record(self, fname, name, values, 2)
  local names = self:names()
  names[#names + 1] = name
  local cols = {}
  for k, v in pairs(self._cols) do cols[k] = v end
  cols[name] = rec
  return derive(self, names, cols)
end

--- Table.hcat{t1, t2, ...} -> Table: the columns of all, side by side
function Table.hcat(tables)
  local fname = "luma.Table.hcat"
  if type(tables) ~= "table" or is_table(tables) or #tables == 0 then
    fail(2, "%s: expected a non-empty list of Tables", fname)
  end
  local names, cols, n = {}, {}, nil
  for i, t in ipairs(tables) do
    if not is_table(t) then fail(2, "%s: element %d is not a Table", fname, i) end
    if n == nil then n = t._n
    elseif t._n ~= n then fail(2, "%s: table %d has %d rows, table 1 has %d", fname, i, t._n, n) end
    for _, name in ipairs(t._names) do
      if cols[name] then fail(2, "%s: duplicate column name %s (rename one first)", fname, quote(name)) end
      names[#names + 1] = name
      cols[name] = t._cols[name]
    end
  end
  return make(names, cols, n)
end

-- ------------------------------------------------------------ to_matrix

-- The matrix of the numeric columns `names` (all numeric): the block
-- itself or a view of it when they are consecutive columns of one block
-- in order, else a copy.
local function numeric_matrix(t, names)
  local k = #names
  if k == 0 then return luma.zeros(t._n, 0) end
  local first = t._cols[names[1]]
  local block, j0 = first.block, first.j
  for i, name in ipairs(names) do
    local rec = t._cols[name]
    if block == nil or rec.block ~= block or rec.j ~= j0 + i - 1 then block = nil break end
  end
  if block then
    if j0 == 1 and k == block:cols() then return block end
    if t._n > 0 then return block:sub(1, t._n, j0, j0 + k - 1) end
  end
  local parts = {}
  for i, name in ipairs(names) do parts[i] = t._cols[name].values end
  return luma.hstack(parts)
end

function Table:to_matrix(names)
  local fname = "luma.Table.to_matrix"
  check_self(self, fname)
  if names == nil then names = self._names
  elseif type(names) == "string" then names = { names } end
  check_names(fname, names, self._cols, "the columns", 2)
  for _, name in ipairs(names) do
    if self._cols[name].kind ~= "numeric" then
      fail(2, "%s: column %s is categorical; encode it first (e.g. with "
        .. "luma.preprocessing.OneHotEncoder or OrdinalEncoder) or leave it out of the "
        .. "columns", fname, quote(name))
    end
  end
  return numeric_matrix(self, names)
end

-- ------------------------------------------------------------------ rows

-- A new table whose numeric columns are op(matrix of all numeric
-- columns), one new block, and whose categorical columns are
-- Categoricals with codes op(codes).
local function map_rows(t, n, op)
  local numeric = {}
  for _, name in ipairs(t._names) do
    if t._cols[name].kind == "numeric" then numeric[#numeric + 1] = name end
  end
  local cols = {}
  if #numeric > 0 then
    local block = op(numeric_matrix(t, numeric))
    for j, name in ipairs(numeric) do cols[name] = numeric_record(block, j) end
  end
  for _, name in ipairs(t._names) do
    if not cols[name] then
      cols[name] = { kind = "category", values = new_categorical(op(t._cols[name].values.codes),
        t._cols[name].values.categories) }
    end
  end
  return make(table.move(t._names, 1, #t._names, 1, {}), cols, n)
end

local function check_indices(fname, t, indices, level)
  local list = luma.ismatrix(indices) and indices or nil
  if list == nil then
    if type(indices) ~= "table" then
      fail(level + 1, "%s: expected a list or a matrix of 1-based row indices", fname)
    end
    list = luma.matrix(#indices == 0 and {} or indices)
  end
  if list:rows() > 0 and list:cols() ~= 1 then list = list:flatten() end
  for i = 1, list:rows() do
    local r = list:get(i, 1)
    if r ~= math.floor(r) or r < 1 or r > t._n then
      fail(level + 1, "%s: row index %s out of range [1, %d]", fname, tostring(r), t._n)
    end
  end
  return list
end

function Table:take(indices)
  local fname = "luma.Table.take"
  check_self(self, fname)
  local list = check_indices(fname, self, indices, 2)
  if list:rows() == 0 then
    return map_rows(self, 0, function(X) return luma.zeros(0, X:cols()) end)
  end
  return map_rows(self, list:rows(), function(X) return X:take(list) end)
end

function Table:filter(mask)
  local fname = "luma.Table.filter"
  check_self(self, fname)
  local n, rows = self._n, {}
  if luma.ismatrix(mask) then
    if mask:rows() * mask:cols() ~= n or (mask:cols() ~= 1 and mask:rows() ~= 1) then
      fail(2, "%s: the mask must have one entry per row (%d), got %d x %d", fname, n,
        mask:rows(), mask:cols())
    end
    local flat = mask:cols() == 1 and mask or mask:t()
    for i = 1, n do
      if flat:get(i, 1) ~= 0 then rows[#rows + 1] = i end
    end
  elseif type(mask) == "table" then
    if #mask ~= n then fail(2, "%s: the mask must have one entry per row (%d), got %d", fname, n, #mask) end
    for i = 1, n do
      if type(mask[i]) ~= "boolean" then
        fail(2, "%s: mask entry %d is a %s, not a boolean", fname, i, type(mask[i]))
      end
      if mask[i] then rows[#rows + 1] = i end
    end
  else
    fail(2, "%s: the mask must be a 0/1 matrix or a list of booleans", fname)
  end
  return self:take(rows)
end

function Table:slice(first, last)
  local fname = "luma.Table.slice"
  check_self(self, fname)
  local n = self._n
  if math.type(first) ~= "integer" or (last ~= nil and math.type(last) ~= "integer") then
    fail(2, "%s: first and last must be integers", fname)
  end
  last = last or n
  if first < 1 or last > n or first > last + 1 then
    fail(2, "%s: rows %d..%d are not within 1..%d", fname, first, last, n)
  end
  if first > last then return self:take({}) end
  return map_rows(self, last - first + 1, function(X) return X:slice({ first, last }, nil) end)
end

function Table:head(k)
  check_self(self, "luma.Table.head")
  k = k or 5
  return self:slice(1, math.min(k, self._n))
end

function Table:tail(k)
  check_self(self, "luma.Table.tail")
  k = k or 5
  return self:slice(math.max(self._n - k + 1, 1), self._n)
end

-- -------------------------------------------------------------- describe

-- The q-quantile of the sorted values s[1..m] by linear interpolation
-- between order statistics (Hyndman and Fan 1996, definition 7; pandas'
-- and NumPy's default).
local function quantile(s, m, q)
  local h = (m - 1) * q + 1
  local lo = math.floor(h)
  local a = s:get(lo, 1)
  if lo >= m then return a end
  return a + (h - lo) * (s:get(lo + 1, 1) - a)
end

local STATS = { "count", "mean", "std", "min", "25%", "50%", "75%", "max", "categories" }

function Table:describe()
  check_self(self, "luma.Table.describe")
  local columns = { statistic = Categorical_new(STATS, { categories = STATS }) }
  for _, name in ipairs(self._names) do
    local rec, out = self._cols[name], {}
    for i = 1, #STATS do out[i] = NAN end
    if rec.kind == "numeric" then
      local x = rec.values
      local s = x:sort()
      local m = x:rows() - x:isnan():sum()
      out[1] = m
      if m > 0 then
        local v = s:sub(1, m, 1, 1)
        out[2] = v:mean()
        out[3] = m > 1 and v:std(nil, 1) or NAN
        out[4], out[8] = s:get(1, 1), s:get(m, 1)
        out[5], out[6], out[7] = quantile(s, m, 0.25), quantile(s, m, 0.5), quantile(s, m, 0.75)
      end
    else
      local codes = rec.values.codes
      out[1] = codes:rows() - codes:isnan():sum()
      out[9] = #rec.values.categories
    end
    columns[name] = out
  end
  local order = { "statistic" }
  for _, name in ipairs(self._names) do
    if name == "statistic" then fail(2, "luma.Table.describe: a column is named 'statistic'") end
    order[#order + 1] = name
  end
  return new_table(columns, { columns = order })
end

-- -------------------------------------------------------------- printing

local MAX_ROWS, EDGE_ROWS = 20, 8

local function cell_text(rec, i)
  if rec.kind == "numeric" then
    local x = rec.values:get(i, 1)
    if x ~= x then return "nan" end
    if x == math.huge then return "inf" elseif x == -math.huge then return "-inf" end
    if x == math.floor(x) and math.abs(x) < 1e15 then return string.format("%d", x) end
    return numfmt("%.6g", x)
  end
  return rec.values:get(i) or "<NA>"
end

TABLE_MT.__tostring = function(t)
  check_self(t, "__tostring")
  local n, names = t._n, t._names
  local shown = {}
  if n <= MAX_ROWS then
    for i = 1, n do shown[#shown + 1] = i end
  else
    for i = 1, EDGE_ROWS do shown[#shown + 1] = i end
    shown[#shown + 1] = false
    for i = n - EDGE_ROWS + 1, n do shown[#shown + 1] = i end
  end
  local columns = { { "" } }
  for _, i in ipairs(shown) do columns[1][#columns[1] + 1] = i and tostring(i) or "..." end
  for j, name in ipairs(names) do
    local rec, col = t._cols[name], { name }
    for _, i in ipairs(shown) do col[#col + 1] = i and cell_text(rec, i) or "..." end
    columns[j + 1] = col
  end
  local widths = {}
  for j, col in ipairs(columns) do
    local w = 0
    for _, s in ipairs(col) do w = math.max(w, utf8.len(s) or #s) end
    widths[j] = w
  end
  local lines = {}
  for r = 1, #shown + 1 do
    local parts = {}
    for j, col in ipairs(columns) do
      local s = col[r]
      parts[j] = string.rep(" ", widths[j] - (utf8.len(s) or #s)) .. s
    end
    lines[r] = table.concat(parts, "  ")
  end
  lines[#lines + 1] = string.format("[%d rows x %d columns]", n, #names)
  return table.concat(lines, "\n")
end

TABLE_MT.__len = function(t)
  check_self(t, "__len")
  return t._n
end

-- t.name / t["name"]: methods first, then columns.
TABLE_MT.__index = function(t, k)
  local m = Table[k]
  if m ~= nil then return m end
  check_self(t, "__index")
  local rec = rawget(t, "_cols")[k]
  return rec and rec.values
end

-- t[name] = values adds or replaces a column in place.
TABLE_MT.__newindex = function(t, name, values)
  local fname = "luma.Table"
  if Table[name] ~= nil then
    fail(2, "%s: %s is a method name; use t:add_column(%q, values)", fname, quote(name), name)
  end
  if values == nil then
    fail(2, "%s: assigning nil does not drop a column; use t:drop(%q)", fname, tostring(name))
  end
  local rec = added_record(t, fname, name, values, 2)
  if t._cols[name] == nil then t._names[#t._names + 1] = name end
  t._cols[name] = rec
end

TABLE_MT.__call = nil
-- (not tail calls: the constructors' errors blame the caller two levels up)
setmetatable(Table, { __call = function(_, columns, opts)
  local t = new_table(columns, opts)
  return t
end })
setmetatable(Categorical, { __call = function(_, values, opts)
  local c = Categorical_new(values, opts)
  return c
end })
Table.Categorical = Categorical
Table.is_categorical = is_categorical

-- ------------------------------------------- parts (read_csv, write_csv, save)

-- Table._from_parts(names, kinds, block, categoricals): the table whose
-- numeric columns are the columns of block, in order, and whose
-- categorical columns are categoricals[1], [2], ... ({codes, categories}
-- pairs or Categoricals), in order.  luma.io.read_csv and luma.load build
-- tables through it; the block is used as is (not copied).
function Table._from_parts(names, kinds, block, categoricals, n)
  local fname = "luma.Table"
  local cols, nb, nc = {}, 0, 0
  for j, name in ipairs(names) do
    check_name(fname, name, 2)
    if cols[name] then fail(2, "%s: duplicate column name %s", fname, quote(name)) end
    if kinds[j] == "numeric" then
      nb = nb + 1
      cols[name] = numeric_record(block, nb)
    elseif kinds[j] == "category" then
      nc = nc + 1
      local c = categoricals[nc]
      if not is_categorical(c) then c = new_categorical(c.codes or c[1], c.categories or c[2]) end
      cols[name] = { kind = "category", values = c }
    else
      fail(2, "%s: unknown column kind %s", fname, tostring(kinds[j]))
    end
  end
  return make(table.move(names, 1, #names, 1, {}), cols, n)
end

-- t:_parts() -> names, kinds, block, categoricals: the inverse of
-- _from_parts (block: the numeric columns as one matrix, a view when
-- possible).
function Table._parts(t)
  local kinds, numeric, cats = {}, {}, {}
  for j, name in ipairs(t._names) do
    local rec = t._cols[name]
    kinds[j] = rec.kind
    if rec.kind == "numeric" then numeric[#numeric + 1] = name
    else cats[#cats + 1] = rec.values end
  end
  return t:names(), kinds, numeric_matrix(t, numeric), cats
end

-- What luma.load reads is checked before it becomes a Table or a
-- Categorical: a forged file must fail to load, not fail later inside a
-- method (tostring of a table whose n exceeds its columns' rows).  The
-- errors name the problem; luma.load adds the file and the type.
local function refuse(fmt, ...) error(string.format(fmt, ...), 0) end

-- The most rows a matrix has.
local LIMIT_ROWS = 2147483647

local function check_saved_categorical(c, n, what)
  if type(c) ~= "table" or getmetatable(c) ~= nil then
    refuse("%s is a %s, not {codes, categories}", what, args.type_of(c))
  end
  local codes, categories = c.codes, c.categories
  if not luma.ismatrix(codes) or codes:cols() ~= 1 or (n and codes:rows() ~= n) then
    refuse("%s: codes must be a%s x 1 matrix", what, n and (" " .. n) or "n")
  end
  if type(categories) ~= "table" or getmetatable(categories) ~= nil then
    refuse("%s: categories must be a list of strings", what)
  end
  local k, seen = #categories, {}
  for key in pairs(categories) do
    if math.type(key) ~= "integer" or key < 1 or key > k then
      refuse("%s: categories must be a list of strings", what)
    end
  end
  for j = 1, k do
    local s = categories[j]
    if type(s) ~= "string" then refuse("%s: category %d is a %s, not a string", what, j, type(s)) end
    if seen[s] then refuse("%s: category '%s' is listed twice", what, s) end
    seen[s] = true
  end
  for i = 1, codes:rows() do
    local code = codes:get(i, 1)
    if code == code and (code ~= math.floor(code) or code < 1 or code > k) then
      refuse("%s: code %.17g in row %d is not in 1..%d (NaN: missing)", what, code, i, k)
    end
  end
  return new_categorical(codes, categories)
end

local function check_saved_table(p)
  local names, kinds, n, block, cats = p.names, p.kinds, p.n, p.block, p.categoricals
  if math.type(n) ~= "integer" or n < 0 or n > LIMIT_ROWS then
    refuse("n is %s, not a row count in 0..%d", tostring(n), LIMIT_ROWS)
  end
  if type(names) ~= "table" or type(kinds) ~= "table" or getmetatable(names) ~= nil
    or getmetatable(kinds) ~= nil or #names ~= #kinds then
    refuse("names and kinds must be lists of the same length")
  end
  local seen, numeric, categorical = {}, 0, 0
  for j = 1, #names do
    local name = names[j]
    if type(name) ~= "string" or name == "" then refuse("column %d has no name", j) end
    if seen[name] then refuse("column name '%s' appears twice", name) end
    seen[name] = true
    if kinds[j] == "numeric" then numeric = numeric + 1
    elseif kinds[j] == "category" then categorical = categorical + 1
    else refuse("column '%s' has the unknown kind %s", name, tostring(kinds[j])) end
  end
  if block == nil and numeric == 0 then block = luma.zeros(n, 0) end
  if not luma.ismatrix(block) or block:rows() ~= n or block:cols() ~= numeric then
    refuse("the numeric columns must be one %d x %d matrix, got %s", n, numeric,
      luma.ismatrix(block) and (block:rows() .. " x " .. block:cols()) or args.type_of(block))
  end
  if type(cats) ~= "table" or getmetatable(cats) ~= nil or #cats ~= categorical then
    refuse("categoricals must list the %d categorical columns", categorical)
  end
  local checked, c = {}, 0
  for j = 1, #names do
    if kinds[j] == "category" then
      c = c + 1
      checked[c] = check_saved_categorical(cats[c], n, "column '" .. names[j] .. "'")
    end
  end
  return Table._from_parts(names, kinds, block, checked, n)
end

-- luma.save / luma.load: {names, kinds, block, categoricals = {{codes,
-- categories}, ...}, n} (docs/FORMAT.md).
local persist = require("luma.persist")
persist.register("luma.Table", {
  test = is_table,
  save = function(t)
    local names, kinds, block, cats = Table._parts(t)
    local plain = {}
    for i, c in ipairs(cats) do plain[i] = { codes = c.codes, categories = c.categories } end
    return { names = names, kinds = kinds, block = block, categoricals = plain, n = t._n }
  end,
  load = check_saved_table,
})
persist.register("luma.Categorical", {
  test = is_categorical,
  save = function(c) return { codes = c.codes, categories = c.categories } end,
  load = function(p) return check_saved_categorical(p, nil, "the categorical") end,
})

-- ---------------------------------------------------------- documentation

local doc = luma.doc.set
doc(Table, { name = "luma.Table",
  signature = "Table(columns [, {columns = sorted names, dtypes = {}}]) -> Table",
  doc = "A data table: an ordered set of named columns, each numeric (an n x 1 float64 "
    .. "matrix, NaN for missing) or categorical (a Categorical: codes into a list of category "
    .. "strings). columns maps names to a list of numbers, a list of strings (false for "
    .. "missing), an n x 1 matrix or a Categorical; numeric columns are copied into one "
    .. "block. t.name, t[\"name\"] and t:column(name) give a column (methods take precedence); "
    .. "t[name] = values adds or replaces one in place. Returns the Table. See docs/TABLE.md.",
  params = {
    { name = "columns", doc = "name -> values (lists, n x 1 matrices or Categoricals)" },
    { name = "columns (option)", default = "the names sorted", doc = "the column order, "
      .. "listing every name once" },
    { name = "dtypes", default = "{}", doc = "name -> \"numeric\" or \"category\" (numbers "
      .. "become category labels such as \"3\")" },
  } })
doc(Table.from_matrix, { name = "luma.Table.from_matrix",
  signature = "Table.from_matrix(M [, names = {\"x1\", ..., \"xk\"}]) -> Table",
  doc = "A table whose numeric columns are the columns of M, shared, not copied "
    .. "(t:to_matrix() returns M itself)." })
doc(Table.is_table, { name = "luma.Table.is_table", signature = "Table.is_table(v) -> boolean",
  doc = "True if v is a Table." })
doc(Table.is_categorical, { name = "luma.Table.is_categorical",
  signature = "Table.is_categorical(v) -> boolean", doc = "True if v is a Categorical column." })
doc(Table.hcat, { name = "luma.Table.hcat", signature = "Table.hcat{t1, t2, ...} -> Table",
  doc = "The columns of the tables side by side (equal row counts, distinct names), storage "
    .. "shared." })
doc(Table.nrows, { name = "luma.Table.nrows", signature = "t:nrows() -> integer",
  doc = "The number of rows (also #t)." })
doc(Table.ncols, { name = "luma.Table.ncols", signature = "t:ncols() -> integer",
  doc = "The number of columns." })
doc(Table.names, { name = "luma.Table.names", signature = "t:names() -> list of strings",
  doc = "The column names in order (a new list)." })
doc(Table.dtypes, { name = "luma.Table.dtypes", signature = "t:dtypes() -> table",
  doc = "Returns name -> \"numeric\" or \"category\" for every column." })
doc(Table.has_column, { name = "luma.Table.has_column",
  signature = "t:has_column(name) -> boolean", doc = "True if t has a column called name." })
doc(Table.column, { name = "luma.Table.column", signature = "t:column(name) -> matrix | Categorical",
  doc = "The column called name: a numeric column is an n x 1 matrix view (writes change the "
    .. "table), a categorical one a Categorical. An unknown name is an error listing the "
    .. "columns." })
doc(Table.select, { name = "luma.Table.select", signature = "t:select(names) -> Table",
  doc = "A table of the named columns in the given order (a name or a list), storage shared." })
doc(Table.drop, { name = "luma.Table.drop", signature = "t:drop(names) -> Table",
  doc = "A table without the named columns (a name or a list), storage shared." })
doc(Table.rename, { name = "luma.Table.rename", signature = "t:rename{old = new, ...} -> Table",
  doc = "A table with columns renamed, storage shared; unknown old names and clashes are "
    .. "errors." })
doc(Table.add_column, { name = "luma.Table.add_column",
  signature = "t:add_column(name, values) -> Table",
  doc = "A new table with one more column at the end (values as for the constructor); t is "
    .. "unchanged and storage is shared. An existing name is an error." })
doc(Table.to_matrix, { name = "luma.Table.to_matrix",
  signature = "t:to_matrix([names = all columns]) -> matrix",
  doc = "The numeric columns as an n x k matrix: the table's own storage (no copy) when they "
    .. "are consecutive columns of one block, as for tables from read_csv, from_matrix, the "
    .. "constructor and row selections; otherwise a copy. A categorical column is an error "
    .. "that suggests OneHotEncoder." })
doc(Table.take, { name = "luma.Table.take", signature = "t:take(indices) -> Table",
  doc = "The rows at 1-based indices (a list or a matrix; repeats allowed), copied." })
doc(Table.filter, { name = "luma.Table.filter", signature = "t:filter(mask) -> Table",
  doc = "The rows where mask (an n x 1 0/1 matrix such as t.x:gt(0), or a list of booleans) "
    .. "is true, copied." })
doc(Table.slice, { name = "luma.Table.slice", signature = "t:slice(first [, last = nrows]) -> Table",
  doc = "Rows first..last (inclusive) as views of t's storage, no copy." })
doc(Table.head, { name = "luma.Table.head", signature = "t:head([k = 5]) -> Table",
  doc = "The first k rows (views)." })
doc(Table.tail, { name = "luma.Table.tail", signature = "t:tail([k = 5]) -> Table",
  doc = "The last k rows (views)." })
doc(Table.describe, { name = "luma.Table.describe", signature = "t:describe() -> Table",
  doc = "Summary statistics, one column per column of t and a first column 'statistic': "
    .. "count (non-missing), mean, std (n - 1 divisor), min, 25%, 50%, 75%, max (quantiles by "
    .. "linear interpolation, Hyndman and Fan 1996 definition 7) for numeric columns; count "
    .. "and categories (the number of categories) for categorical ones; NaN elsewhere." })
doc(Categorical, { name = "luma.Table.Categorical",
  signature = "Table.Categorical(values [, {categories = sorted distinct values}]) -> Categorical",
  doc = "A categorical column: fields codes (n x 1 matrix of 1-based codes, NaN = missing) and "
    .. "categories (list of strings); #c is its length. values is a list of strings, false for "
    .. "missing. Returns the Categorical.",
  params = { { name = "values", doc = "list of strings (false: missing)" },
    { name = "categories", default = "the distinct values sorted byte-wise",
      doc = "the category list; a value outside it is an error" } } })
doc(Categorical.from_codes, { name = "luma.Table.Categorical.from_codes",
  signature = "Categorical.from_codes(codes, categories) -> Categorical",
  doc = "A categorical column from an n x 1 matrix of 1-based codes (NaN: missing) into the "
    .. "list categories, in that order (codes are checked, not copied)." })
doc(Categorical.get, { name = "luma.Table.Categorical.get", signature = "c:get(i) -> string | nil",
  doc = "The string in row i, nil if missing." })
doc(Categorical.totable, { name = "luma.Table.Categorical.totable",
  signature = "c:totable() -> list", doc = "Returns the strings as a Lua list, nil where missing." })
doc(Categorical.take, { name = "luma.Table.Categorical.take",
  signature = "c:take(indices) -> Categorical", doc = "The rows at 1-based indices, same categories." })
doc(Categorical.recode, { name = "luma.Table.Categorical.recode",
  signature = "c:recode(categories) -> Categorical, unknown",
  doc = "The same strings coded against another category list (for example one learned at "
    .. "fit); returns the new column and the list of rows whose string is not in categories "
    .. "(missing in the result)." })
doc(Categorical.counts, { name = "luma.Table.Categorical.counts",
  signature = "c:counts() -> matrix", doc = "Returns how often each category occurs, a k x 1 column." })

return Table
