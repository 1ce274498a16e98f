-- Generative classifiers compared with logistic regression on the wine
-- data (luma.naive_bayes.GaussianNB, luma.discriminant; docs/CLASSIFIERS.md).
--
-- Gaussian naive Bayes (one normal per class and feature), linear
-- discriminant analysis (one Gaussian per class with a shared covariance),
-- quadratic discriminant analysis (a covariance per class), the
-- nearest-centroid rule and a multinomial logistic regression, each scored
-- by 10-fold stratified cross-validation on the 178 standardized wines.
-- LDA also reduces the 13 columns to the 2 discriminant directions, which
-- separate the three cultivars (lda_wine.png in OUTDIR):
--   build/luma scripts/examples/generative_classifiers.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local ms, pipeline = luma.model_selection, luma.pipeline
local scaler = luma.preprocessing.StandardScaler

local X, y = luma.datasets.load("wine")
local cv = ms.StratifiedKFold{ n_splits = 10, shuffle = true, seed = 0 }
local models = {
  { "Gaussian naive Bayes", luma.naive_bayes.GaussianNB() },
  { "LDA", luma.discriminant.LinearDiscriminantAnalysis() },
  { "QDA", luma.discriminant.QuadraticDiscriminantAnalysis{ reg_param = 0.01 } },
  { "nearest centroid", luma.discriminant.NearestCentroid() },
  { "logistic regression", luma.linear.LogisticRegression{ max_iter = 500 } },
}
print(string.format("%-21s %s", "model", "10-fold accuracy (mean +- sd)"))
for _, m in ipairs(models) do
  local scores = ms.cross_val_score(pipeline.make_pipeline(scaler(), m[2]), X, y,
    { cv = cv, verbose = 0 })
  print(string.format("%-21s %.4f +- %.4f", m[1], scores:mean(),
    luma.stats.std(scores, 1):get(1, 1)))
end

local lda = luma.discriminant.LinearDiscriminantAnalysis{ n_components = 2 }
local S = scaler():fit_transform(X)
local Z = lda:fit(S, y):transform(S)
print(string.format("LDA projection: %d x %d", Z:rows(), Z:cols()))
if outdir then
  local fig = luma.plot.scatter(Z:col(1), Z:col(2), { labels = y, size = 5 })
  fig:axes(1, 1):set{ title = "Wine in LDA's two discriminant directions",
    xlabel = "LD1", ylabel = "LD2" }
  print("wrote " .. fig:save(outdir .. "/lda_wine.png"))
end
