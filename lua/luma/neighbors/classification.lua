--- luma.neighbors.classification: KNeighborsClassifier and
-- RadiusNeighborsClassifier (Cover & Hart 1967; notes 000 §5.1, 001 §G).
--
-- The notes' k-NN classifier sorts the distances and returns the most
-- frequent class among the k nearest, with tie-breaking unspecified.
-- Here the neighbours come from an index (partial selection, not a full
-- sort) in (distance, index) order; each neighbour votes with its weight
-- (1, 1/d, or a function's), and the class with the largest vote wins,
-- the smallest class on ties -- scikit-learn's rule, so predictions match
-- scikit-learn's, including its treatment of neighbours at distance 0
-- under weights = "distance".
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.neighbors.native")
local common = require("luma.neighbors.common")

local fail = common.fail

local classification = {}

-- Shared fit: labels, the weights parameter, the index.
local function fit(self, X, y, k)
  local name = self.__class.short_name
  common.check_weights_param(name, self.params.weights)
  local codes, classes = common.labels(name, y)
  if k and k > X:rows() then
    fail("bad argument #1 to 'fit' (%s: n_neighbors = %d but X has only %d rows)", name, k,
      X:rows())
  end
  self.index = common.build(name, self.params, X, "fit", k)
  self.classes = classes
  self.fit_codes = codes
  self.n_samples_fit = X:rows()
  self.effective_algorithm = common.algorithm(self.index)
end

-- Votes normalized to probabilities (a row whose weights sum to 0 stays 0).
local function normalized(V)
  local s = V:sum(2)
  return V:div(luma.matrix.where(s:eq(0), 1, s))
end

-- ----------------------------------------------------------- k nearest

local function knn_votes(self, X, method)
  local p = self.params
  local dist, ind = common.kneighbors(self, X, p.n_neighbors, method)
  local w = common.weights(self.__class.short_name, p.weights, dist)
  return native.vote(ind, self.fit_codes, self.classes:rows(), w)
end

classification.KNeighborsClassifier = estimator.class{
  sparse = true,
  name = "luma.neighbors.KNeighborsClassifier",
  kind = "classifier",
  doc = "k-nearest-neighbour classifier (Cover & Hart 1967): the class with the largest "
    .. "(weighted) vote among the k nearest training points, the smallest class on ties.",
  method_docs = common.method_docs("kneighbors"),
  params = common.with({
    { name = "n_neighbors", type = "integer", default = 5, min = 1, doc = "k, the neighbours that vote" },
    common.WEIGHTS_PARAM,
  }, common.index_params()),
  example = function()
    local X, y = common.example_data()
    return classification.KNeighborsClassifier{ n_neighbors = 3, weights = "distance" }, X, y
  end,
  fit = function(self, X, y)
    fit(self, X, y, self.params.n_neighbors)
  end,
  predict_proba = function(self, X)
    return normalized(knn_votes(self, X, "predict_proba"))
  end,
  predict = function(self, X)
    return self.classes:take(knn_votes(self, X, "predict"):argmax(2))
  end,
  kneighbors = common.kneighbors_method,
}

-- -------------------------------------------------------------- radius

-- The label given to queries without neighbours: the parameter, or the
-- most frequent training class (the smallest on ties).
local function outlier_label(self)
  local label = self.params.outlier_label
  if label ~= "most_frequent" then return label end
  local _, counts = self.fit_codes:unique()
  return self.classes:get(counts:argmax(1):get(1, 1), 1)
end

-- Votes and the per-query neighbour counts.
local function radius_votes(self, X, method)
  local p = self.params
  local dist, ind, counts = common.radius_neighbors(self, X, p.radius, method)
  local w = common.weights(self.__class.short_name, p.weights, dist, counts)
  return native.vote(ind, self.fit_codes, self.classes:rows(), w, counts), counts
end

-- The 1-based rows without neighbours.
local function outliers(counts)
  local rows = {}
  for i = 1, counts:rows() do
    if counts:get(i, 1) == 0 then rows[#rows + 1] = i end
  end
  return rows
end

local RADIUS_NAME = "RadiusNeighborsClassifier"

local function no_neighbours(self, method, rows)
  fail("bad argument #1 to '%s' (%s: no training point within radius %s of row %d; give "
    .. "outlier_label, a larger radius, or drop such rows)", method, RADIUS_NAME,
    tostring(self.params.radius), rows[1])
end

classification.RadiusNeighborsClassifier = estimator.class{
  sparse = true,
  name = "luma.neighbors.RadiusNeighborsClassifier",
  kind = "classifier",
  doc = "Classifier by the (weighted) vote of every training point within a radius; queries "
    .. "with none get outlier_label.",
  method_docs = common.method_docs("radius_neighbors"),
  params = common.with({
    { name = "radius", type = "number", default = 1.0, gt = 0, doc = "the neighbourhood radius" },
    common.WEIGHTS_PARAM,
    { name = "outlier_label", type = "number|string",
      doc = "label of queries without neighbours: a value, \"most_frequent\", or nil (an error)" },
  }, common.index_params()),
  example = function()
    local X, y = common.example_data()
    return classification.RadiusNeighborsClassifier{ radius = 0.5, outlier_label = "most_frequent" }, X, y
  end,
  fit = function(self, X, y)
    local label = self.params.outlier_label
    if type(label) == "string" and label ~= "most_frequent" then
      fail("%s: outlier_label must be a label or \"most_frequent\", got %q", RADIUS_NAME, label)
    end
    fit(self, X, y)
  end,
  predict = function(self, X)
    local V, counts = radius_votes(self, X, "predict")
    local pred = self.classes:take(V:argmax(2))
    local rows = outliers(counts)
    if #rows > 0 then
      local label = outlier_label(self)
      if label == nil then no_neighbours(self, "predict", rows) end
      for _, i in ipairs(rows) do pred:set(i, 1, label) end
    end
    return pred
  end,
  -- Queries without neighbours get probability 1 for the outlier label
  -- when it is a class, and 0 everywhere otherwise (with a warning).
  predict_proba = function(self, X)
    local V, counts = radius_votes(self, X, "predict_proba")
    local P = normalized(V)
    local rows = outliers(counts)
    if #rows > 0 then
      local label = outlier_label(self)
      if label == nil then no_neighbours(self, "predict_proba", rows) end
      local code = self.classes:eq(label):argmax(1):get(1, 1)
      if self.classes:get(code, 1) ~= label then
        warn(string.format("%s: outlier_label %s is not a class; queries without neighbours get "
          .. "probability 0 for every class", RADIUS_NAME, tostring(label)))
      else
        for _, i in ipairs(rows) do P:set(i, code, 1) end
      end
    end
    return P
  end,
  radius_neighbors = common.radius_neighbors_method,
}

return classification
