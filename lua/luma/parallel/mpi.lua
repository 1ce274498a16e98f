--- luma.parallel.mpi: the mpi backend: tasks across the ranks of an MPI
-- job (`mpirun -np N luma script.lua`; luma.mpi, src/vm/mpi.c;
-- docs/PARALLEL.md).
--
-- Every rank runs the same script, so every rank reaches map with the
-- same task function and the same data: only task numbers and results
-- travel.  Rank 0 hands out tasks and gathers the results (luma.persist
-- bytes), then shares them, so that every rank returns the same table (or
-- raises the same error).  With one rank (no launcher) rank 0 runs the
-- tasks itself.
--
-- The one thing this design cannot see is a rank whose inputs differ (a
-- seed taken from the clock, a file that differs between nodes): its
-- results would depend on where a task ran.  So before the tasks run,
-- every rank digests the task list and each upvalue of the task function
-- and rank 0 compares the digests: a difference is an error naming the
-- upvalue.  What is digested: numbers, strings, booleans, matrices, and
-- tables, estimators and other values luma.save can write, walked
-- through, and the upvalues of the functions met on the way (a helper
-- closure's data counts as the task's); loaded modules count as code (the
-- same script everywhere) and _ENV is left out.  A value that luma.save
-- cannot write (an open file, a coroutine) cannot be compared: held by
-- the task function itself, or in tables it holds, it is an error naming
-- it; behind another function it is library state and passed over.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local serial = require("luma.serial")
local persist = require("luma.persist")
local estimator = require("luma.estimator")
local common = require("luma.parallel.common")

local mpi = {}

local MISSING = "luma.parallel: the mpi backend is not in this build; install libopenmpi-dev "
  .. "(scripts/setup-deps does) and rebuild"

-- Looked up at each use, so that a test can stand in for a build without
-- MPI.
local function native() return require("luma.mpi") end

-- The name of a value's type for messages: a userdata's __name if it has one.
local function type_name(v)
  local mt = getmetatable(v)
  local name = type(mt) == "table" and rawget(mt, "__name")
  return type(name) == "string" and string.format("%s (%s)", type(v), name) or type(v)
end

local feed

