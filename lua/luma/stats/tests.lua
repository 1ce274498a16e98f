--- luma.stats.tests: inference from samples: hypothesis tests (binom_test,
-- ztest, ttest_1samp, ttest_ind, ttest_rel, chisquare, chi2_contingency,
-- f_oneway, kstest, ks_2samp, permutation_test), the percentile bootstrap,
-- confidence intervals (mean_ci, proportion_ci) and power_ttest.
--
-- The hypothesis tests return a table {statistic, pvalue, ...}; an
-- alternative option is "two-sided" (the default), "less" or "greater",
-- as in scipy.stats.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local fail = require("luma.stats.common").fail
local quantile = require("luma.stats.descriptive").quantile

local tests = {}

-- Required on first use, so loading luma.stats does not load the
-- distributions.
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
function tests.binom_test(k, n, opts)
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
function tests.ztest(x, opts)
  opts = opts or {}
  x = vector("ztest", x)
  local sigma = opts.sigma or math.sqrt(x:var(nil, 1))
  local z = (x:mean() - (opts.mu or 0)) / (sigma / math.sqrt(x:rows()))
  return { statistic = z,
    pvalue = symmetric_pvalue(dist().Normal{}, z, check_alternative("ztest", opts.alternative)) }
end

--- ttest_1samp(x [, {mu = 0, alternative}]) -> {statistic, pvalue, df}.
function tests.ttest_1samp(x, opts)
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
function tests.ttest_ind(x, y, opts)
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
function tests.ttest_rel(x, y, opts)
  x, y = vector("ttest_rel", x), vector("ttest_rel", y)
  if x:rows() ~= y:rows() then
    fail(2, "luma.stats.ttest_rel: x has %d observations but y has %d", x:rows(), y:rows())
  end
  return tests.ttest_1samp(x - y, opts)
end

--- chisquare(observed [, expected]) -> {statistic, pvalue, df}: the
-- goodness-of-fit test (expected defaults to uniform; both are counts).
function tests.chisquare(observed, expected)
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
function tests.chi2_contingency(T)
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
function tests.f_oneway(...)
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
function tests.kstest(x, cdf)
  x = vector("kstest", x, 1):sort()
  local F = type(cdf) == "function" and cdf
    or (type(cdf) == "table" and type(cdf.cdf) == "function" and function(v) return cdf:cdf(v) end)
  if not F then fail(2, "luma.stats.kstest: cdf must be a distribution or a function") end
  local n, D = x:rows(), 0
  for i = 1, n do
    local f = F(x:get(i, 1))
    if type(f) ~= "number" then
      fail(2, "luma.stats.kstest: the cdf returned %s at %g, not a number", args.type_of(f), x:get(i, 1))
    end
    D = math.max(D, i / n - f, f - (i - 1) / n)
  end
  return { statistic = D, pvalue = kolmogorov_sf(math.sqrt(n) * D) }
end

--- ks_2samp(x, y) -> {statistic, pvalue}: two-sample Kolmogorov-Smirnov
-- with the limiting Kolmogorov p-value at the effective size
-- n m / (n + m) (SciPy's kstwobign; scipy.stats.ks_2samp uses the exact
-- distribution for small samples, so its p-values differ there).
function tests.ks_2samp(x, y)
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
function tests.permutation_test(x, y, statistic, opts)
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
-- seed}]) -> {estimate, mean, bias, standard_error, ci = {lo, hi},
-- distribution}: the percentile bootstrap of statistic(sample) -> number.
-- estimate is the statistic on the original sample (the point estimate);
-- mean is the mean over the resamples, the bootstrap estimate of notes 002
-- E11 (S_BS = 1/B sum S_b), and bias = mean - estimate (Efron and
-- Tibshirani eq. 10.2).
function tests.bootstrap(x, statistic, opts)
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
  local q = quantile(values, { (1 - conf) / 2, (1 + conf) / 2 })
  local estimate, mean = statistic(x), values:mean()
  return { estimate = estimate, mean = mean, bias = mean - estimate,
    standard_error = math.sqrt(values:var(nil, 1)), ci = { q:get(1, 1), q:get(2, 1) },
    distribution = values }
end

--- mean_ci(x [, {confidence = 0.95}]) -> lo, hi: the t interval for a mean.
function tests.mean_ci(x, opts)
  x = vector("mean_ci", x)
  local conf = (opts and opts.confidence) or 0.95
  local n = x:rows()
  local h = dist().StudentT{ df = n - 1 }:ppf((1 + conf) / 2) * math.sqrt(x:var(nil, 1) / n)
  return x:mean() - h, x:mean() + h
end

--- proportion_ci(k, n [, {confidence = 0.95, method = "wilson" |
-- "clopper_pearson" | "wald"}]) -> lo, hi.
function tests.proportion_ci(k, n, opts)
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
function tests.power_ttest(effect, n, opts)
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

