-- luma.manifold.MDS and TSNE (lua/luma/manifold/*.lua,
-- src/ml/manifold/tsne.c).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr; iris = the iris features, X =
-- iris[:40], Y[i] = (sin(1.3 i), cos(0.7 i)) for i = 1..40:
-- P_exact: squareform(_joint_probabilities(pairwise_distances(X,
--   squared=True), 10.0, 0))[:3]; kl_exact, grad_exact (first 5 rows):
--   _kl_divergence(Y.ravel(), P, 1, 40, 2) (sklearn.manifold._t_sne);
-- P_nn: _joint_probabilities_nn on NearestNeighbors(n_neighbors=31)
--   .kneighbors_graph(mode="distance") with squared data, .toarray()[:3];
-- classical: PCA(2).fit_transform(iris)[:4] (classical scaling of
--   Euclidean distances is PCA: scikit-learn has no classical MDS);
-- smacof: MDS(n_components=2, n_init=1, random_state=0,
--   normalized_stress=False).fit_transform(iris, init=Y0) with Y0[i] =
--   (sin(0.9 i), cos(0.4 i)), i = 1..150: stress_, n_iter_, embedding[:4];
-- digits_kl: TSNE(perplexity=30, n_iter=1000, init="pca",
--   random_state=0).fit(digits).kl_divergence_ (Barnes-Hut, 999 iterations).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local MDS, TSNE = luma.manifold.MDS, luma.manifold.TSNE
local native = require("luma.manifold.native")

local rows = support.rows

local REF = {
P_exact = {0.0, 3.3727208694497126e-05, 1.4131267863336478e-05, 1.2031995581107704e-06,
    0.004011736462216235, 9.189154492316183e-05, 8.221821475661552e-05, 0.003145275120653482,
    5.884496324041676e-06, 5.7237826033770574e-05, 0.0005786378228165872, 0.0002688665190035993,
    1.218387654390965e-05, 2.1611610134032826e-05, 9.221212748257276e-05, 7.334718344412399e-05,
    0.00015143054439470334, 0.004736922550396064, 7.6165029581918e-05, 0.0010692951283707108,
    0.00048471176346121474, 0.0013382794449442836, 0.00038559234715162405, 0.00028896766620762623,
    9.636769203610223e-05, 4.6395551369551475e-05, 0.0008647909171879249, 0.003908784094194448,
    0.0039510671422052935, 1.427873639426343e-05, 1.3587275309833498e-05, 0.0006024904512345153,
    0.00022619439071891153, 7.879433741223424e-05, 5.373402815911512e-05, 0.000716198000389277,
    0.0008736135102299123, 0.002478167162937841, 8.59573100525694e-06, 0.0036146020356253223,
    3.3727208694497126e-05, 0.0, 0.0018032005382084865, 0.0011047823065324471,
    9.414219710798835e-06, 3.5369854166673303e-09, 0.00014101426768572451, 0.00019335619079087645,
    0.0005890644122995769, 0.003737226333406945, 1.843522315797074e-08, 0.00012470505571677935,
    0.004792799487536835, 0.0003964923239589287, 2.087751198543101e-07, 4.999235180131946e-07,
    2.778774787752416e-10, 2.7324628467830506e-05, 5.220853183017127e-08, 6.888514566240954e-08,
    3.1142304296184077e-06, 3.60361124254437e-07, 5.12722428708682e-05, 8.386762586329282e-05,
    3.8381696683706836e-05, 0.0033547160468869984, 6.704985492587779e-05, 1.1881412964128615e-05,
    7.151149688195993e-05, 0.0008279979543141677, 0.002223118230647584, 2.468074276936383e-06,
    2.880094814228295e-08, 5.167003067312512e-08, 0.004308984332569187, 0.003601362055043011,
    1.2326981879323973e-06, 1.4128277363762028e-05, 0.0004939822372454399, 0.00012479738497517064,
    1.4131267863336478e-05, 0.0018032005382084865, 0.0, 0.004116445028539902,
    1.9105085406041103e-05, 3.992206882317596e-09, 0.005233545702403272, 0.00012197804182740915,
    0.0009784126055287445, 0.001218750746924313, 1.9035479745357537e-12, 0.0003973023981298115,
    0.0030009523042378574, 0.0012563143128074717, 1.9722325414645778e-07, 7.867856816822693e-07,
    9.83212757197273e-10, 8.795198711094972e-06, 1.399376947668947e-08, 2.7043454887664215e-07,
    7.763153947569767e-08, 4.4395934436359743e-07, 0.0021197644523996717, 1.0310410050710808e-05,
    4.0141876145314e-05, 0.0001687914566823459, 1.4379307698713672e-05, 3.929055315359147e-07,
    6.877398751082464e-06, 0.0017360722205244285, 0.0009524235112058505, 1.8418174628425724e-08,
    2.1814950077085418e-07, 1.34414236843426e-07, 0.0014849709383244782, 0.0028751547135733376,
    2.1452937104675976e-07, 0.00011554251709922409, 0.001591516459301299, 1.9941709651886453e-05},
kl_exact = 1.410120274269944,
grad_exact = {0.020586370464375402, 0.004721202012582378, 0.0008971372674455777,
    -0.01636878937606331, -0.0029421278932693683, 0.003238698790343243, -0.012674705305833617,
    -0.0045731822407871926, 0.01066871025454662, -0.010059575192354318},
P_nn = {0.0, 3.373360105786879e-05, 1.4139402230449963e-05, 1.2035612826478122e-06,
    0.004011122884706004, 9.189242382730305e-05, 8.222499190040344e-05, 0.0031452717726970546,
    5.884994805384408e-06, 5.725786545012278e-05, 0.0005786974153435447, 0.00026892611166234263,
    1.2185338498381475e-05, 2.1626698518457526e-05, 9.231868740503671e-05, 7.370810641298722e-05,
    0.00015143905822822778, 0.004736539378029061, 7.61643908457363e-05, 0.0010694202710208368,
    0.00048476805926921476, 0.0013384128594525983, 0.0003861479096910496, 0.00028899442463341577,
    9.63886699726747e-05, 4.640177143586464e-05, 0.0008648928995094179, 0.003908674028401067,
    0.003950932677072793, 1.428338293521277e-05, 1.359192263565962e-05, 0.0006025626391977183,
    0.00022626753991617776, 7.885326985637424e-05, 5.3753895438655026e-05, 0.0007162576408541229,
    0.0008736989751775124, 0.002478132550066231, 8.596288471592375e-06, 0.003614499567996356,
    3.373360105786879e-05, 0.0, 0.0018032074692626793, 0.0011047899845782548,
    9.418217215501527e-06, 0.0, 0.00014101675922996524, 0.0001933616951280572,
    0.0005890747175448224, 0.003737202529055085, 0.0, 0.0001247092502597277, 0.004792781829526385,
    0.0003965764491052098, 2.0956322652848305e-07, 0.0, 0.0, 2.7327289027876368e-05,
    5.222998688865415e-08, 4.119662536643291e-08, 3.1151071893122534e-06, 2.8370543500754145e-07,
    5.151856743615994e-05, 8.387334985283866e-05, 3.839178677244529e-05, 0.003354703032184975,
    6.705347367159177e-05, 1.1882310422550303e-05, 7.151717789982263e-05, 0.0008280056261961808,
    0.002223120661618155, 2.468445033174914e-06, 0.0, 0.0, 0.004308966997236169,
    0.0036013692123608126, 1.2336150254551156e-06, 1.4138631280161201e-05, 0.0004939923296437558,
    0.00012480293923912775, 1.4139402230449963e-05, 0.0018032074692626793, 0.0,
    0.004116445029589556, 1.912954297773976e-05, 0.0, 0.005233546418262382, 0.00012197804257948354,
    0.0009784181038435013, 0.0012187623750838635, 0.0, 0.00039730239835588554,
    0.0030009525047000347, 0.0012563398126066278, 0.0, 0.0, 9.834153626475292e-10,
    8.797296938160369e-06, 0.0, 2.7065923379482145e-07, 7.767437013095344e-08,
    4.443146566987856e-07, 0.002118731107675674, 1.0311541600445309e-05, 4.015271079555839e-05,
    0.00016879659845158, 1.4379995741519065e-05, 3.9293797274220926e-07, 6.878604671012233e-06,
    0.0017360722301915299, 0.0009524235460264338, 1.8427075203832686e-08, 2.1848820489880888e-07,
    1.3474657859015053e-07, 0.0014849711058728613, 0.0028751548796720006, 2.1474715208068704e-07,
    0.00011561921328898376, 0.0015915180392896506, 1.9942458981932942e-05},
classical = {-2.684125625969538, 0.3193972465851021, -2.714141687294327, -0.1770012250647807,
    -2.8889905690592976, -0.1449494260855574, -2.7453428556414106, -0.3182989792519161},
smacof = {stress = 199.63992160253036, n_iter = 81, embedding = {0.4230482927398879,
    2.684750008255827, 0.925393131718619, 2.5719864516238404, 0.9050651311391782,
    2.7647663430321314, 1.0502503878861205, 2.5682503658833147}},
  digits_kl = 0.7536982893943787,
}

local iris = luma.datasets.load("iris")
local X = iris:sub(1, 40):copy()
local i40 = luma.arange(1, 40)
local Y = luma.matrix.hstack{ (i40 * 1.3):sin(), (i40 * 0.7):cos() }

-- The t-SNE joint probabilities of the exact method, as TSNE computes them.
local function dense_P(D2, perplexity)
  local C = native.conditional(D2, perplexity)
  local P = C + C:t()
  P = P / P:sum()
  P = luma.matrix.where(P:lt(2.220446049250313e-16), 2.220446049250313e-16, P)
  P:diag():assign(0)
  return P
end

describe("luma.manifold.MDS", function()
  it("classical scaling of Euclidean distances is PCA's scores (notes 003 §1.15, corrected)", function()
    local m = MDS{ method = "classical" }
    local E = m:fit_transform(iris)
    assert.matrix_near(rows(REF.classical, 2), E:sub(1, 4), 1e-10)
    -- from a distance matrix and from a Gram matrix: the same embedding
    local D = luma.pairwise.distances(iris)
    assert.matrix_near(E, MDS{ method = "classical", dissimilarity = "precomputed" }:fit_transform(D), 1e-9)
    local Xc = iris - iris:mean(1)
    assert.matrix_near(E, MDS{ method = "classical", dissimilarity = "gram" }:fit_transform(Xc * Xc:t()), 1e-9)
    -- the eigenvalues are N times PCA's variances
    local pca = luma.decomposition.PCA{ n_components = 2 }:fit(iris)
    assert.matrix_near(pca.explained_variance * 150, m.eigenvalues, 1e-9)
  end)

  it("matches scikit-learn's SMACOF from the same start", function()
    local j = luma.arange(1, 150)
    local Y0 = luma.matrix.hstack{ (j * 0.9):sin(), (j * 0.4):cos() }
    local m = MDS{ n_init = 1 }
    local E = m:fit_transform(iris, nil, Y0)
    assert.equal(REF.smacof.n_iter, m.n_iter)
    assert.near(REF.smacof.stress, m.stress, 1e-8 * REF.smacof.stress)
    assert.matrix_near(rows(REF.smacof.embedding, 2), E:sub(1, 4), 1e-8)
    -- majorization never increases the stress
    local h = m.stress_history
    for t = 2, h:rows() do assert.is_true(h:get(t, 1) <= h:get(t - 1, 1) * (1 + 1e-12)) end
  end)

  it("keeps the best of n_init random starts, reproducibly", function()
    local a = MDS{ n_init = 3, seed = 4, max_iter = 50 }:fit(iris)
    local b = MDS{ n_init = 3, seed = 4, max_iter = 50 }:fit(iris)
    assert.equal(a.stress, b.stress)
    local one = MDS{ n_init = 1, seed = 4, max_iter = 50 }:fit(iris)
    assert.is_true(a.stress <= one.stress)
    local s1 = MDS{ n_init = 1, seed = 4, max_iter = 50, normalized_stress = true }:fit(iris).stress
    assert.is_true(s1 > 0 and s1 < 1)
  end)

  it("refuses bad dissimilarities and NaN", function()
    errors_with("must be square", function() MDS{ dissimilarity = "precomputed" }:fit(iris) end)
    local D = luma.pairwise.distances(iris:sub(1, 10))
    D:set(1, 2, 5)
    errors_with("must be symmetric", function() MDS{ dissimilarity = "precomputed" }:fit(D) end)
    errors_with("needs method \"classical\"", function() MDS{ dissimilarity = "gram" }:fit(luma.eye(5)) end)
    local bad = iris:copy()
    bad:set(3, 3, 0 / 0)
    errors_with("MDS: X has a non%-finite element", function() MDS{}:fit(bad) end)
  end)
end)

describe("luma.manifold.TSNE", function()
  it("calibrates each row to the perplexity (entropy log perplexity)", function()
    local C = native.conditional(luma.pairwise.distances(X, "sqeuclidean"), 10)
    local logs = luma.matrix.where(C:gt(0), C, 1):log()
    local entropy = -C:mul(logs):sum(2)
    assert.matrix_near(luma.full(40, 1, math.log(10)), entropy, 1e-4)
    assert.matrix_near(luma.ones(40, 1), C:sum(2), 1e-12)
  end)

  it("forms scikit-learn's joint probabilities, dense and on the neighbour graph", function()
    local P = dense_P(luma.pairwise.distances(X, "sqeuclidean"), 10)
    assert.matrix_near(rows(REF.P_exact, 40), P:sub(1, 3), 1e-9)
    local n, k = 40, 31
    local idx, dist = native.select(luma.pairwise.distances(X, "sqeuclidean"), 1, k)
    local C = native.conditional(dist, 10, { exclude_self = false })
    local indptr, cols, vals = native.joint(idx, C)
    local dense = luma.zeros(n, n)
    for r = 1, 3 do
      for e = indptr:get(r, 1) + 1, indptr:get(r + 1, 1) do
        dense:set(r, math.tointeger(cols:get(e, 1)), vals:get(e, 1))
      end
    end
    assert.matrix_near(rows(REF.P_nn, 40), dense:sub(1, 3), 1e-6)
    assert.near(1, vals:sum(), 1e-12)
  end)

  it("computes scikit-learn's exact KL divergence and gradient", function()
    local P = dense_P(luma.pairwise.distances(X, "sqeuclidean"), 10)
    local grad, kl = native.grad_exact(Y, P)
    assert.near(REF.kl_exact, kl, 1e-9)
    assert.matrix_near(rows(REF.grad_exact, 2), grad:sub(1, 5), 1e-9)
  end)

  it("has gradients that match finite differences (t-SNE and symmetric SNE)", function()
    local P = dense_P(luma.pairwise.distances(X, "sqeuclidean"), 10)
    for _, gaussian in ipairs{ false, true } do
      local grad = native.grad_exact(Y, P, { gaussian = gaussian })
      for _, at in ipairs{ { 3, 1 }, { 17, 2 }, { 40, 1 } } do
        local h = 1e-6
        local Yp, Ym = Y:copy(), Y:copy()
        Yp:set(at[1], at[2], Y:get(at[1], at[2]) + h)
        Ym:set(at[1], at[2], Y:get(at[1], at[2]) - h)
        local _, up = native.grad_exact(Yp, P, { gaussian = gaussian })
        local _, down = native.grad_exact(Ym, P, { gaussian = gaussian })
        assert.near((up - down) / (2 * h), grad:get(at[1], at[2]), 1e-6)
      end
    end
  end)

  it("gives the exact gradient by Barnes-Hut at angle 0", function()
    local n, k = 40, 39
    local idx, dist = native.select(luma.pairwise.distances(X, "sqeuclidean"), 1, k)
    local C = native.conditional(dist, 10, { exclude_self = false })
    local indptr, cols, vals = native.joint(idx, C)
    local P = luma.zeros(n, n)
    for r = 1, n do
      for e = indptr:get(r, 1) + 1, indptr:get(r + 1, 1) do
        P:set(r, math.tointeger(cols:get(e, 1)), vals:get(e, 1))
      end
    end
    local g_bh, kl_bh = native.grad_bh(Y, indptr, cols, vals, { theta = 0 })
    local g_ex, kl_ex = native.grad_exact(Y, P)
    assert.matrix_near(g_ex, g_bh, 1e-10)
    assert.near(kl_ex, kl_bh, 1e-10)
    -- the approximation stays close at the default angle
    local g_half = native.grad_bh(Y, indptr, cols, vals, { theta = 0.5 })
    assert.is_true((g_half - g_ex):norm() < 0.05 * g_ex:norm())
  end)

  it("reaches scikit-learn's KL divergence on digits within 5% (Barnes-Hut, 1,000 iterations)", function()
    local digits = luma.datasets.load("digits")
    local t = TSNE{ perplexity = 30, seed = 0 }
    local E = t:fit_transform(digits)
    assert.equal(1797, E:rows())
    assert.equal(999, t.n_iter)
    assert.is_true(math.abs(t.kl_divergence - REF.digits_kl) < 0.05 * REF.digits_kl,
      "KL " .. t.kl_divergence .. " against scikit-learn's " .. REF.digits_kl)
  end)

  it("embeds separated groups apart (exact t-SNE and symmetric SNE), reproducibly", function()
    local g = luma.random.Generator(2)
    local A = luma.matrix.vstack{ g:normal(15, 5), g:normal(15, 5) + 8 }
    -- symmetric SNE's gradient has no heavy-tailed damping: it needs a
    -- small step (with the automatic one, 50, it diverges here)
    for _, kernel in ipairs{ "student_t", "gaussian" } do
      local params = { perplexity = 5, method = "exact", embedding_kernel = kernel, seed = 1,
        n_iter = 500, learning_rate = kernel == "gaussian" and 2 or "auto" }
      local t = TSNE(params)
      local E = t:fit_transform(A)
      local c1, c2 = E:sub(1, 15):mean(1), E:sub(16, 30):mean(1)
      local spread = math.max(E:sub(1, 15):std(1):max(), E:sub(16, 30):std(1):max())
      assert.is_true((c1 - c2):norm() > 2 * spread, kernel .. ": the groups overlap")
      assert.matrix_near(E, TSNE(params):fit_transform(A), 0)
    end
  end)

  it("gives bit-identical embeddings with 1 and 2 threads", function()
    local saved = luma.config().threads
    local out = {}
    for _, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      out[threads] = TSNE{ perplexity = 10, seed = 3, n_iter = 300, init = "random" }:fit_transform(iris)
    end
    luma.config{ threads = saved }
    assert.matrix_near(out[1], out[2], 0)
  end)

  describe("bad input", function()
    it("refuses a perplexity of at least the number of points", function()
      errors_with("TSNE: perplexity = 40 must be less than n_samples = 40",
        function() TSNE{ perplexity = 40 }:fit(X) end)
    end)
    it("refuses NaN, more than 3 Barnes-Hut dimensions and bad distance matrices", function()
      local bad = X:copy()
      bad:set(5, 2, 0 / 0)
      errors_with("TSNE: X has a non%-finite element, nan at row 5, column 2", function() TSNE{}:fit(bad) end)
      errors_with("needs n_components <= 3", function() TSNE{ n_components = 4, perplexity = 5 }:fit(X) end)
      errors_with("must be square", function() TSNE{ metric = "precomputed", init = "random", perplexity = 5 }:fit(X) end)
      errors_with("init \"pca\" needs rows", function()
        TSNE{ metric = "precomputed", perplexity = 5 }:fit(luma.pairwise.distances(X))
      end)
      errors_with("symmetric SNE%) needs method \"exact\"", function()
        TSNE{ embedding_kernel = "gaussian", perplexity = 5 }:fit(X)
      end)
    end)
  end)
end)

describe("scripts/examples/digits_embedding.lua", function()
  it("writes the PCA and t-SNE coordinates of the digits with their labels", function()
    local dir = os.tmpname()
    os.remove(dir)
    local out, err, code = support.luma_run({ "scripts/examples/digits_embedding.lua", dir, "250" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("t-SNE KL divergence", 1, true))
    local _, y = luma.datasets.load("digits")
    for _, name in ipairs{ "pca", "tsne" } do
      local Z, info = luma.io.read_csv(dir .. "/" .. name .. ".csv", { as = "matrix" })
      assert.same({ "x", "y", "label" }, info.columns)
      assert.equal(1797, Z:rows())
      assert.matrix_near(y, Z:col(3), 0)
      assert.is_true(Z:sub(nil, nil, 1, 2):isfinite():all())
    end
    os.execute("rm -rf '" .. dir .. "'")
  end)
end)

