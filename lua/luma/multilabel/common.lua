--- luma.multilabel.common: what the multi-label models share -- the check
-- of a label matrix, top-k recommendation from label scores, the method
-- docs and a small example.  Not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local neighbors_native = require("luma.neighbors.native") -- per-row top-k selection
local metrics = require("luma.multilabel.metrics")

local common = {}

local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
common.fail = fail

--- common.check_labels(name, Y): Y (dense; the estimator contract has
-- already turned a sparse one dense) holds only 0 and 1.
function common.check_labels(name, Y)
  if not (Y:eq(0) + Y:eq(1)):all() then
    fail("bad argument #2 to 'fit' (%s: Y must hold 0 or 1 only (one column per label))", name)
  end
end

--- common.check_recommend(self, X): recommend's checks (the contract's
-- methods get them from the estimator wrapper; recommend is the class's
-- own): fitted, and X a matrix of the fitted width.
function common.check_recommend(self, X)
  local name = self.__class.short_name
  if not self:is_fitted() then fail("%s: recommend called before fit", name) end
  if not luma.ismatrix(X) then
    fail("bad argument #1 to 'recommend' (X must be a luma.Matrix, got %s)", type(X))
  end
  if X:cols() ~= self.n_features_in then
    fail("bad argument #1 to 'recommend' (X has %d columns but %s was fitted on %d)", X:cols(),
      name, self.n_features_in)
  end
end

--- common.top_k(name, S, k) -> labels, scores: each row's k best-scored
-- columns (1-based, the smaller first on ties) and their scores.
function common.top_k(name, S, k)
  local L = S:cols()
  if math.type(k) ~= "integer" or k < 1 or k > L then
    fail("bad argument #2 to 'recommend' (%s: k must be an integer in [1, %d], got %s)", name,
      L, tostring(k))
  end
  local negated, labels = neighbors_native.select_rows(S * -1, k)
  return labels, negated * -1
end

--- common.subset_accuracy(Y, P): the share of rows predicted exactly.
common.subset_accuracy = metrics.subset_accuracy

-- Method texts every multi-label model shares (name: the class's).
function common.method_docs(name, scores_doc, extra)
  local docs = {
    fit = { signature = "est:fit(X, Y)",
      doc = "Fits " .. name .. " to the rows of X (n x d) and their labels Y (n x L of 0/1, "
        .. "one column per label; a sparse matrix is read as dense); refitting starts "
        .. "fresh. Returns the estimator itself." },
    predict = { signature = "est:predict(X)",
      doc = "The predicted labels of each row of X. Returns an m x L matrix of 0/1." },
    score = { signature = "est:score(X, Y)",
      doc = "Subset accuracy: the share of rows of X whose predicted labels equal their row "
        .. "of Y exactly (scikit-learn's accuracy_score of label matrices). Returns a number "
        .. "in [0, 1]." },
    recommend = { signature = "est:recommend(X [, k = 1]) -> labels, scores",
      doc = "Each row's k best-scored labels (" .. scores_doc .. "), as 1-based label indices "
        .. "(m x k, the smaller label first on ties), and their scores (m x k)." },
  }
  for k, v in pairs(extra or {}) do docs[k] = v end
  return docs
end

--- common.example(make) -> function() returning make(), X, Y: two
-- features, twelve rows in three groups, four labels.
function common.example(make)
  return function()
    local X = luma.matrix{
      { 0.0, 0.1 }, { 0.2, 0.0 }, { 0.1, 0.3 }, { 0.3, 0.2 },
      { 3.0, 3.1 }, { 3.2, 2.9 }, { 2.9, 3.3 }, { 3.1, 3.0 },
      { 0.1, 3.0 }, { 0.3, 3.2 }, { 0.0, 2.8 }, { 0.2, 3.1 } }
    local Y = luma.matrix{
      { 1, 1, 0, 0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 1 }, { 1, 1, 0, 0 },
      { 0, 0, 1, 1 }, { 0, 0, 1, 0 }, { 0, 1, 1, 1 }, { 0, 0, 1, 1 },
      { 1, 0, 1, 0 }, { 1, 0, 1, 1 }, { 0, 0, 1, 0 }, { 1, 0, 1, 0 } }
    return make(), X, Y
  end
end

return common
