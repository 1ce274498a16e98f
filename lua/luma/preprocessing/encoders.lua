--- luma.preprocessing.encoders: categorical encoders (OrdinalEncoder,
-- OneHotEncoder) and LabelEncoder for a label column.
--
-- OrdinalEncoder and OneHotEncoder take a numeric matrix, a luma.Table
-- (categorical columns give strings, numeric ones numbers) or a Lua list
-- of strings (one column) or of rows.  Categories are the sorted distinct
-- values of each column seen at fit (numbers by value, strings by bytes,
-- as scikit-learn sorts them), kept with the model and saved with it: new
-- data's values are mapped through them, whatever order or file they come
-- from, and an unseen value is an error unless handle_unknown says
-- otherwise; the categories parameter declares them instead.  Codes run
-- 1..k (Luma is 1-based; scikit-learn uses 0..k-1).
--
-- Missing values (a Table's missing category or NaN, a NaN in a matrix,
-- false in a Lua list) are handled as scikit-learn 1.2 does: OneHotEncoder
-- makes "missing" a category of its own when fit sees one (false in
-- categories, last; its column is named "name=<NA>"), and otherwise treats
-- a missing value at transform as an unknown one; OrdinalEncoder gives a
-- missing value encoded_missing_value (NaN) at fit and transform alike.
-- Inside, a missing value is false (a valid table key, unlike nil or NaN).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local labels = require("luma.util.labels")
local common = require("luma.preprocessing.common")
local fail, example = common.fail, common.example
local tables = estimator.tables
local column_values, from_columns = common.column_values, common.from_columns

local encoders = {}

-- A value as it reads in a message or a feature name: 4 rather than 4.0,
-- strings as they are, a missing value as a Table prints it.
local MISSING_LABEL = "<NA>"
local function shown(v)
  if type(v) == "string" then return v end
  if v == false then return MISSING_LABEL end
  return string.format("%.15g", v)
end

-- A value in an error message: strings quoted.
-- Z of inverse_transform is a matrix (the contract checks a matrix's
-- width, and lets other values through to classes that take them).
local function check_encoded(Z)
  if not luma.ismatrix(Z) then
    fail(3, "bad argument #1 to 'inverse_transform' (luma.Matrix expected, got %s)", type(Z))
  end
end

local function quoted(v)
  if v == false then return "a missing value" end
  return type(v) == "string" and string.format("%q", v) or shown(v)
end

