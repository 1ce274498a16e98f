-- luma.decomposition.FastICA (lua/luma/decomposition/ica.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr: t = linspace(0, 8, 400), sources
-- S = (sin 2t, sign sin 3t, (1.3 t mod 2) - 1), X = S A^T with A =
-- [[1, 1, 1], [0.5, 2, 1], [1.5, 1, 2]], W0 = [[0.3, -1.2, 0.8], [1.1, 0.4,
-- -0.5], [-0.7, 0.9, 1.3]]; for each algorithm and fun:
-- FastICA(n_components=3, algorithm, fun, whiten="arbitrary-variance",
-- w_init=W0, max_iter=400, tol=1e-10).fit_transform(X): n_iter_,
-- components_, the first 3 rows of the sources; unit2: FastICA(
-- n_components=2, whiten="unit-variance", w_init=W0[:2, :2], tol=1e-10,
-- max_iter=400): components_, mixing_, sources[:3].
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local ICA = luma.decomposition.FastICA

local rows = support.rows

local REF = {
parallel_logcosh = {n_iter = 27, components = {0.013611851157655315, 0.028638110245436752,
    -0.020607700612899547, 0.047556271326462195, -0.033092738536167544, 0.017562887480824574,
    0.30650349071684946, -0.08083198318581832, -0.14749671290901903},
    sources = {-0.003024008396224375, -0.0547814131313677, 0.061565817475045914,
    0.04716383605252796, -0.05225587522270367, 0.058899452604230136, 0.04707150158754774,
    -0.0486677159016579, 0.05888738591151477}},
parallel_exp = {n_iter = 27, components = {0.013695578982242529, 0.028616438925668758,
    -0.020648800522347667, 0.0478243274187376, -0.03316278668800544, 0.017433599472744265,
    0.30645804946079425, -0.08081094734195772, -0.14750630259955955},
    sources = {-0.0030059040174124137, -0.054727659207903, 0.06161449173272827,
    0.04718115136643697, -0.05220346073568762, 0.05893205483023103, 0.04708874183631144,
    -0.048615315151858934, 0.058916878542921124}},
parallel_cube = {n_iter = 32, components = {0.0124621701130616, 0.02899439819258952,
    -0.020159382046467753, 0.05062212734706329, -0.03381542434333867, 0.01604842839584907,
    0.30606104913065785, -0.08040473964844892, -0.1477310391275593},
    sources = {-0.003087784514036298, -0.054177365003784214, 0.06209489867019917,
    0.04710197528748452, -0.0515463241867489, 0.059570377121604984, 0.04700036203543742,
    -0.047958715176963373, 0.05952247188579598}},
deflation_logcosh = {n_iter = 25, components = {0.024993281211694366, 0.02507270014527685,
    -0.025018787728306967, 0.053682131754725124, -0.03555859121609067, 0.014967483680822001,
    0.30477013613635046, -0.08096929360045907, -0.14710012696476796},
    sources = {-0.002408283034435027, -0.05335928267841654, 0.06282901286580579,
    0.04771240926135512, -0.0522348114242563, 0.05847478021769563, 0.04771320768976214,
    -0.048646534471558756, 0.05838631302063643}},
deflation_exp = {n_iter = 25, components = {0.024995222779726996, 0.02507232081038759,
    -0.025019986826562098, 0.053281230595209166, -0.03545186048000364, 0.015160863789683664,
    0.30484031977492754, -0.08101619915604971, -0.14708011805995375},
    sources = {-0.0024074698725286793, -0.05344192206506885, 0.0627587666196897,
    0.04771318255968328, -0.05231140078987207, 0.05840564185920892, 0.04771395732752626,
    -0.04872301053362495, 0.05832189617090605}},
deflation_cube = {n_iter = 27, components = {0.02500147087629369, 0.025071106940180353,
    -0.02502385879531121, -0.05035972145105569, 0.034673773411142216, -0.016568291507431266,
    0.30533603810461357, -0.08135262283560474, -0.1469275701415419},
    sources = {-0.0024048322558733897, 0.05404059149267887, 0.06224410804054645,
    0.047715691248084405, 0.052867367157938265, 0.05790080951129871, 0.04771638871102091,
    0.04927833939639522, 0.05785143530626623}},
unit2 = {components = {0.031170191918764543, 0.636971974264089, -0.29814644889332553,
    0.20531153369462085, -0.4634414521918367, 0.7048230248082256}, mixing = {1.0107436736356876,
    0.941496814344219, 1.9973897411785697, 0.7073529587670061, 1.0189165835409488,
    1.60964736901189}, sources = {-0.10529480300411559, -1.2358396880177975, 0.8996343792992578,
    -1.1812483011312598, 0.897602158649583, -1.1099750117492715}},
}

local t = luma.linspace(0, 8, 400)
local S = luma.matrix.hstack{ (t * 2):sin(), (t * 3):sin():sign(), (t * 1.3) - ((t * 1.3) / 2):floor() * 2 - 1 }
local A = luma.matrix{ { 1, 1, 1 }, { 0.5, 2, 1 }, { 1.5, 1, 2 } }
local X = S * A:t()
local W0 = luma.matrix{ { 0.3, -1.2, 0.8 }, { 1.1, 0.4, -0.5 }, { -0.7, 0.9, 1.3 } }

describe("luma.decomposition.FastICA", function()
  for _, alg in ipairs{ "parallel", "deflation" } do
    for _, fun in ipairs{ "logcosh", "exp", "cube" } do
      it("matches scikit-learn from the same start (" .. alg .. ", " .. fun .. ")", function()
        local ref = REF[alg .. "_" .. fun]
        local ica = ICA{ n_components = 3, algorithm = alg, fun = fun, w_init = W0, max_iter = 400, tol = 1e-10 }
        local Sr = ica:fit_transform(X)
        assert.equal(ref.n_iter, ica.n_iter)
        assert.matrix_near(rows(ref.components, 3), ica.components, 1e-7)
        assert.matrix_near(rows(ref.sources, 3), Sr:sub(1, 3), 1e-7)
      end)
    end
  end

  it("matches scikit-learn with unit-variance sources, and inverts the mixing", function()
    local ica = ICA{ n_components = 2, whiten = "unit-variance", w_init = W0:sub(1, 2, 1, 2), tol = 1e-10, max_iter = 400 }
    local Sr = ica:fit_transform(X)
    assert.matrix_near(rows(REF.unit2.components, 3), ica.components, 1e-7)
    assert.matrix_near(rows(REF.unit2.mixing, 2), ica.mixing, 1e-7)
    assert.matrix_near(rows(REF.unit2.sources, 2), Sr:sub(1, 3), 1e-7)
    assert.matrix_near(luma.ones(1, 2), Sr:std(1), 1e-10)
    local full = ICA{ w_init = W0, tol = 1e-10, max_iter = 400 }
    local S3 = full:fit_transform(X)
    assert.matrix_near(X, full:inverse_transform(S3), 1e-10)
    assert.matrix_near(S3, full:transform(X), 1e-10)
  end)

  it("separates the sources: each recovered one correlates with exactly one true source", function()
    -- scikit-learn's example: sin 2t, sign sin 3t, a sawtooth of period 1
    local u = luma.linspace(0, 8, 2000)
    local S2 = luma.matrix.hstack{ (u * 2):sin(), (u * 3):sin():sign(), (u - u:floor()) * 2 - 1 }
    local Sr = ICA{ seed = 1, tol = 1e-8, max_iter = 500 }:fit_transform(S2 * A:t())
    local Zs = (S2 - S2:mean(1)):div(S2:std(1))
    local Zr = (Sr - Sr:mean(1)):div(Sr:std(1))
    local C = (Zs:t() * Zr / 2000):abs()
    assert.matrix_near(luma.ones(1, 3), C:max(1), 0.02)
    assert.matrix_near(luma.ones(3, 1), C:max(2), 0.02)
  end)

  it("refuses too many components, NaN and a wrong w_init", function()
    errors_with("n_components = 4 is more than min%(n_samples, n_features%) = 3",
      function() ICA{ n_components = 4 }:fit(X) end)
    local bad = X:copy()
    bad:set(1, 1, 0 / 0)
    errors_with("FastICA: X has a non%-finite element", function() ICA{}:fit(bad) end)
    errors_with("w_init must be a 3 x 3 matrix", function() ICA{ w_init = luma.eye(2) }:fit(X) end)
  end)
end)
