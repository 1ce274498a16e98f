-- The Lua API fuzzer (issue 8, docs/RELIABILITY.md): walks every function
-- and method Luma registers and calls each with a spread of bad arguments,
-- expecting only Lua errors back.  Run by build*/api_fuzz (tests/c/api_fuzz.c),
-- which provides guarded_call and a memory limit; under `make check` the
-- whole run is inside AddressSanitizer + UBSan, so a crash, a memory error
-- or undefined behaviour in any binding fails the suite.
--
-- Discovery is automatic (tests/c/api_registry.lua, shared with the limits
-- probe), so modules that land later are covered without edits here.
-- SPDX-License-Identifier: MIT
local verbose = os.getenv and os.getenv("LUMA_API_FUZZ_VERBOSE") == "1"

-- Functions that are not called, each with its reason.  (The driver also
-- runs every call in a scratch directory, so a writer missing here leaves
-- nothing behind.)
local SKIP = {
  ["luma.save"] = "writes files (a string argument is a path in the working directory)",
  ["luma.persist.save"] = "writes files",
  ["luma.serial.write"] = "writes files",
  ["luma.io.write_csv"] = "writes files",
  ["luma.io.write_npy"] = "writes files",
  ["luma.io.write_libsvm"] = "writes files",
  ["luma.pool.run"] = "forks worker processes",
  ["luma.parallel.map"] = "forks worker processes (n_jobs > 1) or starts MPI",
  ["luma.parallel.fork.run"] = "forks worker processes",
  ["luma.parallel.mpi.run"] = "starts MPI",
  ["luma.mpi.run"] = "starts MPI",
}

-- ------------------------------------------------------------ arguments

local function fixtures()
  local g = luma.random.Generator(1)
  local A = g:normal(4, 5)
  local big = g:normal(6, 7)
  local nanm = luma.matrix{ { 0 / 0, 1 }, { 1 / 0, -1 / 0 } }
  return {
    nil, true, false, 0, 1, 2, -1, 3, 0.5, -2.5, 2 ^ 31, -2 ^ 31, math.maxinteger,
    math.mininteger, 1e18, 1e308, -1e308, 0 / 0, 1 / 0, -1 / 0, 5e-324,
    "", "abc", "1", "l2", "euclidean", "rows", "\0",
    {}, { 1, 2, 3 }, { { 1, 2 }, { 3 } }, { 0 / 0 }, { x = 1 }, { {} },
    setmetatable({}, { __index = function() error("poisoned table") end }),
    function() end, function() error("callback fails") end, function() return 0 / 0 end,
    coroutine.create(function() end),
    luma.zeros(0, 0), luma.zeros(0, 3), luma.zeros(3, 0), luma.eye(3), luma.ones(1, 1),
    A, A:t(), big:sub(2, 5, 2, 6), big:t():slice({ 1, 7, 2 }, { 2, 6, 3 }), big:row(3), big:col(4),
    luma.arange(1, 6):t(), luma.arange(1, 6), nanm, luma.full(3, 3, 1e308),
    g,
  }
end
local NVALUES = 57 -- the length of fixtures(), holes (nil) included

-- Matrices to use as `self` of matrix methods.
local function matrix_selves()
  local g = luma.random.Generator(2)
  local big = g:normal(6, 7)
  return {
    luma.eye(3), luma.zeros(0, 3), big, big:t():slice({ 2, 7, 2 }, { 1, 6, 2 }), big:row(2),
    luma.matrix{ { 0 / 0, 1 / 0 }, { -1 / 0, 1 } },
  }
end

