-- luma.gaussian_process.GaussianProcessClassifier and KernelLogisticRegression
-- (lua/luma/gaussian_process/classifier.lua, logistic.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr, on the data below (the same
-- formulas in NumPy, 1-based i):
--   X[i] = (2 sin(0.9 i) + 0.05 i, 1.5 cos(0.4 i)),
--   yb[i] = 1 if sin(1.3 X[i][1]) + 0.6 X[i][2] + 0.3 sin(4.1 i) > 0 else 0,
--   y3 = 2 where X[:, 1] > 0.8, else 1 where X[:, 2] > 0, else 0, with
--   rows 3, 8 and 14 moved to the next class (mod 3).
-- FIXED: GaussianProcessClassifier(kernel=k, optimizer=None).fit(X, yb);
--   predict_proba(Xt)[:, 1], predict(Xt),
--   base_estimator_.log_marginal_likelihood(k.theta, eval_gradient=True).
-- FITTED: GaussianProcessClassifier(kernel=k).fit(X, yb); kernel_.theta,
--   log_marginal_likelihood_value_, predict_proba(Xt)[:, 1].
-- MULTI: GaussianProcessClassifier(kernel=2.0 * RBF(0.9), optimizer=None)
--   .fit(X, y3); predict_proba(Xt), predict(Xt), log_marginal_likelihood_value_.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local gp = luma.gaussian_process
local K = gp.kernels
local C, RBF = K.ConstantKernel, K.RBF

local i = luma.arange(1, 20)
local X = luma.matrix.hstack{ (i * 0.9):sin() * 2 + i * 0.05, (i * 0.4):cos() * 1.5 }
local yb = luma.matrix{ 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0 }
local y3 = luma.matrix{ 2, 2, 0, 0, 0, 0, 0, 0, 2, 2, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0 }
local Xt = luma.matrix{ { 0.0, 0.0 }, { 1.0, 0.5 }, { -1.5, 1.2 }, { 2.5, -0.5 } }

local FIXED = {
  rbf = { proba = { 0.3796383905784637, 0.7560495085830325, 0.3739629809931557, 0.47574338877635824 },
    predict = { 0.0, 1.0, 0.0, 0.0 },
    lml = -10.124940514585875,
    grad = { 1.2149714867964225, 1.7514971600533602 } },
  matern = { proba = { 0.4160752517970536, 0.7265387196454753, 0.3350653559994612, 0.49233493228987335 },
    predict = { 0.0, 1.0, 0.0, 0.0 },
    lml = -10.711856083196597,
    grad = { 1.254486118360908, 1.0329559120504141, -0.055241699813564374 } },
}
local FIXED_KERNELS = {
  rbf = function() return C{ constant_value = 2.0 } * RBF{ length_scale = 0.9 } end,
  matern = function() return C{ constant_value = 1.5 } * K.Matern{ length_scale = { 0.8, 1.4 }, nu = 2.5 } end,
}

local FITTED = {
  fit_rbf = { theta = { 5.699328481481011, 0.6756381097003548 },
    lml = -7.5081628324971765,
    proba = { 0.5572949797837055, 0.9043725831537586, 0.269738191456554, 0.6054172574046959 } },
  fit_ard = { theta = { 6.271939154641217, 0.6684790566232189, 0.879307207777406 },
    lml = -7.4486463661350655,
    proba = { 0.5650091840224434, 0.8988939785920138, 0.27348405804445974, 0.5515604938036631 } },
}
local FITTED_KERNELS = {
  fit_rbf = function() return C() * RBF() end,
  fit_ard = function() return C() * RBF{ length_scale = { 1, 1 } } end,
}

local MULTI = {
  proba = { 0.5309106799926361, 0.28363999954724817, 0.18544932046011575, 0.3749414243158777, 0.21423478703019824, 0.4108237886539241, 0.24186336694515853, 0.4995325292745018, 0.25860410378033966, 0.30896345457061064, 0.24892070733327973, 0.44211583809610966 },
  predict = { 0.0, 2.0, 1.0, 2.0 },
  lml = -11.550860251606723,
}

local function column(t) return luma.matrix(t) end

describe("luma.gaussian_process.GaussianProcessClassifier", function()
  local GPC = gp.GaussianProcessClassifier

  it("matches scikit-learn's probabilities, labels, Laplace log marginal likelihood and gradient", function()
    for name, ref in pairs(FIXED) do
      local kernel = FIXED_KERNELS[name]()
      local m = GPC{ kernel = kernel, optimizer = "none" }:fit(X, yb)
      assert.matrix_near(column(ref.proba), m:predict_proba(Xt):col(2), 1e-8)
      assert.matrix_near(column(ref.predict), m:predict(Xt), 0)
      local lml, grad = m:log_marginal_likelihood(kernel:theta(), { gradient = true })
      assert.near(ref.lml, lml, 1e-8 * math.abs(ref.lml))
      assert.near(ref.lml, m.log_marginal_likelihood_value, 1e-8 * math.abs(ref.lml))
      assert.matrix_near(column(ref.grad), grad, 1e-7)
    end
  end)

  it("has the gradient of its log marginal likelihood (finite differences)", function()
    local kernel = FIXED_KERNELS.matern()
    local m = GPC{ kernel = kernel, optimizer = "none" }:fit(X, yb)
    local theta = kernel:theta()
    local _, grad = m:log_marginal_likelihood(theta, { gradient = true })
    for j = 1, theta:rows() do
      local tp, tm = theta:copy(), theta:copy()
      tp:set(j, 1, theta:get(j, 1) + 1e-6)
      tm:set(j, 1, theta:get(j, 1) - 1e-6)
      local fd = (m:log_marginal_likelihood(tp) - m:log_marginal_likelihood(tm)) / 2e-6
      assert.near(fd, grad:get(j, 1), 1e-6)
    end
  end)

  it("fits the hyperparameters as scikit-learn, to the optimizer's tolerance", function()
    for name, ref in pairs(FITTED) do
      local m = GPC{ kernel = FITTED_KERNELS[name]() }:fit(X, yb)
      assert.near(ref.lml, m.log_marginal_likelihood_value, 1e-6)
      assert.matrix_near(column(ref.theta), m.kernels[1]:theta(), 2e-3)
      assert.matrix_near(column(ref.proba), m:predict_proba(Xt):col(2), 1e-4)
    end
  end)

  it("handles three classes one-vs-rest as scikit-learn", function()
    local m = GPC{ kernel = C{ constant_value = 2.0 } * RBF{ length_scale = 0.9 }, optimizer = "none" }:fit(X, y3)
    assert.matrix_near(luma.matrix(MULTI.proba):reshape(4, 3), m:predict_proba(Xt), 1e-8)
    assert.matrix_near(column(MULTI.predict), m:predict(Xt), 0)
    assert.near(MULTI.lml, m.log_marginal_likelihood_value, 1e-8 * math.abs(MULTI.lml))
    assert.equal(3, #m.kernels)
    -- labels keep their values
    local named = GPC{ kernel = RBF(), optimizer = "none" }:fit(X, y3 * 10 + 5)
    assert.matrix_near(m:predict(Xt) * 10 + 5, named:predict(Xt), 0)
  end)

  it("offers the notes' probit approximation, close to the error-function one", function()
    local kernel = FIXED_KERNELS.rbf()
    local erf = GPC{ kernel = kernel, optimizer = "none" }:fit(X, yb)
    local probit = GPC{ kernel = kernel, optimizer = "none", approximation = "probit" }:fit(X, yb)
    local p1, p2 = erf:predict_proba(Xt), probit:predict_proba(Xt)
    assert.is_true((p1 - p2):abs():max() < 0.02)
    assert.matrix_near(p2:sum(2), luma.ones(4, 1), 1e-15)
    -- the same latent mean and variance: sigmoid(mu / sqrt(1 + pi var / 8))
    local mdl = probit.models[1]
    local Ks = mdl.kernel(X, Xt)
    local mu = Ks:t() * (mdl.t - mdl.pi)
    local V = luma.linalg.solve_triangular(mdl.L, Ks:mul(mdl.sW), { lower = true })
    local var = mdl.kernel:diag(Xt) - V:pow(2):sum(1):t()
    assert.matrix_near(mu:div((var * (math.pi / 8) + 1):sqrt()):sigmoid(), p2:col(2), 1e-14)
  end)

  describe("rejects bad input with errors naming the culprit", function()
    it("a single class, non-finite values, predict before fit, wrong width", function()
      errors_with("bad argument #2 to 'fit' %(GaussianProcessClassifier needs at least two classes, y has only 1%)",
        function() GPC{}:fit(X, luma.ones(20, 1)) end)
      local Xbad = X:copy()
      Xbad:set(1, 1, 0 / 0)
      errors_with("bad argument #1 to 'fit' %(X has a non%-finite element, nan at row 1, column 1",
        function() GPC{}:fit(Xbad, yb) end)
      errors_with("GaussianProcessClassifier: predict_proba called before fit", function() GPC{}:predict_proba(Xt) end)
      local m = GPC{ optimizer = "none" }:fit(X, yb)
      errors_with("X has 1 columns but luma.gaussian_process.GaussianProcessClassifier was fitted on 2",
        function() m:predict(luma.zeros(3, 1)) end)
      errors_with("theta is for two classes", function()
        GPC{ optimizer = "none" }:fit(X, y3):log_marginal_likelihood(luma.zeros(0, 1))
      end)
    end)

    it("a kernel that is not positive semi-definite: a warning with its smallest eigenvalue", function()
      -- the periodic kernel on 2-D Euclidean distances is not PSD; I + W^1/2 K W^1/2 still factors
      local warnings = capture_warnings(function()
        GPC{ kernel = K.ExpSineSquared{ length_scale = 0.3, periodicity = 2.3 }, optimizer = "none" }:fit(X, yb)
      end)
      assert.equal(1, #warnings)
      assert.truthy(warnings[1]:find("not positive semi%-definite: its smallest eigenvalue is %-%d"))
      assert.truthy(warnings[1]:find("parameter 'kernel'", 1, true))
      -- a positive semi-definite but singular kernel (duplicated rows) gives no warning
      local Xd = luma.matrix.vstack{ X, X }
      assert.same({}, capture_warnings(function()
        GPC{ kernel = RBF{ length_scale = 3 }, optimizer = "none" }:fit(Xd, luma.matrix.vstack{ yb, yb })
      end))
    end)
  end)
end)

describe("luma.gaussian_process.KernelLogisticRegression", function()
  local KLR = gp.KernelLogisticRegression

  it("with the RKHS penalty, C = 1 and no intercept, is the GP classifier's posterior mode", function()
    local kernel = FIXED_KERNELS.rbf()
    local g = gp.GaussianProcessClassifier{ kernel = kernel, optimizer = "none" }:fit(X, yb)
    local k = KLR{ kernel = kernel, penalty = "rkhs", fit_intercept = false }:fit(X, yb)
    -- GPC's latent mean at new points is k*^T (t - pi(f_hat)) = k*^T psi_hat
    local mdl = g.models[1]
    local f_star = mdl.kernel(Xt, X) * (mdl.t - mdl.pi)
    assert.matrix_near(f_star, k:decision_function(Xt), 1e-7)
    assert.matrix_near(g:predict(Xt), k:predict(Xt), 0)
  end)

  it("with a linear kernel and the RKHS penalty is logistic regression (w = X^T psi)", function()
    for _, Cv in ipairs({ 0.3, 2.0 }) do
      local lr = luma.linear.LogisticRegression{ C = Cv, tol = 1e-12 }:fit(X, yb)
      local k = KLR{ kernel = luma.kernels.linear(), penalty = "rkhs", C = Cv }:fit(X, yb)
      local psi = k.models[1].dual_coef
      assert.matrix_near(lr.coef, X:t() * psi, 1e-6)
      assert.near(lr.intercept, k.models[1].intercept, 1e-6)
      assert.matrix_near(lr:predict_proba(Xt), k:predict_proba(Xt), 1e-6)
    end
  end)

  it("with the notes' dual penalty solves its optimality condition K (sigmoid(a) - t) C + psi = 0", function()
    local kernel = RBF{ length_scale = 0.7 }
    local k = KLR{ kernel = kernel, C = 5 }:fit(X, yb)
    local Kxx = kernel(X)
    local mdl = k.models[1]
    local a = Kxx * mdl.dual_coef + mdl.intercept
    local r = (a:sigmoid() - yb) * 5
    assert.matrix_near(luma.zeros(20, 1), Kxx * r + mdl.dual_coef, 1e-7)
    assert.near(0, r:sum(), 1e-7)
    assert.is_true(k:score(X, yb) >= 0.9)
  end)

  it("handles three classes one-vs-rest and rejects bad input", function()
    local k = KLR{ kernel = RBF{ length_scale = 0.9 }, C = 3 }:fit(X, y3)
    local P = k:predict_proba(Xt)
    assert.matrix_near(luma.ones(4, 1), P:sum(2), 1e-14)
    assert.matrix_near(P:argmax(2) - 1, k:predict(Xt), 0)
    assert.same({ 4, 3 }, { k:decision_function(Xt):shape() })
    errors_with("needs at least two classes", function() KLR{}:fit(X, luma.zeros(20, 1)) end)
    errors_with("parameter 'kernel' must be a luma.gaussian_process.kernels or luma.kernels kernel",
      function() KLR{ kernel = {} }:fit(X, yb) end)
    errors_with("KernelLogisticRegression: predict called before fit", function() KLR{}:predict(Xt) end)
  end)
end)
