--- luma.inspection: model inspection (docs/ENSEMBLE.md, "Feature
-- importance").
--
-- permutation_importance (Breiman, Random Forests, 2001, §10; Fisher,
-- Rudin and Dominici's model reliance, 2019): how much a fitted model's
-- score drops when one feature's column is shuffled, which breaks its
-- link with the target while keeping its distribution.  It works for any
-- fitted estimator and scorer, unlike the trees' impurity importances
-- (notes 003 §1.18 names both as the standard readings of "feature
-- importance").
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")

local inspection = {}

local fail = args.fail

local OPTIONS = { scoring = true, n_repeats = true, seed = true }

-- The scorer: nil (est:score), a registered name, or a function(est, X, y).
local function scorer_of(scoring)
  if scoring == nil then return function(est, X, y) return est:score(X, y) end end
  if type(scoring) == "string" then return luma.metrics.get_scorer(scoring) end
  if type(scoring) == "function" or (getmetatable(scoring) or {}).__call then return scoring end
  fail(4, "permutation_importance: scoring must be nil, a scorer name or a function, got %s",
    type(scoring))
end

--- inspection.permutation_importance(est, X, y [, opts]) -> result.
function inspection.permutation_importance(est, X, y, opts)
  if not estimator.is_estimator(est) or not est:is_fitted() then
    fail(2, "bad argument #1 to 'permutation_importance' (a fitted estimator expected)")
  end
  if not luma.ismatrix(X) then
    fail(2, "bad argument #2 to 'permutation_importance' (X must be a luma.Matrix, got %s)", type(X))
  end
  -- y: targets, or labels in any container the estimator took (a list, a
  -- categorical column: luma.util.labels)
  if y ~= nil and require("luma.util.labels").count(y) ~= X:rows() then
    fail(2, "bad argument #3 to 'permutation_importance' (y must be a luma.Matrix or a list of "
      .. "labels with %d rows)", X:rows())
  end
  opts = opts or {}
  if type(opts) ~= "table" then
    fail(2, "bad argument #4 to 'permutation_importance' (options table expected, got %s)", type(opts))
  end
  for k in pairs(opts) do
    if not OPTIONS[k] then
      fail(2, "permutation_importance: unknown option '%s' (valid: n_repeats, scoring, seed)", tostring(k))
    end
  end
  local repeats = opts.n_repeats or 5
  if math.type(repeats) ~= "integer" or repeats < 1 then
    fail(2, "permutation_importance: n_repeats must be an integer >= 1")
  end
  local score = scorer_of(opts.scoring)
  local rng = estimator.rng(opts.seed)
  local n, d = X:shape()
  local baseline = score(est, X, y)
  local drops = luma.zeros(d, repeats)
  local work = X:copy()
  for j = 1, d do
    local column = X:col(j)
    for r = 1, repeats do
      work:col(j):assign(column:take(rng:permutation(n)))
      drops:set(j, r, baseline - score(est, work, y))
    end
    work:col(j):assign(column)
  end
  local mean = drops:mean(2)
  return { importances = drops, importances_mean = mean,
           importances_std = (drops - mean):pow(2):mean(2):sqrt(), baseline_score = baseline }
end

luma.doc.set_members(inspection, "luma.inspection", {
  permutation_importance = { signature = "permutation_importance(est, X, y [, opts]) -> result",
    params = {
      { name = "scoring", type = "string|function", doc = "scorer (greater is better); default est:score" },
      { name = "n_repeats", type = "integer", default = 5, doc = "shuffles per feature" },
      { name = "seed", type = "seed", doc = "the shuffles (integer or generator)" },
    },
    doc = "The drop of a fitted estimator's score on X, y when each feature's column is "
      .. "shuffled (Breiman 2001), n_repeats times per feature; works for any estimator and "
      .. "scorer. Returns {importances (d x n_repeats), importances_mean, importances_std "
      .. "(population standard deviation, as scikit-learn), baseline_score}." },
})
luma.doc.set(inspection, { name = "luma.inspection",
  doc = "Model inspection: permutation_importance, the score lost when a feature is shuffled." })

return inspection
