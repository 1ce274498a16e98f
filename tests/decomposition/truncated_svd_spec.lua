-- luma.decomposition.TruncatedSVD (lua/luma/decomposition/svd.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr: tsvd: TruncatedSVD(n_components=3,
-- random_state=0).fit(raw wine data) (randomized, exact here: 3 + 10
-- oversamples reach the 13 columns): components_, singular_values_,
-- explained_variance_, explained_variance_ratio_.
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
local TSVD = luma.decomposition.TruncatedSVD

describe("luma.decomposition.TruncatedSVD", function()
  it("matches scikit-learn on the raw wine data (no centring)", function()
    for _, algorithm in ipairs{ "randomized", "full" } do
      local t = TSVD{ n_components = 3, algorithm = algorithm, seed = 0 }:fit(raw)
      assert.matrix_near(rows(REF.tsvd.components, 13), t.components, 1e-9)
      assert.matrix_near(rows(REF.tsvd.sv, 1), t.singular_values, 1e-10)
      assert.matrix_near(rows(REF.tsvd.ev, 1), t.explained_variance, 1e-9)
      assert.matrix_near(rows(REF.tsvd.ratio, 1), t.explained_variance_ratio, 1e-9)
    end
  end)

  it("gives the Eckart-Young error and LSA topics on a document-term matrix (notes 001 §I)", function()
    -- six documents over eight terms: the first three about pets, the
    -- last three about finance
    local docs = luma.matrix{
      { 2, 1, 1, 0, 0, 0, 0, 1 }, { 1, 2, 0, 1, 0, 0, 0, 0 }, { 1, 1, 2, 1, 0, 0, 1, 0 },
      { 0, 0, 0, 0, 2, 1, 1, 0 }, { 0, 0, 1, 0, 1, 2, 1, 1 }, { 0, 0, 0, 0, 1, 1, 2, 0 } }
    local t = TSVD{ n_components = 2, algorithm = "full" }
    local Z = t:fit_transform(docs)
    local s = luma.linalg.svd(docs, { mode = "values" })
    local rebuilt = t:inverse_transform(Z)
    assert.near(s:sub(3, 6, 1, 1):pow(2):sum(), (docs - rebuilt):pow(2):sum(), 1e-10)
    -- on the second topic axis the two groups fall on opposite sides
    local axis = Z:col(2)
    assert.is_true(axis:sub(1, 3, 1, 1):max() < 0 and axis:sub(4, 6, 1, 1):min() > 0
      or axis:sub(1, 3, 1, 1):min() > 0 and axis:sub(4, 6, 1, 1):max() < 0)
  end)

  it("refuses n_components above min(N, D) and NaN", function()
    errors_with("n_components = 14 is more than min%(n_samples, n_features%) = min%(178, 13%) = 13",
      function() TSVD{ n_components = 14 }:fit(raw) end)
    local bad = raw:copy()
    bad:set(5, 5, 0 / 0)
    errors_with("TruncatedSVD: X has a non%-finite element", function() TSVD{}:fit(bad) end)
    local t = TSVD{ n_components = 2, seed = 0 }:fit(raw)
    errors_with("X has 3 columns but luma.decomposition.TruncatedSVD was fitted on 2",
      function() t:inverse_transform(luma.zeros(1, 3)) end)
  end)
end)
