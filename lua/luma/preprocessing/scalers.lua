--- luma.preprocessing.scalers: per-column scalers (StandardScaler,
-- MinMaxScaler, MaxAbsScaler, RobustScaler) and the per-row or per-value
-- maps Normalizer and Binarizer.
--
-- Every class here refuses NaN and Inf (common.finite_only).
-- StandardScaler (with_mean = false), MaxAbsScaler and Normalizer also
-- take a luma.sparse matrix and return one, as scikit-learn's do.
-- StandardScaler divides by the population standard deviation (ddof 0, the
-- project's convention).  A zero scale (a constant column, an all-zero
-- row) is replaced by 1, leaving those values unscaled rather than divided
-- by zero, as in scikit-learn.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.preprocessing.common")
local fail, finite_only, example = common.fail, common.finite_only, common.example

local scalers = {}

local issparse = luma.sparse.issparse

-- A 1 x d row with zeros replaced by ones (scikit-learn's rule for
-- constant features: leave them unscaled).
local function nonzero(row)
  return luma.matrix.where(row:eq(0), 1, row)
end

scalers.StandardScaler = estimator.class(finite_only{
  name = "luma.preprocessing.StandardScaler", kind = "transformer", one_to_one_features = true,
  doc = "Centres each column and divides by its population standard deviation (ddof 0).",
  params = {
    { name = "with_mean", type = "boolean", default = true, doc = "subtract the mean" },
    { name = "with_std", type = "boolean", default = true, doc = "divide by the std" },
  },
  sparse = true,
  example = example(function() return scalers.StandardScaler{} end),
  fit = function(self, X)
    if issparse(X) then
      -- centring would fill every zero: scikit-learn refuses it too
      if self.params.with_mean then
        fail(3, "bad argument #1 to 'fit' (StandardScaler cannot centre a sparse matrix; "
          .. "pass with_mean = false)")
      end
      self.mean = X:mean(1)
      -- population variance from the column sums of squares
      self.var = (X:pow(2):mean(1) - self.mean:pow(2)):clamp(0, math.huge)
    else
      self.mean = X:mean(1)
      self.var = X:var(1)
    end
    self.scale = nonzero(self.var:sqrt())
    if not self.params.with_mean then self.mean = luma.zeros(1, X:cols()) end
    if not self.params.with_std then self.scale = luma.ones(1, X:cols()) end
  end,
  transform = function(self, X)
    if issparse(X) then
      if self.params.with_mean then
        fail(3, "bad argument #1 to 'transform' (StandardScaler cannot centre a sparse matrix; "
          .. "fit with with_mean = false)")
      end
      return X:multiply_cols(self.scale:pow(-1))
    end
    return (X - self.mean):div(self.scale)
  end,
  inverse_transform = function(self, X)
    if issparse(X) then
      if self.params.with_mean then
        fail(3, "bad argument #1 to 'inverse_transform' (StandardScaler cannot centre a sparse "
          .. "matrix; fit with with_mean = false)")
      end
      return X:multiply_cols(self.scale)
    end
    return X:mul(self.scale) + self.mean
  end,
})

scalers.MinMaxScaler = estimator.class(finite_only{
  name = "luma.preprocessing.MinMaxScaler", kind = "transformer", one_to_one_features = true,
  doc = "Maps each column's [min, max] onto feature_range.",
  params = {
    { name = "feature_range", type = "table", default = { 0, 1 }, doc = "{lo, hi}, lo < hi" },
    { name = "clip", type = "boolean", default = false, doc = "clip transformed values to the range" },
  },
  example = example(function() return scalers.MinMaxScaler{} end),
  fit = function(self, X)
    local r = self.params.feature_range
    if type(r[1]) ~= "number" or type(r[2]) ~= "number" or not (r[1] < r[2]) then
      fail(3, "luma.preprocessing.MinMaxScaler: feature_range must be {lo, hi} with lo < hi")
    end
    self.data_min, self.data_max = X:min(1), X:max(1)
    self.data_range = self.data_max - self.data_min
    self.scale = nonzero(self.data_range):pow(-1) * (r[2] - r[1])
    self.min = self.data_min:mul(self.scale) * -1 + r[1]
  end,
  transform = function(self, X)
    local Z = X:mul(self.scale) + self.min
    if self.params.clip then Z = Z:clamp(self.params.feature_range[1], self.params.feature_range[2]) end
    return Z
  end,
  inverse_transform = function(self, X) return (X - self.min):div(self.scale) end,
})

