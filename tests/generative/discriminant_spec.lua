-- luma.discriminant (LDA, QDA, NearestCentroid) and the luma.generative.native
-- kernels behind it.
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn) and
-- SciPy on Fisher's iris, sklearn.datasets.load_iris(), which equals
-- luma.datasets.load("iris") (the predictions and probabilities below agree
-- to 1e-14).  The test rows are rows 1, 51, 71, 84, 120, 134, 150 (1-based).
--   LDA: LinearDiscriminantAnalysis(solver="eigen").predict_proba: that
--     solver divides the pooled covariance by n, as Luma does; all three
--     Luma solvers must reproduce it.  The default "svd" solver of
--     scikit-learn divides by n - K, so its transform is Luma's times
--     sqrt((n - K)/n) (up to the sign of each axis).
--   QDA: scikit-learn's QDA divides by n_k - 1, so the reference is
--     computed directly: log N(x; mean_k, np.cov(X_k.T, bias=True)) (scipy
--     multivariate_normal.logpdf) + log(1/3), normalised with logsumexp;
--     for reg_param r the covariance is (1 - r) S + r I.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local D = luma.discriminant
local cs = require("luma.generative.native")
local M = luma.matrix

local X, y = luma.datasets.load("iris")
local rows = M{ 1, 51, 71, 84, 120, 134, 150 }
local Xt = X:take(rows)

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

-- sklearn LinearDiscriminantAnalysis(solver="eigen").fit(X, y).predict_proba(X[rows - 1])
local LDA_PROBA = {
  { 1.0000000000000000e+00, 1.4247331046890158e-22, 3.6999754059156954e-43 },
  { 8.5719096302232005e-19, 9.9990817191798298e-01, 9.1828082017122412e-05 },
  { 2.0942270071288707e-28, 2.4907733395274587e-01, 7.5092266604725411e-01 },
  { 9.7931003741084215e-33, 1.3896936814914654e-01, 8.6103063185085349e-01 },
  { 3.4598562931429215e-34, 2.1640318290080957e-01, 7.8359681709919038e-01 },
  { 3.5032547218726154e-29, 7.3336356770902666e-01, 2.6663643229097322e-01 },
  { 6.2038339051357710e-34, 1.6181153032251580e-02, 9.8381884696774857e-01 },
}

describe("luma.generative.native", function()
  it("computes per-class counts, means and biased variances, also on views", function()
    local A = M{ { 1, 2, 9 }, { 3, 4, 9 }, { 5, 7, 9 }, { 0, 1, 9 } }
    local codes = cs.codes(M{ 5, 7, 5, 7 }, M{ 5, 7 })
    assert.matrix_near({ { 1 }, { 2 }, { 1 }, { 2 } }, codes)
    -- class 5: rows (1,2), (5,7): means (3, 4.5), variances (4, 6.25)
    -- class 7: rows (3,4), (0,1): means (1.5, 2.5), variances (2.25, 2.25)
    local counts, means, vars = cs.moments(A:sub(1, 4, 1, 2), codes, 2)
    assert.matrix_near({ { 2 }, { 2 } }, counts)
    assert.matrix_near({ { 3, 4.5 }, { 1.5, 2.5 } }, means)
    assert.matrix_near({ { 4, 6.25 }, { 2.25, 2.25 } }, vars)
    -- a transposed (non-contiguous) view gives the same as its copy
    local T = A:t():copy():t()
    local _, m2, v2 = cs.moments(T:sub(1, 4, 1, 2), codes, 2)
    assert.matrix_near(means, m2)
    assert.matrix_near(vars, v2)
    local centred = cs.center(A:sub(1, 4, 1, 2), codes, means, M{ { 1, 10 } })
    assert.matrix_near({ { -2, -25 }, { 1.5, 15 }, { 2, 25 }, { -1.5, -15 } }, centred)
  end)

  it("reports the first non-finite element and unknown labels", function()
    local A = M{ { 1, 2 }, { 3, 0 / 0 }, { math.huge, 1 } }
    local i, j = cs.first_nonfinite(A)
    assert.same({ 2, 2 }, { i, j })
    local none, r, c, v = cs.moments(A, M{ 1, 1, 2 }, 2)
    assert.is_nil(none)
    assert.same({ 2, 2 }, { r, c })
    assert.is_true(v ~= v)
    assert.is_nil(cs.first_nonfinite(M{ { 1, 2 } }))
    fails("y[2] = 6.0 is not one of the classes", function() cs.codes(M{ 5, 6 }, M{ 5, 7 }) end)
  end)
end)

