--- luma.preprocessing.impute: SimpleImputer, which fills missing values
-- (NaN, or a chosen marker) from per-column statistics of the observed
-- ones, so it accepts the NaN that the scalers and encoders refuse.
local luma = require("luma")
local estimator = require("luma.estimator")
local fail = require("luma.preprocessing.common").fail

local impute = {}

impute.SimpleImputer = estimator.class{
  name = "luma.preprocessing.SimpleImputer", kind = "transformer", one_to_one_features = true,
  doc = "Replaces missing values (NaN, or missing_values) by each column's mean, median, "
    .. "most frequent value or a constant.",
  params = {
    { name = "strategy", type = "string", default = "mean",
      values = { "mean", "median", "most_frequent", "constant" }, doc = "what replaces a gap" },
    { name = "fill_value", type = "number", default = 0, doc = "the constant strategy's value" },
    { name = "missing_values", type = "number", default = 0 / 0, nan_ok = true,
      doc = "the marker of a gap (NaN by default)" },
  },
  example = function()
    return impute.SimpleImputer{}, luma.matrix{ { 1, 0 / 0 }, { 3, 4 }, { 0 / 0, 6 } }, nil
  end,
  fit = function(self, X)
    local mv = self.params.missing_values
    local missing = mv ~= mv and X:isnan() or X:eq(mv)
    local stats = luma.zeros(1, X:cols())
    for j = 1, X:cols() do
      local present = X:col(j):select(missing:col(j):eq(0))
      local v
      local strategy = self.params.strategy
      if strategy == "constant" then
        v = self.params.fill_value
      elseif present:rows() == 0 then
        fail(3, "luma.preprocessing.SimpleImputer: column %d has no observed value", j)
      elseif strategy == "mean" then
        v = present:mean()
      elseif strategy == "median" then
        v = luma.stats.median(present):get(1, 1)
      else
        v = luma.stats.mode(present):get(1, 1)
      end
      stats:set(1, j, v)
    end
    self.statistics = stats
  end,
  transform = function(self, X)
    local mv = self.params.missing_values
    local missing = mv ~= mv and X:isnan() or X:eq(mv)
    return luma.matrix.where(missing, self.statistics, X)
  end,
}

return impute
