--- luma.ensemble.common: helpers the ensembles share: checks of the data
-- and of the base estimators, per-member seeds, label bookkeeping and
-- weighted medians.  Not an estimator module itself.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local tree_common = require("luma.tree.common")

local common = {}

local fail = tree_common.fail
common.fail = fail
common.check_X = tree_common.check_X
common.encode_classes = tree_common.encode_classes

--- common.seeds(seed, count) -> a list of count integer seeds drawn from
-- the estimator's generator (estimator.rng: never advances a generator
-- passed in), one per member, so member i depends only on seeds[i].
function common.seeds(seed, count)
  local rng = estimator.rng(seed)
  local out = {}
  for i = 1, count do out[i] = tree_common.seed_of(rng) end
  return out, rng
end

--- common.n_draws(name, max_samples, n) -> draws per bootstrap: n for
-- nil, an integer count (1..n), or a fraction of n in (0, 1].
function common.n_draws(name, max_samples, n)
  if max_samples == nil then return n end
  if math.type(max_samples) == "integer" then
    if max_samples < 1 or max_samples > n then
      fail(4, "%s: max_samples = %d is outside 1..%d", name, max_samples, n)
    end
    return max_samples
  end
  if not (max_samples > 0 and max_samples <= 1) then
    fail(4, "%s: max_samples must be an integer count or a fraction in (0, 1], got %s", name,
      tostring(max_samples))
  end
  return math.max(1, math.floor(max_samples * n + 0.5))
end

--- common.check_base(name, est, kind) -> est: a base estimator of the
-- right kind (classifier or regressor).
function common.check_base(name, est, kind)
  if not estimator.is_estimator(est) then
    fail(4, "%s: the base estimator must be an estimator, got %s", name, type(est))
  end
  if kind and est:kind_of() ~= kind then
    fail(4, "%s: the base estimator must be a %s, got %s (a %s)", name, kind, tostring(est),
      est:kind_of())
  end
  return est
end

--- common.positions(member_classes, classes) -> k_member x 1 positions of
-- a member's classes among the ensemble's (a member fitted on a sample
-- may have seen only some of them).
function common.positions(member_classes, classes)
  local pos = luma.zeros(member_classes:rows(), 1)
  for i = 1, member_classes:rows() do
    local v = member_classes:get(i, 1)
    for c = 1, classes:rows() do
      if classes:get(c, 1) == v then pos:set(i, 1, c) end
    end
  end
  return pos
end

--- common.expand_proba(P, member_classes, classes) -> n x k: a member's
-- probabilities over its own classes placed in the ensemble's columns.
function common.expand_proba(P, member_classes, classes)
  if member_classes:rows() == classes:rows() then return P end
  local out = luma.zeros(P:rows(), classes:rows())
  local pos = common.positions(member_classes, classes)
  for i = 1, pos:rows() do
    out:col(pos:get(i, 1)):assign(P:col(i))
  end
  return out
end

--- common.one_hot(labels, classes) -> n x k indicators of each label.
function common.one_hot(labels, classes)
  return labels:eq(classes:t())
end

--- common.weighted_median(values, weights) -> n x 1: for each row of the
-- n x m values, the value where the cumulative weight (sorted by value)
-- first reaches half the total (scikit-learn's AdaBoostRegressor rule).
function common.weighted_median(values, weights)
  local n, m = values:shape()
  local out = luma.zeros(n, 1)
  local total = weights:sum()
  for i = 1, n do
    local order = values:row(i):t():argsort()
    local run = 0
    for k = 1, m do
      local j = order:get(k, 1)
      run = run + weights:get(j, 1)
      if run >= 0.5 * total then
        out:set(i, 1, values:get(i, j))
        break
      end
    end
  end
  return out
end

--- common.fitted_check(self, method, X): the contract's errors for extra
-- methods (staged predictions, apply) called before fit or with the wrong
-- number of columns.
function common.fitted_check(self, method, X)
  if not self:is_fitted() then
    fail(3, "%s: %s called before fit", self.__class.name, method)
  end
  if not luma.ismatrix(X) then
    fail(3, "bad argument #1 to '%s' (X must be a luma.Matrix, got %s)", method, type(X))
  end
  if X:cols() ~= self.n_features_in then
    fail(3, "bad argument #1 to '%s' (X has %d columns but %s was fitted on %d)", method,
      X:cols(), self.__class.name, self.n_features_in)
  end
end

--- common.warn(fmt, ...): a warning through lua_warning.
--- common.check_oob_data(self, X, y): compute_oob's arguments (the
-- training data, as fit gave them) and state (the fitted members and their
-- seeds); errors blame compute_oob's caller.
function common.check_oob_data(self, X, y)
  if not (rawget(self, "estimators") and rawget(self, "seeds")) then
    fail(3, "%s: compute_oob called before the members are fitted", self.__class.name)
  end
  local d = rawget(self, "n_features_in")
  if not luma.ismatrix(X) or not luma.ismatrix(y) or y:rows() ~= X:rows()
    or (d and X:cols() ~= d) then
    fail(3, "bad argument #1 to 'compute_oob' (%s needs the training X and y: matrices with as "
      .. "many rows, X with the fitted columns)", self.__class.name)
  end
end

function common.warn(fmt, ...)
  warn(string.format(fmt, ...))
end

return common
