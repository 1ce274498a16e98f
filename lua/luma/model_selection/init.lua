--- luma.model_selection: choosing and evaluating models by resampling
-- (docs/ESTIMATORS.md, "Model selection and pipelines").  The package
-- table gathers the public members of its parts:
--   splitters   KFold, StratifiedKFold, the repeated, leave-out, shuffle,
--               group, time-series and predefined splitters,
--               train_test_split, check_cv
--   validation  cross_validate, cross_val_score, cross_val_predict
--   search      GridSearch, RandomSearch, Results, the samplers uniform,
--               log_uniform, randint (and their metatable Sampler)
--   curves      validation_curve, learning_curve
--   common      helpers the parts share (scorers, fit_and_score, checks);
--               not re-exported
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local ms = {}

for _, part in ipairs({ "splitters", "validation", "search", "curves" }) do
  for name, value in pairs(require("luma.model_selection." .. part)) do ms[name] = value end
end

-- scikit-learn's names of the searches, for code moved from Python
ms.GridSearchCV, ms.RandomizedSearchCV = ms.GridSearch, ms.RandomSearch

-- Help records of the functions.  They are kept here rather than beside
-- each function so that the parts hold only code; the splitter classes
-- and the searches document themselves from their parameter schemas.
local CV = { name = "cv", default = 5, doc = "an integer k (StratifiedKFold for classifiers, "
  .. "else KFold), a splitter, or any iterable of (train, test) pairs" }
local SCORING = { name = "scoring", default = "est:score", doc = "a scorer name, a "
  .. "scorer(est, X, y), or (cross_validate) a list or table of them" }
local GROUPS = { name = "groups", doc = "group labels (n x 1) for group splitters" }
local N_JOBS = { name = "n_jobs", default = 1, doc = "forked workers (luma.parallel.map; -1: "
  .. "one per core, -2: all but one, ...; serial in a sandboxed state, with a warning)" }
local VERBOSE = { name = "verbose", default = 1, doc = "0 silent; 1 a progress bar on standard "
  .. "error when it is a terminal; 2 one line per fit ([CV] fold k/K: scores, fit time). "
  .. "Warnings during a fit name its fold (and candidate)" }
local BACKEND = { name = "backend", default = "by n_jobs", doc = "a luma.parallel backend "
  .. "name (\"serial\", \"fork\", \"mpi\")" }
