-- luma.naive_bayes.
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn).
--   GaussianNB: on iris (sklearn.datasets.load_iris(), equal to
--     luma.datasets.load("iris")), predict_proba of rows 1, 51, 71, 84,
--     120, 134, 150 (1-based).
--   MultinomialNB / BernoulliNB: on the spam word counts below
--     (luma.naive_bayes.spam_data()), predict_log_proba of the test e-mails;
--     the multinomial numbers are also derived by hand in the test.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local NB = luma.naive_bayes
local M = luma.matrix

local X, y = luma.datasets.load("iris")
local Xt = X:take(M{ 1, 51, 71, 84, 120, 134, 150 })

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("GaussianNB", function()
  it("matches scikit-learn on iris", function()
    local m = NB.GaussianNB{}:fit(X, y)
    assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 1 }, { 1 }, { 1 }, { 2 } }, m:predict(Xt))
    assert.matrix_near({
      { 1.0000000000000000e+000, 1.3578426545097532e-018, 7.1128351163031529e-026 },
      { 3.2138093542663014e-109, 8.0403766553968226e-001, 1.9596233446031797e-001 },
      { 2.5915380282501682e-130, 1.5449408494388256e-001, 8.4550591505611739e-001 },
      { 2.1406973140994879e-135, 6.1215984474275353e-001, 3.8784015525724680e-001 },
      { 6.3108651499541354e-126, 9.5813536187126924e-001, 4.1864638128730806e-002 },
      { 2.6838258262863244e-131, 7.1264514421552927e-001, 2.8735485578447090e-001 },
      { 3.2598824319148094e-146, 5.6005009154248768e-002, 9.4399499084575134e-001 } },
      m:predict_proba(Xt), 1e-9)
    -- epsilon = var_smoothing x the largest population variance of a feature
    assert.near(1e-9 * luma.stats.var(X):max(), m.epsilon, 1e-22)
    -- theta and var: class means and biased variances (+ epsilon)
    local setosa = X:sub(1, 50, 1, 4)
    assert.matrix_near(setosa:mean(1), m.theta:row(1), 1e-14)
    assert.matrix_near(luma.stats.var(setosa) + m.epsilon, m.var:row(1), 1e-14)
    assert.matrix_near(m:predict_proba(Xt):log(), m:predict_log_proba(Xt), 1e-9)
  end)

  it("uses priors and var_smoothing like scikit-learn", function()
    -- GaussianNB(var_smoothing=0.1, priors=[0.5, 0.3, 0.2])
    local m = NB.GaussianNB{ var_smoothing = 0.1, priors = { 0.5, 0.3, 0.2 } }:fit(X, y)
    assert.matrix_near({ { 0 }, { 1 }, { 1 }, { 1 }, { 1 }, { 1 }, { 1 } }, m:predict(Xt))
    assert.matrix_near({
      { 9.9999171812758825e-01, 8.2815648014110076e-06, 3.0761036959750589e-10 },
      { 1.3812254062129358e-09, 6.2674347159483013e-01, 3.7325652702394496e-01 },
      { 2.3170649739227406e-09, 6.7692146822392574e-01, 3.2307852945900928e-01 } },
      m:predict_proba(Xt:sub(1, 3, 1, 4)), 1e-9)
  end)

  it("keeps probabilities finite far from the data (log-sum-exp)", function()
    local m = NB.GaussianNB{}:fit(X, y)
    local P = m:predict_proba(M{ { 100, -100, 100, 100 } })
    assert.is_true(P:isfinite():all())
    assert.near(1, P:sum(), 1e-12)
  end)

  it("updates exactly with partial_fit", function()
    -- batches in any split give the fit on all rows (var_smoothing = 0
    -- because epsilon comes from the first batch, as in scikit-learn)
    local order = luma.random.Generator(3):permutation(150)
    local Xs, ys = X:take(order), y:take(order)
    local full = NB.GaussianNB{ var_smoothing = 0 }:fit(X, y)
    local inc = NB.GaussianNB{ var_smoothing = 0 }
    inc:partial_fit(Xs:sub(1, 40, 1, 4), ys:sub(1, 40, 1, 1), M{ 0, 1, 2 })
    inc:partial_fit(Xs:sub(41, 41, 1, 4), ys:sub(41, 41, 1, 1))
    inc:partial_fit(Xs:sub(42, 150, 1, 4), ys:sub(42, 150, 1, 1))
    assert.matrix_near(full.theta, inc.theta, 1e-12)
    assert.matrix_near(full.var, inc.var, 1e-12)
    assert.matrix_near(full.class_count, inc.class_count)
    assert.matrix_near(full:predict_proba(Xt), inc:predict_proba(Xt), 1e-9)
    -- epsilon from the first batch only
    local e = NB.GaussianNB{}:partial_fit(X:sub(1, 10, 1, 4), y:sub(1, 10, 1, 1), M{ 0, 1, 2 })
    assert.near(1e-9 * luma.stats.var(X:sub(1, 10, 1, 4)):max(), e.epsilon, 1e-24)
    fails("the first call needs classes", function() NB.GaussianNB{}:partial_fit(X, y) end)
    fails("y[1] = 7.0 is not one of the classes", function()
      NB.GaussianNB{}:partial_fit(X:sub(1, 1, 1, 4), M{ 7 }, M{ 0, 1 })
    end)
  end)

  it("rejects bad input with clear errors", function()
    local G = NB.GaussianNB
    fails("GaussianNB needs at least 2 classes, y has only the class 3",
      function() G{}:fit(X, luma.full(150, 1, 3)) end)
    local bad = X:copy()
    bad:set(5, 2, 0 / 0)
    fails("bad argument #1 to 'fit' (GaussianNB: X has a non-finite element, nan at row 5, column 2"
      .. "; impute missing values first, e.g. with luma.preprocessing.SimpleImputer)",
      function() G{}:fit(bad, y) end)
    fails("X has a non-finite element", function() G{}:fit(X, y):predict_proba(bad) end)
    fails("X has 150 rows but y has 3", function() G{}:fit(X, M{ 0, 1, 2 }) end)
    fails("parameter 'var_smoothing' must be a number >= 0", function() G{ var_smoothing = -1 } end)
    fails("priors must sum to 1, they sum to 1.2", function() G{ priors = { 0.4, 0.4, 0.4 } }:fit(X, y) end)
    fails("priors has 4 entries but y has 3 classes",
      function() G{ priors = { 0.25, 0.25, 0.25, 0.25 } }:fit(X, y) end)
  end)
