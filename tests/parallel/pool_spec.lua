-- luma.parallel and n_jobs: the fork backend's workers give the same
-- results as the serial path, report crashes instead of hanging, and pass
-- task errors on.
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