-- Feeds the upvalues of a Lua function (its variables from enclosing
-- scopes: where a closure keeps its data), _ENV aside.
local function feed_upvalues(out, fn, path, walk, strict)
  for u = 1, math.huge do
    local name, value = debug.getupvalue(fn, u)
    if name == nil then break end
    if name ~= "_ENV" then
      out[#out + 1] = name
      feed(out, value, path, walk, strict)
    end
  end
end

-- Appends a canonical description of v to out (a list of strings): equal
-- on two ranks exactly when the values are.  path names v in errors.
-- strict: a value that cannot be compared is an error (for what the task
-- function holds directly); past a function boundary it is passed over,
-- as the environment of library code.
feed = function(out, v, path, walk, strict)
  local t = type(v)
  if t == "nil" or t == "boolean" then
    out[#out + 1] = tostring(v)
  elseif t == "number" then
    out[#out + 1] = math.type(v) == "integer" and string.pack("<Bj", 1, v)
      or string.pack("<Bn", 2, v)
  elseif t == "string" then
    out[#out + 1] = string.pack("<Bs4", 3, v)
  elseif walk.modules[v] then
    out[#out + 1] = "module" -- code: the same on every rank
  elseif walk.seen[v] then
    out[#out + 1] = "ref" .. walk.seen[v]
  elseif luma.ismatrix(v) then
    out[#out + 1] = "m" .. walk.digest(v)
  elseif t == "function" then
    walk.count = walk.count + 1
    walk.seen[v] = walk.count
    out[#out + 1] = "f"
    if debug.getinfo(v, "S").what ~= "C" then feed_upvalues(out, v, path, walk, false) end
  elseif t == "table" and (getmetatable(v) == nil or estimator.is_estimator(v)) then
    walk.count = walk.count + 1
    walk.seen[v] = walk.count
    -- entries in the order of their keys' descriptions (pairs order is
    -- not the same on two ranks); raw, so an estimator's fields are read
    -- as they are stored
    local entries = {}
    for k, x in next, v do
      local key = {}
      if type(k) == "table" or type(k) == "userdata" or type(k) == "function" then
        key[1] = "key:" .. type(k) -- by identity, which no two ranks share
      else
        feed(key, k, path, walk, strict)
      end
      entries[#entries + 1] = { table.concat(key), k, x }
    end
    table.sort(entries, function(a, b) return a[1] < b[1] end)
    out[#out + 1] = estimator.is_estimator(v) and "e" .. v.__class.name or "t"
    for _, e in ipairs(entries) do
      out[#out + 1] = e[1]
      local k = e[2]
      local step = type(k) == "string" and k:match("^[%a_][%w_]*$") and "." .. k
        or "[" .. tostring(k) .. "]"
      feed(out, e[3], path .. step, walk, strict)
    end
    out[#out + 1] = "end"
  else
    local ok, bytes = pcall(persist.encode, v)
    if ok then
      -- what luma.save writes, read back as plain tables: the bytes
      -- themselves follow pairs order, which differs between processes
      out[#out + 1] = "p"
      feed(out, serial.decode(bytes, "a value's bytes"), path, walk, strict)
    elseif t == "table" or not strict then
      out[#out + 1] = "object" -- with behaviour of its own (a class), or library state
    else
      error(string.format("luma.parallel: %s (%s) is a %s, which cannot be serialized, so "
        .. "backend \"mpi\" cannot check that every rank holds the same; create it inside "
        .. "the task instead", path, walk.where, type_name(v)), 0)
    end
  end
end

-- The digests of a map's inputs: "name=digest" lines, one per upvalue of
-- fn and one for the task list (empty without the debug library).
local function fingerprint(fn, tasks, digest)
  if not debug then return "" end
  local modules = {}
  for _, m in pairs(package and package.loaded or {}) do
    if type(m) == "table" then modules[m] = true end
  end
  local walk = { modules = modules, seen = {}, count = 0, digest = digest }
  local lines = {}
  -- what: names the input in a mismatch; path and where name a value
  -- inside it that cannot be serialized
  local function add(what, value, path, where)
    local out = {}
    walk.where = where
    feed(out, value, path, walk, true)
    lines[#lines + 1] = what .. "=" .. digest(table.concat(out))
  end
  for u = 1, math.huge do
    local name, value = debug.getupvalue(fn, u)
    if name == nil then break end
    if name ~= "_ENV" then
      add("the task function's upvalue '" .. name .. "'", value, name, "held by the task function")
    end
  end
  add("the task list", tasks, "tasks", "in the task list")
  return table.concat(lines, "\n")
end

-- The error for inputs that differ between rank 0 and rank r: the first
-- upvalue (or the task list) whose digests disagree.
local function explain_mismatch(mine, theirs, r)
  local other = {}
  for name, d in theirs:gmatch("([^\n]-)=(%x+)") do other[name] = d end
  for name, d in mine:gmatch("([^\n]-)=(%x+)") do
    if other[name] ~= d then
      return string.format("luma.parallel: %s differs between rank 0 and rank %d: with "
        .. "backend \"mpi\" every rank must compute the same data (the same seeds, the same "
        .. "files)", name, r)
    end
  end
  return string.format("luma.parallel: the task function differs between rank 0 and rank %d "
    .. "(its upvalues are not the same variables)", r)
end

--- run(run, n, ctx) -> results on every rank, or the same error on every
-- rank.  ctx.fn and ctx.tasks are map's arguments (for the input check).
function mpi.run(run, n, ctx)
  local m = native()
  if not m.available then error(m.why or MISSING, 0) end
  local digest = fingerprint(ctx.fn, ctx.tasks, m.digest)
  local function task(i) return common.outcome(run, i) end
  local payload
  if m.rank() == 0 then
    local results, why, r, theirs = m.run(task, n, digest, ctx.progress)
    local final = results and { ok = true, results = results }
      or { ok = false, err = r and explain_mismatch(digest, theirs, r) or why }
    payload = m.share(serial.encode(final))
  else
    m.run(task, n, digest)
    payload = m.share()
  end
  local final = serial.decode(payload, "the results rank 0 shared")
  if not final.ok then error(final.err, 0) end
  local results = {}
  for i = 1, n do results[i] = common.decode(final.results[i]) end
  return results
end

--- rank() / size(): this process's rank and the number of ranks (0 and 1
-- outside an MPI job).
function mpi.rank() return native().rank() end
function mpi.size() return native().size() end

return mpi
