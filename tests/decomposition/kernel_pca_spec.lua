-- luma.decomposition.KernelPCA (lua/luma/decomposition/kernel_pca.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr; X = StandardScaler().fit_transform(
-- wine data), Xn = X[:3] * 0.9 + 0.05:
-- rbf: KernelPCA(n_components=3, kernel="rbf", gamma=0.1,
--   fit_inverse_transform=True).fit(X): eigenvalues_, transform(X[:2]),
--   transform(Xn), inverse_transform(transform(Xn))[:, :4];
-- poly: KernelPCA(n_components=2, kernel="poly", degree=2,
--   fit_inverse_transform=True) (gamma 1/13, coef0 1): the same.
-- (tsvd below belongs to truncated_svd_spec.lua: one reference script.)
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with

local function rows(flat, ncol)
  local out = {}
  for i = 1, #flat // ncol do
    out[i] = {}
    for j = 1, ncol do out[i][j] = flat[(i - 1) * ncol + j] end
  end
  return out
end

local REF = {
rbf = { eigenvalues = {20.835392595582963, 14.653634171258297, 6.06218234903071},
  fit_transform = {0.4710177815557466, -0.24126167845185045, -0.023199506052181712,
      0.3427899563314123, 0.0004938346775315234, 0.2913101889291659},
  transform = {0.513547109284956, -0.24622467053472913, -0.037852801203009045, 0.39835633896783895,
      0.0022740812292240623, 0.28716791800752783, 0.46193416081558236, -0.15254236600143817,
      -0.14039084228968507},
  inverse = {0.9290238520737235, -0.2811542457754337, 0.39759927274896256, -0.6298328160493476,
      0.47040518662013486, -0.4113459915182207, -0.43728918935034145, -0.7905898282997086,
      0.6958158611513472, -0.3281670875553315, 0.4912606767634067, -0.44339485899044995}},
poly = { eigenvalues = {139.2703955604043, 79.10343833954913},
  transform = {1.2332795048010494, -0.6711814694968741, 0.7974770301338043, -0.020681352398614496,
      0.9255599950974904, -0.41177324916296354},
  inverse = {1.1734624913133862, -0.3844041800003275, 0.2646763092884443, -0.9704360334275819,
      0.2692954247218373, -0.32668929601899155, 0.02885304870973382, -0.4510218755004711,
      0.7947800785519119, -0.33305125663142743, 0.355584637831301, -0.5585470459853674}},
tsvd = {components = {0.01496276828376982, 0.002544743509545427, 0.002708028321019206,
    0.021383088477083517, 0.11557759613742696, 0.002744221266434022, 0.002528325303234148,
    0.0003914900652287716, 0.0018897172844886357, 0.006069750157341245, 0.0011091744143142063,
    0.0030605152169522493, 0.9929158085473871, -0.1141884688744087, -0.028119620038019908,
    -0.02217409865529421, -0.22825963624623238, -0.9578345951824176, -0.015066980525343904,
    -0.008076527930108025, -0.004272495975608755, -0.011609754608651261, -0.03407616230155283,
    -0.007915444426538978, -0.019686231468053053, 0.11862691511522609, -0.2664900542876803,
    -0.11235981050836663, -0.06456619462248349, -0.9058908768662474, 0.25825115900705103,
    -0.01847802844484386, 0.01175401353864531, -0.018790614677384503, -0.006071739692286285,
    -0.15171056817037776, -0.00985483353412332, -0.02915114670125434, -0.005003734343321219},
  sv = {10886.669906563995, 493.5620476385893, 57.1488432251575},
  ev = {97613.71047979746, 1191.9554025572916, 18.18263926898395},
  ratio = {0.9876618769163084, 0.012060282354843143, 0.00018397312774432018} },
}

local raw = luma.datasets.load("wine")
local X = (raw - raw:mean(1)):div(raw:std(1))
local Xn = X:sub(1, 3) * 0.9 + 0.05
local KPCA = luma.decomposition.KernelPCA

describe("luma.decomposition.KernelPCA", function()
  it("matches scikit-learn with an RBF kernel, pre-images included", function()
    local k = KPCA{ n_components = 3, kernel = "rbf", gamma = 0.1, fit_inverse_transform = true }:fit(X)
    assert.matrix_near(rows(REF.rbf.eigenvalues, 1), k.eigenvalues, 1e-10)
    assert.matrix_near(rows(REF.rbf.fit_transform, 3), k:transform(X:sub(1, 2)), 1e-9)
    assert.matrix_near(rows(REF.rbf.transform, 3), k:transform(Xn), 1e-9)
    assert.matrix_near(rows(REF.rbf.inverse, 4), k:inverse_transform(k:transform(Xn)):sub(nil, nil, 1, 4), 1e-8)
  end)

  it("matches scikit-learn with a polynomial kernel (gamma 1/n_features of each input)", function()
    local k = KPCA{ n_components = 2, kernel = "poly", degree = 2, fit_inverse_transform = true }:fit(X)
    assert.matrix_near(rows(REF.poly.eigenvalues, 1), k.eigenvalues, 1e-10)
    assert.matrix_near(rows(REF.poly.transform, 2), k:transform(Xn), 1e-9)
    assert.matrix_near(rows(REF.poly.inverse, 4), k:inverse_transform(k:transform(Xn)):sub(nil, nil, 1, 4), 1e-8)
  end)

  it("is PCA with a linear kernel (eigenvalues N lambda, same projections up to sign)", function()
    local k = KPCA{ n_components = 3 }:fit(X)
    local p = luma.decomposition.PCA{ n_components = 3 }:fit(X)
    assert.matrix_near(p.explained_variance * X:rows(), k.eigenvalues, 1e-9)
    assert.matrix_near(p:transform(Xn):abs(), k:transform(Xn):abs(), 1e-9)
    -- fit_transform's shortcut equals transform of the training rows
    assert.matrix_near(k:fit_transform(X):sub(1, 4), k:transform(X:sub(1, 4)), 1e-9)
  end)

  it("takes luma.kernels objects and precomputed Gram matrices", function()
    local obj = KPCA{ n_components = 2, kernel = luma.kernels.rbf{ gamma = 0.1 } }:fit(X)
    local named = KPCA{ n_components = 2, kernel = "rbf", gamma = 0.1 }:fit(X)
    assert.matrix_near(named.eigenvalues, obj.eigenvalues, 1e-12)
    local K = luma.kernels.rbf{ gamma = 0.1 }
    local pre = KPCA{ n_components = 2, kernel = "precomputed" }:fit(K(X))
    assert.matrix_near(named:transform(Xn), pre:transform(K(Xn, X)), 1e-10)
  end)

  it("refuses a non-PSD kernel, a missing pre-image map and NaN", function()
    local sig = KPCA{ kernel = "sigmoid", gamma = 5, coef0 = -3 }
    errors_with("not positive semi%-definite", function() sig:fit(X) end)
    local k = KPCA{ n_components = 2, kernel = "rbf" }:fit(X)
    errors_with("inverse_transform needs fit_inverse_transform = true", function() k:inverse_transform(luma.zeros(2, 13)) end)
    local bad = X:copy()
    bad:set(1, 3, 0 / 0)
    errors_with("KernelPCA: X has a non%-finite element", function() KPCA{}:fit(bad) end)
    errors_with("a precomputed kernel must be square", function() KPCA{ kernel = "precomputed" }:fit(X) end)
  end)
end)