luma.doc.set_members(ms, "luma.model_selection", {
  train_test_split = { signature = "train_test_split(X, y [, opts]) -> X_train, X_test, "
      .. "y_train, y_test",
    doc = "Splits the rows of X (and y, which may be nil) into a random train and test part. "
      .. "opts may be the test size alone: train_test_split(X, y, 0.2).",
    params = {
      { name = "test_size", default = 0.25, doc = "a fraction of the rows or a count" },
      { name = "train_size", default = "the rest", doc = "a fraction or a count" },
      { name = "shuffle", default = true, doc = "false takes the rows in order" },
      { name = "stratify", doc = "labels (n x 1) whose proportions both parts keep" },
      { name = "seed", doc = "an integer or a Generator (default: luma.random's)" } } },
  check_cv = { signature = "check_cv(cv, X, y, is_classifier [, groups = nil]) -> splits",
    doc = "Resolves cv as every cross-validation loop does: nil (5 folds), an integer k "
      .. "(StratifiedKFold for classifiers with y, else KFold), a splitter, or an iterable "
      .. "of (train, test) pairs. Returns a list of {train, test} index pairs." },
  cross_validate = { signature = "cross_validate(est, X, y [, opts]) -> results",
    doc = "Fits a clone of est on each training fold and scores it on the held-out fold "
      .. "(Hastie, Tibshirani and Friedman, The Elements of Statistical Learning, sec. "
      .. "7.10). Returns a table of columns (one row per fold) that prints as a summary: "
      .. "test_score (test_<name> for each of several scorers), train_score (with "
      .. "return_train_score), fit_time, score_time, and estimators (with return_estimator). "
      .. "opts may be a fold count or a splitter alone: cross_validate(est, X, y, 5).",
    params = { CV, SCORING, GROUPS,
      { name = "return_train_score", default = false, doc = "also score the training folds" },
      { name = "return_estimator", default = false, doc = "keep each fold's fitted model" },
      { name = "error_score", default = 0 / 0, doc = "the score of a fold whose fit fails "
        .. "(with a warning); \"raise\" re-raises" },
      N_JOBS, BACKEND, VERBOSE } },
  cross_val_score = { signature = "cross_val_score(est, X, y [, opts]) -> scores",
    doc = "cross_validate with one scorer. Returns the test scores, a column with one row "
      .. "per fold.",
    params = { CV, { name = "scoring", default = "est:score", doc = "one scorer name or "
      .. "scorer" }, GROUPS, { name = "error_score", default = 0 / 0, doc = "as in "
      .. "cross_validate" }, N_JOBS, BACKEND, VERBOSE } },
  cross_val_predict = { signature = "cross_val_predict(est, X, y [, opts]) -> matrix",
    doc = "Each sample's prediction from the model fitted on the folds that left it out. "
      .. "Returns a matrix with one row per row of X.",
    params = { CV, GROUPS, { name = "method", default = "predict", doc = "the method to "
      .. "call: \"predict\", \"predict_proba\", \"decision_function\", ..." } } },
  validation_curve = { signature = "validation_curve(est, X, y, opts) -> train_scores, "
      .. "test_scores",
    doc = "Cross-validated scores for each value of one hyperparameter. Returns two "
      .. "matrices, one row per value and one column per fold.",
    params = { { name = "param_name", doc = "the parameter to vary (required)" },
      { name = "param_range", doc = "the list of its values (required)" },
      CV, SCORING, GROUPS, N_JOBS, BACKEND, VERBOSE } },
  learning_curve = { signature = "learning_curve(est, X, y [, opts]) -> sizes, "
      .. "train_scores, test_scores",
    doc = "Cross-validated scores against the training-set size. Returns the sizes (a "
      .. "column) and two matrices, one row per size and one column per fold.",
    params = { { name = "train_sizes", default = { 0.1, 0.325, 0.55, 0.775, 1 },
        doc = "fractions of the smallest training fold, or counts" },
      CV, SCORING, GROUPS,
      { name = "shuffle", default = false, doc = "shuffle before taking the first rows" },
      { name = "seed", doc = "an integer or a Generator, for shuffle" }, N_JOBS, BACKEND,
      VERBOSE } },
  uniform = { signature = "uniform(lo, hi) -> sampler",
    doc = "A RandomSearch distribution: numbers uniform on [lo, hi)." },
  log_uniform = { signature = "log_uniform(lo, hi) -> sampler",
    doc = "A RandomSearch distribution whose logarithm is uniform: for scales such as "
      .. "regularization strengths, 0 < lo < hi." },
  randint = { signature = "randint(lo, hi) -> sampler",
    doc = "A RandomSearch distribution: integers uniform on lo..hi inclusive." },
})

-- The functions share checks (common.lua) at depths that vary: each
-- raises its errors at its caller's line.
args.relay_functions(ms)

luma.doc.set(ms, { name = "luma.model_selection",
  doc = "Splitters (KFold, StratifiedKFold, RepeatedKFold, RepeatedStratifiedKFold, "
    .. "LeaveOneOut, LeavePOut, ShuffleSplit, StratifiedShuffleSplit, GroupKFold, "
    .. "TimeSeriesSplit, PredefinedSplit), train_test_split, check_cv, cross_validate, "
    .. "cross_val_score, cross_val_predict, GridSearch, RandomSearch (aliases GridSearchCV "
    .. "and RandomizedSearchCV, scikit-learn's names; with uniform, "
    .. "log_uniform, randint), validation_curve and learning_curve." })

return ms
