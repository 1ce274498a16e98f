-- A decision tree and a random forest on the breast cancer data
-- (luma.tree.DecisionTreeClassifier, luma.ensemble.RandomForestClassifier;
-- docs/TREE.md, docs/ENSEMBLE.md).
--
-- The 569 tumours (30 features) are split 75/25 with the classes'
-- proportions kept.  A tree of depth 2 prints its rules; an unpruned tree
-- fits the training set exactly and does worse on the test set than a
-- forest of 200 trees, whose out-of-bag accuracy estimates the test
-- accuracy without a test set.  The forest's ten most important features
-- are drawn (forest_importances.png in OUTDIR):
--   build/luma scripts/examples/tree_forest.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]

local X, y, info = luma.datasets.load("breast_cancer")
local X_train, X_test, y_train, y_test =
  luma.model_selection.train_test_split(X, y, { test_size = 0.25, stratify = y, seed = 0 })
print(string.format("%d training and %d test tumours, %d features",
  X_train:rows(), X_test:rows(), X:cols()))

local stump = luma.tree.DecisionTreeClassifier{ max_depth = 2, seed = 0 }:fit(X_train, y_train)
print("a tree of depth 2:")
io.write(luma.tree.export_text(stump, { feature_names = info.feature_names }))
print(string.format("depth-2 tree: test accuracy %.3f", stump:score(X_test, y_test)))

local tree = luma.tree.DecisionTreeClassifier{ seed = 0 }:fit(X_train, y_train)
print(string.format("unpruned tree: training accuracy %.3f, test accuracy %.3f",
  tree:score(X_train, y_train), tree:score(X_test, y_test)))

local forest = luma.ensemble.RandomForestClassifier{ n_estimators = 200, oob_score = true,
  seed = 0 }:fit(X_train, y_train)
print(string.format("random forest (200 trees): out-of-bag accuracy %.3f, test accuracy %.3f",
  forest.oob_score, forest:score(X_test, y_test)))

if outdir then
  local fig = luma.plot.feature_importances(forest, { top = 10, names = info.feature_names,
    title = "Random forest: the ten most important features" })
  print("wrote " .. fig:save(outdir .. "/forest_importances.png"))
end