-- Every test returns a table {statistic, pvalue, ...}; alternative is
-- "two-sided" (the default), "less" or "greater" wherever it is taken.
luma.doc.set_members(tests, "luma.stats", {
  binom_test = {
    signature = "binom_test(k, n [, {p = 0.5, alternative = \"two-sided\", alpha = 0.05}])",
    doc = "The exact binomial test of k successes in n trials against success probability "
      .. "p; two-sided p-values sum the outcomes no more likely than k (as "
      .. "scipy.stats.binomtest). Returns {statistic = k, pvalue, reject, critical_region = "
      .. "{lo, hi} for one-sided tests}." },
  ztest = { signature = "ztest(x [, {mu = 0, sigma = sample std, alternative = "
      .. "\"two-sided\"}])",
    doc = "The z-test of the mean of x against mu with standard deviation sigma. Returns "
      .. "{statistic, pvalue}." },
  ttest_1samp = { signature = "ttest_1samp(x [, {mu = 0, alternative = \"two-sided\"}])",
    doc = "Student's one-sample t-test of the mean of x against mu. Returns {statistic, "
      .. "pvalue, df}." },
  ttest_ind = {
    signature = "ttest_ind(x, y [, {equal_var = true, alternative = \"two-sided\"}])",
    doc = "The two-sample t-test of equal means: pooled variance, or Welch's test with "
      .. "equal_var = false. Returns {statistic, pvalue, df}." },
  ttest_rel = { signature = "ttest_rel(x, y [, {alternative = \"two-sided\"}])",
    doc = "The paired t-test, a one-sample test of x - y against 0. Returns {statistic, "
      .. "pvalue, df}." },
  chisquare = { signature = "chisquare(observed [, expected = uniform])",
    doc = "Pearson's chi-squared goodness-of-fit test of observed counts against expected "
      .. "counts. Returns {statistic, pvalue, df}." },
  chi2_contingency = { signature = "chi2_contingency(table)",
    doc = "The chi-squared test of independence on an r x c table of counts (no continuity "
      .. "correction). Returns {statistic, pvalue, df, expected}." },
  f_oneway = { signature = "f_oneway(g1, g2, ...)",
    doc = "One-way analysis of variance of two or more samples. Returns {statistic, pvalue, "
      .. "df_between, df_within}." },
  kstest = { signature = "kstest(x, cdf)",
    doc = "The one-sample Kolmogorov-Smirnov test against a distribution (an object with "
      .. "cdf) or a cdf function, with Kolmogorov's asymptotic p-value. Returns {statistic, "
      .. "pvalue}." },
  ks_2samp = { signature = "ks_2samp(x, y)",
    doc = "The two-sample Kolmogorov-Smirnov test of equal distributions, asymptotic "
      .. "p-value. Returns {statistic, pvalue}." },
  permutation_test = { signature = "permutation_test(x, y, statistic [, {n_resamples = 9999, "
      .. "alternative = \"two-sided\", seed = nil}])",
    doc = "A permutation test of statistic(a, b), any function of two samples: the p-value "
      .. "counts random re-splits at least as extreme, plus one so it is never 0. Returns "
      .. "{statistic, pvalue}." },
  bootstrap = { signature = "bootstrap(x, statistic [, {n_resamples = 9999, confidence = "
      .. "0.95, seed = nil}])",
    doc = "The percentile bootstrap of statistic(sample) -> number (Efron and Tibshirani, An "
      .. "Introduction to the Bootstrap, 1993): n_resamples resamples of the rows of x with "
      .. "replacement. Returns {estimate, mean, bias, standard_error, ci = {lo, hi}, "
      .. "distribution}: estimate is the statistic on the original sample (the usual point "
      .. "estimate, not a resampling average); mean is the mean of the statistic over the "
      .. "resamples (the bootstrap estimate, theta*(.) of eq. 10.2); bias = mean - estimate, "
      .. "the bootstrap estimate of the bias (eq. 10.2); standard_error the standard "
      .. "deviation over the resamples with divisor n_resamples - 1 (eq. 6.6); ci the "
      .. "percentile interval (ch. 13) at the given confidence; distribution the "
      .. "n_resamples x 1 column of the resampled statistics.",
    params = {
      { name = "n_resamples", default = 9999, doc = "number of bootstrap resamples" },
      { name = "confidence", default = 0.95, doc = "level of the percentile interval, in (0, 1)" },
      { name = "seed", default = nil, doc = "seed of the resampling (nil: the default generator)" },
    } },
  mean_ci = { signature = "mean_ci(x [, {confidence = 0.95}]) -> lo, hi",
    doc = "The Student t confidence interval for the mean of x." },
  proportion_ci = {
    signature = "proportion_ci(k, n [, {confidence = 0.95, method = \"wilson\"}]) -> lo, hi",
    doc = "A confidence interval for a proportion of k successes in n trials: method "
      .. "\"wilson\", \"clopper_pearson\" (exact) or \"wald\"." },
  power_ttest = { signature = "power_ttest(effect_size, n [, {alpha = 0.05, alternative = "
      .. "\"two-sided\"}]) -> number",
    doc = "The power of the one-sample t-test: the probability of rejecting when the mean "
      .. "is effect_size standard deviations from mu, from the noncentral t distribution." },
})
-- Errors at the caller's line, options tables checked (util.args).
args.guard_functions(tests, "luma.stats")

return tests
