-- The mpi backend of luma.parallel (docs/PARALLEL.md): scripts run under
-- `mpirun --oversubscribe -np 3` (tests/parallel/mpi_job.lua) give what
-- n_jobs = 1 gives on every rank, report failing tasks with their task and
-- rank, and fail with a message, instead of hanging, when a rank exits,
-- is killed or stops answering.  Without mpirun, or in a build without
-- MPI, those specs are pending; the option checks and the errors raised
-- before MPI starts run everywhere.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local par = luma.parallel

local JOB = "tests/parallel/mpi_job.lua"

local have_mpirun = os.execute("command -v mpirun > /dev/null 2>&1") == true
local sanitized = os.getenv("LUMA_SANITIZED") == "1"
local usable = have_mpirun and luma.mpi.available and not sanitized
local why_not = sanitized and "Open MPI's own allocations are not for the sanitizers"
  or not luma.mpi.available and "this build has no Open MPI (scripts/setup-deps installs it)"
  or "mpirun is not installed"

-- Runs a script under mpirun (-np 3, root allowed, bounded by timeout):
-- the job in a mode, or the words of another command line; returns its
-- output (stdout, then stderr), exit status and duration.
local function mpirun(mode, env, script)
  local cmd = string.format("timeout 60 mpirun --oversubscribe -np 3 %s %s %s",
    support.quote(support.luma), script or JOB, mode)
  local all_env = { OMPI_ALLOW_RUN_AS_ROOT = "1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = "1" }
  for k, v in pairs(env or {}) do all_env[k] = v end
  local t0 = luma.now()
  local out, err, code = support.run(cmd, nil, all_env)
  return out .. err, code, luma.now() - t0
end

-- The values of check lines "<check> <rank> <value>", by rank.
local function checks(out, check)
  local by_rank = {}
  for r, value in out:gmatch("\n" .. check .. " (%d+) ([^\n]*)") do
    by_rank[tonumber(r)] = value
  end
  return by_rank
end

describe("the mpi backend", function()
  local function under_mpirun(name, fn)
    if usable then it(name, fn) else pending(name .. " (" .. why_not .. ")") end
  end

  local out, code
  under_mpirun("gives every rank what n_jobs = 1 gives: map, searches, CV, curves", function()
    out, code = mpirun("same")
    assert.equal(0, code, out)
    for _, check in ipairs{ "map", "grid_search", "random_search", "cross_validate", "curves" } do
      assert.same({ [0] = "true", [1] = "true", [2] = "true" }, checks("\n" .. out, check), check)
    end
    assert.same({ [0] = "14", [1] = "14", [2] = "14" }, checks("\n" .. out, "after"))
  end)

  under_mpirun("names the task and the rank of a failing task, on every rank", function()
    assert.is_string(out, "runs after the first spec")
    local errors = checks("\n" .. out, "task_error")
    for r = 0, 2 do
      assert.matches("^luma%.parallel: task 4 failed on rank [12]: .*task four failed$", errors[r])
    end
    assert.equal(errors[0], errors[1])
    assert.equal(errors[0], errors[2])
  end)

  under_mpirun("refuses inputs that differ between ranks, naming the upvalue", function()
    assert.is_string(out, "runs after the first spec")
    for r, msg in pairs(checks("\n" .. out, "differs")) do
      assert.equal("luma.parallel: the task function's upvalue 'local_data' differs between "
        .. "rank 0 and rank 2: with backend \"mpi\" every rank must compute the same data "
        .. "(the same seeds, the same files)", msg, "rank " .. r)
    end
    assert.matches("^luma%.parallel: handle %(held by the task function%) is a userdata "
      .. "%(FILE%*%), which cannot be serialized", checks("\n" .. out, "handle")[1])
  end)

  under_mpirun("runs alone, without mpirun, as one rank", function()
    local lines, _, status = support.luma_run({ JOB, "same" })
    assert.equal(0, status, lines)
    for _, check in ipairs{ "map", "grid_search", "random_search", "cross_validate", "curves" } do
      assert.same({ [0] = "true" }, checks("\n" .. lines, check), check)
    end
    assert.matches("task 4 failed on rank 0", checks("\n" .. lines, "task_error")[0])
  end)

  under_mpirun("fails with a message when a rank exits in the middle of a task", function()
    local text, status, seconds = mpirun("exit")
    assert.is_not.equal(0, status)
    assert.matches("luma%.parallel: rank [12] %(pid %d+ on [^)]+%) exited with status 7 during "
      .. "task 3", text)
    assert.is_nil(text:find("finished", 1, true))
    assert.is_true(seconds < 30)
  end)

  under_mpirun("fails when a rank is killed, and when one stops answering", function()
    local text, status, seconds = mpirun("kill")
    assert.is_not.equal(0, status)
    assert.matches("rank [12].*signal 9", text) -- mpirun's own report
    assert.is_true(seconds < 30)
    text, status, seconds = mpirun("stop", { LUMA_MPI_TIMEOUT = "2" })
    assert.is_not.equal(0, status)
    assert.matches("luma%.parallel: rank [12] %(pid %d+ on [^)]+%) sent nothing for 2 s during "
      .. "task 3: presumed lost", text)
    assert.is_true(seconds < 30)
  end)
end)

describe("the mpi example", function()
  if not usable then
    return pending("scripts/examples/mpi_search.lua under mpirun (" .. why_not .. ")")
  end
  it("searches on two workers and saves the best model from rank 0", function()
    local path = os.tmpname()
    local out, code = mpirun(support.quote(path), nil, "scripts/examples/mpi_search.lua")
    assert.equal(0, code, out)
    assert.truthy(out:find("3 ranks (2 fitting)", 1, true), out)
    local c, acc = out:match("best C ([%d.e+-]+), cross%-validated accuracy ([%d.]+)")
    assert.is_true(tonumber(acc) > 0.97)
    local model = luma.load(path)
    os.remove(path)
    assert.near(tonumber(c), model:get_params().logisticregression__C, 1e-3 * tonumber(c))
  end)
end)

describe("backend options", function()
  it("pick the backend from backend and n_jobs, and refuse mixtures", function()
    local function squares(opts) return par.map(function(t) return t * t end, { 1, 2, 3 }, opts) end
    assert.same({ 1, 4, 9 }, squares{ backend = "serial" })
    assert.same({ 1, 4, 9 }, squares{ backend = "fork", n_jobs = 2 })
    assert.has_error(function() squares{ backend = "threads" } end,
      "map: backend must be \"serial\", \"fork\" or \"mpi\", got \"threads\"")
    assert.has_error(function() squares{ backend = "mpi", n_jobs = 2 } end,
      "map: n_jobs = 2 counts forked workers; backend \"mpi\" does not fork")
    assert.has_error(function() squares{ backend = "fork", n_jobs = "mpi" } end,
      "map: n_jobs = \"mpi\" and backend = \"fork\" disagree")
    assert.has_error(function() squares{ n_jobs = "all" } end,
      "map: n_jobs must be a nonzero integer or \"mpi\", got \"all\"")
    local search = luma.model_selection.GridSearch{ estimator = luma.linear.Ridge{},
      param_grid = { alpha = { 1 } }, backend = "mpi" }
    assert.equal("mpi", search.params.backend)
    assert.error_matches(function()
      luma.model_selection.GridSearch{ estimator = luma.linear.Ridge{}, backend = "gpu" }
    end, "backend")
  end)

  it("explains how to enable mpi in a build without it", function()
    -- a stand-in for the native module of a build without Open MPI
    local real = package.loaded["luma.mpi"]
    package.loaded["luma.mpi"] = { available = false }
    local ok, err = pcall(par.map, function(t) return t end, { 1 }, { backend = "mpi" })
    package.loaded["luma.mpi"] = real
    assert.is_false(ok)
    assert.equal("luma.parallel: the mpi backend is not in this build; install libopenmpi-dev "
      .. "(scripts/setup-deps does) and rebuild", err)
  end)

  it("names an upvalue of the task that cannot be serialized, before starting MPI", function()
    if not luma.mpi.available then return pending("this build has no Open MPI") end
    local log = io.tmpfile()
    local settings = { out = { log } }
    local ok, err = pcall(par.map, function(t) return settings and t end, { 1 }, { backend = "mpi" })
    log:close()
    assert.is_false(ok)
    assert.equal("luma.parallel: settings.out[1] (held by the task function) is a userdata "
      .. "(FILE*), which cannot be serialized, so backend \"mpi\" cannot check that every rank "
      .. "holds the same; create it inside the task instead", err)
  end)
end)