end)

describe("MultinomialNB", function()
  local S, sy = NB.spam_data()
  -- test e-mails: "free money", "meeting report", "free free report report", empty
  local St = M{ { 1, 1, 0, 0 }, { 0, 0, 1, 1 }, { 2, 0, 0, 2 }, { 0, 0, 0, 0 } }

  it("reproduces the spam filter of notes 002 §1.2 (C9) by hand", function()
    -- Word totals, spam (+1): free 9, money 6, meeting 1, report 1 (17);
    -- ham (-1): 1, 1, 7, 7 (16).  Laplace (alpha = 1): theta_spam =
    -- (10, 7, 2, 2)/21, theta_ham = (2, 2, 8, 8)/20; priors 1/2 each.
    -- "free money": odds spam:ham = (10/21 * 7/21) / (2/20 * 2/20) = 15.873
    local m = NB.MultinomialNB{}:fit(S, sy)
    assert.matrix_near({ { -1 }, { 1 } }, m.classes)
    assert.matrix_near({ { 1, 1, 7, 7 }, { 9, 6, 1, 1 } }, m.feature_count)
    assert.matrix_near(M{ { 2, 2, 8, 8 }, { 10, 7, 2, 2 } }:div(M{ 20, 21 }):log(),
      m.feature_log_prob, 1e-15)
    local odds = (10 / 21 * 7 / 21) / (2 / 20 * 2 / 20)
    local lp = m:predict_log_proba(St)
    assert.near(math.log(odds / (1 + odds)), lp:get(1, 2), 1e-14)
    assert.matrix_near({ { 1 }, { -1 }, { 1 }, { -1 } }, m:predict(St))
    -- sklearn MultinomialNB().predict_log_proba(St)
    assert.matrix_near({ { -2.8257156519504143, -0.06109509935981094 },
      { -0.05514075867879997, -2.925309809257445 }, { -0.8265728374719075, -0.5754463915212167 },
      { -0.6931471805599453, -0.6931471805599453 } }, lp, 1e-12)
  end)

  it("supports Lidstone alpha and uniform or given priors", function()
    -- sklearn MultinomialNB(alpha=0.5, fit_prior=False).predict_log_proba(St)
    local m = NB.MultinomialNB{ alpha = 0.5, fit_prior = false }:fit(S, sy)
    assert.matrix_near({ { -3.2438251439161485, -0.03979582716494301 },
      { -0.03527088149023427, -3.362281148898986 }, { -0.8296036538426614, -0.573094982795304 },
      { -0.6931471805599453, -0.6931471805599453 } }, m:predict_log_proba(St), 1e-12)
    -- an empty e-mail gets the prior
    local p = NB.MultinomialNB{ class_prior = { 0.8, 0.2 } }:fit(S, sy)
    assert.matrix_near({ { 0.8, 0.2 } }, p:predict_proba(St:sub(4, 4, 1, 4)), 1e-14)
    -- alpha = 0 is floored at 1e-10 (scikit-learn 1.2): an unseen word
    -- gets log(1e-10 / (1 + 2e-10)), not -inf
    local z = NB.MultinomialNB{ alpha = 0 }:fit(M{ { 1, 0 }, { 0, 1 } }, M{ 0, 1 })
    assert.near(math.log(1e-10 / (1 + 2e-10)), z.feature_log_prob:get(1, 2), 1e-12)
    assert.is_true(z:predict_proba(M{ { 1, 1 } }):isfinite():all())
  end)

  it("rejects bad input with clear errors", function()
    local Mn = NB.MultinomialNB
    fails("counts must be non-negative, X[2][3] = -1",
      function() Mn{}:fit(M{ { 1, 0, 0 }, { 0, 2, -1 } }, M{ 0, 1 }) end)
    fails("counts must be non-negative", function() Mn{}:fit(S, sy):predict(-S) end)
    fails("parameter 'alpha' must be a number >= 0", function() Mn{ alpha = -0.5 } end)
    fails("needs at least 2 classes", function() Mn{}:fit(S, luma.ones(6, 1)) end)
    fails("class_prior must sum to 1", function() Mn{ class_prior = { 0.3, 0.3 } }:fit(S, sy) end)
    fails("class_prior has 3 entries but y has 2 classes",
      function() Mn{ class_prior = { 0.3, 0.3, 0.4 } }:fit(S, sy) end)
    local bad = S:copy()
    bad:set(1, 1, math.huge)
    fails("X has a non-finite element, inf at row 1, column 1", function() Mn{}:fit(bad, sy) end)
    fails("X has 6 rows but y has 2", function() Mn{}:fit(S, M{ 1, 2 }) end)
  end)
end)

