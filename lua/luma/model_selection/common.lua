--- luma.model_selection.common: helpers shared by the parts of
-- luma.model_selection (splitters, validation, search, curves): the error
-- helper, the checks of option tables and of X/y, and the evaluation core
-- every cross-validation loop runs (scorer resolution and fit_and_score).
-- Not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local common = {}

-- The shared argument checks (luma.util.args): fail(level, fmt, ...),
-- check_opts(fname, opts, valid, level) and options(fname, argn, opts,
-- positional, valid, level).
local args = require("luma.util.args")
local native = require("luma.util.native") -- numbers with "." whatever the locale
local labels = require("luma.util.labels")
common.fail, common.check_opts, common.options = args.fail, args.check_opts, args.options
local fail = common.fail

--- check_estimator(fname, est, level): argument #1 of fname is an
-- estimator.
function common.check_estimator(fname, est, level)
  if not require("luma.estimator").is_estimator(est) then
    fail(level + 1, "bad argument #1 to '%s' (an estimator expected, got %s)", fname,
      args.type_of(est))
  end
end

--- cv_positional(value) -> {cv = value} for a fold count or a splitter
-- given where options go (the positional form of cv), else nil.
function common.cv_positional(value)
  if math.type(value) == "integer" or (type(value) == "table" and type(value.split) == "function")
  then
    return { cv = value }
  end
end

--- is_data(X): X is what the resampling loops split by rows: a
-- luma.Matrix, a sparse matrix or a luma.Table (whose estimators match
-- columns by name).
function common.is_data(X)
  return luma.ismatrix(X) or luma.sparse.issparse(X) or luma.Table.is_table(X)
end

--- n_rows(X): the number of samples of a matrix or a Table.
function common.n_rows(X)
  return (luma.ismatrix(X) or luma.sparse.issparse(X)) and X:rows() or X:nrows()
end

--- check_xy(fname, X, y): X a matrix or a Table and y nil, a matrix with
-- as many rows, or as many labels in any container estimators take (a
-- Lua list, a categorical column, a one-column Table: luma.util.labels),
-- reported as arguments #2 and #3 of fname (called from fname).
function common.check_xy(fname, X, y)
  if not common.is_data(X) then
    fail(3, "bad argument #2 to '%s' (X must be a luma.Matrix or a luma.Table, got %s)", fname,
      type(X))
  end
  if y == nil then return end
  local n = common.n_rows(X)
  if luma.ismatrix(y) then
    if y:rows() ~= n then
      fail(3, "bad argument #3 to '%s' (X has %d rows but y has %d)", fname, n, y:rows())
    end
    return
  end
  local count = labels.count(y)
  if count == nil then
    fail(3, "bad argument #3 to '%s' (y must be a luma.Matrix, a list of labels, a categorical "
      .. "column or a one-column luma.Table, got %s)", fname, args.type_of(y))
  end
  if count ~= n then
    fail(3, "bad argument #3 to '%s' (X has %d rows but y has %d)", fname, n, count)
  end
end

--- take_y(y, idx): the rows idx of y, in y's container (nil stays nil).
function common.take_y(y, idx)
  if y == nil then return nil end
  return labels.take(y, idx)
end

function common.is_classifier(est)
  return est:kind_of() == "classifier"
end

