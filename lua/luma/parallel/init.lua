--- luma.parallel: map over tasks in this process, in forked workers or
-- across the ranks of an MPI job (docs/PARALLEL.md).
--
-- map(fn, tasks, opts) calls fn(task, i) for every task and returns the
-- results in task order.  A backend runs the tasks, one part each:
--   serial  in this process, one after the other
--   fork    in n_jobs forked worker processes (luma.pool)
--   mpi     across the ranks of `mpirun -np N luma script.lua` (luma.mpi)
-- Every backend is handed the same run(i) closure and runs it for
-- i = 1..n, so the backend decides where a task runs and never what it
-- computes.  Results that cross a process boundary travel as luma.persist
-- bytes (common.lua), so they may be anything luma.save can write
-- (numbers, strings, matrices, estimators, tables of those).
--
-- Reproducibility: before task i runs, the default generator is set to
-- stream i of a split of the caller's default generator (and the caller's
-- generator moves past all of them), whichever backend runs it, so
-- results depend neither on the backend nor on the number of workers.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local pool = require("luma.pool")
local mpi = require("luma.parallel.mpi")

local parallel = {}

local BACKENDS = {
  serial = require("luma.parallel.serial"),
  fork = require("luma.parallel.fork"),
  mpi = mpi,
}

local fail = args.fail

local function describe(v)
  return type(v) == "string" and string.format("%q", v) or tostring(v)
end

-- A progress bar on standard error when it is a terminal; nothing
-- otherwise (pipes, files, CI logs, ranks under mpirun).
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

-- The backend and worker count from map's options: backend names one;
-- n_jobs = "mpi" is short for backend = "mpi"; otherwise n_jobs = 1 is the
-- serial backend and more is the fork pool.  n_jobs counts forked workers
-- only, so with another backend it must stay 1.
local function choose(opts, n, level)
  local backend, n_jobs = opts.backend, opts.n_jobs
  if backend ~= nil and BACKENDS[backend] == nil then
    fail(level + 1, "map: backend must be \"serial\", \"fork\" or \"mpi\", got %s",
      describe(backend))
  end
  if n_jobs == "mpi" then
    if backend ~= nil and backend ~= "mpi" then
      fail(level + 1, "map: n_jobs = \"mpi\" and backend = %q disagree", backend)
    end
    return "mpi", 1
  end
  n_jobs = n_jobs or 1
  if math.type(n_jobs) ~= "integer" or n_jobs == 0 then
    fail(level + 1, "map: n_jobs must be a nonzero integer or \"mpi\", got %s",
      describe(n_jobs))
  end
  local config = luma.config()
  if n_jobs < 0 then -- scikit-learn's convention: -1 all cores, -2 all but one, ...
    n_jobs = math.max(1, config.cores + 1 + n_jobs)
  end
  if n_jobs > 1 and config.sandboxed and backend ~= "mpi" then
    -- a sandboxed state cannot fork: the same results, serially
    if not parallel.warned_sandbox then
      parallel.warned_sandbox = true
      warn(string.format("luma.parallel: n_jobs = %d runs serially in a sandboxed state",
        n_jobs))
    end
    return "serial", 1
  end
  if backend == nil then return (n_jobs == 1 or n == 1) and "serial" or "fork", n_jobs end
  if backend ~= "fork" and n_jobs ~= 1 then
    fail(level + 1, "map: n_jobs = %d counts forked workers; backend %q does not fork", n_jobs,
      backend)
  end
  return backend, n_jobs
end

function parallel.map(fn, tasks, opts)
  if type(fn) ~= "function" then
    fail(2, "bad argument #1 to 'map' (function expected, got %s)", type(fn))
  end
  if type(tasks) ~= "table" then
    fail(2, "bad argument #2 to 'map' (table of tasks expected, got %s)", type(tasks))
  end
  opts = args.options("luma.parallel.map", 3, opts, nil,
    { n_jobs = true, backend = true, progress = true, threads_per_job = true }, 2)
  local n = #tasks
  local backend, n_jobs = choose(opts, n, 2)
  local threads = opts.threads_per_job or 1
  if math.type(threads) ~= "integer" or threads < 1 then
    fail(2, "map: threads_per_job must be an integer >= 1, got %s", describe(threads))
  end
  if n == 0 then return {} end
  local default = luma.random.default()
  local streams = default:split(n)
  local after = default:state() -- where the caller's generator continues
  local function run(i)
    default:set_state(streams[i]:state())
    return fn(tasks[i], i)
  end
  local ok, results = pcall(BACKENDS[backend].run, run, n, { n_jobs = n_jobs,
    progress = progress_bar(opts.progress), fn = fn, tasks = tasks, threads_per_job = threads })
  default:set_state(after)
  if not ok then error(results, 0) end
  return results
end

parallel.rank = mpi.rank
parallel.size = mpi.size

luma.doc.set(parallel, { name = "luma.parallel",
  doc = "map(fn, tasks, {n_jobs = 1, backend, progress}) runs fn(task, i) over tasks in this "
    .. "process, in n_jobs forked workers (BLAS pinned to one thread each) or across the "
    .. "ranks of an MPI job (backend = \"mpi\", under mpirun), and returns the results in "
    .. "order; results do not depend on the backend. rank() and size() describe the MPI "
    .. "job. See docs/PARALLEL.md." })
luma.doc.set(parallel.map, { name = "luma.parallel.map",
  signature = "map(fn, tasks [, {n_jobs = 1, backend = nil, progress = true, "
    .. "threads_per_job = 1}])",
  doc = "Calls fn(task, i) for each task and returns the results in task order, each task "
    .. "with its own random stream (stream i of a split of the default generator), so "
    .. "results do not depend on where tasks run. backend: \"serial\" (this process), "
    .. "\"fork\" (n_jobs forked workers) or \"mpi\" (the ranks of `mpirun -np N luma "
    .. "script.lua`: rank 0 hands out tasks, ranks 1..N-1 run them, every rank returns "
    .. "the same table); default: serial for n_jobs = 1, fork for more. n_jobs: forked "
    .. "workers (default 1; -1 one per core, -2 all but one, ...; a sandboxed state, which "
    .. "cannot fork, runs serially with one warning), or \"mpi\" for backend = \"mpi\". "
    .. "threads_per_job: each "
    .. "forked worker's thread count for native loops (default 1, so n_jobs workers do not "
    .. "oversubscribe the cores). progress: a bar on a "
    .. "terminal (false: none). Results of fork and mpi tasks travel as luma.save bytes; "
    .. "a failing task raises its error (with mpi, naming the task and the rank), a lost "
    .. "worker or rank is an error, never a hang. Returns a list." })
luma.doc.set(parallel.rank, { name = "luma.parallel.rank", signature = "rank()",
  doc = "This process's rank in the MPI job (starts MPI under a launcher such as mpirun); "
    .. "0 outside one or in a build without MPI. Returns an integer." })
luma.doc.set(parallel.size, { name = "luma.parallel.size", signature = "size()",
  doc = "The number of ranks in the MPI job (starts MPI under a launcher such as mpirun); "
    .. "1 outside one or in a build without MPI. Returns an integer." })

return parallel