describe("LinearDiscriminantAnalysis", function()
  for _, solver in ipairs({ "svd", "lsqr", "eigen" }) do
    it("matches scikit-learn's 1/n probabilities with solver " .. solver, function()
      local m = D.LinearDiscriminantAnalysis{ solver = solver }:fit(X, y)
      assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 2 }, { 2 }, { 1 }, { 2 } }, m:predict(Xt))
      assert.matrix_near(LDA_PROBA, m:predict_proba(Xt), 1e-10)
      assert.matrix_near(m:predict_proba(Xt):log(), m:predict_log_proba(Xt), 1e-12)
      assert.matrix_near({ { 0 }, { 1 }, { 2 } }, m.classes)
      assert.matrix_near({ { 1 / 3 }, { 1 / 3 }, { 1 / 3 } }, m.priors, 1e-15)
    end)
  end

  it("transforms onto K - 1 axes, whitened within classes", function()
    local m = D.LinearDiscriminantAnalysis{}:fit(X, y)
    -- sklearn: LDA().explained_variance_ratio_ (scale-free, so equal)
    assert.matrix_near({ { 0.9912126049653672 }, { 0.00878739503463277 } },
      m.explained_variance_ratio, 1e-10)
    local Z = m:transform(X:take(M{ 1, 120 }))
    -- sklearn LDA().transform(X[[0, 119]]) = [[8.0618, -0.3004], [-4.7645, 2.1557]]
    -- (n - K = 147 divisor) times sqrt(150/147), up to the sign of each axis
    local f = math.sqrt(150 / 147)
    assert.matrix_near({ { 8.061799783002675 * f, 0.3004206213787802 * f },
                         { 4.764535688486349 * f, 2.1557371969161134 * f } }, Z:abs(), 1e-10)
    assert.is_true(Z:get(1, 1) * Z:get(2, 1) < 0 and Z:get(1, 2) * Z:get(2, 2) < 0)
    -- invariant: the pooled within-class covariance (1/n) of the scores is I
    local Zall = m:transform(X)
    local codes = cs.codes(y, m.classes)
    local _, zmeans = cs.moments(Zall, codes, 3)
    local Zc = cs.center(Zall, codes, zmeans)
    assert.matrix_near(luma.eye(2), (Zc:t() * Zc) / 150, 1e-10)
    assert.equal(1, D.LinearDiscriminantAnalysis{ n_components = 1 }:fit(X, y):transform(Xt):cols())
    -- eigen: the same axes up to sign and an offset (scikit-learn does not centre)
    local e = D.LinearDiscriminantAnalysis{ solver = "eigen" }:fit(X, y)
    local Ze = e:transform(X)
    local Zs = m:transform(X)
    for j = 1, 2 do
      local a, b = Ze:col(j) - Ze:col(j):mean(), Zs:col(j)
      assert.is_true(math.abs(math.abs(a:dot(b)) / (a:norm() * b:norm()) - 1) < 1e-10)
    end
  end)

  it("shrinks the covariance like scikit-learn (lsqr and eigen)", function()
    -- sklearn LDA(solver=..., shrinkage=0.2).predict_proba(X[[70, 83, 133]])
    local want = {
      { 5.6354176241799669e-23, 3.8017126224605896e-01, 6.1982873775394098e-01 },
      { 2.6415039972522599e-27, 1.5801129976790398e-01, 8.4198870023209593e-01 },
      { 5.8943189917761864e-25, 5.0155538077987016e-01, 4.9844461922012984e-01 } }
    for _, solver in ipairs({ "lsqr", "eigen" }) do
      local m = D.LinearDiscriminantAnalysis{ solver = solver, shrinkage = 0.2 }:fit(X, y)
      assert.matrix_near(want, m:predict_proba(X:take(M{ 71, 84, 134 })), 1e-10)
    end
  end)

  it("applies given priors through the log prior only", function()
    -- Bayes' rule: p(k | x) is proportional to p(x | k) pi_k, and the
    -- fit (means, pooled covariance) does not depend on the priors.
    local base = D.LinearDiscriminantAnalysis{}:fit(X, y):predict_proba(Xt)
    local pi = { 0.2, 0.2, 0.6 }
    local m = D.LinearDiscriminantAnalysis{ priors = pi }:fit(X, y)
    local want = base:mul(M{ pi } * 3)
    want = want:div(want:sum(2))
    assert.matrix_near(want, m:predict_proba(Xt), 1e-10)
  end)

  it("follows scikit-learn's binary shapes", function()
    -- sklearn LDA(solver="lsqr").fit(X[y > 0], y[y > 0]): coef_, intercept_,
    -- decision_function and predict_proba of X[[70, 83, 133]]
    local keep = y:gt(0)
    local Xb, yb = X:select(keep, 1), y:select(keep, 1)
    local m = D.LinearDiscriminantAnalysis{ solver = "lsqr" }:fit(Xb, yb)
    assert.matrix_near({ { -3.6288802966821248, -5.692470043211143, 7.11237518576824,
      12.638817504601606 } }, m.coef, 1e-10)
    assert.matrix_near({ { -17.003148417165356 } }, m.intercept, 1e-10)
    local P = X:take(M{ 71, 84, 134 })
    assert.matrix_near({ { 0.2598260941048913 }, { 2.3491221408524012 }, { -0.5726707029335145 } },
      m:decision_function(P), 1e-10)
    assert.matrix_near({ { 0.4354064585984, 0.5645935414016 },
      { 0.08713557465747734, 0.9128644253425227 }, { 0.6393791972519441, 0.36062080274805586 } },
      m:predict_proba(P), 1e-10)
    -- the svd solver agrees with lsqr (same model, different algebra)
    local s = D.LinearDiscriminantAnalysis{}:fit(Xb, yb)
    assert.matrix_near(m:decision_function(P), s:decision_function(P), 1e-9)
  end)

  it("rejects bad input with clear errors", function()
    local L = D.LinearDiscriminantAnalysis
    fails("needs at least 2 classes, y has only the class 1",
      function() L{}:fit(X, luma.ones(150, 1)) end)
    local bad = X:copy()
    bad:set(7, 3, 0 / 0)
    fails("X has a non-finite element, nan at row 7, column 3", function() L{}:fit(bad, y) end)
    bad:set(7, 3, math.huge)
    fails("X has a non-finite element, inf at row 7, column 3", function() L{}:fit(bad, y) end)
    fails("X has a non-finite element", function() L{}:fit(X, y):predict(bad) end)
    fails("X has 150 rows but y has 149", function() L{}:fit(X, y:sub(1, 149, 1, 1)) end)
    fails("priors must sum to 1", function() L{ priors = { 0.5, 0.5, 0.5 } }:fit(X, y) end)
    fails("priors has 2 entries but y has 3 classes", function() L{ priors = { 0.5, 0.5 } }:fit(X, y) end)
    fails("priors must be finite and non-negative",
      function() L{ priors = { -0.5, 0.5, 1 } }:fit(X, y) end)
    fails("parameter 'shrinkage' must be a number or string >= 0 and <= 1",
      function() L{ shrinkage = -0.1 } end)
    fails("shrinkage needs solver", function() L{ shrinkage = 0.1 }:fit(X, y) end)
    fails("n_components = 3 is more than", function() L{ n_components = 3 }:fit(X, y) end)
    fails("transform is not available", function() L{ solver = "lsqr" }:fit(X, y):transform(X) end)
    fails("predict called before fit", function() L{}:predict(X) end)
  end)
