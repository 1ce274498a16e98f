-- luma.pairwise (distance and kernel matrices) and luma.kernels (kernel
-- objects and their algebra).  Expected values are closed forms on tiny
-- inputs, identities from notes 001 section F, and reference matrices
-- computed with scikit-learn 1.2.1 (numpy 1.24.2) by this snippet:
--
--   import numpy as np
--   from sklearn.metrics import pairwise_distances
--   from sklearn.metrics.pairwise import (linear_kernel, polynomial_kernel,
--       rbf_kernel, laplacian_kernel, sigmoid_kernel, cosine_similarity)
--   from sklearn.gaussian_process.kernels import RationalQuadratic
--   from sklearn.preprocessing import KernelCenterer
--   X = np.array([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7], [-0.8, 2.2, 0.1],
--                 [0.0, 0.9, 1.1], [2.3, -0.4, 0.6]])
--   Y = np.array([[1.0, 1.0, -1.0], [-0.5, 0.25, 0.75], [2.0, -2.0, 0.5],
--                 [0.3, 0.6, 0.9]])
--   V = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.5]])
--   euclidean = pairwise_distances(X, Y, metric="euclidean")  # likewise
--       # sqeuclidean, manhattan, chebyshev, cosine; minkowski3 with p=3;
--   mahalanobis = pairwise_distances(X, Y, metric="mahalanobis", VI=np.linalg.inv(V))
--   linear = linear_kernel(X, Y)
--   polynomial = polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1.5)
--   polynomial_default = polynomial_kernel(X, Y)
--   rbf = rbf_kernel(X, Y, gamma=0.3); rbf_default = rbf_kernel(X, Y)
--   laplacian = laplacian_kernel(X, Y, gamma=0.7)
--   sigmoid = sigmoid_kernel(X, Y, gamma=0.2, coef0=0.5)
--   sigmoid_default = sigmoid_kernel(X, Y)
--   rational_quadratic = RationalQuadratic(alpha=1.5, length_scale=0.8)(X, Y)
--   cosine_kernel = cosine_similarity(X, Y)
--   kc = KernelCenterer().fit(rbf_kernel(X, gamma=0.3))
--   centered = kc.transform(rbf_kernel(X, gamma=0.3))
--   centered_test = kc.transform(rbf_kernel(Y, X, gamma=0.3))
--   # each printed with repr() of every element
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local M = luma.matrix
local pairwise = luma.pairwise
local kernels = luma.kernels

local X_ROWS = {{0.5, -1.2, 2.0}, {1.5, 0.3, -0.7}, {-0.8, 2.2, 0.1}, {0.0, 0.9, 1.1},
  {2.3, -0.4, 0.6}}
local Y_ROWS = {{1.0, 1.0, -1.0}, {-0.5, 0.25, 0.75}, {2.0, -2.0, 0.5}, {0.3, 0.6, 0.9}}
local V_ROWS = {{2.0, 0.3, 0.1}, {0.3, 1.0, 0.2}, {0.1, 0.2, 1.5}}

