--- luma.stats: descriptive statistics, histograms, kernel density
-- estimation and empirical distribution functions.
--
-- Data are samples in rows: column statistics come back as 1 x d rows
-- (scipy.stats' axis = 0), whatever the number of columns.
local luma = require("luma")

local stats = {}

local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

local function check_data(fname, X, min_rows)
  if not luma.ismatrix(X) then
    fail(3, "bad argument #1 to '%s' (a luma.Matrix of samples expected, got %s)", fname, type(X))
  end
  if X:rows() < (min_rows or 1) then
    fail(3, "luma.stats.%s: needs at least %d samples, got %d", fname, min_rows or 1, X:rows())
  end
  return X
end

local function check_ddof(fname, ddof, n)
  ddof = ddof or 0
  if math.type(ddof) ~= "integer" or ddof < 0 or ddof >= n then
    fail(3, "luma.stats.%s: ddof must be an integer in [0, %d), got %s", fname, n, tostring(ddof))
  end
  return ddof
end

--- mean(X) -> 1 x d column means.
function stats.mean(X)
  return check_data("mean", X):mean(1)
end

--- var(X [, ddof = 0]) and std(X [, ddof = 0]): per column, dividing by
-- n - ddof (ddof = 1 for the unbiased variance).
function stats.var(X, ddof)
  check_data("var", X)
  return X:var(1, check_ddof("var", ddof, X:rows()))
end

function stats.std(X, ddof)
  check_data("std", X)
  return X:std(1, check_ddof("std", ddof, X:rows()))
end

--- quantile(X, q) -> one row per probability: q a number or a list of
-- numbers in [0, 1]; linear interpolation between order statistics at
-- position (n - 1) q (NumPy's default method).
function stats.quantile(X, q)
  check_data("quantile", X)
  local qs = type(q) == "table" and q or { q }
  local sorted = X:sort(1)
  local n = X:rows()
  local out = luma.zeros(#qs, X:cols())
  for i, p in ipairs(qs) do
    if type(p) ~= "number" or not (p >= 0 and p <= 1) then
      fail(2, "luma.stats.quantile: probabilities must be in [0, 1], got %s", tostring(p))
    end
    local h = (n - 1) * p
    local lo = math.floor(h)
    local frac = h - lo
    local below = sorted:row(lo + 1)
    if frac == 0 then
      out:row(i):assign(below)
    else
      local above = sorted:row(math.min(lo + 2, n))
      out:row(i):assign(below + (above - below) * frac)
    end
  end
  return out
end

--- median(X) -> the 0.5 quantile of each column.
function stats.median(X)
  check_data("median", X)
  return stats.quantile(X, 0.5)
end

-- The k-th central moment of each column (1 x d).
local function central_moment(X, k)
  return (X - X:mean(1)):pow(k):mean(1)
end

--- skewness(X [, {bias = true}]) -> m3 / m2^(3/2) per column; bias = false
-- gives the adjusted Fisher-Pearson coefficient sqrt(n (n - 1)) / (n - 2) g1
-- (scipy.stats.skew's definitions).
function stats.skewness(X, opts)
  check_data("skewness", X, 3)
  local n = X:rows()
  local m2, m3 = central_moment(X, 2), central_moment(X, 3)
  local g1 = m3:div(m2:pow(1.5))
  if opts and opts.bias == false then g1 = g1 * (math.sqrt(n * (n - 1)) / (n - 2)) end
  return g1
end

--- kurtosis(X [, {fisher = true, bias = true}]) -> m4 / m2^2, minus 3 when
-- fisher (excess kurtosis, 0 for a normal); bias = false applies the
-- sample-size correction of scipy.stats.kurtosis.
function stats.kurtosis(X, opts)
  check_data("kurtosis", X, 4)
  opts = opts or {}
  local n = X:rows()
  local m2, m4 = central_moment(X, 2), central_moment(X, 4)
  local g2 = m4:div(m2:pow(2)) - 3
  if opts.bias == false then
    g2 = (g2 * (n + 1) + 6) * ((n - 1) / ((n - 2) * (n - 3)))
  end
  if opts.fisher == false then g2 = g2 + 3 end
  return g2
end

--- cov(X [, ddof = 1]) -> d x d covariance of the columns, dividing by
-- n - ddof (ddof = 0 for the maximum-likelihood 1/n).
function stats.cov(X, ddof)
  check_data("cov", X, 2)
  ddof = ddof == nil and 1 or check_ddof("cov", ddof, X:rows())
  local C = X - X:mean(1)
  return (C:t() * C) / (X:rows() - ddof)
end

--- corr(X) -> d x d Pearson correlation of the columns (a constant column
-- gives NaN, as NumPy's corrcoef).
function stats.corr(X)
  check_data("corr", X, 2)
  local S = stats.cov(X, 0)
  local sd = S:diag():sqrt()
  return S:div(sd * sd:t())
end

--- mode(X) -> values, counts (1 x d each): the most frequent value of each
-- column, the smallest among ties (scipy.stats.mode).
function stats.mode(X)
  check_data("mode", X)
  local values, counts = luma.zeros(1, X:cols()), luma.zeros(1, X:cols())
  for j = 1, X:cols() do
    local sorted = X:col(j):sort()
    local best, best_count, run = sorted:get(1, 1), 0, 0
    for i = 1, sorted:rows() do
      local v = sorted:get(i, 1)
      run = (i > 1 and v == sorted:get(i - 1, 1)) and run + 1 or 1
      if run > best_count then best, best_count = v, run end
    end
    values:set(1, j, best)
    counts:set(1, j, best_count)
  end
  return values, counts
end

--- histogram(x [, {bins = 10, range = {lo, hi}, density = false}]) ->
-- counts (bins x 1), edges ((bins + 1) x 1).  bins is a count of equal
-- bins over range (default: the data's min..max) or a list of increasing
-- edges; every bin is half-open [a, b) except the last, [a, b], as in
-- NumPy.  density divides by n times the bin width.
function stats.histogram(x, opts)
  check_data("histogram", x)
  opts = opts or {}
  local flat = x:flatten()
  local edges
  if type(opts.bins) == "table" then
    edges = luma.matrix(opts.bins)
    if edges:rows() < 2 then fail(2, "luma.stats.histogram: bins needs at least two edges") end
    for i = 2, edges:rows() do
      if not (edges:get(i, 1) > edges:get(i - 1, 1)) then
        fail(2, "luma.stats.histogram: bin edges must increase")
      end
    end
  else
    local bins = opts.bins or 10
    if math.type(bins) ~= "integer" or bins < 1 then
      fail(2, "luma.stats.histogram: bins must be a positive integer or a list of edges")
    end
    local lo, hi = flat:min(), flat:max()
    if opts.range then lo, hi = opts.range[1], opts.range[2] end
    if not (hi >= lo) then fail(2, "luma.stats.histogram: range must have lo <= hi") end
    if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
    edges = luma.linspace(lo, hi, bins + 1)
  end
  local k = edges:rows() - 1
  local counts = luma.zeros(k, 1)
  local first, last = edges:get(1, 1), edges:get(k + 1, 1)
  for i = 1, flat:rows() do
    local v = flat:get(i, 1)
    if v >= first and v <= last then
      local lo_i, hi_i = 1, k -- the bin whose [a, b) holds v (the last includes b)
      while lo_i < hi_i do
        local mid = (lo_i + hi_i + 1) // 2
        if edges:get(mid, 1) <= v then lo_i = mid else hi_i = mid - 1 end
      end
      counts:set(lo_i, 1, counts:get(lo_i, 1) + 1)
    end
  end
  if opts.density then
    local widths = edges:sub(2, k + 1) - edges:sub(1, k)
    counts = counts:div(widths * counts:sum())
  end
  return counts, edges
end

--- ecdf(x) -> F, a table with F.x (sorted data), F.y (i / n) and
-- F(t) = the fraction of the data <= t, for a number or a matrix t.
function stats.ecdf(x)
  check_data("ecdf", x)
  local sorted = x:flatten():sort()
  local n = sorted:rows()
  local function at(t)
    local lo, hi = 0, n -- the count of values <= t
    while lo < hi do
      local mid = (lo + hi + 1) // 2
      if sorted:get(mid, 1) <= t then lo = mid else hi = mid - 1 end
    end
    return lo / n
  end
  return setmetatable({ x = sorted, y = luma.arange(n) / n }, {
    __call = function(_, t)
      if type(t) == "number" then return at(t) end
      return t:map(at)
    end,
  })
end

-- ------------------------------------------------------------------ KDE

local KDE = { __name = "luma.stats.KDE" }
KDE.__index = KDE

--- KDE{data = X, kernel = "gaussian" | "uniform", bandwidth = h | "scott"
-- | "silverman"} -> an estimator of the density of X's rows (notes 004
-- §11.5, eq. 11.74, with the D-dimensional normalization 1/(N h^D) where
-- the notes print 1/(N h)).  Kernels: Gaussian (2 pi)^(-D/2) exp(-|u|^2/2);
-- uniform 2^-D on the cube |u_i| <= 1.  Rules of thumb, with s the mean
-- of the columns' standard deviations: Scott h = s N^(-1/(D+4));
-- Silverman h = s (4 / ((D + 2) N))^(1/(D+4)).
function stats.KDE(opts)
  if type(opts) ~= "table" then fail(2, "luma.stats.KDE expects an options table") end
  local valid = { data = true, kernel = true, bandwidth = true }
  for k in pairs(opts) do
    if not valid[k] then
      fail(2, "luma.stats.KDE: unknown option '%s' (valid: bandwidth, data, kernel)", tostring(k))
    end
  end
  local X = opts.data
  if not luma.ismatrix(X) or X:rows() < 1 then
    fail(2, "luma.stats.KDE: data must be a matrix with at least one sample")
  end
  local kernel = opts.kernel or "gaussian"
  if kernel ~= "gaussian" and kernel ~= "uniform" then
    fail(2, "luma.stats.KDE: kernel must be \"gaussian\" or \"uniform\", got %s", tostring(kernel))
  end
  local n, d = X:shape()
  local h = opts.bandwidth or "scott"
  if type(h) == "string" then
    if n < 2 then fail(2, "luma.stats.KDE: a bandwidth rule needs at least two samples") end
    local s = X:std(1, 1):mean()
    if h == "scott" then h = s * n ^ (-1 / (d + 4))
    elseif h == "silverman" then h = s * (4 / ((d + 2) * n)) ^ (1 / (d + 4))
    else fail(2, "luma.stats.KDE: bandwidth must be a number > 0, \"scott\" or \"silverman\"") end
  end
  if type(h) ~= "number" or not (h > 0) or h == math.huge then
    fail(2, "luma.stats.KDE: bandwidth must be a finite number > 0, got %s", tostring(h))
  end
  return setmetatable({ data = X:copy(), kernel = kernel, bandwidth = h, n = n, d = d }, KDE)
end

--- kde:pdf(points) -> m x 1 densities at the rows of points (m x D).
function KDE:pdf(points)
  if not luma.ismatrix(points) or points:cols() ~= self.d then
    fail(2, "bad argument #1 to 'pdf' (points must have %d columns)", self.d)
  end
  local h, d = self.bandwidth, self.d
  if self.kernel == "gaussian" then
    local D2 = luma.pairwise.distances(points, self.data, "sqeuclidean")
    local K = (D2 * (-0.5 / (h * h))):exp()
    return K:sum(2) * ((2 * math.pi) ^ (-d / 2) / (self.n * h ^ d))
  end
  local Dinf = luma.pairwise.distances(points, self.data, "chebyshev")
  return Dinf:le(h):sum(2) * (2 ^ -d / (self.n * h ^ d))
end

--- kde:logpdf(points) -> the log densities.
function KDE:logpdf(points)
  return self:pdf(points):log()
end

-- ----------------------------------------------------- hypothesis tests

local function dist() return require("luma.stats.dist") end

local function check_alternative(fname, alt)
  alt = alt or "two-sided"
  if alt ~= "two-sided" and alt ~= "less" and alt ~= "greater" then
    fail(3, "luma.stats.%s: alternative must be \"two-sided\", \"less\" or \"greater\", got %s",
      fname, tostring(alt))
  end
  return alt
end

-- p-value of a statistic with a symmetric continuous null (normal or t).
local function symmetric_pvalue(null, stat, alt)
  if alt == "less" then return null:cdf(stat) end
  if alt == "greater" then return 1 - null:cdf(stat) end
  return math.min(1, 2 * null:cdf(-math.abs(stat)))
end

local function vector(fname, x, min)
  if not luma.ismatrix(x) then fail(3, "luma.stats.%s: samples must be matrices", fname) end
  x = x:flatten()
  if x:rows() < (min or 2) then
    fail(3, "luma.stats.%s: needs at least %d observations, got %d", fname, min or 2, x:rows())
  end
  if not x:isfinite():all() then fail(3, "luma.stats.%s: samples contain NaN or infinity", fname) end
  return x
end

--- binom_test(k, n [, {p = 0.5, alternative, alpha = 0.05}]) -> {statistic
-- = k, pvalue, critical_region = {lo, hi} for one-sided tests, reject}:
-- the exact binomial test (notes 000 App. B.1.2).  Two-sided p-values sum
-- the probabilities no larger than P(X = k), as scipy.stats.binomtest.
function stats.binom_test(k, n, opts)
  opts = opts or {}
  if math.type(n) ~= "integer" or n < 1 or math.type(k) ~= "integer" or k < 0 or k > n then
    fail(2, "luma.stats.binom_test: needs integers 0 <= k <= n, n >= 1")
  end
  local p0, alpha = opts.p or 0.5, opts.alpha or 0.05
  local alt = check_alternative("binom_test", opts.alternative)
  local B = dist().Binomial{ n = n, p = p0 }
  local pvalue, region
  if alt == "less" then
    pvalue = B:cdf(k)
    local c = -1 -- the largest c with P(X <= c) <= alpha
    while c + 1 <= n and B:cdf(c + 1) <= alpha do c = c + 1 end
    region = { 0, c }
  elseif alt == "greater" then
    pvalue = 1 - B:cdf(k - 1)
    local c = n + 1
    while c - 1 >= 0 and 1 - B:cdf(c - 2) <= alpha do c = c - 1 end
    region = { c, n }
  else
    local pk = B:pmf(k)
    local all = B:pmf(luma.arange(0, n))
    pvalue = math.min(1, all:select(all:le(pk * (1 + 1e-7))):sum())
  end
  return { statistic = k, pvalue = pvalue, critical_region = region, reject = pvalue <= alpha }
end

--- ztest(x [, {mu = 0, sigma, alternative}]) -> {statistic, pvalue}: the
-- one-sample z-test with known sigma (default: the sample std, ddof 1).
function stats.ztest(x, opts)
  opts = opts or {}
  x = vector("ztest", x)
  local sigma = opts.sigma or math.sqrt(x:var(nil, 1))
  local z = (x:mean() - (opts.mu or 0)) / (sigma / math.sqrt(x:rows()))
  return { statistic = z,
    pvalue = symmetric_pvalue(dist().Normal{}, z, check_alternative("ztest", opts.alternative)) }
end

--- ttest_1samp(x [, {mu = 0, alternative}]) -> {statistic, pvalue, df}.
function stats.ttest_1samp(x, opts)
  opts = opts or {}
  x = vector("ttest_1samp", x)
  local n = x:rows()
  local se = math.sqrt(x:var(nil, 1) / n)
  local t = (x:mean() - (opts.mu or 0)) / se
  local df = n - 1
  return { statistic = t, df = df, pvalue = symmetric_pvalue(dist().StudentT{ df = df }, t,
    check_alternative("ttest_1samp", opts.alternative)) }
end

--- ttest_ind(x, y [, {equal_var = true, alternative}]) -> {statistic,
-- pvalue, df}: pooled two-sample t-test, or Welch's with equal_var = false.
function stats.ttest_ind(x, y, opts)
  opts = opts or {}
  x, y = vector("ttest_ind", x), vector("ttest_ind", y)
  local n1, n2 = x:rows(), y:rows()
  local v1, v2 = x:var(nil, 1), y:var(nil, 1)
  local t, df
  if opts.equal_var == false then
    local a, b = v1 / n1, v2 / n2
    t = (x:mean() - y:mean()) / math.sqrt(a + b)
    df = (a + b) ^ 2 / (a ^ 2 / (n1 - 1) + b ^ 2 / (n2 - 1))
  else
    df = n1 + n2 - 2
    local sp2 = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
    t = (x:mean() - y:mean()) / math.sqrt(sp2 * (1 / n1 + 1 / n2))
  end
  return { statistic = t, df = df, pvalue = symmetric_pvalue(dist().StudentT{ df = df }, t,
    check_alternative("ttest_ind", opts.alternative)) }
end

--- ttest_rel(x, y [, opts]) -> the paired t-test (a one-sample test of x - y).
function stats.ttest_rel(x, y, opts)
  x, y = vector("ttest_rel", x), vector("ttest_rel", y)
  if x:rows() ~= y:rows() then
    fail(2, "luma.stats.ttest_rel: x has %d observations but y has %d", x:rows(), y:rows())
  end
  return stats.ttest_1samp(x - y, opts)
end

--- chisquare(observed [, expected]) -> {statistic, pvalue, df}: the
-- goodness-of-fit test (expected defaults to uniform; both are counts).
function stats.chisquare(observed, expected)
  local o = vector("chisquare", observed, 2)
  local e = expected and vector("chisquare", expected, 2) or luma.full(o:rows(), 1, o:sum() / o:rows())
  if e:rows() ~= o:rows() then
    fail(2, "luma.stats.chisquare: %d observed counts but %d expected", o:rows(), e:rows())
  end
  if e:le(0):any() then fail(2, "luma.stats.chisquare: expected counts must be > 0") end
  if math.abs(o:sum() - e:sum()) > 1e-8 * o:sum() then
    fail(2, "luma.stats.chisquare: observed and expected totals differ (%s vs %s)", o:sum(), e:sum())
  end
  local stat = (o - e):pow(2):div(e):sum()
  local df = o:rows() - 1
  return { statistic = stat, df = df, pvalue = 1 - dist().ChiSquared{ df = df }:cdf(stat) }
end

--- chi2_contingency(table) -> {statistic, pvalue, df, expected}: the test
-- of independence on an r x c table of counts (no continuity correction).
function stats.chi2_contingency(T)
  if not luma.ismatrix(T) or T:rows() < 2 or T:cols() < 2 then
    fail(2, "luma.stats.chi2_contingency: needs an r x c table with r, c >= 2")
  end
  if T:lt(0):any() then fail(2, "luma.stats.chi2_contingency: counts must be >= 0") end
  local expected = (T:sum(2) * T:sum(1)) / T:sum()
  if expected:le(0):any() then fail(2, "luma.stats.chi2_contingency: a row or column sums to 0") end
  local stat = (T - expected):pow(2):div(expected):sum()
  local df = (T:rows() - 1) * (T:cols() - 1)
  return { statistic = stat, df = df, expected = expected,
    pvalue = 1 - dist().ChiSquared{ df = df }:cdf(stat) }
end

--- f_oneway(g1, g2, ...) -> {statistic, pvalue, df_between, df_within}:
-- one-way analysis of variance.
function stats.f_oneway(...)
  local groups = { ... }
  if #groups < 2 then fail(2, "luma.stats.f_oneway: needs at least two groups") end
  local all, n, grand = {}, 0, 0
  for i, g in ipairs(groups) do
    all[i] = vector("f_oneway", g, 1)
    n = n + all[i]:rows()
    grand = grand + all[i]:sum()
  end
  grand = grand / n
  local between, within = 0, 0
  for _, g in ipairs(all) do
    between = between + g:rows() * (g:mean() - grand) ^ 2
    within = within + (g - g:mean()):pow(2):sum()
  end
  local k = #all
  local df1, df2 = k - 1, n - k
  if df2 < 1 then fail(2, "luma.stats.f_oneway: needs more observations than groups") end
  local F = (between / df1) / (within / df2)
  return { statistic = F, df_between = df1, df_within = df2,
    pvalue = 1 - dist().F{ d1 = df1, d2 = df2 }:cdf(F) }
end

-- Kolmogorov's limiting distribution: P(sqrt(n) D > t).
local function kolmogorov_sf(t)
  if t <= 0 then return 1 end
  local s = 0
  for j = 1, 100 do
    local term = 2 * (-1) ^ (j - 1) * math.exp(-2 * j * j * t * t)
    s = s + term
    if math.abs(term) < 1e-16 then break end
  end
  return math.max(0, math.min(1, s))
end

--- kstest(x, cdf) -> {statistic, pvalue}: the one-sample
-- Kolmogorov-Smirnov test against a distribution (an object with cdf) or
-- a function; the p-value is Kolmogorov's asymptotic one,
-- P(K > sqrt(n) D) (scipy.stats.kstest with method = "asymp").
function stats.kstest(x, cdf)
  x = vector("kstest", x, 1):sort()
  local F = type(cdf) == "function" and cdf or (type(cdf) == "table" and function(v) return cdf:cdf(v) end)
  if not F then fail(2, "luma.stats.kstest: cdf must be a distribution or a function") end
  local n, D = x:rows(), 0
  for i = 1, n do
    local f = F(x:get(i, 1))
    D = math.max(D, i / n - f, f - (i - 1) / n)
  end
  return { statistic = D, pvalue = kolmogorov_sf(math.sqrt(n) * D) }
end

--- ks_2samp(x, y) -> {statistic, pvalue}: two-sample Kolmogorov-Smirnov
-- with the limiting Kolmogorov p-value at the effective size
-- n m / (n + m) (SciPy's kstwobign; scipy.stats.ks_2samp uses the exact
-- distribution for small samples, so its p-values differ there).
function stats.ks_2samp(x, y)
  x, y = vector("ks_2samp", x, 1):sort(), vector("ks_2samp", y, 1):sort()
  local n, m = x:rows(), y:rows()
  local i, j, D = 1, 1, 0
  while i <= n and j <= m do
    local a, b = x:get(i, 1), y:get(j, 1)
    local v = math.min(a, b)
    while i <= n and x:get(i, 1) <= v do i = i + 1 end
    while j <= m and y:get(j, 1) <= v do j = j + 1 end
    D = math.max(D, math.abs((i - 1) / n - (j - 1) / m))
  end
  return { statistic = D, pvalue = kolmogorov_sf(math.sqrt(n * m / (n + m)) * D) }
end

--- permutation_test(x, y, statistic [, {n_resamples = 9999, alternative,
-- seed}]) -> {statistic, pvalue}: statistic(a, b) is any Lua function of
-- two samples; the p-value counts permuted splits at least as extreme
-- (plus one, so it is never 0).
function stats.permutation_test(x, y, statistic, opts)
  opts = opts or {}
  x, y = vector("permutation_test", x, 1), vector("permutation_test", y, 1)
  if type(statistic) ~= "function" then fail(2, "luma.stats.permutation_test: statistic must be a function") end
  local alt = check_alternative("permutation_test", opts.alternative)
  local rng = require("luma.estimator").rng(opts.seed)
  local pooled, n = luma.vstack{ x, y }, x:rows()
  local observed = statistic(x, y)
  local R, count = opts.n_resamples or 9999, 0
  for _ = 1, R do
    local p = rng:permutation(pooled:rows())
    local s = statistic(pooled:take(p:sub(1, n)), pooled:take(p:sub(n + 1, pooled:rows())))
    if (alt == "greater" and s >= observed) or (alt == "less" and s <= observed)
      or (alt == "two-sided" and math.abs(s) >= math.abs(observed)) then
      count = count + 1
    end
  end
  return { statistic = observed, pvalue = (count + 1) / (R + 1) }
end

--- bootstrap(x, statistic [, {n_resamples = 9999, confidence = 0.95,
-- seed}]) -> {estimate, standard_error, ci = {lo, hi}}: the percentile
-- bootstrap (notes 002 E11) of statistic(sample) -> number.
function stats.bootstrap(x, statistic, opts)
  opts = opts or {}
  if not luma.ismatrix(x) or x:rows() < 2 then fail(2, "luma.stats.bootstrap: needs a matrix with 2 or more rows") end
  if type(statistic) ~= "function" then fail(2, "luma.stats.bootstrap: statistic must be a function") end
  local conf = opts.confidence or 0.95
  if not (conf > 0 and conf < 1) then fail(2, "luma.stats.bootstrap: confidence must be in (0, 1)") end
  local rng = require("luma.estimator").rng(opts.seed)
  local R, n = opts.n_resamples or 9999, x:rows()
  local values = luma.zeros(R, 1)
  for r = 1, R do
    values:set(r, 1, statistic(x:take(rng:integers(1, n, n, 1))))
  end
  local q = stats.quantile(values, { (1 - conf) / 2, (1 + conf) / 2 })
  return { estimate = statistic(x), standard_error = math.sqrt(values:var(nil, 1)),
    ci = { q:get(1, 1), q:get(2, 1) }, distribution = values }
end

--- mean_ci(x [, {confidence = 0.95}]) -> lo, hi: the t interval for a mean.
function stats.mean_ci(x, opts)
  x = vector("mean_ci", x)
  local conf = (opts and opts.confidence) or 0.95
  local n = x:rows()
  local h = dist().StudentT{ df = n - 1 }:ppf((1 + conf) / 2) * math.sqrt(x:var(nil, 1) / n)
  return x:mean() - h, x:mean() + h
end

--- proportion_ci(k, n [, {confidence = 0.95, method = "wilson" |
-- "clopper_pearson" | "wald"}]) -> lo, hi.
function stats.proportion_ci(k, n, opts)
  opts = opts or {}
  if math.type(n) ~= "integer" or n < 1 or math.type(k) ~= "integer" or k < 0 or k > n then
    fail(2, "luma.stats.proportion_ci: needs integers 0 <= k <= n, n >= 1")
  end
  local conf, method = opts.confidence or 0.95, opts.method or "wilson"
  local z = dist().Normal{}:ppf((1 + conf) / 2)
  local p = k / n
  if method == "wald" then
    local h = z * math.sqrt(p * (1 - p) / n)
    return math.max(0, p - h), math.min(1, p + h)
  elseif method == "wilson" then
    local den = 1 + z * z / n
    local centre = (p + z * z / (2 * n)) / den
    local h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - h, centre + h
  elseif method == "clopper_pearson" then
    local a = 1 - conf
    local lo = k == 0 and 0 or luma.special.betaincinv(k, n - k + 1, a / 2)
    local hi = k == n and 1 or luma.special.betaincinv(k + 1, n - k, 1 - a / 2)
    return lo, hi
  end
  fail(2, "luma.stats.proportion_ci: method must be wilson, clopper_pearson or wald")
end

--- power_ttest(effect_size, n [, {alpha = 0.05, alternative}]) -> the power
-- of the one-sample t-test, P(reject | the mean is effect_size standard
-- deviations from mu0) (notes 000 B.1.3), from the noncentral t by Monte
-- Carlo-free integration: the noncentral t cdf as an average of normal
-- cdfs over the chi distribution (Gauss-Laguerre-free: a fine quadrature).
function stats.power_ttest(effect, n, opts)
  opts = opts or {}
  if type(effect) ~= "number" or math.type(n) ~= "integer" or n < 2 then
    fail(2, "luma.stats.power_ttest: needs a number effect size and an integer n >= 2")
  end
  local alpha = opts.alpha or 0.05
  local alt = check_alternative("power_ttest", opts.alternative)
  local df = n - 1
  local T = dist().StudentT{ df = df }
  local delta = effect * math.sqrt(n)
  -- P(T' > c) for noncentral T' = (Z + delta) / sqrt(V / df), V ~ chi2(df):
  -- integrate P(Z > c sqrt(v / df) - delta) against the chi2 density.
  local chi = dist().ChiSquared{ df = df }
  local function upper(c)
    local grid = luma.linspace(chi:ppf(1e-12), chi:ppf(1 - 1e-12), 4001)
    local w = chi:pdf(grid)
    local tail = dist().Normal{}:cdf((grid / df):sqrt() * -c + delta)
    return (w:mul(tail)):sum() * (grid:get(2, 1) - grid:get(1, 1))
  end
  if alt == "greater" then return upper(T:ppf(1 - alpha)) end
  if alt == "less" then
    delta = -delta
    return upper(T:ppf(1 - alpha))
  end
  local c = T:ppf(1 - alpha / 2)
  local p_hi = upper(c)
  delta = -delta
  return p_hi + upper(c)
end

luma.doc.set(stats, { name = "luma.stats",
  doc = "Descriptive statistics over the rows of a matrix (mean, var, std, quantile, median, "
    .. "skewness, kurtosis, cov, corr, mode), histogram, ecdf, kernel density estimation "
    .. "(KDE), hypothesis tests (binom_test, ztest, ttest_1samp, ttest_ind, ttest_rel, "
    .. "chisquare, chi2_contingency, f_oneway, kstest, ks_2samp, permutation_test), the "
    .. "bootstrap, confidence intervals (mean_ci, proportion_ci) and power_ttest." })

return stats