end)

describe("QuadraticDiscriminantAnalysis", function()
  it("matches the 1/n_k Gaussian posterior computed with SciPy", function()
    local m = D.QuadraticDiscriminantAnalysis{}:fit(X, y)
    assert.matrix_near({ { 0 }, { 1 }, { 2 }, { 2 }, { 2 }, { 1 }, { 2 } }, m:predict(Xt))
    assert.matrix_near({
      { 1.0000000000000000e+000, 1.5312975572378478e-026, 4.6316601818143408e-042 },
      { 4.4277412949632667e-092, 9.9996348437926708e-001, 3.6515620732703206e-005 },
      { 8.1448320044425777e-106, 3.2845133430091300e-001, 6.7154866569908700e-001 },
      { 1.9305870608661172e-116, 1.4735761598031372e-001, 8.5264238401968628e-001 },
      { 2.3031501960510966e-113, 3.7909891088521414e-002, 9.6209010891147850e-001 },
      { 2.5061784219116943e-113, 6.0228798163610731e-001, 3.9771201836389269e-001 },
      { 2.6734360409186503e-121, 5.6636087647219342e-002, 9.4336391235278061e-001 } },
      m:predict_proba(Xt), 1e-10)
    -- the conversion from scikit-learn: QDA().scalings_ * (n_k - 1) / n_k
    assert.matrix_near({ { 0.23172657627293203 }, { 0.03618035773106837 },
      { 0.02626047065452251 }, { 0.00885259534147725 } }, m.scalings[1], 1e-10)
    assert.matrix_near({ { 0.6813497414608958 }, { 0.10442020142375665 },
      { 0.05124951922482223 }, { 0.03358053789052515 } }, m.scalings[3], 1e-10)
  end)

  it("regularizes as (1 - r) Sigma + r I", function()
    local m = D.QuadraticDiscriminantAnalysis{ reg_param = 0.3 }:fit(X, y)
    assert.matrix_near({
      { 9.9999451170732367e-01, 5.4880870152954604e-06, 2.0566116953227776e-10 },
      { 2.2207364417486037e-10, 6.8324533287806755e-01, 3.1675466689985882e-01 },
      { 4.0608456876346926e-10, 5.6069975065072586e-01, 4.3930024894318948e-01 } },
      m:predict_proba(X:take(M{ 1, 51, 71 })), 1e-9)
  end)

  it("is the notes' binary rule with the corrected constant (notes 001 erratum 5)", function()
    -- Predict +1 iff x'Ax + x'b + c >= 0 with L = Sigma^-1, A = L- - L+,
    -- b = 2 (L+ mu+ - L- mu-), c = mu-'L- mu- - mu+'L+ mu+ + 2 ln(n+/n-)
    -- + ln|L+| - ln|L-|; twice the log posterior ratio, which is 2 x
    -- decision_function.  Without the - ln|L-| term (as printed at L523)
    -- the identity fails by ln|L-|.
    local keep = y:gt(0)
    local Xb = X:select(keep, 1)
    local yb = y:select(keep, 1) * 2 - 3 -- classes 1, 2 -> -1, +1
    local m = D.QuadraticDiscriminantAnalysis{ store_covariance = true }:fit(Xb, yb)
    local Lm, Lp = luma.linalg.inv(m.covariance[1]), luma.linalg.inv(m.covariance[2])
    local mm, mp = m.means:row(1):t(), m.means:row(2):t()
    local A = Lm - Lp
    local b = (Lp * mp - Lm * mm) * 2
    local _, logdet_p = luma.linalg.slogdet(Lp)
    local _, logdet_m = luma.linalg.slogdet(Lm)
    local c = (mm:t() * Lm * mm):get(1, 1) - (mp:t() * Lp * mp):get(1, 1)
      + 2 * math.log(50 / 50) + logdet_p - logdet_m
    local P = X:take(M{ 51, 71, 84, 120, 134 })
    local rule = (P * A):mul(P):sum(2) + P * b + c
    assert.matrix_near(rule, m:decision_function(P) * 2, 1e-9)
    assert.is_true(math.abs(logdet_m) > 1, "the erratum term is not negligible here")
    assert.matrix_near(m:predict(P), luma.matrix.where(rule:ge(0), 1, -1))
  end)

  it("rejects bad input with clear errors", function()
    local Q = D.QuadraticDiscriminantAnalysis
    fails("needs at least 2 classes", function() Q{}:fit(X, luma.zeros(150, 1)) end)
    local bad = X:copy()
    bad:set(2, 1, -math.huge)
    fails("X has a non-finite element, -inf at row 2, column 1", function() Q{}:fit(bad, y) end)
    fails("X has 150 rows but y has 10", function() Q{}:fit(X, y:sub(1, 10, 1, 1)) end)
    fails("parameter 'reg_param' must be a number >= 0 and <= 1", function() Q{ reg_param = -1 } end)
    fails("priors must sum to 1", function() Q{ priors = M{ 0.1, 0.1, 0.1 } }:fit(X, y) end)
    -- a class with fewer rows than features has a singular ML covariance
    local few = M{ { 0, 0, 1 }, { 1, 1, 0 }, { 5, 5, 5 }, { 6, 5, 4 }, { 5, 6, 7 }, { 7, 7, 5 } }
    fails("the covariance of class 0 is singular", function()
      Q{}:fit(few, M{ 0, 0, 1, 1, 1, 1 })
    end)
    assert.equal(6, Q{ reg_param = 0.5 }:fit(few, M{ 0, 0, 1, 1, 1, 1 }):predict(few):rows())
  end)
end)

