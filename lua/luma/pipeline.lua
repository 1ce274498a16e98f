--- luma.pipeline: Pipeline, make_pipeline, FeatureUnion and
-- ColumnTransformer, composite estimators under the same contract as the
-- estimators they contain.  Inner parameters are addressed as
-- "step__param" (and deeper: "step__inner__param"), so searches tune
-- pipelines like any estimator.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")

local pipeline = {}

local fail = args.fail

local PASSTHROUGH = "passthrough"
local tables = estimator.tables

-- X as numbers, for a "passthrough" that places a Table's columns in the
-- output (a categorical column is an error naming it).
local function as_numbers(X, who, level)
  if not tables.is_table(X) then return X end
  for _, name in ipairs(X:names()) do
    if tables.is_categorical(X, name) then
      fail(level + 1, "%s: column '%s' is categorical and cannot pass through; encode it "
        .. "(e.g. with luma.preprocessing.OneHotEncoder)", who, name)
    end
  end
  return X:to_matrix()
end

local function n_rows(X)
  return tables.is_table(X) and X:nrows() or X:rows()
end

-- The output names of a fitted transformer given its input names (an
-- error naming the entry where it cannot say).
local function names_out(est, names, who, entry, level)
  if est == PASSTHROUGH then return names end
  if type(est.get_feature_names_out) ~= "function" then
    fail(level + 1, "%s: '%s' (%s) does not provide get_feature_names_out", who, entry,
      tostring(est))
  end
  return est:get_feature_names_out(names)
end

-- Checks a list of {name, estimator [, extra]} entries; passthrough (or
-- "drop" where allowed) may stand for an estimator.
local function check_named(list, what, level, allow_drop)
  if type(list) ~= "table" or #list == 0 then
    fail(level + 1, "%s must be a non-empty list of {name, estimator} pairs", what)
  end
  local seen = {}
  for i, entry in ipairs(list) do
    if type(entry) ~= "table" or type(entry[1]) ~= "string" then
      fail(level + 1, "%s entry %d must be {name, estimator}", what, i)
    end
    local name, est = entry[1], entry[2]
    if name == "" or name:find("__", 1, true) then
      fail(level + 1, "%s entry %d: name '%s' must be non-empty and free of '__'", what, i, name)
    end
    if seen[name] then fail(level + 1, "%s: the name '%s' is used twice", what, name) end
    seen[name] = true
    local ok = estimator.is_estimator(est) or est == PASSTHROUGH
      or (allow_drop and est == "drop")
    if not ok then
      fail(level + 1, "%s entry '%s' must be an estimator or \"passthrough\", got %s", what,
        name, tostring(est))
    end
  end
end

