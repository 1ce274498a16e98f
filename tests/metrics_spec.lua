-- luma.metrics against scikit-learn 1.2.1 on the data below (values printed
-- by sklearn.metrics: mean_squared_error, ..., silhouette_score,
-- davies_bouldin_score, roc_curve(drop_intermediate=False)).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local m = luma.metrics
local M = luma.matrix

local function close(e, g, tol) assert.is_true(math.abs(g - e) <= (tol or 1e-12) * math.max(1, math.abs(e)), tostring(g)) end

local yt, yp = M{1.0, 2.5, 3.0, 4.0, 8.0}, M{1.5, 2.0, 3.5, 5.0, 6.5}
local ct, cp = M{0, 1, 2, 2, 1, 0, 1, 2, 2, 0}, M{0, 2, 2, 2, 1, 0, 0, 1, 2, 1}
local yb, s = M{0, 0, 1, 1, 0, 1, 1, 0}, M{0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.9, 0.6}

describe("metrics #smoke", function()
  it("score regressions", function()
    close(0.8, m.mean_squared_error(yt, yp))
    close(math.sqrt(0.8), m.root_mean_squared_error(yt, yp))
    close(0.8, m.mean_absolute_error(yt, yp))
    close(0.5, m.median_absolute_error(yt, yp))
    close(0.8561151079136691, m.r2_score(yt, yp))
    close(0.8561151079136691, m.explained_variance_score(yt, yp))
    close(1.5, m.max_error(yt, yp))
    close(0.5 * (math.log(2 * math.pi) + 0.8), m.mean_gaussian_nll(yt, yp, 1))
    close(m.mean_squared_error(yt:sub(1, 4), yp:sub(1, 4)),
      m.mean_squared_error(yt, yp, { sample_weight = M{1, 1, 1, 1, 0} }))
  end)

  it("score classifications", function()
    close(0.6, m.accuracy_score(ct, cp))
    close(0.4, m.zero_one_loss(ct, cp))
    close(0.5833333333333334, m.balanced_accuracy_score(ct, cp))
    close(0.5833333333333334, m.f1_score(ct, cp, { average = "macro" }))
    close(0.6, m.f1_score(ct, cp, { average = "weighted" }))
    close(0.6, m.precision_score(ct, cp, { average = "micro" }))
    close(0.3939393939393939, m.matthews_corrcoef(ct, cp))
    close(0.3939393939393939, m.cohen_kappa_score(ct, cp))
    local C, labels = m.confusion_matrix(ct, cp)
    assert.matrix_near({{2, 1, 0}, {1, 1, 1}, {0, 1, 3}}, C, 0)
    assert.matrix_near({{0}, {1}, {2}}, labels, 0)
    close(0.75, m.f1_score(yb, s:gt(0.5)))
    assert.truthy(m.classification_report(ct, cp):find("weighted avg       0.60      0.60      0.60        10", 1, true))
  end)

  it("take scikit-learn's options of the classification metrics", function()
    -- ct/cp pair up as (0,0) (1,2) (2,2) (2,2) (1,1) (0,0) (1,0) (2,1) (2,2) (0,1)
    local w = M{ 1, 2, 1, 1, 1, 1, 1, 1, 1, 3 } -- total 13; the correct ones weigh 6
    assert.matrix_near({ { 2 / 3, 1 / 3, 0 }, { 1 / 3, 1 / 3, 1 / 3 }, { 0, 1 / 4, 3 / 4 } },
      (m.confusion_matrix(ct, cp, { normalize = "true" })), 1e-15)
    assert.matrix_near({ { 2 / 3, 1 / 3, 0 }, { 1 / 3, 1 / 3, 1 / 4 }, { 0, 1 / 3, 3 / 4 } },
      (m.confusion_matrix(ct, cp, { normalize = "pred" })), 1e-15)
    assert.matrix_near({ { .2, .1, 0 }, { .1, .1, .1 }, { 0, .1, .3 } },
      (m.confusion_matrix(ct, cp, { normalize = "all" })), 1e-15)
    local C, labels = m.confusion_matrix(ct, cp, { labels = { 2, 0 } })
    assert.matrix_near({ { 3, 0 }, { 0, 2 } }, C, 0)
    assert.matrix_near({ { 2 }, { 0 } }, labels, 0)
    assert.matrix_near({ { 2, 3, 0 }, { 1, 1, 2 }, { 0, 1, 3 } },
      (m.confusion_matrix(ct, cp, { sample_weight = w })), 0)
    -- a label never predicted nor true: its row and column stay zero under normalize
    assert.matrix_near({ { 1, 0, 0 }, { 0, 0, 0 }, { 0, 0, 1 } },
      (m.confusion_matrix(M{ 0, 2 }, M{ 0, 2 }, { labels = { 0, 1, 2 }, normalize = "true" })), 0)
    assert.has_error(function() m.confusion_matrix(ct, cp, { normalize = true }) end,
      "luma.metrics.confusion_matrix: normalize must be \"true\", \"pred\", \"all\" or nil, got true")
    assert.has_error(function() m.confusion_matrix(ct, cp, { labels = { 7 } }) end,
      "luma.metrics.confusion_matrix: none of the labels is in y_true")

    close(6, m.accuracy_score(ct, cp, { normalize = false }))
    close(6 / 13, m.accuracy_score(ct, cp, { sample_weight = w }))
    close(6, m.accuracy_score(ct, cp, { normalize = false, sample_weight = w }))
    close(4, m.zero_one_loss(ct, cp, { normalize = false }))
    close(7, m.zero_one_loss(ct, cp, { normalize = false, sample_weight = w }))
    -- weighted recalls 2/5, 1/4, 3/4; adjusted: (0.58333 - 1/3) / (1 - 1/3)
    close((0.4 + 0.25 + 0.75) / 3, m.balanced_accuracy_score(ct, cp, { sample_weight = w }))
    close(0.375, m.balanced_accuracy_score(ct, cp, { adjusted = true }))

    -- labels {0, 2}: label 0 is predicted 3 times (once for a true 1, a
    -- label left out, which still counts against it, as in scikit-learn)
    -- with 2 right of 3 true; label 2 is predicted 4 times, 3 right of 4
    close((2 / 3 + 3 / 4) / 2, m.f1_score(ct, cp, { average = "macro", labels = { 0, 2 } }))
    close(5 / 7, m.precision_score(ct, cp, { average = "micro", labels = { 0, 2 } }))
    local P, R, _, S = m.precision_recall_fscore(ct, cp, { average = "none", sample_weight = w })
    assert.matrix_near({ { 2 / 3 }, { 1 / 5 }, { 3 / 5 } }, P, 1e-15)
    assert.matrix_near({ { 2 / 5 }, { 1 / 4 }, { 3 / 4 } }, R, 1e-15)
    assert.matrix_near({ { 5 }, { 4 }, { 4 } }, S, 0)
    close(6 / 13, m.recall_score(ct, cp, { average = "weighted", sample_weight = w }))
    close(6 / 13, m.precision_score(ct, cp, { average = "micro", sample_weight = w }))
    -- weighted 2 x 2 table of (true, predicted) = {{2, 3}, {0, 1}} for labels 0 and 1 alone
    local y2, p2 = M{ 0, 0, 1 }, M{ 0, 1, 1 }
    close(1 / 4, m.precision_score(y2, p2, { sample_weight = M{ 2, 3, 1 } }))
    close((1 * 1 * 2 - 3 * 0) / math.sqrt(5 * 1 * 2 * 4), m.matthews_corrcoef(y2, p2,
      { sample_weight = M{ 2, 3, 1 } }), 1e-15)
    -- kappa of that table: po = 3/6, pe = (5 * 2 + 1 * 4) / 36
    close((3 / 6 - 14 / 36) / (1 - 14 / 36), m.cohen_kappa_score(y2, p2,
      { sample_weight = M{ 2, 3, 1 } }), 1e-15)
  end)

  it("lay reports out like scikit-learn's", function()
    -- the example of scikit-learn's classification_report documentation
    local yt3, yp3 = M{ 0, 1, 2, 2, 2 }, M{ 0, 0, 2, 2, 1 }
    local names = { "class 0", "class 1", "class 2" }
    assert.equal(table.concat({
      "              precision    recall  f1-score   support",
      "",
      "     class 0       0.50      1.00      0.67         1",
      "     class 1       0.00      0.00      0.00         1",
      "     class 2       1.00      0.67      0.80         3",
      "",
      "    accuracy                           0.60         5",
      "   macro avg       0.50      0.56      0.49         5",
      "weighted avg       0.70      0.60      0.61         5", "" }, "\n"),
      m.classification_report(yt3, yp3, { target_names = names }))
    -- labels leaving out one that occurs: a micro average, not the accuracy
    assert.equal(table.concat({
      "              precision    recall  f1-score   support",
      "",
      "           1       1.00      0.67      0.80         3",
      "           2       0.00      0.00      0.00         0",
      "           3       0.00      0.00      0.00         0",
      "",
      "   micro avg       1.00      0.67      0.80         3",
      "   macro avg       0.33      0.22      0.27         3",
      "weighted avg       1.00      0.67      0.80         3", "" }, "\n"),
      m.classification_report(M{ 1, 1, 1 }, M{ 1, 1, 0 }, { labels = { 1, 2, 3 } }))
    local three = m.classification_report(yt3, yp3, { digits = 3 })
    assert.truthy(three:find("\n           0      0.500     1.000     0.667         1\n", 1, true), three)
    local long = m.classification_report(yt3, yp3, { target_names = { "a", "b", "the third class" } })
    assert.truthy(long:find("\nthe third class       1.00      0.67      0.80         3\n", 1, true), long)
    assert.truthy(long:find("\n   weighted avg       0.70", 1, true), long)
    local weighted = m.classification_report(yt3, yp3, { sample_weight = M{ 1, 1, 0.5, 1, 1 } })
    assert.truthy(weighted:find("\n           2       1.00      0.60      0.75       2.5\n", 1, true),
      weighted)
    local d = m.classification_report(yt3, yp3, { target_names = names, output_dict = true })
    close(0.5, d["class 0"].precision)
    close(0.8, d["class 2"]["f1-score"])
    assert.equal(3, d["class 2"].support)
    close(0.6, d.accuracy)
    close((1 + 0 + 2 / 3) / 3, d["macro avg"].recall)
    close(0.7, d["weighted avg"].precision)
    assert.has_error(function() m.classification_report(yt3, yp3, { target_names = { "a" } }) end,
      "luma.metrics.classification_report: 3 labels but 1 target_names")
    assert.has_error(function() m.accuracy_score(yt3, yp3, { normalise = false }) end,
      "luma.metrics.accuracy_score: unknown option 'normalise' (valid: normalize, sample_weight)")
    assert.has_error(function() m.confusion_matrix(yt3, yp3, { normalise = "true" }) end,
      "luma.metrics.confusion_matrix: unknown option 'normalise' (valid: labels, normalize, "
        .. "sample_weight)")
  end)

  it("score probabilities and rankings", function()
    close(0.875, m.roc_auc_score(yb, s))
    close(0.9166666666666666, m.average_precision_score(yb, s))
    close(0.4363276947527035, m.log_loss(yb, s))
    close(0.1415625, m.brier_score_loss(yb, s))
    local fpr, tpr = m.roc_curve(yb, s)
    assert.matrix_near({{0}, {0}, {0}, {0}, {0.25}, {0.5}, {0.5}, {0.75}, {1}}, fpr, 1e-15)
    assert.matrix_near({{0}, {0.25}, {0.5}, {0.75}, {0.75}, {0.75}, {1}, {1}, {1}}, tpr, 1e-15)
    close(0.75, m.precision_at_k(yb, s, 4)) -- the top four scores hold three positives
    -- labels as -1/+1 against d = 2s - 1: 1 - y d = .2 .8 1.3 .4 .4 .6 .2 1.2, all positive
    close(5.1 / 8, m.hinge_loss(yb, s * 2 - 1))
    local P = luma.hstack{ s * -1 + 1, s }
    close(m.roc_auc_score(yb, s), m.roc_auc_score(yb, P, { multi_class = "ovr" }))
  end)

  it("score clusterings", function()
    close(0.09090909090909091, m.adjusted_rand_score(ct, cp))
    close(0.3153898321101015, m.normalized_mutual_info_score(ct, cp))
    local h, c, v = m.homogeneity_completeness_v_measure(ct, cp)
    close(0.3153898321101015, h)
    close(0.3153898321101015, c)
    close(0.3153898321101015, v)
    -- a beta that is not a number >= 0 is refused (found by the API fuzzer)
    assert.has_error(function() m.homogeneity_completeness_v_measure(ct, cp, "l2") end,
      "bad argument #3 to 'homogeneity_completeness_v_measure' (beta must be a number >= 0, got l2)")
    local X = M{{1, 1}, {1.2, 0.8}, {5, 5}, {5.2, 4.9}, {9, 1}, {8.8, 1.3}}
    local lab = M{1, 1, 2, 2, 3, 3}
    close(0.9471833459871748, m.silhouette_score(X, lab), 1e-10)
    close(0.05106220572095616, m.davies_bouldin_score(X, lab), 1e-10)
    close(1, m.adjusted_rand_score(lab, lab * 10)) -- relabeling does not matter
    close(2 * 3 - 2 * -10, m.aic(-10, 3))
    close(3 * math.log(100) + 20, m.bic(-10, 3, 100))
  end)

  -- Issue 29, item 14: data sets keep their published labels (iris: 0..2)
  -- while the labels Luma produces count from 1 (a clusterer's 1..k): the
  -- partition metrics compare partitions, not label values, so neither the
  -- offset nor a renaming of the clusters changes them.
  it("are indifferent to 0- or 1-based labels and to renamed clusters", function()
    local X, y = luma.datasets.load("iris")
    assert.equal(0, y:min())
    local km = luma.cluster.KMeans{ n_clusters = 3, seed = 0 }:fit(X)
    assert.equal(1, km.labels:min())
    assert.equal(3, km.labels:max())
    -- renamed: 1 -> 30, 2 -> 10, 3 -> 20
    local renamed = km.labels:eq(1) * 30 + km.labels:eq(2) * 10 + km.labels:eq(3) * 20
    local ari = m.adjusted_rand_score(y, km.labels)
    local nmi = m.normalized_mutual_info_score(y, km.labels)
    local h, c, v = m.homogeneity_completeness_v_measure(y, km.labels)
    -- scikit-learn 1.2.1: adjusted_rand_score(y, KMeans(3, n_init=10,
    -- random_state=0).fit(X).labels_), its labels 0..2
    close(0.7302382722834697, ari, 1e-12)
    for _, pair in ipairs{ { y + 1, km.labels }, { y, km.labels - 1 }, { y, renamed },
                           { km.labels, y } } do
      local a, b = pair[1], pair[2]
      close(ari, m.adjusted_rand_score(a, b), 1e-14)
      close(nmi, m.normalized_mutual_info_score(a, b), 1e-14)
      local h2, c2, v2 = m.homogeneity_completeness_v_measure(a, b)
      if a == km.labels then h2, c2 = c2, h2 end -- swapped roles swap h and c
      close(h, h2, 1e-14)
      close(c, c2, 1e-14)
      close(v, v2, 1e-14)
    end
  end)

  it("serve scorers that are greater-is-better", function()
    local Mean = estimator.class{ name = "metrics_test.Mean", kind = "regressor", doc = "mean",
      params = {}, fit = function(self, _, y) self.v = y:mean() end,
      predict = function(self, X) return luma.full(X:rows(), 1, self.v) end }
    local est = Mean{}:fit(luma.zeros(5, 1), yt)
    close(-m.mean_squared_error(yt, luma.full(5, 1, yt:mean())), m.get_scorer("neg_mean_squared_error")(est, luma.zeros(5, 1), yt))
    close(0, m.get_scorer("r2")(est, luma.zeros(5, 1), yt))
    assert.truthy(#m.scorer_names() > 20)
    assert.has_error(function() m.get_scorer("f2") end)
    assert.has_error(function() m.get_scorer("neg_log_loss")(est, luma.zeros(5, 1), yt) end,
      "luma.metrics: scorer 'neg_log_loss' needs predict_proba, which Mean() does not have")
    local custom = m.make_scorer(m.max_error, { greater_is_better = false, name = "worst" })
    close(-m.max_error(yt, luma.full(5, 1, yt:mean())), custom(est, luma.zeros(5, 1), yt))
  end)

  it("reject mismatched and malformed input", function()
    assert.has_error(function() m.mean_squared_error(yt, M{1, 2}) end,
      "luma.metrics.mean_squared_error: y_true has 5 rows but y_pred has 2")
    assert.has_error(function() m.f1_score(ct, cp) end,
      "luma.metrics: average = \"binary\" needs two labels, got 3; choose micro, macro or weighted")
    assert.has_error(function() m.log_loss(yb, s * 2) end, "luma.metrics.log_loss: probabilities must be in [0, 1]")
    assert.has_error(function() m.roc_curve(M{1, 1}, M{0.2, 0.3}) end, "luma.metrics.roc_curve: needs both classes in y_true")
    assert.has_error(function() m.precision_at_k(yb, s, 9) end, "luma.metrics.precision_at_k: k must be an integer in [1, 8]")
    assert.has_error(function() m.silhouette_score(M{{1}, {2}}, M{1, 2}) end,
      "luma.metrics.silhouette_score: needs 2 <= clusters < samples, got 2")
  end)
end)
