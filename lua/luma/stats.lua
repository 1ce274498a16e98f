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

luma.doc.set(stats, { name = "luma.stats",
  doc = "Descriptive statistics over the rows of a matrix (mean, var, std, quantile, median, "
    .. "skewness, kurtosis, cov, corr, mode), histogram, ecdf and kernel density estimation "
    .. "(KDE)." })

return stats
