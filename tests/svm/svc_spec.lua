-- luma.svm.SVC and NuSVC against scikit-learn 1.2.1 (Debian's python3-sklearn,
-- which wraps LIBSVM 3.x) and LIBSVM's own svm-train (libsvm-tools 3.24).
--
-- Reference values: printed with "%.17g" by /usr/bin/python3 from
--   X, y = sklearn.datasets.load_iris(return_X_y=True)  (= luma.datasets "iris")
--   SVC(gamma=0.25, tol=1e-8).fit(X, y): dual_coef_, intercept_,
--     support_ + 1, n_support_, decision_function(X[::15]) with
--     decision_function_shape "ovr" and "ovo", predict(X)
--   Xb, yb = X[50:], y[50:]:
--     SVC(kernel='linear', tol=1e-8): coef_, intercept_, support_ + 1,
--       decision_function(Xb[::10])
--     SVC(kernel='poly', degree=3, gamma=0.1, coef0=1, C=2, tol=1e-8)
--     SVC(kernel='sigmoid', gamma=0.05, coef0=-0.5, tol=1e-8) on Xb
--       standardized by its column means and population deviations
--     SVC(kernel='precomputed', tol=1e-8) on K = 0.5 rbf_kernel(Xb, gamma=0.5)
--       + Xb Xb'
--   SVC(gamma=0.25, C=2, class_weight={0: 1, 1: 2, 2: 0.5}, tol=1e-8) with
--     sample_weight 1 + (i mod 3), i = 0..149
--   SVC(gamma=0.25, class_weight='balanced', tol=1e-8) on the first 130 rows
--   SVC(tol=1e-8) (gamma='scale'): _gamma, intercept_
--   NuSVC(nu=0.3, gamma=0.25, tol=1e-8)
-- LIBSVM: svm-train -s 0 -t 2 -g 0.25 -c 1 -e 1e-8 on Xb (label +1 for
-- versicolor, written with "%.17g") reports rho 0.14405643640291413 and
-- nr_sv 16 17.
-- Decision values must agree to 1e-6 relative (the issue's bar), dual
-- coefficients and intercepts to the solver's tolerance.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local svm = luma.svm
local M = luma.matrix

local X, y = luma.datasets.load("iris")
local Xb, yb = X:sub(51, 150, nil, nil), y:sub(51, 150, nil, nil)

local function every(A, step)
  local idx = {}
  for i = 1, A:rows(), step do idx[#idx + 1] = i end
  return A:take(M(idx))
end

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

local iris_rbf = { dual = { { 0, 0.43731375985388243, 0.065628729060316457, 0.0027858737332124438, 0.35397129995757948, 1, 0.46548414006836941, -0.55982717795137271, -0, -0, -0, -0.54264806149257649, -0, -0, -0, -0, -0, -0, -0, -0.15493326815139288, -0, -0.067775295078018244, -0, -0, -0, -1, -0.11776685381182665, -0.73331938916466044, -0, -0.42794344758077724, -0.10014065670576093, -0, -0, -0, -0, -0, -0.40481483621498249, -0, -0, -0, -0.16116254910352179, -0, -0, -0, -0 }, { 0.011271838062641867, 0.95555664250092842, 0, 0, 0.011925943075767421, 0.96639330894219178, 0, 0, 1, 1, 1, 0, 0.40485477679601828, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.27317621309830514, 1, 0, -0, -1, -1, -0, -1, -1, -1, -1, -1, -0.82197124325257698, -0.13330523026005991, -1, -0.6315757202923119, -1, -0.77740868957400899, -0.31377010651536552, -1, -1, -1 } }, intercept = { { -0.040343842116719875 }, { -0.16781975836613197 }, { -0.14405643640291413 } }, support = { 14, 16, 19, 24, 25, 42, 45, 51, 53, 55, 57, 58, 61, 64, 67, 69, 71, 73, 77, 78, 79, 84, 85, 86, 87, 99, 101, 107, 111, 119, 120, 122, 124, 127, 128, 130, 132, 134, 135, 139, 142, 143, 147, 148, 150 }, n_support = { 7, 19, 19 }, dec_ovr = { { 2.2346102294919477, 0.82317142706591562, -0.18496007917546414 }, { 2.2222222226895649, 0.84162334680779738, -0.17420660673760177 }, { 2.2297062906709306, 0.83734079143861351, -0.18607683446022311 }, { 2.2320493987054508, 0.82884112858525016, -0.18423615754954864 }, { -0.20027054149711121, 2.2258622545339581, 0.87545324083220544 }, { -0.21932979057304872, 2.2426575916155773, 0.85690186773598453 }, { -0.2270318981554155, 2.2317668468096223, 0.95748636141510945 }, { -0.19535600580195442, 0.82379882646015012, 2.2390971671520901 }, { -0.21095949941998057, 0.82577306100369319, 2.2460488044068021 }, { -0.1999592564078585, 0.83201511770758174, 2.2385065422528032 } }, dec_ovo = { { 1.2384943044280674, 1.1379527516621226, 0.10863363767908904 }, { 1.0000000074727287, 1.0000000051455273, 0.094766477295737117 }, { 1.1223999995039962, 1.094263573722442, 0.16936034701578037 }, { 1.1688425700961003, 1.1222354726162116, 0.11344291351714594 }, { -1.1016096087629059, -0.40347335795862915, 1.00000002479807 }, { -1.1386169655251097, -0.78526877751915458, 1.5374856724978776 }, { -1.2286534380450216, -0.90708346687474628, 1.0532690222294638 }, { -0.31442221057138375, -1.1014336354372758, -1.4357787410959346 }, { -0.62612915630287547, -1.0977646915384145, -1.7211633296450937 }, { -0.40586186833196808, -1.0933744226872326, -1.4218065671477482 } }, predict = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 } }
local bin_linear = { coef = { { -0.59548458306595276, -0.97591048182249951, 2.0321686626116779, 2.0061093779676016 } }, intercept = -6.7811265425243672, support = { 3, 7, 14, 17, 19, 21, 23, 27, 28, 34, 35, 57, 61, 70, 74, 77, 78, 80, 84, 89, 97, 98, 100 }, dec = { { -1.7126863223884836 }, { -2.5916707243905943 }, { -0.05199266356772192 }, { -2.4695156720724238 }, { -1.2447856330732687 }, { 3.4551014147352053 }, { 0.60158906096955356 }, { 2.1845292387005291 }, { 2.2875748537543164 }, { 2.3986112750318629 } } }
local bin_poly = { dual = { { -2, -2, -2, -2, -0.064443653664435066, 0.62498608007694811, 2, 0.99620045889293241, 0.44325711469455487, 2, 2 } }, intercept = -4.0737379442724686, support = { 21, 23, 28, 34, 35, 70, 77, 78, 80, 84, 89 }, dec = { { -5.3782177527940602 }, { -4.0362396235858595 }, { 0.63117230992099582 }, { -4.4038636330830085 }, { -2.5016557655199021 }, { 10.897285578776401 }, { 2.0627418467207663 }, { 6.6681740745578937 }, { 5.1475595908174201 }, { 7.5217972949520773 } } }
local bin_sigmoid = { intercept = -0.068537408317132828, nsv = 48, dec = { { -0.90197680049279738 }, { -1.6413241938985452 }, { -0.14196189677245852 }, { -1.5579508766711896 }, { -1.0750866911001762 }, { 1.9020890678769535 }, { 0.43158033303482757 }, { 1.4060943914709969 }, { 1.2622235362946501 }, { 1.5585322155314121 } } }
local weighted = { intercept = { { -0.060760566279069186 }, { -0.16781975736776245 }, { -0.45955930401613992 } }, n_support = { 7, 9, 24 }, dec_ovo = { { 1.269600133165298, 1.1379527507831884, -0.12566613825648604 }, { 1.0000000110614651, 1.0000000049478774, -0.18686323390057674 }, { 1.1366017546408211, 1.0942635726276593, -0.012987030595006221 }, { 1.1925939360070044, 1.1222354724335262, -0.078005031975322991 }, { -1.2135792775084049, -0.40347335604568246, 0.99999993783879537 }, { -1.1619797101320497, -0.78526877525248162, 2.7030658088479917 }, { -1.2731628383838509, -0.90708346477168511, 1.4270553998039754 }, { -0.33108691362898585, -1.1014336352113074, -2.1337395539566781 }, { -0.6302227272525992, -1.0977646937616536, -1.9742478721353134 }, { -0.41973313890027497, -1.0933744219622183, -1.860550035223391 } } }
local balanced = { intercept = { { -0.053928473811099401 }, { -0.16978769614821912 }, { -0.10567786494517976 } }, n_support = { 7, 20, 13 } }
local compound = { intercept = -5.8158195119458069, support = { 3, 7, 14, 17, 19, 21, 23, 28, 34, 35, 57, 61, 70, 74, 77, 78, 80, 84, 89, 100 }, dec = { { -1.7875378068548029 }, { -2.381385320474311 }, { 0.027030631890451851 }, { -2.4982428935955339 }, { -1.3761749257882085 }, { 3.4218119047812765 }, { 0.78782493171875689 }, { 2.2232751905733155 }, { 2.0659063120274199 }, { 2.4750646194061803 } } }
local gamma_scale = 0.064167448636149746
local scale_intercept = { { 0.12599662666263903 }, { -0.065204235290064791 }, { -0.10704314708709724 } }
local nusvc = { dual = { { 2.6914367120511953e-15, 0.10822458369183069, 0.10822458369183069, 0.10822458369183069, 0.10822458369183069, 0.10822458369183069, 0, 0.10822458369183069, 0.10822458369183069, 0, 0.10822458369183069, 0.10822458369183069, 0.10822458369183069, 0.10822458369183069, 0, 0.10822458369183069, 0.10822458369183069, 0.10822458369183069, 0, 0.10822458369183069, -0.10822458369183069, -0.10822458369183069, -0, -0, -0.10822458369183069, -0.10822458369183069, -0.10822458369183069, -0, -0.10822458369183069, -0, -0, -0.091415534052358444, -0, -0.10822458369183069, -0.10822458369183069, -0, -0.10822458369183069, -0.097133902647125778, -0.10822458369183069, -0.073238372836368346, -0, -0, -0.062885941539642207, -0.10822458369183069, -0.10822458369183069, -0.039070739336176559, -0, -0.099889271517090941, -0.099889271517090941, -0.099889271517090941, -0, -0.099889271517090941, -0.099889271517090941, -0.099889271517090941, -0.099889271517090941, -0.099889271517090941, -0.099889271517090941, -0.099889271517090941, -0, -0.083611573645833118, -0, -0, -0.099889271517090941, -0, -0.077096230052174697, -0.099889271517090941, -0.099889271517090941, -0, -0, -0, -0 }, { 0, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0.0073860639683896992, 0.099889271517090941, 0, 0.099889271517090941, 0, 0.093333976802763882, 0.099058502263030798, 0, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0.099889271517090941, 0, 0.94782710199196418, 0.94782710199196418, 0.94782710199196418, 0, 0, 0.43341048988562092, 0.94782710199196418, 0, 0.94782710199196418, 0.94782710199196418, 0.94782710199196418, 0.94782710199196418, 0.94782710199196418, 0.94782710199196418, 0.94782710199196418, 0, 0, 0, 0.94782710199196418, 0.94782710199196418, 0.51441661210636669, 0.94782710199196418, 0, 0, -0, -0.56552791768581046, -0, -0.94782710199196418, -0, -0.94782710199196418, -0, -0, -0, -0, -0.94782710199196418, -0.94782710199196418, -0, -0.94782710199196418, -0.94782710199196418, -0.94782710199196418, -0.77121379694726722, -0.16434903751445512, -0.94782710199196418, -0.54852899531700905, -0, -0.94782710199196418, -0.7938615585113743, -0.94782710199196418, -0.94782710199196418, -0.94782710199196418 } }, intercept = { { -0.070880113536384223 }, { -0.17122174125682105 }, { -0.13889900223161333 } }, support = { 4, 6, 9, 14, 15, 16, 17, 19, 21, 23, 24, 25, 26, 31, 33, 34, 39, 42, 43, 45, 51, 53, 55, 57, 58, 60, 61, 64, 65, 67, 69, 71, 73, 77, 78, 79, 80, 81, 82, 84, 85, 86, 87, 94, 99, 101, 102, 106, 107, 110, 111, 114, 115, 118, 119, 120, 122, 123, 124, 127, 128, 130, 132, 134, 135, 136, 139, 142, 147, 148, 150 }, n_support = { 20, 25, 26 }, dec_ovo = { { 1.1116587285286594, 1.0807161707457913, 0.11694603561806705 }, { 0.8747593900558196, 0.81118704970193245, 0.10221397393945184 }, { 0.9973585834247517, 1.0222458949279654, 0.17932242594929693 }, { 1.005929257520233, 1.0087390479166249, 0.12312600947256835 }, { -0.76579970254872443, -0.22156226083736399, 1.000000018929728 }, { -1.0408965573287186, -0.77756054312457024, 1.4954094439668406 }, { -1.0926858452573303, -0.70921673525924533, 1.032143246303054 }, { -0.30664120207967155, -0.9849013957640731, -1.4228647541842259 }, { -0.6094807241340745, -1.0868899664119365, -1.7037721976174431 }, { -0.38128605476847366, -0.99940572346148016, -1.4157054410784804 } } }

describe("SVC", function()
  it("matches scikit-learn with the RBF kernel and three classes", function()
    local m = svm.SVC{ gamma = 0.25, tol = 1e-8 }:fit(X, y)
    assert.matrix_near(M(iris_rbf.n_support), m.n_support, 0)
    assert.matrix_near(M(iris_rbf.support), m.support, 0)
    assert.matrix_near(iris_rbf.dual, m.dual_coef, 1e-6)
    assert.matrix_near(iris_rbf.intercept, m.intercept, 1e-6)
    assert.matrix_near(iris_rbf.dec_ovr, m:decision_function(every(X, 15)), 1e-6)
    assert.matrix_near(M(iris_rbf.predict), m:predict(X), 0)
    m:set_params{ decision_function_shape = "ovo" }
    assert.matrix_near(iris_rbf.dec_ovo, m:decision_function(every(X, 15)), 1e-6)
    assert.matrix_near(m.support_vectors, X:take(m.support), 0)
  end)

  it("matches LIBSVM's svm-train on two classes", function()
    local m = svm.SVC{ gamma = 0.25, tol = 1e-8 }:fit(Xb, yb)
    -- scikit-learn's binary sign: intercept = rho of svm-train
    assert.near(0.14405643640291413, m.intercept:get(1, 1), 1e-9)
    assert.matrix_near({ { 16 }, { 17 } }, m.n_support, 0)
    -- f(x) = sum_i dual_coef_i k(x_i, x) + b, positive for the second class
    local K = luma.pairwise.kernel(Xb, m.support_vectors, "rbf", { gamma = 0.25 })
    assert.matrix_near(K * m.dual_coef:t() + m.intercept, m:decision_function(Xb), 1e-12)
    local labels = m:predict(Xb)
    assert.is_true(labels:eq(1):add(labels:eq(2)):all()) -- labels stay 1 and 2
  end)

  it("matches scikit-learn with the linear, polynomial and sigmoid kernels", function()
    local lin = svm.SVC{ kernel = "linear", tol = 1e-8 }:fit(Xb, yb)
    assert.matrix_near(bin_linear.coef, lin.coef, 1e-6)
    assert.near(bin_linear.intercept, lin.intercept:get(1, 1), 1e-6)
    assert.matrix_near(M(bin_linear.support), lin.support, 0)
    assert.matrix_near(bin_linear.dec, lin:decision_function(every(Xb, 10)), 1e-6)
    local poly = svm.SVC{ kernel = "poly", degree = 3, gamma = 0.1, coef0 = 1, C = 2,
      tol = 1e-8 }:fit(Xb, yb)
    assert.matrix_near(bin_poly.dual, poly.dual_coef, 1e-6)
    assert.near(bin_poly.intercept, poly.intercept:get(1, 1), 1e-6)
    assert.matrix_near(M(bin_poly.support), poly.support, 0)
    assert.matrix_near(bin_poly.dec, poly:decision_function(every(Xb, 10)), 1e-6)
    local Xs = (Xb - Xb:mean(1)):div(Xb:std(1))
    local sig
    local warnings = require("support").capture_warnings(function()
      sig = svm.SVC{ kernel = "sigmoid", gamma = 0.05, coef0 = -0.5, tol = 1e-8 }:fit(Xs, yb)
    end)
    assert.near(bin_sigmoid.intercept, sig.intercept:get(1, 1), 1e-6)
    assert.equal(bin_sigmoid.nsv, sig.support:rows())
    assert.matrix_near(bin_sigmoid.dec, sig:decision_function(every(Xs, 10)), 1e-6)
    -- the sigmoid kernel is not positive semi-definite here: a warning with
    -- the smallest eigenvalue
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:find("not positive semi-definite", 1, true))
    assert.truthy(warnings[1]:find("smallest eigenvalue of the Gram matrix -", 1, true))
  end)

  it("takes precomputed Gram matrices and luma.kernels objects", function()
    local K = luma.kernels.rbf{ gamma = 0.5 } * 0.5 + luma.kernels.linear()
    local Kb = K(Xb)
    local pre = svm.SVC{ kernel = "precomputed", tol = 1e-8 }:fit(Kb, yb)
    assert.near(compound.intercept, pre.intercept:get(1, 1), 1e-6)
    assert.matrix_near(M(compound.support), pre.support, 0)
    assert.matrix_near(compound.dec, pre:decision_function(every(Kb, 10)), 1e-6)
    assert.is_nil(pre.support_vectors)
    -- the kernel object computes the same Gram matrices itself
    local obj = svm.SVC{ kernel = K, tol = 1e-8 }:fit(Xb, yb)
    assert.matrix_near(compound.dec, obj:decision_function(every(Xb, 10)), 1e-6)
    -- a base kernel object runs natively, as the kernel of the same name
    local rbf = svm.SVC{ kernel = luma.kernels.rbf{ gamma = 0.25 }, tol = 1e-8 }:fit(X, y)
    assert.matrix_near(iris_rbf.intercept, rbf.intercept, 1e-6)
    -- and a plain function (A, B) -> Gram matrix
    local f = svm.SVC{ kernel = function(A, B) return A * (B or A):t() end, tol = 1e-8 }:fit(Xb, yb)
    assert.matrix_near(bin_linear.dec, f:decision_function(every(Xb, 10)), 1e-6)
  end)

  it("weights classes and samples as scikit-learn", function()
    local sw = luma.arange(0, 149):div(3):floor():mul(-3):add(luma.arange(0, 149)):add(1)
    local m = svm.SVC{ gamma = 0.25, C = 2, class_weight = { [0] = 1, [1] = 2, [2] = 0.5 },
      decision_function_shape = "ovo", tol = 1e-8 }:fit(X, y, sw)
    assert.matrix_near(weighted.intercept, m.intercept, 1e-6)
    assert.matrix_near(M(weighted.n_support), m.n_support, 0)
    assert.matrix_near(weighted.dec_ovo, m:decision_function(every(X, 15)), 1e-6)
    local b = svm.SVC{ gamma = 0.25, class_weight = "balanced", tol = 1e-8 }:fit(
      X:sub(1, 130, nil, nil), y:sub(1, 130, nil, nil))
    assert.matrix_near(balanced.intercept, b.intercept, 1e-6)
    assert.matrix_near(M(balanced.n_support), b.n_support, 0)
    -- a zero weight drops the row, as scikit-learn does
    local w0 = luma.ones(100, 1)
    w0:set(3, 1, 0)
    local dropped = svm.SVC{ kernel = "linear", tol = 1e-8 }:fit(Xb, yb, w0)
    local keep = luma.arange(1, 100):select(w0:gt(0), 1)
    local direct = svm.SVC{ kernel = "linear", tol = 1e-8 }:fit(Xb:take(keep), yb:take(keep))
    assert.matrix_near(direct.coef, dropped.coef, 1e-9)
  end)

  it("uses gamma = 'scale' by default", function()
    local m = svm.SVC{ tol = 1e-8 }:fit(X, y)
    assert.near(gamma_scale, m.kernel_spec.gamma, 1e-15)
    assert.matrix_near(scale_intercept, m.intercept, 1e-6)
    assert.near(1 / 4, svm.SVC{ gamma = "auto" }:fit(X, y).kernel_spec.gamma, 0)
  end)

  it("gives the same bits with one or two threads", function()
    local before = luma.config().threads
    luma.config{ threads = 1 }
    local a = svm.SVC{ gamma = 0.25, cache_size = 0.001 }:fit(X, y)
    luma.config{ threads = 2 }
    local b = svm.SVC{ gamma = 0.25, cache_size = 0.001 }:fit(X, y)
    luma.config{ threads = before }
    assert.matrix_near(a.dual_coef, b.dual_coef, 0)
    assert.matrix_near(a.intercept, b.intercept, 0)
    -- a tiny cache (two rows) recomputes rows all the time: same solution
    local big = svm.SVC{ gamma = 0.25 }:fit(X, y)
    assert.matrix_near(big.dual_coef, a.dual_coef, 1e-12)
  end)

  it("warns when max_iter stops the solver", function()
    local warnings = require("support").capture_warnings(function()
      svm.SVC{ gamma = 0.25, max_iter = 3 }:fit(X, y)
    end)
    assert.equal(1, #warnings) -- one warning for the three machines
    assert.truthy(warnings[1]:find("SVC: the solver stopped after max_iter = 3 iterations "
      .. "before reaching tol = 0.001 (3 of 3 runs)", 1, true))
  end)

  it("is the notes' nu-parameterised C-SVC with nu = 1/(C N)", function()
    local a = svm.SVC{ nu = 0.05, kernel = "linear", tol = 1e-8 }:fit(Xb, yb)
    local b = svm.SVC{ C = 1 / (0.05 * 100), kernel = "linear", tol = 1e-8 }:fit(Xb, yb)
    assert.matrix_near(b.coef, a.coef, 0)
  end)

  it("is the hard margin with C = math.huge", function()
    -- setosa against versicolor is separable: the hard margin exists
    local Xs, ys = X:sub(1, 100, nil, nil), y:sub(1, 100, nil, nil)
    local hard = svm.SVC{ C = math.huge, kernel = "linear", tol = 1e-10 }:fit(Xs, ys)
    local f = hard:decision_function(Xs):mul(ys * 2 - 1)
    assert.is_true(f:min() > 1 - 1e-6) -- every point outside the margin
    local sv = f:take(hard.support)
    assert.near(1, sv:max(), 1e-6)     -- support vectors on it
    -- a large finite C gives the same machine
    local soft = svm.SVC{ C = 1e6, kernel = "linear", tol = 1e-10 }:fit(Xs, ys)
    assert.matrix_near(soft.coef, hard.coef, 1e-6)
    fails("SVC: C = math.huge is the hard margin, but classes 1 and 2 are not separable",
      function() svm.SVC{ C = math.huge, kernel = "linear" }:fit(Xb, yb) end)
  end)

  it("saves and reloads", function()
    local m = svm.SVC{ gamma = 0.25 }:fit(X, y)
    local back = luma.persist.decode(luma.persist.encode(m))
    assert.matrix_near(m:decision_function(X), back:decision_function(X), 0)
  end)
end)

describe("NuSVC", function()
  it("matches scikit-learn", function()
    local m = svm.NuSVC{ nu = 0.3, gamma = 0.25, decision_function_shape = "ovo",
      tol = 1e-8 }:fit(X, y)
    assert.matrix_near(M(nusvc.n_support), m.n_support, 0)
    assert.matrix_near(M(nusvc.support), m.support, 0)
    assert.matrix_near(nusvc.dual, m.dual_coef, 1e-6)
    assert.matrix_near(nusvc.intercept, m.intercept, 1e-6)
    assert.matrix_near(nusvc.dec_ovo, m:decision_function(every(X, 15)), 1e-6)
  end)

  it("bounds the fractions of margin errors and support vectors by nu", function()
    for _, nu in ipairs({ 0.2, 0.5, 0.8 }) do
      local m = svm.NuSVC{ nu = nu, gamma = 0.25, tol = 1e-10 }:fit(Xb, yb)
      assert.is_true(m.support:rows() / 100 >= nu - 1e-9)
      local margin = m:decision_function(Xb):mul(yb * 2 - 3)
      -- margin errors (y f < 1 in the equivalent C-SVC) at most nu N
      assert.is_true(margin:lt(1 - 1e-6):sum() <= nu * 100 + 1e-9)
    end
  end)
end)
