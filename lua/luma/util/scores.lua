--- luma.util.scores: what the wrappers that build on binary classifiers
-- (luma.multiclass, luma.multilabel) share: the check of their base and a
-- fitted base's score of label 1.  Not a public API.
-- SPDX-License-Identifier: MIT
local scores = {}

--- scores.check_base(name, base): base (the parameter estimator of the
-- wrapper name) is set and is a classifier; raised with no position, for
-- the estimator contract to place at the caller's fit.
function scores.check_base(name, base)
  if base == nil then
    error(string.format("bad argument #1 to 'fit' (%s: the parameter estimator (a binary "
      .. "classifier) is not set)", name), 0)
  end
  local kind = base:kind_of()
  if kind ~= "classifier" then
    error(string.format("bad argument #1 to 'fit' (%s: estimator must be a classifier, got "
      .. "the %s %s)", name, kind, base.__class.name), 0)
  end
end

--- scores.binary(est, X) -> s, probability: the base's decision_function
-- (two columns: the second minus the first), else the probability of
-- label 1 from predict_proba, else its 0/1 prediction (n x 1), and
-- whether s is a probability (threshold 0.5) rather than a decision
-- value (threshold 0).
function scores.binary(est, X)
  if est.decision_function then
    local d = est:decision_function(X)
    if d:cols() == 2 then return d:col(2) - d:col(1), false end
    return d, false
  end
  if est.predict_proba then
    local p = est:predict_proba(X)
    return p:col(p:cols()):copy(), true
  end
  return est:predict(X), true
end

return scores
