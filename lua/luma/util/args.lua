--- luma.util.args: the argument checks every family shares, so that a bad call
-- fails with one phrasing, located at the user's line (issue 14, "calling
-- conventions"):
--   bad argument #2 to 'fname' (luma.Matrix expected, got nil)   -- a type
--   bad self to 'fit' (luma.linear.Ridge expected, got luma.Matrix)
--   fname: n_samples must be an integer >= 1, got 0               -- a value
--   fname: unknown option 'foo' (valid: a, b)
-- Levels count as error()'s do: 1 is the function calling the helper, 2
-- its caller (what a public function passes to blame its own caller).
-- Not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local args = {}

--- fail(level, fmt, ...): raises the formatted message at level (1 = the
-- caller of fail).
local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end
args.fail = fail

--- type_of(v) -> text: the name of v's type as messages show it: the
-- __name of its metatable (luma.Matrix, luma.linear.Ridge, luma.Table...)
-- or type(v).
local function type_of(v)
  local mt = getmetatable(v)
  local name = type(mt) == "table" and rawget(mt, "__name")
  if type(name) == "string" then return name end
  return type(v)
end
args.type_of = type_of

--- callable(v) -> whether v can be called (a function, or a value whose
-- metatable has __call).
function args.callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

--- bad_self(method, class_name, self, level): the error of a method
-- called on something that is not an instance (est.fit(X, y) for
-- est:fit(X, y), Class.methods.fit(nil, ...)).
function args.bad_self(method, class_name, self, level)
  fail(level + 1, "bad self to '%s' (%s expected, got %s)", method, class_name, type_of(self))
end

--- is_stop(err) -> boolean: whether err is the error of a run that was
-- stopped: "interrupted!", the instruction limit or the time limit (with
-- or without a "chunk:line: " location).  Code that catches an error to
-- score or report it (error_score, a task's failure) must raise these
-- again: a stop ends the run, it is no failure of one fit.  In a state
-- made by luma_newstate a stop cannot be kept anyway (every later
-- instruction raises it again); in other hosts' states (`require "luma"`
-- in stock Lua) luma_interrupt's error is raised once, like any other.
function args.is_stop(err)
  if type(err) ~= "string" then return false end
  local msg = err:gsub("^[^\n]-:%d+: ", "", 1)
  return msg == "interrupted!" or msg:find("^instruction limit exceeded %(") ~= nil
    or msg:find("^time limit exceeded %(") ~= nil
end

-- The messages of Lua's own runtime errors: a bug where they come from
-- the library, so they keep their location there (a relay never turns an
-- internal failure into what looks like the caller's mistake).
local RUNTIME_ERRORS = { "^attempt to ", "^table index is ", "^bad 'for' ", "^'for' ",
  "^bad argument #%d+ to 'for iterator'", "^bad argument #%d+ to 'format'", "^stack overflow" }
local function runtime_error(msg)
  for _, pattern in ipairs(RUNTIME_ERRORS) do
    if msg:find(pattern) then return true end
  end
  return false
end
args.is_runtime_error = runtime_error

-- fn(...)'s results, packed, through three Lua frames of this file (no
-- tail calls): an error fn (or a helper of it) raises one to three levels
-- above fn -- at its caller as if it had been called directly, or further
-- out -- is located here, and relayed like fn's own, rather than at pcall
-- (a C function, which gives no location at all).
local function call_fn(fn, ...) return table.pack(fn(...)) end
local function call_twice(fn, ...)
  local r = call_fn(fn, ...)
  return r
end
local function call_packed(fn, ...)
  local r = call_twice(fn, ...)
  return r
end

