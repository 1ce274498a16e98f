--- luma.model_selection.validation: cross-validation of one estimator:
-- cross_validate (per-fold scores and timings, folds in parallel with
-- n_jobs or backend), cross_val_score and cross_val_predict.  The scorers and the
-- per-split fit_and_score they share with the searches and the curves are
-- in luma.model_selection.common.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local common = require("luma.model_selection.common")
local labels = require("luma.util.labels")
local fail, check_xy, options = common.fail, common.check_xy, common.options
local cv_positional = common.cv_positional
local is_classifier, resolve_scorers = common.is_classifier, common.resolve_scorers
local fit_and_score = common.fit_and_score
local check_cv = require("luma.model_selection.splitters").check_cv

local validation = {}

local CV_OPTIONS = { cv = true, scoring = true, return_train_score = true,
                     return_estimator = true, groups = true, error_score = true, n_jobs = true,
                     backend = true, verbose = true }

--- What cross_validate returns: a table of columns that prints as one
-- line per column (mean, standard deviation and the fold values).
local CVResults = { __name = "luma.model_selection.CVResults" }
CVResults.__index = CVResults
validation.CVResults = CVResults

function CVResults.__tostring(self)
  if getmetatable(self) ~= CVResults then
    require("luma.util.args").bad_self("__tostring", CVResults.__name, self, 2)
  end
  local keys = {}
  for key, value in pairs(self) do
    if luma.ismatrix(value) then keys[#keys + 1] = key end
  end
  table.sort(keys)
  local width = 0
  for _, key in ipairs(keys) do width = math.max(width, #key) end
  local lines = {}
  for _, key in ipairs(keys) do
    local column, folds = self[key], {}
    for i = 1, column:rows() do folds[i] = string.format("%.4g", column:get(i, 1)) end
    lines[#lines + 1] = string.format("%-" .. width .. "s  mean %.4g  std %.4g  folds %s", key,
      column:mean(), column:std(), table.concat(folds, " "))
  end
  if self.estimators then lines[#lines + 1] = string.format("estimators (%d)", #self.estimators) end
  return table.concat(lines, "\n")
end

-- cross_validate's body, for cross_validate and cross_val_score (fname
-- names the caller in errors, raised at `level`).
local function cross_validate(fname, est, X, y, opts, level)
  common.check_estimator(fname, est, level + 1)
  check_xy(fname, X, y)
  opts = options(fname, 4, opts, cv_positional, CV_OPTIONS, level + 1)
  local scorers, names = resolve_scorers(opts.scoring, 2)
  local splits = check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local out = { fit_time = {}, score_time = {} }
  for _, name in ipairs(names) do
    out["test_" .. name] = {}
    if opts.return_train_score then out["train_" .. name] = {} end
  end
  if opts.return_estimator then out.estimators = {} end
  local error_score = opts.error_score
  if error_score == nil then error_score = 0 / 0 end
  local verbose = common.verbosity(opts.verbose, fname, level + 1)
  local results = require("luma.parallel").map(function(split, k)
    local r = fit_and_score(est, X, y, split[1], split[2], scorers, names,
      { train_score = opts.return_train_score, error_score = error_score, verbose = verbose,
        where = string.format("fold %d/%d", k, #splits) })
    if not opts.return_estimator then r.model = nil end
    return r
  end, splits, common.map_options(opts, verbose))
  for k, r in ipairs(results) do
    out.fit_time[k], out.score_time[k] = r.fit_time, r.score_time
    for _, name in ipairs(names) do
      out["test_" .. name][k] = r.test[name]
      if opts.return_train_score then out["train_" .. name][k] = r.train[name] end
    end
    if opts.return_estimator then out.estimators[k] = r.model end
  end
  for key, values in pairs(out) do
    if key ~= "estimators" then out[key] = luma.matrix(values) end
  end
  return setmetatable(out, CVResults)
end

--- cross_validate(est, X, y [, opts]) -> results: test_<name>, train_<name>
-- (with return_train_score), fit_time, score_time (each a column over
-- the folds; <name> is "score" for one scorer) and estimators (with
-- return_estimator).  Folds run where n_jobs and backend say
-- (luma.parallel.map).
function validation.cross_validate(est, X, y, opts)
  return cross_validate("cross_validate", est, X, y, opts, 2)
end

--- cross_val_score(est, X, y [, opts]) -> scores (a column, one per fold).
function validation.cross_val_score(est, X, y, opts)
  local r = cross_validate("cross_val_score", est, X, y, opts, 2)
  if r.test_score == nil then
    fail(2, "cross_val_score takes one scorer; use cross_validate for several")
  end
  return r.test_score
end

--- cross_val_predict(est, X, y [, {cv, method = "predict", groups}]) ->
-- each sample's prediction from the model that did not see it.
function validation.cross_val_predict(est, X, y, opts)
  common.check_estimator("cross_val_predict", est, 2)
  check_xy("cross_val_predict", X, y)
  opts = options("cross_val_predict", 4, opts, cv_positional,
    { cv = true, method = true, groups = true }, 2)
  local method = opts.method or "predict"
  if type(est[method]) ~= "function" then
    fail(2, "cross_val_predict: %s has no method '%s'", tostring(est), method)
  end
  local splits = check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  -- Predictions that are not a matrix are labels (a classifier fitted on
  -- strings, a list, a categorical column): gathered by row and returned
  -- in the container the folds' models gave.
  local out, values, first, seen = nil, nil, nil, {}
  for _, split in ipairs(splits) do
    local model = est:clone():fit(X:take(split[1]), common.take_y(y, split[1]))
    local pred = model[method](model, X:take(split[2]))
    if not luma.ismatrix(pred) then
      values, first = values or {}, first or pred
      local got = labels.values(pred, { fname = "cross_val_predict", what = "a prediction" })
      for i = 1, split[2]:rows() do values[math.tointeger(split[2]:get(i, 1))] = got[i] end
    else
      out = out or luma.zeros(common.n_rows(X), pred:cols())
    end
    for i = 1, split[2]:rows() do
      local row = math.tointeger(split[2]:get(i, 1))
      if seen[row] then
        fail(2, "cross_val_predict: sample %d is in more than one test fold", row)
      end
      seen[row] = true
      if out then out:row(row):assign(pred:row(i)) end
    end
  end
  for i = 1, common.n_rows(X) do
    if not seen[i] then fail(2, "cross_val_predict: sample %d is in no test fold", i) end
  end
  if values then
    local kind = luma.Table.is_categorical(first) and "categorical" or "list"
    return labels.build(kind, values, common.n_rows(X), kind == "categorical" and first.categories)
  end
  return out
end

return validation