describe("NearestCentroid", function()
  it("assigns the nearest class mean (Euclidean)", function()
    -- centroids (0, 0) and (4, 0): x = 1.9 is nearer 0, 2.1 nearer 4, and
    -- the tie at 2 goes to the first class
    local A = M{ { -1, 0 }, { 1, 0 }, { 3, 0 }, { 5, 0 } }
    local m = D.NearestCentroid{}:fit(A, M{ 10, 10, 20, 20 })
    assert.matrix_near({ { 0, 0 }, { 4, 0 } }, m.centroids)
    assert.matrix_near({ { 10 }, { 20 }, { 10 } }, m:predict(M{ { 1.9, 5 }, { 2.1, -5 }, { 2, 0 } }))
  end)

  it("uses the pooled covariance for the Mahalanobis distance (notes 001 L517)", function()
    -- Each class: its centroid +-3 along x and +-0.5 along y, so the
    -- pooled covariance (1/n = 1/8) is diag(18/4, 0.5/4) = diag(4.5, 0.125).
    -- P = (2.5, 0.1) against centroids (0, 0) and (4, 0.6):
    --   Euclidean^2:   6.25 + 0.01 = 6.26   vs  2.25 + 0.25 = 2.5  -> class 1
    --   Mahalanobis^2: 6.25/4.5 + 0.01/0.125 = 1.46889  vs  2.25/4.5 + 0.25/0.125 = 2.5  -> class 0
    local A = M{ { -3, 0 }, { 3, 0 }, { 0, -0.5 }, { 0, 0.5 },
                 { 1, 0.6 }, { 7, 0.6 }, { 4, 0.1 }, { 4, 1.1 } }
    local labels = M{ 0, 0, 0, 0, 1, 1, 1, 1 }
    local P = M{ { 2.5, 0.1 } }
    local e = D.NearestCentroid{}:fit(A, labels)
    local mh = D.NearestCentroid{ metric = "mahalanobis" }:fit(A, labels)
    assert.matrix_near({ { 0, 0 }, { 4, 0.6 } }, mh.centroids, 1e-15)
    assert.matrix_near({ { 4.5, 0 }, { 0, 0.125 } }, mh.covariance, 1e-14)
    assert.matrix_near({ { 1 } }, e:predict(P))
    assert.matrix_near({ { 0 } }, mh:predict(P))
    -- binary decision_function: -d1^2 - (-d0^2)
    assert.matrix_near({ { 6.26 - 2.5 } }, e:decision_function(P), 1e-12)
    assert.matrix_near({ { 6.25 / 4.5 + 0.08 - 2.5 } }, mh:decision_function(P), 1e-12)
  end)

  it("rejects bad input", function()
    fails("needs at least 2 classes", function() D.NearestCentroid{}:fit(X, luma.ones(150, 1)) end)
    fails("parameter 'metric' must be one of", function() D.NearestCentroid{ metric = "cosine" } end)
    local bad = X:copy()
    bad:set(1, 1, 0 / 0)
    fails("X has a non-finite element", function() D.NearestCentroid{}:fit(bad, y) end)
  end)
end)

