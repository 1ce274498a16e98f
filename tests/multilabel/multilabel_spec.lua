-- luma.multilabel and the multi-label metrics against scikit-learn 1.2.1
-- and NumPy.  The data and the reference values in
-- tests/multilabel/reference/multilabel_sklearn.lua were printed by
--   /usr/bin/python3 tests/multilabel/reference/multilabel_sklearn.py
-- (see its comments for how each value is computed).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local ml = luma.multilabel
local metrics = luma.metrics

local R = dofile("tests/multilabel/reference/multilabel_sklearn.lua")
local M = function(rows) return luma.matrix(rows) end
local Y, P, S, Sc, w = M(R.Y), M(R.P), M(R.S), M(R.Sc), M(R.w)
local X, Xt, Ytrain = M(R.X), M(R.Xt), M(R.Ytrain)

describe("multi-label metrics", function()
  it("equal scikit-learn's on a random label matrix with ties in the scores", function()
    assert.near(R.hamming, metrics.hamming_loss(Y, P), 1e-15)
    assert.near(R.hamming_w, metrics.hamming_loss(Y, P, { sample_weight = w }), 1e-14)
    assert.near(R.subset, metrics.accuracy_score(Y, P), 1e-15)
    assert.equal(R.subset_count, metrics.accuracy_score(Y, P, { normalize = false }))
    assert.near(1 - R.subset, metrics.zero_one_loss(Y, P), 1e-15)
    for _, avg in ipairs({ "micro", "macro", "weighted", "samples" }) do
      local p, r, f = metrics.precision_recall_fscore(Y, P, { average = avg })
      assert.near(R["p_" .. avg], p, 1e-14)
      assert.near(R["r_" .. avg], r, 1e-14)
      assert.near(R["f_" .. avg], f, 1e-14)
    end
    local _, _, f, support_ = metrics.precision_recall_fscore(Y, P, { average = "none" })
    assert.matrix_near(R.f_none, f, 1e-14)
    assert.matrix_near(R.support_none, support_, 0)
    assert.near(R.f2_macro, metrics.fbeta_score(Y, P, 2, { average = "macro" }), 1e-14)
    assert.near(R.lrap, metrics.label_ranking_average_precision_score(Y, S), 1e-14)
    assert.near(R.lrap_w, metrics.label_ranking_average_precision_score(Y, S,
      { sample_weight = w }), 1e-14)
    assert.near(R.coverage, metrics.coverage_error(Y, S), 1e-14)
    assert.near(R.ranking_loss, metrics.label_ranking_loss(Y, S), 1e-14)
  end)

  it("take sparse label matrices", function()
    local Ys, Ps = luma.sparse.from_dense(Y), luma.sparse.from_dense(P)
    assert.near(R.hamming, metrics.hamming_loss(Ys, Ps), 1e-15)
    assert.near(R.f_samples, metrics.f1_score(Ys, Ps, { average = "samples" }), 1e-14)
  end)

  it("rank at k as the definitions written out in NumPy (and sklearn's ndcg_score)", function()
    assert.near(R.precision_at_3, metrics.precision_at_k(Y, Sc, 3), 1e-14)
    assert.near(R.recall_at_3, metrics.recall_at_k(Y, Sc, 3), 1e-14)
    assert.near(R.map_at_3, metrics.average_precision_at_k(Y, Sc, 3), 1e-14)
    assert.near(R.ndcg_at_3, metrics.ndcg_at_k(Y, Sc, 3), 1e-14)
    assert.near(R.ndcg_sklearn_at_3, metrics.ndcg_at_k(Y, Sc, 3), 1e-14)
    assert.near(R.hit_at_3, metrics.hit_rate_at_k(Y, Sc, 3), 1e-14)
  end)

  it("score a hand-checked ranking", function()
    -- one user, items scored 0.9, 0.8, 0.7, 0.1; relevant: items 2 and 4.
    -- top 2 = items 1, 2: precision 1/2, recall 1/2, AP (1/2) / 2,
    -- DCG 1/log2(3), ideal 1 + 1/log2(3).
    local y, s = M{ { 0, 1, 0, 1 }, { 1, 0, 0, 0 } }, M{ { 0.9, 0.8, 0.7, 0.1 }, { 0, 0.5, 0.6, 0.7 } }
    -- (row 2: its one relevant item is ranked last of 4: all zero at 2)
    assert.near((0.5 + 0) / 2, metrics.precision_at_k(y, s, 2), 1e-15)
    assert.near((0.5 + 0) / 2, metrics.recall_at_k(y, s, 2), 1e-15)
    assert.near((0.25 + 0) / 2, metrics.average_precision_at_k(y, s, 2), 1e-15)
    local g = 1 / math.log(3, 2)
    assert.near((g / (1 + g) + 0) / 2, metrics.ndcg_at_k(y, s, 2), 1e-15)
    assert.near(0.5, metrics.hit_rate_at_k(y, s, 2), 1e-15)
  end)

  it("refuse bad input at the caller's line", function()
    support.errors_with("multilabel_spec.lua:%d+: luma.metrics.hamming_loss: y_true is 40 x 6 "
      .. "but y_pred is 40 x 5", function() metrics.hamming_loss(Y, P:sub(1, 40, 1, 5)) end)
    support.errors_with("multilabel_spec.lua:%d+: luma.metrics.recall_at_k: k must be an "
      .. "integer in %[1, 6%]", function() metrics.recall_at_k(Y, Sc, 7) end)
    support.errors_with("multilabel_spec.lua:%d+: luma.metrics.coverage_error: y_true must "
      .. "hold 0 or 1", function() metrics.coverage_error(Y * 2, S) end)
    support.errors_with("multilabel_spec.lua:%d+: luma.metrics.ndcg_at_k: no row of y_true "
      .. "has a relevant item", function() metrics.ndcg_at_k(Y * 0, S, 2) end)
    support.errors_with("multilabel_spec.lua:%d+: .*label matrix; average must be micro",
      function() metrics.f1_score(Y, P) end)
  end)
end)

