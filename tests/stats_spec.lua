-- luma.stats against NumPy 1.24 / SciPy 1.10 on the same data, printed by:
--   X = np.array([[1,2],[2,5],[4,4],[8,1],[3,3],[5,9]], float)
--   np.quantile(X, [.1, .5, .9], axis=0); st.skew(X), st.skew(X, bias=False)
--   st.kurtosis(X), st.kurtosis(X, bias=False), st.kurtosis(X, fisher=False)
--   np.cov(X.T); np.corrcoef(X.T); np.histogram(X[:,0], bins=3[, density=True])
-- and KDE normalization checked by integrating the density numerically.
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
