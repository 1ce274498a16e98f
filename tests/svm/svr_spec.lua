-- luma.svm.SVR, NuSVR and OneClassSVM against scikit-learn 1.2.1
-- (Debian's python3-sklearn, LIBSVM 3.x inside).
--
-- Reference values: printed with "%.17g" by /usr/bin/python3 from
--   Xd, yd = sklearn.datasets.load_diabetes(return_X_y=True), first 100 rows
--   (= luma.datasets "diabetes")
--   SVR(C=100, epsilon=5, gamma=0.5, tol=1e-8): dual_coef_, intercept_,
--     support_ + 1, predict(Xd[::10])
--   SVR(C=10, epsilon=2, kernel='linear', tol=1e-8) with sample_weight
--     0.5 + (i mod 4) 0.5: coef_, intercept_, len(support_)
--   NuSVR(C=100, nu=0.3, gamma=0.5, tol=1e-8): as SVR
--   OneClassSVM(nu=0.2, gamma=0.5, tol=1e-8): dual_coef_, offset_,
--     support_ + 1, decision_function(Xd[::10]), predict(Xd)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local svm = luma.svm
local M = luma.matrix

local X, y = luma.datasets.load("diabetes")
X, y = X:sub(1, 100, nil, nil), y:sub(1, 100, nil, nil)

local function every(A, step)
  local idx = {}
  for i = 1, A:rows(), step do idx[#idx + 1] = i end
  return A:take(M(idx))
end

local svr = { dual = { { 100, -100, 100, 100, -100, 100, -100, -100, 100, -100, -100, 100, 100, 100, 100, -100, 100, -100, -100, -100, 100, 100, 100, 100, -100, 100, 100, -100, 100, -100, -100, -100, 100, 100, 100, -100, -100, -100, -100, -100, 100, -100, 100, 100, -100, -94.775381384622463, 100, 100, -100, -100, 100, 100, -100, -100, 100, 100, -100, -100, 100, -100, 100, 100, -100, 100, 100, -100, 100, 100, -100, -100, -100, 100, 100, 100, -100, -100, 100, -100, 100, -100, 26.055997629582791, -100, 100, -100, -31.280616244960317, -100, 100, 100, -100, -100 } }, intercept = 133.38765590645062, support = { 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 82, 83, 84, 85, 86, 87, 88, 89, 92, 93, 94, 95, 96, 98, 99, 100 }, predict = { { 145.41053812057515 }, { 106.48458199140566 }, { 117.07803199980555 }, { 124.50559537587053 }, { 139.35506256381302 }, { 128.20247877125669 }, { 107.30034003839162 }, { 105.5787443958239 }, { 138.98856774174902 }, { 102.90179089870618 } } }
local svr_linear_weighted = { coef = { { 3.9413042193560712, -1.4298263287021158, 14.426514608894502, 13.547962875064426, 2.0088911729736374, -0.61220524279854094, -17.653453270596881, 14.404352533911473, 26.825395360597291, 4.8669756249304861 } }, intercept = 130.9875993256037, nsv = 97 }
local nusvr = { dual = { { 100, -100, 100, -100, 100, 100, 100, 100, 100, 100, -97.400688436133592, -100, 100, -100, 100, -100, -100, -100, -100, -100, 100, -100, 100, 100, -100, -100, 100, -2.5993115638664062, -100, -100, 100 } }, intercept = 142.00486703262914, support = { 4, 8, 10, 22, 24, 30, 33, 37, 38, 39, 42, 43, 45, 46, 52, 53, 57, 58, 63, 71, 72, 76, 78, 79, 82, 83, 84, 87, 89, 93, 98 }, predict = { { 148.02101732302759 }, { 121.95442845715164 }, { 129.57272851280925 }, { 134.04757842439474 }, { 143.26547794922419 }, { 137.16415513740793 }, { 123.98484111880121 }, { 122.65917155184522 }, { 141.38468205916058 }, { 122.47576170536078 } } }
local ocsvm = { dual = { { 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.33839523070099625, 1, 0.7972239778343605, 1, 1, 1, 1, 1, 0.20699743452808786, 1, 1, 1, 0.65738335693651628 } }, offset = 19.321129822242753, support = { 6, 8, 11, 12, 16, 24, 27, 30, 33, 36, 39, 41, 42, 44, 48, 58, 59, 72, 73, 77, 85, 92 }, decision = { { 0.13885643211131793 }, { -0.068352601771735522 }, { 0.18385753284097817 }, { 0.19322645686748174 }, { -1.7936541141239104e-07 }, { 0.21920198063649821 }, { 0.071776027515142005 }, { 0.13683419408061326 }, { 0.040386590071499029 }, { 0.10947328406207291 } }, predict = { 1, 1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1, 1, 1, 1, -1, 1, -1, -1, 1, -1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1 } }

describe("SVR", function()
  it("matches scikit-learn", function()
    local m = svm.SVR{ C = 100, epsilon = 5, gamma = 0.5, tol = 1e-8 }:fit(X, y)
    assert.matrix_near(M(svr.support), m.support, 0)
    assert.matrix_near(svr.dual, m.dual_coef, 1e-6)
    assert.near(svr.intercept, m.intercept:get(1, 1), 1e-6 * math.abs(svr.intercept))
    assert.matrix_near(svr.predict, m:predict(every(X, 10)), 1e-6)
    -- notes 003 §1.16: points strictly inside the tube have a = a* = 0
    local r = (m:predict(X) - y):abs()
    local inside = r:lt(5 - 1e-3)
    for s = 1, m.support:rows() do
      assert.equal(0, inside:get(m.support:get(s, 1), 1))
    end
  end)

  it("weights samples and exposes coef with the linear kernel", function()
    local w = luma.arange(0, 99):div(4):floor():mul(-4):add(luma.arange(0, 99)):mul(0.5):add(0.5)
    local m = svm.SVR{ C = 10, epsilon = 2, kernel = "linear", tol = 1e-8 }:fit(X, y, w)
    assert.matrix_near(svr_linear_weighted.coef, m.coef, 1e-6)
    assert.near(svr_linear_weighted.intercept, m.intercept:get(1, 1), 1e-6 * 131)
    assert.equal(svr_linear_weighted.nsv, m.support:rows())
  end)

  it("predicts the intercept when no point leaves the tube", function()
    local m = svm.SVR{ epsilon = 1e6 }:fit(X, y)
    assert.equal(0, m.support:rows())
    assert.matrix_near(luma.full(3, 1, m.intercept:get(1, 1)), m:predict(X:sub(1, 3, nil, nil)), 0)
  end)
end)

describe("NuSVR", function()
  it("matches scikit-learn", function()
    local m = svm.NuSVR{ C = 100, nu = 0.3, gamma = 0.5, tol = 1e-8 }:fit(X, y)
    assert.matrix_near(M(nusvr.support), m.support, 0)
    assert.matrix_near(nusvr.dual, m.dual_coef, 1e-6)
    assert.near(nusvr.intercept, m.intercept:get(1, 1), 1e-6 * 142)
    assert.matrix_near(nusvr.predict, m:predict(every(X, 10)), 1e-6)
    -- the tube it found: an epsilon-SVR with that epsilon is the same machine
    local e = svm.SVR{ C = 100, epsilon = m.epsilon, gamma = 0.5, tol = 1e-8 }:fit(X, y)
    assert.matrix_near(m:predict(X), e:predict(X), 1e-5)
  end)
end)

describe("OneClassSVM", function()
  it("matches scikit-learn", function()
    local m = svm.OneClassSVM{ nu = 0.2, gamma = 0.5, tol = 1e-8 }:fit(X)
    assert.matrix_near(M(ocsvm.support), m.support, 0)
    assert.matrix_near(ocsvm.dual, m.dual_coef, 1e-6)
    assert.near(ocsvm.offset, m.offset, 1e-6 * 20)
    assert.matrix_near(ocsvm.decision, m:decision_function(every(X, 10)), 1e-6)
    assert.matrix_near(M(ocsvm.predict), m:predict(X), 0)
    assert.matrix_near(m:decision_function(X) + m.offset, m:score_samples(X), 1e-12)
    assert.matrix_near(m:predict(X), svm.OneClassSVM{ nu = 0.2, gamma = 0.5, tol = 1e-8 }:fit_predict(X), 0)
    -- nu bounds the fraction of outliers from above, of support vectors from below
    assert.is_true(m:predict(X):eq(-1):mean() <= 0.2 + 1e-9)
    assert.is_true(m.support:rows() / 100 >= 0.2)
  end)
end)