-- A scorer from the scoring argument: nil (the estimator's own score), a
-- registered name (luma.metrics), or a function(est, X, y) -> number.
function common.resolve_scorer(scoring, level)
  if scoring == nil then
    return function(est, X, y) return est:score(X, y) end, "score"
  end
  if type(scoring) == "function" then return scoring, "score" end
  if type(scoring) == "string" then
    return require("luma.metrics").get_scorer(scoring), scoring
  end
  if type(scoring) == "table" and getmetatable(scoring) and getmetatable(scoring).__call then
    return scoring, scoring.name or "score"
  end
  fail(level + 1, "scoring must be nil, a scorer name, a scorer or a function, got %s",
    type(scoring))
end

-- Scorers by name: scoring may also be a list of names (or a table of
-- name = scorer) for several at once.  One scorer is named "score",
-- whichever it is, as in scikit-learn's result keys (test_score,
-- mean_test_score); several keep their names (test_accuracy, ...).
function common.resolve_scorers(scoring, level)
  if type(scoring) == "table" and not getmetatable(scoring) then
    local out, names = {}, {}
    for k, v in pairs(scoring) do
      if math.type(k) == "integer" then
        local fn, name = common.resolve_scorer(v, level + 1)
        out[name] = fn
        names[#names + 1] = name
      else
        out[k] = common.resolve_scorer(v, level + 1)
        names[#names + 1] = k
      end
    end
    table.sort(names)
    return out, names
  end
  return { score = common.resolve_scorer(scoring, level + 1) }, { "score" }
end

--- format_value(v) -> text: a number (4 significant digits), a
-- parameter set ("alpha=0.1, l1_ratio=0.5", keys sorted) or tostring(v).
function common.format_value(v)
  if type(v) == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return native.format("%.4g", v)
  end
  if type(v) == "table" and not getmetatable(v) then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. common.format_value(v[k]) end
    return table.concat(parts, ", ")
  end
  return tostring(v)
end

--- verbosity(v, fname, level) -> 0, 1 or 2: the verbose option of the
-- cross-validation loops (default 1).  0 is silent, 1 draws a progress
-- bar on standard error when it is a terminal, 2 prints one line per fit.
function common.verbosity(v, fname, level)
  if v == nil then return 1 end
  if v ~= 0 and v ~= 1 and v ~= 2 then
    fail(level + 1, "%s: verbose must be 0, 1 or 2, got %s", fname, tostring(v))
  end
  return math.tointeger(v)
end

--- map_options(opts, verbose) -> the luma.parallel.map options of a
-- cross-validation loop: its n_jobs and backend, and the progress bar at
-- verbose = 1 only.
function common.map_options(opts, verbose)
  return { n_jobs = opts.n_jobs, backend = opts.backend, progress = verbose == 1 }
end

-- Runs fn() with every warning prefixed by where it comes from ("[fold
-- 2/5, candidate 3/20 (C=0.1)] "), so that a convergence warning in a
-- search names the fit that gave it.  The global warn is put back however
-- fn ends.
local function with_warning_context(context, fn)
  local saved = rawget(_G, "warn")
  if context == nil or saved == nil then return fn() end
  _G.warn = function(first, ...)
    if select("#", ...) == 0 and tostring(first):sub(1, 1) == "@" then return saved(first) end
    return saved(context .. tostring(first), ...)
  end
  local _ <close> = setmetatable({}, { __close = function() _G.warn = saved end })
  return fn()
end

-- Fits a clone on one split and scores it; a failing fit gives
-- error_score (or raises when error_score is "raise").
local function fit_and_score_quietly(est, X, y, train, test, scorers, names, opts)
  local model = est:clone()
  if opts.params then model:set_params(opts.params) end
  local Xtr, ytr = X:take(train), common.take_y(y, train)
  local t0 = luma.now()
  local ok, err = pcall(model.fit, model, Xtr, ytr)
  local result = { fit_time = luma.now() - t0, test = {}, train = {} }
  if not ok then
    -- an interrupt or a limit ends the whole run: no fold scores it
    if opts.error_score == "raise" or args.is_stop(err) then error(err, 0) end
    warn(string.format("%s: fit failed (%s); its scores are set to error_score",
      tostring(model), tostring(err)))
    for _, name in ipairs(names) do
      result.test[name] = opts.error_score
      result.train[name] = opts.error_score
    end
    result.score_time = 0
    result.failed = tostring(err)
    return result
  end
  local Xte, yte = X:take(test), common.take_y(y, test)
  t0 = luma.now()
  for _, name in ipairs(names) do
    result.test[name] = scorers[name](model, Xte, yte)
    if opts.train_score then result.train[name] = scorers[name](model, Xtr, ytr) end
  end
  result.score_time = luma.now() - t0
  result.model = model
  return result
end

-- Fits a clone on one split and scores it; a failing fit gives
-- error_score (or raises when error_score is "raise").  opts.where names
-- the fit ("fold 2/5, candidate 3/20 (C=0.1)"): warnings during the fit
-- and the scoring carry it, and with opts.verbose = 2 one line reports
-- the scores.
function common.fit_and_score(est, X, y, train, test, scorers, names, opts)
  local where = opts.where
  local result = with_warning_context(where and "[" .. where .. "] ", function()
    return fit_and_score_quietly(est, X, y, train, test, scorers, names, opts)
  end)
  if opts.verbose == 2 and where then
    local parts = {}
    for _, name in ipairs(names) do
      parts[#parts + 1] = string.format("%s=%.4g", name, result.test[name])
    end
    print(string.format("[CV] %s: %s (fit %.3g s)", where, table.concat(parts, ", "),
      result.fit_time))
  end
  return result
end

return common