describe("GaussianImputer", function()
  -- Each class: offsets (1, 2), (-1, -2), (1, 0), (-1, 0) around its mean,
  -- so mean (0, 0) or (10, 10) and covariance (1/n) [[1, 1], [1, 2]]:
  -- E[x2 | x1 = a] = mu2 + (a - mu1), E[x1 | x2 = b] = mu1 + (b - mu2)/2.
  -- The last row has a NaN: skipped by the fit, counted in the priors.
  local A = M{ { 1, 2 }, { -1, -2 }, { 1, 0 }, { -1, 0 },
               { 11, 12 }, { 9, 8 }, { 11, 10 }, { 9, 10 }, { 0 / 0, 5 } }
  local labels = M{ 0, 0, 0, 0, 1, 1, 1, 1, 0 }

  it("fills the conditional mean of the row's class (notes 001 §E, L535-536)", function()
    local m = D.GaussianImputer{}:fit(A, labels)
    assert.matrix_near({ { 0, 0 }, { 10, 10 } }, m.means)
    assert.matrix_near({ { 1, 1 }, { 1, 2 } }, m.covariances[1], 1e-15)
    assert.matrix_near({ { 5 / 9 }, { 4 / 9 } }, m.priors, 1e-15)
    assert.matrix_near({ { 4 }, { 4 } }, m.class_count)
    local P = M{ { 0.5, 0 / 0 }, { 0 / 0, 12 }, { 0 / 0, 0 / 0 }, { 3, 4 } }
    -- y known: (0.5, NaN) in class 1 -> 10 + (0.5 - 10) = 0.5;
    -- (NaN, 12) in class 0 -> 12 / 2 = 6; (NaN, NaN) in class 1 -> its mean
    assert.matrix_near({ { 0.5, 0.5 }, { 6, 12 }, { 10, 10 }, { 3, 4 } },
      m:transform(P, M{ 1, 0, 1, 0 }), 1e-13)
    -- y unknown: the observed marginal picks class 0 for x1 = 0.5 and class
    -- 1 for x2 = 12; all missing -> the larger prior (class 0)
    assert.matrix_near({ { 0.5, 0.5 }, { 11, 12 }, { 0, 0 }, { 3, 4 } }, m:transform(P), 1e-13)
    -- fit_transform passes y on: the training row (NaN, 5) of class 0 -> 2.5
    local T = D.GaussianImputer{}:fit_transform(A, labels)
    assert.matrix_near({ { 2.5, 5 } }, T:row(9), 1e-14)
    assert.matrix_near(A:sub(1, 8, 1, 2), T:sub(1, 8, 1, 2), 0)
  end)

  it("matches the conditional Gaussian on iris (NumPy/SciPy reference)", function()
    -- reference: mu_m + S_mo S_oo^-1 (x_o - mu_o) with np.cov(X_k.T, bias=True);
    -- the class posterior from scipy multivariate_normal.logpdf on the
    -- observed features + log(1/3): (7.8e-19, 0.16446, 0.83554) for row 51
    local m = D.GaussianImputer{}:fit(X, y)
    local r = X:row(51):copy()
    r:set(1, 3, 0 / 0)
    assert.near(4.77846759516315, m:transform(r, M{ 1 }):get(1, 3), 1e-12)
    r:set(1, 4, 0 / 0)
    -- known class (versicolor)
    assert.matrix_near({ { 7.0, 3.2, 5.0208883245879266, 1.57822329640126 } },
      m:transform(r, M{ 1 }), 1e-12)
    -- unknown: the sepal measurements alone say virginica (hard rule)
    assert.matrix_near({ { 7.0, 3.2, 5.862697823781879, 2.133504513064371 } }, m:transform(r), 1e-12)
    -- soft: the posterior-weighted average of the three conditional means
    local soft = D.GaussianImputer{ assign = "soft" }:fit(X, y)
    assert.matrix_near({ { 7.0, 3.2, 5.7242530175593185, 2.0421824259252235 } },
      soft:transform(r), 1e-10)
  end)

  it("rejects bad input", function()
    local GI = D.GaussianImputer
    local bad = A:copy()
    bad:set(1, 1, math.huge)
    fails("X has an infinite element, inf at row 1, column 1", function() GI{}:fit(bad, labels) end)
    fails("X has an infinite element", function() GI{}:fit(A, labels):transform(bad) end)
    fails("needs at least 2 classes", function() GI{}:fit(A, luma.zeros(9, 1)) end)
    fails("X has 9 rows but y has 2", function() GI{}:fit(A, M{ 0, 1 }) end)
    fails("parameter 'reg_covar' must be a number >= 0", function() GI{ reg_covar = -1 } end)
    fails("bad argument #2 to 'transform' (GaussianImputer: y[1] = 7.0 is not one of the classes)", function()
      GI{}:fit(A, labels):transform(A, luma.full(9, 1, 7))
    end)
    local holes = A:copy()
    for i = 5, 8 do holes:set(i, 2, 0 / 0) end
    fails("class 1 has no row without missing features", function() GI{}:fit(holes, labels) end)
  end)
end)