scalers.MaxAbsScaler = estimator.class(finite_only{
  name = "luma.preprocessing.MaxAbsScaler", kind = "transformer", one_to_one_features = true,
  doc = "Divides each column by its largest absolute value (keeps zeros and signs).",
  params = {},
  sparse = true,
  example = example(function() return scalers.MaxAbsScaler{} end),
  fit = function(self, X)
    self.max_abs = X:abs():max(1)
    self.scale = nonzero(self.max_abs)
  end,
  transform = function(self, X)
    if issparse(X) then return X:multiply_cols(self.scale:pow(-1)) end
    return X:div(self.scale)
  end,
  inverse_transform = function(self, X)
    if issparse(X) then return X:multiply_cols(self.scale) end
    return X:mul(self.scale)
  end,
})

scalers.RobustScaler = estimator.class(finite_only{
  name = "luma.preprocessing.RobustScaler", kind = "transformer", one_to_one_features = true,
  doc = "Centres on the median and divides by the interquartile range (quantile_range).",
  params = {
    { name = "with_centering", type = "boolean", default = true, doc = "subtract the median" },
    { name = "with_scaling", type = "boolean", default = true, doc = "divide by the IQR" },
    { name = "quantile_range", type = "table", default = { 25, 75 }, doc = "{q_lo, q_hi} in percent" },
  },
  example = example(function() return scalers.RobustScaler{} end),
  fit = function(self, X)
    local q = self.params.quantile_range
    if type(q[1]) ~= "number" or type(q[2]) ~= "number" or not (q[1] >= 0 and q[1] < q[2] and q[2] <= 100) then
      fail(3, "luma.preprocessing.RobustScaler: quantile_range must be 0 <= lo < hi <= 100")
    end
    local Q = luma.stats.quantile(X, { q[1] / 100, 0.5, q[2] / 100 })
    self.center = self.params.with_centering and Q:row(2):copy() or luma.zeros(1, X:cols())
    self.scale = self.params.with_scaling and nonzero(Q:row(3) - Q:row(1)) or luma.ones(1, X:cols())
  end,
  transform = function(self, X) return (X - self.center):div(self.scale) end,
  inverse_transform = function(self, X) return X:mul(self.scale) + self.center end,
})

scalers.Normalizer = estimator.class(finite_only{
  name = "luma.preprocessing.Normalizer", kind = "transformer", one_to_one_features = true,
  doc = "Scales each row to unit norm (l1, l2 or max); rows of zeros stay zero.",
  params = { { name = "norm", type = "string", default = "l2", values = { "l1", "l2", "max" },
    doc = "the row norm" } },
  sparse = true,
  example = example(function() return scalers.Normalizer{} end),
  fit = function() end,
  transform = function(self, X)
    local n = self.params.norm
    local r = n == "l1" and X:abs():sum(2) or (n == "l2" and X:pow(2):sum(2):sqrt() or X:abs():max(2))
    if issparse(X) then return X:multiply_rows(nonzero(r):pow(-1)) end
    return X:div(nonzero(r))
  end,
})

scalers.Binarizer = estimator.class(finite_only{
  name = "luma.preprocessing.Binarizer", kind = "transformer", one_to_one_features = true,
  doc = "1 where a value exceeds threshold, else 0.",
  params = { { name = "threshold", type = "number", default = 0, doc = "values > threshold become 1" } },
  example = example(function() return scalers.Binarizer{} end),
  fit = function() end,
  transform = function(self, X) return X:gt(self.params.threshold) end,
})

return scalers
