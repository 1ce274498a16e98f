-- luma.optim.qp with bounds kept as bounds in the interior point, and its
-- clean stop at the attainable accuracy.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local optim = luma.optim

-- 300 points on a noisy circle boundary, labels +1 inside (the same
-- formula in Python below); RBF kernel gamma = 2, C = 1.
local function svm_problem()
  local N = 300
  local X, y = luma.zeros(N, 2), luma.zeros(N, 1)
  for i = 1, N do
    local a, b = math.sin(0.7 * i) + 0.3 * math.cos(1.3 * i), math.cos(0.9 * i) + 0.2 * math.sin(2.1 * i)
    X:set(i, 1, a); X:set(i, 2, b)
    y:set(i, 1, (a * a + b * b + 0.3 * math.sin(5 * i) < 0.8) and 1 or -1)
  end
  local K = luma.kernels.rbf{ gamma = 2 }(X)
  return X, y, K, K:mul(y * y:t())
end

-- scikit-learn 1.2 (libsvm), Debian /usr/bin/python3:
--   i = np.arange(1, 301); a = np.sin(0.7*i) + 0.3*np.cos(1.3*i)
--   b = np.cos(0.9*i) + 0.2*np.sin(2.1*i); X = np.c_[a, b]
--   y = np.where(a*a + b*b + 0.3*np.sin(5*i) < 0.8, 1.0, -1.0)
--   m = SVC(C=1.0, kernel="rbf", gamma=2.0, tol=1e-12).fit(X, y)
--   v = m.dual_coef_.ravel(); K = rbf kernel of X[m.support_] with gamma 2
--   0.5 v'Kv - |v|_1 = -107.15770876760567 (126 support vectors, 112 at C)
local LIBSVM_DUAL = -107.15770876760567

local function check_feasible(r, y, C)
  assert.is_true(r.x:isfinite():all())
  assert.is_true(r.x:min() >= 0 and r.x:max() <= C)
  assert.is_true(math.abs((y:t() * r.x):get(1, 1)) <= 1e-10)
end

describe("qp on the SVM dual", function()
  local X, y, K, Q = svm_problem()
  local N, C = 300, 1

  -- min 1/2 a'Qa - 1'a, y'a = 0, 0 <= a <= C: the interior point used to
  -- raise "matrix has a non-finite element (-nan)" here at tol <= 1e-11
  it("reaches tol = 1e-12 with a finite, feasible solution (libsvm's objective)", function()
    local r = optim.qp(Q, luma.full(N, 1, -1), { A_eq = y:t(), b_eq = { 0 }, lower = 0, upper = C, tol = 1e-12 })
    assert.are.equal("optimal", r.status)
    assert.is_true(r.converged)
    assert.is_true(r.residual <= 1e-12)
    check_feasible(r, y, C)
    assert.is_true(math.abs(r.fun - LIBSVM_DUAL) <= 1e-6 * math.abs(LIBSVM_DUAL))
    -- and luma.svm.SVC's dual objective, from its dual_coef (y_i a_i)
    local svc = luma.svm.SVC{ C = C, kernel = "rbf", gamma = 2, tol = 1e-12 }:fit(X, y)
    local v = svc.dual_coef:t()
    local KS = K:take(svc.support):take(svc.support, 2)
    local svc_dual = 0.5 * v:dot(KS * v) - v:abs():sum()
    assert.is_true(math.abs(r.fun - svc_dual) <= 1e-6 * math.abs(svc_dual))
    -- the bound multipliers: z lists y'a's none, then 300 lower and 300 upper ones
    assert.are.equal(2 * N, r.z:rows())
    assert.is_true(r.z:min() >= -1e-8)
  end)

  it("stops cleanly at the attainable accuracy when tol is below it", function()
    local r = optim.qp(Q, luma.full(N, 1, -1), { A_eq = y:t(), b_eq = { 0 }, lower = 0, upper = C, tol = 1e-17 })
    assert.are.equal("inaccurate", r.status)
    assert.is_false(r.converged)
    assert.truthy(r.message:find("stopped at the attainable accuracy", 1, true))
    assert.truthy(r.message:find("x is the best iterate", 1, true))
    assert.is_true(r.residual > 1e-17 and r.residual < 1e-12)
    check_feasible(r, y, C)
    assert.is_true(math.abs(r.fun - LIBSVM_DUAL) <= 1e-6 * math.abs(LIBSVM_DUAL))
  end)
end)

describe("qp with bounds only", function()
  it("solves n = 2000 without a dense bound matrix", function()
    local n = 2000
    local rng = luma.random.Generator(3)
    local Z = rng:normal(n, 40)
    local Q = Z * Z:t() / 40 + luma.eye(n) * 0.01
    local c = rng:normal(n, 1) * 3
    Z = nil -- luacheck: ignore
    collectgarbage(); collectgarbage()
    -- The Lua heap holds the matrices: sample its size while qp runs.  A
    -- 2n x n bound matrix alone is twice Q; the solver needs a copy of Q
    -- (the Newton matrix) and its Cholesky factor.
    -- Each sample follows a full collection, so it measures what is live
    -- (garbage would otherwise depend on the collector's pace).
    local base, peak = collectgarbage("count"), 0
    local hook = { debug.gethook() }
    debug.sethook(function()
      collectgarbage()
      peak = math.max(peak, collectgarbage("count"))
    end, "", 200)
    local r = optim.qp(Q, c, { lower = 0, upper = 1 })
    debug.sethook(table.unpack(hook))
    assert.are.equal("optimal", r.status)
    assert.is_true((peak - base) * 1024 < 3.5 * n * n * 8)
    -- optimality without the solver's own residuals: x is the projection
    -- of x - (Qx + c) on the box (the KKT conditions of a box QP)
    local g = Q * r.x + c
    assert.is_true((r.x - (r.x - g):clamp(0, 1)):abs():max() < 1e-9)
    assert.are.equal(2 * n, r.z:rows())
  end)

  it("handles fixed, one-sided and free variables (hand-checked)", function()
    -- min 1/2|x|^2 + x1 - x2 with x1 = 1 (lower = upper) and 0 <= x2 <= 5: x = (1, 1)
    local r = optim.qp(luma.eye(2), luma.matrix{ 1, -1 }, { lower = luma.matrix{ 1, 0 }, upper = luma.matrix{ 1, 5 } })
    assert.are.equal("optimal", r.status)
    assert.matrix_near({ { 1 }, { 1 } }, r.x, 1e-14)
    -- x >= 0.5 only: the unconstrained (-1, 1) moves x1 to its bound
    r = optim.qp(luma.eye(2), luma.matrix{ 1, -1 }, { lower = 0.5 })
    assert.matrix_near({ { 0.5 }, { 1 } }, r.x, 1e-14)
    assert.matrix_near({ { 1.5 }, { 0 } }, r.z, 1e-12) -- the lower-bound multipliers: Qx + c at the bound
    -- x <= 2 only: (5, -1) clipped to (2, -1)
    r = optim.qp(luma.eye(2), luma.matrix{ -5, 1 }, { upper = 2 })
    assert.matrix_near({ { 2 }, { -1 } }, r.x, 1e-14)
  end)
end)
