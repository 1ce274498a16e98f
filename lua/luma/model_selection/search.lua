--- luma.model_selection.search: hyperparameter searches.  GridSearch
-- (every combination of a grid) and RandomSearch (candidates drawn from
-- lists and distributions, with the samplers uniform, log_uniform and
-- randint) evaluate each candidate on every split, in parallel with n_jobs
-- or backend (luma.parallel.map), keep the rows in a Results table (saved
-- by luma.persist), survive failing candidates (error_score) and refit the
-- best on all the data.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.model_selection.common")
local args = require("luma.util.args")
local fail, is_classifier = common.fail, common.is_classifier
local resolve_scorers = common.resolve_scorers
local fit_and_score = common.fit_and_score
local check_cv = require("luma.model_selection.splitters").check_cv

local search = {}

--- The results of a search: one row per candidate with params,
-- mean_test_<s>, std_test_<s>, rank_test_<s> and split<k>_test_<s> for
-- each scorer s ("score" when there is one; mean_train_<s>, ... with
-- return_train_score), mean_fit_time and mean_score_time: scikit-learn's
-- cv_results_ keys, split numbers from 1.  Prints as an aligned table.
local Results = { __name = "luma.model_selection.Results" }
Results.__index = Results
search.Results = Results

local format_value = common.format_value

