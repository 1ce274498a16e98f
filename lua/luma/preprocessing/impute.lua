--- luma.preprocessing.impute: SimpleImputer, which fills missing values
-- (NaN, or a chosen marker) from per-column statistics of the observed
-- ones, so it accepts the NaN that the scalers and encoders refuse.
--
-- It takes a matrix or a luma.Table.  A Table's categorical columns (a
-- missing category is a NaN code, as read_csv gives an empty field) are
-- filled with their most frequent category or a constant string, as
-- scikit-learn's SimpleImputer does for object columns; a Table with
-- categorical columns comes back as a Table, one with only numeric
-- columns as a matrix (as before).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local fail = require("luma.preprocessing.common").fail

local impute = {}
local tables = estimator.tables

-- scikit-learn's fill_value when none is given: 0 for numbers,
-- "missing_value" for text.
local DEFAULT_TEXT = "missing_value"

-- The missing entries of the numeric column (or matrix) x: NaN, or the
-- missing_values marker.
local function missing_mask(self, x)
  local mv = self.params.missing_values
  return mv ~= mv and x:isnan() or x:eq(mv)
end

-- The statistic of the observed values of the numeric column x (its j-th,
-- named what for messages).
local function numeric_statistic(self, x, what)
  local strategy, fill = self.params.strategy, self.params.fill_value
  if strategy == "constant" then
    if type(fill) == "string" then
      fail(2, "luma.preprocessing.SimpleImputer: fill_value = %q is a string but %s is "
        .. "numeric; give a number (or impute the columns apart, in a ColumnTransformer)",
        fill, what)
    end
    return fill or 0
  end
  local present = x:select(missing_mask(self, x):eq(0))
  if present:rows() == 0 then
    fail(2, "luma.preprocessing.SimpleImputer: %s has no observed value", what)
  end
  if strategy == "mean" then return present:mean() end
  if strategy == "median" then return luma.stats.median(present):get(1, 1) end
  return luma.stats.mode(present):get(1, 1)
end

-- The category filling the gaps of the Categorical c (the column named
-- name): the most frequent one (ties to the first in sorted order, as
-- scikit-learn takes the smallest) or the constant fill_value.
local function categorical_statistic(self, c, name)
  local strategy, fill = self.params.strategy, self.params.fill_value
  if strategy == "mean" or strategy == "median" then
    fail(2, "luma.preprocessing.SimpleImputer: strategy = %q needs numbers but column '%s' is "
      .. "categorical; use strategy = \"most_frequent\" or \"constant\" (with a string "
      .. "fill_value) for it", strategy, name)
  end
  if strategy == "constant" then
    if fill ~= nil and type(fill) ~= "string" then
      fail(2, "luma.preprocessing.SimpleImputer: fill_value = %s is a number but column '%s' "
        .. "is categorical; give a string (such as \"missing\")", tostring(fill), name)
    end
    return fill or DEFAULT_TEXT
  end
  local counts = c:counts()
  if counts:rows() == 0 or counts:max() == 0 then
    fail(2, "luma.preprocessing.SimpleImputer: column '%s' has no observed value", name)
  end
  return c.categories[math.tointeger(counts:argmax(1):get(1, 1))]
end

-- Whether the Table T has a categorical column.
local function has_categories(T)
  for _, kind in pairs(T:dtypes()) do
    if kind == "category" then return true end
  end
  return false
end

-- The Categorical c with its missing entries set to the string fill.
local function filled_categorical(c, fill)
  local values = c:totable()
  for i = 1, #c do
    if values[i] == nil then values[i] = fill end
  end
  return luma.Table.Categorical(values)
end

impute.SimpleImputer = estimator.class{
  name = "luma.preprocessing.SimpleImputer", kind = "transformer", one_to_one_features = true,
  input = "table",
  doc = "Replaces missing values (NaN, or missing_values) by each column's mean, median, "
    .. "most frequent value or a constant. Takes a matrix or a luma.Table: a Table's "
    .. "categorical columns (missing categories) take most_frequent or constant (a string "
    .. "fill_value) and the result is then a Table, as scikit-learn's SimpleImputer on "
    .. "object columns.",
  params = {
    { name = "strategy", type = "string", default = "mean",
      values = { "mean", "median", "most_frequent", "constant" }, doc = "what replaces a gap" },
    { name = "fill_value", type = "number|string",
      doc = "the constant strategy's value (nil: 0 for numbers, \"missing_value\" for "
        .. "categories)" },
    { name = "missing_values", type = "number", default = 0 / 0, nan_ok = true,
      doc = "the marker of a gap in numbers (NaN by default; a missing category is always one)" },
  },
  example = function()
    return impute.SimpleImputer{}, luma.matrix{ { 1, 0 / 0 }, { 3, 4 }, { 0 / 0, 6 } }, nil
  end,
  -- statistics: a 1 x d matrix, or (fitted on a Table with categorical
  -- columns) a list of one number or string per column.
  fit = function(self, X)
    if tables.is_table(X) and not has_categories(X) then X = X:to_matrix() end
    if luma.ismatrix(X) then
      local stats = luma.zeros(1, X:cols())
      for j = 1, X:cols() do stats:set(1, j, numeric_statistic(self, X:col(j), "column " .. j)) end
      self.statistics = stats
      return
    end
    if X:nrows() == 0 then
      fail(3, "bad argument #1 to 'fit' (X has no rows; SimpleImputer needs at least one)")
    end
    local stats = {}
    for j, name in ipairs(X:names()) do
      local col = X:column(name)
      if luma.ismatrix(col) then
        stats[j] = numeric_statistic(self, col, "column '" .. name .. "'")
      else
        stats[j] = categorical_statistic(self, col, name)
      end
    end
    self.statistics = stats
  end,
  transform = function(self, X)
    local stats = self.statistics
    if luma.ismatrix(stats) then
      if tables.is_table(X) then
        if has_categories(X) then
          fail(3, "bad argument #1 to 'transform' (X has categorical columns but SimpleImputer "
            .. "was fitted on numbers only)")
        end
        X = X:to_matrix()
      end
      return luma.matrix.where(missing_mask(self, X), stats, X)
    end
    if not tables.is_table(X) then
      fail(3, "bad argument #1 to 'transform' (SimpleImputer was fitted on a luma.Table with "
        .. "categorical columns; give it a Table, got a matrix)")
    end
    local spec, names = {}, X:names()
    for j, name in ipairs(names) do
      local col, fill = X:column(name), stats[j]
      local numeric = luma.ismatrix(col)
      if numeric ~= (type(fill) == "number") then
        fail(3, "bad argument #1 to 'transform' (column '%s' is %s but was %s at fit)", name,
          numeric and "numeric" or "categorical", numeric and "categorical" or "numeric")
      end
      spec[name] = numeric and luma.matrix.where(missing_mask(self, col), fill, col)
        or filled_categorical(col, fill)
    end
    return luma.Table(spec, { columns = names })
  end,
}

return impute
