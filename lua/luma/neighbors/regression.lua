--- luma.neighbors.regression: KNeighborsRegressor and
-- RadiusNeighborsRegressor.
--
-- The notes (000 §5.1) say k-NN works for regression without giving the
-- rule; the implied one, used here as in scikit-learn, is the mean of the
-- neighbours' targets, weighted by 1, 1/d or a function's weights (with
-- neighbours at distance 0 taking all the weight under "distance").
-- SPDX-License-Identifier: MIT
local estimator = require("luma.estimator")
local native = require("luma.neighbors.native")
local common = require("luma.neighbors.common")

local fail = common.fail

local regression = {}

local function fit(self, X, y, k)
  local name = self.__class.short_name
  common.check_weights_param(name, self.params.weights)
  if k and k > X:rows() then
    fail("bad argument #1 to 'fit' (%s: n_neighbors = %d but X has only %d rows)", name, k,
      X:rows())
  end
  self.index = common.build(name, self.params, X, "fit", k)
  self.fit_y = y:copy()
  self.n_samples_fit = X:rows()
  self.effective_algorithm = common.algorithm(self.index)
end

local function example_targets()
  local X = common.example_data()
  return X, X:col(1) + X:col(2) * 2
end

regression.KNeighborsRegressor = estimator.class{
  sparse = true,
  name = "luma.neighbors.KNeighborsRegressor",
  kind = "regressor",
  doc = "k-nearest-neighbour regression: the (weighted) mean of the k nearest training points' "
    .. "targets (every column of y).",
  method_docs = common.method_docs("kneighbors"),
  params = common.with({
    { name = "n_neighbors", type = "integer", default = 5, min = 1, doc = "k, the neighbours averaged" },
    common.WEIGHTS_PARAM,
  }, common.index_params()),
  example = function()
    local X, y = example_targets()
    return regression.KNeighborsRegressor{ n_neighbors = 3, weights = "distance" }, X, y
  end,
  fit = function(self, X, y)
    fit(self, X, y, self.params.n_neighbors)
  end,
  predict = function(self, X)
    local p = self.params
    local dist, ind = common.kneighbors(self, X, p.n_neighbors, "predict")
    return native.average(ind, self.fit_y, common.weights(self.__class.short_name, p.weights, dist))
  end,
  kneighbors = common.kneighbors_method,
}

regression.RadiusNeighborsRegressor = estimator.class{
  sparse = true,
  name = "luma.neighbors.RadiusNeighborsRegressor",
  kind = "regressor",
  doc = "Regression by the (weighted) mean of the targets of every training point within a "
    .. "radius; NaN (with a warning) for queries without one.",
  method_docs = common.method_docs("radius_neighbors"),
  params = common.with({
    { name = "radius", type = "number", default = 1.0, gt = 0, doc = "the neighbourhood radius" },
    common.WEIGHTS_PARAM,
  }, common.index_params()),
  example = function()
    local X, y = example_targets()
    return regression.RadiusNeighborsRegressor{ radius = 2 }, X, y
  end,
  fit = function(self, X, y)
    fit(self, X, y)
  end,
  predict = function(self, X)
    local p = self.params
    local dist, ind, counts = common.radius_neighbors(self, X, p.radius, "predict")
    local w = common.weights(self.__class.short_name, p.weights, dist, counts)
    local empty = counts:eq(0):sum()
    if empty > 0 then
      warn(string.format("RadiusNeighborsRegressor: %d queries have no training point within "
        .. "radius %s; their predictions are NaN", math.tointeger(empty), tostring(p.radius)))
    end
    return native.average(ind, self.fit_y, w, counts)
  end,
  radius_neighbors = common.radius_neighbors_method,
}

return regression