-- Byte order of strings (the order of NumPy's sorted unicode arrays for
-- UTF-8 text), independent of the host's locale, which Lua's < follows;
-- a missing value (false) last, as scikit-learn places NaN.
local function before(a, b)
  if a == false or b == false then return b == false and a ~= false end
  if type(a) ~= type(b) then return type(a) == "number" end
  if type(a) == "number" then return a < b end
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = a:byte(i), b:byte(i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- --------------------------------------------------------------- input

-- The columns of an encoder's input, each {name = label for messages,
-- n = rows, value = function(i) -> number, string or false (missing),
-- strings = bool}.  X is a matrix, a luma.Table, a list of values (one
-- column) or a list of rows.  Infinite values are errors naming the
-- column and the row; missing ones (NaN, a missing category, false) are
-- false.
local function input_columns(self, X, method)
  local who = self.__class.short_name
  local cols = {}
  local function bad(fmt, ...)
    fail(5, "bad argument #1 to '%s' (" .. fmt .. ")", method, ...)
  end
  if luma.ismatrix(X) then
    local infinite = args.nonfinite(luma.matrix.where(X:isnan(), 0, X))
    if infinite then bad("%s: %s", who, infinite) end
    for j = 1, X:cols() do
      local c = X:col(j)
      cols[j] = { name = "column " .. j, n = X:rows(), strings = false,
        value = function(i)
          local v = c:get(i, 1)
          return v == v and v
        end }
    end
    return cols
  end
  if tables.is_table(X) then
    for j, name in ipairs(X:names()) do
      local values, strings = column_values(X, name)
      local label = string.format("column '%s'", name)
      for i = 1, X:nrows() do
        local v = values[i]
        if v == math.huge or v == -math.huge then
          bad("%s has an infinite value in row %d; %s needs categories or finite numbers",
            label, i, who)
        end
        if v == nil or v ~= v then values[i] = false end
      end
      cols[j] = { name = label, n = X:nrows(), strings = strings,
        value = function(i) return values[i] end }
    end
    return cols
  end
  if type(X) ~= "table" or getmetatable(X) ~= nil or #X == 0 then
    bad("X must be a luma.Matrix, a luma.Table or a non-empty list of values or rows, got %s",
      type(X) == "table" and (#X == 0 and "an empty table" or "a table") or type(X))
  end
  local rows = type(X[1]) == "table"
  local d = rows and #X[1] or 1
  if d == 0 then bad("row 1 of the list is empty; %s needs at least one column", who) end
  for j = 1, d do
    local strings = nil
    for i = 1, #X do
      local row = X[i]
      if rows ~= (type(row) == "table") or (rows and #row ~= d) then
        bad("row %d of the list is not like row 1 (%s)", i,
          rows and string.format("a list of %d values", d) or "a value")
      end
      local v
      if rows then v = row[j] else v = row end
      local t = type(v)
      if v ~= false and t ~= "string"
        and not (t == "number" and v == v and v ~= math.huge and v ~= -math.huge) then
        bad("column %d, row %d: %s is not a string, a finite number or false (missing)", j, i,
          quoted(tostring(v)))
      end
      if v ~= false then
        if strings == nil then strings = t == "string" end
        if strings ~= (t == "string") then
          bad("column %d mixes strings and numbers (row %d)", j, i)
        end
      end
    end
    cols[j] = { name = "column " .. j, n = #X, strings = strings ~= false,
      value = rows and function(i) return X[i][j] end or function(i) return X[i] end }
  end
  return cols
end

-- The categories parameter's list for column j, checked against the
-- column's kind (nil when the categories are learned: "auto"); with
-- missing_category (OneHotEncoder), false declares the missing value a
-- category.
local function given_categories(self, col, j, missing_category)
  local given = self.params.categories
  if given == nil then return nil end
  local list = given[j]
  if #given ~= self.n_features_in or type(list) ~= "table" or #list == 0 then
    fail(5, "%s: categories must be a list of %d non-empty lists (one per column)",
      self.__class.name, self.n_features_in)
  end
  local want, seen = col.strings and "string" or "number", {}
  for k, v in ipairs(list) do
    if not (type(v) == want or (missing_category and v == false)) or seen[v] then
      fail(5, "%s: categories[%d][%d] must be a distinct %s%s, as %s holds", self.__class.name,
        j, k, want, missing_category and " (or false, the missing value)" or "", col.name)
    end
    seen[v] = true
  end
  return list
end

-- Learns each column's categories (the sorted distinct values, or the
-- categories parameter's lists in their order) and their counts; a value
-- outside a given list is an error at fit, as in scikit-learn.  A missing
-- value (false) is a category, placed last, only with missing_category
-- (OneHotEncoder); else it is left out.
local function learn_categories(self, cols, missing_category)
  local cats, counts, index, kinds = {}, {}, {}, {}
  self.n_features_in = #cols
  for j, col in ipairs(cols) do
    local count = {}
    for i = 1, col.n do
      local v = col.value(i)
      if v ~= false or missing_category then count[v] = (count[v] or 0) + 1 end
    end
    local list = given_categories(self, col, j, missing_category)
    if list then
      local listed = {}
      for _, v in ipairs(list) do listed[v] = true end
      for i = 1, col.n do
        local v = col.value(i)
        if not listed[v] and (v ~= false or missing_category) then
          fail(4, "%s: %s in %s (row %d) is not among the given categories%s",
            self.__class.name, v == false and "a missing value" or "value " .. quoted(v),
            col.name, i, v == false and " (declare false, the missing value, among them)" or "")
        end
      end
      list = { table.unpack(list) }
    else
      list = {}
      for v in pairs(count) do list[#list + 1] = v end
      table.sort(list, before)
    end
    cats[j], counts[j], index[j] = list, {}, {}
    for k, v in ipairs(list) do
      counts[j][k] = count[v] or 0
      index[j][v] = k
    end
    kinds[j] = col.strings and "string" or "number"
  end
  self.categories, self._index, self._kinds = cats, index, kinds
  return counts
end

-- The code of row i of each column (false for an unseen value, MISSING
-- for a missing value that is not a category), checking that the columns
-- are the kinds fit saw.
local MISSING = -1
local function codes_of(self, cols, method)
  if #cols ~= #self.categories then
    fail(4, "bad argument #1 to '%s' (X has %d columns but %s was fitted on %d)", method,
      #cols, self.__class.name, #self.categories)
  end
  local out = {}
  for j, col in ipairs(cols) do
    local kind = col.strings and "string" or "number"
    if kind ~= self._kinds[j] then
      fail(4, "bad argument #1 to '%s' (%s holds %ss but %s was fitted on %ss)", method,
        col.name, kind, self.__class.short_name, self._kinds[j])
    end
    local index, codes = self._index[j], {}
    for i = 1, col.n do
      local v = col.value(i)
      codes[i] = index[v] or (v == false and MISSING or false)
    end
    out[j] = codes
  end
  return out
end

-- The error of an unseen value (handle_unknown = "error"); a missing
-- value fit never saw is one too.
local function unknown(self, cols, j, i)
  local v = cols[j].value(i)
  if v == false then
    fail(4, "%s: a missing value in %s (row %d), which fit never saw; use handle_unknown = "
      .. "\"ignore\" to encode it as zeros, or impute it first (luma.preprocessing."
      .. "SimpleImputer)", self.__class.name, cols[j].name, i)
  end
  fail(4, "%s: unknown value %s in %s (row %d); use handle_unknown to encode unseen values",
    self.__class.name, quoted(v), cols[j].name, i)
end

-- The names of the input columns as get_feature_names_out sees them.
local function names_in(self, input_features)
  return estimator.input_names(self, input_features)
end

-- The decoded columns of inverse_transform: a matrix when every column
-- holds numbers (missing as NaN), else a luma.Table named after the
-- input columns (missing values missing).
local function decoded(self, columns, n)
  local numeric = true
  for _, kind in ipairs(self._kinds) do numeric = numeric and kind == "number" end
  if numeric then
    local out = luma.zeros(n, #columns)
    for j, col in ipairs(columns) do
      for i = 1, n do out:set(i, j, col[i] == nil and 0 / 0 or col[i]) end
    end
    return out
  end
  return from_columns(names_in(self), columns, self._kinds, n)
end

-- --------------------------------------------------------- the classes

local UNKNOWN_DOC = "a value fit never saw"

encoders.OrdinalEncoder = estimator.class{
  name = "luma.preprocessing.OrdinalEncoder", kind = "transformer", input = "any",
  doc = "Codes each column's values 1..k in sorted order (categories, learned at fit and "
    .. "saved with the model); takes a matrix, a luma.Table (categorical columns) or a "
    .. "list of strings; unknown values are an error or unknown_value with handle_unknown "
    .. "= \"use_encoded_value\"; missing values (NaN, a missing category) get "
    .. "encoded_missing_value (scikit-learn 1.2's OrdinalEncoder, codes from 1).",
  params = {
    { name = "handle_unknown", type = "string", default = "error", values = { "error", "use_encoded_value" },
      doc = "what " .. UNKNOWN_DOC .. " does" },
    { name = "unknown_value", type = "number", default = 0 / 0, nan_ok = true, doc = "its code" },
    { name = "encoded_missing_value", type = "number", default = 0 / 0, nan_ok = true,
      doc = "the code of a missing value (NaN, a missing category), at fit and transform" },
    { name = "categories", type = "table",
      doc = "one list of categories per column, in code order (nil: the sorted values seen at fit)" },
  },
  method_docs = {
    get_feature_names_out = { signature = "est:get_feature_names_out([input_features = nil])",
      doc = "The names of the output columns: the input names, one code column each. "
        .. "Returns a list of strings." },
  },
  example = example(function() return encoders.OrdinalEncoder{} end),
  fit = function(self, X) learn_categories(self, input_columns(self, X, "fit"), false) end,
  transform = function(self, X)
    local cols = input_columns(self, X, "transform")
    local codes = codes_of(self, cols, "transform")
    local out = luma.zeros(cols[1].n, #cols)
    for j = 1, #cols do
      for i = 1, cols[j].n do
        local code = codes[j][i]
        if code == MISSING then
          code = self.params.encoded_missing_value
        elseif not code then
          if self.params.handle_unknown == "error" then unknown(self, cols, j, i) end
          code = self.params.unknown_value
        end
        out:set(i, j, code)
      end
    end
    return out
  end,
  -- Codes outside 1..k (such as unknown_value) come back missing.
  inverse_transform = function(self, Z)
    check_encoded(Z)
    local columns = {}
    for j = 1, Z:cols() do
      local cats = self.categories[j]
      columns[j] = {}
      for i = 1, Z:rows() do
        local c = Z:get(i, j)
        columns[j][i] = math.type(c) ~= nil and cats[math.tointeger(c)] or nil
      end
    end
    return decoded(self, columns, Z:rows())
  end,
  get_feature_names_out = names_in,
}

-- The output layout of one column of OneHotEncoder: slot[k] is the output
-- column (1-based within the feature, 0 if dropped) of category k;
-- labels lists the output columns' labels (a category, or "infrequent"
-- for the group of infrequent categories, placed last as scikit-learn
-- does); infrequent_slot is the group's column (nil without one).
local function one_hot_layout(p, cats, counts, n)
  local infrequent = {}
  local mf = p.min_frequency
  if mf then
    local limit = mf >= 1 and mf or mf * n
    for k = 1, #cats do infrequent[k] = counts[k] < limit end
  end
  local kept = 0
  for k = 1, #cats do kept = kept + (infrequent[k] and 0 or 1) end
  -- max_categories counts the infrequent column, which scikit-learn 1.2
  -- always counts: when the frequent categories plus one exceed it, the
  -- (k - max + 1) least frequent categories form the group (ties in
  -- sorted order: a stable sort by count, as scikit-learn does).
  if p.max_categories and p.max_categories < kept + 1 then
    local order = {}
    for k = 1, #cats do order[k] = k end
    table.sort(order, function(a, b)
      if counts[a] ~= counts[b] then return counts[a] < counts[b] end
      return a < b
    end)
    for r = 1, #cats - p.max_categories + 1 do infrequent[order[r]] = true end
  end
  local labels, slot, group, infrequent_list = {}, {}, nil, {}
  for k = 1, #cats do
    if infrequent[k] then
      infrequent_list[#infrequent_list + 1] = cats[k]
    else
      labels[#labels + 1] = cats[k]
      slot[k] = #labels
    end
  end
  if #infrequent_list > 0 then
    labels[#labels + 1] = "infrequent"
    group = #labels
    for k = 1, #cats do
      if infrequent[k] then slot[k] = group end
    end
  end
  -- drop removes the first output column ("first"), or the first of two
  -- ("if_binary"), as scikit-learn 1.2.1 does with infrequent groups;
  -- dropped_value is its category (nil for the infrequent group).
  local dropped = (p.drop == "first" or (p.drop == "if_binary" and #labels == 2)) and 1 or 0
  local dropped_value
  if dropped == 1 then
    for k = 1, #cats do slot[k] = slot[k] - 1 end
    dropped_value = group ~= 1 and labels[1] or nil
    table.remove(labels, 1)
    group = group and group - 1
  end
  return { slot = slot, labels = labels, infrequent_slot = group ~= 0 and group or nil,
    dropped_value = dropped_value, infrequent = infrequent_list }
end

encoders.OneHotEncoder = estimator.class{
  name = "luma.preprocessing.OneHotEncoder", kind = "transformer", input = "any",
  doc = "One 0/1 column per category of each column (sorted; learned at fit and saved with "
    .. "the model); takes a matrix, a luma.Table (categorical columns) or a list of strings. "
    .. "Rare categories can share one \"infrequent\" column (min_frequency, max_categories); "
    .. "drop removes the first column (\"first\") or one of two (\"if_binary\"); unknown "
    .. "values are an error, all zeros (\"ignore\") or the infrequent column "
    .. "(\"infrequent_if_exist\"). A missing value (NaN, a missing category) seen at fit is "
    .. "a category of its own (false in categories, column \"name=<NA>\"); one fit never "
    .. "saw is an unknown value. As in scikit-learn 1.2's OneHotEncoder.",
  params = {
    { name = "handle_unknown", type = "string", default = "error",
      values = { "error", "ignore", "infrequent_if_exist" }, doc = "what " .. UNKNOWN_DOC .. " does" },
    { name = "drop", type = "string", values = { "first", "if_binary" }, doc = "categories to drop" },
    { name = "min_frequency", type = "number", gt = 0,
      doc = "categories seen fewer times (a count >= 1, or a fraction of the rows < 1) are infrequent" },
    { name = "max_categories", type = "integer", min = 2,
      doc = "at most this many output columns per feature, the infrequent one included" },
    { name = "categories", type = "table",
      doc = "one list of categories per column, in code order (nil: the sorted values seen at fit)" },
  },
  method_docs = {
    get_feature_names_out = { signature = "est:get_feature_names_out([input_features = nil])",
      doc = "The names of the output columns, \"name=category\" (\"city=Paris\"; "
        .. "\"city=infrequent\" for the infrequent group; scikit-learn writes city_Paris). "
        .. "Returns a list of strings." },
  },
  example = example(function() return encoders.OneHotEncoder{} end),
  fit = function(self, X)
    local cols = input_columns(self, X, "fit")
    local counts = learn_categories(self, cols, true)
    local mf = self.params.min_frequency
    if mf and mf >= 1 and math.type(mf) ~= "integer" and mf ~= math.floor(mf) then
      fail(3, "luma.preprocessing.OneHotEncoder: min_frequency must be a count (an integer "
        .. ">= 1) or a fraction in (0, 1), got %s", shown(mf))
    end
    self._layout, self.infrequent_categories = {}, {}
    local offset = 0
    for j = 1, #cols do
      local layout = one_hot_layout(self.params, self.categories[j], counts[j], cols[j].n)
      layout.offset = offset
      self._layout[j] = layout
      self.infrequent_categories[j] = layout.infrequent
      offset = offset + #layout.labels
    end
    self.n_features_out = offset
  end,
  transform = function(self, X)
    local cols = input_columns(self, X, "transform")
    local codes = codes_of(self, cols, "transform")
    local how = self.params.handle_unknown
    local out = luma.zeros(cols[1].n, self.n_features_out)
    for j = 1, #cols do
      local layout = self._layout[j]
      for i = 1, cols[j].n do
        local code = codes[j][i]
        local s
        if code and code ~= MISSING then s = layout.slot[code]
        elseif how == "error" then unknown(self, cols, j, i)
        elseif how == "infrequent_if_exist" then s = layout.infrequent_slot end
        if s and s > 0 then out:set(i, layout.offset + s, 1) end
      end
    end
    return out
  end,
  -- A row's category is the one whose column holds 1; all zeros give the
  -- dropped category, or missing for an unknown (or, without drop, a
  -- value handle_unknown ignored); the infrequent group gives missing.
  inverse_transform = function(self, Z)
    check_encoded(Z)
    local columns = {}
    for j, layout in ipairs(self._layout) do
      local col = {}
      for i = 1, Z:rows() do
        local v = layout.dropped_value
        for s = 1, #layout.labels do
          if Z:get(i, layout.offset + s) == 1 then
            v = s ~= layout.infrequent_slot and layout.labels[s] or nil
          end
        end
        col[i] = v or nil -- (the missing category, false, comes back missing)
      end
      columns[j] = col
    end
    return decoded(self, columns, Z:rows())
  end,
  get_feature_names_out = function(self, input_features)
    local names, out = names_in(self, input_features), {}
    for j, layout in ipairs(self._layout) do
      for _, label in ipairs(layout.labels) do out[#out + 1] = names[j] .. "=" .. shown(label) end
    end
    return out
  end,
}

-- LabelEncoder's labels: a column in any container a classifier takes
-- (luma.util.labels); numbers must be finite.
local function read_labels(self, y, method)
  local lv = labels.read(y, { fname = method, argn = 1 }, 4)
  if lv.column and not lv.column:isfinite():all() then
    fail(4, "bad argument #1 to '%s' (X contains NaN or Inf; %s needs finite values; impute "
      .. "them first, e.g. with luma.preprocessing.SimpleImputer)", method, self.__class.short_name)
  end
  return lv
end

encoders.LabelEncoder = estimator.class{
  name = "luma.preprocessing.LabelEncoder", kind = "transformer",
  input = "any", -- a label column in any container, read here
  doc = "Codes labels 1..k in sorted order. The labels are a matrix column, a Lua list of "
    .. "numbers, strings or booleans, a categorical column of a luma.Table or a one-column "
    .. "Table; classes holds them (k x 1 for numbers, a list otherwise), and inverse_transform "
    .. "gives them back in the container fit saw (a Categorical for a categorical column).",
  params = {},
  example = function() return encoders.LabelEncoder{}, luma.matrix{ 30, 10, 20, 10 }, nil end,
  fit = function(self, y)
    local lv = read_labels(self, y, "fit")
    local _, classes = labels.encode(lv)
    self.classes = classes
    self.labels_kind = lv.column and "matrix" or lv.kind
  end,
  transform = function(self, y)
    local lv = read_labels(self, y, "transform")
    local fitted = luma.ismatrix(self.classes) and "number" or type(self.classes[1])
    if #self.classes > 0 and lv.type ~= fitted and not (lv.column and fitted == "number") then
      fail(3, "bad argument #1 to 'transform' (the labels are %ss but LabelEncoder was fitted "
        .. "on %ss)", lv.type, fitted)
    end
    local codes = labels.codes(lv, self.classes)
    for i = 1, codes:rows() do
      if codes:get(i, 1) ~= codes:get(i, 1) then
        fail(3, "luma.preprocessing.LabelEncoder: unknown label %s", shown(labels.value(lv, i)))
      end
    end
    return codes
  end,
  inverse_transform = function(self, codes)
    check_encoded(codes)
    local decoded = estimator.decode_labels(codes, self.classes)
    if luma.ismatrix(decoded) or self.labels_kind ~= "categorical" then return decoded end
    return labels.build("categorical", decoded, #decoded, self.classes)
  end,
}

return encoders
