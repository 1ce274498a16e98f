--- luma.estimator: the estimator contract (scikit-learn's, in Lua).
--
-- estimator.class(spec) makes an estimator class from an explicit
-- parameter schema and the class's own fit/predict/... functions.  The
-- schema drives constructor validation, get_params, set_params, clone,
-- help() and serialization; the wrappers added here give every estimator,
-- native or written in Lua, the same behaviour:
--   * Class{...} validates the parameters (unknown or ill-typed ones are
--     errors that list the valid ones); missing ones take their defaults;
--   * fit(X [, y]) checks its arguments (y is required only by classes
--     that need targets, requires_y: regressors and classifiers unless
--     they say otherwise; the others accept a y and leave it to the class
--     to use or ignore, so pipelines and cross-validation can pass it
--     through), forgets everything a previous fit learned, calls the
--     class's fit, records n_features_in and returns the estimator;
--   * fit_predict (clusterers and outlier detectors) and fit_transform
--     (anything with transform) default to fit then predict / transform
--     on the same X; a class's own fit_predict or fit_transform (a faster
--     single pass) replaces the default and gets exactly fit's checks and
--     bookkeeping -- one wrapper serves all three;
--   * predict, predict_proba, decision_function, score_samples,
--     transform, inverse_transform and score refuse to run before fit and
--     check that X has the columns the estimator was fitted on;
--   * score(X [, y]) needs y where fit does; it defaults to R^2 for
--     regressors, accuracy for classifiers and the mean of score_samples
--     (the average log-likelihood) for density models;
--   * a classifier's labels may be numbers, strings or booleans in a
--     matrix, a Lua list, a categorical column or a one-column Table: the
--     class sees numbers, est.classes and predict give the user's labels
--     back (see "labels" below and docs/ESTIMATORS.md, "Class labels").
-- The kinds follow scikit-learn's mixins: RegressorMixin, ClassifierMixin,
-- TransformerMixin, ClusterMixin, DensityMixin and OutlierMixin (see
-- docs/ESTIMATORS.md).
-- Parameters live in est.params (read them there; change them with
-- set_params, which validates); fitted attributes are plain fields.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local labels = require("luma.util.labels")
local native = require("luma.util.native") -- numbers with "." whatever the locale

local estimator = {}

--- estimator.classes: every class made by estimator.class, by name (what
-- luma.load revives saved estimators from).
estimator.classes = setmetatable({}, { __mode = "v" })

local KINDS = { regressor = true, classifier = true, transformer = true, clusterer = true,
                density = true, outlier = true, meta = true }

-- The wrapped methods that need a fitted estimator and a data matrix.
local FITTED_METHODS = { "predict", "predict_proba", "predict_log_proba",
                         "decision_function", "score_samples", "transform",
                         "inverse_transform", "score" }

-- Kinds whose predict gives fit_predict its default (scikit-learn's
-- ClusterMixin and OutlierMixin): the labels of the fitted data.
local FIT_PREDICT_KINDS = { clusterer = true, outlier = true }

-- Fields of an instance that are not fitted state.
local INSTANCE_FIELDS = { params = true }

local fail = args.fail

-- --------------------------------------------------------------- values

-- A value as text for messages, signatures and printed estimators:
-- matrices by shape, estimators as they print, other tables by value (as
-- the REPL shows them, length- and depth-limited), NaN as "nan" whatever
-- the C library's sign, strings quoted.
local function describe(v)
  if luma.ismatrix(v) then
    local r, c = v:shape()
    return string.format("a %d x %d matrix", r, c)
  end
  if type(v) == "table" then return require("luma.repl").pretty(v) end
  if v ~= v then return "nan" end
  return type(v) == "string" and string.format("%q", v) or native.tostring(v)
end

-- Equality that takes NaN as equal to NaN (a NaN default is not "changed").
local function same_value(a, b)
  return a == b or (a ~= a and b ~= b)
end

local function is_estimator(v)
  local mt = getmetatable(v)
  return type(v) == "table" and type(mt) == "table" and rawget(mt, "__estimator") == true
end
estimator.is_estimator = is_estimator

-- The methods every estimator shares check their self here (a class's own
-- methods are wrapped by estimator.class).
local function check_self(self, method)
  if not is_estimator(self) then args.bad_self(method, "an estimator", self, 3) end
end

local function is_generator(v)
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__name") == "luma.Generator"
end

-- Checks of each declared parameter type: returns true or nil.
local TYPE_CHECKS = {
  number = function(v) return type(v) == "number" and v == v end,
  integer = function(v) return math.type(v) == "integer" end,
  boolean = function(v) return type(v) == "boolean" end,
  string = function(v) return type(v) == "string" end,
  ["function"] = function(v) return type(v) == "function" end,
  table = function(v) return type(v) == "table" and not is_estimator(v) end,
  matrix = function(v) return luma.ismatrix(v) end,
  estimator = is_estimator,
  seed = function(v) return math.type(v) == "integer" or is_generator(v) end,
  any = function() return true end,
}

