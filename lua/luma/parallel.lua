--- luma.parallel: map over tasks in forked worker processes.
--
-- map(fn, tasks, {n_jobs, progress}) calls fn(task, i) for every task and
-- returns the results in task order.  Results cross the process boundary
-- through luma.persist, so they may be anything luma.save can write
-- (numbers, strings, matrices, estimators, tables of those).
--
-- Reproducibility: before task i runs, the default generator is set to
-- stream i of a split of the caller's default generator (and the caller's
-- generator moves past all of them), in worker processes and in the serial
-- path alike, so results do not depend on n_jobs.
local luma = require("luma")
local persist = require("luma.persist")
local pool = require("luma.pool")

local parallel = {}

local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

-- A progress bar on standard error when it is a terminal; nothing
-- otherwise (pipes, files, CI logs).
local function progress_bar(enabled)
  if enabled == false or not pool.stderr_is_terminal() then return nil end
  return function(done, total)
    local width = 30
    local filled = math.floor(width * done / total)
    io.stderr:write(string.format("\r[%s%s] %d/%d", string.rep("#", filled),
      string.rep(".", width - filled), done, total))
    if done == total then io.stderr:write("\r\27[K") end
    io.stderr:flush()
  end
end

function parallel.map(fn, tasks, opts)
  if type(fn) ~= "function" then
    fail(2, "bad argument #1 to 'map' (function expected, got %s)", type(fn))
  end
  if type(tasks) ~= "table" then
    fail(2, "bad argument #2 to 'map' (table of tasks expected, got %s)", type(tasks))
  end
  opts = opts or {}
  local n_jobs = opts.n_jobs or 1
  if math.type(n_jobs) ~= "integer" or n_jobs < 1 then
    fail(2, "map: n_jobs must be an integer >= 1, got %s", tostring(n_jobs))
  end
  local n = #tasks
  if n == 0 then return {} end
  local default = luma.random.default()
  local streams = default:split(n)
  local after = default:state() -- where the caller's generator continues
  local function run(i)
    default:set_state(streams[i]:state())
    return fn(tasks[i], i)
  end
  local progress = progress_bar(opts.progress)
  local results = {}
  if n_jobs == 1 or n == 1 then
    for i = 1, n do
      local ok, value = pcall(run, i)
      if not ok then
        default:set_state(after)
        error(value, 0)
      end
      results[i] = value
      if progress then progress(i, n) end
    end
    default:set_state(after)
    return results
  end
  local encoded = pool.run(function(i)
    local ok, value = pcall(run, i)
    local packed
    if ok then ok, packed = pcall(persist.encode, { ok = true, value = value }) end
    if not ok then packed = persist.encode({ ok = false, err = tostring(packed or value) }) end
    return packed
  end, n, n_jobs, progress)
  for i = 1, n do
    local r = persist.decode(encoded[i], "a worker's result")
    if not r.ok then error(r.err, 0) end
    results[i] = r.value
  end
  return results
end

luma.doc.set(parallel, { name = "luma.parallel",
  doc = "map(fn, tasks, {n_jobs = 1, progress}) runs fn(task, i) over tasks in n_jobs "
    .. "forked worker processes (BLAS pinned to one thread each) and returns the results "
    .. "in order; a crashed worker is an error, and results do not depend on n_jobs." })
luma.doc.set(parallel.map, { name = "luma.parallel.map",
  signature = "map(fn, tasks [, {n_jobs = 1, progress}])",
  doc = "fn(task, i) for each task, in n_jobs worker processes; results in task order." })

return parallel