-- The results of pcall(call_packed, ...) (ok, r) passed on, or its error
-- raised again at level (error()'s, counted from here: callers tail-call
-- this) when its location is inside the library or it has none (a
-- message raised with level 0, or at a C function such as pcall), unless
-- it is a Lua runtime error or a memory error: errors located elsewhere
-- (a callback's), runtime errors and non-string errors pass unchanged;
-- edit(msg) may reword it.
local function pass_on(ok, r, level, edit)
  if ok then return table.unpack(r, 1, r.n) end
  local msg = r
  if type(msg) ~= "string" then error(msg, 0) end
  local inner = msg:match("^lua/luma/[%w_/]+%.lua:%d+: (.*)$")
  if not inner and not msg:find("^[^:\n]+:%d+: ") and not msg:find("^not enough memory") then
    inner = msg
  end
  if not inner or runtime_error(inner) then error(msg, 0) end
  error(edit and edit(inner) or inner, level)
end

--- method(fn, method, class_name, is_instance) -> the method fn behind a
-- check that self is an instance (is_instance(self) is true); the check
-- blames the method's caller, and fn runs as a tail call, so its own
-- errors keep their levels -- or, with relay, fn's errors located in the
-- library are raised again at the method's caller's line (as relayed).
function args.method(fn, method, class_name, is_instance, relay)
  if relay then
    return function(self, ...)
      if not is_instance(self) then args.bad_self(method, class_name, self, 2) end
      local ok, r = pcall(call_packed, fn, self, ...)
      return pass_on(ok, r, 2)
    end
  end
  return function(self, ...)
    if not is_instance(self) then args.bad_self(method, class_name, self, 2) end
    return fn(self, ...)
  end
end

--- wrap_methods(methods, class_name, is_instance [, skip [, relay]]): puts
-- every function of the table methods behind args.method, but those for
-- which skip(name, fn) is true (static functions, methods that check for
-- themselves); those for which relay(name) is true are relayed.  A
-- function under two names (pmf = pdf) gets one wrapper, and a function's
-- help record moves to its wrapper.
function args.wrap_methods(methods, class_name, is_instance, skip, relay)
  local wrapped, names = {}, {}
  for name, fn in pairs(methods) do
    if type(name) == "string" and type(fn) == "function" and not (skip and skip(name, fn)) then
      names[#names + 1] = name
    end
  end
  table.sort(names) -- the first name of an aliased function names it in errors
  for _, name in ipairs(names) do
    local fn = methods[name]
    if not wrapped[fn] then
      wrapped[fn] = args.method(fn, name, class_name, is_instance, relay and relay(name))
      local record = luma.doc.get(fn)
      if record then luma.doc.set(wrapped[fn], record) end
    end
    methods[name] = wrapped[fn]
  end
end

--- is_named(name) -> a predicate: whether a value's metatable has that
-- __name (instances are recognized by name, not by metatable identity:
-- a test runner that reloads a module makes a second copy of a class).
function args.is_named(name)
  return function(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") == name
  end
end

--- trailing_underscore(owner, key, level): for the __index of objects
-- with fitted attributes (estimators, search results): scikit-learn's
-- name of an attribute, "best_params_" (a key ending in one underscore),
-- is an error naming Luma's, "best_params", rather than a silent nil.
-- Other keys return nothing.
function args.trailing_underscore(owner, key, level)
  if type(key) == "string" and key:match("^[%a_][%w_]*[^_]_$") then
    fail(level + 1, "%s: Luma names fitted attributes without the trailing underscore: %s",
      owner, key:sub(1, -2))
  end
end

--- split_params(signature) -> list: the parameter names of a help
-- signature, in order ("f(y, p [, opts])" -> {"y", "p", "opts"}); an
-- options table written out ("[, {bins = 10, density = false}]") is
-- "opts".
function args.split_params(signature)
  local list = {}
  local inside = (signature:match("%((.*)%)") or ""):gsub("%b{}", "opts"):gsub("[%[%]]", "")
  for piece in (inside .. ","):gmatch("([^,]*),") do
    local name = piece:match("^%s*([%a_][%w_]*)")
    if name then list[#list + 1] = name end
  end
  return list
end

--- arg(ok, n, fname, expected, v, level): unless ok, the error "bad
-- argument #n to 'fname' (expected expected, got <type of v>)".
function args.arg(ok, n, fname, expected, v, level)
  if not ok then
    fail(level + 1, "bad argument #%d to '%s' (%s expected, got %s)", n, fname, expected,
      type_of(v))
  end
end

--- matrix(v, n, fname, level) -> v: argument #n of fname is a luma.Matrix.
function args.matrix(v, n, fname, level)
  if not luma.ismatrix(v) then
    fail(level + 1, "bad argument #%d to '%s' (luma.Matrix expected, got %s)", n, fname,
      type_of(v))
  end
  return v
end

--- nonfinite(X [, what = "X" [, data = true]]) -> text or nil: nil when
-- every element of the matrix X is finite, else "X has a non-finite
-- element, nan at row 2, column 3" (the first in row-major order); for
-- data (samples, where a NaN is a missing value) a NaN adds "; impute
-- missing values first, e.g. with luma.preprocessing.SimpleImputer".  The
-- C bindings' luma_matrix_check_finite says the same.
function args.nonfinite(X, what, data)
  -- the sum is finite exactly when no element is NaN or infinite, unless
  -- it overflows: one pass without allocating, the mask only then
  local total = X:sum()
  if total == total and total > -math.huge and total < math.huge then return nil end
  if luma.sparse.issparse(X) then -- only stored values can be non-finite
    local I, J, V = X:coo()
    local bad = V:isfinite():eq(0)
    if not bad:any() then return nil end
    local k = math.tointeger(luma.matrix.find(bad):get(1, 1))
    return args.nonfinite_at(V:get(k, 1), math.tointeger(I:get(k, 1)),
      math.tointeger(J:get(k, 1)), what, data)
  end
  local finite = X:isfinite()
  if finite:all() then return nil end
  local p = math.tointeger(luma.matrix.find(finite:eq(0)):get(1, 1))
  local d = X:cols()
  local i, j = (p - 1) // d + 1, (p - 1) % d + 1
  return args.nonfinite_at(X:get(i, j), i, j, what, data)
end

--- nonfinite_at(v, i, j [, what = "X" [, data = true]]) -> text: the text
-- of nonfinite for the element v found at row i, column j.
function args.nonfinite_at(v, i, j, what, data)
  local text = string.format("%s has a non-finite element, %s at row %d, column %d", what or "X",
    v ~= v and "nan" or (v > 0 and "inf" or "-inf"), i, j)
  if v ~= v and data ~= false then
    text = text .. "; impute missing values first, e.g. with luma.preprocessing.SimpleImputer"
  end
  return text
end

--- finite(X, n, fname, level [, who]) -> X: argument #n of fname (a
-- matrix) has only finite elements, else "bad argument #n to 'fname'
-- (who: X has a non-finite element, nan at row 2, column 3; impute ...)".
function args.finite(X, n, fname, level, who)
  local text = args.nonfinite(X)
  if text then
    fail(level + 1, "bad argument #%d to '%s' (%s%s)", n, fname, who and (who .. ": ") or "", text)
  end
  return X
end

--- generator(v, n, fname, level) -> v: argument #n of fname is nil or a
-- luma.Generator (the rng of a sampler).
function args.generator(v, n, fname, level)
  if v ~= nil and type_of(v) ~= "luma.Generator" then
    fail(level + 1, "bad argument #%d to '%s' (luma.Generator or nil expected, got %s)", n, fname,
      type_of(v))
  end
  return v
end

--- integer(v, name, fname, min, level) -> v: v is an integer >= min
-- (min nil: any integer), else "fname: name must be an integer >= min,
-- got v".
function args.integer(v, name, fname, min, level)
  if math.type(v) ~= "integer" or (min and v < min) then
    fail(level + 1, "%s: %s must be an integer%s, got %s", fname, name,
      min and (" >= " .. min) or "", type(v) == "number" and tostring(v) or type_of(v))
  end
  return v
end

--- relay(level, fn, ...) -> fn(...): for a function that hands the user's
-- argument to another that checks it (c:take(indices) to the codes'
-- take): an error of fn is raised again at level, without its location
-- inside the library, so it points at the user's line.
function args.relay(level, fn, ...)
  local ok, r = pcall(call_packed, fn, ...)
  return pass_on(ok, r, level + 1)
end

--- relayed(fn [, edit]) -> a function that calls fn and raises fn's
-- errors located in the library again at its own caller's line (edit(msg)
-- may reword them): for a module whose public functions share checking
-- helpers and call one another (luma.metrics).
function args.relayed(fn, edit)
  local wrapper = function(...)
    local ok, r = pcall(call_packed, fn, ...)
    return pass_on(ok, r, 2, edit)
  end
  local record = luma.doc.get(fn) -- fn's help record, when it has one, goes with it
  if record then luma.doc.set(wrapper, record) end
  return wrapper
end

--- option_names(record) -> set or nil: the options a help record
-- documents, which are the ones its function accepts: the names of its
-- params list and the keys of an options table written out in its
-- signature ("f(X [, {k = 5, seed = nil}])", "f{n = 100, noise}"); nil
-- when it documents none.  A table of a list's form ("{A, B, ...}") holds
-- no options.
function args.option_names(record)
  local set, any = {}, false
  for _, p in ipairs(type(record) == "table" and record.params or {}) do
    if type(p.name) == "string" then set[p.name], any = true, true end
  end
  local signature = type(record) == "table" and record.signature or ""
  local first = signature:match("^[^|]*")
  for group in first:gmatch("%b{}") do
    local body = group:sub(2, -2):gsub("%b{}", "{}"):gsub("%b()", "()")
    if not body:find("...", 1, true) then
      for piece in (body .. ","):gmatch("([^,]*),") do
        local key = piece:match("^%s*([%a_][%w_]*)%s*=") or piece:match("^%s*([%a_][%w_]*)%s*$")
        if key then set[key], any = true, true end
      end
    end
  end
  return any and set or nil
end

--- relay_functions(module [, skip]) -> module: every function of the
-- table module (string keys; but those in the set skip) relayed, its
-- errors raised at its caller's line: for a family whose public
-- functions share checks that raise with no location (level 0) or at
-- levels that vary with the call's depth (luma.tsa, luma.cluster,
-- luma.markov, ...).  Help records move to the wrappers.
function args.relay_functions(module, skip)
  local names = {}
  for name, fn in pairs(module) do
    if type(name) == "string" and type(fn) == "function" and not (skip and skip[name]) then
      names[#names + 1] = name
    end
  end
  for _, name in ipairs(names) do module[name] = args.relayed(module[name]) end
  return module
end

--- guard_functions(module, prefix [, skip [, own_options]]): for a module
-- whose public functions share checking helpers and call one another
-- (luma.metrics, luma.stats): each documented function but those in the
-- set skip checks its options table (the parameter its help signature
-- names opts, against the options its help record documents:
-- option_names; not with own_options, for functions whose arguments
-- shift and that check their options themselves) and is relayed, its
-- errors raised at its caller's line; a message naming another function
-- of the module ("<prefix>.confusion_matrix: ...") is reworded to name
-- the one called.  Call it after the help records are set; they move to
-- the wrappers.
function args.guard_functions(module, prefix, skip, own_options)
  local names = {}
  for name, fn in pairs(module) do
    if type(name) == "string" and type(fn) == "function" and not (skip and skip[name])
      and luma.doc.get(fn) then
      names[#names + 1] = name
    end
  end
  local own = "^" .. prefix:gsub("%p", "%%%0") .. "%.[%w_]+:"
  for _, name in ipairs(names) do
    local fn = module[name]
    local record = luma.doc.get(fn)
    local opts_at
    for i, param in ipairs(args.split_params(record.signature or "")) do
      if param == "opts" and not own_options then opts_at = i end
    end
    local renamed = prefix .. "." .. name .. ":"
    local valid = opts_at and args.option_names(record)
    module[name] = args.relayed(function(...)
      if opts_at then
        args.options(prefix .. "." .. name, opts_at, (select(opts_at, ...)), nil, valid, 1)
      end
      return fn(...)
    end, function(msg) return (msg:gsub(own, renamed, 1)) end)
    luma.doc.set(module[name], record)
  end
end

--- check_opts(fname, opts, valid, level) -> opts (or {}): rejects any key
-- of opts that is not in the set valid, listing the valid ones.
function args.check_opts(fname, opts, valid, level)
  for k in pairs(opts or {}) do
    if not valid[k] then
      local names = {}
      for name in pairs(valid) do names[#names + 1] = name end
      table.sort(names)
      fail(level + 1, "%s: unknown option '%s' (valid: %s)", fname, tostring(k),
        table.concat(names, ", "))
    end
  end
  return opts or {}
end

--- options(fname, argn, opts, positional, valid, level) -> opts (or {}):
-- the options argument #argn of fname, checked by check_opts (valid nil:
-- any key); a qualified fname ("luma.theory.hoeffding") names the
-- function in full in the unknown-option message, by its last part in a
-- "bad argument" one.  Common positional forms are accepted: positional(value)
-- turns a value that is not an options table into one
-- (cross_val_score(m, X, y, 5) -> {cv = 5}) or returns nil, and anything
-- else is a "bad argument" error.  The info table luma.datasets.load
-- returns third gets its own explanation, since f(m,
-- luma.datasets.load(name)) puts it in the options slot.
function args.options(fname, argn, opts, positional, valid, level)
  if opts == nil then return {} end
  local short = fname:match("([^.:]+)$") -- "bad argument" names the function as called
  if type(opts) ~= "table" or getmetatable(opts) ~= nil then
    local converted = positional and positional(opts)
    if converted == nil then
      fail(level + 1, "bad argument #%d to '%s' (options table expected, got %s)", argn, short,
        type_of(opts))
    end
    opts = converted
  elseif opts.feature_names ~= nil and opts.description ~= nil then
    fail(level + 1, "bad argument #%d to '%s' (options table expected, got the info table of "
      .. "luma.datasets.load: keep X, y and pass the options separately)", argn, short)
  end
  if valid == nil then return opts end
  -- not a tail call: check_opts counts this function's frame in level
  local checked = args.check_opts(fname, opts, valid, level + 1)
  return checked
end

luma.doc.set_members(args, "luma.util.args", {
  fail = { signature = "fail(level, fmt, ...)",
    doc = "Raises string.format(fmt, ...) at level (1: the caller of fail). Returns nothing." },
  type_of = { signature = "type_of(v)",
    doc = "The name of v's type for messages: its metatable's __name (luma.Matrix, "
      .. "luma.linear.Ridge, ...) or type(v). Returns a string." },
  callable = { signature = "callable(v)",
    doc = "Whether v can be called: a function or a value whose metatable has __call. "
      .. "Returns a boolean." },
  bad_self = { signature = "bad_self(method, class_name, self, level)",
    doc = "Raises \"bad self to 'method' (class_name expected, got <type>)\" at level. "
      .. "Returns nothing." },
  method = { signature = "method(fn, method, class_name, is_instance [, relay = false])",
    doc = "Wraps the method fn with a check that self is an instance (is_instance(self)), "
      .. "blaming the method's caller; with relay, fn's errors are raised again at that "
      .. "caller's line. Returns the wrapped function." },
  wrap_methods = { signature = "wrap_methods(methods, class_name, is_instance [, skip = nil "
      .. "[, relay = nil]])",
    doc = "Puts every function of the table methods (but those for which skip(name, fn) is "
      .. "true) behind method(), one wrapper per function, help records kept. Returns "
      .. "nothing." },
  is_named = { signature = "is_named(name)",
    doc = "A predicate telling whether a value's metatable has the __name name. Returns a "
      .. "function." },
  relay_functions = { signature = "relay_functions(module [, skip = nil])",
    doc = "Relays every function of module (but those in the set skip): its errors located in "
      .. "the library, or at none, are raised at its caller's line. Returns module." },
  guard_functions = { signature = "guard_functions(module, prefix [, skip = nil [, "
      .. "own_options = false]])",
    doc = "Relays every documented function of module (but those in the set skip) after a "
      .. "check of its options table, rewording messages that name another function of "
      .. "prefix. Returns nothing." },
  trailing_underscore = { signature = "trailing_underscore(owner, key, level)",
    doc = "Raises \"owner: Luma names fitted attributes without the trailing underscore: "
      .. "name\" at level when key is scikit-learn's spelling name_ (one trailing "
      .. "underscore), for an __index of objects with fitted attributes. Returns nothing "
      .. "otherwise." },
  option_names = { signature = "option_names(record)",
    doc = "The options a help record documents: its params' names and the keys of an "
      .. "options table written out in its signature. Returns a set (name = true) or nil." },
  split_params = { signature = "split_params(signature)",
    doc = "The parameter names of a help signature, in order. Returns a list of strings." },
  arg = { signature = "arg(ok, n, fname, expected, v, level)",
    doc = "Unless ok, raises \"bad argument #n to 'fname' (expected expected, got <type "
      .. "of v>)\" at level. Returns nothing." },
  matrix = { signature = "matrix(v, n, fname, level)",
    doc = "Checks that argument #n of fname is a luma.Matrix. Returns v." },
  is_stop = { signature = "is_stop(err)",
    doc = "Whether err is the error of a stopped run (\"interrupted!\", the instruction or "
      .. "time limit), which code that scores or reports caught errors must raise again. "
      .. "Returns a boolean." },
  is_runtime_error = { signature = "is_runtime_error(msg)",
    doc = "Whether msg (without its location) is one of Lua's own runtime errors (\"attempt "
      .. "to index ...\"): a bug where the library raises it, never reworded. Returns a "
      .. "boolean." },
  relay = { signature = "relay(level, fn, ...)",
    doc = "Calls fn(...) and raises its error again at level, without a location inside the "
      .. "library (for arguments a called function checks). Returns fn's results." },
  relayed = { signature = "relayed(fn [, edit = nil])",
    doc = "A function calling fn whose errors located in the library are raised again at its "
      .. "caller's line, reworded by edit(msg) if given. Returns the function." },
  nonfinite = { signature = "nonfinite(X [, what = \"X\" [, data = true]])",
    doc = "Nil when every element of X is finite, else the text \"X has a non-finite element, "
      .. "nan at row i, column j\" (the first), with a suggestion to impute for a NaN in data. "
      .. "Returns a string or nil." },
  nonfinite_at = { signature = "nonfinite_at(v, i, j [, what = \"X\" [, data = true]])",
    doc = "The text of nonfinite for the element v at row i, column j. Returns a string." },
  finite = { signature = "finite(X, n, fname, level [, who = nil])",
    doc = "Raises \"bad argument #n to 'fname' (who: X has a non-finite element, ...)\" at "
      .. "level unless every element of X is finite. Returns X." },
  generator = { signature = "generator(v, n, fname, level)",
    doc = "Checks that argument #n of fname is nil or a luma.Generator. Returns v." },
  integer = { signature = "integer(v, name, fname [, min = nil], level)",
    doc = "Checks that v is an integer >= min (\"fname: name must be an integer >= min, got "
      .. "v\"). Returns v." },
  check_opts = { signature = "check_opts(fname, given, valid, level)",
    doc = "Rejects any key of the table given not in the set valid, listing the valid ones. "
      .. "Returns given, or {} for nil." },
  options = { signature = "options(fname, argn, given, positional, valid, level)",
    doc = "Argument #argn of fname (given) as an options table: nil gives {}, "
      .. "positional(value) "
      .. "converts a common positional form, other non-tables are a bad argument error; "
      .. "keys are checked against valid (nil: any). Returns the options table." },
})
luma.doc.set(args, { name = "luma.util.args",
  doc = "Argument checks shared by the families: one phrasing for bad arguments, bad self "
    .. "and bad option tables, raised at the caller's line." })

return args
