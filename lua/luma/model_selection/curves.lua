--- luma.model_selection.curves: diagnostic curves by cross-validation:
-- validation_curve (scores against one hyperparameter's values) and
-- learning_curve (scores against the training-set size).  Each (point,
-- fold) fit is one task of luma.parallel.map, so the fits run where
-- n_jobs and backend say.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.model_selection.common")
local fail, check_xy = common.fail, common.check_xy
local is_classifier, resolve_scorers = common.is_classifier, common.resolve_scorers
local fit_and_score = common.fit_and_score
local check_cv = require("luma.model_selection.splitters").check_cv

local curves = {}

-- Runs fit(point, split) for every point of a curve and every split as
-- one map task each; returns the train and test scores (rows per point,
-- columns per split).
-- fit(point, split, where) gets where = "fold k/K, <what point i is>"
-- (describe(i)) for fit_and_score.
local function score_grid(fname, n_points, splits, opts, describe, fit)
  local verbose = common.verbosity(opts.verbose, fname, 3)
  local tasks = {}
  for i = 1, n_points do
    for k = 1, #splits do tasks[#tasks + 1] = { i, k } end
  end
  local runs = require("luma.parallel").map(function(task)
    local i, k = task[1], task[2]
    return fit(i, splits[k], verbose,
      string.format("fold %d/%d, %s", k, #splits, describe(i)))
  end, tasks, common.map_options(opts, verbose))
  local train, test = luma.zeros(n_points, #splits), luma.zeros(n_points, #splits)
  for t, task in ipairs(tasks) do
    train:set(task[1], task[2], runs[t][1])
    test:set(task[1], task[2], runs[t][2])
  end
  return train, test
end

--- validation_curve(est, X, y, {param_name, param_range, cv, scoring,
-- n_jobs, backend}) -> train_scores, test_scores (one row per value, one
-- column per fold).
function curves.validation_curve(est, X, y, opts)
  common.check_estimator("validation_curve", est, 2)
  check_xy("validation_curve", X, y)
  opts = common.options("validation_curve", 4, opts, nil, { param_name = true,
    param_range = true, cv = true, scoring = true, groups = true, n_jobs = true,
    backend = true, verbose = true }, 2)
  if type(opts.param_name) ~= "string" or type(opts.param_range) ~= "table" then
    fail(2, "validation_curve needs param_name (a string) and param_range (a list)")
  end
  local scorers, names = resolve_scorers(opts.scoring, 2)
  if #names ~= 1 then fail(2, "validation_curve takes one scorer") end
  local splits = check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local name, range = opts.param_name, opts.param_range
  return score_grid("validation_curve", #range, splits, opts, function(i)
    return common.format_value({ [name] = range[i] })
  end, function(i, split, verbose, where)
    local r = fit_and_score(est, X, y, split[1], split[2], scorers, names,
      { params = { [name] = range[i] }, train_score = true, error_score = "raise",
        verbose = verbose, where = where })
    return { r.train[names[1]], r.test[names[1]] }
  end)
end

--- learning_curve(est, X, y, {train_sizes, cv, scoring, shuffle, seed,
-- n_jobs, backend}) -> sizes (a column), train_scores, test_scores (rows
-- per size, columns per fold).  train_sizes: fractions of the largest
-- training fold or counts (default 0.1, 0.325, 0.55, 0.775, 1).
function curves.learning_curve(est, X, y, opts)
  common.check_estimator("learning_curve", est, 2)
  check_xy("learning_curve", X, y)
  opts = common.options("learning_curve", 4, opts, common.cv_positional, { train_sizes = true,
    cv = true, scoring = true, shuffle = true, seed = true, groups = true, n_jobs = true,
    backend = true, verbose = true }, 2)
  local scorers, names = resolve_scorers(opts.scoring, 2)
  local splits = check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local max_train = math.huge
  for _, split in ipairs(splits) do max_train = math.min(max_train, split[1]:rows()) end
  local sizes = {}
  for i, s in ipairs(opts.train_sizes or { 0.1, 0.325, 0.55, 0.775, 1.0 }) do
    local count = math.type(s) == "integer" and s or math.floor(s * max_train)
    if count < 1 or count > max_train then
      fail(2, "learning_curve: train size %s gives %d samples, outside 1..%d", tostring(s),
        count, max_train)
    end
    sizes[i] = count
  end
  -- the shuffled training orders are drawn here, split by split, so the
  -- tasks only read them
  local rng = opts.shuffle and estimator.rng(opts.seed) or nil
  local ordered = {}
  for k, split in ipairs(splits) do
    local order = split[1]
    if rng then order = order:take(rng:permutation(order:rows())) end
    ordered[k] = { order, split[2] }
  end
  local train, test = score_grid("learning_curve", #sizes, ordered, opts, function(i)
    return string.format("train size %d", sizes[i])
  end, function(i, split, verbose, where)
    local r = fit_and_score(est, X, y, split[1]:sub(1, sizes[i]), split[2], scorers, names,
      { train_score = true, error_score = "raise", verbose = verbose, where = where })
    return { r.train[names[1]], r.test[names[1]] }
  end)
  return luma.matrix(sizes), train, test
end

return curves
