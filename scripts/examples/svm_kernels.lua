-- Support vector classifiers with a linear and a Gaussian (RBF) kernel on
-- two interleaving half moons (luma.svm.SVC; docs/SVM.md).
--
-- 300 points of make_moons with noise 0.2, split 2:1.  The linear kernel
-- cannot follow the moons; the RBF kernel can, and a small grid over C and
-- gamma (5-fold cross-validation) picks its parameters.  Prints each
-- model's support vectors and test accuracy, and draws the decision
-- regions of both (svm_regions.png in OUTDIR):
--   build/luma scripts/examples/svm_kernels.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local ms = luma.model_selection

local X, y = luma.datasets.make_moons{ n_samples = 300, noise = 0.2, seed = 1 }
local X_train, X_test, y_train, y_test = ms.train_test_split(X, y, { test_size = 100, seed = 1 })

local linear = luma.svm.SVC{ kernel = "linear", C = 1 }:fit(X_train, y_train)
print(string.format("linear kernel: %d support vectors, test accuracy %.3f",
  linear.support_vectors:rows(), linear:score(X_test, y_test)))

local search = ms.GridSearch{ estimator = luma.svm.SVC{ kernel = "rbf" }, cv = 5, verbose = 0,
  param_grid = { C = { 0.1, 1, 10, 100 }, gamma = { 0.1, 1, 10 } } }:fit(X_train, y_train)
local best = search.best_params
print(string.format("grid search: best C = %g, gamma = %g (cross-validated accuracy %.3f)",
  best.C, best.gamma, search.best_score))
local rbf = search.best_estimator
print(string.format("RBF kernel: %d support vectors, test accuracy %.3f",
  rbf.support_vectors:rows(), rbf:score(X_test, y_test)))

if outdir then
  local fig = luma.plot.figure{ cols = 2, width = 1000, height = 440,
    title = "SVC on the moons: linear and RBF kernels" }
  luma.plot.decision_regions(linear, X_train, y_train, { ax = fig:axes(1, 1),
    title = "linear kernel" })
  luma.plot.decision_regions(rbf, X_train, y_train, { ax = fig:axes(1, 2),
    title = string.format("RBF kernel, C = %g, gamma = %g", best.C, best.gamma) })
  print("wrote " .. fig:save(outdir .. "/svm_regions.png"))
end