local REF = {
  euclidean = {{3.753664875824692, 2.1598611066455176, 2.2671568097509267, 2.118962010041709},
    {0.9110433579144297, 2.470829820121167, 2.6419689627245813, 2.0223748416156684},
    {2.4269322199023193, 2.077257807784099, 5.063595560468865, 2.1},
    {2.3280893453645635, 0.8916277250063506, 3.5735136770411273, 0.4690415759823429},
    {2.4919871588754225, 2.878367592924851, 1.6309506430300094, 2.2561028345356955}},
  sqeuclidean = {{14.09, 4.665, 5.140000000000001, 4.489999999999999},
    {0.8300000000000001, 6.105, 6.979999999999999, 4.090000000000001},
    {5.890000000000001, 4.315, 25.64, 4.41},
    {5.42, 0.7950000000000002, 12.77, 0.22000000000000006},
    {6.21, 8.285, 2.66, 5.089999999999999}},
  manhattan = {{5.7, 3.7, 3.8, 3.0999999999999996},
    {1.5, 3.5, 4.0, 3.1},
    {4.1, 2.9, 7.4, 3.5},
    {3.2, 1.5, 5.5, 0.8000000000000002},
    {4.3, 3.5999999999999996, 2.0, 3.3}},
  chebyshev = {{3.0, 1.45, 1.5, 1.7999999999999998},
    {0.7, 2.0, 2.3, 1.6},
    {1.8, 1.9500000000000002, 4.2, 1.6},
    {2.1, 0.65, 2.9, 0.30000000000000004},
    {1.6, 2.8, 1.6, 1.9999999999999998}},
  minkowski3 = {{3.3552675723853773, 1.8172972401612875, 1.9365055597473348, 1.9283827629145107},
    {0.7910459893465202, 2.2272606741488, 2.4112894048835054, 1.8019526135778225},
    {2.071652317148223, 1.9760903022214142, 4.580509849611957, 1.8109415855252566},
    {2.1730881159926385, 0.7620282847844296, 3.1946851880455083, 0.3957891609680406},
    {2.0829304109676245, 2.8117701810051456, 1.6036375571773234, 2.0821618302510205}},
  cosine = {{1.6535021242215198, 0.5742413838845002, 0.35780108274281286, 0.5406288615595923},
    {0.14200222118177452, 1.7625775256225122, 0.5757384551446029, 1.0},
    {0.6796707825863517, 0.5323362942667441, 1.8841049440724533, 0.5551491579610494},
    {1.0812444463702389, 0.21021371483316842, 1.3062015283070836, 0.04097379658313316},
    {0.6886171719025527, 1.3548116688943237, 0.17669677766907455, 0.6341004664527288}},
  mahalanobis = {{3.598259356727599, 2.177872542722145, 1.8771089084876365, 2.226362904667501},
    {0.9369043377365742, 1.9001727868858476, 2.8042141131250533, 1.6260681400179213},
    {2.1081539035929757, 2.219826181062357, 5.213861902494627, 2.162554403952377},
    {1.9084161983378314, 0.7088552605497416, 3.567479594422373, 0.429742790706644},
    {2.4164399260148697, 2.2635233275413014, 1.6152418084450493, 1.945425111939376}},
  linear = {{-2.7, 0.95, 4.4, 1.23},
    {2.5, -1.2, 2.05, -8.215650382226158e-17},
    {1.3, 1.0250000000000001, -5.95, 1.1700000000000002},
    {-0.20000000000000007, 1.05, -1.25, 1.5300000000000002},
    {1.2999999999999998, -0.8, 5.699999999999999, 0.99}},
  polynomial = {{0.022499999999999975, 3.9006250000000002, 13.690000000000001, 4.473225000000001},
    {7.5625, 0.81, 6.375624999999999, 2.25},
    {4.6225, 4.050156250000001, 2.175625, 4.347225},
    {1.9599999999999997, 4.100625, 0.765625, 5.130225},
    {4.6225, 1.2100000000000002, 18.922499999999996, 3.9800250000000004}},
  polynomial_default = {{0.0009999999999999994, 2.2825879629629626, 15.008296296296297, 2.8032209999999993},
    {6.162037037037036, 0.21600000000000008, 4.769912037037035, 1.0},
    {2.944703703703704, 2.415093171296297, -0.9508287037037039, 2.6856190000000004},
    {0.8130370370370371, 2.4603750000000004, 0.1984953703703704, 3.442951},
    {2.9447037037037025, 0.3943703703703704, 24.388999999999985, 2.352637}},
  rbf = {{0.014596113271353755, 0.24672029325333594, 0.21395276770062832, 0.2600191491764588},
    {0.7795799733847004, 0.16017312779857498, 0.12319337545326038, 0.29317077204680525},
    {0.170844755057409, 0.27403484750655116, 0.000456464329538403, 0.26633509696760377},
    {0.196714861952017, 0.787808688257141, 0.021687916865409183, 0.9361308642916188},
    {0.15520631230372822, 0.08328390214878552, 0.4502285213027891, 0.21718624970359976}},
  rbf_default = {{0.009125645277542541, 0.2111893826409712, 0.180263910336165, 0.2238751683394207},
    {0.7583072240616971, 0.1306804825040251, 0.09762060737951801, 0.2558066653405763},
    {0.14038967452931875, 0.23732296752914753, 0.00019419132633622643, 0.2299254851867238},
    {0.16420056079274842, 0.7672059499758557, 0.014169455296014193, 0.9292910147212036},
    {0.12618578170503877, 0.06318636993545926, 0.4120268892193944, 0.18329348516999386}},
  laplacian = {{0.01849971411981925, 0.07502004008532696, 0.06994822174465538, 0.11417761691083655},
    {0.3499377491111554, 0.08629358649937054, 0.06081006262521798, 0.1141776169108365},
    {0.05669892657984693, 0.1313355211484931, 0.005628006414404066, 0.08629358649937054},
    {0.10645850437925285, 0.3499377491111554, 0.021279736438377175, 0.5712090638488148},
    {0.04929167876046217, 0.08045960674953247, 0.24659696394160652, 0.09926125155964569}},
  sigmoid = {{-0.039978680311163604, 0.5979820004989412, 0.880951268046997, 0.6327565437703541},
    {0.7615941559557649, 0.25429553262639115, 0.7211322540766998, 0.46211715726000974},
    {0.6410769611853464, 0.6075318872684418, -0.5979820004989413, 0.6255064110706863},
    {0.43008421140197944, 0.6106768328168442, 0.24491866240370913, 0.6673777499823074},
    {0.6410769611853464, 0.3274773948087053, 0.9274725672507034, 0.6030967633123073}},
  sigmoid_default = {{0.09966799462495579, 0.8659525778543281, 0.985698098721393, 0.8874941328536652},
    {0.9501511467057719, 0.5370495669980353, 0.933292775345849, 0.7615941559557649},
    {0.892347674461541, 0.872071978584058, -0.7545052589201566, 0.8831708889152076},
    {0.7321442233518527, 0.874053287886007, 0.525083943312195, 0.9069390509705371},
    {0.8923476744615408, 0.6251004140085176, 0.9939631673505832, 0.8692493331488548}},
  rational_quadratic = {{0.04153027866250361, 0.15744112128299204, 0.14182238726311838, 0.1639324006420115},
    {0.583381700831895, 0.1170265175117983, 0.10019979501944312, 0.18056772862302958},
    {0.12189202504810333, 0.17088232972063766, 0.018387937680957925, 0.16704992232256652},
    {0.13378510171888205, 0.5946988410796684, 0.047251886202045415, 0.8498282876022102},
    {0.11476673449673909, 0.08160792388170304, 0.2714273621500217, 0.14334244768128587}},
  cosine_kernel = {{-0.6535021242215198, 0.42575861611549976, 0.6421989172571871, 0.45937113844040767},
    {0.8579977788182255, -0.7625775256225122, 0.42426154485539713, -1.530805265200702e-17},
    {0.3203292174136483, 0.4676637057332559, -0.8841049440724532, 0.44485084203895064},
    {-0.08124444637023878, 0.7897862851668316, -0.30620152830708364, 0.9590262034168668},
    {0.3113828280974474, -0.3548116688943236, 0.8233032223309255, 0.36589953354727117}},
  centered = {{0.7587930666984861, -0.25598964483618425, -0.23938485137170273, -0.13408489768247533, -0.1293336728081238},
    {-0.25598964483618425, 0.644545694842559, -0.2457124634250486, -0.2120875005250229, 0.06924391394369661},
    {-0.23938485137170273, -0.2457124634250486, 0.7497207038950704, 0.03584026632317938, -0.30046365542149833},
    {-0.13408489768247533, -0.2120875005250229, 0.03584026632317938, 0.5854648195239625, -0.27513268763964394},
    {-0.1293336728081238, 0.06924391394369661, -0.30046365542149833, -0.27513268763964394, 0.6356861019255693}},
  centered_test = {{-0.20681679526180963, 0.5010433789235733, -0.05510433487746225, -0.11136217016840821, -0.1277600786158936},
    {-0.021708383878863424, -0.16537923526158804, 0.001069988972643876, 0.4327158875376798, -0.2466982573698724},
    {0.0940244532309816, -0.05385862494435001, -0.12400803154181628, -0.18490452119149936, 0.2687467244466839},
    {-0.09257378260008009, -0.11654584565769732, -0.09079401621064304, 0.4968738089278181, -0.19696016445939757}},
}