describe("BinaryRelevance and ClassifierChain", function()
  it("equal scikit-learn's MultiOutputClassifier and ClassifierChain over GaussianNB", function()
    local br = ml.BinaryRelevance{ estimator = luma.naive_bayes.GaussianNB{} }:fit(X, Ytrain)
    assert.matrix_near(R.br_proba, br:predict_proba(Xt), 1e-9)
    assert.matrix_near(R.br_pred, br:predict(Xt), 0)
    local cc = ml.ClassifierChain{ estimator = luma.naive_bayes.GaussianNB{},
      order = { 3, 1, 6, 2, 5, 4 } }:fit(X, Ytrain)
    assert.matrix_near(R.cc_proba, cc:predict_proba(Xt), 1e-9)
    assert.matrix_near(R.cc_pred, cc:predict(Xt), 0)
    assert.same({ 3, 1, 6, 2, 5, 4 }, cc.order)
  end)

  it("predict a constant label as the constant, and rank by probability", function()
    local Yc = Ytrain:copy()
    Yc:col(6):assign(luma.ones(Yc:rows(), 1))
    local br
    local warnings = support.capture_warnings(function()
      br = ml.BinaryRelevance{ estimator = luma.naive_bayes.GaussianNB{} }:fit(X, Yc)
    end)
    assert.same({}, warnings)
    assert.matrix_near(luma.ones(12, 1), br:predict(Xt):col(6), 0)
    assert.matrix_near(luma.ones(12, 1), br:predict_proba(Xt):col(6), 0)
    -- label 6 (probability 1) is every row's first recommendation
    local labels, scores = br:recommend(Xt, 2)
    assert.matrix_near(luma.ones(12, 1) * 6, labels:col(1), 0)
    assert.matrix_near(luma.ones(12, 1), scores:col(1), 0)
  end)

  it("score by subset accuracy and survive save/load", function()
    local cc = ml.ClassifierChain{ estimator = luma.linear.LogisticRegression{}, order = "random",
      seed = 4 }:fit(X, Ytrain)
    local pred = cc:predict(Xt)
    assert.equal(metrics.accuracy_score(Ytrain, cc:predict(X)), cc:score(X, Ytrain))
    local path = os.tmpname()
    luma.save(cc, path)
    local back = luma.load(path)
    os.remove(path)
    assert.matrix_near(pred, back:predict(Xt), 0)
    assert.same(cc.order, back.order)
  end)

  it("refuse bad input at the caller's line", function()
    support.errors_with("multilabel_spec.lua:%d+: .*BinaryRelevance: Y must hold 0 or 1",
      function() ml.BinaryRelevance{ estimator = luma.naive_bayes.GaussianNB{} }:fit(X, Ytrain * 2) end)
    support.errors_with("multilabel_spec.lua:%d+: .*estimator must be a classifier",
      function() ml.BinaryRelevance{ estimator = luma.linear.Ridge{} }:fit(X, Ytrain) end)
    support.errors_with("multilabel_spec.lua:%d+: .*order must list each of the 6 labels once; "
      .. "entry 2 is 1", function()
        ml.ClassifierChain{ estimator = luma.naive_bayes.GaussianNB{}, order = { 1, 1, 2, 3, 4, 5 } }
          :fit(X, Ytrain)
      end)
    support.errors_with("multilabel_spec.lua:%d+: .*BinaryRelevance: recommend called before fit",
      function() ml.BinaryRelevance{}:recommend(Xt) end)
    support.errors_with("multilabel_spec.lua:%d+: .*X has 3 columns but BinaryRelevance was "
      .. "fitted on 4", function()
        ml.BinaryRelevance{ estimator = luma.naive_bayes.GaussianNB{} }:fit(X, Ytrain)
          :recommend(Xt:sub(1, 12, 1, 3))
      end)
    support.errors_with("multilabel_spec.lua:%d+: .*has no decision_function", function()
      ml.BinaryRelevance{ estimator = luma.naive_bayes.GaussianNB{} }:fit(X, Ytrain)
        :decision_function(Xt)
    end)
  end)
end)

