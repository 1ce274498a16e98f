-- luma.parallel and n_jobs: the fork backend's workers give the same
-- results as the serial path, report crashes instead of hanging, and pass
-- task errors on.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local par = luma.parallel
local ms = luma.model_selection
local M = luma.matrix

-- A regressor that uses randomness in fit: the mean of a random half of y
-- (seed nil: the default generator, whose per-task streams must not
-- depend on n_jobs).
local HalfMean = estimator.class{
  name = "parallel_test.HalfMean", kind = "regressor", doc = "random half mean",
  params = { { name = "seed", type = "seed", doc = "seed" },
             { name = "shift", type = "number", default = 0, doc = "added" } },
  fit = function(self, X, y)
    local rng = estimator.rng(self.params.seed)
    local idx = rng:permutation(y:rows()):sub(1, y:rows() // 2)
    self.value = y:take(idx):mean() + self.params.shift
  end,
  predict = function(self, X) return luma.full(X:rows(), 1, self.value) end,
}

describe("parallel map #smoke", function()
  it("gives the same results for 1 and 2 jobs, randomness included", function()
    local function run(n_jobs)
      luma.random.seed(5)
      local r = par.map(function(t, i) return { t * 10 + i, luma.random.default():random() } end,
        { 1, 2, 3, 4, 5 }, { n_jobs = n_jobs })
      return r, luma.random.default():random()
    end
    local a, after_a = run(1)
    local b, after_b = run(2)
    assert.same(a, b)
    assert.equal(after_a, after_b)
    assert.equal(11, a[1][1])
    assert.equal(55, a[5][1])
  end)

  it("carries matrices and estimators back", function()
    local r = par.map(function(t)
      return { m = luma.full(2, 2, t), est = HalfMean{ shift = t } }
    end, { 1, 2, 3 }, { n_jobs = 3 })
    assert.matrix_near({{3, 3}, {3, 3}}, r[3].m)
    assert.equal(2, r[2].est.params.shift)
  end)

  it("reports crashed workers and failing tasks", function()
    assert.error_matches(function()
      par.map(function(t) if t == 3 then os.exit(7) end return t end, { 1, 2, 3, 4 }, { n_jobs = 2 })
    end, "luma.parallel: worker %d %(pid %d+%) exited with status 7 during task 3, after %d results")
    assert.error_matches(function() -- exiting "successfully" mid-task is still a lost task
      par.map(function(t) if t == 2 then os.exit(0) end return t end, { 1, 2, 3, 4 }, { n_jobs = 2 })
    end, "luma.parallel: worker %d %(pid %d+%) exited with status 0 during task 2")
    assert.error_matches(function()
      par.map(function(t)
        if t == 2 then os.execute("kill -KILL $PPID") end -- the worker's own pid
        return t
      end, { 1, 2, 3, 4 }, { n_jobs = 2 })
    end, "died of signal 9")
    assert.error_matches(function()
      par.map(function(t) if t == 4 then error("task four failed") end return t end,
        { 1, 2, 3, 4 }, { n_jobs = 2 })
    end, "task four failed")
    assert.error_matches(function()
      par.map(function(t) if t == 4 then error("serial failure") end return t end, { 1, 2, 3, 4 })
    end, "serial failure")
    assert.has_error(function() par.map(print, {}, { n_jobs = 0 }) end,
      "map: n_jobs must be a nonzero integer or \"mpi\", got 0")
    assert.same({}, par.map(print, {}))
  end)
end)

describe("n_jobs in model selection #smoke", function()
  local g = luma.random.Generator(3)
  local X = g:normal(24, 2)
  local y = g:normal(24, 1)

  it("searches identically with 1 and 2 jobs", function()
    local function search(n_jobs)
      luma.random.seed(11)
      return ms.GridSearch{ estimator = HalfMean{}, param_grid = { shift = { 0, 1, 2 } }, cv = 4,
        n_jobs = n_jobs }:fit(X, y)
    end
    local a, b = search(1), search(2)
    for c = 1, 3 do
      for k = 1, 4 do
        local key = "split" .. k .. "_test_score"
        assert.equal(a.results[c][key], b.results[c][key])
      end
    end
    assert.same(a.best_params, b.best_params)
  end)

  it("cross-validates identically with 1 and 2 jobs", function()
    local function cv(n_jobs)
      return ms.cross_validate(HalfMean{ seed = 4 }, X, y, { cv = 3, n_jobs = n_jobs,
        return_estimator = true })
    end
    local a, b = cv(1), cv(2)
    assert.matrix_near(a.test_score, b.test_score, 0)
    assert.equal(a.estimators[2].value, b.estimators[2].value)
  end)
end)

describe("threads in fork workers", function()
  it("are one per worker unless threads_per_job asks for more", function()
    local cores = luma.config().cores
    local counts = luma.parallel.map(function() return luma.config().threads end, { 1, 2 },
      { n_jobs = 2 })
    assert.same({ 1, 1 }, counts)
    counts = luma.parallel.map(function() return luma.config().threads end, { 1, 2 },
      { n_jobs = 2, threads_per_job = 2 })
    assert.same({ math.min(2, cores), math.min(2, cores) }, counts)
  end)

  it("refuses a thread count that is not a positive integer", function()
    assert.error_matches(function()
      luma.parallel.map(function() end, { 1 }, { n_jobs = 2, threads_per_job = 0 })
    end, "map: threads_per_job must be an integer >= 1, got 0")
  end)
end)

-- Issue 28: the luma command running cross_validate with n_jobs = 2 over a
-- fit that never ends, in its own session, signalled as a terminal would
-- (SIGINT to the process group) or killed outright.  The driver waits
-- until both workers are fitting, signals, gives the command 5 s, then
-- lists what is left of the session (a zombie counts when the parent
-- exited on its own: it should have reaped its workers).
describe("a pool whose tasks never end", function()
  local support = require("support")
  local SCRIPT = [[
local est = require("luma.estimator")
local started = ...
local Loop = est.class{ name = "t.Loop", kind = "regressor", doc = "loops", params = {},
  fit = function(self, X, y)
    local f = io.open(started, "a") f:write("x\n") f:close()
    while true do end
  end,
  predict = function(self, X) return luma.zeros(X:rows(), 1) end }
local g = luma.random.Generator(1)
luma.model_selection.cross_validate(Loop{}, g:normal(40, 2), g:normal(40, 1), { cv = 4, n_jobs = 2 })
]]
  local DRIVER = [[
dir=$1; signal=$2; target=$3
setsid "$LUMA" "$dir/script.lua" "$dir/started" > "$dir/out" 2>&1 &
pid=$!
i=0
while [ "$(cat "$dir/started" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 400 ]; do
  sleep 0.05; i=$((i + 1))
done
if [ "$target" = group ]; then kill -"$signal" -$pid; else kill -"$signal" $pid; fi
if [ -n "${4:-}" ]; then sleep 0.05; kill -"$signal" -$pid; fi
( sleep 5; kill -KILL -$pid ) 2>/dev/null &
watchdog=$!
wait $pid
echo "status $?"
kill $watchdog 2>/dev/null
sleep 0.2
echo "left: $(ps -o pid=,stat= -s $pid | tr '\n' ' ')"
]]

  local function drive(signal, target, twice)
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. dir))
    local function write(name, text)
      local f = assert(io.open(dir .. "/" .. name, "w"))
      f:write(text)
      f:close()
    end
    write("script.lua", SCRIPT)
    write("driver.sh", DRIVER)
    local out = support.run(string.format("sh %s/driver.sh %s %s %s %s", dir, dir, signal, target,
      twice and "twice" or ""), nil, { LUMA = support.luma })
    local f = io.open(dir .. "/out")
    local printed = f and f:read("a") or ""
    if f then f:close() end
    os.execute("rm -rf " .. dir)
    return out, printed
  end

  it("stops on Ctrl-C with \"interrupted!\" and leaves no process", function()
    for _ = 1, 3 do
      local out, printed = drive("INT", "group")
      assert.matches("status 1\n", out, 1, true)
      assert.matches("left: \n", out, 1, true)
      assert.matches("interrupted!", printed, 1, true)
      assert.not_matches("fit failed", printed, 1, true)
    end
  end)

  -- What is left running (zombies apart): a parent killed before it
  -- reaped (a second Ctrl-C that another thread of it took, SIGKILL)
  -- leaves its workers, killed with it (PR_SET_PDEATHSIG), as zombies for
  -- whoever inherits them (init here does not reap them).
  -- (ps pads the pid column, so entries are read as pid, stat pairs)
  local function running(out)
    local left = out:match("left: ([^\n]*)")
    if not left then return "?" end
    local live = {}
    for pid, stat in left:gmatch("(%d+)%s+(%S+)") do
      if not stat:find("^Z") then live[#live + 1] = pid .. " " .. stat end
    end
    return table.concat(live, " ")
  end

  it("leaves no process running after a second Ctrl-C or a SIGKILL of the parent", function()
    local out = drive("INT", "group", true)
    -- "interrupted!" (1), or killed by the second one once it reaped (130)
    assert.is_truthy(out:find("status 1\n", 1, true) or out:find("status 130\n", 1, true), out)
    assert.equal("", running(out))
    out = drive("KILL", "parent")
    assert.matches("status 137\n", out, 1, true)
    assert.equal("", running(out))
  end)
end)

-- In a state Luma did not make (this one: stock lua5.4), luma_interrupt's
-- "interrupted!" is an error raised once, which pcall could keep: model
-- selection and the pool must pass it on, never score it.
describe("an interrupt inside a fit", function()
  local Stopping = estimator.class{
    name = "parallel_test.Stopping", kind = "regressor", doc = "stops",
    params = { { name = "message", type = "string", default = "interrupted!", doc = "raised" } },
    fit = function(self) error(self.params.message, 0) end,
    predict = function(self, X) return luma.zeros(X:rows(), 1) end,
  }
  local g = luma.random.Generator(3)
  local X, y = g:normal(24, 2), g:normal(24, 1)

  it("ends cross-validation instead of giving error_score", function()
    for _, n_jobs in ipairs({ 1, 2 }) do
      local ok, err = pcall(ms.cross_validate, Stopping{}, X, y, { cv = 3, n_jobs = n_jobs })
      assert.is_false(ok)
      assert.equal("interrupted!", err)
      ok, err = pcall(ms.cross_validate, Stopping{ message = "t.lua:3: time limit exceeded (1.0 s)" },
        X, y, { cv = 3, n_jobs = n_jobs })
      assert.is_false(ok)
      assert.matches("time limit exceeded (1.0 s)", err, 1, true)
    end
    -- an ordinary failure is still scored
    local r = ms.cross_validate(Stopping{ message = "singular" }, X, y, { cv = 3, error_score = -1 })
    assert.same({ -1, -1, -1 }, { r.test_score:get(1, 1), r.test_score:get(2, 1), r.test_score:get(3, 1) })
  end)
end)
