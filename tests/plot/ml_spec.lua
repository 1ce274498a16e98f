-- The ML plots of luma.plot: each from an estimator (or search) and from
-- the plain numbers behind it, checked in the SVG.  Reference numbers:
-- AUC and AP of y = {0, 0, 1, 1}, s = {0.1, 0.4, 0.35, 0.8} are 0.75 and
-- 0.8333 (scikit-learn 1.2.1 roc_auc_score, average_precision_score, the
-- documentation's example); the silhouettes of {0, 1, 5, 6} in clusters
-- {1, 1, 2, 2} are 4.5/5.5 and 3.5/4.5 by Rousseeuw's formula (their mean
-- 0.79798 is scikit-learn's silhouette_score).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local xml = require("plot.xml")
local plot = luma.plot

local function parse(fig)
  local doc, err = xml.parse(fig:svg())
  assert(doc, err)
  return doc
end

local function labels_of(doc, class)
  local out = {}
  for _, e in ipairs(xml.by_class(doc, class)) do out[#out + 1] = e.attrs["data-label"] end
  return out
end

local function legend(doc)
  local out = {}
  for _, e in ipairs(xml.by_class(doc, "entry")) do out[#out + 1] = e.attrs["data-label"] end
  return out
end

local function points(el)
  local pts = {}
  for a, b in el.attrs.points:gmatch("([%d.-]+),([%d.-]+)") do pts[#pts + 1] = { tonumber(a), tonumber(b) } end
  return pts
end

-- Two Gaussian blobs at (-2, 0) and (2, 0), 30 points each.
local function blobs()
  local g = luma.random.Generator(3)
  local X = g:normal(60, 2)
  local y = luma.zeros(60, 1)
  for i = 1, 60 do
    local c = i <= 30 and -2 or 2
    X:set(i, 1, X:get(i, 1) * 0.5 + c)
    y:set(i, 1, i <= 30 and 1 or 2)
  end
  return X, y
end

describe("luma.plot ML plots", function()
  it("decision_regions: predicts on a grid behind the training points", function()
    local X, y = blobs()
    local lda = luma.generative.LinearDiscriminantAnalysis()
    local fig = plot.decision_regions(lda, X, y, { resolution = 40 })
    assert.is_true(lda:is_fitted())
    local doc = parse(fig)
    assert.same({ "1", "2" }, labels_of(doc, "scatter"))
    -- the left edge is class 1's light colour, the right edge class 2's
    local light1 = "#a5c9e1" -- C1 #1f77b4 mixed 60% with white
    local light2 = "#ffcc9f" -- C2 #ff7f0e
    local rects = xml.by_name(xml.by_class(doc, "image")[1], "rect")
    local ax = fig:axes()
    local left = ax:transform(X:col(1):min(), 0)
    local seen = {}
    for _, r in ipairs(rects) do
      local x0 = tonumber(r.attrs.x)
      if math.abs(x0 - ax:box().x) < 1 then seen[r.attrs.fill] = true end
      assert.truthy(r.attrs.fill == light1 or r.attrs.fill == light2)
    end
    assert.is_true(left > ax:box().x)
    assert.truthy(seen[light1])
    support.errors_with("X must have 2 columns, got 3", function()
      plot.decision_regions(lda, luma.zeros(4, 3), { 1, 1, 2, 2 })
    end)
  end)

  it("regression_band: mean ± 2 std from a Bayesian model or from arrays", function()
    local g = luma.random.Generator(4)
    local X = g:uniform(20, 1)
    local y = X * 2 + g:normal(20, 1):mul(0.1)
    local blr = luma.linear.BayesianLinearRegression()
    local fig = plot.regression_band(blr, X, y)
    local doc = parse(fig)
    assert.same({ "±2 std", "mean", "data" }, legend(doc))
    local grid = luma.linspace(X:min() - (X:max() - X:min()) * 0.05, X:max() + (X:max() - X:min()) * 0.05, 200)
    local mean = blr:predict(grid)
    local line = xml.by_name(xml.by_class(doc, "line")[1], "polyline")[1]
    local ax = fig:axes()
    local px, py = ax:transform(grid:get(1, 1), mean:get(1, 1))
    assert.near(px, points(line)[1][1], 0.006)
    assert.near(py, points(line)[1][2], 0.006)
    -- plain arrays: the band's first corner is at mean - 2 std
    local f2 = plot.regression_band({ x = { 0, 1 }, mean = { 1, 2 }, std = { 0.5, 0.5 } })
    local poly = xml.by_name(xml.by_class(parse(f2), "area")[1], "polygon")[1]
    local qx, qy = f2:axes():transform(0, 0)
    assert.near(qx, points(poly)[1][1], 0.006)
    assert.near(qy, points(poly)[1][2], 0.006)
    support.errors_with("gives no predictive std", function()
      plot.regression_band(luma.linear.Ridge(), X, y)
    end)
  end)

  it("learning_curve and validation_curve: means with ± 1 std bands", function()
    local fig = plot.learning_curve{ sizes = { 10, 20 }, train = luma.matrix{ { 1, 3 }, { 2, 2 } },
      test = luma.matrix{ { 0, 1 }, { 1, 1 } } }
    local doc = parse(fig)
    assert.same({ "training score", "cross-validation score" }, legend(doc))
    local line = xml.by_name(xml.by_class(doc, "line")[1], "polyline")[1]
    local ax = fig:axes()
    local _, py = ax:transform(10, 2) -- mean of {1, 3}
    assert.near(py, points(line)[1][2], 0.006)
    local bands = xml.by_class(doc, "area")
    -- the band runs forward along mean - std and back along mean + std:
    -- its last corner is (10, 2 + std{1, 3}) = (10, 3)
    local _, top = ax:transform(10, 3)
    assert.near(top, points(xml.by_name(bands[1], "polygon")[1])[4][2], 0.006)
    -- from an estimator, through luma.model_selection
    local X, y = blobs()
    local f2 = plot.learning_curve(luma.linear.Ridge(), X, y:sub(1, 60, 1, 1), { cv = 3,
      train_sizes = { 0.5, 1.0 } })
    assert.equal(2, #xml.by_class(parse(f2), "line"))
    -- validation curves over a wide positive range get a log x axis
    local f3 = plot.validation_curve{ name = "alpha", values = { 0.01, 1, 100 },
      train = luma.ones(3, 2), test = luma.ones(3, 2) }
    assert.equal("log", f3:axes().opts.xscale)
  end)

  it("search_heatmap: the mean score over two parameters", function()
    local results = { primary = "score",
      { params = { alpha = 1, beta = "a" }, mean_test_score = 0.5 },
      { params = { alpha = 2, beta = "a" }, mean_test_score = 0.25 },
      { params = { alpha = 1, beta = "b" }, mean_test_score = 0.75 },
      { params = { alpha = 2, beta = "b" }, mean_test_score = 1 } }
    local doc = parse(plot.search_heatmap(results))
    local texts = {}
    for _, t in ipairs(xml.by_name(xml.by_class(doc, "annotations")[1], "text")) do texts[#texts + 1] = t.text end
    assert.same({ "0.500", "0.250", "0.750", "1.000" }, texts)
    local X, y = blobs()
    local search = luma.model_selection.GridSearch{ estimator = luma.linear.Ridge(),
      param_grid = { alpha = { 0.1, 1 }, fit_intercept = { 0, 1 } }, cv = 3 }
    local ok = pcall(search.fit, search, X, y)
    if ok then
      assert.truthy(xml.parse(plot.search_heatmap(search, { x = "alpha", y = "fit_intercept" }):svg()))
    end
    support.errors_with("no parameter 'gamma'", function() plot.search_heatmap(results, { x = "gamma" }) end)
  end)

  it("roc_curve and precision_recall_curve: AUC and AP in the legend", function()
    local y, s = { 0, 0, 1, 1 }, { 0.1, 0.4, 0.35, 0.8 }
    assert.same({ "ROC (AUC = 0.750)" }, legend(parse(plot.roc_curve(luma.matrix(y), luma.matrix(s)))))
    assert.same({ "ROC (AUC = 0.750)" }, legend(parse(plot.roc_curve(y, s)))) -- Lua lists too
    assert.same({ "PR (AP = 0.833)" },
      legend(parse(plot.precision_recall_curve(luma.matrix(y), luma.matrix(s)))))
    -- from a classifier, overlaid on one axes
    local X, yy = blobs()
    local fig = plot.roc_curve(luma.linear.LogisticRegression(), X, yy, { label = "logistic" })
    plot.roc_curve(luma.generative.GaussianNB(), X, yy, { ax = fig:axes(), label = "nb" })
    assert.same({ "logistic (AUC = 1.000)", "nb (AUC = 1.000)" }, legend(parse(fig)))
  end)

  it("confusion_matrix: counts in the cells, true labels down, predicted across", function()
    local doc = parse(plot.confusion_matrix({ 1, 1, 2, 2, 2 }, { 1, 2, 2, 2, 1 }))
    local texts = {}
    for _, t in ipairs(xml.by_name(xml.by_class(doc, "annotations")[1], "text")) do texts[#texts + 1] = t.text end
    assert.same({ "1", "1", "1", "2" }, texts)
    doc = parse(plot.confusion_matrix({ 1, 1, 2, 2, 2 }, { 1, 2, 2, 2, 1 }, { normalize = "true" }))
    texts = {}
    for _, t in ipairs(xml.by_name(xml.by_class(doc, "annotations")[1], "text")) do texts[#texts + 1] = t.text end
    assert.same({ "0.50", "0.50", "0.33", "0.67" }, texts)
    support.errors_with("predictions has 1 values but y has 2", function()
      plot.confusion_matrix({ 1, 2 }, { 1 })
    end)
  end)

  it("residuals and feature_importances", function()
    local fig = plot.residuals({ 1, 2, 3 }, { 1.5, 2, 2 })
    local doc = parse(fig)
    local c = xml.by_name(xml.by_class(doc, "scatter")[1], "circle")
    local px, py = fig:axes():transform(1.5, -0.5)
    assert.near(px, tonumber(c[1].attrs.cx), 0.006)
    assert.near(py, tonumber(c[1].attrs.cy), 0.006)
    assert.equal(1, #xml.by_class(doc, "hline"))
    local f2 = plot.feature_importances({ 0.1, 0.5, 0.2 }, { names = { "a", "b", "c" } })
    local ax = f2:axes()
    local _, yv, _, yl = nil, nil, nil, nil
    _, _, yv, yl = ax:ticks()
    assert.same({ 3, 2, 1 }, yv)
    assert.same({ "b", "c", "a" }, yl) -- largest (b) at the top, y = 3
    local X, y = blobs()
    local ridge = luma.linear.Ridge():fit(X, y)
    assert.truthy(xml.parse(plot.feature_importances(ridge):svg()))
    support.errors_with("has neither feature_importances nor coef",
      function() plot.feature_importances(luma.generative.GaussianNB()) end)
  end)

  it("elbow from values, silhouette by Rousseeuw's formula", function()
    local doc = parse(plot.elbow({ 1, 2, 3 }, { 10, 4, 3 }))
    assert.equal(1, #xml.by_class(doc, "line"))
    local s = plot.silhouette_samples(luma.matrix{ { 0 }, { 1 }, { 5 }, { 6 } }, { 1, 1, 2, 2 })
    assert.near(4.5 / 5.5, s[1], 1e-12)
    assert.near(3.5 / 4.5, s[2], 1e-12)
    assert.near(3.5 / 4.5, s[3], 1e-12)
    local fig, mean = plot.silhouette(luma.matrix{ { 0 }, { 1 }, { 5 }, { 6 } }, { 1, 1, 2, 2 })
    assert.near(0.797979797979798, mean, 1e-12)
    assert.same({ "1", "2", "mean 0.798" }, legend(parse(fig)))
    if not pcall(require, "luma.cluster") then
      support.errors_with("needs luma.cluster.KMeans, which this build does not have",
        function() plot.elbow(luma.zeros(5, 2), { ks = { 1, 2 } }) end)
    end
  end)

  it("dendrogram from a 1-based merge matrix", function()
    -- leaves 1..4; row 1 makes 5 = {1, 2} at 1, row 2 makes 6 = {3, 4} at 2,
    -- row 3 joins them at 3
    local Z = luma.matrix{ { 1, 2, 1, 2 }, { 3, 4, 2, 2 }, { 5, 6, 3, 4 } }
    local fig, order = plot.dendrogram(Z, { labels = { "a", "b", "c", "d" } })
    assert.same({ 1, 2, 3, 4 }, order)
    local lines = xml.by_class(parse(fig), "line")
    assert.equal(3, #lines)
    local root = points(xml.by_name(lines[3], "polyline")[1])
    local ax = fig:axes()
    local x5, y3 = ax:transform(1.5, 3) -- the root joins x = 1.5 ({1, 2}) and 3.5 at 3
    assert.near(x5, root[1][1], 0.006)
    assert.near(y3, root[2][2], 0.006)
    local _, xl = ax:ticks()
    assert.same({ "a", "b", "c", "d" }, xl)
    support.errors_with("Z%[2%]%[2%] = 7 is not a leaf", function()
      plot.dendrogram({ { 1, 2, 1 }, { 3, 7, 2 }, { 5, 6, 3 } })
    end)
    support.errors_with("cluster 1 is merged twice", function()
      plot.dendrogram({ { 1, 2, 1 }, { 1, 3, 2 }, { 5, 6, 3 } })
    end)
  end)

  it("takes clusterers: elbow over n_clusters, dendrogram of a fitted merge tree", function()
    -- stand-ins for the clusterers of a family still being written: the
    -- fitted attributes are what the plots read
    local estimator = require("luma.estimator")
    local Spread = estimator.class{ name = "test.Spread", kind = "clusterer",
      doc = "inertia 12 / n_clusters", params = {
        { name = "n_clusters", type = "integer", default = 2, min = 1, doc = "k" } },
      fit = function(self) self.inertia = 12 / self.params.n_clusters end,
      predict = function(_, X) return luma.ones(X:rows(), 1) end,
      example = function(base) return base(), luma.zeros(2, 1) end }
    local fig = plot.elbow(Spread(), luma.zeros(4, 2), { ks = { 1, 2, 3 } })
    local pts = points(xml.by_name(xml.by_class(parse(fig), "line")[1], "polyline")[1])
    local ax = fig:axes()
    for k, v in ipairs{ 12, 6, 4 } do
      local px, py = ax:transform(k, v)
      assert.near(px, pts[k][1], 0.006)
      assert.near(py, pts[k][2], 0.006)
    end
    local Merges = estimator.class{ name = "test.Merges", kind = "clusterer",
      doc = "a fixed merge tree of 4 points", params = {},
      fit = function(self)
        self.children = luma.matrix{ { 1, 2 }, { 3, 4 }, { 5, 6 } }
        self.distances = luma.matrix{ 1, 2, 3 }
      end,
      predict = function(_, X) return luma.ones(X:rows(), 1) end,
      example = function(base) return base(), luma.zeros(2, 1) end }
    local _, order = plot.dendrogram(Merges():fit(luma.zeros(4, 1)))
    assert.same({ 1, 2, 3, 4 }, order)
    support.errors_with("has no linkage_matrix nor children and distances",
      function() plot.dendrogram(Merges()) end)
  end)

  it("embedding, hist_kde and MCMC traces", function()
    local X, y = blobs()
    assert.same({ "1", "2" }, labels_of(parse(plot.embedding(X, y)), "scatter"))
    -- from a transformer, through fit_transform
    local f1 = plot.embedding(luma.preprocessing.StandardScaler(), y, { X = X })
    assert.same({ "1", "2" }, labels_of(parse(f1), "scatter"))
    -- Scott's bandwidth of {1, 2, 3, 4, 5}: sd 1.5811 (ddof 1) x 5^(-1/5)
    local f, h = plot.kde({ 1, 2, 3, 4, 5 })
    assert.near(math.sqrt(2.5) * 5 ^ -0.2, h, 1e-12)
    local direct = 0
    for k = 1, 5 do direct = direct + math.exp(-0.5 * ((3 - k) / h) ^ 2) end
    assert.near(direct / (5 * h * math.sqrt(2 * math.pi)), f(3), 1e-14)
    -- the density integrates to 1 (trapezoid on a wide grid)
    local area, step = 0, 0.01
    for x = -10, 16, step do area = area + f(x) * step end
    assert.near(1, area, 1e-6)
    local doc = parse(plot.hist_kde({ 1, 2, 3, 4, 5 }))
    assert.same({ string.format("KDE (h = %.3g)", h) }, legend(doc))
    local chain = luma.random.Generator(5):normal(200, 2)
    local traces = plot.traces(chain, { names = { "mu", "sigma" } })
    assert.equal(4, #xml.by_class(parse(traces), "axes"))
    support.errors_with("needs 2 columns", function() plot.embedding(luma.zeros(3, 1)) end)
  end)
end)
