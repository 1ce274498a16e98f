--- luma.stats.descriptive: descriptive statistics of a sample's columns:
-- mean, var, std, quantile, median, skewness, kurtosis, cov, corr, mode.
--
-- Data are samples in rows: column statistics come back as 1 x d rows
-- (scipy.stats' axis = 0), whatever the number of columns.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local common = require("luma.stats.common")
local fail, check_data = common.fail, common.check_data

local descriptive = {}

local function check_ddof(fname, ddof, n)
  ddof = ddof or 0
  if math.type(ddof) ~= "integer" or ddof < 0 or ddof >= n then
    fail(3, "luma.stats.%s: ddof must be an integer in [0, %d), got %s", fname, n, tostring(ddof))
  end
  return ddof
end

--- mean(X) -> 1 x d column means.
function descriptive.mean(X)
  return check_data("mean", X):mean(1)
end

--- var(X [, ddof = 0]) and std(X [, ddof = 0]): per column, dividing by
-- n - ddof (ddof = 1 for the unbiased variance).
function descriptive.var(X, ddof)
  check_data("var", X)
  return X:var(1, check_ddof("var", ddof, X:rows()))
end

function descriptive.std(X, ddof)
  check_data("std", X)
  return X:std(1, check_ddof("std", ddof, X:rows()))
end

--- quantile(X, q) -> one row per probability: q a number or a list of
-- numbers in [0, 1]; linear interpolation between order statistics at
-- position (n - 1) q (NumPy's default method).
function descriptive.quantile(X, q)
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
function descriptive.median(X)
  check_data("median", X)
  return descriptive.quantile(X, 0.5)
end

-- The k-th central moment of each column (1 x d).
local function central_moment(X, k)
  return (X - X:mean(1)):pow(k):mean(1)
end

--- skewness(X [, {bias = true}]) -> m3 / m2^(3/2) per column; bias = false
-- gives the adjusted Fisher-Pearson coefficient sqrt(n (n - 1)) / (n - 2) g1
-- (scipy.stats.skew's definitions).
function descriptive.skewness(X, opts)
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
function descriptive.kurtosis(X, opts)
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
function descriptive.cov(X, ddof)
  check_data("cov", X, 2)
  ddof = ddof == nil and 1 or check_ddof("cov", ddof, X:rows())
  local C = X - X:mean(1)
  return (C:t() * C) / (X:rows() - ddof)
end

--- corr(X) -> d x d Pearson correlation of the columns (a constant column
-- gives NaN, as NumPy's corrcoef).
function descriptive.corr(X)
  check_data("corr", X, 2)
  local S = descriptive.cov(X, 0)
  local sd = S:diag():sqrt()
  return S:div(sd * sd:t())
end

--- mode(X) -> values, counts (1 x d each): the most frequent value of each
-- column, the smallest among ties (scipy.stats.mode).
function descriptive.mode(X)
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

luma.doc.set_members(descriptive, "luma.stats", {
  mean = { signature = "mean(X) -> 1 x d matrix",
    doc = "The mean of each column of X. Like every luma.stats function, it takes samples "
      .. "in rows and variables in columns and returns one value per column (scipy.stats "
      .. "with axis = 0): stats.mean(X) is X:mean(1), while the method X:mean() without dim "
      .. "is the mean of all elements (NumPy's ndarray.mean)." },
  var = { signature = "var(X [, ddof = 0]) -> 1 x d matrix",
    doc = "The variance of each column, dividing by n - ddof: by default n, the maximum-"
      .. "likelihood (population) variance, as NumPy's var and X:var(1); ddof = 1 gives the "
      .. "unbiased sample variance." },
  std = { signature = "std(X [, ddof = 0]) -> 1 x d matrix",
    doc = "The standard deviation of each column, the square root of var." },
  quantile = { signature = "quantile(X, q) -> k x d matrix",
    doc = "Quantiles of each column at the probabilities q (a number or a list of k), one "
      .. "row per probability, interpolating linearly between order statistics (NumPy's "
      .. "default)." },
  median = { signature = "median(X) -> 1 x d matrix",
    doc = "The 0.5 quantile of each column." },
  skewness = { signature = "skewness(X [, {bias = true}]) -> 1 x d matrix",
    doc = "The sample skewness m3 / m2^(3/2) of each column; bias = false applies the "
      .. "adjusted Fisher-Pearson correction (scipy.stats.skew)." },
  kurtosis = { signature = "kurtosis(X [, {fisher = true, bias = true}]) -> 1 x d matrix",
    doc = "The sample kurtosis m4 / m2^2 of each column, minus 3 (excess kurtosis) when "
      .. "fisher; bias = false corrects for the sample size (scipy.stats.kurtosis)." },
  cov = { signature = "cov(X [, ddof = 1]) -> d x d matrix",
    doc = "The covariance matrix of the columns, dividing by n - ddof: by default n - 1, the "
      .. "unbiased sample covariance, as NumPy's cov (whose default differs from var's in "
      .. "the same way); ddof = 0 matches var's default, so diag(cov(X, 0)) = var(X)." },
  corr = { signature = "corr(X) -> d x d matrix",
    doc = "The Pearson correlation matrix of the columns (nan for a constant column)." },
  mode = { signature = "mode(X) -> values, counts",
    doc = "The most frequent value of each column and its count, two 1 x d matrices; the "
      .. "smallest value wins ties (scipy.stats.mode)." },
})
-- Errors at the caller's line, options tables checked (util.args).
args.guard_functions(descriptive, "luma.stats")

return descriptive
