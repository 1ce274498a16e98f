--- luma.tsa process: simulation of AR, MA, ARMA processes and random
-- walks, and the theoretical autocovariances they are checked against
-- (notes 003 §1.20 L1367-1404).
--
-- Conventions: X_t = sum_i ar_i X_{t-i} + w_t + sum_j ma_j w_{t-j} (the MA
-- sum runs from theta_0 = 1: notes 003 L1394-1398 print the limits wrong),
-- w_t ~ N(0, sigma2).  The MA autocovariance is gamma(h) = sigma2
-- sum_{j=0}^{q-h} theta_j theta_{j+h} (L1398); a random walk with drift
-- delta has E X_t = X_0 + delta t, Var X_t = t sigma2 and cov(X_s, X_t) =
-- min(s, t) sigma2 (L1374-1392).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.tsa.native")
local common = require("luma.tsa.common")

local fail, options = common.fail, common.options

local M = {}

-- The most rows a matrix has: the longest series simulated.
local MAX_ROWS = 2147483647

local function rng_of(opts)
  local r = opts.rng
  if r == nil then return estimator.rng(opts.seed) end
  return r
end

-- The coefficients of a list without its first entry, as text ({} when
-- none is left); sign -1 negates them.
local function rest_text(c, sign)
  local parts = {}
  for i = 2, c:rows() do parts[#parts + 1] = string.format("%.15g", sign * c:get(i, 1)) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- statsmodels' arma_generate_sample and ArmaProcess take lag polynomials,
-- ar = {1, -phi_1, ...} and ma = {1, theta_1, ...}; Luma takes the
-- coefficients phi and theta themselves.  A leading ar of exactly 1 is
-- almost always the other convention (as an AR coefficient it puts the
-- process at the edge of a unit root), and would simulate another process
-- without a word: a warning says which convention this is and what to
-- write instead.
local function check_convention(fname, ar, ma)
  if ar:rows() == 0 or ar:get(1, 1) ~= 1 then return end
  local ma_lag = ma:rows() > 0 and ma:get(1, 1) == 1
  warn(string.format("luma.tsa.%s: ar[1] is 1, as in statsmodels' lag polynomials "
    .. "(ar = {1, -phi_1, ...}, ma = {1, theta_1, ...}); Luma takes the coefficients "
    .. "themselves, X_t = sum_i ar_i X_{t-i} + w_t + sum_j ma_j w_{t-j}, so ar[1] = 1 is "
    .. "phi_1 = 1. For statsmodels' polynomials write ar = %s, ma = %s", fname,
    rest_text(ar, -1), ma_lag and rest_text(ma, 1) or "(your ma without its leading 1)"))
end

--- arma_generate(ar, ma, n [, opts]) -> x
function M.arma_generate(ar, ma, n, opts)
  ar = common.coefficients("arma_generate", "ar", ar)
  ma = common.coefficients("arma_generate", "ma", ma)
  check_convention("arma_generate", ar, ma)
  common.integer("arma_generate", "n", n, 1, MAX_ROWS)
  opts = options("arma_generate", opts, { sigma2 = true, burnin = true, rng = true, seed = true,
    mean = true }, 4)
  local sigma2 = opts.sigma2 or 1
  if type(sigma2) ~= "number" or not (sigma2 >= 0) then
    fail("arma_generate: sigma2 must be a number >= 0")
  end
  if ar:rows() > 0 and not common.stationary(common.totable(ar)) then
    fail("arma_generate: the AR coefficients are not stationary (a root of 1 - sum ar_i z^i "
      .. "lies on or inside the unit circle)")
  end
  local burnin = opts.burnin or 10 * (ar:rows() + ma:rows()) + 100
  -- the n + burnin steps are one matrix's rows
  common.integer("arma_generate", "burnin", burnin, 0, MAX_ROWS - n)
  local w = rng_of(opts):normal(n + burnin, 1) * math.sqrt(sigma2)
  local x = native.arma_filter(ar:rows() > 0 and ar or luma.zeros(1, 1),
    ma:rows() > 0 and ma or luma.zeros(1, 1), w)
  x = x:sub(burnin + 1, n + burnin):copy()
  if opts.mean then x = x + opts.mean end
  return x
end

--- random_walk(n [, opts]) -> x
function M.random_walk(n, opts)
  common.integer("random_walk", "n", n, 1, MAX_ROWS)
  opts = options("random_walk", opts, { drift = true, sigma2 = true, x0 = true, rng = true,
    seed = true }, 2)
  local sigma2, drift, x0 = opts.sigma2 or 1, opts.drift or 0, opts.x0 or 0
  local w = rng_of(opts):normal(n, 1) * math.sqrt(sigma2) + drift
  return w:cumsum(1) + x0
end

-- psi weights of the MA(infinity) form, psi_0 = 1, until they die out.
local function psi_weights(ar, ma, limit)
  local p, q = #ar, #ma
  local psi = { [0] = 1 }
  for j = 1, limit do
    local s = j <= q and ma[j] or 0
    for i = 1, math.min(j, p) do s = s + ar[i] * psi[j - i] end
    psi[j] = s
  end
  return psi
end

--- arma_acovf(ar, ma, nlags [, sigma2 = 1]) -> (nlags + 1) x 1
function M.arma_acovf(ar, ma, nlags, sigma2)
  ar = common.coefficients("arma_acovf", "ar", ar)
  ma = common.coefficients("arma_acovf", "ma", ma)
  check_convention("arma_acovf", ar, ma)
  ar, ma = common.totable(ar), common.totable(ma)
  common.integer("arma_acovf", "nlags", nlags, 0)
  sigma2 = sigma2 or 1
  if #ar > 0 and not common.stationary(ar) then
    fail("arma_acovf: the AR coefficients are not stationary")
  end
  local out = luma.zeros(nlags + 1, 1)
  if #ar == 0 then
    -- MA(q): gamma(h) = sigma2 sum_{j=0}^{q-h} theta_j theta_{j+h}, theta_0 = 1
    local th = { [0] = 1 }
    for j = 1, #ma do th[j] = ma[j] end
    for h = 0, math.min(nlags, #ma) do
      local s = 0
      for j = 0, #ma - h do s = s + th[j] * th[j + h] end
      out:set(h + 1, 1, sigma2 * s)
    end
    return out
  end
  -- gamma(h) = sigma2 sum_j psi_j psi_{j+h}, the psi weights decaying
  -- geometrically: summed until the terms vanish in double precision.
  local limit = 64
  local psi
  repeat
    limit = limit * 2
    psi = psi_weights(ar, ma, limit + nlags)
    local tail = 0
    for j = limit - 31, limit do tail = math.max(tail, math.abs(psi[j])) end
  until tail < 1e-17 or limit > 2 ^ 20
  for h = 0, nlags do
    local s = 0
    for j = 0, limit do s = s + psi[j] * psi[j + h] end
    out:set(h + 1, 1, sigma2 * s)
  end
  return out
end

luma.doc.set_members(M, "luma.tsa", {
  arma_generate = { signature = "arma_generate(ar, ma, n [, opts]) -> matrix",
    doc = "Simulates n steps of X_t = sum_i ar_i X_{t-i} + w_t + sum_j ma_j w_{t-j}, w_t ~ N(0, "
      .. "sigma2), after a burn-in from zeros (Box and Jenkins, Time Series Analysis, ch. 3); "
      .. "ar or ma may be empty ({}). ar and ma are the coefficients, not statsmodels' lag "
      .. "polynomials {1, -phi_1, ...}, {1, theta_1, ...}: ar[1] = 1 warns and says what to "
      .. "write. Returns an n x 1 matrix.",
    params = { { name = "sigma2", default = 1, doc = "the innovation variance" },
      { name = "burnin", default = "10 (p + q) + 100", doc = "steps simulated and dropped first" },
      { name = "mean", default = 0, doc = "added to the series" },
      { name = "rng", default = "nil", doc = "a luma.random.Generator" },
      { name = "seed", default = "nil", doc = "the seed of a new generator when rng is nil" } } },
  random_walk = { signature = "random_walk(n [, opts]) -> matrix",
    doc = "Simulates X_t = X_{t-1} + drift + w_t, w_t ~ N(0, sigma2), from X_0 = x0 (E X_t = "
      .. "x0 + drift t, Var X_t = t sigma2; Shumway and Stoffer, Time Series Analysis and Its "
      .. "Applications, example 1.11). Returns the n x 1 path X_1..X_n.",
    params = { { name = "drift", default = 0, doc = "delta" },
      { name = "sigma2", default = 1, doc = "the step variance" },
      { name = "x0", default = 0, doc = "the starting value" },
      { name = "rng", default = "nil", doc = "a luma.random.Generator" },
      { name = "seed", default = "nil", doc = "the seed of a new generator when rng is nil" } } },
  arma_acovf = { signature = "arma_acovf(ar, ma, nlags [, sigma2 = 1]) -> matrix",
    doc = "The theoretical autocovariances gamma(0..nlags) of a stationary ARMA process: "
      .. "sigma2 sum_{j=0}^{q-h} theta_j theta_{j+h} for MA(q) (theta_0 = 1), sigma2 sum_j "
      .. "psi_j psi_{j+h} over the MA(infinity) weights otherwise (Brockwell and Davis, sec. "
      .. "3.3). ar and ma as arma_generate takes them. Returns an (nlags + 1) x 1 matrix." },
})

return M
