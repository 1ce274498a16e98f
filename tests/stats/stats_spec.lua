-- luma.stats against NumPy 1.24 / SciPy 1.10 on the same data, printed by:
--   X = np.array([[1,2],[2,5],[4,4],[8,1],[3,3],[5,9]], float)
--   np.quantile(X, [.1, .5, .9], axis=0); st.skew(X), st.skew(X, bias=False)
--   st.kurtosis(X), st.kurtosis(X, bias=False), st.kurtosis(X, fisher=False)
--   np.cov(X.T); np.corrcoef(X.T); np.histogram(X[:,0], bins=3[, density=True])
-- and KDE normalization checked by integrating the density numerically.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local st = luma.stats
local M = luma.matrix

local X = M{{1, 2}, {2, 5}, {4, 4}, {8, 1}, {3, 3}, {5, 9}}

describe("descriptive statistics #smoke", function()
  it("agree with NumPy and SciPy", function()
    assert.matrix_near({{23 / 6, 4}}, st.mean(X), 1e-15)
    assert.matrix_near({{1.5, 1.5}, {3.5, 3.5}, {6.5, 7.0}}, st.quantile(X, { 0.1, 0.5, 0.9 }), 1e-12)
    assert.matrix_near({{3.5, 3.5}}, st.median(X), 1e-12)
    assert.matrix_near({{0.6358612947838332, 0.8714212528966688}}, st.skewness(X), 1e-12)
    assert.matrix_near({{0.8706889364938687, 1.193242693252299}}, st.skewness(X, { bias = false }), 1e-12)
    assert.matrix_near({{-0.6049963476990508, -0.28500000000000014}}, st.kurtosis(X), 1e-12)
    assert.matrix_near({{0.7354273192111025, 1.6687500000000002}}, st.kurtosis(X, { bias = false }), 1e-12)
    assert.matrix_near({{2.3950036523009492, 2.715}}, st.kurtosis(X, { fisher = false }), 1e-12)
    assert.matrix_near({{6.166666666666667, -0.4}, {-0.4, 8.0}}, st.cov(X), 1e-12)
    assert.matrix_near(st.cov(X) * (5 / 6), st.cov(X, 0), 1e-12) -- the 1/n version
    assert.matrix_near({{1, -0.05694947974514988}, {-0.05694947974514988, 1}}, st.corr(X), 1e-12)
    assert.matrix_near(st.var(X, 1), st.cov(X):diag():t(), 1e-12)
    assert.matrix_near(st.var(X):sqrt(), st.std(X), 1e-15)
  end)

  it("find modes, smallest first among ties", function()
    local values, counts = st.mode(M{{1, 2}, {2, 2}, {1, 3}, {3, 3}})
    assert.matrix_near({{1, 2}}, values, 0)
    assert.matrix_near({{2, 2}}, counts, 0)
  end)

  it("bin histograms like NumPy", function()
    local counts, edges = st.histogram(X:col(1), { bins = 3 })
    assert.matrix_near({{3}, {2}, {1}}, counts, 0)
    assert.matrix_near({{1}, {10 / 3}, {17 / 3}, {8}}, edges, 1e-15)
    local density = st.histogram(X:col(1), { bins = 3, density = true })
    assert.matrix_near({{0.21428571428571427}, {0.14285714285714285}, {0.07142857142857144}},
      density, 1e-12)
    local c2 = st.histogram(M{0, 1, 1, 2, 5}, { bins = { 0, 1, 2 } })
    assert.matrix_near({{1}, {3}}, c2, 0) -- the last bin includes its right edge; 5 is outside
  end)

  it("evaluates the empirical distribution function", function()
    local F = st.ecdf(X:col(1))
    assert.equal(0.5, F(3))
    assert.equal(0, F(0.5))
    assert.equal(1, F(8))
    assert.matrix_near({{2 / 6}, {1}}, F(M{2.5, 100}), 1e-15)
    assert.matrix_near({{1}, {2}, {3}, {4}, {5}, {8}}, F.x, 0)
  end)

  it("estimates densities that integrate to 1 in one and two dimensions", function()
    local g = luma.random.Generator(1)
    local x1 = g:normal(200, 1)
    for _, kernel in ipairs({ "gaussian", "uniform" }) do
      local kde = st.KDE{ data = x1, kernel = kernel, bandwidth = 0.4 }
      local grid = luma.linspace(-8, 8, 4001)
      local p = kde:pdf(grid)
      assert.is_true(math.abs(p:sum() * (16 / 4000) - 1) < 1e-3, kernel)
    end
    -- 2-D: the notes' 1/(N h) would integrate to 1/h; 1/(N h^2) integrates to 1
    local x2 = g:normal(100, 2)
    local kde2 = st.KDE{ data = x2, bandwidth = 0.5 }
    local t = luma.linspace(-6, 6, 121)
    local grid2 = luma.hstack{ t:tile(121, 1), t:tile(1, 121):reshape(121 * 121, 1) } -- all pairs
    local mass = kde2:pdf(grid2):sum() * (12 / 120) ^ 2
    assert.is_true(math.abs(mass - 1) < 1e-3, mass)
    -- one point, Gaussian kernel: the N(x_1, h^2 I) density
    local one = st.KDE{ data = M{{1, 2}}, bandwidth = 2 }
    local expected = math.exp(-0.5 * (1 + 4) / 4) / (2 * math.pi * 4)
    assert.is_true(math.abs(one:pdf(M{{2, 4}}):get(1, 1) - expected) < 1e-15)
    -- rules of thumb
    local s = x1:std(1, 1):mean()
    assert.is_true(math.abs(st.KDE{ data = x1 }.bandwidth - s * 200 ^ (-1 / 5)) < 1e-12)
    assert.is_true(math.abs(st.KDE{ data = x1, bandwidth = "silverman" }.bandwidth
      - s * (4 / (3 * 200)) ^ (1 / 5)) < 1e-12)
  end)

  it("rejects bad input", function()
    assert.has_error(function() st.mean({ 1, 2 }) end,
      "bad argument #1 to 'mean' (a luma.Matrix of samples expected, got table)")
    assert.has_error(function() st.var(X, 6) end, "luma.stats.var: ddof must be an integer in [0, 6), got 6")
    assert.has_error(function() st.quantile(X, 1.5) end,
      "luma.stats.quantile: probabilities must be in [0, 1], got 1.5")
    assert.has_error(function() st.skewness(M{1, 2}) end, "luma.stats.skewness: needs at least 3 samples, got 2")
    assert.has_error(function() st.histogram(X, { bins = 0 }) end,
      "luma.stats.histogram: bins must be a positive integer or a list of edges")
    assert.has_error(function() st.histogram(X, { bins = { 1, 1 } }) end,
      "luma.stats.histogram: bin edges must increase")
    assert.has_error(function() st.KDE{ data = X, kernel = "epanechnikov" } end,
      "luma.stats.KDE: kernel must be \"gaussian\" or \"uniform\", got epanechnikov")
    assert.has_error(function() st.KDE{ data = X, bandwidth = -1 } end,
      "luma.stats.KDE: bandwidth must be a finite number > 0, got -1")
    assert.has_error(function() st.KDE{ data = X, width = 1 } end,
      "luma.stats.KDE: unknown option 'width' (valid: bandwidth, data, kernel)")
    assert.has_error(function() st.KDE{ data = X }:pdf(M{1, 2, 3}) end,
      "bad argument #1 to 'pdf' (points must have 2 columns)")
  end)
end)

