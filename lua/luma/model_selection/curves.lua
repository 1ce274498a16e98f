--- luma.model_selection.curves: diagnostic curves by cross-validation:
-- validation_curve (scores against one hyperparameter's values) and
-- learning_curve (scores against the training-set size).
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.model_selection.common")
local fail, check_opts, check_xy = common.fail, common.check_opts, common.check_xy
local is_classifier, resolve_scorers = common.is_classifier, common.resolve_scorers
local fit_and_score = common.fit_and_score
local check_cv = require("luma.model_selection.splitters").check_cv

local curves = {}

--- validation_curve(est, X, y, {param_name, param_range, cv, scoring}) ->
-- train_scores, test_scores (one row per value, one column per fold).
function curves.validation_curve(est, X, y, opts)
  check_xy("validation_curve", X, y)
  opts = check_opts("validation_curve", opts, { param_name = true, param_range = true,
    cv = true, scoring = true, groups = true }, 2)
  if type(opts.param_name) ~= "string" or type(opts.param_range) ~= "table" then
    fail(2, "validation_curve needs param_name (a string) and param_range (a list)")
  end
  local scorers, names = resolve_scorers(opts.scoring, 2)
  if #names ~= 1 then fail(2, "validation_curve takes one scorer") end
  local splits = check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local train = luma.zeros(#opts.param_range, #splits)
  local test = luma.zeros(#opts.param_range, #splits)
  for i, value in ipairs(opts.param_range) do
    for k, split in ipairs(splits) do
      local r = fit_and_score(est, X, y, split[1], split[2], scorers, names,
        { params = { [opts.param_name] = value }, train_score = true, error_score = "raise" })
      train:set(i, k, r.train[names[1]])
      test:set(i, k, r.test[names[1]])
    end
  end
  return train, test
end

--- learning_curve(est, X, y, {train_sizes, cv, scoring, shuffle, seed}) ->
-- sizes (a column), train_scores, test_scores (rows per size, columns per
-- fold).  train_sizes: fractions of the largest training fold or counts
-- (default 0.1, 0.325, 0.55, 0.775, 1).
function curves.learning_curve(est, X, y, opts)
  check_xy("learning_curve", X, y)
  opts = check_opts("learning_curve", opts, { train_sizes = true, cv = true, scoring = true,
    shuffle = true, seed = true, groups = true }, 2)
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
  local rng = opts.shuffle and estimator.rng(opts.seed) or nil
  local train = luma.zeros(#sizes, #splits)
  local test = luma.zeros(#sizes, #splits)
  for k, split in ipairs(splits) do
    local order = split[1]
    if rng then order = order:take(rng:permutation(order:rows())) end
    for i, count in ipairs(sizes) do
      local r = fit_and_score(est, X, y, order:sub(1, count), split[2], scorers, names,
        { train_score = true, error_score = "raise" })
      train:set(i, k, r.train[names[1]])
      test:set(i, k, r.test[names[1]])
    end
  end
  return luma.matrix(sizes), train, test
end

return curves
