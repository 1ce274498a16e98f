--- luma.persist: luma.save / luma.load for matrices, estimators,
-- pipelines, search results, generators and plain tables of those.
--
-- Objects become plain tables tagged with their type name and type
-- version ({__luma_type = "luma.pipeline.Pipeline", __luma_version = 1,
-- ...}) that luma.serial writes in the binary format of docs/FORMAT.md.
-- Loading revives a tag only through a registered loader (an estimator
-- class, or persist.register): the file chooses among known types and
-- never supplies code.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local serial = require("luma.serial")

-- luma.estimator is looked up at each use, not captured: where modules are
-- loaded more than once (test runners that insulate files), the classes a
-- program defines live in the instance it required.
local function estimator() return require("luma.estimator") end

local persist = {}

local TYPE, VERSION = "__luma_type", "__luma_version"

-- name -> {version, save = fn(obj) -> table, load = fn(table, version) -> obj, test = fn}.
-- It lives on the luma table, so every instance of this module (test
-- runners that insulate files load it more than once) knows the types
-- any instance was told about: luma.save and luma.persist agree.
local registry = rawget(luma, "__persist_types")
if registry == nil then
  registry = {}
  rawset(luma, "__persist_types", registry)
end

local fail = args.fail

--- persist.register(name, {version = 1, test = fn(v) -> bool,
-- save = fn(obj) -> plain table, load = fn(table, version) -> obj}):
-- makes a type savable.  Estimator classes need no registration.
function persist.register(name, handler)
  if type(name) ~= "string" then
    fail(2, "bad argument #1 to 'register' (type name expected, got %s)", type(name))
  end
  if type(handler) ~= "table" or type(handler.save) ~= "function"
    or type(handler.load) ~= "function" or type(handler.test) ~= "function" then
    fail(2, "bad argument #2 to 'register' (a handler {test, save, load} of functions expected, "
      .. "got %s)", type(handler))
  end
  handler.version = handler.version or 1
  registry[name] = handler
end

local to_plain

-- Estimators: parameters (shallow, nested estimators kept whole) and every
-- fitted field.
local function estimator_to_plain(est, path, seen)
  local out = { [TYPE] = est.__class.name, [VERSION] = est.__class.version or 1,
                params = {}, state = {} }
  for _, name in ipairs(est.__class.param_names) do
    local v = est.params[name]
    if type(v) == "function" then
      fail(1, "luma.save: %s parameter '%s' is a function and cannot be saved",
        est.__class.name, name)
    end
    out.params[name] = to_plain(v, path .. ".params." .. name, seen)
  end
  for k, v in pairs(est) do
    if k ~= "params" then out.state[k] = to_plain(v, path .. "." .. tostring(k), seen) end
  end
  return out
end

-- Sparse matrices are plain values of the binary format (tag 9), like
-- dense ones; told apart by their metatable's name so that saving does
-- not load luma.sparse.
local function is_sparse(v)
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__name") == "luma.SparseMatrix"
end

to_plain = function(v, path, seen)
  local t = type(v)
  if t == "nil" or t == "boolean" or t == "number" or t == "string" or luma.ismatrix(v)
    or (t == "userdata" and is_sparse(v)) then
    return v
  end
  if estimator().is_estimator(v) then return estimator_to_plain(v, path, seen) end
  for name, handler in pairs(registry) do
    if handler.test(v) then
      local out = to_plain(handler.save(v), path, seen)
      out[TYPE], out[VERSION] = name, handler.version
      return out
    end
  end
  if t == "table" and getmetatable(v) == nil then
    if seen[v] then fail(1, "luma.save: %s contains itself (a cycle)", path) end
    seen[v] = true
    local out = {}
    for k, x in pairs(v) do out[k] = to_plain(x, path .. "." .. tostring(k), seen) end
    seen[v] = nil
    return out
  end
  fail(1, "luma.save: %s is a %s and cannot be saved", path, t)
end

local from_plain

-- Types registered by a module of Luma's own that may not be loaded yet
-- when a file holding them is read: type name -> module.
local LAZY_TYPES = { ["luma.Table"] = "luma.Table", ["luma.Categorical"] = "luma.Table",
  ["luma.Labels"] = "luma.estimator" }

-- The class of a saved estimator: already defined, or one of Luma's own
-- modules that defines it (loaded only from the embedded modules).
local function find_class(name)
  local class = estimator().classes[name]
  if class then return class end
  local module = name:match("^(luma%.[%w_]+)%.[%w_]+$")
  local preload = package and package.preload
  if module and preload and preload[module] then
    require(module)
    return estimator().classes[name]
  end
