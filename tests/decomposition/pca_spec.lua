-- luma.decomposition.PCA (lua/luma/decomposition/pca.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr:
-- WINE: X = StandardScaler().fit_transform(wine data) (data/datasets/wine.csv,
--   population standard deviation), p = PCA(n_components=4,
--   svd_solver="full").fit(X); components_, explained_variance_,
--   explained_variance_ratio_, singular_values_, noise_variance_, score(X),
--   score_samples(X[:3]), transform(X[:2]); the same with whiten=True:
--   transform(X[:2]); PCA(n_components="mle").fit(raw wine).n_components_
--   (12); PCA(n_components=0.8).fit(X).n_components_ (5).
-- WIDE: X[i][j] = sin(0.3 i + 0.7 j) + 0.1 j cos(i), i = 1..6, j = 1..40;
--   PCA(n_components=3, svd_solver="full").fit(X): components_,
--   singular_values_.
-- scikit-learn divides explained_variance_ by N - 1: ddof = 1 here.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local PCA = luma.decomposition.PCA

local rows = support.rows

local function column(t) return rows(t, 1) end

local WINE = {
  components = {0.14432939540601183, -0.2451875802572204, -0.0020510614443709466,
      -0.23932040548753505, 0.14199204195298742, 0.3946608450666304, 0.42293429671005917,
      -0.2985331029547152, 0.3134294883076887, -0.08861670472472234, 0.296714563586381,
      0.3761674107387126, 0.2867522268968055, -0.483651547817214, -0.22493093462784533,
      -0.3160688140253157, 0.010590502288191134, -0.2996340032378621, -0.06503951181927935,
      0.0033598121003079596, -0.028779488112986966, -0.039301722289732506, -0.5299956720700444,
      0.2792351479242825, 0.16449619283578504, -0.3649028317980824, -0.20738262411635713,
      0.08901288565965808, 0.6262239008693476, 0.6120803499457825, 0.13075693485027726,
      0.14617896348467277, 0.15068189989944866, 0.17036816235965033, 0.14945430946202637,
      -0.13730621249024244, 0.08522192250689159, 0.16600458808752752, -0.1267459173477011,
      -0.01785630145550785, 0.5368902835499773, -0.21417556220577025, 0.060859414458745056,
      -0.3517965801475246, 0.1980683479012154, 0.15229479459067238, -0.203301019890234,
      0.3990565328722302, 0.0659256816439301, -0.42777140939123504, 0.1841207427561357,
      -0.23207086035959704},
  ev = {4.73243697758359, 2.51108092964513, 1.4542418678464635, 0.9241658668248733},
  ratio = {0.3619884809992634, 0.1920749025700899, 0.1112363053624996, 0.07069030182714028},
  sv = {28.94203422415735, 21.082251410776507, 16.043715611067906, 12.789736448731169},
  noise = 0.38350229842039557,
  score = -15.482227882930014,
  score_samples = {-14.33970041261507, -13.974372481718472, -13.313918473492139},
  transform = {3.3167508122147793, -1.4434626343180073, -0.16573904461442027, -0.2156311875590841,
      2.209464916918848, 0.3333928870803021, -2.0264573738075384, -0.29135831818067454},
  transform_w = {1.524650935585608, -0.9109094157414435, -0.13743789950735938, -0.2243037904157628,
      1.0156514442743003, 0.21039042699304497, -1.6804250654711188, -0.3030766369042982},
}

local WIDE = {
  components = {-0.005343001108900465, -0.004140805163378013, 0.005354482891345127,
      0.021849884084663866, 0.04076015685710604, 0.056364307812128644, 0.06449626430349953,
      0.06450424349750104, 0.05955729602401535, 0.05515485194750861, 0.05654025287674762,
      0.06623472647672395, 0.0828516137025396, 0.1017485362153676, 0.11721077945436516,
      0.12513901218951584, 0.12497726605292388, 0.11997441614948103, 0.11565618432996187,
      0.11722630586281907, 0.1271191314268236, 0.14385471394905994, 0.16273485083812947,
      0.17805272207432546, 0.18577689683642387, 0.18544737840974929, 0.18039194782873352,
      0.1761610564584095, 0.17791736198924135, 0.18800764985654717, 0.20485910338073543,
      0.223719024027655, 0.23889009979216994, 0.24640994005713018, 0.245914649814679,
      0.2408099751744641, 0.23666952775201938, 0.23861342803589564, 0.2489002327178053,
      0.26586470018958874, 0.023208116877374237, 0.16050423964603697, 0.22221000185199155,
      0.17925286499601906, 0.051784887410636464, -0.10029510365828544, -0.20551286645024858,
      -0.21443419740592382, -0.12291460953184173, 0.025951450607183176, 0.16209859447678662,
      0.22144333860266274, 0.1760235681805797, 0.047149556588907245, -0.10461858916343923,
      -0.20795329304106352, -0.21430598351565783, -0.12074024534811974, 0.028687138441743535,
      0.16364678003565522, 0.22061369683480112, 0.17274410338128823, 0.04250046310470823,
      -0.10891295921447233, -0.21033541951418294, -0.2141177043004374, -0.11853230029305714,
      0.0314141290855239, 0.16514808076634346, 0.2197210332686486, 0.16941511995007366,
      0.03783864354129731, -0.11317727751810287, -0.21265885021965922, -0.21386969083400365,
      -0.11629167645492947, 0.03413137370192533, 0.16660179436817127, 0.21876532244242636,
      0.16603728123913167, 0.2230414610061015, 0.1545218779889159, 0.013385112604932123,
      -0.13396157340181758, -0.218190295585713, -0.19965853413241505, -0.08705363035900668,
      0.06669300565088528, 0.18930036428551733, 0.22313272464736014, 0.15230663467418995,
      0.010161146829735363, -0.13642205920707812, -0.21847417555019527, -0.19737637412260417,
      -0.08302284493677672, 0.07083259606917619, 0.1918577665937325, 0.22316107352990713,
      0.15004851815911824, 0.006934513348598962, -0.1388437525600894, -0.2186960476006833,
      -0.19503815402790425, -0.07896831319264665, 0.07495245078013793, 0.1943612331769312,
      0.22312665348399222, 0.14774832071998634, 0.0037062782639242066, -0.14122581493694297,
      -0.21885569516266015, -0.19264438108156678, -0.07489102760792048, 0.07905155883388607,
      0.19681021008216637, 0.22302962808633903, 0.1454068465304952, 0.00047750813093315925,
      -0.14356741901849077},
  sv = {25.077922273914023, 4.948888790192208, 0.27706698692743964},
}

local raw = luma.datasets.load("wine")
local X = (raw - raw:mean(1)):div(raw:std(1))
local n = X:rows()

describe("luma.decomposition.PCA", function()
  it("matches scikit-learn on standardized wine (components, variances, singular values)", function()
    local p = PCA{ n_components = 4, svd_solver = "full", ddof = 1 }:fit(X)
    assert.equal(4, p.n_components)
    assert.matrix_near(rows(WINE.components, 13), p.components, 1e-10)
    assert.matrix_near(column(WINE.ev), p.explained_variance, 1e-10)
    assert.matrix_near(column(WINE.ratio), p.explained_variance_ratio, 1e-10)
    assert.matrix_near(column(WINE.sv), p.singular_values, 1e-10)
    assert.near(WINE.noise, p.noise_variance, 1e-10)
    assert.near(WINE.score, p:score(X), 1e-10 * math.abs(WINE.score))
    assert.matrix_near(column(WINE.score_samples), p:score_samples(X:sub(1, 3)), 1e-10)
    assert.matrix_near(rows(WINE.transform, 4), p:transform(X:sub(1, 2)), 1e-10)
    local w = PCA{ n_components = 4, svd_solver = "full", ddof = 1, whiten = true }:fit(X)
    assert.matrix_near(rows(WINE.transform_w, 4), w:transform(X:sub(1, 2)), 1e-10)
  end)

  it("gives the same model with every solver", function()
    local ref = PCA{ n_components = 4, svd_solver = "full" }:fit(X)
    for _, solver in ipairs{ "covariance_eigh", "gram", "randomized", "power" } do
      local p = PCA{ n_components = 4, svd_solver = solver, seed = 3 }:fit(X)
      assert.matrix_near(ref.components, p.components, 1e-9)
      assert.matrix_near(ref.singular_values, p.singular_values, 1e-10)
      assert.matrix_near(ref.explained_variance_ratio, p.explained_variance_ratio, 1e-10)
      assert.near(ref.noise_variance, p.noise_variance, 1e-10)
    end
  end)

  it("uses the Gram trick for N << D with scikit-learn's components", function()
    local i = luma.arange(1, 6)
    local j = luma.arange(1, 40):t()
    local W = (i * 0.3 + j * 0.7):sin() + (j * 0.1):mul(i:cos())
    local p = PCA{ n_components = 3, svd_solver = "gram" }:fit(W)
    assert.matrix_near(rows(WIDE.components, 40), p.components, 1e-9)
    assert.matrix_near(column(WIDE.sv), p.singular_values, 1e-10)
  end)

  it("holds the notes' identities with the 1/N divisor (notes 004 P6, P7, P9)", function()
    local full = PCA{}:fit(X)
    -- lambda_d = sigma_d^2 / N, and the variances add up to tr S
    assert.matrix_near(full.singular_values:pow(2) / n, full.explained_variance, 1e-12)
    assert.near(X:var(1):sum(), full.explained_variance:sum(), 1e-12)
    -- mean squared reconstruction error = sum of the discarded eigenvalues
    for _, k in ipairs{ 1, 4, 9 } do
      local p = PCA{ n_components = k }:fit(X)
      local lost = full.explained_variance:sub(k + 1, 13, 1, 1):sum()
      assert.near(lost, p:reconstruction_error(X), 1e-12)
      local rebuilt = p:inverse_transform(p:transform(X))
      assert.near(lost, (X - rebuilt):pow(2):sum() / n, 1e-12)
    end
    -- every component kept: an exact rebuild
    assert.matrix_near(X, full:inverse_transform(full:transform(X)), 1e-12)
  end)

  it("whitens to unit covariance with L^{-1/2} (notes 003 erratum)", function()
    local p = PCA{ n_components = 5, whiten = true }:fit(X)
    local Z = p:transform(X)
    assert.matrix_near(luma.eye(5), (Z:t() * Z) / n, 1e-12)
    assert.matrix_near(X, PCA{ whiten = true }:fit(X):inverse_transform(PCA{ whiten = true }:fit(X):transform(X)), 1e-12)
  end)

  it("reproduces notes 002 D12: (-1,-1), (1,1) give eigenvalues 2, 0 and (1,1)/sqrt(2)", function()
    local p = PCA{ n_components = 1 }:fit(luma.matrix{ { -1, -1 }, { 1, 1 } })
    assert.matrix_near({ { 2 } }, p.explained_variance, 1e-15)
    -- up to sign: both entries of U tie in magnitude, so svd_flip's choice
    -- rests on rounding (scikit-learn 1.2.1 prints [[0.70710678, 0.70710678]])
    assert.matrix_near({ { math.sqrt(0.5), math.sqrt(0.5) } }, p.components:abs(), 1e-15)
  end)

  it("chooses n_components by variance fraction, Minka's mle and Gavish-Donoho", function()
    assert.equal(5, PCA{ n_components = 0.8 }:fit(X).n_components)
    assert.equal(12, PCA{ n_components = "mle" }:fit(raw).n_components)
    -- rank 3 signal plus unit Gaussian noise in 400 x 60: the threshold keeps 3
    local g = luma.random.Generator(7)
    local signal = g:normal(400, 3) * g:normal(3, 60) * 3
    local noisy = signal + g:normal(400, 60)
    assert.equal(3, PCA{ n_components = "gavish_donoho", noise_std = 1 }:fit(noisy).n_components)
    assert.equal(3, PCA{ n_components = "gavish_donoho" }:fit(noisy).n_components)
  end)

  it("scores with the PPCA Gaussian of its covariance and precision", function()
    local p = PCA{ n_components = 3 }:fit(X)
    local C, P = p:get_covariance(), p:get_precision()
    assert.matrix_near(luma.eye(13), C * P, 1e-10)
    local _, logdet = luma.linalg.slogdet(C)
    local Xr = X:sub(1, 5) - p.mean
    local quad = (Xr * P):mul(Xr):sum(2)
    local expected = (quad + (13 * math.log(2 * math.pi) + logdet)) * -0.5
    assert.matrix_near(expected, p:score_samples(X:sub(1, 5)), 1e-10)
    assert.near(p:score_samples(X):mean(), p:score(X), 1e-12)
  end)

  it("is reproducible with a seed and independent of the randomized sample side", function()
    local a = PCA{ n_components = 3, svd_solver = "randomized", seed = 11 }:fit(X)
    local b = PCA{ n_components = 3, svd_solver = "randomized", seed = 11 }:fit(X)
    assert.matrix_near(a.components, b.components, 0)
    -- more columns than rows: the transpose is sampled, signs still U-based
    -- up to the sign rule scikit-learn uses there (rows of Vt)
    local Xt = X:sub(1, 10):copy()
    local r = PCA{ n_components = 2, svd_solver = "randomized", seed = 1 }:fit(Xt)
    local f = PCA{ n_components = 2, svd_solver = "full" }:fit(Xt)
    assert.matrix_near(f.singular_values, r.singular_values, 1e-10)
    assert.matrix_near(f.components:abs(), r.components:abs(), 1e-9)
  end)

  it("runs the range finder's pass as its two products, bit-identically with 1 and 2 threads", function()
    -- native.range_pass(X, mean, Q, keep_P, want_ss): S = A^T (A Q), P = A Q
    -- and |A|_F^2 for A = X - 1 mean, one read of each row block; 3000 rows
    -- of 1500 columns make 18 chunks of 2 blocks of 87 rows (blocks of
    -- about 1 MB, at most 32 chunks), the last chunk 42 rows: the blocks'
    -- sums within a chunk, the chunks' partials and a short block
    local native = require("luma.decomposition.native")
    local g = luma.random.Generator(5)
    local X, Q = g:normal(3000, 1500), g:normal(1500, 7)
    local mean = X:sum(1) / 3000
    local A = X - mean
    local P0, S0 = A * Q, A:t() * (A * Q)
    local saved = luma.config().threads
    local out = {}
    for _, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      out[threads] = { native.range_pass(X, mean, Q, true, true) }
    end
    luma.config{ threads = saved }
    local S, P, ss = table.unpack(out[2])
    assert.matrix_near(S0, S, 1e-9 * S0:abs():max())
    assert.matrix_near(P0, P, 1e-11 * P0:abs():max())
    assert.near(luma.matrix.dot(A, A), ss, 1e-12 * ss)
    assert.matrix_near(out[1][1], S, 0)
    assert.matrix_near(out[1][2], P, 0)
    assert.equal(out[1][3], ss)
    -- no centring, P and ss not asked for; a transposed view as X and Q
    local Xt, Qt = X:t():copy(), Q:t():copy()
    local S2, P2, ss2 = native.range_pass(Xt:t(), nil, Qt:t())
    assert.matrix_near(X:t() * (X * Q), S2, 1e-9 * S2:abs():max())
    assert.is_nil(P2)
    assert.is_nil(ss2)
    -- no columns: empty products (BLAS is not called with them)
    local Se, Pe, sse = native.range_pass(luma.zeros(5, 0), nil, luma.zeros(0, 3), true, true)
    assert.same({ 0, 3, 5, 3, 0, 0 }, { Se:rows(), Se:cols(), Pe:rows(), Pe:cols(), Pe:abs():sum(), sse })
    -- the mean is a row or a column: a 2 x 3 one, with X's 6 elements, was
    -- read past its two rows (the API fuzzer under ASan found it)
    local Y = luma.ones(4, 6)
    errors_with("mean must be a vector of 6 elements %(one per column of X%), got 2 x 3",
      function() native.range_pass(Y, luma.ones(2, 3), luma.ones(6, 2)) end)
    errors_with("mean must be a vector of 6 elements %(one per column of X%), got 3 x 2",
      function() native.centred_transpose(Y, luma.ones(3, 2)) end)
    assert.matrix_near(luma.zeros(6, 4), native.centred_transpose(Y, luma.ones(6, 1)), 0)
  end)

  describe("bad input", function()
    it("refuses n_components larger than min(N, D)", function()
      errors_with("n_components = 14 is more than min%(n_samples, n_features%) = min%(178, 13%) = 13",
        function() PCA{ n_components = 14 }:fit(X) end)
      errors_with("n_components = 6 is more than", function() PCA{ n_components = 6 }:fit(X:sub(1, 5)) end)
    end)
    it("refuses NaN in fit and transform", function()
      local bad = X:copy()
      bad:set(3, 2, 0 / 0)
      errors_with("bad argument #1 to 'fit' %(PCA: X has a non%-finite element, nan at row 3, column 2; "
        .. "impute missing values first, e%.g%. with luma%.preprocessing%.SimpleImputer%)",
        function() PCA{}:fit(bad) end)
      local p = PCA{ n_components = 2 }:fit(X)
      errors_with("bad argument #1 to 'transform'", function() p:transform(bad) end)
    end)
    it("refuses an inverse_transform of the wrong width", function()
      local p = PCA{ n_components = 2 }:fit(X)
      errors_with("bad argument #1 to 'inverse_transform' %(X has 3 columns but luma.decomposition.PCA was fitted on 2%)",
        function() p:inverse_transform(luma.zeros(4, 3)) end)
    end)
    it("refuses fractions and mle where they cannot work", function()
      errors_with("needs the whole spectrum", function() PCA{ n_components = 0.5, svd_solver = "randomized" }:fit(X) end)
      errors_with("needs n_samples >= n_features", function() PCA{ n_components = "mle" }:fit(X:sub(1, 5)) end)
      errors_with("must be an integer, a fraction", function() PCA{ n_components = "all" }:fit(X) end)
      errors_with("PCA: parameter 'ddof' must be", function() PCA{ ddof = 2 } end)
    end)
    it("refuses methods before fit and a singular PPCA covariance", function()
      errors_with("PCA: transform called before fit", function() PCA{}:transform(X) end)
      local wide = PCA{}:fit(X:sub(1, 5))
      errors_with("PPCA covariance is singular", function() wide:score(X:sub(1, 5)) end)
    end)
  end)
end)
