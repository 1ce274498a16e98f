-- luma.decomposition.IncrementalPCA (lua/luma/decomposition/pca.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr: X = StandardScaler().fit_transform(
-- wine data), p = IncrementalPCA(n_components=4, batch_size=40).fit(X):
-- components_, explained_variance_, explained_variance_ratio_,
-- singular_values_, noise_variance_, transform(X[:2]).  scikit-learn
-- divides explained_variance_ by N - 1: ddof = 1 here.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local IPCA, PCA = luma.decomposition.IncrementalPCA, luma.decomposition.PCA

local rows = support.rows

local REF = {
components = {0.16828581388343797, -0.21366864010019695, 0.0015111375076777224,
    -0.24428258534691538, 0.14248254134725363, 0.3984659745273701, 0.4304110964534867,
    -0.2997441061266761, 0.3291084601126061, -0.07321035067118108, 0.26355191883907075,
    0.37693770050199166, 0.2948879542192521, 0.46457259245627786, 0.19037950167641943,
    0.3386778711169492, 0.001634854853622732, 0.32385041037766316, 0.04535100805045223,
    -0.032539863720052534, 0.061487831639882876, 0.0027633444842658393, 0.5375503548389754,
    -0.24270782432246793, -0.19882600986359372, 0.3661151320222251, -0.20039826607453026,
    0.10295912854623707, 0.6198334400617626, 0.6158824348135871, 0.12588649090207643,
    0.14120120871224504, 0.15316857316300647, 0.14851999259399717, 0.14931484355791713,
    -0.15513234449679933, 0.08085318869259626, 0.1809976836584188, -0.13701434051583028,
    -0.26304596390417495, 0.1414787537821215, -0.1960607723301359, 0.012365156743817158,
    0.7155313257510223, -0.1077353381976289, -0.09711138698309627, -0.40629357334567073,
    0.2646998338120194, -0.053615230503067386, -0.20968756628463295, -0.08131843416756819,
    -0.2248969340626945},
ev = {4.6248008173388495, 2.4246377255029183, 1.4435789809094202, 0.8103161298364732},
ratio = {0.35375529155962676, 0.18546278194209878, 0.11042069127958833, 0.06198183015603101},
sv = {28.611007403951653, 20.716198430552275, 15.984789007708779, 11.976057572550983},
noise = 0.02725732486918729,
transform = {3.3753303392905405, 1.3116791607787155, -0.15420484665244494, 0.7675093074226035,
    2.1998716954480813, -0.4335513442742875, -2.0087313566896405, -0.31120353399775774},
}

local raw = luma.datasets.load("wine")
local X = (raw - raw:mean(1)):div(raw:std(1))

describe("luma.decomposition.IncrementalPCA", function()
  it("matches scikit-learn on standardized wine in batches of 40", function()
    local p = IPCA{ n_components = 4, batch_size = 40, ddof = 1 }:fit(X)
    assert.matrix_near(rows(REF.components, 13), p.components, 1e-10)
    assert.matrix_near(rows(REF.ev, 1), p.explained_variance, 1e-10)
    assert.matrix_near(rows(REF.ratio, 1), p.explained_variance_ratio, 1e-10)
    assert.matrix_near(rows(REF.sv, 1), p.singular_values, 1e-10)
    assert.near(REF.noise, p.noise_variance, 1e-10)
    assert.matrix_near(rows(REF.transform, 4), p:transform(X:sub(1, 2)), 1e-10)
  end)

  it("equals PCA when every batch keeps all its directions", function()
    local inc = IPCA{ batch_size = 50 }:fit(X)
    local full = PCA{}:fit(X)
    assert.matrix_near(full.explained_variance, inc.explained_variance, 1e-10)
    assert.matrix_near(full.singular_values, inc.singular_values, 1e-10)
    assert.matrix_near(full.components:abs(), inc.components:abs(), 1e-8)
    assert.matrix_near(full.mean, inc.mean, 1e-12)
  end)

  it("gives the same model through partial_fit", function()
    local a = IPCA{ n_components = 3, batch_size = 60 }:fit(X)
    local b = IPCA{ n_components = 3 }
    b:partial_fit(X:sub(1, 60)):partial_fit(X:sub(61, 120)):partial_fit(X:sub(121, 178))
    assert.matrix_near(a.components, b.components, 1e-12)
    assert.equal(178, b.n_samples_seen)
    assert.matrix_near(a:transform(X:sub(1, 3)), b:transform(X:sub(1, 3)), 1e-12)
  end)

  it("refuses more components than a batch has rows, NaN and a wrong width", function()
    errors_with("n_components = 20 is more than n_features = 13", function() IPCA{ n_components = 20 }:fit(X) end)
    errors_with("n_components = 5 is more than the 4 rows of a batch",
      function() IPCA{ n_components = 5 }:partial_fit(X:sub(1, 4)) end)
    local bad = X:copy()
    bad:set(1, 1, 0 / 0)
    errors_with("IncrementalPCA: X has a non%-finite element", function() IPCA{}:fit(bad) end)
    local p = IPCA{ n_components = 2 }:fit(X)
    errors_with("X has 13 columns but luma.decomposition.IncrementalPCA was fitted on 2",
      function() p:inverse_transform(X) end)
    errors_with("X has 3 columns but IncrementalPCA was fitted on 13", function() p:partial_fit(X:sub(1, 5, 1, 3)) end)
  end)
end)