-- The same rows in four layouts: contiguous, transposed storage (row
-- stride 1), a block inside a larger matrix (row stride > columns), and a
-- block of a transposed matrix (row stride 1, column stride > rows).
local function layouts(rows)
  local n, d = #rows, #rows[1]
  local tr = {}
  for j = 1, d do
    tr[j] = {}
    for i = 1, n do tr[j][i] = rows[i][j] end
  end
  local block = luma.full(n + 2, d + 3, 99):sub(2, n + 1, 3, d + 2)
  local tblock = luma.full(d + 3, n + 2, 99):sub(2, d + 1, 2, n + 1):t()
  for i = 1, n do
    for j = 1, d do
      block:set(i, j, rows[i][j])
      tblock:set(i, j, rows[i][j])
    end
  end
  return { contiguous = M(rows), transposed = M(tr):t(), block = block,
    transposed_block = tblock }
end

local function fails_with(text, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error containing: " .. text)
  assert.is_truthy(tostring(err):find(text, 1, true),
    "error '" .. tostring(err) .. "' does not contain '" .. text .. "'")
end

local function is_symmetric(A)
  local n = A:rows()
  for i = 1, n do
    for j = i + 1, n do
      if A:get(i, j) ~= A:get(j, i) then return false end
    end
  end
  return true
end

local function diagonal_is(A, v)
  for i = 1, A:rows() do
    if A:get(i, i) ~= v then return false end
  end
  return true
end

local function quadratic_form(K, v)
  return (v:t() * K * v):get(1, 1)
end

local sqrt = math.sqrt

describe("pairwise.distances #smoke", function()
  -- (0,0), (3,4), (1,1): every pairwise difference is small integers.
  local T = M{{0, 0}, {3, 4}, {1, 1}}

  it("computes each metric in closed form on three points", function()
    assert.matrix_near({{0, 5, sqrt(2)}, {5, 0, sqrt(13)}, {sqrt(2), sqrt(13), 0}},
      pairwise.distances(T), 1e-15)
    assert.matrix_near({{0, 25, 2}, {25, 0, 13}, {2, 13, 0}},
      pairwise.distances(T, "sqeuclidean"), 1e-15)
    assert.matrix_near({{0, 7, 2}, {7, 0, 5}, {2, 5, 0}}, pairwise.distances(T, "manhattan"))
    assert.matrix_near({{0, 7, 2}, {7, 0, 5}, {2, 5, 0}}, pairwise.distances(T, "cityblock"))
    assert.matrix_near({{0, 4, 1}, {4, 0, 3}, {1, 3, 0}}, pairwise.distances(T, "chebyshev"))
    local c = 1 / 3
    assert.matrix_near({{0, 91 ^ c, 2 ^ c}, {91 ^ c, 0, 35 ^ c}, {2 ^ c, 35 ^ c, 0}},
      pairwise.distances(T, "minkowski", {p = 3}), 1e-15)
    -- cosine: the zero vector is at distance 1 from the others (scikit-learn's
    -- rule), 0 from itself; (3,4).(1,1) = 7 = 5 * sqrt(2) * cos.
    assert.matrix_near({{0, 1, 1}, {1, 0, 1 - 7 / (5 * sqrt(2))}, {1, 1 - 7 / (5 * sqrt(2)), 0}},
      pairwise.distances(T, "cosine"), 1e-15)
  end)

  it("computes Mahalanobis distances with a diagonal covariance in closed form", function()
    -- cov = diag(4, 1): (0,0)-(3,4) is sqrt(9/4 + 16), (0,0)-(1,1) sqrt(1/4 + 1).
    local D = pairwise.distances(T, "mahalanobis", {cov = M{{4, 0}, {0, 1}}})
    assert.matrix_near({{0, sqrt(9 / 4 + 16), sqrt(5 / 4)}, {sqrt(9 / 4 + 16), 0, sqrt(1 + 9)},
      {sqrt(5 / 4), sqrt(10), 0}}, D, 1e-15)
    assert.matrix_near(D, pairwise.distances(T, "mahalanobis", {VI = M{{0.25, 0}, {0, 1}}}),
      1e-15)
  end)

  it("matches scikit-learn on every metric", function()
    local X, Y = M(X_ROWS), M(Y_ROWS)
    for _, metric in ipairs({"euclidean", "sqeuclidean", "manhattan", "chebyshev", "cosine"}) do
      assert.matrix_near(REF[metric], pairwise.distances(X, Y, metric), 1e-12)
    end
    assert.matrix_near(REF.minkowski3, pairwise.distances(X, Y, "minkowski", {p = 3}), 1e-12)
    assert.matrix_near(REF.mahalanobis, pairwise.distances(X, Y, "mahalanobis",
      {cov = M(V_ROWS)}), 1e-12)
    -- minkowski with p = 1, 2 and inf are the other metrics
    assert.matrix_near(REF.manhattan, pairwise.distances(X, Y, "minkowski", {p = 1}), 1e-14)
    assert.matrix_near(REF.euclidean, pairwise.distances(X, Y, "minkowski", {p = 2}), 1e-14)
    assert.matrix_near(REF.chebyshev, pairwise.distances(X, Y, "minkowski", {p = math.huge}))
  end)

  it("defaults to Euclidean and accepts a nil Y placeholder", function()
    local X = M(X_ROWS)
    local D = pairwise.distances(X)
    assert.is_true(D:equal(pairwise.distances(X, nil, "euclidean")))
    assert.is_true(D:equal(pairwise.distances(X, nil, nil, {})))
    assert.is_true(pairwise.distances(X, "manhattan"):equal(pairwise.distances(X, nil,
      "manhattan")))
  end)

  for _, metric in ipairs({"euclidean", "sqeuclidean", "manhattan", "chebyshev", "minkowski",
    "cosine", "mahalanobis"}) do
    local opts = ({minkowski = {p = 2.5}, mahalanobis = {cov = M(V_ROWS)}})[metric]
    it("gives an exactly symmetric " .. metric .. " matrix with a zero diagonal", function()
      local X = M(X_ROWS)
      local D = pairwise.distances(X, metric, opts)
      assert.is_true(is_symmetric(D))
      assert.is_true(diagonal_is(D, 0))
      -- X passed twice is the same self case
      assert.is_true(D:equal(pairwise.distances(X, X, metric, opts)))
      -- and the self case agrees with a copy of X as Y, up to the BLAS form's
      -- cancellation on the copy's diagonal (about sqrt(eps) |x|)
      assert.matrix_near(D, pairwise.distances(X, X:copy(), metric, opts), 1e-7)
    end)
  end

  it("satisfies the triangle inequality for the true metrics", function()
    local rows = {}
    for i = 1, 9 do rows[i] = {math.sin(i), math.cos(2 * i), math.sin(3 * i + 1)} end
    local X = M(rows)
    for _, metric in ipairs({"euclidean", "manhattan", "chebyshev", "minkowski",
      "mahalanobis"}) do
      local opts = ({minkowski = {p = 3}, mahalanobis = {cov = M(V_ROWS)}})[metric]
      local D = pairwise.distances(X, metric, opts)
      for i = 1, 9 do
        for j = 1, 9 do
          for k = 1, 9 do
            assert.is_true(D:get(i, j) <= D:get(i, k) + D:get(k, j) + 1e-12, metric)
          end
        end
      end
    end
  end)

  it("gives Euclidean distances for Mahalanobis with cov = I", function()
    local X, Y = M(X_ROWS), M(Y_ROWS)
    assert.matrix_near(pairwise.distances(X, Y), pairwise.distances(X, Y, "mahalanobis",
      {cov = luma.eye(3)}), 1e-14)
    assert.matrix_near(pairwise.distances(X, Y), pairwise.distances(X, Y, "mahalanobis",
      {VI = luma.eye(3)}), 1e-14)
  end)

  it("clamps the cancellation error of |x|^2 + |y|^2 - 2 x.y at zero", function()
    -- For these two numbers (found by search with numpy), a*a + b*b - 2*a*b
    -- rounds to -4.44e-16 while the true squared distance is (b - a)^2 > 0.
    local a, b = 1.0002997118905375, 1.0002997118905428
    assert.is_true(a * a + b * b - 2 * (a * b) < 0)
    assert.equal(0, pairwise.distances(M{a}, M{b}):get(1, 1))
    assert.equal(0, pairwise.distances(M{a}, M{b}, "sqeuclidean"):get(1, 1))
    assert.equal(1, pairwise.kernel(M{a}, M{b}, "rbf"):get(1, 1))
    -- the direct form (minkowski p = 2) has no cancellation
    assert.equal(b - a, pairwise.distances(M{a}, M{b}, "minkowski", {p = 2}):get(1, 1))
    -- far from the origin the BLAS form loses everything (the documented
    -- caveat) but stays >= 0; the self case still has an exact zero diagonal
    local F = M{{1e8 + 0.1, 1e8 + 0.3, -1e8}}
    assert.is_true(pairwise.distances(F, F:copy()):get(1, 1) >= 0)
    assert.equal(0, pairwise.distances(F):get(1, 1))
  end)

  for name, X in pairs(layouts(X_ROWS)) do
    it("gives the same distances for " .. name .. " input", function()
      for yname, Y in pairs(layouts(Y_ROWS)) do
        for _, metric in ipairs({"euclidean", "sqeuclidean", "manhattan", "chebyshev", "cosine"}) do
          assert.matrix_near(REF[metric], pairwise.distances(X, Y, metric), 1e-12)
        end
        assert.matrix_near(REF.minkowski3, pairwise.distances(X, Y, "minkowski", {p = 3}), 1e-12)
        assert.matrix_near(REF.mahalanobis, pairwise.distances(X, Y, "mahalanobis",
          {cov = layouts(V_ROWS)[yname]}), 1e-12)
      end
      local Xc = M(X_ROWS)
      for _, metric in ipairs({"euclidean", "manhattan", "cosine"}) do
        assert.matrix_near(pairwise.distances(Xc, metric), pairwise.distances(X, metric), 1e-12)
      end
    end)
  end

  it("writes into opts.out of any layout and returns it", function()
    local X, Y = M(X_ROWS), M(Y_ROWS)
    local out = luma.zeros(5, 4)
    assert.equal(out, pairwise.distances(X, Y, "euclidean", {out = out}))
    assert.matrix_near(REF.euclidean, out, 1e-12)
    -- stored transposed: the BLAS path computes the transposed problem
    local outT = luma.zeros(4, 5)
    assert.equal(outT:t():get(1, 1), 0)
    local tview = outT:t()
    assert.equal(tview, pairwise.distances(X, Y, "cosine", {out = tview}))
    assert.matrix_near(REF.cosine, tview, 1e-12)
    -- a block of a larger matrix: the rest is untouched
    local big = luma.full(7, 6, -1)
    local block = big:sub(2, 6, 2, 5)
    pairwise.distances(X, Y, "manhattan", {out = block})
    assert.matrix_near(REF.manhattan, block, 1e-12)
    assert.equal(-1, big:get(1, 1))
    assert.equal(-1, big:get(7, 6))
    local sq = luma.zeros(5, 5)
    pairwise.distances(X, "sqeuclidean", {out = sq:t()})
    assert.is_true(is_symmetric(sq) and diagonal_is(sq, 0))
    assert.matrix_near(pairwise.distances(X, "sqeuclidean"), sq, 1e-15)
  end)

  it("gives NaN in the rows and columns of a row holding NaN", function()
    local X = M{{0, 0}, {0 / 0, 1}, {3, 4}}
    for _, metric in ipairs({"euclidean", "manhattan", "chebyshev", "cosine", "minkowski"}) do
      local D = pairwise.distances(X, metric, {p = metric == "minkowski" and 3 or nil})
      for k = 1, 3 do
        assert.is_true(D:get(2, k) ~= D:get(2, k), metric)
        assert.is_true(D:get(k, 2) ~= D:get(k, 2), metric)
      end
      assert.is_true(D:get(1, 3) == D:get(1, 3) and D:get(1, 1) == 0, metric)
      local C = pairwise.distances(X, M{{1, 1}}, metric, {p = metric == "minkowski" and 3 or nil})
      assert.is_true(C:get(2, 1) ~= C:get(2, 1) and C:get(1, 1) == C:get(1, 1), metric)
    end
  end)

  it("handles empty inputs and zero features", function()
    local D = pairwise.distances(luma.zeros(0, 3), M(Y_ROWS))
    assert.same({0, 4}, {D:shape()})
    assert.same({0, 0}, {pairwise.distances(luma.zeros(0, 3), "manhattan"):shape()})
    assert.matrix_near({{0, 0}, {0, 0}}, pairwise.distances(luma.zeros(2, 0)))
    assert.matrix_near({{0, 0}, {0, 0}}, pairwise.distances(luma.zeros(2, 0), "chebyshev"))
    assert.matrix_near({{1, 1}}, pairwise.kernel(luma.zeros(1, 0), luma.zeros(2, 0), "rbf"))
  end)

  describe("rejects bad input", function()
    local X, Y = M(X_ROWS), M(Y_ROWS)

    it("names the function and the problem", function()
      fails_with("bad argument #1 to", pairwise.distances, {{1, 2}})
      fails_with("luma.Matrix expected, got table", pairwise.distances, {{1, 2}})
      fails_with("X is 5 x 3 but Y is 2 x 2 (they need the same number of columns)",
        pairwise.distances, X, M{{1, 2}, {3, 4}})
      fails_with("unknown metric 'euclid' (valid: euclidean, sqeuclidean, manhattan, cityblock, "
        .. "chebyshev, minkowski, cosine, mahalanobis)", pairwise.distances, X, "euclid")
      fails_with("matrix Y or metric name expected, got number", pairwise.distances, X, 3)
      fails_with("metric name expected, got table", pairwise.distances, X, Y, {p = 2})
      fails_with("options table expected, got string", pairwise.distances, X, "euclidean", "p")
      fails_with("unknown option 'p' for metric 'euclidean' (valid: out)",
        pairwise.distances, X, "euclidean", {p = 2})
      fails_with("unknown option 'gamma' for metric 'minkowski' (valid: p, out)",
        pairwise.distances, X, "minkowski", {p = 2, gamma = 1})
    end)

    it("checks the Minkowski exponent", function()
      fails_with("minkowski needs opts.p", pairwise.distances, X, "minkowski")
      fails_with("p must be a number >= 1 (math.huge: Chebyshev), got 0.5",
        pairwise.distances, X, "minkowski", {p = 0.5})
      fails_with("p must be a number >= 1", pairwise.distances, X, "minkowski", {p = 0 / 0})
      fails_with("p must be a number >= 1 (math.huge: Chebyshev), got a string",
        pairwise.distances, X, "minkowski", {p = "2"})
    end)

    it("checks the Mahalanobis covariance", function()
      fails_with("mahalanobis needs opts.cov (the covariance matrix) or opts.VI (its inverse)",
        pairwise.distances, X, "mahalanobis")
      fails_with("give opts.cov or opts.VI, not both", pairwise.distances, X, "mahalanobis",
        {cov = luma.eye(3), VI = luma.eye(3)})
      fails_with("cov must be a luma.Matrix, got a table", pairwise.distances, X, "mahalanobis",
        {cov = {{1}}})
      fails_with("cov is 2 x 2 but X has 3 columns (it must be 3 x 3)", pairwise.distances, X,
        Y, "mahalanobis", {cov = luma.eye(2)})
      fails_with("VI is 3 x 2 but X has 3 columns", pairwise.distances, X, "mahalanobis",
        {VI = luma.zeros(3, 2)})
      fails_with("cov is not positive definite", pairwise.distances, X, "mahalanobis",
        {cov = M{{1, 2, 0}, {2, 1, 0}, {0, 0, 1}}})
      fails_with("VI is not positive definite", pairwise.distances, X, "mahalanobis",
        {VI = luma.zeros(3, 3)})
      fails_with("cov is not symmetric", pairwise.distances, X, "mahalanobis",
        {cov = M{{2, 1, 0}, {0, 2, 0}, {0, 0, 1}}})
      fails_with("cov has NaN or infinite elements", pairwise.distances, X, "mahalanobis",
        {cov = M{{0 / 0, 0, 0}, {0, 1, 0}, {0, 0, 1}}})
    end)

    it("checks opts.out", function()
      fails_with("out is 5 x 5 but the result is 5 x 4", pairwise.distances, X, Y, "euclidean",
        {out = luma.zeros(5, 5)})
      fails_with("out must be a luma.Matrix, got a number", pairwise.distances, X, "euclidean",
        {out = 1})
      local A = luma.zeros(4, 4)
      fails_with("out shares memory with X", pairwise.distances, A, "manhattan", {out = A})
      local B = luma.zeros(4, 8)
      fails_with("out shares memory with Y", pairwise.distances, luma.zeros(4, 3),
        B:sub(1, 4, 1, 3), "euclidean", {out = B:sub(1, 4, 5, 8)})
    end)
  end)
end)

describe("pairwise.kernel #smoke", function()
  local X, Y = M(X_ROWS), M(Y_ROWS)

  it("matches scikit-learn on every kernel", function()
    assert.matrix_near(REF.linear, pairwise.kernel(X, Y, "linear"), 1e-13)
    assert.matrix_near(REF.polynomial, pairwise.kernel(X, Y, "polynomial",
      {degree = 2, gamma = 0.5, coef0 = 1.5}), 1e-13)
    assert.matrix_near(REF.polynomial_default, pairwise.kernel(X, Y, "polynomial"), 1e-13)
    assert.matrix_near(REF.rbf, pairwise.kernel(X, Y, "rbf", {gamma = 0.3}), 1e-13)
    assert.matrix_near(REF.rbf_default, pairwise.kernel(X, Y, "rbf"), 1e-13)
    assert.matrix_near(REF.laplacian, pairwise.kernel(X, Y, "laplacian", {gamma = 0.7}), 1e-13)
    assert.matrix_near(REF.sigmoid, pairwise.kernel(X, Y, "sigmoid",
      {gamma = 0.2, coef0 = 0.5}), 1e-13)
    assert.matrix_near(REF.sigmoid_default, pairwise.kernel(X, Y, "sigmoid"), 1e-13)
    assert.matrix_near(REF.rational_quadratic, pairwise.kernel(X, Y, "rational_quadratic",
      {alpha = 1.5, length_scale = 0.8}), 1e-13)
    assert.matrix_near(REF.cosine_kernel, pairwise.kernel(X, Y, "cosine"), 1e-13)
  end)

  it("equals the explicit quadratic feature map (notes 001 L1275)", function()
    -- phi(x) = [1, sqrt2 x1, x1^2, sqrt2 x1 x2, x2^2, sqrt2 x2]; phi(x).phi(y) = (x.y + 1)^2;
    -- x = (1, 2), y = (3, -1) gives (1 + 1)^2 = 4.
    local function phi(x1, x2)
      local r = sqrt(2)
      return M{{1, r * x1, x1 * x1, r * x1 * x2, x2 * x2, r * x2}}
    end
    local P = {{1, 2}, {3, -1}, {0.5, -0.25}}
    local K = pairwise.kernel(M(P), "polynomial", {degree = 2, gamma = 1, coef0 = 1})
    assert.equal(4, K:get(1, 2))
    for i = 1, 3 do
      for j = 1, 3 do
        assert.near(phi(P[i][1], P[i][2]):dot(phi(P[j][1], P[j][2])), K:get(i, j), 1e-13)
      end
    end
  end)

  it("factors the RBF kernel as in notes 001 L710 and equals exp(-gamma sqeuclidean)", function()
    local K = pairwise.kernel(X, Y, "rbf", {gamma = 0.3})
    assert.matrix_near(pairwise.distances(X, Y, "sqeuclidean"):mul(-0.3):exp(), K, 1e-14)
    local nx, ny = X:mul(X):sum(2), Y:mul(Y):sum(2)
    for i = 1, 5 do
      for j = 1, 4 do
        local xy = X:row(i):dot(Y:row(j))
        assert.near(math.exp(-0.3 * nx:get(i, 1)) * math.exp(-0.3 * ny:get(j, 1))
          * math.exp(0.6 * xy), K:get(i, j), 1e-13)
      end
    end
    assert.matrix_near(pairwise.distances(X, Y, "manhattan"):mul(-0.7):exp(),
      pairwise.kernel(X, Y, "laplacian", {gamma = 0.7}), 1e-14)
  end)

  it("reaches the extremes 1 and -1 on unit vectors (notes 001 L658-661)", function()
    local U = M{{0.6, 0.8}, {-0.6, -0.8}}
    assert.matrix_near({{1, -1}, {-1, 1}}, pairwise.kernel(U, "linear"), 1e-15)
    assert.matrix_near({{1, -1}, {-1, 1}}, pairwise.kernel(U, "cosine"), 1e-15)
  end)

  for _, name in ipairs({"linear", "polynomial", "rbf", "laplacian", "sigmoid",
    "rational_quadratic", "cosine"}) do
    it("gives an exactly symmetric " .. name .. " Gram matrix matching kernel_diag", function()
      local K = pairwise.kernel(X, name)
      assert.is_true(is_symmetric(K))
      assert.is_true(K:equal(pairwise.kernel(X, X, name)))
      assert.matrix_near(pairwise.kernel(X, X:copy(), name), K, 1e-13)
      local d = pairwise.kernel_diag(X, name)
      assert.same({5, 1}, {d:shape()})
      for i = 1, 5 do assert.near(K:get(i, i), d:get(i, 1), 1e-13) end
    end)
  end

  it("gives exact unit diagonals for the stationary kernels in the self case", function()
    for _, name in ipairs({"rbf", "laplacian", "rational_quadratic", "cosine"}) do
      assert.is_true(diagonal_is(pairwise.kernel(X, name), 1), name)
      assert.matrix_near({{1}, {1}, {1}, {1}, {1}}, pairwise.kernel_diag(X, name), 0)
    end
    -- a zero vector has cosine similarity 0 with everything, itself included
    local Z = M{{0, 0}, {1, 2}}
    assert.matrix_near({{0, 0}, {0, 1}}, pairwise.kernel(Z, "cosine"), 1e-15)
    assert.matrix_near({{0}, {1}}, pairwise.kernel_diag(Z, "cosine"), 0)
  end)

  it("gives a positive semi-definite polynomial Gram matrix (spot check)", function()
    local rows = {}
    for i = 1, 8 do rows[i] = {math.sin(i), math.cos(3 * i), 0.5 * i - 2} end
    local K = pairwise.kernel(M(rows), "polynomial", {degree = 3, gamma = 0.5, coef0 = 1})
    local vectors = {luma.ones(8, 1), M{1, -1, 1, -1, 1, -1, 1, -1},
      M{0.3, -2, 1, 0.5, -0.7, 0.1, 0.9, -1.1}, M{1, 0, 0, 0, 0, 0, 0, -1}}
    for _, v in ipairs(vectors) do
      assert.is_true(quadratic_form(K, v) >= -1e-9 * K:norm())
    end
  end)

  for name, Xl in pairs(layouts(X_ROWS)) do
    it("gives the same Gram matrices for " .. name .. " input", function()
      for _, Yl in pairs(layouts(Y_ROWS)) do
        assert.matrix_near(REF.linear, pairwise.kernel(Xl, Yl, "linear"), 1e-13)
        assert.matrix_near(REF.rbf, pairwise.kernel(Xl, Yl, "rbf", {gamma = 0.3}), 1e-13)
        assert.matrix_near(REF.laplacian, pairwise.kernel(Xl, Yl, "laplacian", {gamma = 0.7}),
          1e-13)
        assert.matrix_near(REF.cosine_kernel, pairwise.kernel(Xl, Yl, "cosine"), 1e-13)
      end
      assert.matrix_near(pairwise.kernel(X, "polynomial"), pairwise.kernel(Xl, "polynomial"),
        1e-13)
      assert.matrix_near(pairwise.kernel_diag(X, "sigmoid"), pairwise.kernel_diag(Xl, "sigmoid"),
        1e-15)
    end)
  end

  it("writes into opts.out", function()
    local out = luma.zeros(4, 5):t()
    assert.equal(out, pairwise.kernel(X, Y:copy():t():t(), "rbf", {gamma = 0.3, out = out}))
    assert.matrix_near(REF.rbf, out, 1e-13)
    local d = luma.zeros(5, 1)
    assert.equal(d, pairwise.kernel_diag(X, "linear", {out = d}))
    assert.matrix_near(X:mul(X):sum(2), d, 1e-15)
  end)

  it("gives NaN in the rows of a row holding NaN", function()
    local Xn = M{{0, 0}, {0 / 0, 1}, {3, 4}}
    for _, name in ipairs({"linear", "rbf", "laplacian", "cosine"}) do
      local K = pairwise.kernel(Xn, name)
      for k = 1, 3 do assert.is_true(K:get(2, k) ~= K:get(2, k), name) end
      assert.is_true(K:get(1, 3) == K:get(1, 3), name)
      local d = pairwise.kernel_diag(Xn, name)
      assert.is_true(d:get(2, 1) ~= d:get(2, 1), name)
    end
  end)

  describe("rejects bad input", function()
    it("names the problem", function()
      fails_with("kernel name expected", pairwise.kernel, X)
      fails_with("unknown kernel 'gaussian' (valid: linear, polynomial, rbf, laplacian, sigmoid, "
        .. "rational_quadratic, cosine)", pairwise.kernel, X, "gaussian")
      fails_with("X is 5 x 3 but Y is 1 x 2", pairwise.kernel, X, M{{1, 2}}, "linear")
      fails_with("unknown option 'gama' for kernel 'rbf' (valid: gamma, out)",
        pairwise.kernel, X, "rbf", {gama = 1})
      fails_with("unknown option 'gamma' for kernel 'linear' (valid: out)",
        pairwise.kernel, X, "linear", {gamma = 1})
      fails_with("gamma must be a finite number > 0, got -1", pairwise.kernel, X, "rbf",
        {gamma = -1})
      fails_with("gamma must be a finite number > 0, got inf", pairwise.kernel, X, "laplacian",
        {gamma = math.huge})
      fails_with("coef0 must be a finite number, got NaN", pairwise.kernel, X, "sigmoid",
        {coef0 = 0 / 0})
      fails_with("degree must be an integer >= 1, got 2.5", pairwise.kernel, X, "polynomial",
        {degree = 2.5})
      fails_with("degree must be an integer >= 1, got 0", pairwise.kernel, X, "polynomial",
        {degree = 0})
      fails_with("alpha must be a finite number > 0, got 0", pairwise.kernel, X,
        "rational_quadratic", {alpha = 0})
      fails_with("length_scale must be a finite number > 0, got a boolean", pairwise.kernel, X,
        "rational_quadratic", {length_scale = true})
      fails_with("out is 5 x 5 but the result is 5 x 1", pairwise.kernel_diag, X, "rbf",
        {out = luma.zeros(5, 5)})
      fails_with("unknown kernel 'poly'", pairwise.kernel_diag, X, "poly")
      fails_with("luma.Matrix expected, got nil", pairwise.kernel_diag, nil, "rbf")
    end)
  end)
end)

describe("luma.kernels #smoke", function()
  local X, Y = M(X_ROWS), M(Y_ROWS)

  it("evaluates base kernels through pairwise.kernel", function()
    assert.matrix_near(REF.rbf, kernels.rbf{gamma = 0.3}(X, Y), 1e-13)
    assert.matrix_near(REF.polynomial, kernels.polynomial{degree = 2, gamma = 0.5,
      coef0 = 1.5}(X, Y), 1e-13)
    assert.matrix_near(REF.polynomial_default, kernels.polynomial()(X, Y), 1e-13)
    assert.matrix_near(REF.laplacian, kernels.laplacian{gamma = 0.7}(X, Y), 1e-13)
    assert.matrix_near(REF.sigmoid, kernels.sigmoid{gamma = 0.2, coef0 = 0.5}(X, Y), 1e-13)
    assert.matrix_near(REF.rational_quadratic, kernels.rational_quadratic{alpha = 1.5,
      length_scale = 0.8}(X, Y), 1e-13)
    assert.matrix_near(REF.linear, kernels.linear()(X, Y), 1e-13)
    assert.matrix_near(REF.cosine_kernel, kernels.cosine()(X, Y), 1e-13)
    assert.is_true(kernels.rbf()(X):equal(pairwise.kernel(X, "rbf")))
  end)

  it("adds, multiplies and scales Gram matrices (notes 001 L738-746)", function()
    local k1, k2 = kernels.rbf{gamma = 0.3}, kernels.linear()
    local K1, K2 = M(REF.rbf), M(REF.linear)
    assert.matrix_near(K1 + K2, (k1 + k2)(X, Y), 1e-13)
    assert.matrix_near(K1:mul(K2), (k1 * k2)(X, Y), 1e-13)
    assert.matrix_near(K1 * 2.5, (2.5 * k1)(X, Y), 1e-13)
    assert.matrix_near(K1 * 2.5, (k1 * 2.5)(X, Y), 1e-13)
    assert.matrix_near(K1 * 2 + K2 * 3, (2 * k1 + 3 * k2)(X, Y), 1e-13)
    local k = 2 * k1 + k1 * k2
    assert.is_true(is_symmetric(k(X)))
    assert.matrix_near(k(X, X:copy()), k(X), 1e-13)
    local d = k:diag(X)
    for i = 1, 5 do assert.near(k(X):get(i, i), d:get(i, 1), 1e-13) end
  end)

  it("normalizes a kernel to a unit diagonal within [-1, 1] (notes 001 L744)", function()
    local k = kernels.polynomial{degree = 3, gamma = 0.5, coef0 = 1}:normalized()
    local K = k(X)
    assert.is_true(is_symmetric(K))
    for i = 1, 5 do assert.near(1, K:get(i, i), 1e-15) end
    assert.is_true(K:max() <= 1 + 1e-15 and K:min() >= -1 - 1e-15)
    local P = kernels.polynomial{degree = 3, gamma = 0.5, coef0 = 1}
    local Kxy, dx, dy = P(X, Y), P:diag(X), P:diag(Y)
    local N = k(X, Y)
    for i = 1, 5 do
      for j = 1, 4 do
        assert.near(Kxy:get(i, j) / sqrt(dx:get(i, 1) * dy:get(j, 1)), N:get(i, j), 1e-14)
      end
    end
    assert.matrix_near({{1}, {1}, {1}, {1}, {1}}, k:diag(X), 0)
    -- the normalized linear kernel is the cosine kernel, zero vectors included
    local Z = M{{0, 0, 0}, {1, 2, 3}, {-1, 0.5, 2}}
    assert.matrix_near(kernels.cosine()(Z), kernels.linear():normalized()(Z), 1e-15)
    assert.matrix_near({{0}, {1}, {1}}, kernels.linear():normalized():diag(Z), 0)
    -- a normalized sum uses the diagonal of the sum
    local s = (kernels.linear() + kernels.rbf{gamma = 0.3}):normalized()
    for i = 1, 5 do assert.near(1, s(X):get(i, i), 1e-15) end
  end)

  it("prints readably and reports its parameters", function()
    local r = kernels.rbf{gamma = 0.5}
    assert.equal("rbf(gamma=0.5)", tostring(r))
    assert.equal("rbf(gamma=1/n_features)", tostring(kernels.rbf()))
    assert.equal("polynomial(degree=2, gamma=1/n_features, coef0=1)",
      tostring(kernels.polynomial{degree = 2.0}))
    assert.equal("(rbf(gamma=0.5) + linear()) * cosine()",
      tostring((r + kernels.linear()) * kernels.cosine()))
    assert.equal("2 * rbf(gamma=0.5) + 0.1 * laplacian(gamma=1/n_features)",
      tostring(2 * r + kernels.laplacian() * 0.1))
    assert.equal("normalized(sigmoid(gamma=0.2, coef0=-1))",
      tostring(kernels.sigmoid{gamma = 0.2, coef0 = -1}:normalized()))
    assert.same({gamma = 0.5}, r:params())
    assert.same({degree = 3, coef0 = 1}, kernels.polynomial():params())
    assert.same({alpha = 1, length_scale = 2}, kernels.rational_quadratic{length_scale = 2}:params())
    local s = r + kernels.linear()
    assert.equal(r, s:params().k1)
    assert.same({scale = 3, kernel = r}, (3 * r):params())
    assert.equal(r, r:normalized():params().kernel)
    assert.is_true(kernels.is_kernel(s))
    assert.is_false(kernels.is_kernel({}))
    assert.is_truthy(luma.help(r):find("luma.Kernel", 1, true))
  end)

  it("double-centres a Gram matrix like scikit-learn's KernelCenterer", function()
    local k = kernels.rbf{gamma = 0.3}
    local Kc = kernels.center(k(X))
    assert.matrix_near(REF.centered, Kc, 1e-13)
    local rows, cols = Kc:sum(2), Kc:sum(1)
    for i = 1, 5 do
      assert.near(0, rows:get(i, 1), 1e-14)
      assert.near(0, cols:get(1, i), 1e-14)
    end
    assert.matrix_near(REF.centered_test, kernels.center(k(Y, X), k(X)), 1e-13)
  end)

  describe("rejects bad input", function()
    it("names the problem", function()
      fails_with("kernels.rbf: unknown option 'sigma' (valid: gamma)", kernels.rbf, {sigma = 1})
      fails_with("kernels.polynomial: degree must be an integer >= 1, got 1.5",
        kernels.polynomial, {degree = 1.5})
      fails_with("kernels.laplacian: gamma must be a finite number > 0, got 0",
        kernels.laplacian, {gamma = 0})
      fails_with("kernels.sigmoid: coef0 must be a finite number, got x", kernels.sigmoid,
        {coef0 = "x"})
      fails_with("kernels.rational_quadratic: options table expected, got number",
        kernels.rational_quadratic, 2)
      local r = kernels.rbf()
      fails_with("kernel scale must be a finite number > 0, got -1", function() return -1 * r end)
      fails_with("kernel scale must be a finite number > 0, got 0", function() return r * 0 end)
      fails_with("a kernel multiplies a kernel (element-wise product) or a number > 0 "
        .. "(scaling), not a string", function() return r * "2" end)
      fails_with("kernels add only to kernels", function() return r + 1 end)
      fails_with("rbf(gamma=1/n_features): X must be a luma.Matrix, got table", r, {{1}})
      fails_with("Y must be a luma.Matrix or nil, got string", r, X, "rbf")
      fails_with("X is 5 x 3 but Y is 1 x 2", r, X, M{{1, 2}})
      fails_with("normalized: k(x, x) = ", kernels.sigmoid{coef0 = -5}:normalized(), X)
      fails_with("not positive semi-definite", kernels.sigmoid{coef0 = -5}:normalized().diag,
        kernels.sigmoid{coef0 = -5}:normalized(), X)
      fails_with("kernels.center: K is 5 x 4, expected a square train-train Gram matrix",
        kernels.center, M(REF.rbf))
      fails_with("kernels.center: K is 4 x 5 but K_fit is 4 x 4 (K_fit must be 5 x 5",
        kernels.center, M(REF.rbf):t(), luma.eye(4))
      fails_with("kernels.center: K must be a luma.Matrix, got nil", kernels.center)
    end)
  end)
end)