describe("BernoulliNB", function()
  local S, sy = NB.spam_data()
  local St = M{ { 1, 1, 0, 0 }, { 0, 0, 1, 1 }, { 2, 0, 0, 2 }, { 0, 0, 0, 0 } }

  it("matches scikit-learn on word presence", function()
    -- presence per class (binarize = 0): spam free 3/3, money 3/3,
    -- meeting 1/3, report 1/3; ham 1/3, 1/3, 3/3, 3/3; p = (N + 1)/(3 + 2)
    local m = NB.BernoulliNB{}:fit(S, sy)
    assert.matrix_near(M{ { 2, 2, 4, 4 }, { 4, 4, 2, 2 } }:div(5):log(), m.feature_log_prob, 1e-15)
    -- sklearn BernoulliNB().predict_log_proba(St)
    assert.matrix_near({ { -3.6109179126442243, -0.02739897418811443 },
      { -0.02739897418811443, -3.6109179126442243 }, { -0.6931471805599454, -0.6931471805599454 },
      { -0.6931471805599454, -0.6931471805599454 } }, m:predict_log_proba(St), 1e-12)
    assert.matrix_near({ { 1 }, { -1 }, { -1 }, { -1 } }, m:predict(St))
  end)

  it("binarizes at the threshold, or not at all", function()
    -- binarize = 2.5: spam rows (1,0,0,0), (0,1,0,0), (1,0,0,0); ham
    -- (0,0,0,1), (0,0,1,0), (0,0,0,0).  alpha = 1: spam p = (3, 2, 1, 1)/5,
    -- ham p = (1, 1, 2, 2)/5.  For x = (1, 0, 0, 1) (from (3, 0, 0, 3)):
    -- spam 3/5 * 3/5 * 4/5 * 1/5, ham 1/5 * 4/5 * 3/5 * 2/5.
    local m = NB.BernoulliNB{ binarize = 2.5 }:fit(S, sy)
    local spam, ham = 3 / 5 * 3 / 5 * 4 / 5 * 1 / 5, 1 / 5 * 4 / 5 * 3 / 5 * 2 / 5
    assert.matrix_near({ { ham / (spam + ham), spam / (spam + ham) } },
      m:predict_proba(M{ { 3, 0, 0, 3 } }), 1e-14)
    -- binarize = false uses X as given (already 0/1)
    local B = S:gt(0)
    local a = NB.BernoulliNB{ binarize = false }:fit(B, sy)
    local b = NB.BernoulliNB{}:fit(S, sy)
    assert.matrix_near(b:predict_proba(St), a:predict_proba(St:gt(0)), 1e-15)
  end)

  it("rejects bad input with clear errors", function()
    local Bn = NB.BernoulliNB
    fails("parameter 'alpha' must be a number >= 0", function() Bn{ alpha = -1 } end)
    fails("binarize must be a number or false", function() Bn{ binarize = true }:fit(S, sy) end)
    fails("needs at least 2 classes", function() Bn{}:fit(S, luma.zeros(6, 1)) end)
    fails("class_prior must be finite and non-negative",
      function() Bn{ class_prior = { 1.5, -0.5 } }:fit(S, sy) end)
    local bad = S:copy()
    bad:set(3, 4, 0 / 0)
    fails("X has a non-finite element, nan at row 3, column 4", function() Bn{}:fit(bad, sy) end)
  end)
end)
