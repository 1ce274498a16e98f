--- luma.pipeline: Pipeline, make_pipeline, FeatureUnion and
-- ColumnTransformer, composite estimators under the same contract as the
-- estimators they contain.  Inner parameters are addressed as
-- "step__param" (and deeper: "step__inner__param"), so searches tune
-- pipelines like any estimator.
local luma = require("luma")
local estimator = require("luma.estimator")

local pipeline = {}

local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

local PASSTHROUGH = "passthrough"

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

-- get_params over named entries: the list itself, each entry by name, and
-- each entry's own parameters as "name__param".
local function named_get_params(self, key, deep)
  local out = {}
  for k, v in pairs(self.params) do
    if k ~= key then out[k] = v end
  end
  out[key] = self.params[key]
  for _, entry in ipairs(self.params[key]) do
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
  return function(self, key, values)
    local own = {}
    for name, value in pairs(values) do
      local entry
      local split = type(name) == "string" and name:find("__", 1, true)
      local head = split and name:sub(1, split - 1) or name
      for _, e in ipairs(self.params[key]) do
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

local function final_step(self)
  local steps = self.params.steps
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
  },
  get_params = function(self, deep) return named_get_params(self, "steps", deep) end,
  set_params = function(self, values)
    return named_set_params(base_set_params)(self, "steps", values)
  end,
  kind_of = function(self)
    local last = final_step(self)
    return last ~= PASSTHROUGH and last:kind_of() or "transformer"
  end,
  fit = function(self, X, y)
    check_named(self.params.steps, "steps", 3)
    local steps = self.params.steps
    local Xt = X
    for i = 1, #steps - 1 do
      local est = steps[i][2]
      if est ~= PASSTHROUGH then Xt = est:fit(Xt, y):transform(Xt) end
    end
    local last = steps[#steps][2]
    if last ~= PASSTHROUGH then last:fit(Xt, y) end
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
  method_docs = NAMED_METHOD_DOCS,
  get_params = function(self, deep) return named_get_params(self, "transformer_list", deep) end,
  set_params = function(self, values)
    return named_set_params(base_set_params)(self, "transformer_list", values)
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
      if t == PASSTHROUGH then parts[#parts + 1] = X
      elseif t ~= "drop" then parts[#parts + 1] = t:transform(X) end
    end
    if #parts == 0 then return luma.zeros(X:rows(), 0) end
    return luma.hstack(parts)
  end,
}

-- --------------------------------------------------- ColumnTransformer

-- Column indices of a transformer entry: a list of integers, a vector, or
-- a single integer.
local function column_list(cols, n, name, level)
  local list = {}
  if math.type(cols) == "integer" then
    list[1] = cols
  elseif luma.ismatrix(cols) then
    local flat = cols:flatten()
    for i = 1, flat:rows() do list[i] = math.tointeger(flat:get(i, 1)) end
  elseif type(cols) == "table" then
    for i, c in ipairs(cols) do list[i] = c end
  else
    fail(level + 1, "columns of '%s' must be indices (a list, a vector or an integer)", name)
  end
  for _, c in ipairs(list) do
    if math.type(c) ~= "integer" or c < 1 or c > n then
      fail(level + 1, "columns of '%s': %s is not a column index in 1..%d", name, tostring(c), n)
    end
  end
  return list
end

pipeline.ColumnTransformer = estimator.class{
  name = "luma.pipeline.ColumnTransformer",
  kind = "transformer",
  requires_y = false,
  doc = "Applies transformers to column subsets and places their outputs side by side; "
    .. "entries are {name, transformer, columns}, columns a list of 1-based indices. Columns "
    .. "no entry names are dropped or passed through (remainder).",
  params = {
    { name = "transformers", type = "table", doc = "list of {name, transformer, columns}" },
    { name = "remainder", type = "string", default = "drop", values = { "drop", "passthrough" },
      doc = "what happens to the other columns" },
  },
  example = function(base)
    local X = luma.random.Generator(5):normal(10, 3)
    return pipeline.ColumnTransformer{ transformers = { { "t", base, { 1, 3 } } },
      remainder = "passthrough" }, X, X:sum(2)
  end,
  method_docs = NAMED_METHOD_DOCS,
  get_params = function(self, deep) return named_get_params(self, "transformers", deep) end,
  set_params = function(self, values)
    return named_set_params(base_set_params)(self, "transformers", values)
  end,
  fit = function(self, X, y)
    local entries = self.params.transformers
    check_named(entries, "transformers", 3, true)
    local used, columns = {}, {}
    for i, entry in ipairs(entries) do
      columns[i] = column_list(entry[3], X:cols(), entry[1], 3)
      for _, c in ipairs(columns[i]) do used[c] = true end
      if estimator.is_estimator(entry[2]) then entry[2]:fit(X:take(columns[i], 2), y) end
    end
    local rest = {}
    for c = 1, X:cols() do
      if not used[c] then rest[#rest + 1] = c end
    end
    self.columns = columns
    self.remainder_columns = rest
  end,
  transform = function(self, X)
    local parts = {}
    for i, entry in ipairs(self.params.transformers) do
      local t, Xi = entry[2], X:take(self.columns[i], 2)
      if t == PASSTHROUGH then parts[#parts + 1] = Xi
      elseif t ~= "drop" then parts[#parts + 1] = t:transform(Xi) end
    end
    if self.params.remainder == PASSTHROUGH and #self.remainder_columns > 0 then
      parts[#parts + 1] = X:take(self.remainder_columns, 2)
    end
    if #parts == 0 then return luma.zeros(X:rows(), 0) end
    return luma.hstack(parts)
  end,
}

luma.doc.set(pipeline.make_pipeline, { name = "luma.pipeline.make_pipeline",
  signature = "make_pipeline(est1, est2, ...) -> Pipeline",
  doc = "A Pipeline of the given estimators (\"passthrough\" allowed), each step named "
    .. "after its class in lower case, numbered when a class repeats (\"ridge-1\")." })

luma.doc.set(pipeline, { name = "luma.pipeline",
  doc = "Composite estimators: Pipeline, make_pipeline, FeatureUnion, ColumnTransformer." })

return pipeline
