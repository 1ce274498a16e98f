--- luma.model_selection.validation: cross-validation of one estimator:
-- cross_validate (per-fold scores and timings, folds in parallel with
-- n_jobs or backend), cross_val_score and cross_val_predict.  The scorers and the
-- per-split fit_and_score they share with the searches and the curves are
-- in luma.model_selection.common.
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.model_selection.common")
local fail, check_opts, check_xy = common.fail, common.check_opts, common.check_xy
local is_classifier, resolve_scorers = common.is_classifier, common.resolve_scorers
local fit_and_score = common.fit_and_score
local check_cv = require("luma.model_selection.splitters").check_cv

local validation = {}

local CV_OPTIONS = { cv = true, scoring = true, return_train_score = true,
                     return_estimator = true, groups = true, error_score = true, n_jobs = true,
                     backend = true }

--- cross_validate(est, X, y [, opts]) -> results: test_<name>, train_<name>
-- (with return_train_score), fit_time, score_time (each a list over the
-- folds) and estimators (with return_estimator).  Folds run where n_jobs
-- and backend say (luma.parallel.map).
function validation.cross_validate(est, X, y, opts)
  if not estimator.is_estimator(est) then
    fail(2, "bad argument #1 to 'cross_validate' (an estimator expected, got %s)", type(est))
  end
  check_xy("cross_validate", X, y)
  opts = check_opts("cross_validate", opts, CV_OPTIONS, 2)
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
  local results = require("luma.parallel").map(function(split)
    local r = fit_and_score(est, X, y, split[1], split[2], scorers, names,
      { train_score = opts.return_train_score, error_score = error_score })
    if not opts.return_estimator then r.model = nil end
    return r
  end, splits, { n_jobs = opts.n_jobs, backend = opts.backend })
  for k, r in ipairs(results) do
    out.fit_time[k], out.score_time[k] = r.fit_time, r.score_time
    for _, name in ipairs(names) do
      out["test_" .. name][k] = r.test[name]
      if opts.return_train_score then out["train_" .. name][k] = r.train[name] end
    end
    if opts.return_estimator then out.estimators[k] = r.model end
  end
  return out
end

--- cross_val_score(est, X, y [, opts]) -> scores (a column, one per fold).
function validation.cross_val_score(est, X, y, opts)
  opts = opts or {}
  if type(opts.scoring) == "table" and not getmetatable(opts.scoring) then
    fail(2, "cross_val_score takes one scorer; use cross_validate for several")
  end
  local r = validation.cross_validate(est, X, y, opts)
  local _, names = resolve_scorers(opts.scoring, 2)
  return luma.matrix(r["test_" .. names[1]])
end

--- cross_val_predict(est, X, y [, {cv, method = "predict", groups}]) ->
-- each sample's prediction from the model that did not see it.
function validation.cross_val_predict(est, X, y, opts)
  check_xy("cross_val_predict", X, y)
  opts = check_opts("cross_val_predict", opts, { cv = true, method = true, groups = true }, 2)
  local method = opts.method or "predict"
  if type(est[method]) ~= "function" then
    fail(2, "cross_val_predict: %s has no method '%s'", tostring(est), method)
  end
  local splits = check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local out, seen = nil, {}
  for _, split in ipairs(splits) do
    local model = est:clone():fit(X:take(split[1]), y and y:take(split[1]))
    local pred = model[method](model, X:take(split[2]))
    out = out or luma.zeros(X:rows(), pred:cols())
    for i = 1, split[2]:rows() do
      local row = math.tointeger(split[2]:get(i, 1))
      if seen[row] then
        fail(2, "cross_val_predict: sample %d is in more than one test fold", row)
      end
      seen[row] = true
      out:row(row):assign(pred:row(i))
    end
  end
  for i = 1, X:rows() do
    if not seen[i] then fail(2, "cross_val_predict: sample %d is in no test fold", i) end
  end
  return out
end

return validation
