--- The script tests/parallel/mpi_spec.lua runs under `mpirun -np 3` (and
-- alone): every rank runs it, as a user's script would be run.
--   mpi_job.lua same        the mpi backend against n_jobs = 1 for map,
--                           GridSearch, RandomSearch, cross_validate and
--                           both curves; a failing task, inputs that
--                           differ between ranks and an upvalue that
--                           cannot be serialized, each caught with pcall
--                           (the job goes on)
--   mpi_job.lua exit|kill|stop   the rank that runs task 3 calls os.exit(7),
--                           kills itself (SIGKILL) or stops (SIGSTOP)
-- Prints lines "<check> <rank> <value>" for the spec to read.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local ms = luma.model_selection
local par = luma.parallel

local rank = par.rank()

local function say(check, value)
  print(string.format("%s %d %s", check, rank, tostring(value)))
  io.stdout:flush()
end

-- The process id of this rank (for kill), read from /proc.
local function pid()
  local f = assert(io.open("/proc/self/stat"))
  local id = f:read("n")
  f:close()
  return id
end

local mode = arg[1]
if mode ~= "same" then
  par.map(function(t)
    if t == 3 then
      if mode == "exit" then os.exit(7) end
      os.execute(string.format("kill -%s %d", mode == "kill" and "KILL" or "STOP", pid()))
    end
    return t
  end, { 1, 2, 3, 4, 5, 6 }, { backend = "mpi" })
  say("finished", "unexpectedly")
  return
end

-- Values equal exactly (matrices element by element, NaN equal to NaN),
-- keys ending in _time aside (timings differ from run to run).
local function same(a, b)
  if luma.ismatrix(a) then
    if not luma.ismatrix(b) or a:rows() ~= b:rows() or a:cols() ~= b:cols() then return false end
    for i = 1, a:rows() do
      for j = 1, a:cols() do
        local x, y = a:get(i, j), b:get(i, j)
        if x ~= y and (x == x or y == y) then return false end
      end
    end
    return true
  end
  if type(a) ~= "table" or type(b) ~= "table" then return a == b or (a ~= a and b ~= b) end
  for k, v in pairs(a) do
    if not (type(k) == "string" and k:match("_time$")) and not same(v, b[k]) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

-- A regressor that uses randomness in fit (seed nil: the default
-- generator, whose per-task streams must not depend on the backend).
local HalfMean = estimator.class{
  name = "mpi_job.HalfMean", kind = "regressor", doc = "mean of a random half of y",
  params = { { name = "seed", type = "seed", doc = "seed" },
             { name = "shift", type = "number", default = 0, doc = "added" } },
  fit = function(self, X, y)
    local rng = estimator.rng(self.params.seed)
    local idx = rng:permutation(y:rows()):sub(1, y:rows() // 2)
    self.value = y:take(idx):mean() + self.params.shift
  end,
  predict = function(self, X) return luma.full(X:rows(), 1, self.value) end,
}

-- Runs f(opts) with the serial backend and with mpi, from the same
-- default generator state; says whether results (and the generator
-- after) agree.
local function compare(check, f)
  luma.random.seed(7)
  local a = f{ n_jobs = 1 }
  local after_a = luma.random.default():random()
  luma.random.seed(7)
  local b = f{ backend = "mpi" }
  local after_b = luma.random.default():random()
  say(check, same(a, b) and after_a == after_b)
end

local X, y = luma.datasets.load("breast_cancer")
local g = luma.random.Generator(3)
local Xr, yr = g:normal(30, 2), g:normal(30, 1)

compare("map", function(opts)
  return par.map(function(t, i) return { t * 10 + i, luma.random.default():random(), luma.eye(2) * t }
  end, { 1, 2, 3, 4, 5, 6, 7 }, opts)
end)

compare("grid_search", function(opts)
  local search = ms.GridSearch{ estimator = luma.pipeline.make_pipeline(
      luma.preprocessing.StandardScaler{}, luma.linear.LogisticRegression{ max_iter = 300 }),
    param_grid = { logisticregression__C = { 0.01, 0.1, 1, 10 } }, cv = 3,
    return_train_score = true, n_jobs = opts.n_jobs, backend = opts.backend }:fit(X, y)
  return { results = search.results, best = search.best_params,
           coef = search.best_estimator:predict_proba(X:sub(1, 5)) }
end)

compare("random_search", function(opts)
  return ms.RandomSearch{ estimator = HalfMean{}, n_iter = 4, seed = 2, cv = 4,
    param_distributions = { shift = ms.uniform(0, 1) }, n_jobs = opts.n_jobs,
    backend = opts.backend }:fit(Xr, yr).results
end)

compare("cross_validate", function(opts)
  local r = ms.cross_validate(HalfMean{}, Xr, yr, { cv = 5, return_estimator = true,
    n_jobs = opts.n_jobs, backend = opts.backend })
  local values = {}
  for k, est in ipairs(r.estimators) do values[k] = est.value end
  return { r.test_score, values }
end)

compare("curves", function(opts)
  local train, test = ms.validation_curve(HalfMean{}, Xr, yr, { param_name = "shift",
    param_range = { 0, 0.5, 1 }, cv = 3, n_jobs = opts.n_jobs, backend = opts.backend })
  local sizes, ltrain, ltest = ms.learning_curve(HalfMean{}, Xr, yr, { cv = 3,
    train_sizes = { 0.5, 1.0 }, shuffle = true, n_jobs = opts.n_jobs, backend = opts.backend })
  return { train, test, sizes, ltrain, ltest }
end)

local ok, err = pcall(par.map, function(t)
  if t == 4 then error("task four failed") end
  return t
end, { 1, 2, 3, 4, 5 }, { backend = "mpi" })
say("task_error", not ok and err)

local local_data = luma.full(2, 2, rank == 2 and 1 or 0) -- differs on rank 2
ok, err = pcall(par.map, function(t) return local_data:sum() + t end, { 1, 2, 3 },
  { backend = "mpi" })
say("differs", ok and "no error" or err)

local handle = io.tmpfile()
ok, err = pcall(par.map, function(t) return handle and t end, { 1, 2 }, { backend = "mpi" })
handle:close()
say("handle", not ok and err)

local r = par.map(function(t) return t * t end, { 1, 2, 3 }, { n_jobs = "mpi" })
say("after", r[1] + r[2] + r[3])
