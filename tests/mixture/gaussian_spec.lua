-- luma.mixture.GaussianMixture (lua/luma/mixture/gaussian.lua, em.lua;
-- the k-means initialization is luma.cluster.KMeans).
--
-- NOTES: the 1-D worked example of notes 004 §11.2–11.3 (Examples
-- 11.1–11.5 and (11.57)): X = {-3, -2.5, -1, 0, 2, 4, 5}, K = 3, initial
-- N(-4, 1), N(0, 0.2), N(8, 3) (variances), equal weights; the printed
-- numbers and their exact recomputation (notes 004 §3 A), with
-- reg_covar = 0 as the notes have no regularization.
-- SKLEARN: scikit-learn 1.2.1 (Debian's python3-sklearn, /usr/bin/python3),
--   X = iris features (data/datasets/iris.csv), for each covariance_type:
--   GaussianMixture(3, covariance_type=ct, weights_init=[1/3]*3,
--     means_init=X[[0, 50, 100]], precisions_init=identities (full: three
--     eye(4); tied: eye(4); diag: ones((3, 4)); spherical: ones(3)),
--     tol=1e-10, max_iter=500).fit(X)
--   n_iter_, lower_bound_, weights_, means_, covariances_ (flattened),
--   score(X), bic(X), aic(X), predict_proba(X[[0, 70, 83, 133]]),
--   printed with repr.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local GM = luma.mixture.GaussianMixture

local rows = support.rows

local SKLEARN = {
full = { n_iter = 34, lower_bound = -1.2012365173307493,
  weights = {0.3333333333333333, 0.2991955075605841, 0.3674711591060826},
  means = {5.005999999999999, 3.428, 1.4620000000000002, 0.24599999999999989, 5.914972336653756,
      2.7778436962284014, 4.201557462312782, 1.2969686638598454, 6.544550386063, 2.948662188035387,
      5.47955805316343, 1.9846078191107288},
  covariances = {0.12176499999999987, 0.09723199999999993, 0.01602799999999999,
      0.010123999999999996, 0.09723199999999993, 0.14081699999999994, 0.01146399999999998,
      0.009111999999999999, 0.01602799999999999, 0.01146399999999998, 0.02955700000000001,
      0.005948000000000002, 0.010123999999999996, 0.009111999999999999, 0.005948000000000002,
      0.010885000000000002, 0.2753200256367758, 0.09694109099695698, 0.1846634157177759,
      0.054391324276514205, 0.09694109099695698, 0.09264699764759751, 0.09114307435623417,
      0.042997387430382145, 0.1846634157177759, 0.09114307435623417, 0.20063321299714829,
      0.06097938777819502, 0.054391324276514205, 0.042997387430382145, 0.06097938777819502,
      0.03199846029306034, 0.38704611639540865, 0.09220785608724807, 0.30281159630409915,
      0.061650352670908466, 0.09220785608724807, 0.11033867919646495, 0.08428687980075608,
      0.05601109082701847, 0.30281159630409915, 0.08428687980075608, 0.32779620213616545,
      0.07452809183702248, 0.06165035267090847, 0.05601109082701847, 0.07452809183702247,
      0.08579770403641271},
  score = -1.2012365172862398, bic = 580.8389081261072, aic = 448.37095518587194,
  proba = {1.0, 8.961985667490818e-45, 2.4596865747732836e-34, 7.752952895844737e-106,
      0.05270470967494393, 0.9472952903250559, 1.774994110037605e-116, 0.006717456695837853,
      0.9932825433041623, 2.7635238645166274e-113, 0.2156143727584972, 0.7843856272415027}},
tied = { n_iter = 35, lower_bound = -1.7090269548521144,
  weights = {0.33333333333392645, 0.32960834450709553, 0.33705832215897796},
  means = {5.006000000000554, 3.4279999999984416, 1.4620000000034137, 0.24600000000172118,
      5.942321135335854, 2.760759418387367, 4.258688707759016, 1.319195922277796,
      6.5746130240057346, 2.9807818384446874, 5.539003813852045, 2.024917660950678},
  covariances = {0.2639358156040068, 0.08985116359296624, 0.16965603963935486, 0.03933893219055941,
      0.08985116359296624, 0.11194969668208712, 0.05112285838812718, 0.029980130973350085,
      0.16965603963935486, 0.05112285838812718, 0.18652865550902886, 0.041973105336888535,
      0.03933893219055789, 0.029980130973350085, 0.041973105336888535, 0.039714837189507704},
  score = -1.7090269548402177, bic = 632.9633335103755, aic = 560.7080864520653,
  proba = {1.0, 5.872254155792989e-22, 3.1592263105492063e-42, 2.3432519459520824e-28,
      0.13303712913309265, 0.8669628708669074, 4.865121704781651e-32, 0.12656663949667338,
      0.8734333605033268, 2.160681601132718e-28, 0.7452596269433228, 0.25474037305667707}},
diag = { n_iter = 33, lower_bound = -2.0478504783047824,
  weights = {0.33333333330864595, 0.41398907662777534, 0.2526775900635787},
  means = {5.005999999997487, 3.4279999999999733, 1.4619999999866173, 0.24599999997694305,
      5.927754609206513, 2.7503941302532207, 4.4063659499662045, 1.4135385249554109,
      6.809630443351545, 3.07124007400124, 5.724604605547645, 2.106019075491087},
  covariances = {0.12176500000869947, 0.14081700000955596, 0.029556999999510086,
      0.010884999993390909, 0.23200737957508974, 0.08735523154709565, 0.27625121439666495,
      0.06915635193205158, 0.2845293013414743, 0.08216549805372683, 0.2485770851305372,
      0.060199502387840415},
  score = -2.0478504782597127, bic = 744.6316611244164, aic = 666.3551434779138,
  proba = {0.9999999999999969, 3.151188292507128e-15, 8.211452440680871e-34,
      2.120511089531811e-130, 0.878291569322845, 0.12170843067715488, 8.597001626254091e-136,
      0.9851830460703059, 0.014816953929694, 1.4427713117792106e-131, 0.9810089974461126,
      0.01899100255388733}},
spherical = { n_iter = 28, lower_bound = -2.5620939672209997,
  weights = {0.33333333388373987, 0.413937593670985, 0.2527290724452751},
  means = {5.006000000155015, 3.427999998467394, 1.46200000254001, 0.24600000141015718,
      5.905210171940604, 2.7488667934917563, 4.402602569668307, 1.4326221585095884,
      6.846375679789702, 3.0736762967342983, 5.730500007080547, 2.0746214858530876},
  covariances = {0.07575600151195289, 0.16326977628439462, 0.16293062628714025},
  score = -2.562093967190511, bic = 853.8089901567896, aic = 802.6281901571533,
  proba = {1.0, 7.248164894317549e-17, 1.940151290479762e-35, 8.488730370654938e-41,
      0.9905746950291675, 0.00942530497083244, 5.186767986079245e-47, 0.9682389880696507,
      0.03176101193034942, 1.0008955515013088e-47, 0.867583711221184, 0.1324162887788159}},
}

local iris = luma.datasets.load("iris")
local init_means = iris:take{ 1, 51, 101 }

local function identities(ct)
  if ct == "full" then return { luma.eye(4), luma.eye(4), luma.eye(4) } end
  if ct == "tied" then return luma.eye(4) end
  if ct == "diag" then return luma.ones(3, 4) end
  return luma.ones(3, 1)
end

local notes_X = luma.matrix{ -3, -2.5, -1, 0, 2, 4, 5 }

local function notes_model(max_iter)
  return GM{ n_components = 3, reg_covar = 0, max_iter = max_iter, tol = 0,
    weights_init = { 1 / 3, 1 / 3, 1 / 3 }, means_init = luma.matrix{ -4, 0, 8 },
    precisions_init = {luma.matrix{ { 1 } }, luma.matrix{ { 1 / 0.2 } }, luma.matrix{ { 1 / 3 } } }}
end

local function variances(g)
  return luma.matrix{ g.covariances[1]:get(1, 1), g.covariances[2]:get(1, 1), g.covariances[3]:get(1, 1) }
end

describe("luma.mixture.GaussianMixture", function()
  describe("the notes' 1-D worked example (004 §11.2–11.3)", function()
    it("starts from the responsibilities of Example 11.2 and NLL 28.3", function()
      local g = notes_model(0):fit(notes_X)
      -- the printed table (rounded to 3 digits; the x = 0 row is really
      -- 0.00015 / 0.99984, which rounds to the printed 0.000 / 1.000 pair
      -- only approximately: tolerance 2e-3)
      assert.matrix_near({ { 1.0, 0.0, 0.0 }, { 1.0, 0.0, 0.0 }, { 0.057, 0.943, 0.0 },
        { 0.001, 0.999, 0.0 }, { 0.0, 0.066, 0.934 }, { 0.0, 0.0, 1.0 }, { 0.0, 0.0, 1.0 } },
        g:predict_proba(notes_X), 2e-3)
      local Nk = g:predict_proba(notes_X):sum(1)
      assert.matrix_near({ { 2.0572, 2.0090, 2.9338 } }, Nk, 1e-4)
      assert.near(28.3255, -7 * g:score(notes_X), 1e-4)
    end)

    it("updates means, then variances about the new means, then weights (Examples 11.3–11.5)", function()
      local g = notes_model(1):fit(notes_X)
      assert.matrix_near({ { -2.7012 }, { -0.4034 }, { 3.7043 } }, g.means, 1e-4)
      assert.matrix_near({ { 0.1440 }, { 0.4385 }, { 1.5266 } }, variances(g), 1e-4)
      assert.matrix_near({ { 0.2939 }, { 0.2870 }, { 0.4191 } }, g.weights, 1e-4)
      -- "28.3 (initialization) -> 14.4": the negative log-likelihood falls
      assert.near(14.4105, -7 * g:score(notes_X), 1e-4)
      assert.near(-28.3255 / 7, g.lower_bound, 1e-4) -- the bound of the E-step it used
    end)

    it("reaches (11.57) after five iterations", function()
      local g = notes_model(5):fit(notes_X)
      assert.matrix_near({ { 0.29 }, { 0.28 }, { 0.43 } }, g.weights, 0.01)
      assert.matrix_near({ { -2.75 }, { -0.50 }, { 3.64 } }, g.means, 0.01)
      assert.matrix_near({ { 0.06 }, { 0.25 }, { 1.63 } }, variances(g), 0.01)
      -- the exact recomputation: component 1 is {-3, -2.5}
      assert.matrix_near({ { 0.2857 }, { 0.2832 }, { 0.4311 } }, g.weights, 1e-4)
      assert.matrix_near({ { -2.7500 }, { -0.5041 }, { 3.6447 } }, g.means, 1e-4)
      assert.matrix_near({ { 0.0625 }, { 0.2506 }, { 1.6285 } }, variances(g), 1e-4)
      assert.near(13.9733, -7 * g:score(notes_X), 1e-4)
    end)
  end)

  for _, ct in ipairs{ "full", "tied", "diag", "spherical" } do
    it("matches scikit-learn on iris from the same initialization (" .. ct .. ")", function()
      local ref = SKLEARN[ct]
      local g = GM{ n_components = 3, covariance_type = ct, weights_init = { 1 / 3, 1 / 3, 1 / 3 },
        means_init = init_means, precisions_init = identities(ct), tol = 1e-10, max_iter = 500 }:fit(iris)
      assert.equal(ref.n_iter, g.n_iter)
      assert.is_true(g.converged)
      assert.near(ref.lower_bound, g.lower_bound, 1e-10)
      assert.matrix_near(rows(ref.weights, 1), g.weights, 1e-6)
      assert.matrix_near(rows(ref.means, 4), g.means, 1e-6)
      if ct == "full" then
        for c = 1, 3 do
          local flat = table.move(ref.covariances, (c - 1) * 16 + 1, c * 16, 1, {})
          assert.matrix_near(rows(flat, 4), g.covariances[c], 1e-6)
        end
      else
        local cols = ({ tied = 4, diag = 4, spherical = 1 })[ct]
        assert.matrix_near(rows(ref.covariances, cols), g.covariances, 1e-6)
      end
      assert.near(ref.score, g:score(iris), 1e-9)
      assert.near(ref.bic, g:bic(iris), 1e-7)
      assert.near(ref.aic, g:aic(iris), 1e-7)
      assert.matrix_near(rows(ref.proba, 3), g:predict_proba(iris:take{ 1, 71, 84, 134 }), 1e-6)
    end)
  end

  it("never decreases the log-likelihood (EM, every covariance type and initialization)", function()
    -- Exact EM needs reg_covar = 0: the floor, added after the
    -- maximization, makes the M-step inexact (decreases of 1e-10 were seen
    -- with the default 1e-6).  iris has repeated rows on which a component
    -- can collapse without the floor: a small jitter keeps every covariance
    -- regular.  (The k-means++ and random_from_data initializations start
    -- from one point per component, whose covariance is the floor alone:
    -- they cannot run without it.)
    local jittered = iris + luma.random.Generator(9):normal(150, 4, 0, 0.01)
    for _, ct in ipairs{ "full", "tied", "diag", "spherical" } do
      for _, init in ipairs{ "kmeans", "random" } do
        local g = GM{ n_components = 3, covariance_type = ct, init_params = init, reg_covar = 0,
          tol = 1e-12, max_iter = 60, seed = 5 }
        capture_warnings(function() g:fit(jittered) end)
        local h = g.lower_bound_history
        assert.is_true(h:rows() >= 2)
        for t = 2, h:rows() do
          assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-12,
            string.format("%s/%s: the bound fell at iteration %d", ct, init, t))
        end
      end
    end
  end)

  it("keeps the best of n_init restarts and is reproducible with a seed", function()
    local g = GM{ n_components = 3, n_init = 4, init_params = "random", seed = 2 }
    local best = g:fit(iris).lower_bound
    local again = GM{ n_components = 3, n_init = 4, init_params = "random", seed = 2 }:fit(iris)
    assert.equal(best, again.lower_bound)
    assert.matrix_near(g.means, again.means, 0)
    local one = GM{ n_components = 3, n_init = 1, init_params = "random", seed = 2 }:fit(iris)
    assert.is_true(best >= one.lower_bound)
  end)

  it("predicts the components fit_predict found; probabilities sum to 1", function()
    local g = GM{ n_components = 3, seed = 0 }
    local labels = g:fit_predict(iris)
    assert.matrix_near(labels, g:predict(iris), 0)
    assert.matrix_near(luma.ones(150, 1), g:predict_proba(iris):sum(2), 1e-12)
    assert.near(g:score_samples(iris):mean(), g:score(iris), 1e-12)
  end)

  it("warm-starts from the previous fit", function()
    local g = GM{ n_components = 3, seed = 0, warm_start = true, max_iter = 3, tol = 0 }
    capture_warnings(function() g:fit(iris) end)
    local first = g.lower_bound
    capture_warnings(function() g:fit(iris) end)
    assert.is_true(g.lower_bound >= first)
    local cold = GM{ n_components = 3, seed = 0, max_iter = 6, tol = 0 }
    capture_warnings(function() cold:fit(iris) end)
    assert.near(cold.lower_bound, g.lower_bound, 1e-12)
  end)

  it("samples by component with the fitted weights, means and covariances", function()
    local g = GM{ n_components = 2, seed = 3 }:fit(
      luma.matrix{ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 10, 10 }, { 11, 10 }, { 10, 11 }, { 10.5, 10.5 } })
    local X, labels = g:sample(20000)
    assert.equal(20000, X:rows())
    for c = 1, 2 do
      local rows_c = X:select(labels:eq(c), 1)
      assert.near(g.weights:get(c, 1), rows_c:rows() / 20000, 0.015)
      assert.matrix_near(g.means:row(c), rows_c:mean(1), 0.03)
    end
    assert.matrix_near(g:sample(5), g:sample(5), 0) -- same seed, same draws
  end)

  describe("bad input", function()
    it("refuses a singular covariance without reg_covar, suggesting it", function()
      -- one component sits on three copies of one point
      local X = luma.matrix{ { 0, 0 }, { 0, 0 }, { 0, 0 }, { 5, 5 }, { 6, 5 }, { 5, 6 } }
      local init = { n_components = 2, means_init = luma.matrix{ { 0, 0 }, { 5, 5 } } }
      init.reg_covar = 0
      errors_with("GaussianMixture.fit: the covariance of component %d is singular.*set reg_covar > 0 %(it is 0%)",
        function() GM(init):fit(X) end)
      -- with the default floor the same data fit
      init.reg_covar = nil
      assert.is_true(GM(init):fit(X).converged)
    end)
    it("refuses fewer rows than components", function()
      errors_with("GaussianMixture needs at least n_components = 5 rows, one per component; X has 4",
        function() GM{ n_components = 5 }:fit(iris:sub(1, 4)) end)
    end)
    it("refuses NaN", function()
      local bad = iris:copy()
      bad:set(7, 3, 0 / 0)
      errors_with("bad argument #1 to 'fit' %(GaussianMixture: X has a non%-finite element, nan at row 7, "
        .. "column 3; impute missing values first",
        function() GM{}:fit(bad) end)
      local g = GM{ n_components = 2, seed = 1 }:fit(iris)
      errors_with("bad argument #1 to 'score_samples'", function() g:score_samples(bad) end)
    end)
    it("refuses initial parameters of the wrong shape", function()
      errors_with("means_init must be a 3 x 4 matrix, got 2 x 4",
        function() GM{ n_components = 3, means_init = iris:sub(1, 2) }:fit(iris) end)
      errors_with("weights_init must be non%-negative and sum to 1",
        function() GM{ n_components = 2, weights_init = { 0.5, 0.6 } }:fit(iris) end)
      errors_with("precisions_init must be a table of 2 matrices",
        function() GM{ n_components = 2, precisions_init = luma.eye(4) }:fit(iris) end)
    end)
    it("warns when EM does not converge", function()
      local w = capture_warnings(function() GM{ n_components = 3, max_iter = 2, seed = 0 }:fit(iris) end)
      assert.equal(1, #w)
      assert.truthy(w[1]:find("did not converge in 2 iterations", 1, true))
    end)
  end)
end)

describe("luma.mixture.native", function()
  it("gives bit-identical fits with 1 and 2 threads", function()
    local X = luma.random.Generator(4):normal(3000, 5) + luma.arange(1, 3000):sin() * 4
    local saved = luma.config().threads
    local fits = {}
    for _, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      fits[threads] = GM{ n_components = 4, seed = 1, max_iter = 20, tol = 0 }
      capture_warnings(function() fits[threads]:fit(X) end)
    end
    luma.config{ threads = saved }
    assert.equal(fits[1].lower_bound, fits[2].lower_bound)
    assert.matrix_near(fits[1].means, fits[2].means, 0)
    for c = 1, 4 do assert.matrix_near(fits[1].covariances[c], fits[2].covariances[c], 0) end
  end)
end)
