--- luma.preprocessing.common: helpers shared by the parts of
-- luma.preprocessing (scalers, impute, encoders, features); not a public
-- API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local common = {}

--- fail(level, fmt, ...): error(string.format(fmt, ...), level) as the
-- caller would raise it (level 1 is the caller's own position).
function common.fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end
local fail = common.fail

-- NaN and Inf would silently poison means, ranges and codes; only the
-- imputer and FunctionTransformer accept them.
local function check_finite(self, method, X)
  args.finite(X, 1, method, 4, self.__class.short_name)
end

--- finite_only(spec): wraps a class spec's fit and transform so both
-- refuse non-finite X; returns spec.
function common.finite_only(spec)
  for _, method in ipairs({ "fit", "transform" }) do
    local impl = spec[method]
    spec[method] = function(self, X, ...)
      check_finite(self, method, X)
      return impl(self, X, ...)
    end
  end
  return spec
end

--- column_values(T, name) -> values, strings: the values of the luma.Table
-- T's column name as a Lua list (strings for a categorical column, numbers
-- for a numeric one, nil where missing) and whether they are strings.
function common.column_values(T, name)
  local col = T:column(name)
  if luma.ismatrix(col) then
    local out = {}
    for i = 1, col:rows() do out[i] = col:get(i, 1) end
    return out, false
  end
  return col:totable(), true
end

--- from_columns(names, columns, kinds, n) -> Table: a luma.Table of the
-- Lua lists columns (kinds[j] "string" for categories, "number"; nil
-- entries missing), n rows, in the order of names.
function common.from_columns(names, columns, kinds, n)
  local spec, dtypes = {}, {}
  for j, name in ipairs(names) do
    local col = columns[j]
    if kinds[j] == "number" then
      local m = luma.zeros(n, 1)
      for i = 1, n do m:set(i, 1, col[i] == nil and 0 / 0 or col[i]) end
      spec[name] = m
    else
      local list = {}
      for i = 1, n do list[i] = col[i] or false end
      spec[name], dtypes[name] = list, "category"
    end
  end
  return luma.Table(spec, { columns = names, dtypes = dtypes })
end

--- example(cls_fn): the example function of a transformer class (a small
-- matrix with mixed signs for the tests that walk every class).
function common.example(cls_fn)
  return function()
    local X = luma.matrix{ { 1, -2, 3 }, { 4, 5, -6 }, { 7, 8, 9 }, { -1, 0, 2 } }
    return cls_fn(), X, nil
  end
end

return common
