-- luma.linear (regression).  Reference values: scikit-learn 1.2.1
-- (Debian's python3-sklearn) on the diabetes data, printed with repr:
--   from sklearn.datasets import load_diabetes; from sklearn import linear_model as lm
--   X, y = load_diabetes(return_X_y=True); w = np.linspace(0.5, 2.0, len(y))
--   lm.LinearRegression().fit(X, y); lm.Ridge(alpha=0.5).fit(X, y, sample_weight=w)
--   lm.Lasso(alpha=0.1, tol=1e-12, max_iter=100000).fit(X, y); ...
-- (each block below names its call).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local L = luma.linear

local X, y = luma.datasets.load("diabetes")
local n = X:rows()
local w = luma.linspace(0.5, 2.0, n)

local function row(t) return { t } end

local OLS = { -10.00986629981056, -239.81564367242314, 519.8459200544612, 324.3846455023232,
  -792.1756385522295, 476.73902100525646, 101.04326793803394, 177.06323767134646,
  751.2736995571025, 67.62669218370455 }

describe("luma.linear.LinearRegression", function()
  it("matches scikit-learn with every solver", function()
    for _, solver in ipairs{ "auto", "cholesky", "qr", "svd" } do
      local m = L.LinearRegression{ solver = solver }:fit(X, y)
      assert.matrix_near(row(OLS), m.coef:t(), 1e-9)
      assert.near(152.13348416289597, m.intercept, 1e-9)
      assert.equal(10, m.rank)
    end
    -- singular values of the centred X (scikit-learn's singular_)
    local m = L.LinearRegression{ solver = "svd" }:fit(X, y)
    assert.matrix_near({ { 2.0060435563947228 }, { 1.2216053690118986 }, { 1.0981649507815314 } },
      m.singular_values:sub(1, 3, 1, 1), 1e-12)
    assert.matrix_near(m.singular_values, L.LinearRegression{}:fit(X, y).singular_values, 1e-8)
  end)

  it("reports the ML noise variance and the Gaussian NLL at it (notes 004 R5-R6)", function()
    local m = L.LinearRegression{}:fit(X, y)
    assert.near(2859.6963475867506, m.noise_variance, 1e-9) -- mean((y - predict)^2)
    -- at the ML variance the NLL is (N/2)(log(2 pi sigma^2) + 1)
    assert.near(n / 2 * (math.log(2 * math.pi * 2859.6963475867506) + 1), m.neg_log_likelihood, 1e-9)
  end)

  it("solves weighted least squares (notes 001 §D) like scikit-learn's sample_weight", function()
    local expect = { 6.1845991344168649e-01, -2.2320324261795000e+02, 5.2387763770506160e+02,
      3.4522456605330058e+02, -8.5023363014634856e+02, 5.5887373476758137e+02,
      1.0724517460536333e+02, 1.6839981127471270e+02, 7.5495527343823414e+02, 4.8296022785793980e+01 }
    for _, solver in ipairs{ "auto", "svd" } do
      local m = L.LinearRegression{ solver = solver }:fit(X, y, w)
      assert.matrix_near(row(expect), m.coef:t(), 1e-8)
      assert.near(152.21363293993016, m.intercept, 1e-9)
    end
    -- integer weights equal repeated rows
    local Xs, ys = X:sub(1, 20, 1, 3), y:sub(1, 20, 1, 1)
    local reps = luma.matrix{ 1, 2, 1, 3, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1 }
    local idx = {}
    for i = 1, 20 do for _ = 1, reps:get(i, 1) do idx[#idx + 1] = i end end
    local a = L.LinearRegression{}:fit(Xs, ys, reps)
    local b = L.LinearRegression{}:fit(Xs:take(idx), ys:take(idx))
    assert.matrix_near(b.coef, a.coef, 1e-10)
  end)

  it("fits several targets at once, column by column", function()
    local Y = luma.hstack{ y, y * 2 + 1 }
    local m = L.LinearRegression{}:fit(X, Y)
    assert.matrix_near(row(OLS), m.coef:col(1):t(), 1e-9)
    assert.matrix_near(m.coef:col(1) * 2, m.coef:col(2), 1e-12)
    assert.matrix_near({ { 152.13348416289597, 2 * 152.13348416289597 + 1 } }, m.intercept, 1e-12)
    assert.equal(2, m:predict(X):cols())
  end)

  it("gives the minimum-norm solution for collinear columns, with a warning", function()
    local Xd = luma.hstack{ X:sub(1, n, 1, 3), X:col(3) } -- column 4 repeats column 3
    for _, solver in ipairs{ "auto", "qr", "svd", "cholesky" } do
      local m
      local warnings = capture_warnings(function() m = L.LinearRegression{ solver = solver }:fit(Xd, y) end)
      assert.truthy(warnings[#warnings]:find("rank 3 < 4", 1, true) or warnings[1]:find("singular", 1, true))
      -- the repeated column's weight is split evenly (minimum norm)
      assert.near(m.coef:get(3, 1), m.coef:get(4, 1), 1e-6 * math.abs(m.coef:get(3, 1)))
      local full = L.LinearRegression{}:fit(X:sub(1, n, 1, 3), y)
      assert.near(full.coef:get(3, 1), m.coef:get(3, 1) + m.coef:get(4, 1), 1e-6 * math.abs(full.coef:get(3, 1)))
    end
  end)

  it("centres exactly: a 1e6 offset costs the normal equations no accuracy", function()
    -- the moments kernel shifts by a block mean and corrects by rank one;
    -- the naive X^T X - n m m^T would lose about 12 digits here
    local g = luma.random.Generator(3)
    local Xo = luma.randn(5000, 4, g) + 1e6
    local yo = Xo * luma.matrix{ 1, -2, 3, 0.5 } + luma.randn(5000, 1, g) * 0.1
    local qr = L.LinearRegression{ solver = "qr" }:fit(Xo, yo) -- factors the centred copy
    assert.matrix_near(qr.coef, L.LinearRegression{}:fit(Xo, yo).coef, 1e-12)
    assert.matrix_near(qr.coef, L.Ridge{ alpha = 0 }:fit(Xo, yo).coef, 1e-12)
  end)

  it("without an intercept fits through the origin", function()
    local Xs = luma.matrix{ { 1 }, { 2 }, { 3 } }
    local m = L.LinearRegression{ fit_intercept = false }:fit(Xs, luma.matrix{ 2, 4.5, 5.5 })
    assert.near((2 + 9 + 16.5) / 14, m.coef:get(1, 1), 1e-14) -- x.y / x.x
    assert.equal(0, m.intercept)
  end)
end)

describe("luma.linear.Ridge", function()
  local RIDGE = { 20.13800709174529, -131.2414946680699, 383.48370375875515, 244.83506963661935,
    -15.186741386233338, -58.34413648643499, -174.842370913825, 121.98495030379028,
    328.49875669918197, 110.88643330092648 }

  it("matches scikit-learn's Ridge(alpha = 0.5) with every solver", function()
    for _, solver in ipairs{ "auto", "cholesky", "svd", "dual" } do
      local m = L.Ridge{ alpha = 0.5, solver = solver }:fit(X, y)
      assert.matrix_near(row(RIDGE), m.coef:t(), 1e-9)
      assert.near(152.133484162896, m.intercept, 1e-10)
    end
    local m = L.Ridge{ alpha = 0.5 }:fit(X, y, w)
    assert.matrix_near(row{ 25.440091703344876, -130.87618750306288, 414.04906897178404,
      271.6576278453821, -18.680847120123413, -48.5226985990628, -186.5595821495277,
      122.60497614403886, 329.6365312170681, 98.47946582982011 }, m.coef:t(), 1e-9)
    assert.near(152.206463615889, m.intercept, 1e-10)
  end)

  it("shrinks towards a given vector: alpha -> inf gives that vector (notes 001 §A)", function()
    local v = luma.matrix{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
    local m = L.Ridge{ alpha = 1e12, shrink_to = v }:fit(X, y)
    assert.matrix_near(v, m.coef, 1e-6)
    -- the substitution w = v + u turns it into ordinary ridge on y - X v
    for _, solver in ipairs{ "cholesky", "svd", "dual" } do
      local a = L.Ridge{ alpha = 0.7, shrink_to = v, solver = solver }:fit(X, y)
      local b = L.Ridge{ alpha = 0.7 }:fit(X, y - X * v)
      assert.matrix_near(b.coef + v, a.coef, 1e-9)
    end
  end)

  it("primal and dual forms agree, and KernelRidge with a linear kernel is Ridge without intercept", function()
    local Xs, ys = X:sub(1, 8, 1, 10), y:sub(1, 8, 1, 1) -- n < d: the dual's case
    local p = L.Ridge{ alpha = 0.01, solver = "svd", fit_intercept = false }:fit(Xs, ys)
    local d = L.Ridge{ alpha = 0.01, solver = "dual", fit_intercept = false }:fit(Xs, ys)
    assert.matrix_near(p.coef, d.coef, 1e-8)
    local k = L.KernelRidge{ alpha = 0.01 }:fit(Xs, ys)
    assert.matrix_near(p:predict(X:sub(9, 20)), k:predict(X:sub(9, 20)), 1e-9)
    -- the notes' alpha-hat = 2 lambda (G + lambda I)^-1 y predicts with (1/(2 lambda)) k^T alpha-hat
    local G = Xs * Xs:t()
    G:diag():add(0.01, G:diag())
    local alpha_hat = luma.linalg.solve(G, ys) * (2 * 0.01)
    assert.matrix_near((X:sub(9, 9) * Xs:t() * alpha_hat) * (1 / (2 * 0.01)), k:predict(X:sub(9, 9)), 1e-9)
  end)
end)

describe("luma.linear.RidgeCV", function()
  it("chooses alpha by efficient leave-one-out like scikit-learn", function()
    local m = L.RidgeCV{ alphas = { 0.001, 0.01, 0.1, 1, 10 }, store_cv_values = true }:fit(X, y)
    assert.equal(0.01, m.alpha)
    assert.near(-3000.392447397968, m.best_score, 1e-9)
    assert.matrix_near(row{ -7.197534480547716, -234.54976418976463, 520.5886009823199,
      320.5171305539361, -380.60713529894133, 150.48467052092838, -78.58927534225145,
      130.31252148133356, 592.3479586474887, 71.13484404961908 }, m.coef:t(), 1e-9)
    -- the shortcut equals refitting without each sample (checked on sample 7)
    local keep = {}
    for i = 1, n do if i ~= 7 then keep[#keep + 1] = i end end
    local loo = L.Ridge{ alpha = 0.01 }:fit(X:take(keep), y:take(keep))
    local err = (loo:predict(X:sub(7, 7)):get(1, 1) - y:get(7, 1)) ^ 2
    assert.near(err, m.cv_values:get(7, 2), 1e-8 * err)
  end)

  it("handles sample weights like scikit-learn (the sqrt-weighted problem)", function()
    -- RidgeCV(alphas=[...]).fit(X, y, sample_weight=np.linspace(0.5, 2, n))
    local m = L.RidgeCV{ alphas = { 0.001, 0.01, 0.1, 1, 10 } }:fit(X, y, w)
    assert.equal(0.01, m.alpha)
    assert.near(-3741.5123004096695, m.best_score, 1e-9)
    assert.matrix_near({ { 3.134346, -217.38491017 } }, m.coef:sub(1, 2):t(), 1e-7)
  end)

  it("scores generalized cross-validation against the explicit hat matrix", function()
    -- mean((r / (1 - tr(H)/n))^2) with H = Xc (Xc'Xc + a I)^-1 Xc' + 11'/n
    -- built densely in NumPy for each alpha
    local m = L.RidgeCV{ alphas = { 0.001, 0.01, 0.1, 1, 10 }, mode = "gcv", store_cv_values = true }:fit(X, y)
    assert.equal(0.01, m.alpha)
    assert.near(-3004.0299939848055, m.best_score, 1e-9)
    assert.matrix_near({ { 3006.012577407143, 3004.0299939848055, 3006.879380861959,
      3328.1514676851916, 4850.123669275328 } }, m.cv_values:mean(1), 1e-9)
  end)

  it("chooses alpha by k-fold cross-validation with a scorer", function()
    local m = L.RidgeCV{ alphas = { 0.01, 1, 100 }, cv = 5, scoring = "neg_mean_squared_error" }:fit(X, y)
    local best, best_alpha = -math.huge, nil
    for _, a in ipairs{ 0.01, 1, 100 } do
      local s = luma.model_selection.cross_val_score(L.Ridge{ alpha = a }, X, y,
        { cv = 5, scoring = "neg_mean_squared_error" }):mean()
      if s > best then best, best_alpha = s, a end
    end
    assert.equal(best_alpha, m.alpha)
    assert.near(best, m.best_score, 1e-9 * math.abs(best))
  end)
end)

describe("luma.linear.KernelRidge", function()
  it("matches scikit-learn's KernelRidge(alpha = 0.3, kernel = 'rbf', gamma = 2)", function()
    local m = L.KernelRidge{ alpha = 0.3, kernel = "rbf", gamma = 2 }:fit(X:sub(1, 50), y:sub(1, 50))
    assert.matrix_near({ { 148.17895411401852 }, { 160.51381473255773 }, { 132.4999318586828 } },
      m:predict(X:sub(51, 53)), 1e-10)
    local k = L.KernelRidge{ alpha = 0.3, kernel = luma.kernels.rbf{ gamma = 2 } }:fit(X:sub(1, 50), y:sub(1, 50))
    assert.matrix_near(m:predict(X:sub(51, 53)), k:predict(X:sub(51, 53)), 1e-12)
  end)
end)

describe("luma.linear.Lasso and ElasticNet", function()
  local LASSO = { 0, -155.34311062478312, 517.2162412028104, 275.08722292815145, -52.55203581188415,
    0, -210.13950903531085, 0, 483.9171745719903, 33.6621921432488 }
  local ENET = { 30.966755027533026, -62.713455721213734, 271.6115680191657, 180.95666802721755,
    11.361264757306413, -14.987681645252074, -139.01317500979766, 111.95353661620533,
    234.72911752212954, 107.67184258255296 }

  it("match scikit-learn in the Gram and the residual forms, cyclic and random", function()
    for _, pre in ipairs{ true, false } do
      local m = L.Lasso{ alpha = 0.1, tol = 1e-12, max_iter = 100000, precompute = pre }:fit(X, y)
      assert.matrix_near(row(LASSO), m.coef:t(), 1e-7)
      assert.near(152.13348416289602, m.intercept, 1e-10)
      local e = L.ElasticNet{ alpha = 0.01, l1_ratio = 0.7, tol = 1e-12, max_iter = 100000,
        precompute = pre, selection = "random", seed = 3 }:fit(X, y)
      assert.matrix_near(row(ENET), e.coef:t(), 1e-7)
      assert.is_true(e.dual_gap < 1e-12 * (y - y:mean()):pow(2):sum() / n)
    end
  end)

  it("support sample weights and positivity like scikit-learn", function()
    local e = L.ElasticNet{ alpha = 0.01, l1_ratio = 0.7, tol = 1e-12, max_iter = 100000 }:fit(X, y, w)
    assert.matrix_near(row{ 36.970701501020805, -54.35468777472292, 280.2774161296309,
      191.81532938067426, 14.866812544080545, -6.118302083586344, -143.06628044536117,
      113.7675331575168, 226.64161993752546, 103.47719461289785 }, e.coef:t(), 1e-7)
    assert.near(152.43761448194417, e.intercept, 1e-9)
    local p = L.Lasso{ alpha = 0.5, positive = true, tol = 1e-12, max_iter = 100000 }:fit(X, y)
    assert.matrix_near(row{ 0, 0, 485.38999161616425, 134.29085272648638, 0, 0, 0, 0,
      425.7366766588044, 0 }, p.coef:t(), 1e-7)
  end)

  it("give all zeros at alpha_max = max |x_j . y| / N and below it a nonzero coefficient", function()
    local Xc, yc = X - X:mean(1), y - y:mean()
    local alpha_max = (Xc:t() * yc):abs():max() / n
    assert.matrix_near(luma.zeros(10, 1), L.Lasso{ alpha = alpha_max * 1.0001 }:fit(X, y).coef)
    assert.is_true(L.Lasso{ alpha = alpha_max * 0.99 }:fit(X, y).coef:abs():max() > 0)
  end)

  it("warn when they stop at max_iter", function()
    local warnings = capture_warnings(function()
      L.Lasso{ alpha = 0.001, max_iter = 2, tol = 1e-14 }:fit(X, y)
    end)
    assert.truthy(warnings[1]:find("Lasso did not converge after 2 sweeps", 1, true))
  end)
end)

describe("luma.linear paths and cross-validation", function()
  it("lasso_path matches scikit-learn's grid and solutions", function()
    local Xc, yc = X - X:mean(1), y - y:mean()
    local alphas, coefs, gaps = L.lasso_path(Xc, yc, { n_alphas = 5, tol = 1e-12, max_iter = 100000 })
    assert.matrix_near({ { 2.1480435755294982 }, { 0.38198216622304942 }, { 0.067927102119651403 },
      { 0.012079336708298735 }, { 0.0021480435755294978 } }, alphas, 1e-12)
    assert.matrix_near(row{ 0, -180.16753273954015, 520.1744238589475, 288.00372550159915,
      -82.63463537284373, 0, -218.20815976335268, 0, 501.9636509592229, 46.01682635845752 },
      coefs:col(3):t(), 1e-7)
    assert.matrix_near(luma.zeros(10, 1), coefs:col(1))
    assert.equal(5, gaps:rows())
    -- each path point equals a cold fit at that alpha
    local cold = L.Lasso{ alpha = alphas:get(4, 1), fit_intercept = false, tol = 1e-12, max_iter = 100000 }:fit(Xc, yc)
    assert.matrix_near(cold.coef, coefs:col(4), 1e-7)
    local _, ecoefs = L.enet_path(Xc, yc, { alphas = { 0.01 }, l1_ratio = 0.7, tol = 1e-12, max_iter = 100000 })
    local e = L.ElasticNet{ alpha = 0.01, l1_ratio = 0.7, tol = 1e-12, max_iter = 100000 }:fit(X, y)
    assert.matrix_near(e.coef, ecoefs, 1e-7)
  end)

  it("LassoCV and ElasticNetCV choose scikit-learn's alpha (5 contiguous folds)", function()
    local m = L.LassoCV{ cv = 5, tol = 1e-8, max_iter = 100000 }:fit(X, y)
    assert.near(0.00375376715269185, m.alpha, 1e-12)
    assert.matrix_near(row{ -6.492169527488814, -236.01617189535452, 521.7104426825733,
      321.0603175116757, -569.9647785269482, 303.0082787999449, 0, 143.47399156111788,
      670.1714587072495, 66.84122185872023 }, m.coef:t(), 1e-5)
    assert.equal(100, m.mse_path:rows())
    assert.equal(5, m.mse_path:cols())
    local e = L.ElasticNetCV{ cv = 5, l1_ratio = { 0.2, 0.9 }, tol = 1e-8, max_iter = 100000 }:fit(X, y)
    assert.equal(0.9, e.l1_ratio)
    assert.near(0.002386715083921665, e.alpha, 1e-12)
    assert.near(487.5450669969478, e.coef:get(3, 1), 1e-5)
  end)
end)

describe("luma.linear bad input", function()
  it("names the problem", function()
    errors_with("bad argument #2 to 'fit' %(X has 442 rows but y has 3%)", function()
      L.LinearRegression{}:fit(X, luma.matrix{ 1, 2, 3 })
    end)
    local Xn = X:copy()
    Xn:set(5, 2, 0 / 0)
    for _, cls in ipairs{ "LinearRegression", "Ridge", "Lasso", "ElasticNet" } do
      errors_with("bad argument #1 to 'fit' %(X has a non%-finite element, nan at row 5, column 2"
        .. "; impute missing values first, e%.g%. with luma%.preprocessing%.SimpleImputer%)",
        function() L[cls]{}:fit(Xn, y) end)
    end
    errors_with("X has a non%-finite element, nan at row 5, column 2", function() L.KernelRidge{}:fit(Xn, y) end)
    local yi = y:copy()
    yi:set(3, 1, math.huge)
    errors_with("bad argument #2 to 'fit' %(y has a non%-finite element, inf at row 3, column 1%)",
      function() L.Ridge{}:fit(X, yi) end)
    -- finite values whose squares overflow are not NaN or Inf: said as they are
    errors_with("bad argument #1 to 'fit' %(X has values too large to square", function()
      L.LinearRegression{}:fit(X * 1e300, y)
    end)
    errors_with("y contains NaN", function() L.Ridge{}:fit(X, y * (0 / 0)) end)
    errors_with("alpha", function() L.Ridge{ alpha = -1 } end)
    errors_with("alpha", function() L.Lasso{ alpha = -0.1 } end)
    errors_with("l1_ratio", function() L.ElasticNet{ l1_ratio = 1.5 } end)
    errors_with("solver", function() L.LinearRegression{ solver = "lbfgs" } end)
    errors_with("sample_weight must be 442 x 1", function() L.Ridge{}:fit(X, y, luma.ones(3, 1)) end)
    errors_with("sample_weight must be finite and >= 0", function()
      L.Ridge{}:fit(X, y, luma.vstack{ luma.matrix{ 1, -1 }, luma.ones(n - 2, 1) })
    end)
    errors_with("shrink_to must be 10 x 1", function() L.Ridge{ shrink_to = luma.ones(3, 1) }:fit(X, y) end)
    errors_with("alphas%[2%] must be a finite number > 0", function() L.RidgeCV{ alphas = { 1, 0 } }:fit(X, y) end)
    errors_with("the dual solver needs alpha > 0", function() L.Ridge{ alpha = 0, solver = "dual" }:fit(X, y) end)
    errors_with("lasso_path: unknown option 'nalphas'", function() L.lasso_path(X, y, { nalphas = 3 }) end)
    errors_with("an automatic alpha grid needs l1_ratio > 0", function() L.enet_path(X, y, { l1_ratio = 0 }) end)
    errors_with("predict called before fit", function() L.Lasso{}:predict(X) end)
    errors_with("X has 3 columns but luma.linear.Ridge was fitted on 10", function()
      L.Ridge{}:fit(X, y):predict(luma.zeros(1, 3))
    end)
  end)
end)
