--- luma.tree.prune: choosing the pruning strength of a tree by
-- cross-validation with the one-standard-error rule (notes 000 §9.1.1:
-- "choose the subtree by CV error with the 1-SE rule, the smallest tree
-- within one standard error of the minimum"; Breiman, Friedman, Olshen and
-- Stone 1984, §3.4.3).  The candidate strengths come from the minimal
-- cost-complexity pruning path of the tree grown on all the data; each is
-- cross-validated through luma.model_selection.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")

local prune = {}

local fail = args.fail

local OPTIONS = { cv = true, scoring = true, rule = true }

-- Breiman's representatives of the path's intervals: the geometric mean
-- of consecutive alphas (the subtree for alpha_k is optimal on
-- [alpha_k, alpha_k+1)), the last alpha itself; duplicates dropped.
local function candidates(path_alphas)
  local out, m = {}, path_alphas:rows()
  for k = 1, m do
    local a = path_alphas:get(k, 1)
    local c = k < m and math.sqrt(a * path_alphas:get(k + 1, 1)) or a
    if #out == 0 or c > out[#out] then out[#out + 1] = c end
  end
  return out
end

--- prune.prune_cv(est, X, y [, opts]) -> result.
function prune.prune_cv(est, X, y, opts)
  if not estimator.is_estimator(est) or est.params.ccp_alpha == nil then
    fail(2, "bad argument #1 to 'prune_cv' (a tree estimator with ccp_alpha expected)")
  end
  opts = opts or {}
  if type(opts) ~= "table" then
    fail(2, "bad argument #4 to 'prune_cv' (options table expected, got %s)", type(opts))
  end
  for k in pairs(opts) do
    if not OPTIONS[k] then
      fail(2, "bad argument #4 to 'prune_cv' (unknown option '%s' (valid: cv, rule, scoring))",
        tostring(k))
    end
  end
  local rule = opts.rule or "1se"
  if rule ~= "1se" and rule ~= "best" then
    fail(2, "bad argument #4 to 'prune_cv' (rule must be \"1se\" or \"best\", got %s)",
      tostring(rule))
  end
  local path = est:cost_complexity_pruning_path(X, y)
  local alphas = candidates(path.ccp_alphas)
  local means, errors = luma.zeros(#alphas, 1), luma.zeros(#alphas, 1)
  local ms = luma.model_selection
  for k, a in ipairs(alphas) do
    local scores = ms.cross_val_score(est:clone():set_params{ ccp_alpha = a }, X, y,
      { cv = opts.cv or 5, scoring = opts.scoring })
    local folds = scores:rows()
    local mean = scores:mean()
    local sd = folds > 1 and math.sqrt((scores - mean):pow(2):sum() / (folds - 1)) or 0
    means:set(k, 1, mean)
    errors:set(k, 1, sd / math.sqrt(folds))
  end
  local best = means:argmax(1):get(1, 1)
  local chosen = best
  if rule == "1se" then
    -- the largest alpha (smallest tree) whose score is within one standard
    -- error of the best one (scores are greater-is-better)
    local floor = means:get(best, 1) - errors:get(best, 1)
    for k = #alphas, 1, -1 do
      if means:get(k, 1) >= floor then
        chosen = k
        break
      end
    end
  end
  local final = est:clone():set_params{ ccp_alpha = alphas[chosen] }
  final:fit(X, y)
  return {
    path_alphas = path.ccp_alphas,
    ccp_alphas = luma.matrix(alphas),
    mean_score = means,
    std_error = errors,
    best_index = best,
    index = chosen,
    ccp_alpha = alphas[chosen],
    estimator = final,
  }
end

luma.doc.set_members(prune, "luma.tree", {
  prune_cv = { signature = "prune_cv(est, X, y [, opts]) -> result",
    params = {
      { name = "cv", type = "integer|splitter", default = 5, doc = "folds or a splitter (luma.model_selection)" },
      { name = "scoring", type = "string|function", doc = "scorer (greater is better); default est:score" },
      { name = "rule", type = "string", default = "1se", doc = "\"1se\": the smallest tree within one standard error of the best score; \"best\": the best score" },
    },
    doc = "Chooses a tree's ccp_alpha by cross-validation (Breiman et al. 1984, §3.4): the "
      .. "candidates are the geometric midpoints of the pruning path of the "
      .. "tree grown on all of X, y; each is cross-validated and, with the one-standard-error "
      .. "rule, the largest alpha whose mean score is within one standard error (fold "
      .. "standard deviation / sqrt(folds)) of the best is kept. Returns {ccp_alphas, "
      .. "mean_score, std_error, best_index, index, ccp_alpha, path_alphas, estimator (refit "
      .. "on all the data)}." },
})

return prune
