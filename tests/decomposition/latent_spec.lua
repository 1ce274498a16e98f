-- luma.decomposition.ProbabilisticPCA and FactorAnalysis
-- (lua/luma/decomposition/latent.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr; X = StandardScaler().fit_transform(
-- wine data), N = 178:
-- fa: FactorAnalysis(n_components=3, svd_method="lapack", tol=1e-10,
--   max_iter=10000).fit(X): loglike_[-1] / N, n_iter_, score(X),
--   noise_variance_, get_covariance()[:3], |transform(X[:2])|,
--   score_samples(X[:3]); varimax_abs: |components_| of the same with
--   rotation="varimax"; fa_default: FactorAnalysis(n_components=2)
--   (randomized SVD, tol 1e-2): loglike_[-1] / N, n_iter_.
-- ppcaK: the maximum-likelihood PPCA log-likelihood through scikit-learn:
--   p = PCA(n_components=K).fit(X), then p.explained_variance_ and
--   p.noise_variance_ multiplied by (N - 1) / N (the 1/N covariance) and
--   p.score(X), p.score_samples(X[:3]).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local PPCA, FA = luma.decomposition.ProbabilisticPCA, luma.decomposition.FactorAnalysis

local rows = support.rows

local REF = {
fa = { loglike = -15.080249758146444, n_iter = 2074, score = -15.080249758171067,
  noise = {0.3875062376242696, 0.7265303330998125, 0.5216255436443282, 0.07286827182869005,
      0.8372180974966181, 0.19864272588214815, 0.06893577878310964, 0.657728322791686,
      0.5551401592334083, 0.24614056242141957, 0.5025410615077359, 0.25187511782855476,
      0.38409001468150317},
  cov = {0.9999999867564815, 0.034750789044604866, 0.18816080444786515, -0.31288851950952645,
      0.2914481704410254, 0.30545629444198813, 0.24827174996529155, -0.14721033501884173,
      0.20376976471526623, 0.5548469002598673, -0.117964459679603, 0.017120162518410347,
      0.5595746851378302, 0.034750789044604866, 0.9999999934911604, 0.14544343658627687,
      0.29472253557855177, -0.007863665201232972, -0.3468844030514243, -0.4090621968653096,
      0.2789234749922617, -0.25742418184130184, 0.2926492231370357, -0.3611505215199906,
      -0.4159425485803061, -0.13398171326134925, 0.18816080444786515, 0.14544343658627687,
      0.9999999693741823, 0.4386953583009985, 0.16544464257855482, 0.15124658003571842,
      0.11209284487897957, 0.06523970966067821, 0.12683174022930865, 0.30055599764329005,
      -0.14711435467886189, -0.006766434034003432, 0.12490064468620016},
  transform_abs = {1.385364405966088, 0.37913039733632264, 0.5211106443801125, 1.4287077567629938,
      1.8161837700421548, 0.5340011789889317},
  samples = {-14.306637370466195, -13.390788854989955, -12.470979283159625} },
varimax_abs = {0.1935173912658756, 0.40915398880299886, 0.17044982396845088, 0.23932950444289547,
    0.20936933591511053, 0.8753356231763911, 0.9553929145908095, 0.520095518608346,
    0.6592990900385226, 0.2284269321527057, 0.5700336834522932, 0.8266852656510241,
    0.46511946294526046, 0.18834095775431742, 0.24257923746385968, 0.5674910467685437,
    0.9241141529788722, 0.011967482650109398, 0.09717850287724111, 0.12373834040443962,
    0.267851366624142, 0.034214941390043246, 0.07367044882697309, 0.20245160885761876,
    0.11881096161708547, 0.27685284007294153, 0.7345559556916331, 0.2172970027160885,
    0.35675649269007115, 0.1259612052608072, 0.3446783433258032, 0.16031581385368165,
    0.05456576540766752, 0.005288332150889914, 0.09494150769014245, 0.8344179124898355,
    0.36267600702423863, 0.22494512842851716, 0.5682661038290896},
fa_default = { loglike = -15.433975468376328, n_iter = 23 },
ppca2 = {score = -16.155259888194486, samples = {-14.010634669451669, -16.326626532780786,
    -13.992073354684848}},
ppca5 = {score = -15.21264511121992, samples = {-14.282679921953124, -14.17685633290563,
    -13.486104034246482}},
}

local raw = luma.datasets.load("wine")
local X = (raw - raw:mean(1)):div(raw:std(1))

describe("luma.decomposition.ProbabilisticPCA", function()
  it("matches the maximum-likelihood PPCA log-likelihood of scikit-learn's PCA", function()
    for _, k in ipairs{ 2, 5 } do
      local ref = REF["ppca" .. k]
      local p = PPCA{ n_components = k }:fit(X)
      assert.near(ref.score, p:score(X), 1e-10 * math.abs(ref.score))
      assert.matrix_near(rows(ref.samples, 1), p:score_samples(X:sub(1, 3)), 1e-10)
    end
  end)

  it("has the closed form of notes 004 P18: sigma^2 the mean discarded eigenvalue", function()
    local pca = luma.decomposition.PCA{}:fit(X)
    local p = PPCA{ n_components = 4 }:fit(X)
    local ev = pca.explained_variance
    assert.near(ev:sub(5, 13, 1, 1):mean(), p.noise_variance, 1e-12)
    -- W^T W = L_k - sigma^2 I on the principal axes, same signs as PCA
    local WtW = p.components * p.components:t()
    assert.matrix_near(luma.diag(ev:sub(1, 4, 1, 1) - p.noise_variance), WtW, 1e-10)
    assert.matrix_near(pca.components:sub(1, 4, nil, nil),
      p.components:div((ev:sub(1, 4, 1, 1) - p.noise_variance):sqrt()), 1e-10)
    -- C = W W^T + sigma^2 I reproduces S on the principal subspace
    local S = (X - X:mean(1)):t() * (X - X:mean(1)) / X:rows()
    local U = pca.components:sub(1, 4, nil, nil)
    assert.matrix_near(U * S * U:t(), U * p:get_covariance() * U:t(), 1e-10)
  end)

  it("reaches the closed form by EM, never decreasing the likelihood (Roweis)", function()
    local closed = PPCA{ n_components = 3 }:fit(X)
    local em = PPCA{ n_components = 3, method = "em", tol = 1e-13, max_iter = 5000, seed = 2 }:fit(X)
    local h = em.loglik_history
    for t = 2, h:rows() do assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-12) end
    assert.near(closed:score(X), em:score(X), 1e-9)
    assert.near(closed.noise_variance, em.noise_variance, 1e-7)
    assert.matrix_near(closed.components, em.components, 1e-5)
  end)

  it("gives the posterior of notes 004 P17 and samples from prior and posterior", function()
    local p = PPCA{ n_components = 2, seed = 5 }:fit(X)
    local W = p.components:t()
    local C = p:get_covariance()
    local xr = X:sub(1, 4) - p.mean
    -- m = W^T C^-1 (x - mu), C_z = I - W^T C^-1 W
    local Cinv = luma.linalg.inv(C)
    local mean, cov = p:posterior(X:sub(1, 4))
    assert.matrix_near(xr * Cinv * W, mean, 1e-10)
    assert.matrix_near(luma.eye(2) - W:t() * Cinv * W, cov, 1e-10)
    assert.matrix_near(mean, p:transform(X:sub(1, 4)), 0)
    -- generating from the latent space (004 Example 10.5): x~ = W z + mu
    assert.matrix_near(mean * p.components + p.mean, p:inverse_transform(mean), 1e-12)
    local S, Z = p:sample(40000)
    assert.equal(40000, S:rows())
    assert.matrix_near(C:sub(1, 3, 1, 3), ((S - S:mean(1)):t() * (S - S:mean(1)) / 40000):sub(1, 3, 1, 3), 0.04)
    assert.matrix_near(luma.eye(2), Z:t() * Z / 40000, 0.03)
    local Xs, Zs = p:sample_posterior(X:sub(1, 3))
    assert.equal(3, Xs:rows())
    assert.equal(2, Zs:cols())
  end)

  it("names a generator argument that is not one (issue 28: it failed inside latent.lua)", function()
    local p = PPCA{ n_components = 2 }:fit(X)
    local ok, err = pcall(p.sample, p, 3, 5)
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'sample' (luma.Generator or nil expected, got number)",
      err, 1, true)
    assert.is_nil(err:find("lua/luma/", 1, true))
    ok, err = pcall(p.sample_posterior, p, X:sub(1, 2), "seed")
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'sample_posterior' (luma.Generator or nil expected, got "
      .. "string)", err, 1, true)
    -- the same generator state gives the same draws
    local a = p:sample(5, luma.random.Generator(9))
    assert.matrix_near(a, p:sample(5, luma.random.Generator(9)), 0)
  end)

  it("refuses k >= d, NaN and a collapsed noise", function()
    errors_with("n_components = 13 must be less than n_features = 13", function() PPCA{ n_components = 13 }:fit(X) end)
    local bad = X:copy()
    bad:set(2, 5, 0 / 0)
    errors_with("ProbabilisticPCA: X has a non%-finite element, nan at row 2, column 5", function() PPCA{}:fit(bad) end)
    local flat = luma.matrix{ { 1, 2, 3 }, { 2, 4, 6 }, { 3, 6, 9 } }
    errors_with("the noise variance is 0", function() PPCA{ n_components = 2 }:fit(flat) end)
  end)
