--- luma.util.scores: a fitted binary classifier's score of label 1, as
-- the wrappers that build on binary classifiers read it (luma.multiclass,
-- luma.multilabel).  Not a public API.
-- SPDX-License-Identifier: MIT
local scores = {}

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
