-- A user-written estimator under Luma's estimator contract, tuned by grid
-- search inside a pipeline.  Run with: build/luma scripts/examples/custom_estimator.lua
-- (docs/ESTIMATORS.md walks through it; tests/examples_spec.lua runs it).
-- SPDX-License-Identifier: MIT
local estimator = require("luma.estimator")
local ms, pipeline = luma.model_selection, luma.pipeline

-- Nearest centroid classification with shrinkage of the centroids towards
-- the overall mean: a classifier in a dozen lines.
local NearestCentroid = estimator.class{
  name = "example.NearestCentroid",
  kind = "classifier",
  doc = "Predicts the class whose (shrunken) centroid is nearest.",
  params = {
    { name = "shrink", type = "number", default = 0, min = 0, max = 1,
      doc = "fraction of the way from each centroid to the overall mean" },
  },
  fit = function(self, X, y)
    local codes, classes = estimator.encode_labels(y)
    local mean = X:mean(1)
    self.classes = classes
    self.centroids = luma.zeros(classes:rows(), X:cols())
    for k = 1, classes:rows() do
      local centroid = X:select(codes:eq(k), 1):mean(1)
      self.centroids:row(k):assign(centroid * (1 - self.params.shrink) + mean * self.params.shrink)
    end
  end,
  predict = function(self, X)
    -- squared distances to every centroid: |x|^2 - 2 x.c + |c|^2
    local d = (X * self.centroids:t()) * -2 + self.centroids:pow(2):sum(2):t()
    return estimator.decode_labels(d:argmin(2), self.classes)
  end,
}

-- A transformer: divides each column by its largest magnitude.
local MaxAbs = estimator.class{
  name = "example.MaxAbs",
  kind = "transformer",
  doc = "Scales columns into [-1, 1].",
  params = {},
  fit = function(self, X)
    local m = X:abs():max(1)
    self.scale = m + m:eq(0) -- all-zero columns stay as they are
  end,
  transform = function(self, X) return X:div(self.scale) end,
}

-- Two noisy blobs with labels 10 and 20.
local g = luma.random.Generator(7)
local X = luma.vstack{ g:normal(50, 2) + luma.matrix{{0, 0}}, g:normal(50, 2) + luma.matrix{{2, 2}} }
local y = luma.vstack{ luma.full(50, 1, 10), luma.full(50, 1, 20) }

local model = pipeline.make_pipeline(MaxAbs{}, NearestCentroid{})
local search = ms.GridSearch{
  estimator = model,
  param_grid = { nearestcentroid__shrink = { 0, 0.25, 0.5, 0.9 } },
  cv = 5,
}
search:fit(X, y)
print(search.results)
print(string.format("best shrink %.2f, cross-validated accuracy %.3f",
  search.best_params.nearestcentroid__shrink, search.best_score))
print("classes", search.classes:t())