describe("shrinkage estimates", function()
  -- references: scikit-learn 1.2.1 on the same data (load_wine, load_iris)
  --   LinearDiscriminantAnalysis(solver=s, shrinkage="auto").fit(X, y)
  --   NearestCentroid(shrink_threshold=t).fit(X, y).centroids_
  it("LDA with Ledoit-Wolf shrinkage (auto) matches scikit-learn for lsqr and eigen", function()
    local Xw, yw = luma.datasets.load("wine")
    for _, solver in ipairs{ "lsqr", "eigen" } do
      local m = D.LinearDiscriminantAnalysis{ solver = solver, shrinkage = "auto" }:fit(Xw, yw)
      assert.near(54.68304211599188, m.coef:get(1, 1), 1e-9 * 54.7)
      assert.near(0.005040249339841215, m.coef:get(3, 13), 1e-9)
      assert.near(-426.32752054529294, m.intercept:get(1, 2), 1e-9 * 426)
      assert.near(2.3909897727771546e-08, m:predict_proba(Xw:sub(1, 1)):get(1, 2), 1e-6 * 2.4e-8)
    end
    fails('shrinkage must be a number in [0, 1] or "auto"', function()
      D.LinearDiscriminantAnalysis{ solver = "lsqr", shrinkage = "ledoit" }:fit(Xw, yw)
    end)
  end)

  it("NearestCentroid shrinks centroids towards the overall mean (Tibshirani et al.)", function()
    local m = D.NearestCentroid{ shrink_threshold = 0.5 }:fit(X, y)
    assert.matrix_near({
      { 5.057950008177209, 3.386159493422654, 1.5090739983853334, 0.28004410093180565 },
      { 5.88404999182279, 2.8118405065773473, 4.212926001614667, 1.291955899068194 },
      { 6.536049991822789, 3.0158405065773466, 5.504926001614667, 1.991955899068194 },
    }, m.centroids, 1e-12)
    -- a larger threshold zeroes some deviations: those features sit at the overall mean
    local h = D.NearestCentroid{ shrink_threshold = 2.5 }:fit(X, y)
    assert.matrix_near({
      { 5.26575004088605, 3.2187974671132658, 1.6973699919266658, 0.41622050465902904 },
      { 5.843333333333335, 2.9792025328867355, 4.024630008073334, 1.199333333333334 },
      { 6.328249959113948, 3.057333333333334, 5.316630008073334, 1.8557794953409705 },
    }, h.centroids, 1e-12)
    assert.near(X:col(1):mean(), 5.843333333333335, 1e-12)
    assert.near(0.9266666666666666, h:score(X, y), 1e-15)
    fails("all are constant", function()
      D.NearestCentroid{ shrink_threshold = 1 }:fit(luma.ones(4, 2), M{ 1, 1, 2, 2 })
    end)
  end)
end)