function Results.__tostring(self)
  if getmetatable(self) ~= Results then args.bad_self("__tostring", Results.__name, self, 2) end
  local cols = { "rank_test_" .. self.primary, "mean_test_" .. self.primary,
                 "std_test_" .. self.primary, "mean_fit_time", "params" }
  local rows = { cols }
  local order = {}
  for i = 1, #self do order[i] = i end
  table.sort(order, function(a, b)
    local ra, rb = self[a]["rank_test_" .. self.primary], self[b]["rank_test_" .. self.primary]
    if ra ~= rb then return ra < rb end
    return a < b
  end)
  for _, i in ipairs(order) do
    local row = {}
    for j, c in ipairs(cols) do row[j] = format_value(self[i][c]) end
    rows[#rows + 1] = row
  end
  local widths = {}
  for _, row in ipairs(rows) do
    for j, cell in ipairs(row) do widths[j] = math.max(widths[j] or 0, #cell) end
  end
  local lines = {}
  for _, row in ipairs(rows) do
    local cells = {}
    for j, cell in ipairs(row) do
      cells[j] = j == #row and cell or string.format("%-" .. widths[j] .. "s", cell)
    end
    lines[#lines + 1] = table.concat(cells, "  ")
  end
  return table.concat(lines, "\n")
end

-- Every combination of a grid {name = {values...}} (or a list of grids).
local function expand_grid(grid, level)
  if type(grid) ~= "table" then fail(level + 1, "param_grid must be a table") end
  local grids = grid[1] ~= nil and grid or { grid }
  local out = {}
  for _, g in ipairs(grids) do
    local names = {}
    for name, values in pairs(g) do
      if type(values) ~= "table" or #values == 0 then
        fail(level + 1, "param_grid: '%s' needs a non-empty list of values", tostring(name))
      end
      names[#names + 1] = name
    end
    table.sort(names)
    local function rec(i, current)
      if i > #names then
        local copy = {}
        for k, v in pairs(current) do copy[k] = v end
        out[#out + 1] = copy
        return
      end
      for _, v in ipairs(g[names[i]]) do
        current[names[i]] = v
        rec(i + 1, current)
      end
      current[names[i]] = nil
    end
    rec(1, {})
  end
  return out
end

-- Ranks (1 = best, ties share the lowest rank, NaN last) of a list.
local function ranks(values)
  local order = {}
  for i = 1, #values do order[i] = i end
  local function key(v) return v ~= v and -math.huge or v end
  table.sort(order, function(a, b)
    local ka, kb = key(values[a]), key(values[b])
    if ka ~= kb then return ka > kb end
    return a < b
  end)
  local out, rank = {}, 0
  for pos, i in ipairs(order) do
    if pos == 1 or key(values[i]) ~= key(values[order[pos - 1]]) then rank = pos end
    out[i] = rank
  end
  return out
end

-- The mean and the (population) standard deviation of a list.
local function mean_std(values)
  local n, sum = #values, 0
  for _, v in ipairs(values) do sum = sum + v end
  local mean = sum / n
  local ss = 0
  for _, v in ipairs(values) do ss = ss + (v - mean) ^ 2 end
  return mean, math.sqrt(ss / n)
end

-- The rows of a search's results as columns, scikit-learn's cv_results_:
-- each numeric key an n x 1 matrix over the candidates, params a list.
local function columns(results)
  local out = { params = {} }
  for c, row in ipairs(results) do
    out.params[c] = row.params
    for key, value in pairs(row) do
      if type(value) == "number" then
        out[key] = out[key] or luma.zeros(#results, 1)
        out[key]:set(c, 1, value)
      end
    end
  end
  return out
end

-- Evaluates candidate parameter sets by cross-validation and refits.
local function run_search(self, X, y, candidates)
  local p = self.params
  local est = p.estimator
  local scorers, names = resolve_scorers(p.scoring, 3)
  local primary = type(p.refit) == "string" and p.refit or names[1]
  if primary == p.scoring and names[1] == "score" then primary = "score" end -- one scorer
  if scorers[primary] == nil then
    fail(3, "%s: refit = '%s' is not one of the scorers (%s)", tostring(self), primary,
      table.concat(names, ", "))
  end
  local splits = check_cv(p.cv, X, y, is_classifier(est))
  local results = setmetatable({ primary = primary, scorers = names }, Results)
  local error_score = p.error_score
  local tasks = {}
  for c = 1, #candidates do
    for k = 1, #splits do tasks[#tasks + 1] = { c, k } end
  end
  local runs = require("luma.parallel").map(function(task)
    local c, k = task[1], task[2]
    local r = fit_and_score(est, X, y, splits[k][1], splits[k][2], scorers, names,
      { params = candidates[c], train_score = p.return_train_score, error_score = error_score,
        verbose = p.verbose, where = string.format("fold %d/%d, candidate %d/%d (%s)", k,
          #splits, c, #candidates, format_value(candidates[c])) })
    r.model = nil
    return r
  end, tasks, common.map_options(p, p.verbose))
  for c, params in ipairs(candidates) do
    local row = { params = params }
    local per = {}
    local fit_times, score_times = {}, {}
    for _, name in ipairs(names) do per[name] = { test = {}, train = {} } end
    for k = 1, #splits do
      local r = runs[(c - 1) * #splits + k]
      fit_times[k], score_times[k] = r.fit_time, r.score_time
      for _, name in ipairs(names) do
        per[name].test[k] = r.test[name]
        row[string.format("split%d_test_%s", k, name)] = r.test[name]
        if p.return_train_score then
          per[name].train[k] = r.train[name]
          row[string.format("split%d_train_%s", k, name)] = r.train[name]
        end
      end
    end
    for _, name in ipairs(names) do
      row["mean_test_" .. name], row["std_test_" .. name] = mean_std(per[name].test)
      if p.return_train_score then
        row["mean_train_" .. name], row["std_train_" .. name] = mean_std(per[name].train)
      end
    end
    row.mean_fit_time, row.std_fit_time = mean_std(fit_times)
    row.mean_score_time, row.std_score_time = mean_std(score_times)
    results[c] = row
  end
  for _, name in ipairs(names) do
    local means = {}
    for c = 1, #results do means[c] = results[c]["mean_test_" .. name] end
    local r = ranks(means)
    for c = 1, #results do results[c]["rank_test_" .. name] = r[c] end
  end
  self.results = results
  self.cv_results = columns(results)
  local best
  if type(p.refit) == "function" then
    best = p.refit(results)
    if math.type(best) ~= "integer" or best < 1 or best > #results then
      fail(3, "%s: the refit function must return a row number in 1..%d", tostring(self),
        #results)
    end
  else
    for c = 1, #results do
      if results[c]["rank_test_" .. primary] == 1 then best = c break end
    end
  end
  self.best_index = best
  self.best_params = results[best].params
  self.best_score = results[best]["mean_test_" .. primary]
  if self.best_score ~= self.best_score then
    fail(3, "%s: every candidate failed to fit", tostring(self))
  end
  if p.refit ~= false then
    local t0 = luma.now()
    self.best_estimator = est:clone():set_params(self.best_params):fit(X, y)
    self.refit_time = luma.now() - t0
    self.classes = self.best_estimator.classes
  end
end

local SEARCH_PARAMS = {
  { name = "estimator", type = "estimator", doc = "the estimator to tune" },
  { name = "scoring", type = "string|function|table", doc = "a scorer name, a function "
    .. "(est, X, y) -> score, or a list of names (default: the estimator's score)" },
  { name = "cv", type = "any", doc = "folds: an integer, a splitter or (train, test) pairs "
    .. "(default 5; stratified for classifiers)" },
  { name = "refit", type = "boolean|string|function", default = true, doc = "refit the best "
    .. "candidate on all data: true, the scorer name that picks it, a function(results) -> "
    .. "row, or false" },
  { name = "error_score", type = "number|string", default = 0 / 0, nan_ok = true,
    doc = "score of a "
    .. "failing fit (\"raise\" re-raises its error)" },
  { name = "return_train_score", type = "boolean", default = false,
    doc = "also score the training folds" },
  { name = "n_jobs", type = "integer|string", default = 1,
    doc = "forked worker processes (-1: one per core, -2: all but one, ...), or \"mpi\" "
      .. "(short for backend = \"mpi\"); serial in a sandboxed state, with a warning" },
  { name = "verbose", type = "integer", default = 1, values = { 0, 1, 2 },
    doc = "0 silent; 1 a progress bar on standard error when it is a terminal; 2 one line "
      .. "per fit (fold, candidate, scores, fit time)" },
  { name = "backend", type = "string", values = { "serial", "fork", "mpi" },
    doc = "where the fits run (luma.parallel.map): \"serial\", \"fork\" (n_jobs workers) or "
      .. "\"mpi\" (the ranks of mpirun; docs/PARALLEL.md); default: serial for n_jobs = 1, "
      .. "fork for more" },
}

local FITTED = "Fitted: results (one row per candidate: params, mean_test_score, "
  .. "std_test_score, rank_test_score, split1_test_score, ..., mean_fit_time; prints as a "
  .. "table), cv_results (the same as columns, scikit-learn's cv_results_), best_index, "
  .. "best_params, best_score, best_estimator. Also named " -- completed by each class

local function search_delegate(method)
  return function(self, X, ...)
    local best = self.best_estimator
    if not best then
      fail(2, "%s: %s needs refit ~= false", tostring(self), method)
    end
    if type(best[method]) ~= "function" then
      fail(2, "%s: the best estimator %s has no method %s", tostring(self), tostring(best),
        method)
    end
    return best[method](best, X, ...)
  end
end

local function search_class(name, extra_params, candidates, doc, example)
  local params = {}
  for _, p in ipairs(SEARCH_PARAMS) do params[#params + 1] = p end
  for _, p in ipairs(extra_params) do params[#params + 1] = p end
  return estimator.class{
    name = "luma.model_selection." .. name,
    kind = "meta",
    input = "table", -- a Table reaches the candidates as it is: their pipelines encode it
    sparse = true, -- so does a sparse X
    requires_y = false,
    doc = doc,
    params = params,
    example = example,
    fit = function(self, X, y)
      if self.params.estimator == nil then
        fail(2, "%s: the estimator parameter is required", name)
      end
      run_search(self, X, y, candidates(self, 3))
    end,
    -- what predict and score read: the refitted estimator (unless refit
    -- = false), the results and a best row among them
    check_state = function(self)
      estimator.check_fields(self, { results = Results.__name, best_index = "integer",
        best_params = "?table", best_score = "?number", cv_results = "?table",
        best_estimator = self.params.refit == false and "?estimator" or "estimator" })
      if self.best_index < 1 or self.best_index > #self.results then
        fail(0, "best_index %d is not a row of the results (1..%d)", self.best_index,
          #self.results)
      end
      if resolve_scorers(self.params.scoring, 1)[self.results.primary] == nil then
        fail(0, "the results rank by '%s', which is not a scorer of this search",
          self.results.primary)
      end
    end,
    predict = search_delegate("predict"),
    predict_proba = search_delegate("predict_proba"),
    decision_function = search_delegate("decision_function"),
    transform = search_delegate("transform"),
    score = function(self, X, y)
      return resolve_scorers(self.params.scoring, 2)[self.results.primary](self.best_estimator,
        X, y)
    end,
  }
end

search.GridSearch = search_class("GridSearch", {
  { name = "param_grid", type = "table", doc = "{name = {values...}} or a list of such grids; "
    .. "nested parameters as step__param" },
}, function(self, level)
  if self.params.param_grid == nil then fail(level + 1, "GridSearch: param_grid is required") end
  return expand_grid(self.params.param_grid, level + 1)
end, "Exhaustive search over a parameter grid by cross-validation; refits the best. "
  .. FITTED .. "GridSearchCV.",
function(base)
  local X = luma.random.Generator(1):normal(12, 2)
  return search.GridSearch{ estimator = base, param_grid = { alpha = { 0.1, 1 } }, cv = 3 }, X,
    X:sum(2)
end)

--- Samplers for RandomSearch: each has sample(rng) -> one value.
-- (kind and bounds are kept so luma.save can write a search's parameters)
local Sampler = { __name = "luma.model_selection.Sampler" }
Sampler.__tostring = function(self)
  if getmetatable(self) ~= Sampler then args.bad_self("__tostring", Sampler.__name, self, 2) end
  return string.format("%s(%s, %s)", self.kind, self.lo, self.hi)
end
search.Sampler = Sampler

local function sampler(kind, lo, hi, draw)
  return setmetatable({ sample = draw, kind = kind, lo = lo, hi = hi }, Sampler)
end

function search.uniform(lo, hi)
  args.arg(type(lo) == "number", 1, "uniform", "number", lo, 2)
  args.arg(type(hi) == "number", 2, "uniform", "number", hi, 2)
  if not (hi > lo) then fail(2, "uniform needs lo < hi") end
  return sampler("uniform", lo, hi, function(rng) return rng:uniform(nil, nil, lo, hi) end)
end

function search.log_uniform(lo, hi)
  args.arg(type(lo) == "number", 1, "log_uniform", "number", lo, 2)
  args.arg(type(hi) == "number", 2, "log_uniform", "number", hi, 2)
  if not (lo > 0 and hi > lo) then fail(2, "log_uniform needs 0 < lo < hi") end
  local a, b = math.log(lo), math.log(hi)
  return sampler("log_uniform", lo, hi,
    function(rng) return math.exp(rng:uniform(nil, nil, a, b)) end)
end

function search.randint(lo, hi)
  if math.type(lo) ~= "integer" or math.type(hi) ~= "integer" or hi < lo then
    fail(2, "randint needs integers lo <= hi")
  end
  return sampler("randint", lo, hi, function(rng) return rng:integers(lo, hi) end)
end

-- One draw from a distribution spec: a list (uniform choice), an object
-- with sample(rng) (uniform, log_uniform, randint), or anything
-- with sample(n, rng) returning a matrix (luma.dist distributions).
local function draw_value(spec, rng, name, level)
  if type(spec) == "table" and getmetatable(spec) == nil then
    if #spec == 0 then fail(level + 1, "param_distributions: '%s' is an empty list", name) end
    return spec[rng:integers(1, #spec)]
  end
  local mt = getmetatable(spec)
  if type(spec) == "table" and type(spec.sample) == "function" then
    if mt == Sampler then return spec.sample(rng) end
    local m = spec:sample(1, rng)
    return luma.ismatrix(m) and m:get(1, 1) or m
  end
  fail(level + 1, "param_distributions: '%s' must be a list or a distribution", name)
end

search.RandomSearch = search_class("RandomSearch", {
  { name = "param_distributions", type = "table", doc = "{name = list or distribution}: "
    .. "lists are sampled uniformly; distributions by their sample method" },
  { name = "n_iter", type = "integer", default = 10, min = 1, doc = "candidates drawn" },
  { name = "seed", type = "seed", doc = "seed of the candidate draws" },
}, function(self, level)
  local dists = self.params.param_distributions
  if dists == nil then fail(level + 1, "RandomSearch: param_distributions is required") end
  local names = {}
  for k in pairs(dists) do names[#names + 1] = k end
  table.sort(names)
  local rng = estimator.rng(self.params.seed)
  local out = {}
  for c = 1, self.params.n_iter do
    local params = {}
    for _, name in ipairs(names) do params[name] = draw_value(dists[name], rng, name, level + 1) end
    out[c] = params
  end
  return out
end, "Random search over parameter distributions by cross-validation (Bergstra and Bengio, "
  .. "JMLR 13, 2012); refits the best. " .. FITTED
  .. "RandomizedSearchCV.",
function(base)
  local X = luma.random.Generator(2):normal(12, 2)
  return search.RandomSearch{ estimator = base, n_iter = 2, seed = 1, cv = 3,
    param_distributions = { alpha = search.log_uniform(0.1, 10) } }, X, X:sum(2)
end)

return search
