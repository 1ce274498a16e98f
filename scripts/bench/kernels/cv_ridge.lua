-- 5-fold cross-validated ridge regression on the diabetes data, the whole
-- process: start, load, cross-validate, print the mean R^2.  Ridge is
-- written here against the estimator contract (luma.linear comes later).
-- SPDX-License-Identifier: MIT
local estimator = require("luma.estimator")
local Ridge = estimator.class{
  name = "bench.Ridge", kind = "regressor", doc = "ridge regression",
  params = { { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty" } },
  fit = function(self, X, y)
    local xm, ym = X:mean(1), y:mean()
    local Xc = X - xm
    self.coef = luma.linalg.solve(Xc:t() * Xc + luma.eye(X:cols()) * self.params.alpha,
      Xc:t() * (y - ym), { assume = "spd" })
    self.intercept = ym - (xm * self.coef):get(1, 1)
  end,
  predict = function(self, X) return X * self.coef + self.intercept end,
}
local X, y = luma.datasets.load("diabetes")
local scores = luma.model_selection.cross_val_score(Ridge{ alpha = 1 }, X, y, { cv = 5 })
print(string.format("%.6f", scores:mean()))