end)

describe("luma.decomposition.FactorAnalysis", function()
  it("matches scikit-learn's log-likelihood, noise and covariance (lapack SVD, converged)", function()
    local fa = FA{ n_components = 3, svd_method = "lapack", tol = 1e-10, max_iter = 10000 }:fit(X)
    -- (about 2,000 slow iterations: the count itself may differ by one)
    assert.is_true(math.abs(REF.fa.n_iter - fa.n_iter) <= 2)
    assert.near(REF.fa.loglike, fa.loglike:get(fa.loglike:rows(), 1), 1e-6)
    assert.near(REF.fa.score, fa:score(X), 1e-6)
    assert.matrix_near(rows(REF.fa.noise, 1), fa.noise_variance, 1e-6)
    assert.matrix_near(rows(REF.fa.cov, 13), fa:get_covariance():sub(1, 3, nil, nil), 1e-6)
    assert.matrix_near(rows(REF.fa.transform_abs, 3), fa:transform(X:sub(1, 2)):abs(), 1e-6)
    assert.matrix_near(rows(REF.fa.samples, 1), fa:score_samples(X:sub(1, 3)), 1e-6)
    local v = FA{ n_components = 3, svd_method = "lapack", tol = 1e-10, max_iter = 10000,
      rotation = "varimax" }:fit(X)
    assert.matrix_near(rows(REF.varimax_abs, 13), v.components:abs(), 1e-6)
  end)

  it("stops where scikit-learn does with its defaults (randomized SVD)", function()
    local fa = FA{ n_components = 2 }:fit(X)
    assert.equal(REF.fa_default.n_iter, fa.n_iter)
    -- different random numbers and normalizer in the randomized SVD
    assert.near(REF.fa_default.loglike, fa.loglike:get(fa.loglike:rows(), 1), 1e-6)
  end)

  it("reaches the same likelihood by EM, never decreasing it", function()
    local svd = FA{ n_components = 3, svd_method = "lapack", tol = 1e-10, max_iter = 10000 }:fit(X)
    local em
    capture_warnings(function()
      em = FA{ n_components = 3, method = "em", tol = 1e-9, max_iter = 20000, seed = 1 }:fit(X)
    end)
    local h = em.loglike
    for t = 2, h:rows() do assert.is_true(h:get(t, 1) >= h:get(t - 1, 1) - 1e-12) end
    assert.near(svd:score(X), em:score(X), 1e-6)
    assert.matrix_near(svd:get_covariance(), em:get_covariance(), 1e-4)
  end)

  it("refuses more factors than features and NaN", function()
    errors_with("n_components = 14 is more than n_features = 13", function() FA{ n_components = 14 }:fit(X) end)
    local bad = X:copy()
    bad:set(1, 1, 1 / 0)
    errors_with("FactorAnalysis: X has a non%-finite element, inf at row 1, column 1", function() FA{}:fit(bad) end)
  end)
end)