-- A deterministic stream of indices (a 32-bit LCG) for the sampled
-- argument lists.
local seed = 12345
local function pick(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

-- ------------------------------------------------------------ discovery

-- tests/c/api_registry.lua, loaded by the driver
local registry = api_registry.new{
  skip = SKIP, types = native_types,
  selves = { ["luma.Matrix"] = matrix_selves() },
  self_of = { ["luma.Generator"] = luma.random.Generator(5) },
}

-- ------------------------------------------------------------- calling

-- Errors at the user's call (issue 14, calling conventions): a public
-- function or a method never raises an error located inside the library
-- (an embedded module's chunk name, "lua/luma/....lua:LINE:"), whether an
-- internal failure ("attempt to index a nil value") or a deliberate
-- message raised at the wrong level.  Public: what luma.repl.public_api
-- lists (help's walk of the luma table), and the methods of objects;
-- package parts (luma.linear.common, ...) and names starting with a
-- single "_" are private.  Resource limits may stop a call anywhere.
local public = {}
for _, e in ipairs(luma.repl.public_api()) do public[e.value] = true end
local function is_public(t)
  return (public[t.fn] or t.self ~= nil or t.selves ~= nil)
    and not t.name:find("[.:]_[^_][%w_]*$")
end
local LIMITS = { "instruction limit exceeded", "time limit exceeded", "interrupted!" }
local function limit_error(msg)
  for _, text in ipairs(LIMITS) do
    if msg:find(text, 1, true) then return true end
  end
  return false
end

-- Every call goes through invoke, a Lua function of this chunk that calls
-- the target on one line (not a tail call): an error raised for the
-- target's caller -- error(msg, 2) in Lua, luaL_error or luaL_argerror in
-- C -- starts with that line's location, AT.  (Called straight from
-- guarded_call, a C function, a well placed error would have no location
-- at all, like one raised at too high a level or with none.)
local function invoke(fn, ...)
  local results = table.pack(fn(...))
  return table.unpack(results, 1, results.n)
end
local AT = select(2, pcall(invoke, error, "probe", 1)):match("^(.-:%d+:) probe$")
assert(AT, "api_fuzz: cannot find the location of invoke's call")

-- Whether msg is not located at the caller's line: inside the library, at
-- no location, or anywhere else -- but AT.  Resource limits may stop a
-- call anywhere.
local function misplaced(msg)
  if msg:sub(1, #AT) == AT or limit_error(msg) then return false end
  return true
end

local calls, errors, non_lua, failures = 0, 0, 0, {}
local inside_seen = {}
local inside = 0 -- errors located inside the library (failures)

-- A failure per function, reported once, with the message.
local function note_inside(t, msg, what)
  inside = inside + 1
  if not inside_seen[t.name] then
    inside_seen[t.name] = true
    failures[#failures + 1] = string.format("%s%s: error not located at the caller's line: %s", t.name,
      what, (msg:gsub("\nstack traceback:.*", "")))
  end
end
local unstructured_seen = {}
local memory = 0 -- memory errors (huge sizes refused by the allocator)
local unstructured = 0 -- errors naming neither function nor argument (failures)
local propagated = 0 -- the fixtures' own errors passed through

local function note_result(ok, a, b, c)
  calls = calls + 1
  if ok then
    -- objects we have not seen: their methods join the walk
    registry:note(a)
    registry:note(b)
    registry:note(c)
    return
  end
  errors = errors + 1
  return a, b
end

local function call(t, self, args, n)
  local res
  if self ~= nil then
    res = table.pack(guarded_call(invoke, t.fn, self, table.unpack(args, 1, n)))
  else
    res = table.pack(guarded_call(invoke, t.fn, table.unpack(args, 1, n)))
  end
  if res[1] then
    note_result(true, res[2], res[3], res[4])
    return
  end
  note_result(false)
  local status, msg = res[2], res[3]
  if status ~= "runtime error" and status ~= "not enough memory" then
    non_lua = non_lua + 1
    failures[#failures + 1] = string.format("%s: %s (%s)", t.name, tostring(msg), status)
  elseif type(msg) ~= "string" then
    local mt = getmetatable(msg)
    if not (mt and mt.__tostring) then
      non_lua = non_lua + 1
      failures[#failures + 1] = string.format("%s: error value is a %s", t.name, type(msg))
    end
  elseif status == "not enough memory" or msg:find("^not enough memory") then
    memory = memory + 1 -- a huge size met the state's memory limit
  elseif msg:find("poisoned table", 1, true) or msg:find("callback fails", 1, true) then
    propagated = propagated + 1 -- a fixture's own error, rightly passed through unchanged
  elseif is_public(t) and misplaced(msg) then
    note_inside(t, msg, "")
  elseif not (msg:find("bad argument", 1, true) or msg:find("luma", 1, true)
              or msg:find("on bad self", 1, true) or limit_error(msg)) then
    -- (a limit's message is the state's: the call was stopped, not refused)
    -- Errors must name the function and the problem (the brief): one that
    -- names neither is a failure, reported once per function.
    unstructured = unstructured + 1
    if not unstructured_seen[t.name] then
      unstructured_seen[t.name] = true
      failures[#failures + 1] = string.format("%s: error names neither the function nor an "
        .. "argument: %s", t.name, (msg:gsub("\nstack traceback:.*", "")))
    end
  end
end

local PAIRS, TRIPLES = 40, 20

local function fuzz_target(t)
  if verbose then io.stderr:write("api_fuzz: ", t.name, "\n") end
  local t0 = luma.now()
  local selves = t.selves or { t.self }
  for s = 1, math.max(#selves, 1) do
    local self = selves[s]
    local vals = fixtures()
    call(t, self, vals, 0)
    for i = 1, NVALUES do call(t, self, { vals[i] }, 1) end
    for _ = 1, PAIRS do call(t, self, { vals[pick(NVALUES)], vals[pick(NVALUES)] }, 2) end
    for _ = 1, TRIPLES do
      call(t, self, { vals[pick(NVALUES)], vals[pick(NVALUES)], vals[pick(NVALUES)] }, 3)
    end
    -- methods also get a wrong self
    if s == 1 and (t.self ~= nil or t.selves) then
      for i = 1, NVALUES do
        local res = table.pack(guarded_call(invoke, t.fn, vals[i], vals[pick(NVALUES)]))
        note_result(res[1], res[2], res[3], res[4])
        if not res[1] and res[2] ~= "runtime error" and res[2] ~= "not enough memory" then
          non_lua = non_lua + 1
          failures[#failures + 1] = t.name .. " (wrong self): " .. tostring(res[3])
        elseif not res[1] and type(res[3]) == "string" and is_public(t)
          and not res[3]:find("^not enough memory") and not res[3]:find("poisoned table", 1, true)
          and not res[3]:find("callback fails", 1, true) and misplaced(res[3]) then
          note_inside(t, res[3], " (wrong self)")
        end
      end
    end
  end
  collectgarbage("step", 1000)
  local dt = luma.now() - t0
  if verbose then io.stderr:write(string.format("api_fuzz: %.3f s %s\n", dt, t.name)) end
end

local functions = 0
for t in registry:each() do
  fuzz_target(t)
  functions = functions + 1
end
local nskipped = registry:nskipped()

local report = { string.format("api_fuzz: %d functions and methods, %d calls, %d errors (%d memory "
  .. "errors, %d propagated from the fixtures, %d not naming the argument or function, %d "
  .. "located inside the library), %d skipped",
  functions, calls, errors, memory, propagated, unstructured, inside, nskipped) }
for _, f in ipairs(failures) do report[#report + 1] = "FAIL " .. f end
return { passed = functions, failed = #failures, calls = calls, report = table.concat(report, "\n") }