end

-- The message of a loader's error about the value it was handed -- a
-- constructor or check refusing it, without the location inside the
-- library -- or nil for errors that must pass unchanged: a stop, a Lua
-- runtime error (a bug: it keeps its location), a non-string error, and
-- a nested value's own luma.load error.
local function refusal(err)
  if type(err) ~= "string" or args.is_stop(err) or err:find("^luma%.load: ") then return nil end
  local inner = err:match("^lua/luma/[%w_/]+%.lua:%d+: (.*)$") or err
  if args.is_runtime_error(inner) then return nil end
  return inner
end

local function invalid(what, name, fmt, ...)
  error(string.format("luma.load: %s holds an invalid %s (%s)", what, name,
    string.format(fmt, ...)), 0)
end

-- fn(...) for a value of type name read from what: an error about the
-- value becomes "luma.load: <what> holds an invalid <name> (<why>)".
local function revive(what, name, fn, ...)
  local ok, r = pcall(fn, ...)
  if ok then return r end
  local why = refusal(r)
  if why == nil then error(r, 0) end
  invalid(what, name, "%s", why)
end

-- The version tag of a saved value: 1 when absent.
local function version_of(v, what, name)
  local version = v[VERSION]
  if version == nil then return 1 end
  if math.type(version) ~= "integer" or version < 1 then
    invalid(what, name, "its version tag is %s, not an integer >= 1", tostring(version))
  end
  return version
end

-- The most columns a matrix has: what n_features_in may be.
local MAX_DIM = 2147483647

-- The fields every fitted estimator may hold for the contract
-- (luma.estimator): checked here, so that no method trips on them.
local function check_contract_fields(est, what, name)
  local fitted = rawget(est, "__fitted")
  if fitted ~= nil and fitted ~= true then
    invalid(what, name, "__fitted is %s, not true", tostring(fitted))
  end
  for _, field in ipairs({ "n_features_in", "n_features_out" }) do
    local d = rawget(est, field)
    if d ~= nil and (math.type(d) ~= "integer" or d < 0 or d > MAX_DIM) then
      invalid(what, name, "%s is %s, not a column count", field, tostring(d))
    end
  end
  local names = rawget(est, "feature_names_in")
  if names ~= nil then
    local d = rawget(est, "n_features_in")
    if type(names) ~= "table" or (d and #names ~= d) then
      invalid(what, name, "feature_names_in must be a list of %s column names",
        d and tostring(d) or "the")
    end
    for j = 1, #names do
      if type(names[j]) ~= "string" then
        invalid(what, name, "feature_names_in[%d] is a %s, not a string", j, type(names[j]))
      end
    end
  end
end

-- The contract's own fields among an estimator's fitted fields
-- (estimator.lua): fitted, fitted on a luma.Table (for the feature-names
-- warning), and the labels of a classifier fitted on text labels (a
-- luma.Labels, checked by its own decoder).
local CONTRACT_FLAGS = { __fitted = true, __table_fit = true, __labels = true }
local ESTIMATOR_FIELDS = { [TYPE] = true, [VERSION] = true, params = true, state = true }

local function estimator_from_plain(t, what)
  local name = t[TYPE]
  local class = find_class(name)
  if class == nil then
    error(string.format("luma.load: unknown estimator type '%s' (define its class before "
      .. "loading)", name), 0)
  end
  local version = version_of(t, what, name)
  if version > (class.version or 1) then
    error(string.format("luma.load: %s was saved by a newer version of its class (%d > %d)",
      name, version, class.version or 1), 0)
  end
  for k, v in pairs(t) do
    if not ESTIMATOR_FIELDS[k] then invalid(what, name, "unexpected field %s", tostring(k)) end
    if k == "params" or k == "state" then
      if type(v) ~= "table" or luma.ismatrix(v) or v[TYPE] ~= nil then
        invalid(what, name, "%s is a %s, not a table of fields", k, args.type_of(v))
      end
    end
  end
  local params = {}
  for k, v in pairs(t.params or {}) do params[k] = from_plain(v, what) end
  local est = revive(what, name, class, params)
  for k, v in pairs(t.state or {}) do
    if type(k) ~= "string" then
      invalid(what, name, "a fitted field's name is a %s", type(k))
    end
    if k == "params" or (k:sub(1, 2) == "__" and not CONTRACT_FLAGS[k]) then
      invalid(what, name, "'%s' cannot be a fitted field", k)
    end
    if k == "__table_fit" and type(v) ~= "boolean" then
      invalid(what, name, "'%s' is a %s, not a boolean", k, args.type_of(v))
    end
    rawset(est, k, from_plain(v, what))
  end
  check_contract_fields(est, what, name)
  -- the class's own checks of its fitted fields (estimator.class's
  -- check_state), which raise what is wrong
  if class.check_state and rawget(est, "__fitted") then
    -- a classifier fitted on text labels keeps them as its classes; its
    -- own checks, like its methods, see the class's coded classes
    local D, shown = rawget(est, "__labels"), rawget(est, "classes")
    if type(D) == "table" and D.type ~= "number" and luma.ismatrix(D.codes) then
      rawset(est, "classes", D.codes)
    end
    revive(what, name, class.check_state, est)
    rawset(est, "classes", shown)
  end
  return est