-- The {name, estimator, ...} entries of a composite's list parameter that
-- are well formed: fit checks the list (check_named), which may be nil or
-- anything else until then, and get_params / set_params must not fail on
-- it.
local function named_entries(list)
  local out = {}
  if type(list) ~= "table" then return out end
  for _, entry in ipairs(list) do
    if type(entry) == "table" and type(entry[1]) == "string" then out[#out + 1] = entry end
  end
  return out
end

-- get_params over named entries: the list itself, each entry by name, and
-- each entry's own parameters as "name__param" (so too an estimator among
-- the composite's own parameters, such as a remainder).
local function named_get_params(self, key, deep)
  local out = {}
  for k, v in pairs(self.params) do
    if k ~= key then
      out[k] = v
      if deep ~= false and estimator.is_estimator(v) then
        for kk, x in pairs(v:get_params(true)) do out[k .. "__" .. kk] = x end
      end
    end
  end
  out[key] = self.params[key]
  for _, entry in ipairs(named_entries(self.params[key])) do
    out[entry[1]] = entry[2]
    if deep ~= false and estimator.is_estimator(entry[2]) then
      for k, v in pairs(entry[2]:get_params(true)) do out[entry[1] .. "__" .. k] = v end
    end
  end
  return out
end

-- set_params over named entries: "name" replaces an entry, "name__param"
-- sets a parameter inside it, anything else is one of the composite's own
-- parameters (validated by the schema through the base set_params).
local function named_set_params(base_set)
  -- (a tail call of the class's set_params: level 2 is its caller)
  return function(self, key, values)
    if type(values) ~= "table" then
      fail(2, "bad argument #1 to 'set_params' (table expected, got %s)", type(values))
    end
    local own = {}
    for name, value in pairs(values) do
      local entry
      local split = type(name) == "string" and name:find("__", 1, true)
      local head = split and name:sub(1, split - 1) or name
      for _, e in ipairs(named_entries(self.params[key])) do
        if e[1] == head then entry = e end
      end
      if entry and split then
        if not estimator.is_estimator(entry[2]) then
          fail(3, "%s: step '%s' is %s and has no parameter '%s'", tostring(self), head,
            tostring(entry[2]), name:sub(split + 2))
        end
        entry[2]:set_params({ [name:sub(split + 2)] = value })
      elseif entry then
        entry[2] = value
        check_named(self.params[key], key, 3, key ~= "steps")
      else
        own[name] = value
      end
    end
    if next(own) then base_set(self, own) end
    return self
  end
end

-- ------------------------------------------------------------ Pipeline

local function active_steps(self)
  local out = {}
  for _, entry in ipairs(self.params.steps) do
    if entry[2] ~= PASSTHROUGH then out[#out + 1] = entry end
  end
  return out
end

-- (level as fail's, counted from the caller of no_steps)
local function no_steps(self, level)
  fail(level + 1, "%s: no steps (steps = {{name, estimator}, ...} is required)",
    self.__class.name)
end

local function final_step(self)
  local steps = self.params.steps
  if type(steps) ~= "table" or #steps == 0 then no_steps(self, 3) end -- (final_step, a method)
  return steps[#steps][2]
end

-- X through every step but the last (each already fitted).
local function transform_head(self, X)
  local steps = self.params.steps
  for i = 1, #steps - 1 do
    local est = steps[i][2]
    if est ~= PASSTHROUGH then X = est:transform(X) end
  end
  return X
end

local function final_method(name)
  return function(self, X, ...)
    local last = final_step(self)
    local Xt = transform_head(self, X)
    if last == PASSTHROUGH then
      if name == "transform" then return Xt end
      fail(2, "%s: the last step is passthrough and cannot %s", tostring(self), name)
    end
    if type(last[name]) ~= "function" then
      fail(2, "%s: the last step %s has no method %s", tostring(self), tostring(last), name)
    end
    return last[name](last, Xt, ...)
  end
end

local base_set_params = estimator.set_params

-- Help records of the composites' own get_params and set_params, which
-- address entries by name.
local NAMED_METHOD_DOCS = {
  get_params = { signature = "est:get_params([deep = true])",
    doc = "The parameters; with deep, each named entry as name and its parameters as "
      .. "\"name__param\". Returns a new table of name = value." },
  set_params = { signature = "est:set_params(values)",
    doc = "Sets parameters: \"name\" replaces an entry, \"name__param\" sets a parameter "
      .. "of that entry's estimator. Returns est." },
}

pipeline.Pipeline = estimator.class{
  name = "luma.pipeline.Pipeline",
  kind = "meta",
  requires_y = false,
  input = "any", -- Tables and matrices, and the lists of strings text vectorizers take
  sparse = true, -- a sparse X reaches the first step, which accepts or refuses it
  doc = "A chain of transformers ending in any estimator: fit fits each step on the output "
    .. "of the previous ones; predict, transform, score and the rest pass data through the "
    .. "fitted steps. Steps are {name, estimator} pairs; \"passthrough\" skips a step.",
  params = {
    { name = "steps", type = "table", doc = "list of {name, estimator} pairs" },
  },
  example = function(base)
    local X = luma.random.Generator(3):normal(10, 2)
    return pipeline.Pipeline{ steps = { { "first", base:clone() }, { "last", base } } }, X,
      X:sum(2)
  end,
  method_docs = {
    get_params = NAMED_METHOD_DOCS.get_params,
    set_params = NAMED_METHOD_DOCS.set_params,
    kind_of = { signature = "pipe:kind_of()", doc = "The kind of the last step (a "
      .. "transformer when it is \"passthrough\"). Returns a string such as \"regressor\"." },
    get_feature_names_out = { signature = "pipe:get_feature_names_out([input_features = nil])",
      doc = "The names of the columns the steps produce, each step's names made from the "
        .. "previous step's (a last step without transform, such as a regressor, is left "
        .. "out: these are the names of its inputs). Returns a list of strings." },
  },
  get_params = function(self, deep) return named_get_params(self, "steps", deep) end,
  set_params = function(self, values)
    return named_set_params(base_set_params)(self, "steps", values)
  end,
  check_state = function(self)
    check_named(self.params.steps, "steps", 1)
    estimator.check_fields(self, { named_steps = "table" })
  end,
  kind_of = function(self)
    local last = final_step(self)
    return last ~= PASSTHROUGH and last:kind_of() or "transformer"
  end,
  -- Fitted on a Table, each step after the first records the names of
  -- the columns it receives (feature_names_in), so that a final linear
  -- model can say which coefficient belongs to which column.
  fit = function(self, X, y)
    check_named(self.params.steps, "steps", 3)
    local steps = self.params.steps
    local Xt = X
    local names = tables.is_table(X) and X:names() or nil
    for i, entry in ipairs(steps) do
      local est = entry[2]
      if est ~= PASSTHROUGH then
        local given_names = tables.is_table(Xt)
        est:fit(Xt, y)
        if names and not given_names and #names == est.n_features_in then
          rawset(est, "feature_names_in", names)
        end
        if i < #steps then
          Xt = est:transform(Xt)
          names = names and type(est.get_feature_names_out) == "function"
            and est:get_feature_names_out() or nil
        end
      end
    end
    local last = steps[#steps][2]
    self.named_steps = {}
    for _, entry in ipairs(steps) do self.named_steps[entry[1]] = entry[2] end
    self.classes = last ~= PASSTHROUGH and last.classes or nil
  end,
  predict = final_method("predict"),
  predict_proba = final_method("predict_proba"),
  predict_log_proba = final_method("predict_log_proba"),
  decision_function = final_method("decision_function"),
  transform = final_method("transform"),
  score = final_method("score"),
  get_feature_names_out = function(self, input_features)
    local steps = self.params.steps
    if type(steps) ~= "table" or #steps == 0 then no_steps(self, 2) end
    local upto = #steps
    local last = steps[upto][2]
    if last ~= PASSTHROUGH and type(last.transform) ~= "function" then upto = upto - 1 end
    local names = estimator.input_names(self, input_features)
    for i = 1, upto do names = names_out(steps[i][2], names, tostring(self), steps[i][1], 2) end
    return names
  end,
  inverse_transform = function(self, X)
    local steps = active_steps(self)
    for i = #steps, 1, -1 do
      local est = steps[i][2]
      if type(est.inverse_transform) ~= "function" then
        fail(2, "%s: step '%s' has no inverse_transform", tostring(self), steps[i][1])
      end
      X = est:inverse_transform(X)
    end
    return X
  end,
}

--- make_pipeline(est1, est2, ...): a Pipeline whose step names are the
-- lower-cased class names (numbered when repeated).
function pipeline.make_pipeline(...)
  local ests, counts, steps = { ... }, {}, {}
  if #ests == 0 then fail(2, "make_pipeline needs at least one estimator") end
  local names = {}
  for i, est in ipairs(ests) do
    local base = est == PASSTHROUGH and PASSTHROUGH
      or (estimator.is_estimator(est) and est.__class.short_name:lower())
    if not base then
      fail(2, "bad argument #%d to 'make_pipeline' (an estimator expected, got %s)", i,
        type(est))
    end
    names[i] = base
    counts[base] = (counts[base] or 0) + 1
  end
  local seen = {}
  for i, est in ipairs(ests) do
    local name = names[i]
    if counts[name] > 1 then
      seen[name] = (seen[name] or 0) + 1
      name = name .. "-" .. seen[name]
    end
    steps[i] = { name, est }
  end
  return pipeline.Pipeline{ steps = steps }
end

-- -------------------------------------------------------- FeatureUnion

pipeline.FeatureUnion = estimator.class{
  name = "luma.pipeline.FeatureUnion",
  kind = "transformer",
  requires_y = false,
  input = "table",
  doc = "Applies several transformers to the same input and places their outputs side by "
    .. "side (in list order); \"drop\" leaves one out.",
  params = {
    { name = "transformer_list", type = "table", doc = "list of {name, transformer} pairs" },
  },
  example = function(base)
    local X = luma.random.Generator(4):normal(10, 2)
    return pipeline.FeatureUnion{ transformer_list = { { "a", base }, { "b", "passthrough" } } },
      X, X:sum(2)
  end,
  method_docs = {
    get_params = NAMED_METHOD_DOCS.get_params,
    set_params = NAMED_METHOD_DOCS.set_params,
    get_feature_names_out = { signature = "est:get_feature_names_out([input_features = nil])",
      doc = "The names of the output columns, each transformer's names prefixed by its "
        .. "entry name (\"pca__x1\"), as scikit-learn's FeatureUnion. Returns a list of "
        .. "strings." },
  },
  get_params = function(self, deep) return named_get_params(self, "transformer_list", deep) end,
  set_params = function(self, values)
    return named_set_params(base_set_params)(self, "transformer_list", values)
  end,
  check_state = function(self)
    check_named(self.params.transformer_list, "transformer_list", 1, true)
  end,
  fit = function(self, X, y)
    check_named(self.params.transformer_list, "transformer_list", 3, true)
    for _, entry in ipairs(self.params.transformer_list) do
      if estimator.is_estimator(entry[2]) then entry[2]:fit(X, y) end
    end
  end,
  transform = function(self, X)
    local parts = {}
    for _, entry in ipairs(self.params.transformer_list) do
      local t = entry[2]
      if t == PASSTHROUGH then parts[#parts + 1] = as_numbers(X, tostring(self), 2)
      elseif t ~= "drop" then parts[#parts + 1] = t:transform(X) end
    end
    if #parts == 0 then return luma.zeros(n_rows(X), 0) end
    return luma.hstack(parts)
  end,
  get_feature_names_out = function(self, input_features)
    local names, out = estimator.input_names(self, input_features), {}
    for _, entry in ipairs(self.params.transformer_list) do
      if entry[2] ~= "drop" then
        for _, name in ipairs(names_out(entry[2], names, tostring(self), entry[1], 2)) do
          out[#out + 1] = entry[1] .. "__" .. name
        end
      end
    end
    return out
  end,
}

-- --------------------------------------------------- ColumnTransformer

-- The columns of a transformer entry as indices into the input's columns
-- (names, the input's column names, or nil for a matrix without names):
-- an index, a list of indices, a vector of indices, a name, a list of
-- names, or {dtype = "numeric" | "category"} (the Table's columns of that
-- kind, in table order).
local function column_list(X, names, cols, entry, level)
  local n = #names
  local position = {}
  for j, name in ipairs(names) do position[name] = j end
  local function by_name(name)
    if not tables.is_table(X) then
      fail(level + 2, "ColumnTransformer: columns of '%s': '%s' is a column name but X is a matrix (give a "
        .. "luma.Table, or column indices)", entry, name)
    end
    local j = position[name]
    if not j then
      fail(level + 2, "ColumnTransformer: columns of '%s': X has no column '%s' (it has %s)", entry, name,
        table.concat(names, ", "))
    end
    return j
  end
  local list = {}
  if math.type(cols) == "integer" then
    list[1] = cols
  elseif type(cols) == "string" then
    list[1] = by_name(cols)
  elseif luma.ismatrix(cols) then
    local flat = cols:flatten()
    for i = 1, flat:rows() do list[i] = math.tointeger(flat:get(i, 1)) or flat:get(i, 1) end
  elseif type(cols) == "table" and cols.dtype ~= nil then
    local kind = cols.dtype
    if kind ~= "numeric" and kind ~= "category" then
      fail(level + 1, "ColumnTransformer: columns of '%s': dtype must be \"numeric\" or \"category\", got %s",
        entry, tostring(kind))
    end
    for j, name in ipairs(names) do
      local categorical = tables.is_table(X) and tables.is_categorical(X, name)
      if categorical == (kind == "category") then list[#list + 1] = j end
    end
  elseif type(cols) == "table" then
    for i, c in ipairs(cols) do list[i] = type(c) == "string" and by_name(c) or c end
  else
    fail(level + 1, "ColumnTransformer: columns of '%s' must be indices, names or {dtype = ...} (a list, a "
      .. "vector, an integer or a string)", entry)
  end
  for _, c in ipairs(list) do
    if math.type(c) ~= "integer" or c < 1 or c > n then
      fail(level + 1, "ColumnTransformer: columns of '%s': %s is not a column index in 1..%d", entry, tostring(c), n)
    end
  end
  return list
end

-- The columns idx of X: a Table's by name, a matrix's by index.
local function part_of(X, names, idx)
  if tables.is_table(X) then
    local picked = {}
    for i, j in ipairs(idx) do picked[i] = names[j] end
    return X:select(picked)
  end
  return X:take(idx, 2)
end

-- The entries of a fitted ColumnTransformer with their columns: the
-- transformers in order, then the remainder (when it is not dropped);
-- an entry whose selection is empty is left out, as scikit-learn does.
local function column_entries(self)
  local out = {}
  for i, entry in ipairs(self.params.transformers) do
    if #self.columns[i] > 0 then
      out[#out + 1] = { name = entry[1], est = entry[2], columns = self.columns[i] }
    end
  end
  local r = self.params.remainder
  if r ~= "drop" and #self.remainder_columns > 0 then
    out[#out + 1] = { name = "remainder", est = r, columns = self.remainder_columns }
  end
  return out
end

pipeline.ColumnTransformer = estimator.class{
  name = "luma.pipeline.ColumnTransformer",
  kind = "transformer",
  requires_y = false,
  input = "table",
  doc = "Applies transformers to column subsets and places their outputs side by side; "
    .. "entries are {name, transformer, columns}, columns 1-based indices, column names "
    .. "(of a luma.Table) or {dtype = \"numeric\" | \"category\"}. Columns no entry names "
    .. "are dropped, passed through or given to an estimator (remainder).",
  params = {
    { name = "transformers", type = "table", doc = "list of {name, transformer, columns}" },
    { name = "remainder", type = "string|estimator", default = "drop",
      doc = "what happens to the other columns: \"drop\", \"passthrough\" or a transformer" },
    { name = "verbose_feature_names_out", type = "boolean", default = false,
      doc = "prefix output names with the entry name (\"num__x1\")" },
  },
  example = function(base)
    local X = luma.random.Generator(5):normal(10, 3)
    return pipeline.ColumnTransformer{ transformers = { { "t", base, { 1, 3 } } },
      remainder = "passthrough" }, X, X:sum(2)
  end,
  method_docs = {
    get_params = NAMED_METHOD_DOCS.get_params,
    set_params = NAMED_METHOD_DOCS.set_params,
    get_feature_names_out = { signature = "est:get_feature_names_out([input_features = nil])",
      doc = "The names of the output columns: each entry's transformer's names for its "
        .. "columns (\"city=Paris\"), then the remainder's; with verbose_feature_names_out, "
        .. "prefixed by the entry name (\"cat__city=Paris\", \"remainder__x3\"). Returns a "
        .. "list of strings." },
  },
  get_params = function(self, deep) return named_get_params(self, "transformers", deep) end,
  set_params = function(self, values)
    return named_set_params(base_set_params)(self, "transformers", values)
  end,
  -- the column lists fit computed: one per entry, and the rest, each a
  -- list of column indices in 1..n_features_in
  check_state = function(self)
    local entries = self.params.transformers
    check_named(entries, "transformers", 1, true)
    estimator.check_fields(self, { columns = "table", remainder_columns = "table",
      n_features_in = "integer" })
    local lists = { self.remainder_columns }
    for i = 1, #entries do
      if type(self.columns[i]) ~= "table" then
        error(string.format("no column list for transformer %d", i), 0)
      end
      lists[#lists + 1] = self.columns[i]
    end
    for _, list in ipairs(lists) do
      for _, c in pairs(list) do
        if math.type(c) ~= "integer" or c < 1 or c > self.n_features_in then
          error(string.format("%s is not a column index in 1..%d", tostring(c),
            self.n_features_in), 0)
        end
      end
    end
  end,
  fit = function(self, X, y)
    local entries = self.params.transformers
    check_named(entries, "transformers", 3, true)
    local r = self.params.remainder
    if type(r) == "string" and r ~= "drop" and r ~= PASSTHROUGH then
      fail(3, "%s: remainder must be \"drop\", \"passthrough\" or an estimator, got %q",
        tostring(self), r)
    end
    local names = tables.is_table(X) and X:names() or {}
    if not tables.is_table(X) then
      for j = 1, X:cols() do names[j] = "x" .. j end
    end
    local used, columns = {}, {}
    for i, entry in ipairs(entries) do
      columns[i] = column_list(X, names, entry[3], entry[1], 3)
      for _, c in ipairs(columns[i]) do used[c] = true end
    end
    local rest = {}
    for c = 1, #names do
      if not used[c] then rest[#rest + 1] = c end
    end
    self.columns, self.remainder_columns = columns, rest
    for _, e in ipairs(column_entries(self)) do
      if estimator.is_estimator(e.est) then e.est:fit(part_of(X, names, e.columns), y) end
    end
  end,
  transform = function(self, X)
    local names = tables.is_table(X) and X:names() or nil
    local parts = {}
    for _, e in ipairs(column_entries(self)) do
      local t = e.est
      if t == PASSTHROUGH then
        parts[#parts + 1] = as_numbers(part_of(X, names, e.columns), tostring(self), 2)
      elseif t ~= "drop" then
        parts[#parts + 1] = t:transform(part_of(X, names, e.columns))
      end
    end
    if #parts == 0 then return luma.zeros(n_rows(X), 0) end
    return luma.hstack(parts)
  end,
  get_feature_names_out = function(self, input_features)
    local names = estimator.input_names(self, input_features)
    local out, seen = {}, {}
    for _, e in ipairs(column_entries(self)) do
      if e.est ~= "drop" then
        local sub = {}
        for i, j in ipairs(e.columns) do sub[i] = names[j] end
        for _, name in ipairs(names_out(e.est, sub, tostring(self), e.name, 2)) do
          if self.params.verbose_feature_names_out then name = e.name .. "__" .. name end
          if seen[name] then
            fail(2, "%s: the output name '%s' occurs twice; set verbose_feature_names_out = "
              .. "true to prefix names with their entry", tostring(self), name)
          end
          seen[name] = true
          out[#out + 1] = name
        end
      end
    end
    return out
  end,
}

luma.doc.set(pipeline.make_pipeline, { name = "luma.pipeline.make_pipeline",
  signature = "make_pipeline(est1, est2, ...) -> Pipeline",
  doc = "A Pipeline of the given estimators (\"passthrough\" allowed), each step named "
    .. "after its class in lower case, numbered when a class repeats (\"ridge-1\")." })

luma.doc.set(pipeline, { name = "luma.pipeline",
  doc = "Composite estimators: Pipeline, make_pipeline, FeatureUnion, ColumnTransformer." })

return pipeline
