-- The notes' SVM variants (luma.svm.variants): checked against independent
-- solutions of the same optimization problems (luma.optim's dense QP and
-- L-BFGS-B), against the SMO solution, and by their defining identities.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local svm = luma.svm
local M = luma.matrix

local X, y = luma.datasets.load("iris")
local Xb, yb = X:sub(51, 150, nil, nil), y:sub(51, 150, nil, nil)
local s = yb:eq(2) * 2 - 1 -- +1 for the second class, as the machines use
-- Standardized columns keep linear kernel values near 1: the SMO kernel
-- cache holds floats (as LIBSVM's), whose rounding of values near 50 (raw
-- iris) would move the solution by about 1e-5.
local Z = (Xb - Xb:mean(1)):div(Xb:std(1))

-- The dual variables of a binary fit as an n x 1 column (0 off the support).
local function alphas(m, n)
  local a = luma.zeros(n, 1)
  for k = 1, m.support:rows() do a:set(m.support:get(k, 1), 1, math.abs(m.dual_coef:get(1, k))) end
  return a
end

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("the dense QP forms of notes 004 S13", function()
  it("agree with SMO in the dual (12.57)", function()
    -- an RBF Gram matrix is positive definite: the dual solution is unique
    local K = luma.pairwise.kernel(Xb, "rbf", { gamma = 0.5 })
    local m = svm.SVC{ gamma = 0.5, C = 1, tol = 1e-10 }:fit(Xb, yb)
    local d = svm.qp_dual(K, s, 1)
    assert.equal("optimal", d.result.status)
    assert.matrix_near(alphas(m, 100), d.alpha, 1e-6)
    assert.near(m.intercept:get(1, 1), d.b, 1e-6)
  end)

  it("refuses a Gram matrix that is not square", function()
    local ok, err = pcall(svm.qp_dual, luma.ones(3, 2), luma.ones(3, 1), 1)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("K must be a square Gram matrix, got 3 x 2", 1, true))
  end)

  it("refuses a missing or non-positive C in the dual and the primal (found by the API fuzzer)", function()
    for _, C in ipairs({ false, 0, -1, 0 / 0 }) do
      local ok, err = pcall(svm.qp_dual, luma.eye(3), luma.matrix{ { 1 }, { -1 }, { 1 } }, C or nil)
      assert.is_false(ok)
      assert.truthy(tostring(err):find("bad argument #3 to 'qp_dual' (C must be a number > 0", 1, true), err)
      ok, err = pcall(svm.qp_primal, luma.eye(3), luma.matrix{ { 1 }, { -1 }, { 1 } }, C or nil)
      assert.is_false(ok)
      assert.truthy(tostring(err):find("bad argument #3 to 'qp_primal' (C must be a number > 0", 1, true), err)
    end
  end)

  it("agree with SMO in the primal (12.55-12.56)", function()
    local Xs, ss = Z:take(luma.arange(1, 100, 4)), s:take(luma.arange(1, 100, 4))
    local m = svm.SVC{ kernel = "linear", C = 1, tol = 1e-10 }:fit(Xs, ss)
    local p = svm.qp_primal(Xs, ss, 1)
    assert.equal("optimal", p.result.status)
    assert.matrix_near(m.coef:t(), p.w, 1e-6)
    assert.near(m.intercept:get(1, 1), p.b, 1e-6)
    -- the slacks are the hinge losses at the solution
    local hinge = (-(Xs * p.w + p.b):mul(ss) + 1):maximum(0)
    assert.matrix_near(hinge, p.xi, 1e-6)
  end)
end)

describe("L2SVC (notes 002 L10)", function()
  it("solves the hard-margin dual on K + I/gamma, a >= 0", function()
    local C = 0.5
    local m = svm.L2SVC{ kernel = "linear", C = C, tol = 1e-10 }:fit(Z, yb)
    local K = Z * Z:t() + luma.eye(100) * (1 / (2 * C))
    local q = luma.optim.qp(K:mul(s * s:t()), luma.full(100, 1, -1),
      { A_eq = s:t(), b_eq = luma.zeros(1, 1), lower = 0 })
    assert.matrix_near(q.x, alphas(m, 100), 1e-6)
    -- KKT of the notes' X8 erratum: y_i f(x_i) = 1 - a_i/gamma on the support
    local f = m:decision_function(Z):mul(s)
    local a = alphas(m, 100)
    for k = 1, m.support:rows() do
      local i = m.support:get(k, 1)
      assert.near(1 - a:get(i, 1) / (2 * C), f:get(i, 1), 1e-6)
    end
  end)

  it("tends to the hard margin as gamma grows", function()
    local Xs, ys = X:sub(1, 100, nil, nil), y:sub(1, 100, nil, nil)
    local hard = svm.SVC{ kernel = "linear", C = math.huge, tol = 1e-10 }:fit(Xs, ys)
    local l2 = svm.L2SVC{ kernel = "linear", C = 1e8, tol = 1e-10 }:fit(Xs, ys)
    local w = l2.dual_coef * l2.support_vectors
    assert.matrix_near(hard.coef, w, 1e-5)
  end)
end)