-- Hypothesis tests against SciPy 1.10.1 on
--   x = [5.1, 4.9, 5.6, 5.8, 6.0, 5.5, 5.3], y = [4.8, 5.0, 4.6, 4.9, 5.2, 4.7]
-- (st.ttest_1samp(x, 5), st.ttest_ind(x, y[, equal_var=False]),
-- st.chisquare([16, 18, 16, 14, 12, 12]), st.chi2_contingency(T,
-- correction=False), st.f_oneway(x, y, [5.5, 5.9, 6.1, 5.7]),
-- st.kstest(x, st.norm(5.5, .4).cdf, method="asymp"), st.kstwobign.sf for
-- the two-sample limit, st.t.interval, binomtest(...).proportion_ci).
describe("hypothesis tests #smoke", function()
  local x = M{5.1, 4.9, 5.6, 5.8, 6.0, 5.5, 5.3}
  local y = M{4.8, 5.0, 4.6, 4.9, 5.2, 4.7}
  local function close(expected, got, tol) assert.is_true(math.abs(got - expected) <= (tol or 1e-10) * math.max(1, math.abs(expected)), tostring(got)) end

  it("reproduce the notes' binomial test (notes 000 App. B.1.2)", function()
    local r = st.binom_test(15, 40, { alternative = "less" })
    close(0.0769299720814, r.pvalue, 1e-11)
    assert.same({ 0, 14 }, r.critical_region)
    assert.is_false(r.reject)
    close(0.0403452338760, luma.dist.Binomial{ n = 40, p = 0.5 }:cdf(14), 1e-11)
    close(0.1538599441628321, st.binom_test(15, 40).pvalue)
    assert.same({ 26, 40 }, st.binom_test(30, 40, { alternative = "greater" }).critical_region)
  end)

  it("match SciPy's t, chi-square, F and KS tests", function()
    local t = st.ttest_1samp(x, { mu = 5 })
    close(3.1278490197651534, t.statistic)
    close(0.020380298573351812, t.pvalue)
    t = st.ttest_ind(x, y)
    close(3.3107088679732066, t.statistic)
    close(0.006944788908887747, t.pvalue)
    t = st.ttest_ind(x, y, { equal_var = false })
    close(3.4591557864403564, t.statistic)
    close(0.006479288942709138, t.pvalue)
    local c = st.chisquare(M{16, 18, 16, 14, 12, 12})
    close(2.0, c.statistic)
    close(0.8491450360846096, c.pvalue)
    c = st.chi2_contingency(M{{10, 20}, {20, 15}})
    close(3.6848072562358287, c.statistic)
    close(0.05491031771913593, c.pvalue)
    local f = st.f_oneway(x, y, M{5.5, 5.9, 6.1, 5.7})
    close(12.02105351804287, f.statistic)
    close(0.0009142065057277144, f.pvalue)
    local k = st.kstest(x, luma.dist.Normal{ mu = 5.5, sigma = 0.4 })
    close(0.12705903178282885, k.statistic)
    close(0.9998646769686602, k.pvalue)
    local ok, err = pcall(st.kstest, x, function() end)
    assert.is_false(ok)
    assert.truthy(err:find("kstest: the cdf returned nil at", 1, true), err)
    k = st.ks_2samp(x, y)
    close(0.7142857142857143, k.statistic)
    close(0.07400617148563049, k.pvalue)
    local paired = st.ttest_rel(x:sub(1, 6), y)
    close(st.ttest_1samp(x:sub(1, 6) - y).statistic, paired.statistic, 1e-15)
  end)

  it("give SciPy's confidence intervals and the noncentral-t power", function()
    local lo, hi = st.mean_ci(x)
    close(5.099520648824974, lo, 1e-9)
    close(5.814765065460739, hi, 1e-9)
    lo, hi = st.proportion_ci(15, 40)
    close(0.24222979167233272, lo)
    close(0.5296756086269889, hi)
    lo, hi = st.proportion_ci(15, 40, { method = "clopper_pearson" })
    close(0.2272627224818259, lo)
    close(0.541985247767389, hi)
    -- st.nct.sf(c, 19, 0.5 sqrt 20) + st.nct.cdf(-c, 19, 0.5 sqrt 20), c = t_{0.975, 19}
    close(0.564504418439038, st.power_ttest(0.5, 20), 1e-6)
  end)

  it("resample reproducibly", function()
    local b = st.bootstrap(x, function(s) return s:mean() end, { seed = 1, n_resamples = 2000 })
    close(x:mean(), b.estimate, 1e-15)
    -- the bootstrap standard error of a mean is near s / sqrt(n) (0.148 here)
    assert.is_true(math.abs(b.standard_error - math.sqrt(x:var(nil, 1) / 7)) < 0.03)
    assert.is_true(b.ci[1] < x:mean() and x:mean() < b.ci[2])
    local again = st.bootstrap(x, function(s) return s:mean() end, { seed = 1, n_resamples = 2000 })
    assert.equal(b.ci[1], again.ci[1])
    -- estimate: the statistic on x; mean: over the resamples; bias = mean - estimate
    close(b.distribution:mean(), b.mean, 1e-15)
    assert.equal(b.mean - b.estimate, b.bias)
    -- The plug-in variance (divisor n) has bootstrap expectation (n - 1)/n
    -- times its value on x (the resamples are draws from the empirical
    -- distribution), so the bootstrap bias is -var/n; the Monte Carlo error
    -- of the mean of 20000 resampled variances is standard_error / sqrt(20000).
    local v = st.bootstrap(x, function(s) return s:var() end, { seed = 3, n_resamples = 20000 })
    close(x:var(), v.estimate, 1e-15)
    assert.is_true(math.abs(v.bias - (-x:var() / 7)) < 4 * v.standard_error / math.sqrt(20000))
    assert.is_true(v.bias < 0)
    local p = st.permutation_test(x, y, function(a, c) return a:mean() - c:mean() end,
      { seed = 2, n_resamples = 2000 })
    assert.is_true(p.pvalue < 0.02 and p.pvalue >= 1 / 2001) -- the t-test says 0.007
  end)

  it("reject bad input", function()
    assert.has_error(function() st.binom_test(41, 40) end, "luma.stats.binom_test: needs integers 0 <= k <= n, n >= 1")
    assert.has_error(function() st.ttest_1samp(M{1}) end, "luma.stats.ttest_1samp: needs at least 2 observations, got 1")
    assert.has_error(function() st.ttest_1samp(x, { alternative = "bigger" }) end,
      "luma.stats.ttest_1samp: alternative must be \"two-sided\", \"less\" or \"greater\", got bigger")
    assert.has_error(function() st.ttest_rel(x, y) end, "luma.stats.ttest_rel: x has 7 observations but y has 6")
    assert.has_error(function() st.chisquare(M{1, 2}, M{1, 1}) end,
      "luma.stats.chisquare: observed and expected totals differ (3.0 vs 2.0)")
    assert.has_error(function() st.chi2_contingency(M{{1, 0}, {2, 0}}) end,
      "luma.stats.chi2_contingency: a row or column sums to 0")
    assert.has_error(function() st.ttest_1samp(M{1, 0 / 0}) end, "luma.stats.ttest_1samp: samples contain NaN or infinity")
    assert.has_error(function() st.f_oneway(x) end, "luma.stats.f_oneway: needs at least two groups")
    assert.has_error(function() st.proportion_ci(3, 10, { method = "exact" }) end,
      "luma.stats.proportion_ci: method must be wilson, clopper_pearson or wald")
  end)
end)