end

from_plain = function(v, what)
  if type(v) ~= "table" then return v end
  local name = v[TYPE]
  if name ~= nil then
    if type(name) ~= "string" then error("luma.load: a type tag is not a string", 0) end
    local handler = registry[name]
    if handler == nil and LAZY_TYPES[name] then
      require(LAZY_TYPES[name]) -- registers the type
      handler = registry[name]
    end
    if handler then
      local version = version_of(v, what, name)
      if version > handler.version then
        error(string.format("luma.load: %s was saved by a newer version (%d > %d)", name,
          version, handler.version), 0)
      end
      local plain = {}
      for k, x in pairs(v) do
        if k ~= TYPE and k ~= VERSION then plain[k] = from_plain(x, what) end
      end
      return revive(what, name, handler.load, plain, version)
    end
    return estimator_from_plain(v, what)
  end
  local out = {}
  for k, x in pairs(v) do out[k] = from_plain(x, what) end
  return out
end

--- persist.encode(obj) / persist.decode(bytes): the same as save/load,
-- to and from a string (for pipes between processes).
-- (to_plain's errors, raised at any depth of the value, are raised again
-- at the caller's line)
function persist.encode(obj)
  return serial.encode(args.relay(2, to_plain, obj, "value", {}))
end

function persist.decode(bytes, what)
  if type(bytes) ~= "string" then
    fail(2, "bad argument #1 to 'decode' (string expected, got %s)", type(bytes))
  end
  local plain = args.relay(2, serial.decode, bytes, what) -- a corrupt string blames the caller
  return from_plain(plain, what or "the string")
end

--- persist.save(obj, path): writes obj atomically (a crash mid-save leaves
-- the previous file intact).
function persist.save(obj, path)
  if type(path) ~= "string" then
    fail(2, "bad argument #2 to 'save' (a file name expected, got %s)", type(path))
  end
  serial.write(path, serial.encode(args.relay(2, to_plain, obj, "value", {})))
end

--- persist.load(path) -> obj
function persist.load(path)
  if type(path) ~= "string" then
    fail(2, "bad argument #1 to 'load' (a file name expected, got %s)", type(path))
  end
  local plain = args.relay(2, serial.read, path) -- a missing or corrupt file blames the caller
  return from_plain(plain, path)
end

persist.register("luma.Generator", {
  test = function(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") == "luma.Generator"
  end,
  save = function(g) return { state = g:state() } end,
  load = function(t) return luma.random.Generator(0):set_state(t.state) end,
})

-- A search's results as a search makes them (model_selection/search.lua):
-- primary and scorers name the scores; rows 1..n hold params and numbers,
-- among them mean_test_<s>, std_test_<s> and rank_test_<s> (1..n) for
-- each scorer s, and mean_fit_time, which printing and refitting read.
local function check_results(t)
  local function refuse(fmt, ...) error(string.format(fmt, ...), 0) end
  local primary, scorers = t.primary, t.scorers
  if type(primary) ~= "string" then refuse("primary is a %s, not a scorer name", type(primary)) end
  if type(scorers) ~= "table" or getmetatable(scorers) ~= nil or #scorers == 0 then
    refuse("scorers must be a list of scorer names")
  end
  local listed = false
  for i = 1, #scorers do
    if type(scorers[i]) ~= "string" then refuse("scorer %d is a %s, not a name", i, type(scorers[i])) end
    listed = listed or scorers[i] == primary
  end
  if not listed then refuse("primary '%s' is not among the scorers", primary) end
  local n = #t
  for k in pairs(t) do
    if k ~= "primary" and k ~= "scorers" and (math.type(k) ~= "integer" or k < 1 or k > n) then
      refuse("unexpected field %s", tostring(k))
    end
  end
  for c = 1, n do
    local row = t[c]
    if type(row) ~= "table" or getmetatable(row) ~= nil then
      refuse("row %d is a %s, not a table", c, args.type_of(row))
    end
    -- searches before the calling conventions (issue 14) wrote mean_<s>,
    -- std_<s> and rank_<s>: read under scikit-learn's names
    for _, s in ipairs(scorers) do
      if row["mean_test_" .. s] == nil and row["mean_" .. s] ~= nil then
        for _, stat in ipairs({ "mean_", "std_", "rank_" }) do
          row[stat .. "test_" .. s], row[stat .. s] = row[stat .. s], nil
        end
      end
    end
    if type(row.params) ~= "table" or getmetatable(row.params) ~= nil then
      refuse("row %d has no params table", c)
    end
    for key, value in pairs(row) do
      if key ~= "params" and (type(key) ~= "string" or type(value) ~= "number") then
        refuse("row %d: %s is a %s, not a number", c, tostring(key), type(value))
      end
    end
    local needed = { "mean_fit_time" }
    for _, s in ipairs(scorers) do
      needed[#needed + 1] = "mean_test_" .. s
      needed[#needed + 1] = "std_test_" .. s
    end
    for _, key in ipairs(needed) do
      if row[key] == nil then refuse("row %d has no %s", c, key) end
    end
    for _, s in ipairs(scorers) do
      local rank = row["rank_test_" .. s]
      if math.type(rank) ~= "integer" or rank < 1 or rank > n then
        refuse("row %d: rank_test_%s is %s, not a rank in 1..%d", c, s, tostring(rank), n)
      end
    end
  end
  return setmetatable(t, require("luma.model_selection").Results)
end

persist.register("luma.model_selection.Results", {
  test = function(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") == "luma.model_selection.Results"
  end,
  save = function(r)
    local t = {}
    for k, v in pairs(r) do t[k] = v end
    return t
  end,
  load = check_results,
})

persist.register("luma.model_selection.Sampler", {
  test = function(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") == "luma.model_selection.Sampler"
  end,
  save = function(s) return { kind = s.kind, lo = s.lo, hi = s.hi } end,
  load = function(t)
    local ms = require("luma.model_selection")
    if t.kind ~= "uniform" and t.kind ~= "log_uniform" and t.kind ~= "randint" then
      error("unknown sampler kind '" .. tostring(t.kind) .. "'", 0)
    end
    return ms[t.kind](t.lo, t.hi)
  end,
})

luma.doc.set_members(persist, "luma.persist", {
  register = { signature = "register(name, handler) -> nothing",
    doc = "Makes values of another type savable: handler = {version = 1, test = fn(v) -> "
      .. "boolean, save = fn(obj) -> plain table, load = fn(table, version) -> obj}, name the "
      .. "type's name in saved files. Estimator classes need no registration." },
  save = { signature = "save(obj, path) -> nothing",
    doc = "Writes obj (a matrix, sparse matrix, luma.Table, estimator, pipeline, search result, generator "
      .. "or a table of those) to path atomically: a crash mid-save leaves the previous file intact. "
      .. "luma.save is the same." },
  load = { signature = "load(path) -> value",
    doc = "Reads what save wrote; corrupted or hostile files are errors, and no code in "
      .. "them ever runs. luma.load is the same." },
  encode = { signature = "encode(obj) -> string",
    doc = "The bytes save would write, as a string (for pipes between processes)." },
  decode = { signature = "decode(bytes [, what = \"the string\"]) -> value",
    doc = "The inverse of encode; errors name what." },
})

-- Errors at the caller's line, wherever they come from: the writers and
-- readers (a file that cannot be written names the path), and to_plain's
-- checks at any depth of the value.  (luma.save and luma.load forward
-- here from C, which adds the location of their caller.)
args.relay_functions(persist)

luma.doc.set(persist, { name = "luma.persist",
  doc = "luma.save(obj, path) and luma.load(path) for matrices, estimators, pipelines, search "
    .. "results, generators and tables of them (docs/FORMAT.md); register(name, handler) "
    .. "makes another type savable." })

return persist
