-- Evaluating a probabilistic classifier: confusion matrix, per-class
-- report, ROC curve and AUC (luma.metrics, luma.plot.roc_curve;
-- docs/METRICS.md).
--
-- A pipeline of a standard scaler and a logistic regression on the breast
-- cancer data (75/25 split, stratified), compared with a Gaussian naive
-- Bayes classifier.  Class 1 is benign, class 0 malignant.  Draws both ROC
-- curves on one panel and the logistic model's confusion matrix
-- (roc_curves.png in OUTDIR):
--   build/luma scripts/examples/roc_metrics.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local metrics = luma.metrics

local X, y = luma.datasets.load("breast_cancer")
local X_train, X_test, y_train, y_test =
  luma.model_selection.train_test_split(X, y, { test_size = 0.25, stratify = y, seed = 1 })

local logistic = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler(),
  luma.linear.LogisticRegression{ C = 1 }):fit(X_train, y_train)
local bayes = luma.naive_bayes.GaussianNB():fit(X_train, y_train)

local predicted = logistic:predict(X_test)
print("logistic regression, confusion matrix (rows: true 0, 1; columns: predicted):")
print((metrics.confusion_matrix(y_test, predicted)))
io.write(metrics.classification_report(y_test, predicted))
for _, m in ipairs{ { "logistic regression", logistic }, { "Gaussian naive Bayes", bayes } } do
  local p = m[2]:predict_proba(X_test):col(2)
  print(string.format("%-21s accuracy %.3f  ROC AUC %.4f  log loss %.4f", m[1],
    m[2]:score(X_test, y_test), metrics.roc_auc_score(y_test, p),
    metrics.log_loss(y_test, m[2]:predict_proba(X_test))))
end

if outdir then
  local fig = luma.plot.figure{ cols = 2, width = 1000, height = 440,
    title = "Breast cancer test set (143 tumours)" }
  luma.plot.roc_curve(logistic, X_test, y_test, { ax = fig:axes(1, 1),
    label = "logistic regression" })
  luma.plot.roc_curve(bayes, X_test, y_test, { ax = fig:axes(1, 1), label = "Gaussian NB" })
  luma.plot.confusion_matrix(y_test, predicted, { ax = fig:axes(1, 2),
    title = "logistic regression" })
  print("wrote " .. fig:save(outdir .. "/roc_curves.png"))
end