-- The alternatives of a type declaration such as "number|string".
local function type_list(decl)
  local list = {}
  for t in decl:gmatch("[^|]+") do
    assert(TYPE_CHECKS[t], "unknown parameter type '" .. t .. "'")
    list[#list + 1] = t
  end
  return list
end

-- What a parameter accepts, for error messages: "a number > 0",
-- "one of "l1", "l2"", ...
local function expectation(p)
  if p.expect then return p.expect .. (p.nullable and " (or nil)" or "") end
  if p.values then
    local shown = {}
    for i, v in ipairs(p.values) do shown[i] = describe(v) end
    return "one of " .. table.concat(shown, ", ")
  end
  local text = "a " .. p.type:gsub("|", " or ")
  local bounds = {}
  if p.min then bounds[#bounds + 1] = ">= " .. tostring(p.min) end
  if p.gt then bounds[#bounds + 1] = "> " .. tostring(p.gt) end
  if p.max then bounds[#bounds + 1] = "<= " .. tostring(p.max) end
  if p.lt then bounds[#bounds + 1] = "< " .. tostring(p.lt) end
  if #bounds > 0 then text = text .. " " .. table.concat(bounds, " and ") end
  if p.nullable then text = text .. " (or nil)" end
  return text
end

local function valid_value(p, v)
  if v == nil then return p.nullable end
  if v ~= v then return p.nan_ok == true end
  if p.values then
    for _, allowed in ipairs(p.values) do
      if v == allowed then return true end
    end
    return false
  end
  local ok = false
  for _, t in ipairs(p.types) do
    if TYPE_CHECKS[t](v) then ok = true break end
  end
  if not ok then return false end
  if type(v) == "number" then
    if p.min and v < p.min then return false end
    if p.max and v > p.max then return false end
    if p.gt and not (v > p.gt) then return false end
    if p.lt and not (v < p.lt) then return false end
  end
  if p.check then return p.check(v) end
  return true
end

-- A copy for clone(): nested estimators cloned unfitted, tables and
-- matrices copied, generators and functions shared (a generator is never
-- advanced by fit: see estimator.rng).
local function copy_value(v)
  if is_estimator(v) then return v:clone() end
  if luma.ismatrix(v) then return v:copy() end
  if type(v) == "table" and getmetatable(v) == nil then
    local t = {}
    for k, x in pairs(v) do t[k] = copy_value(x) end
    return t
  end
  return v
end
estimator.copy_value = copy_value

-- --------------------------------------------------------------- schema

local function compile_schema(spec)
  local byname, names = {}, {}
  for i, p in ipairs(spec.params or {}) do
    assert(type(p.name) == "string" and p.name:match("^[%a_][%w_]*$"),
      "parameter " .. i .. " needs an identifier name")
    assert(not p.name:find("__", 1, true), "parameter names may not contain '__'")
    assert(type(p.doc) == "string", "parameter '" .. p.name .. "' needs a doc string")
    p.type = p.type or "any"
    p.types = type_list(p.type)
    assert(p.check == nil or (type(p.check) == "function" and type(p.expect) == "string"),
      "parameter '" .. p.name .. "': check needs expect, the text of what it accepts")
    if p.default == nil then p.nullable = true end
    assert(valid_value(p, p.default), "default of '" .. p.name .. "' is invalid")
    byname[p.name] = p
    names[#names + 1] = p.name
  end
  return byname, names
end

-- ---------------------------------------------------------- the methods

local Base = {}

--- est:get_params([deep]): the parameters as a new table; with deep
-- (default true), nested estimators' parameters as "name__param" too.
function Base:get_params(deep)
  check_self(self, "get_params")
  local out = {}
  for _, name in ipairs(self.__class.param_names) do
    local v = self.params[name]
    out[name] = v
    if deep ~= false and is_estimator(v) then
      for k, x in pairs(v:get_params(true)) do out[name .. "__" .. k] = x end
    end
  end
  return out
end

local function set_param(self, name, value, level)
  local class = self.__class
  local split = name:find("__", 1, true) -- parameter names never contain "__"
  local head, rest = name:sub(1, (split or 0) - 1), split and name:sub(split + 2)
  if split and class.schema[head] then
    local inner = self.params[head]
    if not is_estimator(inner) then
      fail(level, "%s: parameter '%s' is not an estimator, so '%s' cannot be set",
        class.name, head, name)
    end
    inner:set_params({ [rest] = value })
    return
  end
  local p = class.schema[name]
  if not p then
    fail(level, "%s: unknown parameter '%s' (valid: %s)", class.name, tostring(name),
      table.concat(class.param_names, ", "))
  end
  if not valid_value(p, value) then
    fail(level, "%s: parameter '%s' must be %s, got %s", class.name, name, expectation(p),
      describe(value))
  end
  -- A checked table is kept as a copy: the caller's table changed later
  -- cannot undo the check.
  if p.check and type(value) == "table" then value = copy_value(value) end
  self.params[name] = value
end

--- est:set_params{name = value, ...}: validates and sets parameters
-- (nested ones as "step__param"); returns est.  Fitted state is kept
-- until the next fit, as in scikit-learn.
function Base:set_params(values)
  check_self(self, "set_params")
  if type(values) ~= "table" then
    fail(2, "bad argument #1 to 'set_params' (table expected, got %s)", type(values))
  end
  for name, value in pairs(values) do
    if type(name) ~= "string" then
      fail(2, "%s: parameter names must be strings, got %s", self.__class.name, describe(name))
    end
    set_param(self, name, value, 3)
  end
  return self
end

--- est:clone(): a new unfitted estimator with copies of est's parameters.
function Base:clone()
  check_self(self, "clone")
  local params = {}
  for _, name in ipairs(self.__class.param_names) do
    params[name] = copy_value(self.params[name])
  end
  return self.__class(params)
end

--- est:kind_of(): "regressor", "classifier", ... (composites report the
-- kind of the estimator they end in).
function Base:kind_of()
  check_self(self, "kind_of")
  return self.__class.kind
end

--- est:is_fitted(): true once fit has succeeded.
function Base:is_fitted()
  check_self(self, "is_fitted")
  return rawget(self, "__fitted") == true
end

--- estimator.input_names(est, input_features) -> list: the names of the
-- columns est was fitted on: input_features when given (a list of
-- strings, one per column, matching the names fit saw), else
-- feature_names_in (fit on a Table), else "x1" .. "xd" (scikit-learn's
-- x0.. counted from 1).  Errors read as get_feature_names_out's.
function estimator.input_names(self, input_features)
  args.arg(is_estimator(self), 1, "input_names", "estimator", self, 2)
  if not self:is_fitted() then
    fail(3, "%s: get_feature_names_out called before fit", self.__class.name)
  end
  local seen, d = rawget(self, "feature_names_in"), rawget(self, "n_features_in")
  if input_features == nil then
    if seen then return { table.unpack(seen) } end
    local out = {}
    for j = 1, d or 0 do out[j] = "x" .. j end
    return out
  end
  if type(input_features) ~= "table" or (d and #input_features ~= d) then
    fail(3, "bad argument #1 to 'get_feature_names_out' (input_features must be a list of "
      .. "%d names)", d or 0)
  end
  for j, name in ipairs(input_features) do
    if type(name) ~= "string" then
      fail(3, "bad argument #1 to 'get_feature_names_out' (input_features[%d] is not a "
        .. "string)", j)
    end
    if seen and seen[j] ~= name then
      fail(3, "bad argument #1 to 'get_feature_names_out' (input_features[%d] is '%s' but "
        .. "%s was fitted on '%s')", j, name, self.__class.short_name, seen[j])
    end
  end
  return { table.unpack(input_features) }
end

--- estimator.same_names_out(est [, input_features]): get_feature_names_out
-- of transformers whose output columns are their input columns transformed
-- one by one (scalers, imputers; spec.one_to_one_features): the input names.
function estimator.same_names_out(self, input_features)
  return estimator.input_names(self, input_features)
end

-- Forgets fitted state: every field but the parameters.
local function reset(self)
  for k in pairs(self) do
    if not INSTANCE_FIELDS[k] then rawset(self, k, nil) end
  end
end

local function shape_text(m)
  local r, c = m:shape()
  return string.format("%d x %d", r, c)
end

-- ------------------------------------------------------ tables of data

-- luma.Table (named, typed columns) as estimators see it.  Every
-- estimator accepts a Table where it accepts X: fit records its column
-- names (feature_names_in), later calls pick the same columns by name in
-- the same order (a missing column is an error that names it), and
-- classes that need numbers get the numeric matrix -- a categorical
-- column of X is an error that suggests an encoder (one of y is a
-- classifier's labels).  Classes with input =
-- "table" (pipelines, column transformers) or "any" (the encoders, which
-- also take Lua lists) get the Table itself.
local tables = {}
estimator.tables = tables

--- tables.is_table(v): whether v is a luma.Table.
function tables.is_table(v)
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__name") == "luma.Table"
end
local is_table = tables.is_table

--- tables.is_categorical(T, name): whether column name holds categories.
function tables.is_categorical(T, name)
  args.arg(tables.is_table(T), 1, "is_categorical", "luma.Table", T, 2)
  return T:dtypes()[name] == "category"
end

-- Dense or sparse matrices (luma.sparse): what has rows() and cols().
local function is_matrix(X) return luma.ismatrix(X) or luma.sparse.issparse(X) end

-- The width of X: columns of a matrix (dense or sparse) or a Table.
local function width(X)
  if is_matrix(X) then return X:cols() end
  return X:ncols()
end

-- A list of names for a message, the first few of a long one.
local function name_list(names)
  if #names <= 6 then return table.concat(names, ", ") end
  return table.concat({ table.unpack(names, 1, 5) }, ", ") .. ", ... (" .. #names .. " in all)"
end

-- T's columns named by names, in that order (the first missing one is an
-- error naming it, the columns fit saw and the columns T has).
local function pick_columns(class, T, names, method, level)
  for _, name in ipairs(names) do
    if not T:has_column(name) then
      fail(level + 1, "bad argument #1 to '%s' (X has no column '%s'; %s was fitted on %s, "
        .. "and X has %s)", method, name, class.short_name, name_list(names),
        name_list(T:names()))
    end
  end
  return T:select(names)
end

-- Models that have already warned about input without (or with) column
-- names since their last fit, as keys (scikit-learn warns on every call;
-- once per model is enough to be seen without flooding a loop).
local warned_names = setmetatable({}, { __mode = "k" })

-- Marks est and the estimators inside it (a Pipeline's steps, a
-- ColumnTransformer's transformers, found in its parameters) as warned:
-- the steps of a pipeline that warned get the same matrix and would say
-- it again.
local function mark_warned(est)
  warned_names[est] = true
  for _, v in pairs(est.params) do
    if is_estimator(v) then mark_warned(v)
    elseif type(v) == "table" and getmetatable(v) == nil then
      for _, entry in pairs(v) do
        if is_estimator(entry) then mark_warned(entry)
        elseif type(entry) == "table" and getmetatable(entry) == nil then
          for _, inner in pairs(entry) do
            if is_estimator(inner) then mark_warned(inner) end
          end
        end
      end
    end
  end
end

-- scikit-learn's check of feature names: a model fitted on a Table and
-- given a matrix, or fitted on a matrix and given a Table, takes the
-- columns by position, which is right only if they come in the same
-- order; it says so once.  A Pipeline hands its later steps matrices
-- after naming them (feature_names_in without __table_fit): no warning.
local function check_names_kind(self, method, X)
  if method == "inverse_transform" or warned_names[self] then return end
  local class = self.__class
  local names = rawget(self, "feature_names_in")
  local text
  if rawget(self, "__table_fit") and names and luma.ismatrix(X) then
    text = string.format("%s: %s got a matrix, without column names, but it was fitted on a "
      .. "luma.Table with columns %s; the matrix's columns are taken in that order", class.name,
      method, name_list(names))
  elseif not names and is_table(X) then
    text = string.format("%s: %s got a luma.Table, but it was fitted on a matrix, without "
      .. "column names; the Table's columns (%s) are taken by position", class.name, method,
      name_list(X:names()))
  end
  if text then
    mark_warned(self)
    warn(text .. " (warned once per model)")
  end
end

-- T as the numeric matrix of its columns, for a class that needs numbers.
local function numeric_matrix(class, T, method, level)
  for _, name in ipairs(T:names()) do
    if tables.is_categorical(T, name) then
      fail(level + 1, "bad argument #1 to '%s' (column '%s' is categorical but %s needs "
        .. "numbers; encode it first, e.g. with luma.preprocessing.OneHotEncoder in a "
        .. "luma.pipeline.ColumnTransformer)", method, name, class.short_name)
    end
  end
  return T:to_matrix()
end

-- X as the class takes it: a matrix, a Table for classes with input =
-- "table" or "any", anything for "any" (the class checks it).
local function accepted(class, X, method, level)
  if luma.ismatrix(X) then return X end
  -- sparse X only for the classes that say they take it (spec.sparse)
  if luma.sparse.issparse(X) then
    if class.sparse or class.input == "any" then return X end
    fail(level + 1, "bad argument #1 to '%s' (%s does not accept a sparse matrix; convert it "
      .. "with X:todense(), or see docs/SPARSE.md for the classes that do)", method, class.name)
  end
  if is_table(X) then
    if class.input then return X end
    return numeric_matrix(class, X, method, level + 1)
  end
  if class.input == "any" then return X end
  fail(level + 1, "bad argument #1 to '%s' (X must be a luma.Matrix or a luma.Table, got %s)",
    method, type(X))
end

-- ------------------------------------------------------------- labels

-- Class labels as users hold them (issue 29): a classifier's y may be a
-- matrix column (or row) of numbers, a Lua list of numbers, strings or
-- booleans, a categorical column of a luma.Table or a one-column Table
-- (luma.util.labels reads them all).  The class itself -- native kernels
-- and pure-Lua classifiers alike -- only ever sees numbers: strings and
-- booleans reach its fit as codes 1..k into the sorted distinct labels, so
-- its classes are those codes.  The contract keeps the labels in a
-- luma.Labels record (est.__labels, saved with the model) and, at the
-- boundary between the user and the class, (a) shows est.classes as the
-- user's labels, (b) hands the class its own coded classes while one of
-- its methods runs (the swap below), and (c) maps what predict returns
-- back to the labels, in the container the user gave: a list for a list,
-- a Categorical for a categorical column or a one-column Table.  A list of
-- numbers keeps its numbers (the class sees them as a column) and only
-- the container is restored.  Calls a class makes on itself while one of
-- its methods runs see codes in and codes out, as its own fit did.

-- A luma.Labels record: {kind = "list" | "categorical" (the container
-- predictions come back in), type = "number" | "string" | "boolean",
-- classes = the sorted distinct labels (strings and booleans; a list),
-- categories = the categories of the user's categorical column, codes =
-- the class's own classes (k x 1, the codes it was fitted on), integers =
-- whether a list of numbers held only integers (predictions keep them)}.
local LABELS_MT = { __name = "luma.Labels" }
local function is_labels(v) return args.type_of(v) == "luma.Labels" end

-- Whether the class was fitted on codes standing for labels.
local function coded(D) return D.type ~= "number" end

-- Instances whose method is running (weak keys): their nested calls on
-- themselves pass codes through unchanged.
local inside = setmetatable({}, { __mode = "k" })

-- Enters a method of a labelled estimator: self.classes becomes the
-- class's coded classes until the returned to-be-closed value closes
-- (normally or by an error), when the user's labels come back.
local function enter(self, D)
  inside[self] = true
  local shown = rawget(self, "classes")
  if coded(D) then rawset(self, "classes", D.codes) end
  return setmetatable({}, { __close = function()
    if coded(D) then rawset(self, "classes", shown) end
    inside[self] = nil
  end })
end

-- A prediction of the class (codes, or numbers for a list of numbers) as
-- the user's labels, in the container the user gave.
local function to_user(D, pred)
  if not luma.ismatrix(pred) or pred:cols() ~= 1 then return pred end
  local n, list = pred:rows(), {}
  if not coded(D) then
    -- (integers stay integers when the user's labels were)
    for i = 1, n do
      local v = pred:get(i, 1)
      list[i] = D.integers and math.tointeger(v) or v
    end
    return list
  end
  local classes = D.classes
  local k = #classes
  if D.kind == "categorical" and n > 0 and pred:ge(1):all() and pred:le(k):all()
    and pred:eq(pred:floor()):all() then
    -- codes into the user's categories by a native gather
    local at, map = labels.index_of(D.categories), luma.zeros(k, 1)
    for c = 1, k do map:set(c, 1, at[classes[c]]) end
    return luma.Table.Categorical.from_codes(map:take(pred), D.categories)
  end
  for i = 1, n do
    local c = math.tointeger(pred:get(i, 1))
    local v = c and classes[c]
    if v == nil then v = false end -- not a class: missing (a classifier's reject)
    list[i] = v
  end
  return labels.build(D.kind, list, n, D.categories)
end

-- The methods whose results are labels (or iterators of labels), and the
-- classes' own methods whose second argument is y (score has the
-- contract's wrapper).
local LABEL_RESULTS = { predict = true, fit_predict = true, staged_predict = true }
local Y_ARGUMENT = { staged_score = true, partial_fit = true }

-- Runs a labelled estimator's method impl from outside: inside the swap,
-- with the results mapped back (an iterator's values too, each step
-- inside the swap).
local function labelled_call(self, D, m, impl, ...)
  local r
  do
    local _ <close> = enter(self, D)
    r = table.pack(impl(self, ...))
  end
  for i = 1, r.n do
    local v = r[i]
    if type(v) == "function" then
      r[i] = function(...)
        local _ <close> = enter(self, D)
        local step = v(...)
        if LABEL_RESULTS[m] then return to_user(D, step) end
        return step
      end
    elseif LABEL_RESULTS[m] and i == 1 then
      r[i] = to_user(D, v)
    end
  end
  return table.unpack(r, 1, r.n)
end

-- y (any label container) against a fitted estimator's labels: codes into
-- D.classes for a coded model (a label it never saw is 0, which no
-- prediction equals), a numeric column otherwise; labels of another type
-- than those fitted are an error.  level as fail's.
local function fitted_targets(self, method, y, argn, level)
  local D = rawget(self, "__labels")
  if luma.ismatrix(y) and not (D and coded(D)) then return y end
  local lv = labels.read(y, { fname = method, argn = argn }, level + 1)
  local want = D and D.type or "number"
  if lv.type ~= want then
    fail(level + 1, "bad argument #%d to '%s' (y holds %ss but %s was fitted on %ss)", argn,
      method, lv.type, self.__class.short_name, want)
  end
  if D and coded(D) then return labels.codes(lv, D.classes, 0) end
  return lv.column
end

-- y of a classifier's fit as the class takes it (numbers: a column;
-- strings and booleans: codes) and the luma.Labels record to keep (nil
-- for a numeric matrix or Table column, which need none).  level as fail's.
local function classifier_targets(class, method, y, n, level)
  if luma.ismatrix(y) then
    -- a row of labels, one per row of X
    if y:rows() == 1 and n and n > 1 and y:cols() == n then return y:t() end
    return y
  end
  if class.labels == false then
    -- a label matrix may come sparse (luma.multilabel); the classes read it dense
    if luma.sparse.issparse(y) then return y:todense() end
    fail(level + 1, "bad argument #2 to '%s' (y must be a luma.Matrix or a sparse label "
      .. "matrix, got %s)", method, args.type_of(y))
  end
  local lv = labels.read(y, { fname = method, argn = 2 }, level + 1)
  if not coded(lv) then
    if lv.kind ~= "list" then return lv.column end
    local integers = true
    for i = 1, lv.n do integers = integers and math.type(y[i]) == "integer" end
    return lv.column, { kind = "list", type = "number", integers = integers }
  end
  local codes, classes = labels.encode(lv)
  return codes, { kind = lv.kind, type = lv.type, classes = classes,
    categories = lv.cat and lv.cat.categories }
end

-- y of any other estimator: a matrix, or labels read into one -- passed
-- through unchanged to composites (their final step reads them, so a
-- list comes back as a list); else numbers as they are, strings and
-- booleans refused by regressors and coded 1..k for the rest
-- (transformers such as feature selectors use y only to group equal
-- labels).  The second result tells a y passed through.
local function other_targets(class, method, y, level)
  if luma.ismatrix(y) then return y end
  local lv = labels.read(y, { fname = method, argn = 2 }, level + 1)
  if class.kind == "meta" then return y, true end
  if lv.column then return lv.column end
  if class.kind == "regressor" then
    fail(level + 1, "bad argument #2 to '%s' (y must be numeric for a regressor; got %ss)",
      method, lv.type)
  end
  return (labels.encode(lv))
end

-- Checks X and y for fit, fit_predict, fit_transform and score (method,
-- for messages; errors blame the caller of the wrapper that calls this)
-- and returns them as the class takes them, with the luma.Labels record
-- of a classifier's labels (fit) -- score's y is read against the labels
-- self was fitted on.
-- y is required when the class needs targets; a y given to a class that
-- does not need one is checked all the same (a y of the wrong length is
-- a caller's mistake even where it would be ignored).
local function check_data(class, method, X, y, self)
  X = accepted(class, X, method, 3)
  -- scikit-learn's check_array: no fit on an empty X (non-finite values
  -- are left to the classes, which name where they are).
  if method ~= "score" and is_matrix(X) then
    local r, c = X:shape()
    if r == 0 or c == 0 then
      fail(3, "bad argument #1 to '%s' (X is %d x %d; %s needs at least one row and one "
        .. "column)", method, r, c, class.short_name)
    end
  end
  if y == nil then
    if class.requires_y then
      fail(3, "bad argument #2 to '%s' (%s needs targets y)", method, class.name)
    end
    return X
  end
  local n = is_matrix(X) and X:rows() or is_table(X) and X:nrows() or nil
  local D, raw
  if class.kind == "classifier" and class.labels ~= false and method == "score" and self then
    y = inside[self] and y or fitted_targets(self, method, y, 2, 3)
  elseif class.kind == "classifier" then
    y, D = classifier_targets(class, method, y, n, 3)
  else
    y, raw = other_targets(class, method, y, 3)
  end
  if raw then
    -- labels a composite passes on: only their count is checked here
    local count = labels.count(y)
    if n and count ~= n then
      fail(3, "bad argument #2 to '%s' (X has %d rows but y has %d)", method, n, count)
    end
    return X, y
  end
  local yr, yc = y:shape()
  if n and yr ~= n then
    fail(3, "bad argument #2 to '%s' (X has %d rows but y has %d)", method, n, yr)
  end
  if yc < 1 then fail(3, "bad argument #2 to '%s' (y has no columns)", method) end
  if D and coded(D) then return X, y, D end
  if y:isnan():any() then
    fail(3, "bad argument #2 to '%s' (y contains NaN; drop or impute those rows first)", method)
  end
  -- scikit-learn's type_of_target: labels with a fractional part make a
  -- continuous target, which a classifier would turn into one class per
  -- distinct value.
  if class.kind == "classifier" and method ~= "score" and not y:eq(y:floor()):all() then
    fail(3, "bad argument #2 to '%s' (continuous target: use a regressor or discretize y)",
      method)
  end
  return X, y, D
end

-- Parameters that name labels: while a class fits on codes, class_weight
-- = {label = weight} is handed over keyed by code (a label that is not a
-- class stays as it is, for the class's own error).  Returns the value to
-- close that puts the user's table back.
local function coded_params(self, D)
  local cw = self.params.class_weight
  if type(cw) ~= "table" or getmetatable(cw) ~= nil then return nil end
  local idx, by_code = labels.index_of(D.classes), {}
  for k, w in pairs(cw) do by_code[idx[k] or k] = w end
  self.params.class_weight = by_code
  return setmetatable({}, { __close = function() self.params.class_weight = cw end })
end

-- After a class fitted on labels: the record kept (and saved) with the
-- model, and est.classes as the user's labels.
local function keep_labels(self, D)
  if coded(D) then
    local own = rawget(self, "classes")
    D.codes = own
    local shown = {}
    if luma.ismatrix(own) then
      for i = 1, own:rows() do shown[i] = D.classes[math.tointeger(own:get(i, 1))] end
    else
      for i, v in ipairs(D.classes) do shown[i] = v end
    end
    rawset(self, "classes", shown)
  end
  rawset(self, "__labels", setmetatable(D, LABELS_MT))
end

-- fit's contract, the one wrapper of fit, fit_predict and fit_transform
-- (method names it in messages): checks X and y, forgets what a previous
-- fit learned, runs impl(self, X, y, ...), records n_features_in (and
-- feature_names_in when X is a Table) and marks the estimator fitted.
-- Without and_then, impl is a class's own
-- fit_predict or fit_transform and its result is returned.  With it, impl
-- is the class's fit, which must return self or nothing, and the result is
-- and_then(self, X): self for fit, the wrapped predict or transform for
-- the default fit_predict and fit_transform (so they run on a fitted
-- estimator, with their own checks).
local function fitting(class, method, impl, and_then)
  return function(self, X, y, ...)
    local names = is_table(X) and X:names()
    local Xc, yc, D = check_data(class, method, X, y)
    reset(self)
    warned_names[self] = nil
    local result
    do
      local _ <close> = D and coded(D) and coded_params(self, D) or nil
      -- The class's fit raises its argument errors for its own caller, which
      -- is this wrapper: they are raised again at the user's line.
      result = args.relay(2, impl, self, Xc, yc, ...)
    end
    if names then
      rawset(self, "feature_names_in", names)
      rawset(self, "__table_fit", true)
    end
    if rawget(self, "n_features_in") == nil and (is_matrix(Xc) or is_table(Xc)) then
      rawset(self, "n_features_in", width(Xc))
    end
    if D then keep_labels(self, D) end
    rawset(self, "__fitted", true)
    if not and_then then
      if D and LABEL_RESULTS[method] then return to_user(D, result) end
      return result
    end
    if result ~= nil and result ~= self then
      fail(2, "%s: fit must return self or nothing", class.name)
    end
    return and_then(self, X)
  end
end

local function itself(self) return self end

-- Checks X for a method of a fitted estimator and returns it as the class
-- takes it: a Table's columns picked by the names fit saw.
local function check_fitted_input(self, method, X)
  local class = self.__class
  if not self:is_fitted() then
    fail(3, "%s: %s called before fit", class.name, method)
  end
  check_names_kind(self, method, X)
  local names = rawget(self, "feature_names_in")
  if names and is_table(X) and method ~= "inverse_transform" then
    X = pick_columns(class, X, names, method, 3)
  end
  X = accepted(class, X, method, 3)
  if not (is_matrix(X) or is_table(X)) then return X end
  -- inverse_transform takes what transform gave: transformers that change
  -- the width (encoders, expansions) record it as n_features_out.
  local want = method == "inverse_transform" and rawget(self, "n_features_out")
    or rawget(self, "n_features_in")
  if want and width(X) ~= want then
    fail(3, "bad argument #1 to '%s' (X has %d columns but %s was fitted on %d)", method,
      width(X), class.name, want)
  end
  return X
end

-- R^2 = 1 - SS_res / SS_tot over all columns of y (scikit-learn's
-- uniform average for several outputs).
-- (y and pred as the default scores give them; checked for other callers)
local function check_scored(fname, y, pred)
  args.matrix(y, 1, fname, 3)
  args.matrix(pred, 2, fname, 3)
  if y:rows() ~= pred:rows() or y:cols() ~= pred:cols() then
    fail(3, "bad argument #2 to '%s' (y is %d x %d but pred is %d x %d)", fname, y:rows(),
      y:cols(), pred:rows(), pred:cols())
  end
end

local function r2_score(y, pred)
  check_scored("r2_score", y, pred)
  local total = 0
  for j = 1, y:cols() do
    local yj, pj = y:col(j), pred:col(j)
    local ss_res = (yj - pj):pow(2):sum()
    local ss_tot = (yj - yj:mean()):pow(2):sum()
    total = total + (ss_tot > 0 and 1 - ss_res / ss_tot or (ss_res == 0 and 1 or 0))
  end
  return total / y:cols()
end

local function accuracy_score(y, pred)
  check_scored("accuracy_score", y, pred)
  return y:eq(pred):mean()
end

-- The default score of a class without its own, or nil: R^2 for
-- regressors, accuracy for classifiers (both on predict), the mean of
-- score_samples for density models (scikit-learn's average
-- log-likelihood).  Clusterers, transformers and outlier detectors have
-- none: no one number is greater-is-better for all of them.
local function default_score(spec)
  if spec.kind == "regressor" and spec.predict then
    return function(self, X, y) return r2_score(y, self:predict(X)) end
  elseif spec.kind == "classifier" and spec.predict then
    return function(self, X, y) return accuracy_score(y, self:predict(X)) end
  elseif spec.kind == "density" and spec.score_samples then
    return function(self, X) return self:score_samples(X):mean() end
  end
end

-- ---------------------------------------------------- method help records

-- What each method of the contract does, for help(): the summary and the
-- "Returns" sentence, by method name; "%s" is the class's short name.
local METHOD_DOCS = {
  fit = "Fits %s to the rows of X (n x d)%s; refitting starts fresh. Returns the "
    .. "estimator itself.",
  predict = {
    regressor = "Predicts targets for the rows of X. Returns an n x 1 matrix (n x k for "
      .. "k targets).",
    classifier = "Predicts a class label for each row of X. Returns the labels (values of "
      .. "est.classes) in the kind of container fit was given: an n x 1 matrix for a matrix, "
      .. "a list for a list, a Categorical for a categorical column or a one-column Table.",
    clusterer = "Assigns each row of X to a cluster. Returns an n x 1 matrix of cluster "
      .. "labels.",
    outlier = "Tells inliers from outliers. Returns an n x 1 matrix of +1 (inlier) and -1 "
      .. "(outlier).",
    default = "Predicts for the rows of X with the fitted model. Returns an n x 1 matrix.",
  },
  predict_proba = "Class probabilities of each row of X. Returns an n x k matrix whose "
    .. "columns follow est.classes and whose rows sum to 1.",
  predict_log_proba = "Logarithms of the class probabilities of each row of X. Returns "
    .. "an n x k matrix (columns in the order of est.classes).",
  decision_function = "Decision scores of each row of X (positive favours the later "
    .. "class). Returns an n x 1 matrix for two classes, n x k for more.",
  score_samples = "Per-sample scores of the rows of X (log-density for density models; "
    .. "higher means more normal for outlier detectors). Returns an n x 1 matrix.",
  transform = "Transforms the rows of X with what fit learned. Returns a new matrix with "
    .. "one row per row of X.",
  inverse_transform = "Maps transformed rows back to the input space. Returns a matrix "
    .. "with one row per row of X.",
  score = {
    regressor = "The coefficient of determination R^2 of the predictions on X against "
      .. "y. Returns a number, 1 at best (greater is better).",
    classifier = "The accuracy of the predictions on X against the labels y (any container "
      .. "fit takes, compared by value). Returns a number in [0, 1] (greater is better).",
    density = "The mean log-likelihood of the rows of X. Returns a number (greater is "
      .. "better).",
    default = "How well the fitted model explains X (and y). Returns a number, greater "
      .. "is better.",
  },
  fit_predict = "Fits %s to X%s and predicts for the same rows. Returns an n x 1 matrix, "
    .. "as predict.",
  fit_transform = "Fits %s to X%s and transforms the same rows. Returns the transformed "
    .. "matrix, as transform.",
}

-- The parameters after self of a Lua function, or nil where the debug
-- library is not available (a sandboxed state keeps debug.traceback only).
local function parameter_names(fn)
  local getlocal = debug and debug.getlocal
  if not getlocal then return nil end
  local names, i = {}, 2
  while true do
    local name = getlocal(fn, i)
    if not name then return names end
    names[#names + 1] = name
    i = i + 1
  end
end

-- "est:fit(X, y [, sample_weight = nil])": the required arguments, then
-- impl's further parameters as optional ones (nil unless given).
local function method_signature(m, required, impl)
  local names = impl and parameter_names(impl) or required
  local parts, optional = {}, {}
  for i, name in ipairs(names) do
    if i <= #required then parts[#parts + 1] = required[i]
    elseif name == "opts" then optional[#optional + 1] = "[, opts]"
    else optional[#optional + 1] = "[, " .. name .. " = nil]" end
  end
  local list = table.concat(parts, ", ")
  if #optional > 0 then list = list .. (list == "" and "" or " ") .. table.concat(optional, " ") end
  return "est:" .. m .. "(" .. list:gsub("^%[, ", "[") .. ")"
end

-- Documents the methods of a class: spec.method_docs[m] (a record without
-- name) where the class gives one, the contract's text otherwise.  Methods
-- from Base share one record, set once below.
local function document_methods(class, spec, methods)
  local y_text = class.requires_y and " and the targets y (n x 1)" or ""
  if class.kind == "classifier" and class.labels ~= false then
    y_text = " and the labels y (an n x 1 matrix, a list of numbers, strings or booleans, a "
      .. "categorical column or a one-column luma.Table; est.classes keeps them)"
  end
  for m, fn in pairs(methods) do
    local own = spec.method_docs and spec.method_docs[m]
    local text = METHOD_DOCS[m]
    if own then
      local record = { name = class.name .. "." .. m }
      for k, v in pairs(own) do record[k] = v end
      luma.doc.set(fn, record)
    elseif text and type(fn) == "function" and Base[m] ~= fn then
      if type(text) == "table" then text = text[spec.kind] or text.default end
      local required = { "X" }
      if (m == "fit" or m == "fit_predict" or m == "fit_transform" or m == "score")
        and class.requires_y then
        required[2] = "y"
      end
      local impl = spec[m]
      if m == "fit_predict" or m == "fit_transform" then impl = spec[m] or spec.fit end
      luma.doc.set(fn, { name = class.name .. "." .. m,
        signature = method_signature(m, required, impl),
        doc = text:format(class.short_name, y_text) })
    end
  end
end

-- ------------------------------------------------------------ the class

local function param_signature(class)
  local parts = {}
  for _, name in ipairs(class.param_names) do
    parts[#parts + 1] = name .. " = " .. describe(class.schema[name].default)
  end
  return class.short_name .. "{" .. table.concat(parts, ", ") .. "}"
end

local function instance_tostring(self)
  check_self(self, "__tostring")
  local parts = {}
  for _, name in ipairs(self.__class.param_names) do
    local v = self.params[name]
    if not same_value(v, self.__class.schema[name].default) then
      parts[#parts + 1] = name .. "=" .. describe(v)
    end
  end
  return self.__class.short_name .. "(" .. table.concat(parts, ", ") .. ")"
end

--- estimator.class(spec) -> Class.
-- spec: name (qualified, "luma.linear.Ridge"), kind ("regressor",
-- "classifier", "transformer", "clusterer", "density", "outlier" or
-- "meta"; an outlier detector's predict gives +1 for inliers and -1 for
-- outliers, as a column), doc, params (a list of {name, type, default,
-- min, max, gt, lt, values, nan_ok, check, expect, doc}; type is one of
-- number, integer, boolean, string, function, table, matrix, estimator,
-- seed, any, or alternatives joined by '|'; check(v) -> boolean validates
-- what the others cannot say, such as a table's contents, and expect is
-- then the text of what it accepts, for messages and help), and the
-- methods: fit(self, X, y, ...)
-- (required; y is nil when the caller gave none) and any of predict,
-- predict_proba, predict_log_proba, decision_function, score_samples,
-- transform, inverse_transform, score, fit_predict, fit_transform (these
-- two replace the defaults, fit then predict / transform, and get fit's
-- checks and bookkeeping), plus other functions, which are kept as they
-- are.  requires_y (default true for regressors and classifiers): whether
-- fit and score need y;
-- version (default 1): raise it when the saved state changes meaning;
-- example: function(base) -> est, X, y, a small fitted-able instance for
-- the save/load test that walks every luma.* class (meta estimators wrap
-- the base estimator the test hands them);
-- check_state: function(self), called by luma.load on a fitted instance
-- it restored (fields already checked: __fitted, n_features_in,
-- n_features_out, feature_names_in): raises, with estimator.check_fields
-- or error(message, 0), when a fitted field is not what the methods need,
-- so that a forged file fails to load instead of failing inside a method;
-- sparse = true: fit and the fitted methods take a luma.sparse matrix as
-- X (other classes refuse one with a message naming the class);
-- labels = false: a classifier whose y is not one column of class labels
-- (a 0/1 matrix of several labels), which takes y as a numeric matrix
-- only (docs/ESTIMATORS.md, "Class labels").
function estimator.class(spec)
  assert(type(spec) == "table", "estimator.class expects a spec table")
  assert(type(spec.name) == "string", "spec.name (the qualified class name) is required")
  assert(KINDS[spec.kind], "spec.kind must be regressor, classifier, transformer, "
    .. "clusterer, density, outlier or meta")
  assert(type(spec.fit) == "function", "spec.fit is required")
  local schema, names = compile_schema(spec)
  local class = {
    name = spec.name,
    short_name = spec.name:match("([^%.]+)$"),
    kind = spec.kind,
    version = spec.version or 1,
    example = spec.example,
    schema = schema,
    param_names = names,
    requires_y = spec.requires_y,
    input = spec.input,
    sparse = spec.sparse,
    check_state = spec.check_state,
    labels = spec.labels,
  }
  assert(spec.labels == nil or spec.labels == false,
    "spec.labels is false (y is not one column of class labels) or nil")
  assert(spec.input == nil or spec.input == "table" or spec.input == "any",
    "spec.input must be nil, \"table\" or \"any\"")
  if class.requires_y == nil then
    class.requires_y = spec.kind == "regressor" or spec.kind == "classifier"
  end
  local methods = {}
  for k, v in pairs(Base) do methods[k] = v end
  for k, v in pairs(spec) do
    if type(v) == "function" and k ~= "fit" and k ~= "example" and k ~= "check_state" then
      methods[k] = v
    end
  end
  methods.fit = fitting(class, "fit", spec.fit, itself)
  for _, m in ipairs(FITTED_METHODS) do
    local impl = spec[m]
    if m == "score" and impl == nil then impl = default_score(spec) end
    if impl then
      methods[m] = function(self, X, ...)
        X = check_fitted_input(self, m, X)
        if m == "score" then
          local y
          X, y = check_data(class, "score", X, (...), self)
          local D = rawget(self, "__labels")
          if D and not inside[self] then
            return labelled_call(self, D, m, impl, X, y, select(2, ...))
          end
          return impl(self, X, y, select(2, ...))
        end
        local D = rawget(self, "__labels")
        if D and not inside[self] then return labelled_call(self, D, m, impl, X, ...) end
        return impl(self, X, ...)
      end
    end
  end
  -- A classifier's own further methods (staged_predict, apply, ...) run
  -- inside the label swap too; those taking y read it against the fitted
  -- labels.
  if spec.kind == "classifier" then
    for name, fn in pairs(spec) do
      if type(fn) == "function" and methods[name] == fn and name ~= "example" then
        methods[name] = function(self, ...)
          local D = rawget(self, "__labels")
          if not D or inside[self] then return fn(self, ...) end
          if Y_ARGUMENT[name] and select("#", ...) >= 2 then
            local X, y = ...
            return labelled_call(self, D, name, fn, X, fitted_targets(self, name, y, 2, 2),
              select(3, ...))
          end
          return labelled_call(self, D, name, fn, ...)
        end
        local record = luma.doc.get(fn)
        if record then luma.doc.set(methods[name], record) end
      end
    end
  end
  if spec.one_to_one_features and not spec.get_feature_names_out then
    methods.get_feature_names_out = estimator.same_names_out
  end
  if spec.fit_transform then
    methods.fit_transform = fitting(class, "fit_transform", spec.fit_transform)
  elseif methods.transform then
    methods.fit_transform = fitting(class, "fit_transform", spec.fit, methods.transform)
  end
  if spec.fit_predict then
    methods.fit_predict = fitting(class, "fit_predict", spec.fit_predict)
  elseif methods.predict and FIT_PREDICT_KINDS[spec.kind] then
    methods.fit_predict = fitting(class, "fit_predict", spec.fit, methods.predict)
  end
  -- Every method of the class but the shared ones (which check for
  -- themselves) refuses a self that is not an instance of the class:
  -- est.fit(X, y) for est:fit(X, y) is "bad self to 'fit' (<class>
  -- expected, got luma.Matrix)" at the caller's line.  Instances are
  -- recognized by their metatable's name (a test runner that reloads a
  -- module makes a second copy of its classes).
  local named = args.is_named(spec.name)
  class.is_instance = function(v) return named(v) and is_estimator(v) end
  -- Their errors located in the library are raised again at the caller's
  -- line (a class's method may raise for its own caller, or from a shared
  -- helper at any depth), Lua runtime errors apart.
  args.wrap_methods(methods, spec.name, class.is_instance, function(m, fn) return Base[m] == fn end,
    function() return true end)
  class.methods = methods
  document_methods(class, spec, methods)

  -- Instances use this metatable; __index reaches the methods (__methods
  -- shows them to completion and help), and answers scikit-learn's
  -- spelling of a fitted attribute absent from the instance (coef_,
  -- best_params_) with an error naming Luma's (coef, best_params).
  class.meta = {
    __index = function(_, key)
      local method = methods[key]
      if method == nil then args.trailing_underscore(spec.name, key, 2) end
      return method
    end,
    __methods = methods,
    __name = spec.name,
    __tostring = instance_tostring,
    __estimator = true,
  }
  methods.__class = class

  setmetatable(class, {
    __call = function(_, params)
      if params ~= nil and type(params) ~= "table" then
        fail(2, "%s: parameters must be given as a table, got %s", spec.name, type(params))
      end
      local self = setmetatable({ params = {} }, class.meta)
      for _, name in ipairs(names) do self.params[name] = copy_value(schema[name].default) end
      for name, value in pairs(params or {}) do
        if type(name) ~= "string" then
          fail(2, "%s: parameter names must be strings, got %s", spec.name, describe(name))
        end
        set_param(self, name, value, 3)
      end
      return self
    end,
    __tostring = function() return spec.name end,
  })

  local record = {
    name = spec.name,
    signature = param_signature(class),
    doc = spec.doc,
    params = {},
  }
  for _, name in ipairs(names) do
    local p = schema[name]
    record.params[#record.params + 1] = { name = name, type = expectation(p):gsub("^a ", ""),
      default = p.default, doc = p.doc }
  end
  luma.doc.set(class, record)
  luma.doc.set(class.meta, record) -- help(instance) finds its metatable's record
  estimator.classes[spec.name] = class
  return class
end

-- -------------------------------------------------------------- helpers

--- estimator.encode_labels(y) -> codes, classes: y's labels as codes
-- 1..k (a column) and the sorted distinct labels: a k x 1 matrix for
-- numbers (a matrix's first column), a list for strings or booleans (y a
-- Lua list, a Categorical or a one-column luma.Table).
function estimator.encode_labels(y)
  if luma.ismatrix(y) then
    args.arg(y:cols() >= 1, 1, "encode_labels", "luma.Matrix with a column", y, 2)
    local classes, _, codes = y:col(1):unique{ inverse = true }
    return codes, classes
  end
  return labels.encode(labels.read(y, { fname = "encode_labels", argn = 1 }, 2))
end

--- estimator.decode_labels(codes, classes) -> labels: the inverse, a
-- column for a matrix of classes, a list for a list.
function estimator.decode_labels(codes, classes)
  args.matrix(codes, 1, "decode_labels", 2)
  if luma.ismatrix(classes) then
    local decoded = args.relay(2, function() return classes:take(codes) end)
    return decoded
  end
  args.arg(type(classes) == "table" and getmetatable(classes) == nil, 2, "decode_labels",
    "luma.Matrix or list of labels", classes, 2)
  local out, k = {}, #classes
  for i = 1, codes:rows() * codes:cols() do
    local c = math.tointeger(codes:get(i, 1))
    if not c or c < 1 or c > k then
      fail(2, "bad argument #1 to 'decode_labels' (code %s in row %d is not in 1..%d)",
        tostring(codes:get(i, 1)), i, k)
    end
    out[i] = classes[c]
  end
  return out
end

--- estimator.check_sample_weight(X, w) -> w: checks fit's optional third
-- argument, per-sample weights (nil stays nil): an n x 1 matrix of finite
-- values >= 0 with a positive sum.  Errors read as fit's argument errors
-- (raised at the class's fit, which the contract's fit relays to its
-- caller).
function estimator.check_sample_weight(X, w)
  if w == nil then return nil end
  if not luma.sparse.issparse(X) then args.matrix(X, 1, "check_sample_weight", 2) end
  if not luma.ismatrix(w) then
    fail(2, "bad argument #3 to 'fit' (sample_weight must be a luma.Matrix, got %s)", type(w))
  end
  if w:rows() ~= X:rows() or w:cols() ~= 1 then
    fail(2, "bad argument #3 to 'fit' (sample_weight must be %d x 1, got %d x %d)", X:rows(),
      w:rows(), w:cols())
  end
  if not w:isfinite():all() or w:min() < 0 then
    fail(2, "bad argument #3 to 'fit' (sample_weight must be finite and >= 0)")
  end
  if not (w:sum() > 0) then fail(2, "bad argument #3 to 'fit' (sample_weight sums to 0)") end
  return w
end

--- estimator.rng(seed) -> a generator for one fit: a new Generator(seed)
-- for an integer, a copy of a Generator (which itself is never advanced,
-- so fitting twice gives the same model), the default generator for nil.
function estimator.rng(seed)
  if seed == nil then return luma.random.default() end
  if math.type(seed) == "integer" then return luma.random.Generator(seed) end
  args.arg(is_generator(seed), 1, "rng", "integer, luma.Generator or nil", seed, 2)
  return seed:copy()
end

--- estimator.check_input(est, method, X) -> X: the contract's checks of a
-- fitted estimator's input, for a class's own methods (call it directly
-- from the method; errors blame the method's caller): fitted, X a matrix
-- (or a Table, its columns picked by name) with the fitted columns.
function estimator.check_input(self, method, X)
  args.arg(is_estimator(self), 1, "check_input", "estimator", self, 2)
  args.arg(type(method) == "string", 2, "check_input", "string", method, 2)
  return check_fitted_input(self, method, X)
end

-- One kind of check_fields: a value of that kind?
local function of_kind(v, kind)
  if kind == "matrix" then return luma.ismatrix(v) end
  if kind == "integer" then return math.type(v) == "integer" end
  if kind == "estimator" then return is_estimator(v) end
  if kind == "table" then return type(v) == "table" and getmetatable(v) == nil end
  if kind:find(".", 1, true) then return args.type_of(v) == kind end -- a named type
  return type(v) == kind
end

--- estimator.check_fields(est, kinds): for a class's check_state: each
-- kinds[name] says what the fitted field name must be -- "matrix",
-- "number", "integer", "string", "boolean", "table" (a plain one),
-- "estimator" or a type name ("luma.Table"), alternatives joined by "|",
-- and "?" in front when the field may be absent -- else an error naming
-- the first field (in name order) that is not.
function estimator.check_fields(self, kinds)
  args.arg(is_estimator(self), 1, "check_fields", "estimator", self, 2)
  args.arg(type(kinds) == "table", 2, "check_fields", "table", kinds, 2)
  local names = {}
  for name, kind in pairs(kinds) do
    if type(name) ~= "string" or type(kind) ~= "string" then
      fail(2, "bad argument #2 to 'check_fields' (a table of field name = kind strings expected)")
    end
    names[#names + 1] = name
  end
  table.sort(names)
  for _, name in ipairs(names) do
    local kind, v = kinds[name], rawget(self, name)
    local optional = kind:sub(1, 1) == "?"
    local ok = v == nil and optional
    for alternative in kind:gsub("^%?", ""):gmatch("[^|]+") do
      ok = ok or of_kind(v, alternative)
    end
    if not ok then
      error(string.format("fitted field %s is %s, not %s", name,
        v == nil and "missing" or "a " .. args.type_of(v), kind:gsub("^%?", "")), 0)
    end
  end
end

--- estimator.set_method(class, name, fn) -> the method: adds or replaces
-- a method of a class after estimator.class made it, behind the same
-- check of self as the class's own methods (and with fn's help record).
function estimator.set_method(class, name, fn)
  args.arg(type(class) == "table" and type(class.is_instance) == "function", 1, "set_method",
    "estimator class", class, 2)
  args.arg(type(name) == "string", 2, "set_method", "string", name, 2)
  args.arg(type(fn) == "function", 3, "set_method", "function", fn, 2)
  local method = args.method(fn, name, class.name, class.is_instance, true)
  local record = luma.doc.get(fn)
  if record then luma.doc.set(method, record) end
  class.methods[name] = method
  return method
end

--- estimator.set_params: the schema-validated set_params, for classes
-- that override set_params and hand their own parameters back to it.
estimator.set_params = Base.set_params

estimator.r2_score = r2_score
estimator.accuracy_score = accuracy_score

-- One record for each method every estimator shares.
-- estimator.class's checks of the spec (asserts, at any depth) blame its
-- caller.
estimator.class = args.relayed(estimator.class)

luma.doc.set_members(Base, "luma.estimator.Base", {
  get_params = { signature = "est:get_params([deep = true])",
    doc = "The estimator's parameters. With deep, nested estimators' parameters are "
      .. "included as \"name__param\". Returns a new table of name = value." },
  set_params = { signature = "est:set_params(values)",
    doc = "Validates and sets parameters, nested ones as \"step__param\"; fitted state "
      .. "is kept until the next fit. Returns est." },
  clone = { signature = "est:clone()",
    doc = "An unfitted copy with copies of est's parameters (nested estimators cloned). "
      .. "Returns the new estimator." },
  kind_of = { signature = "est:kind_of()",
    doc = "The kind of estimator (composites report the kind they end in). Returns "
      .. "\"regressor\", \"classifier\", \"transformer\", \"clusterer\", \"density\", "
      .. "\"outlier\" or \"meta\"." },
  is_fitted = { signature = "est:is_fitted()",
    doc = "Whether fit has succeeded. Returns a boolean." },
})

luma.doc.set_members(estimator, "luma.estimator", {
  class = { signature = "class(spec)",
    doc = "Makes an estimator class from spec: name, kind, doc, params (the schema), fit "
      .. "and any of predict, predict_proba, transform, score, ...; method_docs (records of "
      .. "the class's own methods, keyed by name), example and check_state (checks of the "
      .. "fitted fields a loaded instance holds) are optional. Returns the "
      .. "class, callable as Class{param = value, ...}. See docs/ESTIMATORS.md." },
  is_estimator = { signature = "is_estimator(v)",
    doc = "Whether v is an estimator instance. Returns a boolean." },
  copy_value = { signature = "copy_value(v)",
    doc = "The copy clone() makes of a parameter value: estimators cloned, matrices and "
      .. "plain tables copied, generators and functions shared. Returns the copy." },
  encode_labels = { signature = "encode_labels(y)",
    doc = "Codes y's labels as 1..k in sorted order; y is a matrix column, a Lua list of "
      .. "numbers, strings or booleans, a Categorical or a one-column luma.Table. Returns the "
      .. "codes (an n x 1 matrix) and the sorted distinct labels (a k x 1 matrix for numbers, "
      .. "a list otherwise)." },
  decode_labels = { signature = "decode_labels(codes, classes)",
    doc = "The inverse of encode_labels. Returns the labels: an n x 1 matrix for a matrix of "
      .. "classes, a list for a list." },
  check_sample_weight = { signature = "check_sample_weight(X, w)",
    doc = "Checks fit's optional per-sample weights (an n x 1 matrix of finite values >= 0 "
      .. "with a positive sum); errors read as fit's. Returns w (nil stays nil)." },
  same_names_out = { signature = "est:get_feature_names_out([input_features = nil])",
    doc = "The names of the output columns of a transformer that maps each input column "
      .. "to one output column: its input names (feature_names_in after a fit on a "
      .. "luma.Table, else input_features, else \"x1\" .. \"xd\"). Returns a list of "
      .. "strings.",
    params = { { name = "input_features", type = "table", default = nil,
      doc = "the input names, one per column (checked against feature_names_in)" } } },
  input_names = { signature = "input_names(est [, input_features = nil])",
    doc = "The names of the columns est was fitted on: input_features (checked), else "
      .. "feature_names_in, else \"x1\" .. \"xd\". Returns a list of strings." },
  check_input = { signature = "check_input(est, method, X)",
    doc = "The contract's checks of a fitted estimator's input X for a class's own method "
      .. "(fitted, a matrix or Table with the fitted columns); errors blame the method's "
      .. "caller. Returns X as the class takes it." },
  check_fields = { signature = "check_fields(est, kinds)",
    doc = "For a class's check_state (what luma.load runs on a fitted instance it "
      .. "restored): each kinds[name] is what the fitted field must be, \"matrix\", "
      .. "\"number\", \"integer\", \"string\", \"boolean\", \"table\", \"estimator\" or a type "
      .. "name, alternatives joined by \"|\", \"?\" in front when it may be absent; raises "
      .. "naming the first field that is not. Returns nothing." },
  set_method = { signature = "set_method(class, name, fn)",
    doc = "Adds or replaces the method name of an estimator class made by class(), behind "
      .. "the class's check of self. Returns the installed method." },
  rng = { signature = "rng(seed)",
    doc = "The generator one fit uses: a new Generator(seed) for an integer, a copy of a "
      .. "Generator, the default generator for nil. Returns a luma.Generator." },
  r2_score = { signature = "r2_score(y, pred)",
    doc = "R^2 averaged over the columns of y (regressors' default score). Returns a "
      .. "number, 1 at best." },
  accuracy_score = { signature = "accuracy_score(y, pred)",
    doc = "The fraction of equal entries (classifiers' default score). Returns a number "
      .. "in [0, 1]." },
})

luma.doc.set_members(tables, "luma.estimator.tables", {
  is_table = { signature = "is_table(v)", doc = "Whether v is a luma.Table. Returns a boolean." },
  is_categorical = { signature = "is_categorical(T, name)",
    doc = "Whether the column name of the Table T holds categories (strings). Returns a "
      .. "boolean." },
})
luma.doc.set(tables, { name = "luma.estimator.tables",
  doc = "How estimators read a luma.Table: is_table, is_categorical." })

-- luma.save / luma.load of a classifier's labels (docs/FORMAT.md): a type
-- of its own, so that a Luma that predates it refuses such a file (an
-- unknown type) rather than reading codes as labels.  Loading checks the
-- record: a hostile file must not make predict fail inside the library.
local LABEL_TYPES = { number = "number", string = "string", boolean = "boolean" }
require("luma.persist").register("luma.Labels", {
  test = is_labels,
  save = function(D)
    return { kind = D.kind, type = D.type, classes = D.classes, categories = D.categories,
      codes = D.codes, integers = D.integers }
  end,
  load = function(p)
    local function bad(what) error("luma.load: corrupted luma.Labels (" .. what .. ")", 0) end
    if p.kind ~= "list" and p.kind ~= "categorical" then bad("kind") end
    if not LABEL_TYPES[p.type] then bad("type") end
    if p.type ~= "number" then
      if type(p.classes) ~= "table" then bad("classes") end
      for i = 1, #p.classes do
        if type(p.classes[i]) ~= p.type then bad("classes") end
      end
      if p.codes ~= nil and not luma.ismatrix(p.codes) then bad("codes") end
    end
    if p.kind == "categorical" then
      if type(p.categories) ~= "table" then bad("categories") end
      for i = 1, #p.categories do
        if type(p.categories[i]) ~= "string" then bad("categories") end
      end
    end
    return setmetatable({ kind = p.kind, type = p.type, classes = p.classes,
      categories = p.categories, codes = p.codes, integers = p.integers == true }, LABELS_MT)
  end,
})

luma.doc.set(estimator, { name = "luma.estimator",
  doc = "The estimator contract: estimator.class(spec) builds an estimator class from a "
    .. "parameter schema and fit/predict functions; see docs/ESTIMATORS.md." })

return estimator
