-- luma.gaussian_process.GaussianProcessRegressor and the kernels
-- (lua/luma/gaussian_process/regressor.lua, kernels.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr, on the data below (the same
-- formulas in NumPy, 1-based i):
--   X[i] = (2 sin(0.7 i), cos(0.3 i) + 0.1 i), y[i] = sin(X[i][1]) + X[i][2] / 2
-- FIXED: GaussianProcessRegressor(kernel=k, optimizer=None, alpha=1e-3)
--   .fit(X, y); predict(Xt, return_std=True);
--   log_marginal_likelihood(k.theta, eval_gradient=True)
--   (the periodic kernel on the first column of X only).
-- FITTED: GaussianProcessRegressor(kernel=k[, normalize_y=True]).fit(X, yn),
--   yn = y + 0.2 sin(5.3 i); kernel_.theta, log_marginal_likelihood_value_,
--   predict(Xt, return_std=True).
-- MULTI: the same as FIXED with normalize_y=True, alpha=1e-10 and the
--   targets (y, 3 cos(X[:, 1]) + 5); predict(Xt, return_cov=True)[..., 1].
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local gp = luma.gaussian_process
local K = gp.kernels
local C, RBF, White = K.ConstantKernel, K.RBF, K.WhiteKernel

local i = luma.arange(1, 12)
local X = luma.matrix.hstack{ (i * 0.7):sin() * 2, (i * 0.3):cos() + i * 0.1 }
local y = X:col(1):sin() + X:col(2) * 0.5
local yn = y + (i * 5.3):sin() * 0.2
local Xt = luma.matrix{ { 0.0, 0.0 }, { 1.0, 0.5 }, { -1.5, 1.2 }, { 2.5, -0.5 } }

local FIXED = {
  rbf_iso = { mean = { 0.007617146273022041, 1.1584899389867735, -0.2604744020330635, 0.3761838577262092 },
    std = { 0.31383528968932195, 0.37409151047764144, 0.9050927589541796, 0.902827809329023 },
    lml = -9.097696159011564,
    grad = { -3.5207205608826735, 8.271639039959734, -1.198497970879068 } },
  rbf_ard = { mean = { 0.0036456813221874412, 1.1619640097709942, -0.4167608085111678, 0.4609534909223165 },
    std = { 0.040813989436550915, 0.11917489700676716, 0.43202866863235617, 0.555115469107605 },
    lml = -6.098390545824107,
    grad = { -4.448709648131654, 10.674394616489021, 2.7140240764128443 } },
  matern05 = { mean = { 0.013382386913025582, 1.0687450058354626, -0.3541270935161881, 0.4891921686515667 },
    std = { 0.24458118070742907, 0.6181438356472101, 0.855759577584552, 0.8742126367508467 },
    lml = -10.294189449414661,
    grad = { 3.644917513999549 } },
  matern15 = { mean = { 0.004538605202190182, 1.1711171324076926, -0.5485883577529514, 0.4775985053758784 },
    std = { 0.06748017600848281, 0.319311239436621, 0.601763209257097, 0.7072143749596841 },
    lml = -7.165955257963165,
    grad = { -3.6817170685918255, 5.8880973599812885, 1.7275749068706898 } },
  matern25 = { mean = { 0.025237489441123223, 1.1194601629901428, -0.4304707722450072, 0.5001605451940969 },
    std = { 0.4213140197365207, 0.4171404839793867, 0.7167014705439916, 0.7453237004914424 },
    lml = -7.573513909118776,
    grad = { 4.493019355799902, -2.371384162697737 } },
  rq = { mean = { 0.0019294486119371124, 1.1377476626641545, -0.28566584218663255, 0.5118492486462809 },
    std = { 0.03979603283437712, 0.2049095032673555, 0.6011075650469015, 0.5861109680329533 },
    lml = -4.539544453706446,
    grad = { 0.4081937349593352, 11.227255986591729 } },
  dot = { mean = { 0.01685625208376367, 0.8183455406741689, -0.2709073016906789, 1.199900928203602 },
    std = { 0.5892234578790384, 0.5726981571489871, 0.7164053066827717, 0.7592342506957341 },
    lml = -9.272202662491727,
    grad = { -0.8681432873632162, -3.9699323191467597 } },
  prod = { mean = { 0.01395428375423638, 1.1033716004218506, -0.3608686081565452, 0.4523080362602795 },
    std = { 0.42482458488902725, 0.4210577671994588, 1.2290872446121401, 1.4556674926863935 },
    lml = -10.558048462894597,
    grad = { 5.967223453786454, -2.212087655178473, -1.8003918358696616 } },
  periodic = { mean = { 0.1632698243841748, 0.04537856468537971, -0.02130145780563769, -0.45176165389053224 },
    std = { 0.5659209617190373, 0.5656323910833365, 0.5678558302870426, 0.5624026723377239 },
    lml = -22.56797582630597,
    grad = { -0.447288587793631, -3.3015622721093374, -40.012013181404505, 9.484991049234045 } },
}

local FIXED_KERNELS = {
  rbf_iso = function() return C{ constant_value = 1.5 } * RBF{ length_scale = 0.8 } + White{ noise_level = 0.05 } end,
  rbf_ard = function() return C{ constant_value = 2.0 } * RBF{ length_scale = { 0.7, 1.9 } } end,
  matern05 = function() return K.Matern{ length_scale = 1.1, nu = 0.5 } end,
  matern15 = function() return C{ constant_value = 0.9 } * K.Matern{ length_scale = { 0.8, 1.6 }, nu = 1.5 } end,
  matern25 = function() return K.Matern{ length_scale = 1.3, nu = 2.5 } + White{ noise_level = 0.1 } end,
  rq = function() return K.RationalQuadratic{ length_scale = 0.9, alpha = 1.7 } end,
  dot = function() return K.DotProduct{ sigma_0 = 0.6 } + White{ noise_level = 0.3 } end,
  prod = function() return RBF{ length_scale = 1.2 } * K.DotProduct{ sigma_0 = 1.0 } + White{ noise_level = 0.1 } end,
  periodic = function()
    return C{ constant_value = 1.2 } * K.ExpSineSquared{ length_scale = 1.1, periodicity = 2.3 }
      + White{ noise_level = 0.2 }
  end,
}

local FITTED = {
  fit_iso = { theta = { 0.32736716461082177, 0.6214009770089305, -6.315638086896123 },
    lml = 0.8056770430421114,
    mean = { -0.11297932371254404, 1.2037343694068223, 0.22929408178460697, 0.692286656791886 },
    std = { 0.05808883139457532, 0.05910637010426352, 0.22679060409927332, 0.23542356233919656 } },
  fit_ard = { theta = { -0.10907490830491195, 0.635719822625743, 0.22628879860021023, -6.699747448351477 },
    lml = 1.6811968854831125,
    mean = { -0.1146787090103647, 1.230121093290112, 0.20695789490414462, 0.6596624512201625 },
    std = { 0.04818977174784753, 0.054782498609994915, 0.30361973791800534, 0.2549628113871381 } },
  fit_matern_norm = { theta = { 0.805409516209709, 1.0880062534378643, -5.914281134980149 },
    lml = -1.7693062988070007,
    mean = { -0.10963730372874725, 1.194239773198135, 0.23856243987887663, 0.8387010545942442 },
    std = { 0.06860145858093884, 0.07860067847408798, 0.26636731531847263, 0.2948865137130202 } },
  fit_rq = { theta = { 11.512925464970229, 0.5548254303884208, -6.283105642375179 },
    lml = 0.7179282270643004,
    mean = { -0.1129230807530206, 1.204068765299544, 0.22634261810984135, 0.7025352478461695 },
    std = { 0.05918161742786241, 0.05995455501335663, 0.22152130083356167, 0.23104238898622603 } },
}

local FITTED_KERNELS = {
  fit_iso = { function() return C() * RBF() + White{ noise_level = 0.1 } end },
  fit_ard = { function() return C() * RBF{ length_scale = { 1, 1 } } + White{ noise_level = 0.1 } end },
  fit_matern_norm = { function() return C() * K.Matern{ nu = 2.5 } + White{ noise_level = 0.1 } end, true },
  fit_rq = { function() return K.RationalQuadratic() + White{ noise_level = 0.1 } end },
}

local MULTI = {
  multi = { mean = { 0.014038830547432268, 7.95702528045916, 1.133442309328162, 6.814454420152037, -0.04415009670789355, 5.41259143552712, 0.5987919197934618, 4.254631743462671 },
    std = { 0.2890521857389666, 0.4448226865543142, 0.34535010054193327, 0.531459601774449, 0.8363354729030135, 1.2870374633781563, 0.8340792706284105, 1.283565391528455 },
    lml = -19.995080990229184,
    grad = { -5.3092390751064915, 15.029342017417108, -2.3262058841380524 } },
}
local MULTI_COV2 = { 0.19786722247339716, -4.034110935363102e-06, -0.016306846198232052, 4.299607164305082e-05, -4.034110935363102e-06, 0.2824493083182564, 0.023470985704521836, 0.009706072284530055, -0.016306846198232052, 0.023470985704521836, 1.6564654321388792, 0.004391428090476114, 4.299607164305082e-05, 0.009706072284530055, 0.004391428090476114, 1.6475401143295962 }

local function column(t) return luma.matrix(t) end

-- Values in row-major order as an r x c matrix.
local function rows(t, r, c) return luma.matrix(t):reshape(r, c) end

describe("luma.gaussian_process.GaussianProcessRegressor", function()
  local GPR = gp.GaussianProcessRegressor

  it("matches scikit-learn's mean, std, log marginal likelihood and its gradient for fixed kernels", function()
    for name, ref in pairs(FIXED) do
      local Xf, Xtf = X, Xt
      if name == "periodic" then Xf, Xtf = X:col(1):copy(), Xt:col(1):copy() end
      local kernel = FIXED_KERNELS[name]()
      local m = GPR{ kernel = kernel, optimizer = "none", alpha = 1e-3 }:fit(Xf, y)
      local mean, std = m:predict(Xtf, { std = true })
      assert.matrix_near(column(ref.mean), mean, 1e-8)
      assert.matrix_near(column(ref.std), std, 1e-8)
      assert.near(ref.lml, m.log_marginal_likelihood_value, 1e-8 * math.abs(ref.lml))
      local lml, grad = m:log_marginal_likelihood(kernel:theta(), { gradient = true })
      assert.near(ref.lml, lml, 1e-8 * math.abs(ref.lml))
      assert.matrix_near(column(ref.grad), grad, 1e-8)
    end
  end)

  it("fits the hyperparameters as scikit-learn's L-BFGS-B does, to the optimizer's tolerance", function()
    for name, ref in pairs(FITTED) do
      local spec = FITTED_KERNELS[name]
      local m
      capture_warnings(function() m = GPR{ kernel = spec[1](), normalize_y = spec[2] == true }:fit(X, yn) end)
      assert.near(ref.lml, m.log_marginal_likelihood_value, 1e-6)
      -- a hyperparameter at a bound is exact; free ones agree to ~1e-3 in log scale
      assert.matrix_near(column(ref.theta), m.kernel:theta(), 2e-3)
      local mean, std = m:predict(Xt, { std = true })
      assert.matrix_near(column(ref.mean), mean, 1e-4)
      assert.matrix_near(column(ref.std), std, 1e-3)
    end
  end)

  it("warns when a fitted hyperparameter sits at its bound", function()
    local warnings = capture_warnings(function()
      GPR{ kernel = K.RationalQuadratic() + White{ noise_level = 0.1 } }:fit(X, yn)
    end)
    assert.truthy(table.concat(warnings, "\n"):find("k1__alpha (element 1) is close to its upper bound 100000", 1, true))
  end)

  it("normalizes several targets and returns their std and covariances as scikit-learn", function()
    local Y2 = luma.matrix.hstack{ y, X:col(1):cos() * 3 + 5 }
    local kernel = FIXED_KERNELS.rbf_iso()
    local m = GPR{ kernel = kernel, optimizer = "none", normalize_y = true }:fit(X, Y2)
    local mean, std = m:predict(Xt, { std = true })
    assert.matrix_near(rows(MULTI.multi.mean, 4, 2), mean, 1e-8)
    assert.matrix_near(rows(MULTI.multi.std, 4, 2), std, 1e-8)
    local lml, grad = m:log_marginal_likelihood(kernel:theta(), { gradient = true })
    assert.near(MULTI.multi.lml, lml, 1e-8 * math.abs(MULTI.multi.lml))
    assert.matrix_near(column(MULTI.multi.grad), grad, 1e-8)
    local _, covs = m:predict(Xt, { cov = true })
    assert.equal(2, #covs)
    assert.matrix_near(rows(MULTI_COV2, 4, 4), covs[2], 1e-8)
    -- the covariance's diagonal is the variance
    assert.matrix_near(std:col(2):pow(2), covs[2]:diag(), 1e-12)
  end)

  it("is notes 003 §1.21's noise-free and noisy GP: mean k*^T K^-1 y, variance k** - k*^T K^-1 k*", function()
    -- k(x, x') = exp(-|x - x'|^2 / (2 sigma^2)) with sigma = 0.9
    local sigma = 0.9
    local function k(A, B)
      return (luma.pairwise.distances(A, B, "sqeuclidean") * (-1 / (2 * sigma ^ 2))):exp()
    end
    for _, noise in ipairs({ 0, 0.3 }) do
      local KN = k(X, X) + luma.eye(12) * (noise + 1e-10)
      local ks = k(X, Xt)
      local mean = ks:t() * luma.linalg.solve(KN, y)
      local var = (k(Xt, Xt) - ks:t() * luma.linalg.solve(KN, ks)):diag()
      local m = GPR{ kernel = RBF{ length_scale = sigma }, optimizer = "none", alpha = noise + 1e-10 }:fit(X, y)
      local mu, std = m:predict(Xt, { std = true })
      assert.matrix_near(mean, mu, 1e-8)
      assert.matrix_near(var, std:pow(2), 1e-8)
      if noise == 0 then
        -- noise-free: the mean interpolates the data, the std vanishes there
        local at, sd = m:predict(X, { std = true })
        assert.matrix_near(y, at, 1e-6)
        assert.is_true(sd:max() < 1e-4)
      end
    end
  end)

  it("is notes 000 §6.5's Prince form with prior variance sigma_p^2 and noise sigma^2", function()
    -- mean (sp2/s2) K* w - (sp2/s2) K* (K + (s2/sp2) I)^-1 K w,
    -- variance sp2 K** - sp2 K* (K + (s2/sp2) I)^-1 K*^T + s2, K the RBF with 2 lambda^2
    local sp2, s2, lambda = 2.5, 0.2, 1.1
    local function k(A, B)
      return (luma.pairwise.distances(A, B, "sqeuclidean") * (-1 / (2 * lambda ^ 2))):exp()
    end
    local KXX, Ks, Kss = k(X, X), k(Xt, X), k(Xt, Xt)
    local inner = luma.linalg.solve(KXX + luma.eye(12) * (s2 / sp2), KXX * y)
    local mean = (Ks * y) * (sp2 / s2) - (Ks * inner) * (sp2 / s2)
    local var = (Kss * sp2 - Ks * luma.linalg.solve(KXX + luma.eye(12) * (s2 / sp2), Ks:t()) * sp2):diag() + s2
    local m = GPR{ kernel = C{ constant_value = sp2 } * RBF{ length_scale = lambda }, alpha = s2,
      optimizer = "none" }:fit(X, y)
    local mu, std = m:predict(Xt, { std = true })
    assert.matrix_near(mean, mu, 1e-8)
    -- predict gives the latent f's std; the notes' predictive adds the noise
    assert.matrix_near(var, std:pow(2) + s2, 1e-8)
  end)

  it("has kernel gradients equal to finite differences in log space", function()
    local kernels = {
      C{ constant_value = 1.5 } * RBF{ length_scale = { 0.7, 1.9 } } + White{ noise_level = 0.05 },
      K.Matern{ length_scale = { 0.8, 1.6 }, nu = 0.5 } * K.DotProduct{ sigma_0 = 0.7 },
      K.Matern{ length_scale = 1.3, nu = 1.5 } + K.Matern{ length_scale = { 0.6, 1.2 }, nu = 2.5 },
      K.RationalQuadratic{ length_scale = 0.9, alpha = 1.7 } * K.ExpSineSquared{ length_scale = 1.1, periodicity = 2.3 },
    }
    for _, kernel in ipairs(kernels) do
      local _, G = kernel:gradient(X)
      local theta = kernel:theta()
      assert.equal(kernel:n_dims(), #G)
      for j = 1, #G do
        local h = 1e-6
        local tp, tm = theta:copy(), theta:copy()
        tp:set(j, 1, theta:get(j, 1) + h)
        tm:set(j, 1, theta:get(j, 1) - h)
        local fd = (kernel:clone_with_theta(tp)(X) - kernel:clone_with_theta(tm)(X)) / (2 * h)
        assert.matrix_near(fd, G[j], 1e-6)
      end
    end
  end)

  it("keeps fixed hyperparameters out of theta and names the rest as scikit-learn", function()
    local kernel = C{ constant_value = 2, constant_value_bounds = "fixed" } * RBF{ length_scale = { 1, 2 } }
      + White{ noise_level = 0.5, noise_level_bounds = { 1e-3, 10 } }
    assert.equal(3, kernel:n_dims())
    assert.matrix_near({ { math.log(1) }, { math.log(2) }, { math.log(0.5) } }, kernel:theta(), 1e-15)
    assert.matrix_near({ { math.log(1e-5), math.log(1e5) }, { math.log(1e-5), math.log(1e5) },
      { math.log(1e-3), math.log(10) } }, kernel:bounds(), 1e-15)
    local names = {}
    for _, h in ipairs(kernel:hyperparameters()) do names[#names + 1] = h.name end
    assert.same({ "k1__k1__constant_value", "k1__k2__length_scale", "k2__noise_level" }, names)
    assert.equal("1.41**2 * RBF(length_scale=[1, 2]) + WhiteKernel(noise_level=0.5)", tostring(kernel))
    -- white noise belongs to k(X) only, not to k(X, Y)
    assert.matrix_near(luma.zeros(12, 4), White{ noise_level = 0.5 }(X, Xt), 0)
    assert.matrix_near(luma.eye(12) * 0.5, White{ noise_level = 0.5 }(X), 0)
    -- a number scales (c * k) or adds (k + c) as a ConstantKernel with default bounds
    assert.equal(2, (3 * RBF()):n_dims())
    assert.matrix_near(RBF()(X) + 2, (RBF() + 2)(X), 1e-15)
  end)

  it("draws samples whose moments are the posterior's, and prior samples before fit", function()
    local m = GPR{ kernel = FIXED_KERNELS.rbf_iso(), optimizer = "none" }:fit(X, y)
    local mean, cov = m:predict(Xt, { cov = true })
    local S = m:sample_y(Xt, 20000, { seed = 3 })
    assert.same({ 4, 20000 }, { S:shape() })
    assert.matrix_near(mean, S:mean(2), 0.03)
    local D = S - S:mean(2)
    assert.matrix_near(cov, D * D:t() / 20000, 0.05)
    assert.matrix_near(S, m:sample_y(Xt, 20000, { seed = 3 }), 0) -- seeded
    local prior = GPR{ kernel = RBF{ length_scale = 0.5 } }
    local P = prior:sample_y(Xt, 20000, { seed = 1, prior = true })
    local Dp = P - P:mean(2)
    assert.matrix_near(RBF{ length_scale = 0.5 }(Xt), Dp * Dp:t() / 20000, 0.05)
    errors_with("sample_y called before fit", function() prior:sample_y(Xt, 2) end)
  end)

  it("restarts from seeded log-uniform points: reproducible, never worse than one start", function()
    local function fit(seed, restarts)
      local m
      capture_warnings(function()
        m = GPR{ kernel = C() * RBF{ length_scale = { 1, 1 } } + White{ noise_level = 0.1 },
          n_restarts_optimizer = restarts, seed = seed }:fit(X, yn)
      end)
      return m
    end
    local one, a, b = fit(1, 0), fit(7, 4), fit(7, 4)
    assert.matrix_near(a.kernel:theta(), b.kernel:theta(), 0)
    assert.is_true(a.log_marginal_likelihood_value >= one.log_marginal_likelihood_value - 1e-9)
  end)

  it("survives save and load with its fitted kernel", function()
    local m = GPR{ kernel = FIXED_KERNELS.matern15(), alpha = 1e-3 }:fit(X, yn)
    local back = luma.persist.decode(luma.persist.encode(m))
    assert.equal(tostring(m.kernel), tostring(back.kernel))
    local m1, s1 = m:predict(Xt, { std = true })
    local m2, s2 = back:predict(Xt, { std = true })
    assert.matrix_near(m1, m2, 0)
    assert.matrix_near(s1, s2, 0)
  end)

  describe("rejects bad input with errors naming the culprit", function()
    it("non-finite values", function()
      local Xbad = X:copy()
      Xbad:set(3, 2, 0 / 0)
      errors_with("bad argument #1 to 'fit' %(X has a non%-finite element, nan at row 3, column 2; "
        .. "impute missing values first", function() GPR{}:fit(Xbad, y) end)
      local ybad = y:copy()
      ybad:set(2, 1, math.huge)
      errors_with("bad argument #2 to 'fit' %(y has a non%-finite element, inf at row 2, column 1%)",
        function() GPR{}:fit(X, ybad) end)
      local m = GPR{}:fit(X, y)
      errors_with("bad argument #1 to 'predict' %(X has a non%-finite element, nan at row 1, column 1",
        function()
        m:predict(luma.matrix{ { 0 / 0, 1 } })
      end)
    end)

    it("a kernel matrix that is not positive definite: a warning with its smallest eigenvalue", function()
      -- the periodic kernel on 2-D Euclidean distances is not PSD (scikit-learn fails too)
      local warnings = capture_warnings(function()
        errors_with("not positive definite %(smallest eigenvalue %-0%.59.*parameter 'alpha'", function()
          GPR{ kernel = K.ExpSineSquared{ length_scale = 1.1, periodicity = 2.3 }, optimizer = "none" }:fit(X, y)
        end)
      end)
      assert.truthy(warnings[1]:find("smallest eigenvalue is %-0%.59"))
    end)

    it("predict before fit, the wrong number of features, unknown options", function()
      errors_with("GaussianProcessRegressor: predict called before fit", function() GPR{}:predict(Xt) end)
      local m = GPR{}:fit(X, y)
      errors_with("X has 3 columns but luma.gaussian_process.GaussianProcessRegressor was fitted on 2",
        function() m:predict(luma.zeros(2, 3)) end)
      errors_with("unknown option 'sd'", function() m:predict(Xt, { sd = true }) end)
      errors_with("ask for std or cov, not both", function() m:predict(Xt, { std = true, cov = true }) end)
      errors_with("RBF: length_scale has 3 values but X has 2 features", function()
        GPR{ kernel = RBF{ length_scale = { 1, 2, 3 } } }:fit(X, y)
      end)
    end)

    it("bad hyperparameters and bounds", function()
      errors_with("RBF: length_scale_bounds must be \"fixed\" or {lower, upper} with 0 < lower < upper < inf, got {10, 1}",
        function() RBF{ length_scale_bounds = { 10, 1 } } end)
      errors_with("WhiteKernel: noise_level_bounds must be", function() White{ noise_level_bounds = { 0, 1 } } end)
      errors_with("Matern: nu must be 0.5, 1.5, 2.5 or math.huge", function() K.Matern{ nu = 2 } end)
      errors_with("RBF: length_scale%[2%] must be a finite number > 0, got %-1", function()
        RBF{ length_scale = { 1, -1 } }
      end)
      errors_with("RationalQuadratic: unknown option 'periodicity'", function()
        K.RationalQuadratic{ periodicity = 2 }
      end)
      errors_with("ConstantKernel: constant_value must be a finite number > 0", function() return -2 * RBF() end)
      errors_with("parameter 'kernel' must be a luma.gaussian_process.kernels kernel", function()
        GPR{ kernel = luma.kernels.rbf() }:fit(X, y)
      end)
      errors_with("parameter 'alpha' must be a number or 12 x 1", function()
        GPR{ alpha = luma.ones(3, 1) }:fit(X, y)
      end)
    end)
  end)
end)
