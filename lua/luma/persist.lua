--- luma.persist: luma.save / luma.load for matrices, estimators,
-- pipelines, search results, generators and plain tables of those.
--
-- Objects become plain tables tagged with their type name and type
-- version ({__luma_type = "luma.pipeline.Pipeline", __luma_version = 1,
-- ...}) that luma.serial writes in the binary format of docs/FORMAT.md.
-- Loading revives a tag only through a registered loader (an estimator
-- class, or persist.register): the file chooses among known types and
-- never supplies code.
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
      fail(4, "luma.save: %s parameter '%s' is a function and cannot be saved",
        est.__class.name, name)
    end
    out.params[name] = to_plain(v, path .. ".params." .. name, seen)
  end
  for k, v in pairs(est) do
    if k ~= "params" then out.state[k] = to_plain(v, path .. "." .. tostring(k), seen) end
  end
  return out
end

to_plain = function(v, path, seen)
  local t = type(v)
  if t == "nil" or t == "boolean" or t == "number" or t == "string" or luma.ismatrix(v) then
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
    if seen[v] then fail(4, "luma.save: %s contains itself (a cycle)", path) end
    seen[v] = true
    local out = {}
    for k, x in pairs(v) do out[k] = to_plain(x, path .. "." .. tostring(k), seen) end
    seen[v] = nil
    return out
  end
  fail(4, "luma.save: %s is a %s and cannot be saved", path, t)
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

local function estimator_from_plain(t)
  local name = t[TYPE]
  local class = find_class(name)
  if class == nil then
    fail(4, "luma.load: unknown estimator type '%s' (define its class before loading)", name)
  end
  if (t[VERSION] or 1) > (class.version or 1) then
    fail(4, "luma.load: %s was saved by a newer version of its class (%d > %d)", name,
      t[VERSION], class.version or 1)
  end
  local params = {}
  for k, v in pairs(t.params or {}) do params[k] = from_plain(v) end
  local est = class(params)
  for k, v in pairs(t.state or {}) do rawset(est, k, from_plain(v)) end
  return est
end

from_plain = function(v)
  if type(v) ~= "table" then return v end
  local name = v[TYPE]
  if name ~= nil then
    if type(name) ~= "string" then fail(3, "luma.load: a type tag is not a string") end
    local handler = registry[name]
    if handler == nil and LAZY_TYPES[name] then
      require(LAZY_TYPES[name]) -- registers the type
      handler = registry[name]
    end
    if handler then
      if (v[VERSION] or 1) > handler.version then
        fail(3, "luma.load: %s was saved by a newer version (%d > %d)", name, v[VERSION],
          handler.version)
      end
      local plain = {}
      for k, x in pairs(v) do
        if k ~= TYPE and k ~= VERSION then plain[k] = from_plain(x) end
      end
      return handler.load(plain, v[VERSION] or 1)
    end
    return estimator_from_plain(v)
  end
  local out = {}
  for k, x in pairs(v) do out[k] = from_plain(x) end
  return out
end

--- persist.encode(obj) / persist.decode(bytes): the same as save/load,
-- to and from a string (for pipes between processes).
function persist.encode(obj)
  return serial.encode(to_plain(obj, "value", {}))
end

function persist.decode(bytes, what)
  if type(bytes) ~= "string" then
    fail(2, "bad argument #1 to 'decode' (string expected, got %s)", type(bytes))
  end
  local plain = args.relay(2, serial.decode, bytes, what) -- a corrupt string blames the caller
  return from_plain(plain)
end

--- persist.save(obj, path): writes obj atomically (a crash mid-save leaves
-- the previous file intact).
function persist.save(obj, path)
  if type(path) ~= "string" then
    fail(2, "bad argument #2 to 'save' (a file name expected, got %s)", type(path))
  end
  serial.write(path, serial.encode(to_plain(obj, "value", {})))
end

--- persist.load(path) -> obj
function persist.load(path)
  if type(path) ~= "string" then
    fail(2, "bad argument #1 to 'load' (a file name expected, got %s)", type(path))
  end
  local plain = args.relay(2, serial.read, path) -- a missing or corrupt file blames the caller
  return from_plain(plain)
end

persist.register("luma.Generator", {
  test = function(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") == "luma.Generator"
  end,
  save = function(g) return { state = g:state() } end,
  load = function(t) return luma.random.Generator(0):set_state(t.state) end,
})

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
  load = function(t) return setmetatable(t, require("luma.model_selection").Results) end,
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
      error("luma.load: unknown sampler kind '" .. tostring(t.kind) .. "'", 0)
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
    doc = "Writes obj (a matrix, luma.Table, estimator, pipeline, search result, generator "
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

luma.doc.set(persist, { name = "luma.persist",
  doc = "luma.save(obj, path) and luma.load(path) for matrices, estimators, pipelines, search "
    .. "results, generators and tables of them (docs/FORMAT.md); register(name, handler) "
    .. "makes another type savable." })

return persist