describe("covariance_divisor = \"unbiased\"", function()
  -- sklearn QuadraticDiscriminantAnalysis().fit(X, y).predict_proba(X[rows - 1]) and
  -- LinearDiscriminantAnalysis().fit(X, y).predict_proba(X[rows - 1]) (solver "svd"):
  -- scikit-learn divides by n_k - 1 and n - K, which this option selects
  it("reproduces scikit-learn's QDA", function()
    local m = D.QuadraticDiscriminantAnalysis{ covariance_divisor = "unbiased" }:fit(X, y)
    assert.matrix_near({
      { 1.0000000000000000e+00, 4.9185168856679117e-26, 2.9815414550097565e-41 },
      { 3.0393400067049066e-90, 9.9995606924117220e-01, 4.3930758827904736e-05 },
      { 1.0527233001740341e-103, 3.3594418312414642e-01, 6.6405581687585358e-01 },
      { 4.1020092680571487e-114, 1.5434833098162834e-01, 8.4565166901837174e-01 },
      { 4.2783687077694895e-111, 4.1101308516436320e-02, 9.5889869148356366e-01 },
      { 4.5506699376476621e-111, 6.0496113151246278e-01, 3.9503886848753728e-01 },
      { 7.1461538713516366e-119, 6.0820657350721015e-02, 9.3917934264927894e-01 } },
      m:predict_proba(Xt), 1e-10)
  end)

  it("reproduces scikit-learn's LDA (svd) with every solver", function()
    local want = {
      { 1.0000000000000000e+00, 3.8963579276867011e-22, 2.6111682749481564e-42 },
      { 1.9697317550660770e-18, 9.9988941224098205e-01, 1.1058775901809847e-04 },
      { 7.4081175816249959e-28, 2.5322822473818174e-01, 7.4677177526181826e-01 },
      { 4.2419519447407169e-32, 1.4339190807875796e-01, 8.5660809192124210e-01 },
      { 1.5985108900459552e-33, 2.2079898430531400e-01, 7.7920101569468592e-01 },
      { 1.2838906243207619e-28, 7.2938812803179698e-01, 2.7061187196820302e-01 },
      { 2.8580116073340622e-33, 1.7542290775785670e-02, 9.8245770922421438e-01 } }
    for _, solver in ipairs{ "svd", "lsqr", "eigen" } do
      local m = D.LinearDiscriminantAnalysis{ solver = solver, covariance_divisor = "unbiased",
        store_covariance = true }:fit(X, y)
      assert.matrix_near(want, m:predict_proba(Xt), 1e-10)
      -- the pooled covariance is the n-divisor one times n / (n - K) = 150 / 147
      local ml = D.LinearDiscriminantAnalysis{ solver = solver, store_covariance = true }:fit(X, y)
      assert.matrix_near(ml.covariance * (150 / 147), m.covariance, 1e-12)
    end
  end)

  it("needs two rows per class for QDA, and one of its two values", function()
    local X3 = M{ { 0, 1 }, { 1, 0 }, { 2, 2 }, { 5, 5 } }
    fails("covariance_divisor = \"unbiased\" needs at least 2 rows per class, class 2 has 1",
      function()
        D.QuadraticDiscriminantAnalysis{ covariance_divisor = "unbiased" }:fit(X3, M{ 1, 1, 1, 2 })
      end)
    assert.has_error(function() D.LinearDiscriminantAnalysis{ covariance_divisor = "n-1" } end)
  end)
end)
