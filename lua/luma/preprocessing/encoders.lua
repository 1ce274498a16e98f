--- luma.preprocessing.encoders: categorical encoders (OrdinalEncoder,
-- OneHotEncoder) and LabelEncoder for a label column.
--
-- Categories are the sorted distinct values seen at fit, kept with the
-- model; an unseen value is an error unless handle_unknown says otherwise.
-- Codes run 1..k (Luma is 1-based; scikit-learn uses 0..k-1).
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.preprocessing.common")
local fail, finite_only, example = common.fail, common.finite_only, common.example

local encoders = {}

-- A value as it reads in a message: 4 rather than 4.0.
local function shown(v)
  return string.format("%.15g", v)
end

-- Sorted distinct values of each column, as Lua lists and lookup tables.
local function column_categories(X)
  local cats, index = {}, {}
  for j = 1, X:cols() do
    local u = X:col(j):unique()
    cats[j], index[j] = {}, {}
    for i = 1, u:rows() do
      cats[j][i] = u:get(i, 1)
      index[j][u:get(i, 1)] = i
    end
  end
  return cats, index
end

encoders.OrdinalEncoder = estimator.class(finite_only{
  name = "luma.preprocessing.OrdinalEncoder", kind = "transformer",
  doc = "Codes each column's values 1..k in sorted order (categories); unknown values are an "
    .. "error or unknown_value with handle_unknown = \"use_encoded_value\".",
  params = {
    { name = "handle_unknown", type = "string", default = "error", values = { "error", "use_encoded_value" },
      doc = "what an unseen value does" },
    { name = "unknown_value", type = "number", default = 0 / 0, nan_ok = true, doc = "its code" },
  },
  example = example(function() return encoders.OrdinalEncoder{} end),
  fit = function(self, X) self.categories, self._index = column_categories(X) end,
  transform = function(self, X)
    local out = luma.zeros(X:rows(), X:cols())
    for j = 1, X:cols() do
      for i = 1, X:rows() do
        local code = self._index[j][X:get(i, j)]
        if not code then
          if self.params.handle_unknown == "error" then
            fail(3, "luma.preprocessing.OrdinalEncoder: unknown value %s in column %d", shown(X:get(i, j)), j)
          end
          code = self.params.unknown_value
        end
        out:set(i, j, code)
      end
    end
    return out
  end,
  -- Codes outside 1..k (such as unknown_value) come back as NaN.
  inverse_transform = function(self, Z)
    local out = luma.zeros(Z:rows(), Z:cols())
    for j = 1, Z:cols() do
      local cats = self.categories[j]
      for i = 1, Z:rows() do out:set(i, j, cats[Z:get(i, j)] or 0 / 0) end
    end
    return out
  end,
})

encoders.OneHotEncoder = estimator.class(finite_only{
  name = "luma.preprocessing.OneHotEncoder", kind = "transformer",
  doc = "One 0/1 column per category of each column (sorted); drop removes the first "
    .. "category (\"first\") or one of two (\"if_binary\"); unknown values are an error or "
    .. "all zeros (handle_unknown = \"ignore\").",
  params = {
    { name = "handle_unknown", type = "string", default = "error", values = { "error", "ignore" },
      doc = "what an unseen value does" },
    { name = "drop", type = "string", values = { "first", "if_binary" }, doc = "categories to drop" },
  },
  example = example(function() return encoders.OneHotEncoder{} end),
  fit = function(self, X)
    self.categories, self._index = column_categories(X)
    self._first = {}
    local offset = 0
    for j = 1, X:cols() do
      local k = #self.categories[j]
      local dropped = (self.params.drop == "first" or (self.params.drop == "if_binary" and k == 2)) and 1 or 0
      self._first[j] = { offset = offset, drop = dropped }
      offset = offset + k - dropped
    end
    self.n_features_out = offset
  end,
  transform = function(self, X)
    local out = luma.zeros(X:rows(), self.n_features_out)
    for j = 1, X:cols() do
      local info = self._first[j]
      for i = 1, X:rows() do
        local code = self._index[j][X:get(i, j)]
        if not code and self.params.handle_unknown == "error" then
          fail(3, "luma.preprocessing.OneHotEncoder: unknown value %s in column %d", shown(X:get(i, j)), j)
        end
        if code and code > info.drop then out:set(i, info.offset + code - info.drop, 1) end
      end
    end
    return out
  end,
  inverse_transform = function(self, Z)
    local out = luma.zeros(Z:rows(), #self.categories)
    for j = 1, #self.categories do
      local info = self._first[j]
      local k = #self.categories[j]
      for i = 1, Z:rows() do
        local v = info.drop == 1 and self.categories[j][1] or 0 / 0
        for c = info.drop + 1, k do
          if Z:get(i, info.offset + c - info.drop) == 1 then v = self.categories[j][c] end
        end
        out:set(i, j, v)
      end
    end
    return out
  end,
})

encoders.LabelEncoder = estimator.class(finite_only{
  name = "luma.preprocessing.LabelEncoder", kind = "transformer",
  doc = "Codes labels (a column) 1..k in sorted order; classes holds the labels.",
  params = {},
  example = function() return encoders.LabelEncoder{}, luma.matrix{ 30, 10, 20, 10 }, nil end,
  fit = function(self, y)
    local _, classes = estimator.encode_labels(y)
    self.classes = classes
  end,
  transform = function(self, y)
    local idx = {}
    for i = 1, self.classes:rows() do idx[self.classes:get(i, 1)] = i end
    local out = luma.zeros(y:rows(), 1)
    for i = 1, y:rows() do
      local c = idx[y:get(i, 1)]
      if not c then fail(3, "luma.preprocessing.LabelEncoder: unknown label %s", shown(y:get(i, 1))) end
      out:set(i, 1, c)
    end
    return out
  end,
  inverse_transform = function(self, codes) return estimator.decode_labels(codes, self.classes) end,
})

return encoders
