-- The README's `make run` job: a complete model-selection experiment.
--   1. hold out a quarter of the diabetes data set;
--   2. grid-search a pipeline (scaler + polynomial features + ridge) with
--      5-fold cross-validation on the rest;
--   3. report the held-out score of the refitted best model (notes 003:
--      after choosing, retrain on all the training data — refit does it);
--   4. save the model, load it back and check its predictions.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local ms, pp, pipeline = luma.model_selection, luma.preprocessing, luma.pipeline

print(string.format("Luma %s on %s (%d BLAS threads)", luma.VERSION,
  luma.config().blas_config:match("^%S+ %S+"), luma.config().blas_threads))

local X, y, names = luma.datasets.load("diabetes")
print(string.format("diabetes: %d samples, %d features (%s, ...)", X:rows(), X:cols(),
  table.concat({ table.unpack(names.feature_names, 1, 3) }, ", ")))

local X_train, X_test, y_train, y_test = ms.train_test_split(X, y, { test_size = 0.25, seed = 0 })

local model = pipeline.Pipeline{ steps = {
  { "scale", pp.StandardScaler{} },
  { "expand", pp.PolynomialFeatures{ include_bias = false } },
  { "ridge", luma.linear.Ridge{} },
} }

local search = ms.GridSearch{
  estimator = model, cv = 5, scoring = "r2",
  param_grid = {
    expand__degree = { 1, 2 },
    ridge__alpha = { 0.1, 1, 10, 100, 1000 },
  },
}
local started = luma.now()
search:fit(X_train, y_train)
print(string.format("\n5-fold grid search over %d candidates in %.2f s:", #search.results,
  luma.now() - started))
print(search.results)

print(string.format("best: degree %d, alpha %g (mean CV R^2 %.4f)",
  search.best_params.expand__degree, search.best_params.ridge__alpha, search.best_score))
print(string.format("held-out R^2 of the refitted model: %.4f", search:score(X_test, y_test)))

local path = os.tmpname()
luma.save(search.best_estimator, path)
local loaded = luma.load(path)
os.remove(path)
local same = search:predict(X_test):allclose(loaded:predict(X_test), 0, 0)
print(string.format("saved, reloaded: predictions %s", same and "identical" or "DIFFER"))
if not same then os.exit(1) end