describe("MultiLabelLwP", function()
  it("scores minus the squared distance to each label's mean row", function()
    local m = ml.MultiLabelLwP{ top_k = 2 }:fit(X, Ytrain)
    assert.matrix_near(R.lwp_scores, m:decision_function(Xt), 1e-12)
    local mh = ml.MultiLabelLwP{ metric = "mahalanobis" }:fit(X, Ytrain)
    assert.matrix_near(R.lwp_mahalanobis, mh:decision_function(Xt), 1e-9)
    -- predict marks exactly the two closest prototypes
    local labels = m:recommend(Xt, 2)
    local pred = m:predict(Xt)
    assert.matrix_near(luma.ones(12, 1) * 2, pred:sum(2), 0)
    for i = 1, 12 do
      assert.equal(1, pred:get(i, labels:get(i, 1)))
      assert.equal(1, pred:get(i, labels:get(i, 2)))
    end
  end)

  it("gives a label no training row holds no prototype, with a warning", function()
    local Yz = Ytrain:copy()
    Yz:col(2):assign(luma.zeros(Yz:rows(), 1))
    local m
    local warnings = support.capture_warnings(function() m = ml.MultiLabelLwP{}:fit(X, Yz) end)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:find("1 label(s) held by no training row", 1, true))
    assert.equal(-math.huge, m:decision_function(Xt):col(2):max())
    support.errors_with("multilabel_spec.lua:%d+: .*Y holds no label", function()
      ml.MultiLabelLwP{}:fit(X, Ytrain * 0)
    end)
  end)
end)

describe("LowRankLabelPredictor", function()
  it("is reduced-rank ridge regression (NumPy, through the augmented SVD)", function()
    local m = ml.LowRankLabelPredictor{ rank = 2, alpha = 0.5 }:fit(X, Ytrain)
    assert.matrix_near(R.lowrank_coef, m.coef, 1e-10)
    assert.matrix_near(R.lowrank_intercept, m.intercept, 1e-10)
    assert.matrix_near(R.lowrank_scores, m:decision_function(Xt), 1e-10)
    -- W = Z H with Z d x 2: rank 2
    assert.equal(2, luma.linalg.rank(m.coef))
    assert.matrix_near(m.coef, m.components * m.label_loadings, 1e-12)
  end)

  it("with full rank is ridge regression on each label", function()
    local m = ml.LowRankLabelPredictor{ rank = 4, alpha = 0.5 }:fit(X, Ytrain)
    local ridge = luma.linear.Ridge{ alpha = 0.5 }:fit(X, Ytrain:col(5):copy())
    assert.matrix_near(ridge.coef, m.coef:col(5), 1e-10)
  end)

  it("refuses a rank above min(d, L)", function()
    support.errors_with("multilabel_spec.lua:%d+: .*rank = 5 but X has 4 columns and Y 6 labels",
      function() ml.LowRankLabelPredictor{ rank = 5 }:fit(X, Ytrain) end)
  end)
end)

describe("MultiLabelTree and MultiLabelForest", function()
  it("equal scikit-learn's multi-output DecisionTreeClassifier", function()
    local t = ml.MultiLabelTree{ max_depth = 3 }:fit(X, Ytrain)
    assert.matrix_near(R.tree_proba, t:predict_proba(Xt), 1e-12)
    assert.matrix_near(M(R.tree_proba):gt(0.5), t:predict(Xt), 0)
  end)

  it("average the trees' leaf frequencies and take sparse labels", function()
    local f = ml.MultiLabelForest{ n_estimators = 7, seed = 2, max_depth = 3 }
      :fit(X, luma.sparse.from_dense(Ytrain))
    local sum = luma.zeros(12, 6)
    for _, tree in ipairs(f.model.estimators) do sum = sum + tree:predict(Xt) end
    assert.matrix_near(sum / 7, f:predict_proba(Xt), 1e-12)
    local proba = f:predict_proba(Xt)
    assert.is_true(proba:ge(0):all() and proba:le(1):all())
  end)
end)