describe("NoBiasSVC (notes 001 §G)", function()
  it("reaches the box-constrained dual optimum by SDCA", function()
    local K = luma.pairwise.kernel(Xb, "rbf", { gamma = 0.5 })
    local Q = K:mul(s * s:t())
    local m = svm.NoBiasSVC{ gamma = 0.5, C = 1, tol = 1e-9, seed = 1 }:fit(Xb, yb)
    -- the same dual by L-BFGS-B: min 1/2 a'Qa - 1'a over [0, C]^n
    local r = luma.optim.minimize(function(a, want)
      local Qa = Q * a
      if want then return 0.5 * a:dot(Qa) - a:sum(), Qa - 1 end
      return 0.5 * a:dot(Qa) - a:sum()
    end, luma.zeros(100, 1), { lower = 0, upper = 1, gtol = 1e-12, ftol = 0 })
    assert.matrix_near(r.x, alphas(m, 100), 1e-5)
    -- no bias: f(x) = sum_i a_i y_i k(x_i, x)
    assert.matrix_near(K * alphas(m, 100):mul(s), m:decision_function(Xb), 1e-12)
    local again = svm.NoBiasSVC{ gamma = 0.5, C = 1, tol = 1e-9, seed = 1 }:fit(Xb, yb)
    assert.matrix_near(m.dual_coef, again.dual_coef, 0)
  end)
end)

describe("SubgradientSVC (notes 004 S9-S10)", function()
  it("approaches the SMO optimum of the same primal", function()
    -- (on standardized data: the unregularized bias takes the first, large
    -- steps 1/(lambda t) unchecked, which raw iris's offsets make slow)
    local C = 1
    local m = svm.SVC{ kernel = "linear", C = C, tol = 1e-10 }:fit(Z, yb)
    local function objective(w, b)
      return 0.5 * w:dot(w) + C * (-(Z * w + b):mul(s) + 1):maximum(0):sum()
    end
    local best = objective(m.coef:t(), m.intercept:get(1, 1))
    local sg = svm.SubgradientSVC{ C = C, max_iter = 1000 }:fit(Z, yb)
    assert.near(objective(sg.coef:t(), sg.intercept:get(1, 1)), sg.objective, 1e-9)
    assert.is_true(sg.objective >= best - 1e-9)       -- never below the optimum
    assert.is_true(sg.objective <= best * (1 + 1e-4)) -- within 0.01% of it
    assert.is_true(sg:score(Z, yb) >= m:score(Z, yb) - 0.02)
  end)
end)

describe("KernelNearestPrototype (notes 001 §G)", function()
  it("is the nearest class mean in feature space", function()
    -- with the linear kernel the feature space is the input space: the
    -- rule is the nearest class mean (LwP)
    local m = svm.KernelNearestPrototype{ kernel = "linear" }:fit(X, y)
    local means = luma.zeros(3, 4)
    for c = 0, 2 do means:row(c + 1):assign(X:select(y:eq(c), 1):mean(1)) end
    local d = luma.pairwise.distances(X, means, "sqeuclidean")
    assert.matrix_near(d:argmin(2) - 1, m:predict(X), 0)
    -- two classes: d_- - d_+ of the notes, the K(x, x) term cancelling
    local b = svm.KernelNearestPrototype{ gamma = 0.3 }:fit(Xb, yb)
    local K = luma.pairwise.kernel(X:sub(1, 5, nil, nil), Xb, "rbf", { gamma = 0.3 })
    local Kbb = luma.pairwise.kernel(Xb, "rbf", { gamma = 0.3 })
    local function dist(c)
      local idx = luma.arange(1, 100):select(yb:eq(c), 1)
      local nc = idx:rows()
      return K:take(idx, 2):sum(2) * (-2 / nc) + Kbb:take(idx):take(idx, 2):sum() / nc ^ 2 + 1
    end
    assert.matrix_near(dist(1) - dist(2), b:decision_function(X:sub(1, 5, nil, nil)), 1e-12)
  end)
end)

describe("the support-vector leave-one-out bound (notes 003 §1.16)", function()
  it("bounds the leave-one-out error", function()
    local Xs, ys = Xb:take(luma.arange(1, 100, 2)), yb:take(luma.arange(1, 100, 2))
    local m = svm.SVC{ gamma = 0.5, C = 1, tol = 1e-8 }:fit(Xs, ys)
    local bound = svm.loo_bound(m)
    assert.near(m.support:rows() / 50, bound, 0)
    local errors = 0
    for i = 1, 50 do
      local keep = luma.arange(1, 50):select(luma.arange(1, 50):ne(i), 1)
      local g = svm.SVC{ gamma = 0.5, C = 1, tol = 1e-8 }:fit(Xs:take(keep), ys:take(keep))
      if g:predict(Xs:sub(i, i, nil, nil)):get(1, 1) ~= ys:get(i, 1) then errors = errors + 1 end
    end
    assert.is_true(errors / 50 <= bound)
    fails("bad argument #1 to 'loo_bound'", function() svm.loo_bound(svm.SVC{}) end)
  end)
end)
