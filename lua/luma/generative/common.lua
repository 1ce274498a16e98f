--- luma.generative.common: checks and helpers shared by the generative
-- classifiers (luma.discriminant, luma.naive_bayes) and the multiclass
-- wrappers.  Not an estimator module itself.
--
-- Every classifier here scores classes in log space: a "joint
-- log-likelihood" matrix (n x k, log p(x | class) + log p(class) up to a
-- per-row constant) from which predictions are the argmax and
-- probabilities the log-sum-exp normalisation (posterior_log).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local classstats = require("luma.generative.native")

local generative = {}

--- generative.fail(fmt, ...): raises the formatted message as it is (no
-- position: messages name the estimator and method themselves).
local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
generative.fail = fail

--- generative.number_text(v): a label or element for messages: 3 rather
-- than 3.0, nan rather than the platform's -nan.
function generative.number_text(v)
  if v ~= v then return "nan" end
  return string.format("%.17g", v)
end

--- generative.check_finite(class_name, method, X, argn): an error naming
-- the first NaN or infinite element of X.
function generative.check_finite(class_name, method, X, argn)
  if luma.sparse.issparse(X) then
    local text = args.nonfinite(X)
    if text then fail("bad argument #%d to '%s' (%s: %s)", argn or 1, method, class_name, text) end
    return
  end
  local i, j, v = classstats.first_nonfinite(X)
  if i then
    fail("bad argument #%d to '%s' (%s: %s)", argn or 1, method, class_name,
      args.nonfinite_at(v, i, j))
  end
end

--- generative.encode(class_name, y [, min_classes = 2]) -> codes, classes,
-- counts: the labels of the column y as codes 1..k (n x 1), the sorted
-- distinct labels (k x 1) and their counts (k x 1).  Fewer than
-- min_classes distinct labels is an error.
function generative.encode(class_name, y, min_classes)
  if y:cols() ~= 1 then
    fail("bad argument #2 to 'fit' (%s: y must be one column of labels, got %d columns)",
      class_name, y:cols())
  end
  local classes, counts = y:unique()
  if classes:rows() < (min_classes or 2) then
    fail("bad argument #2 to 'fit' (%s needs at least %d classes, y has only %s)", class_name,
      min_classes or 2, classes:rows() == 1 and ("the class " .. generative.number_text(classes:get(1, 1)))
        or "none")
  end
  return classstats.codes(y, classes), classes, counts
end

--- generative.class_sums(X, codes, k) -> counts, sums: per-class row
-- counts (k x 1) and column sums (k x d) of X, dense or sparse (for a
-- sparse X, X^T Y with Y the n x k one-hot matrix of the codes: the
-- threaded S^T D kernel).
function generative.class_sums(X, codes, k)
  if not luma.sparse.issparse(X) then return classstats.sums(X, codes, k) end
  local n = X:rows()
  local Y = luma.zeros(n, k)
  for i = 1, n do Y:set(i, math.tointeger(codes:get(i, 1)), 1) end
  return Y:sum(1):t(), X:tmatmul(Y):t()
end

--- generative.codes(class_name, method, y, classes) -> codes: the labels
-- of y (a column) as positions 1..k in the fitted classes; a label the
-- estimator has not seen is an error naming the method and the row.
function generative.codes(class_name, method, y, classes)
  local ok, codes = pcall(classstats.codes, y, classes)
  if not ok then
    local what = tostring(codes):match("%((y%[.*)%)$") or tostring(codes)
    fail("bad argument #2 to '%s' (%s: %s)", method, class_name, what)
  end
  return codes
end

--- generative.moments(class_name, X, codes, k [, with_vars]) -> counts,
-- means, vars: per-class statistics (biased variances, divided by the
-- class count), with the non-finite check folded into the pass over X.
function generative.moments(class_name, X, codes, k, with_vars)
  local counts, means, vars, value = classstats.moments(X, codes, k, with_vars)
  if counts == nil then -- then means, vars, value are the row, column and value
    fail("bad argument #1 to 'fit' (%s: %s)", class_name, args.nonfinite_at(value, means, vars))
  end
  return counts, means, vars
end

--- generative.priors(class_name, name, priors, k) -> k x 1 probabilities:
-- the user's priors (a matrix or a table of k numbers) checked to be k
-- non-negative numbers summing to 1 (within 1e-9).
function generative.priors(class_name, name, priors, k)
  local p
  if luma.ismatrix(priors) then
    p = priors:flatten()
  else
    for i, v in ipairs(priors) do
      if type(v) ~= "number" then
        fail("%s: %s[%d] must be a number, got %s", class_name, name, i, type(v))
      end
    end
    p = luma.matrix(priors)
  end
  if p:rows() ~= k then
    fail("%s: %s has %d entries but y has %d classes", class_name, name, p:rows(), k)
  end
  if not p:isfinite():all() or p:lt(0):any() then
    fail("%s: %s must be finite and non-negative", class_name, name)
  end
  local total = p:sum()
  if math.abs(total - 1) > 1e-9 then
    fail("%s: %s must sum to 1, they sum to %.17g", class_name, name, total)
  end
  return p
end

--- generative.log_proba(jll) -> n x k log posteriors: jll minus the
-- log-sum-exp of each row (stable for any magnitude).
function generative.log_proba(jll)
  return jll:log_softmax(2)
end

--- generative.decide(jll, classes) -> n x 1 labels: the argmax of each
-- row (the first class wins ties).
function generative.decide(jll, classes)
  return classes:take(jll:argmax(2))
end

--- generative.binary_decision(jll) -> n x 1 for two classes (the second
-- column minus the first, scikit-learn's decision_function), else jll.
function generative.binary_decision(jll)
  if jll:cols() == 2 then return jll:col(2) - jll:col(1) end
  return jll
end

luma.doc.set(generative, { name = "luma.generative.common",
  doc = "Helpers shared by the generative classifiers: label encoding with class counts, "
    .. "finite-input and prior checks, log-space posteriors (log-sum-exp)." })

return generative
