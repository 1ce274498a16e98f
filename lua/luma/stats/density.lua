--- luma.stats.density: nonparametric estimates of the distribution a
-- sample came from: histogram, the empirical distribution function (ecdf)
-- and kernel density estimation (KDE).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local common = require("luma.stats.common")
local fail, check_data = common.fail, common.check_data

local density = {}

--- histogram(x [, {bins = 10, range = {lo, hi}, density = false}]) ->
-- counts (bins x 1), edges ((bins + 1) x 1).  bins is a count of equal
-- bins over range (default: the data's min..max) or a list of increasing
-- edges; every bin is half-open [a, b) except the last, [a, b], as in
-- NumPy.  density divides by n times the bin width.
function density.histogram(x, opts)
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
function density.ecdf(x)
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
      args.arg(luma.ismatrix(t), 1, "ecdf", "number or luma.Matrix", t, 2)
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
function density.KDE(opts)
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

luma.doc.set_members(density, "luma.stats", {
  histogram = {
    signature = "histogram(x [, {bins = 10, range = {min, max}, density = false}]) -> counts, edges",
    doc = "Counts of x's elements in bins (a count of equal bins over range, or a list of "
      .. "increasing edges); bins are half-open [a, b) except the last, as in NumPy, and "
      .. "density divides by n times the width. Returns counts (bins x 1) and edges "
      .. "((bins + 1) x 1)." },
  ecdf = { signature = "ecdf(x) -> F",
    doc = "The empirical distribution function of x's elements: F(t) is the fraction of the "
      .. "data <= t (t a number or a matrix), F.x the sorted data and F.y the steps i / n." },
  KDE = {
    signature = "KDE{data, kernel = \"gaussian\", bandwidth = \"scott\"} -> kde",
    doc = "A kernel density estimate of the rows of data (Bishop, Pattern Recognition and "
      .. "Machine Learning, sec. 2.5.1: the kernels normalized by N h^D in D dimensions): "
      .. "kernel \"gaussian\" or \"uniform\" (the cube |u_i| <= 1), bandwidth a number or "
      .. "the rule of thumb \"scott\" or \"silverman\". Returns an object with "
      .. "kde:pdf(points) and kde:logpdf(points), m x 1 densities at the rows of points." },
})
-- Errors at the caller's line, options tables checked (util.args).
args.guard_functions(density, "luma.stats")

return density
