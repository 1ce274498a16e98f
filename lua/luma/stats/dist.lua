--- luma.dist: probability distributions.
--
-- Each distribution is an object made from a parameter table
-- (`dist.Normal{mu = 0, sigma = 1}`), validated on construction, with
-- pdf/logpdf (pmf/logpmf for discrete ones), cdf, ppf, sample(n [, rng]),
-- mean, var, entropy, and for the 1-D ones the tails sf = 1 - cdf,
-- logcdf, logsf and isf (the inverse of sf), each computed directly so
-- that a tail keeps its relative accuracy where 1 - cdf would round to 0, and a class function fit(data) giving the maximum
-- likelihood estimate (variances divide by n).  Densities and cdfs take a
-- number (and return one) or a matrix of points (and return a matrix of
-- the same shape); multivariate densities take one point per row.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local sf = luma.special

local dist = {}

local LOG_2PI = math.log(2 * math.pi)

local fail = args.fail

-- Every class class() made (their methods get self checks at the end).
local classes = {}

local function default_rng(rng)
  if rng ~= nil then
    local mt = getmetatable(rng)
    if type(mt) ~= "table" or rawget(mt, "__name") ~= "luma.Generator" then
      fail(3, "bad argument #2 to 'sample' (luma.Generator or nil expected, got %s)",
        args.type_of(rng))
    end
  end
  return rng or luma.random.default()
end

-- Runs f on a matrix form of x and gives a number back for a number.
local function lift(x, f)
  if type(x) == "number" then return f(luma.matrix{ x }):get(1, 1) end
  if not luma.ismatrix(x) then fail(3, "expected a number or a luma.Matrix, got %s", type(x)) end
  local r = f(x) -- not a tail call: errors count the same levels as for a number
  return r
end

-- log of 0 where the mask is 0: -inf outside the support.
local function outside(logp, inside)
  return luma.matrix.where(inside, logp, -math.huge)
end

-- The largest sample a distribution draws at once (a matrix's row limit).
local MAX_SAMPLE = 2147483647

local function check_sample_count(n)
  if math.type(n) ~= "integer" or n < 0 then
    fail(3, "sample: n must be an integer >= 0, got %s", tostring(n))
  elseif n > MAX_SAMPLE then
    fail(3, "sample: n must be an integer <= %d, got %d", MAX_SAMPLE, n)
  end
end

local function check_probabilities(name, method, m)
  if m:lt(0):add(m:gt(1)):any() then fail(5, "%s.%s: probabilities must be in [0, 1]", name, method) end
end

-- log of a probability p whose complement c = 1 - p is known directly:
-- log1p(-c) where p is near 1 (log p would round to 0), log p elsewhere.
local function log_probability(p, c)
  return luma.matrix.where(p:gt(0.5), (c * -1):log1p(), p:log())
end

-- A distribution class: new(params) validates and fills; methods shared.
local function class(name, spec)
  local cls = { name = "luma.dist." .. name }
  local meta = { __index = cls, __name = cls.name }
  classes[#classes + 1] = cls
  local is_instance = args.is_named(cls.name)
  meta.__tostring = function(self)
    if not is_instance(self) then args.bad_self("__tostring", cls.name, self, 2) end
    local parts = {}
    for _, p in ipairs(spec.params) do
      local v = self[p]
      parts[#parts + 1] = p .. "=" .. (luma.ismatrix(v) and ("<" .. v:rows() .. "x" .. v:cols() .. ">") or tostring(v))
    end
    return name .. "(" .. table.concat(parts, ", ") .. ")"
  end
  setmetatable(cls, { __call = function(_, params)
    if type(params) ~= "table" then fail(2, "%s expects a table of parameters", cls.name) end
    local self = setmetatable({}, meta)
    local known = {}
    for _, p in ipairs(spec.params) do known[p] = true end
    for _, p in ipairs(spec.aliases or {}) do known[p] = true end
    for k in pairs(params) do
      if not known[k] then
        fail(2, "%s: unknown parameter '%s' (valid: %s)", cls.name, tostring(k),
          table.concat(spec.params, ", "))
      end
    end
    -- the checks of the parameters blame the constructor's caller
    args.relay(2, spec.init, self, params,
      function(fmt, ...) fail(1, cls.name .. ": " .. fmt, ...) end)
    return self
  end })
  function cls.pdf(self, x) return lift(x, function(m) return self:_logp(m):exp() end) end
  function cls.logpdf(self, x) return lift(x, function(m) return self:_logp(m) end) end
  cls.pmf, cls.logpmf = cls.pdf, cls.logpdf
  function cls.cdf(self, x) return lift(x, function(m) return self:_cdf(m) end) end
  function cls.ppf(self, q)
    return lift(q, function(m)
      check_probabilities(name, "ppf", m)
      return self:_ppf(m)
    end)
  end
  -- The tails: each class gives _sf (and _isf) directly; logcdf and logsf
  -- take the log of whichever of cdf and sf is the smaller unless a class
  -- has a closed form that also holds where both round off.
  function cls.sf(self, x) return lift(x, function(m) return self:_sf(m) end) end
  function cls.logcdf(self, x) return lift(x, function(m) return self:_logcdf(m) end) end
  function cls.logsf(self, x) return lift(x, function(m) return self:_logsf(m) end) end
  function cls.isf(self, q)
    return lift(q, function(m)
      check_probabilities(name, "isf", m)
      return self:_isf(m)
    end)
  end
  function cls._logcdf(self, m) return log_probability(self:_cdf(m), self:_sf(m)) end
  function cls._logsf(self, m) return log_probability(self:_sf(m), self:_cdf(m)) end
  function cls.sample(self, n, rng)
    check_sample_count(n)
    return self:_sample(n, default_rng(rng))
  end
  -- help(Normal) and help(instance): the signature that opens spec.doc
  -- ("Normal{mu = 0, sigma = 1}: ...") and the parameters with the
  -- defaults it shows.
  local signature, summary = spec.doc:match("^(" .. name .. "%b{})[:%s]*(.*)$")
  local defaults = {}
  for p, v in (signature or ""):gmatch("([%w_]+)%s*=%s*([^,}]+)") do defaults[p] = v end
  local record = { name = cls.name, signature = signature, doc = summary or spec.doc, params = {} }
  for i, p in ipairs(spec.params) do
    record.params[i] = { name = p, default = defaults[p], doc = spec.param_docs and spec.param_docs[p] }
  end
  luma.doc.set(cls, record)
  luma.doc.set(meta, record)
  dist[name] = cls
  return cls
end

local function positive(check, v, what)
  if type(v) ~= "number" or not (v > 0) or v == math.huge then check("%s must be a finite number > 0, got %s", what, tostring(v)) end
  return v
end
local function finite(check, v, what)
  if type(v) ~= "number" or v ~= v or math.abs(v) == math.huge then check("%s must be a finite number, got %s", what, tostring(v)) end
  return v
end
local function probability(check, v, what)
  if type(v) ~= "number" or not (v >= 0 and v <= 1) then check("%s must be a probability in [0, 1], got %s", what, tostring(v)) end
  return v
end

local function data_column(fname, x)
  if not luma.ismatrix(x) or x:rows() == 0 then fail(3, "%s: data must be a non-empty matrix", fname) end
  return x:flatten()
end

-- Smallest integer k >= lo with ok(k) (ok false, then true), by doubling
-- then bisection; inf when there is none below 2^53.
local function smallest_integer(lo, ok)
  local hi = math.max(lo, 1)
  while not ok(hi) do
    hi = hi * 2
    if hi > 2 ^ 53 then return math.huge end
  end
  local a = lo
  while a < hi do
    local mid = (a + hi) // 2
    if ok(mid) then hi = mid else a = mid + 1 end
  end
  return a
end

-- Quantiles of a discrete distribution on lo, lo + 1, ...: ppf(q) is the
-- smallest k with cdf(k) >= q, isf(q) the smallest k with sf(k) <= q
-- (searched on sf itself, so a tiny q finds its k); isf(0) is top, the
-- upper end of the support.
local function discrete_ppf(self, q, lo)
  return q:map(function(p)
    if p == 0 then return lo end
    return smallest_integer(lo, function(k) return self:cdf(k) >= p end)
  end)
end
local function discrete_isf(self, q, lo, top)
  return q:map(function(p)
    if p == 1 then return lo end
    if p == 0 then return top or math.huge end
    return smallest_integer(lo, function(k) return self:sf(k) <= p end)
  end)
end

-- isf(q) by a tail inverse accurate for small q below 1/2, and by
-- ppf(1 - q) above (1 - q is exact there, so nothing cancels).
local function isf_by_halves(self, q, upper)
  return luma.matrix.where(q:lt(0.5), upper(q:minimum(0.5)), self:_ppf((q * -1 + 1):minimum(0.5)))
end

-- log(1 + v) for a number (Lua's math has no log1p).
local function log1p(v) return luma.matrix{ v }:log1p():get(1, 1) end

-- Maximizes a concave-enough f over (lo, hi) by golden-section search
-- (profile likelihoods in one shape parameter).
local function golden_max(f, lo, hi)
  local r = (math.sqrt(5) - 1) / 2
  local a, b = lo, hi
  local c, e = b - r * (b - a), a + r * (b - a)
  local fc, fe = f(c), f(e)
  for _ = 1, 200 do
    if fc < fe then -- the maximum lies in (c, b)
      a, c, fc = c, e, fe
      e = a + r * (b - a)
      fe = f(e)
    else -- in (a, e)
      b, e, fe = e, c, fc
      c = b - r * (b - a)
      fc = f(c)
    end
    if b - a < 1e-10 * (1 + math.abs(a)) then break end
  end
  return (a + b) / 2
end

-- ------------------------------------------------------ continuous, 1-D

class("Normal", {
  params = { "mu", "sigma" },
  doc = "Normal{mu = 0, sigma = 1}: the Gaussian with mean mu and standard deviation sigma.",
  init = function(self, p, check)
    self.mu = finite(check, p.mu or 0, "mu")
    self.sigma = positive(check, p.sigma or 1, "sigma")
  end,
})
function dist.Normal._logp(self, x)
  local z = (x - self.mu) / self.sigma
  return z:pow(2) * -0.5 - (math.log(self.sigma) + 0.5 * LOG_2PI)
end
function dist.Normal._cdf(self, x)
  return sf.erfc((x - self.mu) * (-1 / (self.sigma * math.sqrt(2)))) * 0.5
end
function dist.Normal._sf(self, x)
  return sf.erfc((x - self.mu) * (1 / (self.sigma * math.sqrt(2)))) * 0.5
end
-- log Phi, with its asymptotic expansion far in the left tail (luma.special.log_ndtr)
function dist.Normal._logcdf(self, x) return sf.log_ndtr((x - self.mu) / self.sigma) end
function dist.Normal._logsf(self, x) return sf.log_ndtr((x - self.mu) / -self.sigma) end
function dist.Normal._ppf(self, q)
  return sf.erfcinv(q * 2) * (-self.sigma * math.sqrt(2)) + self.mu
end
function dist.Normal._isf(self, q)
  return sf.erfcinv(q * 2) * (self.sigma * math.sqrt(2)) + self.mu
end
function dist.Normal._sample(self, n, rng) return rng:normal(n, 1, self.mu, self.sigma) end
function dist.Normal.mean(self) return self.mu end
function dist.Normal.var(self) return self.sigma ^ 2 end
function dist.Normal.entropy(self) return 0.5 * (LOG_2PI + 1) + math.log(self.sigma) end
function dist.Normal.fit(x)
  x = data_column("Normal.fit", x)
  return dist.Normal{ mu = x:mean(), sigma = math.sqrt(x:var()) }
end

class("LogNormal", {
  params = { "mu", "sigma" },
  doc = "LogNormal{mu = 0, sigma = 1}: exp of a Normal{mu, sigma}.",
  init = function(self, p, check)
    self.mu = finite(check, p.mu or 0, "mu")
    self.sigma = positive(check, p.sigma or 1, "sigma")
    self.normal = dist.Normal{ mu = self.mu, sigma = self.sigma }
  end,
})
function dist.LogNormal._logp(self, x)
  local inside = x:gt(0)
  local lx = luma.matrix.where(inside, x, 1):log()
  return outside(self.normal:_logp(lx) - lx, inside)
end
function dist.LogNormal._cdf(self, x)
  return luma.matrix.where(x:gt(0), self.normal:_cdf(luma.matrix.where(x:gt(0), x, 1):log()), 0)
end
-- the normal's tails at log x (x <= 0: cdf 0, sf 1)
local function lognormal_tail(self, x, method, below)
  local inside = x:gt(0)
  return luma.matrix.where(inside, self.normal[method](self.normal, luma.matrix.where(inside, x, 1):log()), below)
end
function dist.LogNormal._sf(self, x) return lognormal_tail(self, x, "_sf", 1) end
function dist.LogNormal._logcdf(self, x) return lognormal_tail(self, x, "_logcdf", -math.huge) end
function dist.LogNormal._logsf(self, x) return lognormal_tail(self, x, "_logsf", 0) end
function dist.LogNormal._ppf(self, q) return self.normal:_ppf(q):exp() end
function dist.LogNormal._isf(self, q) return self.normal:_isf(q):exp() end
function dist.LogNormal._sample(self, n, rng) return self.normal:_sample(n, rng):exp() end
function dist.LogNormal.mean(self) return math.exp(self.mu + self.sigma ^ 2 / 2) end
function dist.LogNormal.var(self)
  return (math.exp(self.sigma ^ 2) - 1) * math.exp(2 * self.mu + self.sigma ^ 2)
end
function dist.LogNormal.entropy(self) return self.mu + 0.5 + 0.5 * LOG_2PI + math.log(self.sigma) end
function dist.LogNormal.fit(x)
  x = data_column("LogNormal.fit", x)
  if x:le(0):any() then fail(2, "LogNormal.fit: data must be > 0") end
  local n = dist.Normal.fit(x:log())
  return dist.LogNormal{ mu = n.mu, sigma = n.sigma }
end

class("Uniform", {
  params = { "a", "b" },
  doc = "Uniform{a = 0, b = 1}: constant density on [a, b].",
  init = function(self, p, check)
    self.a = finite(check, p.a or 0, "a")
    self.b = finite(check, p.b or 1, "b")
    if not (self.b > self.a) then check("b must be greater than a (%s <= %s)", tostring(self.b), tostring(self.a)) end
  end,
})
function dist.Uniform._logp(self, x)
  return outside(luma.full(x:rows(), x:cols(), -math.log(self.b - self.a)), x:ge(self.a):mul(x:le(self.b)))
end
function dist.Uniform._cdf(self, x) return ((x - self.a) / (self.b - self.a)):clamp(0, 1) end
function dist.Uniform._sf(self, x) return ((x * -1 + self.b) / (self.b - self.a)):clamp(0, 1) end
function dist.Uniform._ppf(self, q) return q * (self.b - self.a) + self.a end
function dist.Uniform._isf(self, q) return q * (self.a - self.b) + self.b end
function dist.Uniform._sample(self, n, rng) return rng:uniform(n, 1, self.a, self.b) end
function dist.Uniform.mean(self) return (self.a + self.b) / 2 end
function dist.Uniform.var(self) return (self.b - self.a) ^ 2 / 12 end
function dist.Uniform.entropy(self) return math.log(self.b - self.a) end
function dist.Uniform.fit(x)
  x = data_column("Uniform.fit", x)
  if x:min() == x:max() then fail(2, "Uniform.fit: all data are equal") end
  return dist.Uniform{ a = x:min(), b = x:max() }
end

class("Exponential", {
  params = { "rate" },
  doc = "Exponential{rate = 1}: density rate e^(-rate x) on x >= 0 (mean 1/rate).",
  init = function(self, p, check) self.rate = positive(check, p.rate or 1, "rate") end,
})
function dist.Exponential._logp(self, x)
  return outside(x * -self.rate + math.log(self.rate), x:ge(0))
end
function dist.Exponential._cdf(self, x) return (x:maximum(0) * -self.rate):expm1() * -1 end
function dist.Exponential._sf(self, x) return (x:maximum(0) * -self.rate):exp() end
function dist.Exponential._logsf(self, x) return x:maximum(0) * -self.rate end
function dist.Exponential._ppf(self, q) return (q * -1):log1p() * (-1 / self.rate) end
function dist.Exponential._isf(self, q) return q:log() * (-1 / self.rate) end
function dist.Exponential._sample(self, n, rng) return rng:exponential(self.rate, n, 1) end
function dist.Exponential.mean(self) return 1 / self.rate end
function dist.Exponential.var(self) return 1 / self.rate ^ 2 end
function dist.Exponential.entropy(self) return 1 - math.log(self.rate) end
function dist.Exponential.fit(x)
  x = data_column("Exponential.fit", x)
  if x:lt(0):any() or x:mean() == 0 then fail(2, "Exponential.fit: data must be >= 0, not all 0") end
  return dist.Exponential{ rate = 1 / x:mean() }
end

class("Laplace", {
  params = { "mu", "b" },
  doc = "Laplace{mu = 0, b = 1}: density e^(-|x - mu| / b) / (2 b).",
  init = function(self, p, check)
    self.mu = finite(check, p.mu or 0, "mu")
    self.b = positive(check, p.b or 1, "b")
  end,
})
function dist.Laplace._logp(self, x) return (x - self.mu):abs() * (-1 / self.b) - math.log(2 * self.b) end
function dist.Laplace._cdf(self, x)
  local z = (x - self.mu) / self.b
  return luma.matrix.where(z:lt(0), z:exp() * 0.5, (z * -1):exp() * -0.5 + 1)
end
-- By symmetry about mu: sf(x) = cdf(2 mu - x), isf(q) = 2 mu - ppf(q).
function dist.Laplace._sf(self, x) return self:_cdf(x * -1 + 2 * self.mu) end
function dist.Laplace._logcdf(self, x)
  local z = (x - self.mu) / self.b
  return luma.matrix.where(z:lt(0), z + math.log(0.5), ((z * -1):exp() * -0.5):log1p())
end
function dist.Laplace._logsf(self, x) return self:_logcdf(x * -1 + 2 * self.mu) end
function dist.Laplace._ppf(self, q)
  return luma.matrix.where(q:lt(0.5), (q * 2):log() * self.b + self.mu,
    ((q * -2) + 2):log() * -self.b + self.mu)
end
function dist.Laplace._isf(self, q) return self:_ppf(q) * -1 + 2 * self.mu end
function dist.Laplace._sample(self, n, rng) return self:_ppf(rng:uniform(n, 1)) end
function dist.Laplace.mean(self) return self.mu end
function dist.Laplace.var(self) return 2 * self.b ^ 2 end
function dist.Laplace.entropy(self) return 1 + math.log(2 * self.b) end
function dist.Laplace.fit(x)
  x = data_column("Laplace.fit", x)
  local mu = x:sort():get((x:rows() + 1) // 2, 1) -- a median minimizes the absolute deviations
  local b = (x - mu):abs():mean()
  if b == 0 then fail(2, "Laplace.fit: all data are equal") end
  return dist.Laplace{ mu = mu, b = b }
end

class("Gamma", {
  params = { "shape", "rate" },
  aliases = { "scale" },
  doc = "Gamma{shape, rate} or Gamma{shape, scale}: density rate^shape x^(shape-1) "
    .. "e^(-rate x) / Gamma(shape) on x > 0 (mean shape / rate; scale = 1 / rate).",
  init = function(self, p, check)
    self.shape = positive(check, p.shape, "shape")
    if p.rate ~= nil and p.scale ~= nil then check("give rate or scale, not both") end
    self.rate = p.scale and 1 / positive(check, p.scale, "scale") or positive(check, p.rate or 1, "rate")
    self.scale = 1 / self.rate
  end,
})
function dist.Gamma._logp(self, x)
  local a, r = self.shape, self.rate
  local inside = x:gt(0)
  local safe = luma.matrix.where(inside, x, 1)
  return outside(safe:log() * (a - 1) - safe * r + (a * math.log(r) - sf.lgamma(a)), inside)
end
function dist.Gamma._cdf(self, x) return sf.gammainc(self.shape, (x * self.rate):maximum(0)) end
function dist.Gamma._sf(self, x) return sf.gammaincc(self.shape, (x * self.rate):maximum(0)) end
function dist.Gamma._ppf(self, q) return sf.gammaincinv(self.shape, q) * self.scale end
function dist.Gamma._isf(self, q)
  return isf_by_halves(self, q, function(t) return sf.gammainccinv(self.shape, t) * self.scale end)
end
function dist.Gamma._sample(self, n, rng) return rng:gamma(self.shape, n, 1) * self.scale end
function dist.Gamma.mean(self) return self.shape / self.rate end
function dist.Gamma.var(self) return self.shape / self.rate ^ 2 end
function dist.Gamma.entropy(self)
  local a = self.shape
  return a - math.log(self.rate) + sf.lgamma(a) + (1 - a) * sf.digamma(a)
end
function dist.Gamma.fit(x)
  x = data_column("Gamma.fit", x)
  if x:le(0):any() then fail(2, "Gamma.fit: data must be > 0") end
  -- The shape solves log a - digamma(a) = s = log mean - mean log (Minka's
  -- Newton iteration from his closed-form start); rate = a / mean.
  local m = x:mean()
  local s = math.log(m) - x:log():mean()
  if s <= 0 then fail(2, "Gamma.fit: the data have no spread") end
  local a = (3 - s + math.sqrt((s - 3) ^ 2 + 24 * s)) / (12 * s)
  for _ = 1, 100 do
    local step = (math.log(a) - sf.digamma(a) - s) / (1 / a - sf.trigamma(a))
    a = a - step
    if math.abs(step) < 1e-14 * a then break end
  end
  return dist.Gamma{ shape = a, rate = a / m }
end

class("ChiSquared", {
  params = { "df" },
  doc = "ChiSquared{df}: the sum of df squared standard normals (Gamma{df/2, rate 1/2}).",
  init = function(self, p, check)
    self.df = positive(check, p.df, "df")
    self.gamma = dist.Gamma{ shape = self.df / 2, rate = 0.5 }
  end,
})
for _, m in ipairs({ "_logp", "_cdf", "_ppf", "_sf", "_isf", "_logcdf", "_logsf", "_sample", "mean",
  "var", "entropy" }) do
  dist.ChiSquared[m] = function(self, ...) return self.gamma[m](self.gamma, ...) end
end
function dist.ChiSquared.fit(x)
  return dist.ChiSquared{ df = dist.Gamma.fit(x).shape * 2 }
end

class("Beta", {
  params = { "a", "b" },
  doc = "Beta{a, b}: density x^(a-1) (1-x)^(b-1) / B(a, b) on [0, 1].",
  init = function(self, p, check)
    self.a = positive(check, p.a, "a")
    self.b = positive(check, p.b, "b")
  end,
})
function dist.Beta._logp(self, x)
  local inside = x:gt(0):mul(x:lt(1))
  local safe = luma.matrix.where(inside, x, 0.5)
  return outside(safe:log() * (self.a - 1) + (safe * -1):log1p() * (self.b - 1)
    - sf.lbeta(self.a, self.b), inside)
end
function dist.Beta._cdf(self, x) return sf.betainc(self.a, self.b, x:clamp(0, 1)) end
-- P(X > x) = I_{1-x}(b, a)
function dist.Beta._sf(self, x) return sf.betainc(self.b, self.a, (x * -1 + 1):clamp(0, 1)) end
function dist.Beta._ppf(self, q) return sf.betaincinv(self.a, self.b, q) end
function dist.Beta._isf(self, q)
  return isf_by_halves(self, q, function(t) return sf.betaincinv(self.b, self.a, t) * -1 + 1 end)
end
function dist.Beta._sample(self, n, rng) return rng:beta(self.a, self.b, n, 1) end
function dist.Beta.mean(self) return self.a / (self.a + self.b) end
function dist.Beta.var(self)
  local s = self.a + self.b
  return self.a * self.b / (s * s * (s + 1))
end
function dist.Beta.entropy(self)
  local a, b = self.a, self.b
  return sf.lbeta(a, b) - (a - 1) * sf.digamma(a) - (b - 1) * sf.digamma(b)
    + (a + b - 2) * sf.digamma(a + b)
end
function dist.Beta.fit(x)
  x = data_column("Beta.fit", x)
  if x:le(0):any() or x:ge(1):any() then fail(2, "Beta.fit: data must lie in (0, 1)") end
  -- Newton on the two score equations, from the method-of-moments start.
  local m, v = x:mean(), x:var()
  if v == 0 then fail(2, "Beta.fit: the data have no spread") end
  local common = m * (1 - m) / v - 1
  local a, b = m * common, (1 - m) * common
  local g1, g2 = x:log():mean(), (x * -1):log1p():mean()
  for _ = 1, 200 do
    local f1 = sf.digamma(a) - sf.digamma(a + b) - g1
    local f2 = sf.digamma(b) - sf.digamma(a + b) - g2
    local t = sf.trigamma(a + b)
    local j11, j12, j22 = sf.trigamma(a) - t, -t, sf.trigamma(b) - t
    local det = j11 * j22 - j12 * j12
    local da, db = (j22 * f1 - j12 * f2) / det, (j11 * f2 - j12 * f1) / det
    a, b = math.max(a - da, a / 2), math.max(b - db, b / 2)
    if math.abs(da) < 1e-14 * a and math.abs(db) < 1e-14 * b then break end
  end
  return dist.Beta{ a = a, b = b }
end

class("StudentT", {
  params = { "df", "loc", "scale" },
  doc = "StudentT{df, loc = 0, scale = 1}: the location-scale Student t.",
  init = function(self, p, check)
    self.df = positive(check, p.df, "df")
    self.loc = finite(check, p.loc or 0, "loc")
    self.scale = positive(check, p.scale or 1, "scale")
  end,
})
function dist.StudentT._logp(self, x)
  local v = self.df
  local z = (x - self.loc) / self.scale
  return (z:pow(2) / v):log1p() * (-(v + 1) / 2)
    + (sf.lgamma((v + 1) / 2) - sf.lgamma(v / 2) - 0.5 * math.log(v * math.pi) - math.log(self.scale))
end
-- The standardized z and the one-sided tail P(T > |z|) = I_{v/(v+z^2)}(v/2, 1/2) / 2.
local function t_tail(self, x)
  local v = self.df
  local z = (x - self.loc) / self.scale
  return z, sf.betainc(v / 2, 0.5, (z:pow(2) + v):pow(-1) * v) * 0.5
end
function dist.StudentT._cdf(self, x)
  local z, tail = t_tail(self, x)
  return luma.matrix.where(z:lt(0), tail, tail * -1 + 1)
end
function dist.StudentT._sf(self, x)
  local z, tail = t_tail(self, x)
  return luma.matrix.where(z:gt(0), tail, tail * -1 + 1)
end
-- The standard t quantile at q, from the tail mass min(q, 1 - q).
local function t_quantile(self, q)
  local v = self.df
  local p = luma.matrix.where(q:lt(0.5), q, q * -1 + 1) * 2 -- two-sided tail mass
  local xb = sf.betaincinv(v / 2, 0.5, p)
  local t = ((xb:pow(-1) - 1) * v):sqrt()
  return luma.matrix.where(q:lt(0.5), t * -1, t)
end
function dist.StudentT._ppf(self, q) return t_quantile(self, q) * self.scale + self.loc end
function dist.StudentT._isf(self, q) return t_quantile(self, q) * -self.scale + self.loc end
function dist.StudentT._sample(self, n, rng)
  local z = rng:normal(n, 1)
  local chi = rng:gamma(self.df / 2, n, 1) * 2
  return z:div((chi / self.df):sqrt()) * self.scale + self.loc
end
function dist.StudentT.mean(self) return self.df > 1 and self.loc or 0 / 0 end
function dist.StudentT.var(self)
  local v = self.df
  return v > 2 and self.scale ^ 2 * v / (v - 2) or (v > 1 and math.huge or 0 / 0)
end
function dist.StudentT.entropy(self)
  local v = self.df
  return (v + 1) / 2 * (sf.digamma((v + 1) / 2) - sf.digamma(v / 2))
    + 0.5 * math.log(v) + sf.lbeta(v / 2, 0.5) + math.log(self.scale)
end
--- StudentT.fit(x [, {df}]): loc and scale by EM with df fixed (default 5);
-- the E-step weights are (df + 1) / (df + z^2) (notes 000 §12.2.3).
function dist.StudentT.fit(x, opts)
  opts = args.options("StudentT.fit", 2, opts, nil, { df = true }, 2)
  x = data_column("StudentT.fit", x)
  local v = (opts and opts.df) or 5
  local loc, scale = x:mean(), math.sqrt(x:var())
  if scale == 0 then fail(2, "StudentT.fit: the data have no spread") end
  for _ = 1, 500 do
    local w = ((x - loc):pow(2) / (scale * scale) + v):pow(-1) * (v + 1)
    local new_loc = (w:mul(x)):sum() / w:sum()
    local new_scale = math.sqrt((w:mul((x - new_loc):pow(2))):mean())
    local done = math.abs(new_loc - loc) < 1e-12 * (1 + math.abs(loc))
      and math.abs(new_scale - scale) < 1e-12 * scale
    loc, scale = new_loc, new_scale
    if done then break end
  end
  return dist.StudentT{ df = v, loc = loc, scale = scale }
end

class("F", {
  params = { "d1", "d2" },
  doc = "F{d1, d2}: the ratio of two scaled chi-squared variables.",
  init = function(self, p, check)
    self.d1 = positive(check, p.d1, "d1")
    self.d2 = positive(check, p.d2, "d2")
  end,
})
function dist.F._logp(self, x)
  local d1, d2 = self.d1, self.d2
  local inside = x:gt(0)
  local s = luma.matrix.where(inside, x, 1)
  local logp = s:log() * (d1 / 2 - 1) - (s * d1 + d2):log() * ((d1 + d2) / 2)
    + (0.5 * (d1 * math.log(d1) + d2 * math.log(d2)) - sf.lbeta(d1 / 2, d2 / 2))
  return outside(logp, inside)
end
function dist.F._cdf(self, x)
  local s = x:maximum(0) * self.d1
  return sf.betainc(self.d1 / 2, self.d2 / 2, s:div(s + self.d2))
end
-- P(X > x) = I_{d2/(d2 + d1 x)}(d2/2, d1/2)
function dist.F._sf(self, x)
  local s = x:maximum(0) * self.d1
  return sf.betainc(self.d2 / 2, self.d1 / 2, (s + self.d2):pow(-1) * self.d2)
end
function dist.F._ppf(self, q)
  local b = sf.betaincinv(self.d1 / 2, self.d2 / 2, q)
  return b:div(b * -1 + 1) * (self.d2 / self.d1)
end
function dist.F._isf(self, q)
  return isf_by_halves(self, q, function(t)
    local y = sf.betaincinv(self.d2 / 2, self.d1 / 2, t)
    return (y * -1 + 1):div(y) * (self.d2 / self.d1)
  end)
end
function dist.F._sample(self, n, rng)
  local a = rng:gamma(self.d1 / 2, n, 1) / self.d1
  local b = rng:gamma(self.d2 / 2, n, 1) / self.d2
  return a:div(b)
end
function dist.F.mean(self) return self.d2 > 2 and self.d2 / (self.d2 - 2) or 0 / 0 end
function dist.F.entropy(self)
  local a, b = self.d1 / 2, self.d2 / 2
  return math.log(self.d2 / self.d1) + sf.lbeta(a, b) + (1 - a) * sf.digamma(a)
    - (1 + b) * sf.digamma(b) + (a + b) * sf.digamma(a + b)
end
--- F.fit(x): both degrees of freedom by maximum likelihood (coordinate
-- ascent with golden-section searches over log d1 and log d2).
function dist.F.fit(x)
  x = data_column("F.fit", x)
  if x:le(0):any() then fail(2, "F.fit: data must be > 0") end
  local m = x:mean()
  local d1, d2 = 5, m > 1 and math.max(2 * m / (m - 1), 2.5) or 10
  local function ll(a, b) return dist.F{ d1 = a, d2 = b }:logpdf(x):sum() end
  for _ = 1, 50 do
    local n1 = math.exp(golden_max(function(t) return ll(math.exp(t), d2) end, math.log(1e-2), math.log(1e6)))
    local n2 = math.exp(golden_max(function(t) return ll(n1, math.exp(t)) end, math.log(1e-2), math.log(1e6)))
    local done = math.abs(n1 - d1) < 1e-8 * d1 and math.abs(n2 - d2) < 1e-8 * d2
    d1, d2 = n1, n2
    if done then break end
  end
  return dist.F{ d1 = d1, d2 = d2 }
end
function dist.F.var(self)
  local d1, d2 = self.d1, self.d2
  if d2 <= 4 then return 0 / 0 end
  return 2 * d2 ^ 2 * (d1 + d2 - 2) / (d1 * (d2 - 2) ^ 2 * (d2 - 4))
end

-- ---------------------------------------------------------------- discrete

local function integer_valued(x)
  return x:eq(x:floor())
end

class("Bernoulli", {
  params = { "p" },
  doc = "Bernoulli{p}: 1 with probability p, else 0.",
  init = function(self, p, check) self.p = probability(check, p.p, "p") end,
})
function dist.Bernoulli._logp(self, x)
  local logp = luma.matrix.where(x:eq(1), math.log(self.p), math.log(1 - self.p))
  return outside(logp, x:eq(0):add(x:eq(1)))
end
function dist.Bernoulli._cdf(self, x)
  return luma.matrix.where(x:lt(0), 0, luma.matrix.where(x:lt(1), 1 - self.p, 1))
end
function dist.Bernoulli._sf(self, x)
  return luma.matrix.where(x:lt(0), 1, luma.matrix.where(x:lt(1), self.p, 0))
end
function dist.Bernoulli._ppf(self, q) return q:gt(1 - self.p) end
function dist.Bernoulli._isf(self, q) return q:lt(self.p) end
function dist.Bernoulli._sample(self, n, rng) return rng:uniform(n, 1):lt(self.p) end
function dist.Bernoulli.mean(self) return self.p end
function dist.Bernoulli.var(self) return self.p * (1 - self.p) end
function dist.Bernoulli.entropy(self)
  local p = self.p
  if p == 0 or p == 1 then return 0 end
  return -p * math.log(p) - (1 - p) * math.log(1 - p)
end
function dist.Bernoulli.fit(x)
  x = data_column("Bernoulli.fit", x)
  if not x:eq(0):add(x:eq(1)):all() then fail(2, "Bernoulli.fit: data must be 0 or 1") end
  return dist.Bernoulli{ p = x:mean() }
end

class("Binomial", {
  params = { "n", "p" },
  doc = "Binomial{n, p}: successes in n independent trials of probability p.",
  init = function(self, p, check)
    if math.type(p.n) ~= "integer" or p.n < 0 then check("n must be an integer >= 0, got %s", tostring(p.n)) end
    self.n = p.n
    self.p = probability(check, p.p, "p")
  end,
})
function dist.Binomial._logp(self, x)
  local n, p = self.n, self.p
  local inside = x:ge(0):mul(x:le(n)):mul(integer_valued(x))
  local k = luma.matrix.where(inside, x, 0)
  -- xlogy conventions: 0 log 0 = 0 at p = 0 or 1
  local function xlog(c, prob)
    if prob > 0 then return c * math.log(prob) end
    return luma.matrix.where(c:gt(0), -math.huge, 0)
  end
  return outside(sf.lchoose(n, k) + xlog(k, p) + xlog(k * -1 + n, 1 - p), inside)
end
function dist.Binomial._cdf(self, x)
  local n, p = self.n, self.p
  local k = x:floor()
  -- P(X <= k) = I_{1-p}(n - k, k + 1) for 0 <= k < n
  local inner = k:ge(0):mul(k:lt(n))
  local kk = luma.matrix.where(inner, k, 0)
  local c = sf.betainc((kk * -1 + n), kk + 1, 1 - p)
  return luma.matrix.where(k:lt(0), 0, luma.matrix.where(k:ge(n), 1, c))
end
-- P(X > k) = I_p(k + 1, n - k) for 0 <= k < n
function dist.Binomial._sf(self, x)
  local n = self.n
  local k = x:floor()
  local kk = luma.matrix.where(k:ge(0):mul(k:lt(n)), k, 0)
  local c = sf.betainc(kk + 1, kk * -1 + n, self.p)
  return luma.matrix.where(k:lt(0), 1, luma.matrix.where(k:ge(n), 0, c))
end
function dist.Binomial._ppf(self, q) return discrete_ppf(self, q, 0) end
function dist.Binomial._isf(self, q) return discrete_isf(self, q, 0, self.n) end
function dist.Binomial._sample(self, n, rng) return rng:binomial(self.n, self.p, n, 1) end
function dist.Binomial.mean(self) return self.n * self.p end
function dist.Binomial.var(self) return self.n * self.p * (1 - self.p) end
function dist.Binomial.entropy(self)
  local ks = luma.arange(0, self.n)
  local lp = self:_logp(ks)
  return -(lp:exp():mul(luma.matrix.where(lp:isfinite(), lp, 0))):sum()
end
--- Binomial.fit(x, {n}): p = mean / n for a known number of trials n.
function dist.Binomial.fit(x, opts)
  opts = args.options("Binomial.fit", 2, opts, nil, { n = true }, 2)
  x = data_column("Binomial.fit", x)
  local n = opts and opts.n
  if math.type(n) ~= "integer" or n < 1 then fail(2, "Binomial.fit needs {n = trials}") end
  if x:lt(0):any() or x:gt(n):any() then fail(2, "Binomial.fit: data must be in 0..n") end
  return dist.Binomial{ n = n, p = x:mean() / n }
end

class("Geometric", {
  params = { "p" },
  doc = "Geometric{p}: the number of trials up to and including the first success (1, 2, ...).",
  init = function(self, p, check)
    self.p = probability(check, p.p, "p")
    if self.p == 0 then check("p must be > 0") end
  end,
})
function dist.Geometric._logp(self, x)
  local inside = x:ge(1):mul(integer_valued(x))
  local k = luma.matrix.where(inside, x, 1)
  return outside((k - 1) * log1p(-self.p) + math.log(self.p), inside)
end
-- P(X > k) = (1 - p)^k for k >= 0: log sf = k log(1 - p) (0 log 0 = 0 at p = 1).
function dist.Geometric._logsf(self, x)
  local k = x:floor():maximum(0)
  if self.p == 1 then return luma.matrix.where(k:gt(0), -math.huge, 0) end
  return k * log1p(-self.p)
end
function dist.Geometric._sf(self, x) return self:_logsf(x):exp() end
function dist.Geometric._cdf(self, x) return self:_logsf(x):expm1() * -1 end
-- The smallest k >= 1 with (1 - p)^k <= t, from log t / log(1 - p) and one
-- correction step for its rounding.
local function geometric_count(self, logt)
  if self.p == 1 then return luma.ones(logt:rows(), logt:cols()) end
  local lq = log1p(-self.p)
  local k = (logt / lq):ceil():maximum(1)
  return luma.matrix.where(k:gt(1):mul(((k - 1) * lq):le(logt)), k - 1, k)
end
function dist.Geometric._ppf(self, q) return geometric_count(self, (q * -1):log1p()) end
function dist.Geometric._isf(self, q) return geometric_count(self, q:log()) end
function dist.Geometric._sample(self, n, rng) return self:_ppf(rng:uniform(n, 1)) end
function dist.Geometric.mean(self) return 1 / self.p end
function dist.Geometric.var(self) return (1 - self.p) / self.p ^ 2 end
function dist.Geometric.entropy(self)
  local p = self.p
  if p == 1 then return 0 end
  return (-(1 - p) * math.log(1 - p) - p * math.log(p)) / p
end
function dist.Geometric.fit(x)
  x = data_column("Geometric.fit", x)
  if x:lt(1):any() then fail(2, "Geometric.fit: data must be >= 1") end
  return dist.Geometric{ p = 1 / x:mean() }
end

class("NegativeBinomial", {
  params = { "r", "p" },
  doc = "NegativeBinomial{r, p}: the number k = 0, 1, 2, ... of failures before the r-th "
    .. "success in independent trials that each succeed with probability p (the "
    .. "parameterisation of scipy.stats.nbinom): pmf C(k + r - 1, k) p^r (1 - p)^k, mean "
    .. "r (1 - p) / p, variance r (1 - p) / p^2. A real r > 0 gives the gamma-Poisson "
    .. "mixture (a Poisson count whose rate is Gamma(r, scale (1 - p) / p)), which is how "
    .. "sample draws. Both parameters are required (no defaults).",
  param_docs = {
    r = "number of successes that ends the trials: a real number > 0 (required)",
    p = "probability of success of each trial, in (0, 1] (required)",
  },
  init = function(self, p, check)
    self.r = positive(check, p.r, "r")
    self.p = probability(check, p.p, "p")
    if self.p == 0 then check("p must be > 0") end
  end,
})
function dist.NegativeBinomial._logp(self, x)
  local r, p = self.r, self.p
  local inside = x:ge(0):mul(integer_valued(x))
  local k = luma.matrix.where(inside, x, 0)
  local lc = sf.lgamma(k + r) - sf.lgamma(k + 1) - sf.lgamma(r)
  local tail = p < 1 and k * math.log(1 - p) or luma.matrix.where(k:gt(0), -math.huge, 0)
  return outside(lc + tail + r * math.log(p), inside)
end
function dist.NegativeBinomial._cdf(self, x)
  local k = x:floor()
  local kk = k:maximum(0)
  return luma.matrix.where(k:lt(0), 0, sf.betainc(self.r, kk + 1, self.p))
end
-- P(X > k) = I_{1-p}(k + 1, r)
function dist.NegativeBinomial._sf(self, x)
  local k = x:floor()
  return luma.matrix.where(k:lt(0), 1, sf.betainc(k:maximum(0) + 1, self.r, 1 - self.p))
end
function dist.NegativeBinomial._ppf(self, q) return discrete_ppf(self, q, 0) end
function dist.NegativeBinomial._isf(self, q) return discrete_isf(self, q, 0) end
function dist.NegativeBinomial._sample(self, n, rng)
  -- a Poisson count whose rate is Gamma(r, scale (1 - p) / p)
  local out = luma.zeros(n, 1)
  local lam = rng:gamma(self.r, n, 1) * ((1 - self.p) / self.p)
  for i = 1, n do out:set(i, 1, rng:poisson(lam:get(i, 1))) end
  return out
end
function dist.NegativeBinomial.mean(self) return self.r * (1 - self.p) / self.p end
function dist.NegativeBinomial.var(self) return self.r * (1 - self.p) / self.p ^ 2 end
--- NegativeBinomial.fit(x [, {r}]): p = r / (r + mean) for a known r;
-- without r, r by Newton on its profile score (p tied to r as above).
function dist.NegativeBinomial.fit(x, opts)
  opts = args.options("NegativeBinomial.fit", 2, opts, nil, { r = true }, 2)
  x = data_column("NegativeBinomial.fit", x)
  if x:lt(0):any() then fail(2, "NegativeBinomial.fit: data must be >= 0") end
  local m = x:mean()
  local r = opts and opts.r
  if not r then
    local v = x:var()
    if v <= m then fail(2, "NegativeBinomial.fit: the data are not over-dispersed (var <= mean)") end
    r = m * m / (v - m)
    local n = x:rows()
    for _ = 1, 200 do -- d/dr of the profile log-likelihood and its derivative
      local g = sf.digamma(x + r):sum() - n * sf.digamma(r) + n * math.log(r / (r + m))
      local h = sf.trigamma(x + r):sum() - n * sf.trigamma(r) + n * (1 / r - 1 / (r + m))
      local step = g / h
      r = math.max(r - step, r / 2)
      if math.abs(step) < 1e-12 * r then break end
    end
  end
  return dist.NegativeBinomial{ r = r, p = r / (r + m) }
end

class("Poisson", {
  params = { "lambda" },
  doc = "Poisson{lambda}: counts with mean lambda.",
  init = function(self, p, check)
    if type(p.lambda) ~= "number" or not (p.lambda >= 0) or p.lambda == math.huge then
      check("lambda must be a finite number >= 0, got %s", tostring(p.lambda))
    end
    self.lambda = p.lambda
  end,
})
function dist.Poisson._logp(self, x)
  local lam = self.lambda
  local inside = x:ge(0):mul(integer_valued(x))
  local k = luma.matrix.where(inside, x, 0)
  local term = lam > 0 and k * math.log(lam) or luma.matrix.where(k:gt(0), -math.huge, 0)
  return outside(term - sf.lgamma(k + 1) - lam, inside)
end
function dist.Poisson._cdf(self, x)
  local k = x:floor()
  if self.lambda == 0 then return k:ge(0) end
  return luma.matrix.where(k:lt(0), 0, sf.gammaincc(k:maximum(0) + 1, self.lambda))
end
-- P(X > k) = P(k + 1, lambda), the lower regularized incomplete gamma
function dist.Poisson._sf(self, x)
  local k = x:floor()
  if self.lambda == 0 then return k:lt(0) end
  return luma.matrix.where(k:lt(0), 1, sf.gammainc(k:maximum(0) + 1, self.lambda))
end
function dist.Poisson._ppf(self, q) return discrete_ppf(self, q, 0) end
function dist.Poisson._isf(self, q) return discrete_isf(self, q, 0) end
function dist.Poisson._sample(self, n, rng) return rng:poisson(self.lambda, n, 1) end
function dist.Poisson.mean(self) return self.lambda end
function dist.Poisson.var(self) return self.lambda end
function dist.Poisson.entropy(self)
  if self.lambda == 0 then return 0 end
  local hi = math.ceil(self.lambda + 20 * math.sqrt(self.lambda) + 20)
  local lp = self:_logp(luma.arange(0, hi))
  return -(lp:exp():mul(lp)):sum()
end
function dist.Poisson.fit(x)
  x = data_column("Poisson.fit", x)
  if x:lt(0):any() then fail(2, "Poisson.fit: data must be >= 0") end
  return dist.Poisson{ lambda = x:mean() }
end

-- Probability vectors: non-negative, summing to 1 within 1e-8.
local function probability_vector(check, p, what)
  local v = luma.ismatrix(p) and p:flatten() or (type(p) == "table" and luma.matrix(p))
  if not v or v:rows() == 0 then check("%s must be a non-empty vector of probabilities", what) end
  if v:lt(0):any() or not v:isfinite():all() then check("%s has a negative or non-finite entry", what) end
  if math.abs(v:sum() - 1) > 1e-8 then check("%s sums to %s, not 1", what, tostring(v:sum())) end
  return v
end

class("Categorical", {
  params = { "p" },
  doc = "Categorical{p}: the outcome k in 1..K with probability p[k].",
  init = function(self, p, check) self.p = probability_vector(check, p.p, "p") end,
})
function dist.Categorical._logp(self, x)
  local K = self.p:rows()
  local inside = x:ge(1):mul(x:le(K)):mul(integer_valued(x))
  local idx = luma.matrix.where(inside, x, 1)
  local logp = self.p:log():take(idx:flatten()):reshape(x:rows(), x:cols())
  return outside(logp, inside)
end
function dist.Categorical._cdf(self, x)
  local cum = self.p:cumsum()
  return x:map(function(v)
    local k = math.floor(v)
    if k < 1 then return 0 end
    if k >= cum:rows() then return 1 end
    return cum:get(k, 1)
  end)
end
-- P(X > k) for k = 1..K: sums of the probabilities above k (not 1 - cumsum).
local function categorical_above(self)
  local above, acc = {}, 0
  for k = self.p:rows(), 1, -1 do above[k] = acc; acc = acc + self.p:get(k, 1) end
  return above
end
function dist.Categorical._sf(self, x)
  local above, K = categorical_above(self), self.p:rows()
  return x:map(function(v)
    local k = math.floor(v)
    if k < 1 then return 1 end
    if k >= K then return 0 end
    return above[k]
  end)
end
function dist.Categorical._isf(self, q)
  local above, K = categorical_above(self), self.p:rows()
  return q:map(function(t)
    for k = 1, K do if above[k] <= t then return k end end
    return K
  end)
end
function dist.Categorical._ppf(self, q)
  local cum = self.p:cumsum()
  return q:map(function(v)
    for k = 1, cum:rows() do if cum:get(k, 1) >= v then return k end end
    return cum:rows()
  end)
end
function dist.Categorical._sample(self, n, rng) return rng:choice(self.p:rows(), n, { p = self.p }) end
function dist.Categorical.mean(self) return (self.p:t() * luma.arange(self.p:rows())):get(1, 1) end
function dist.Categorical.var(self)
  local k = luma.arange(self.p:rows())
  return (self.p:t() * k:pow(2)):get(1, 1) - self:mean() ^ 2
end
function dist.Categorical.entropy(self)
  local p = self.p:select(self.p:gt(0))
  return -(p:mul(p:log())):sum()
end
--- Categorical.fit(x [, {k}]): frequencies of the labels 1..k.
function dist.Categorical.fit(x, opts)
  opts = args.options("Categorical.fit", 2, opts, nil, { k = true }, 2)
  x = data_column("Categorical.fit", x)
  local k = (opts and opts.k) or math.tointeger(x:max())
  if not k or x:lt(1):any() or x:gt(k):any() or not integer_valued(x):all() then
    fail(2, "Categorical.fit: data must be integer labels in 1..k")
  end
  local counts = luma.zeros(k, 1)
  for i = 1, x:rows() do local v = x:get(i, 1); counts:set(v, 1, counts:get(v, 1) + 1) end
  return dist.Categorical{ p = counts / x:rows() }
end

-- ------------------------------------------------------------ multivariate

-- A d x 1 mean from a vector or a table.
local function mean_vector(check, mu, what)
  local v = luma.ismatrix(mu) and mu:flatten() or (type(mu) == "table" and luma.matrix(mu))
  if not v or v:rows() == 0 or not v:isfinite():all() then check("%s must be a finite vector", what) end
  return v
end

-- Multivariate classes share the constructor machinery; they take one
-- point per row and return one value per row.
local function mv_class(name, spec)
  local cls = class(name, spec)
  function cls.pdf(self, X) return self:logpdf(X):exp() end
  function cls.logpdf(self, X)
    if not luma.ismatrix(X) or X:cols() ~= self.d then
      fail(2, "%s.logpdf: points must be rows of %d columns", name, self.d)
    end
    return self:_logp(X)
  end
  cls.cdf, cls.ppf, cls.sf, cls.logcdf, cls.logsf, cls.isf = nil, nil, nil, nil, nil, nil
  return cls
end

mv_class("MultivariateNormal", {
  params = { "mean", "cov" },
  doc = "MultivariateNormal{mean, cov}: the Gaussian in d dimensions; logpdf through the "
    .. "Cholesky factor of cov (which must be symmetric positive definite).",
  init = function(self, p, check)
    self.mean = mean_vector(check, p.mean, "mean")
    self.d = self.mean:rows()
    local S = p.cov or luma.eye(self.d)
    if not luma.ismatrix(S) or S:rows() ~= self.d or S:cols() ~= self.d then
      check("cov must be a %d x %d matrix", self.d, self.d)
    end
    local ok, L = pcall(luma.linalg.cholesky, S)
    if not ok then check("cov is not symmetric positive definite (%s)", tostring(L)) end
    self.cov, self.chol = S:copy(), L
    self.log_det = 2 * L:diag():log():sum()
    -- (x - mu) L^-T whitens a row: one matrix product per batch of points
    self.whiten = luma.linalg.solve_triangular(L, luma.eye(self.d)):t():copy()
    self.mean_white = self.mean:t() * self.whiten
    self.ones = luma.ones(self.d, 1) -- row sums as one matrix-vector product
  end,
})
-- The rows go through in blocks of about 2^15 elements: each block is
-- whitened into a buffer that stays in cache, centred, squared and summed
-- there, so X is read once and no n x d matrix is written (1e5 x 10 took
-- 5.0 ms with whole-matrix passes, 3.0 ms so).
local MVN_BLOCK_ELEMENTS = 32768
function dist.MultivariateNormal._logp(self, X)
  local n, d = X:rows(), self.d
  local block = math.max(1, math.min(n, MVN_BLOCK_ELEMENTS // d))
  local out, buffer = luma.zeros(n, 1), luma.zeros(block, d)
  for first = 1, n, block do
    local last = math.min(first + block - 1, n)
    local Z = last - first + 1 == block and buffer or buffer:sub(1, last - first + 1)
    X:sub(first, last):matmul(self.whiten, Z)
    Z:subtract(self.mean_white, Z)
    Z:mul(Z, Z)
    Z:matmul(self.ones, out:sub(first, last))
  end
  out:mul(-0.5, out)
  return out:subtract(0.5 * (d * LOG_2PI + self.log_det), out)
end
function dist.MultivariateNormal._sample(self, n, rng)
  return rng:normal(n, self.d) * self.chol:t() + self.mean:t()
end
function dist.MultivariateNormal.mean_vector(self) return self.mean:copy() end
function dist.MultivariateNormal.var(self) return self.cov:copy() end
function dist.MultivariateNormal.entropy(self)
  return 0.5 * (self.d * (1 + LOG_2PI) + self.log_det)
end
--- mvn:marginal(indices): the distribution of the listed coordinates.
function dist.MultivariateNormal.marginal(self, idx)
  return dist.MultivariateNormal{ mean = self.mean:take(idx), cov = self.cov:take(idx):take(idx, 2) }
end
--- mvn:conditional(given, values): the distribution of the other
-- coordinates given x[given] = values (notes 001 §E):
-- mu_a + S_ab S_bb^-1 (v - mu_b), S_aa - S_ab S_bb^-1 S_ba.
function dist.MultivariateNormal.conditional(self, given, values)
  if type(given) ~= "table" then
    fail(2, "bad argument #1 to 'conditional' (a list of coordinates expected, got %s)",
      type(given))
  end
  local in_given, rest = {}, {}
  for k, i in ipairs(given) do
    if math.type(i) ~= "integer" or i < 1 or i > self.d then
      fail(2, "bad argument #1 to 'conditional' (entry %d is not a coordinate 1..%d)", k, self.d)
    end
    in_given[i] = true
  end
  for i = 1, self.d do if not in_given[i] then rest[#rest + 1] = i end end
  if #rest == 0 then fail(2, "conditional: nothing is left to condition") end
  local v = luma.ismatrix(values) and values:flatten() or luma.matrix(values)
  if v:rows() ~= #given then fail(2, "conditional: %d values for %d given coordinates", v:rows(), #given) end
  local S = self.cov
  local Sab, Sbb = S:take(rest):take(given, 2), S:take(given):take(given, 2)
  local K = luma.linalg.solve(Sbb, Sab:t(), { assume = "spd" }):t() -- S_ab S_bb^-1
  local mu = self.mean:take(rest) + K * (v - self.mean:take(given))
  local cov = S:take(rest):take(rest, 2) - K * Sab:t()
  return dist.MultivariateNormal{ mean = mu, cov = (cov + cov:t()) / 2 }
end
function dist.MultivariateNormal.fit(X)
  if not luma.ismatrix(X) or X:rows() < 2 then fail(2, "MultivariateNormal.fit: needs at least 2 rows") end
  local mu = X:mean(1)
  local C = X - mu
  return dist.MultivariateNormal{ mean = mu:t(), cov = (C:t() * C) / X:rows() }
end

mv_class("Dirichlet", {
  params = { "alpha" },
  doc = "Dirichlet{alpha}: a distribution over probability vectors (rows summing to 1).",
  init = function(self, p, check)
    self.alpha = mean_vector(check, p.alpha, "alpha")
    if self.alpha:le(0):any() then check("alpha must be > 0") end
    self.d = self.alpha:rows()
  end,
})
function dist.Dirichlet._logp(self, X)
  local a = self.alpha
  local inside = X:gt(0):all(2):mul((X:sum(2) - 1):abs():le(1e-10))
  local norm = sf.lgamma(a:sum()) - sf.lgamma(a):sum()
  local logp = luma.matrix.where(X:gt(0), X, 1):log() * (a - 1) + norm
  return outside(logp, inside)
end
function dist.Dirichlet._sample(self, n, rng)
  local G = luma.zeros(n, self.d)
  for j = 1, self.d do G:col(j):assign(rng:gamma(self.alpha:get(j, 1), n, 1)) end
  return G:div(G:sum(2))
end
function dist.Dirichlet.mean_vector(self) return self.alpha / self.alpha:sum() end
function dist.Dirichlet.entropy(self)
  local a, a0, k = self.alpha, self.alpha:sum(), self.d
  return sf.lgamma(a):sum() - sf.lgamma(a0) + (a0 - k) * sf.digamma(a0)
    - ((a - 1):mul(sf.digamma(a))):sum()
end
--- Dirichlet.fit(P): maximum likelihood by Minka's fixed point
-- psi(alpha_k) = psi(sum alpha) + mean log p_k, inverted by Newton.
function dist.Dirichlet.fit(P)
  if not luma.ismatrix(P) or P:rows() < 2 or P:le(0):any() then
    fail(2, "Dirichlet.fit: needs at least 2 rows of positive probability vectors")
  end
  local logp = P:log():mean(1):t()
  local m, v = P:mean(1):t(), P:var(1):t()
  local s = (m:get(1, 1) * (1 - m:get(1, 1)) / v:get(1, 1)) - 1
  local a = m * math.max(s, 1e-3)
  local function inv_digamma(y) -- Newton from Minka's start
    local x = y >= -2.22 and math.exp(y) + 0.5 or -1 / (y + 0.5772156649015329)
    for _ = 1, 50 do x = x - (sf.digamma(x) - y) / sf.trigamma(x) end
    return x
  end
  for _ = 1, 1000 do
    local target = logp + sf.digamma(a:sum())
    local new = target:map(inv_digamma)
    local done = (new - a):abs():max() < 1e-12 * a:max()
    a = new
    if done then break end
  end
  return dist.Dirichlet{ alpha = a }
end

mv_class("Multinomial", {
  params = { "n", "p" },
  doc = "Multinomial{n, p}: counts of n draws from Categorical{p}, one count vector per row.",
  init = function(self, p, check)
    if math.type(p.n) ~= "integer" or p.n < 0 then check("n must be an integer >= 0") end
    self.n = p.n
    self.p = probability_vector(check, p.p, "p")
    self.d = self.p:rows()
  end,
})
function dist.Multinomial._logp(self, X)
  local inside = X:ge(0):all(2):mul(X:sum(2):eq(self.n)):mul(integer_valued(X):all(2))
  local Xs = luma.matrix.where(X:ge(0), X, 0)
  local logp = Xs * luma.matrix.where(self.p:gt(0), self.p, 1):log() - sf.lgamma(Xs + 1):sum(2)
    + sf.lgamma(self.n + 1)
  -- a positive count of a zero-probability outcome is impossible
  local impossible = Xs:gt(0):mul(self.p:eq(0):t()):any(2)
  return outside(logp, inside:mul(impossible:eq(0)))
end
function dist.Multinomial._sample(self, n, rng)
  local out = luma.zeros(n, self.d)
  for i = 1, n do -- sequential binomials
    local left, mass = self.n, 1
    for k = 1, self.d - 1 do
      local pk = self.p:get(k, 1)
      local c = left > 0 and mass > 0 and rng:binomial(left, math.min(1, pk / mass)) or 0
      out:set(i, k, c)
      left, mass = left - c, mass - pk
    end
    out:set(i, self.d, left)
  end
  return out
end
function dist.Multinomial.mean_vector(self) return self.p * self.n end
--- entropy by summing over every count vector (C(n + d - 1, d - 1) of
-- them; an error past a million).
function dist.Multinomial.entropy(self)
  local n, D = self.n, self.d
  local count = math.exp(sf.lchoose(n + D - 1, D - 1))
  if count > 1e6 then fail(2, "Multinomial.entropy: %.0f count vectors are too many to sum", count) end
  local logp = self.p:log()
  local lgn = sf.lgamma(n + 1)
  local h = 0
  local x = {}
  local function walk(k, left, acc)
    if k == D then
      x[D] = left
      local lp = acc - sf.lgamma(left + 1) + (left > 0 and left * logp:get(D, 1) or 0)
      if lp > -math.huge then h = h - math.exp(lp) * lp end
      return
    end
    for c = 0, left do
      local term = c > 0 and c * logp:get(k, 1) or 0
      walk(k + 1, left - c, acc - sf.lgamma(c + 1) + term)
    end
  end
  walk(1, n, lgn)
  return h
end
--- Multinomial.fit(counts): p = column totals / all draws (every row must
-- have the same number of draws n).
function dist.Multinomial.fit(C)
  if not luma.ismatrix(C) or C:rows() < 1 then fail(2, "Multinomial.fit: needs rows of counts") end
  local n = C:row(1):sum()
  if not C:sum(2):eq(n):all() or C:lt(0):any() then
    fail(2, "Multinomial.fit: every row must hold non-negative counts of the same total")
  end
  return dist.Multinomial{ n = math.tointeger(n), p = (C:sum(1) / C:sum()):t() }
end

mv_class("MultivariateStudentT", {
  params = { "df", "loc", "shape" },
  doc = "MultivariateStudentT{df, loc, shape}: the multivariate t (Bishop, sec. 2.3.7) with "
    .. "location loc and shape matrix (covariance shape df / (df - 2) for df > 2).",
  init = function(self, p, check)
    self.df = positive(check, p.df, "df")
    self.loc = mean_vector(check, p.loc, "loc")
    self.d = self.loc:rows()
    local S = p.shape or luma.eye(self.d)
    if not luma.ismatrix(S) or S:rows() ~= self.d or S:cols() ~= self.d then
      check("shape must be a %d x %d matrix", self.d, self.d)
    end
    local ok, L = pcall(luma.linalg.cholesky, S)
    if not ok then check("shape is not symmetric positive definite (%s)", tostring(L)) end
    self.shape, self.chol = S:copy(), L
    self.whiten = luma.linalg.solve_triangular(L, luma.eye(self.d)):t():copy()
    self.log_det = 2 * L:diag():log():sum()
  end,
})
function dist.MultivariateStudentT._logp(self, X)
  local v, D = self.df, self.d
  local Z = (X - self.loc:t()) * self.whiten
  local maha = Z:pow(2):sum(2)
  return (maha / v):log1p() * (-(v + D) / 2)
    + (sf.lgamma((v + D) / 2) - sf.lgamma(v / 2) - D / 2 * math.log(v * math.pi) - 0.5 * self.log_det)
end
function dist.MultivariateStudentT._sample(self, n, rng)
  local z = rng:normal(n, self.d) * self.chol:t()
  local g = (rng:gamma(self.df / 2, n, 1) * (2 / self.df)):sqrt()
  return z:div(g) + self.loc:t()
end
function dist.MultivariateStudentT.mean_vector(self) return self.loc:copy() end
function dist.MultivariateStudentT.entropy(self)
  local v, D = self.df, self.d
  return 0.5 * self.log_det + D / 2 * math.log(v * math.pi) + sf.lgamma(v / 2) - sf.lgamma((v + D) / 2)
    + (v + D) / 2 * (sf.digamma((v + D) / 2) - sf.digamma(v / 2))
end
--- MultivariateStudentT.fit(X [, {df = 5}]): loc and shape by EM with df
-- fixed; the E-step weight of a row is (df + D) / (df + maha) (notes 000
-- §12.2.3, whose "(df + 1) / 2" shape is the erratum for D > 1).
function dist.MultivariateStudentT.fit(X, opts)
  opts = args.options("MultivariateStudentT.fit", 2, opts, nil, { df = true }, 2)
  if not luma.ismatrix(X) or X:rows() < 2 then fail(2, "MultivariateStudentT.fit: needs at least 2 rows") end
  local v = (opts and opts.df) or 5
  local D = X:cols()
  local g = dist.MultivariateNormal.fit(X)
  local loc, S = g.mean, g.cov
  for _ = 1, 500 do
    local t = dist.MultivariateStudentT{ df = v, loc = loc, shape = S }
    local Z = (X - loc:t()) * t.whiten
    local w = (Z:pow(2):sum(2) + v):pow(-1) * (v + D)
    local new_loc = (X:t() * w) / w:sum()
    local C = (X - new_loc:t()):mul(w:sqrt())
    local new_S = (C:t() * C) / X:rows()
    local done = (new_loc - loc):abs():max() < 1e-10 * (1 + loc:abs():max())
      and (new_S - S):abs():max() < 1e-10 * S:abs():max()
    loc, S = new_loc, (new_S + new_S:t()) / 2
    if done then break end
  end
  return dist.MultivariateStudentT{ df = v, loc = loc, shape = S }
end
function dist.MultivariateStudentT.var(self)
  if self.df <= 2 then return luma.full(self.d, self.d, math.huge) end
  return self.shape * (self.df / (self.df - 2))
end

-- Densities over single symmetric positive definite matrices.
local function check_spd_point(name, W, D)
  if not luma.ismatrix(W) or W:rows() ~= D or W:cols() ~= D then
    fail(3, "%s.logpdf: the point must be a %d x %d matrix", name, D, D)
  end
  local ok, L = pcall(luma.linalg.cholesky, W)
  return ok and L or nil
end

local function spd_param(check, S, D, what)
  if not luma.ismatrix(S) or S:rows() ~= S:cols() then check("%s must be a square matrix", what) end
  local ok, L = pcall(luma.linalg.cholesky, S)
  if not ok then check("%s is not symmetric positive definite", what) end
  return S:copy(), L
end

local function wishart_draw(df, L, rng)
  -- Bartlett: W = L A A' L' with A lower triangular, A_ii^2 ~ chi2(df - i + 1)
  local D = L:rows()
  local A = luma.zeros(D, D)
  for i = 1, D do
    A:set(i, i, math.sqrt(2 * rng:gamma((df - i + 1) / 2)))
    for j = 1, i - 1 do A:set(i, j, rng:normal()) end
  end
  local LA = L * A
  return LA * LA:t()
end

-- Shared by Wishart and InverseWishart: an SPD scale and df > D - 1.
local function wishart_init(self, p, check)
  self.scale, self.chol = spd_param(check, p.scale, nil, "scale")
  self.d = self.scale:rows()
  self.df = positive(check, p.df, "df")
  if not (self.df > self.d - 1) then check("df must be > %d (D - 1), got %s", self.d - 1, tostring(self.df)) end
  self.log_det = 2 * self.chol:diag():log():sum()
end

-- The maximum-likelihood df of a list of matrices for a family whose
-- scale is known given df (scale_for(df)): a golden-section search of the
-- profile likelihood over log(df - (D - 1)).
local function fit_df(cls, list, scale_for)
  local D = list[1]:rows()
  local function ll(v)
    local w = cls{ df = v, scale = scale_for(v) }
    local total = 0
    for _, X in ipairs(list) do total = total + w:logpdf(X) end
    return total
  end
  local v = D - 1 + math.exp(golden_max(function(t) return ll(D - 1 + math.exp(t)) end,
    math.log(1e-3), math.log(1e6)))
  return cls{ df = v, scale = scale_for(v) }
end

class("Wishart", {
  params = { "df", "scale" },
  doc = "Wishart{df, scale}: distribution of sums of df outer products of N(0, scale) "
    .. "vectors (df > D - 1); logpdf takes one D x D matrix; sample(n) returns a list.",
  init = function(self, p, check) wishart_init(self, p, check) end,
})
function dist.Wishart.logpdf(self, W)
  local D, v = self.d, self.df
  local LW = check_spd_point("Wishart", W, D)
  if not LW then return -math.huge end
  local log_det_w = 2 * LW:diag():log():sum()
  local tr = luma.linalg.solve(self.scale, W, { assume = "spd" }):trace()
  return (v - D - 1) / 2 * log_det_w - tr / 2 - v * D / 2 * math.log(2) - v / 2 * self.log_det
    - sf.mvlgamma(v / 2, D)
end
function dist.Wishart.pdf(self, W) return math.exp(self:logpdf(W)) end
dist.Wishart.cdf, dist.Wishart.ppf, dist.Wishart.sf, dist.Wishart.isf = nil, nil, nil, nil
dist.Wishart.logcdf, dist.Wishart.logsf = nil, nil
function dist.Wishart.sample(self, n, rng)
  rng = default_rng(rng)
  local out = {}
  for i = 1, n do out[i] = wishart_draw(self.df, self.chol, rng) end
  return out
end
function dist.Wishart.mean(self) return self.scale * self.df end
-- psi_D(a) = sum_{i=1}^{D} psi(a + (1 - i) / 2), the multivariate digamma.
local function mvdigamma(a, D)
  local s = 0
  for i = 1, D do s = s + sf.digamma(a + (1 - i) / 2) end
  return s
end

function dist.Wishart.entropy(self)
  local v, D = self.df, self.d
  local e_logdet = mvdigamma(v / 2, D) + D * math.log(2) + self.log_det
  return -(v - D - 1) / 2 * e_logdet + v * D / 2 + v * D / 2 * math.log(2) + v / 2 * self.log_det
    + sf.mvlgamma(v / 2, D)
end
-- The data of Wishart.fit and InverseWishart.fit: a list of at least 2
-- square matrices of one size (errors blame the caller of fit).
local function check_matrix_list(fname, list)
  if type(list) ~= "table" or #list < 2 then
    fail(3, "%s: needs a list of at least 2 matrices", fname)
  end
  for i, W in ipairs(list) do
    if not luma.ismatrix(W) or not luma.ismatrix(list[1]) or W:rows() ~= list[1]:rows()
      or W:cols() ~= W:rows() then
      fail(3, "%s: entry %d of the list is not a square matrix like entry 1", fname, i)
    end
  end
end

--- Wishart.fit(list of matrices): df by a golden-section search of the
-- profile likelihood, scale = mean / df.
function dist.Wishart.fit(list)
  check_matrix_list("Wishart.fit", list)
  local mean = luma.zeros(list[1]:rows(), list[1]:cols())
  for _, W in ipairs(list) do mean = mean + W end
  mean = mean / #list
  return fit_df(dist.Wishart, list, function(v) return mean / v end)
end

class("InverseWishart", {
  params = { "df", "scale" },
  doc = "InverseWishart{df, scale}: the distribution of W^-1 for W ~ Wishart(df, scale^-1) "
    .. "(the conjugate prior of a Gaussian covariance); logpdf takes one D x D matrix.",
  init = function(self, p, check)
    wishart_init(self, p, check)
    self.inv_chol = luma.linalg.cholesky(luma.linalg.inv(self.scale))
  end,
})
function dist.InverseWishart.logpdf(self, X)
  local D, v = self.d, self.df
  local LX = check_spd_point("InverseWishart", X, D)
  if not LX then return -math.huge end
  local log_det_x = 2 * LX:diag():log():sum()
  local tr = luma.linalg.solve(X, self.scale, { assume = "spd" }):trace()
  return v / 2 * self.log_det - v * D / 2 * math.log(2) - sf.mvlgamma(v / 2, D)
    - (v + D + 1) / 2 * log_det_x - tr / 2
end
function dist.InverseWishart.pdf(self, X) return math.exp(self:logpdf(X)) end
dist.InverseWishart.cdf, dist.InverseWishart.ppf, dist.InverseWishart.sf = nil, nil, nil
dist.InverseWishart.isf, dist.InverseWishart.logcdf, dist.InverseWishart.logsf = nil, nil, nil
function dist.InverseWishart.sample(self, n, rng)
  rng = default_rng(rng)
  local out = {}
  for i = 1, n do out[i] = luma.linalg.inv(wishart_draw(self.df, self.inv_chol, rng)) end
  return out
end
function dist.InverseWishart.entropy(self)
  local v, D = self.df, self.d
  local e_logdet = self.log_det - D * math.log(2) - mvdigamma(v / 2, D)
  return -v / 2 * self.log_det + v * D / 2 * math.log(2) + sf.mvlgamma(v / 2, D)
    + (v + D + 1) / 2 * e_logdet + v * D / 2
end
--- InverseWishart.fit(list of matrices): df by a golden-section search of
-- the profile likelihood, scale = df (mean of the inverses)^-1.
function dist.InverseWishart.fit(list)
  check_matrix_list("InverseWishart.fit", list)
  local D = list[1]:rows()
  local inv_mean = luma.zeros(D, D)
  for _, X in ipairs(list) do inv_mean = inv_mean + luma.linalg.inv(X) end
  local base = luma.linalg.inv(inv_mean / #list)
  return fit_df(dist.InverseWishart, list, function(v) return base * v end)
end
function dist.InverseWishart.mean(self)
  if self.df <= self.d + 1 then return luma.full(self.d, self.d, math.huge) end
  return self.scale / (self.df - self.d - 1)
end

local Mixture = mv_class("Mixture", {
  params = { "components", "weights" },
  doc = "Mixture{components = {d1, d2, ...}, weights}: a finite mixture; density the weighted "
    .. "sum of the components', sampling ancestral (a component, then a point from it).",
  init = function(self, p, check)
    if type(p.components) ~= "table" or #p.components == 0 then check("components must be a non-empty list") end
    self.components = p.components
    local k = #p.components
    self.weights = probability_vector(check, p.weights or luma.full(k, 1, 1 / k), "weights")
    if self.weights:rows() ~= k then check("%d weights for %d components", self.weights:rows(), k) end
    self.d = p.components[1].d or 1
  end,
})
function Mixture._logp(self, X)
  local parts = {}
  for k, c in ipairs(self.components) do
    parts[k] = c:logpdf(X):reshape(X:rows() * (self.d == 1 and X:cols() or 1), 1)
      + math.log(self.weights:get(k, 1))
  end
  return luma.hstack(parts):logsumexp(2)
end
function Mixture.logpdf(self, X)
  if type(X) == "number" then return self:_logp(luma.matrix{ X }):get(1, 1) end
  local r = self:_logp(X)
  if self.d == 1 and X:cols() > 1 then return r:reshape(X:rows(), X:cols()) end
  return r
end
function Mixture.pdf(self, X)
  local r = self:logpdf(X)
  return type(r) == "number" and math.exp(r) or r:exp()
end
function Mixture._sample(self, n, rng)
  local which = rng:choice(#self.components, n, { p = self.weights })
  local out = luma.zeros(n, self.d)
  for i = 1, n do
    out:row(i):assign(self.components[which:get(i, 1)]:sample(1, rng):reshape(1, self.d))
  end
  return out
end

-- Help records of the methods, for every class: one text per method name
-- ("%s" is the class's name), and the fit options some classes take.
local METHOD_DOCS = {
  pdf = { "d:pdf(x)", "The density at x: a number, or a matrix of points (one per entry, "
    .. "one per row for multivariate distributions). Returns a number or a matrix of "
    .. "densities." },
  logpdf = { "d:logpdf(x)", "The log-density at x (-inf outside the support). Returns a "
    .. "number or a matrix, as pdf." },
  pmf = { "d:pmf(k)", "The probability mass at k (a number or a matrix of values). Returns a "
    .. "number or a matrix of the shape of k." },
  logpmf = { "d:logpmf(k)", "The log of the probability mass at k. Returns a number or a "
    .. "matrix, as pmf." },
  cdf = { "d:cdf(x)", "The cumulative distribution function P(X <= x). Returns a number or "
    .. "a matrix of the shape of x." },
  ppf = { "d:ppf(q)", "The quantile function (inverse cdf) at probabilities q in [0, 1]. "
    .. "Returns a number or a matrix of the shape of q." },
  sf = { "d:sf(x)", "The survival function P(X > x) = 1 - cdf(x), computed directly (from "
    .. "erfc, the upper incomplete gamma, the incomplete beta with swapped arguments or a "
    .. "closed form) so that a far upper tail keeps its relative accuracy instead of "
    .. "rounding to 0. Returns a number or a matrix of the shape of x.",
    { { name = "x", doc = "a number or a matrix of points" } } },
  logcdf = { "d:logcdf(x)", "log P(X <= x), accurate in both tails: -inf outside the "
    .. "support, log1p(-sf) where the cdf is near 1 and, for the Normal, an asymptotic "
    .. "expansion where the cdf underflows (Abramowitz and Stegun 26.2.12). Returns a number "
    .. "or a matrix of the shape of x.", { { name = "x", doc = "a number or a matrix of points" } } },
  logsf = { "d:logsf(x)", "log P(X > x), accurate in both tails as logcdf. Returns a number "
    .. "or a matrix of the shape of x.", { { name = "x", doc = "a number or a matrix of points" } } },
  isf = { "d:isf(q)", "The inverse survival function: the x with sf(x) = q, i.e. ppf(1 - q) "
    .. "computed without forming 1 - q, so a tiny q such as 1e-300 keeps its accuracy; for discrete "
    .. "distributions the smallest k with sf(k) <= q. Returns a number or a matrix of the "
    .. "shape of q.", { { name = "q", doc = "probabilities in [0, 1] (a number or a matrix)" } } },
  sample = { "d:sample(n [, rng = luma.random.default()])", "Draws n independent samples "
    .. "with rng. Returns an n x 1 matrix (n x d for multivariate distributions; a list of "
    .. "n matrices for Wishart and InverseWishart)." },
  mean = { "d:mean()", "The mean of the distribution. Returns a number (a matrix for "
    .. "matrix-valued distributions; nan where it does not exist)." },
  var = { "d:var()", "The variance (the covariance matrix for multivariate "
    .. "distributions). Returns a number or a matrix (nan where it does not exist)." },
  entropy = { "d:entropy()", "The differential (or Shannon, for discrete ones) entropy in "
    .. "nats. Returns a number." },
  mean_vector = { "d:mean_vector()", "The mean as a column. Returns a new d x 1 matrix." },
  fit = { "%s.fit(x)", "The maximum-likelihood fit to data x (an n x 1 matrix; one point "
    .. "per row for multivariate distributions, a list of matrices for Wishart kinds; "
    .. "variances divide by n). Returns a new %s." },
}
-- The exponential-family form of the families that have one (notes 002
-- X1-X3): natural parameters, log-partition, sufficient statistics, and
-- maximum likelihood by moment matching (luma.stats.natural).
local natural = require("luma.stats.natural")
natural.install(dist)
for m, text in pairs(natural.METHOD_DOCS) do METHOD_DOCS[m] = text end

local FIT_OPTIONS = {
  StudentT = { { name = "df", default = 5, doc = "degrees of freedom, held fixed" } },
  MultivariateStudentT = { { name = "df", default = 5, doc = "degrees of freedom, held fixed" } },
  Binomial = { { name = "n", doc = "the known number of trials (required)" } },
  NegativeBinomial = { { name = "r", doc = "the known number of successes; estimated "
    .. "when nil" } },
  Categorical = { { name = "k", doc = "the number of categories; the largest label "
    .. "when nil" } },
}

-- Discrete distributions document their mass functions; continuous ones
-- their densities.  pmf/logpmf and pdf/logpdf are the same functions
-- (re-aliased here, after the multivariate and matrix-valued classes
-- replaced pdf), and help records are keyed by function: only one of
-- the two names gets a record.
local DISCRETE = { Bernoulli = true, Binomial = true, Geometric = true, NegativeBinomial = true,
  Poisson = true, Categorical = true, Multinomial = true }
for name, cls in pairs(dist) do
  cls.pmf, cls.logpmf = cls.pdf, cls.logpdf
  local skip = DISCRETE[name] and { pdf = true, logpdf = true } or { pmf = true, logpmf = true }
  local records = {}
  for m, text in pairs(METHOD_DOCS) do
    if not skip[m] and type(rawget(cls, m)) == "function" then
      records[m] = { signature = text[1]:format(name), doc = text[2]:format(name), params = text[3] }
    end
  end
  if FIT_OPTIONS[name] then
    records.fit.signature = name .. ".fit(x [, opts])"
    records.fit.params = FIT_OPTIONS[name]
  end
  luma.doc.set_members(cls, cls.name, records)
end
luma.doc.set_members(dist.MultivariateNormal, "luma.dist.MultivariateNormal", {
  marginal = { signature = "mvn:marginal(indices)",
    doc = "The distribution of the coordinates listed in indices. Returns a "
      .. "MultivariateNormal." },
  conditional = { signature = "mvn:conditional(given, values)",
    doc = "The distribution of the other coordinates given x[given] = values (Bishop, "
      .. "Pattern Recognition and Machine Learning, eqs. 2.81-2.82). Returns a "
      .. "MultivariateNormal." },
})

-- The Normal-Inverse-Gamma and Normal-Inverse-Wishart distributions live
-- with their conjugate updates in luma.bayes; they are reachable here too.
setmetatable(dist, { __index = function(_, key)
  if key == "NormalInverseGamma" or key == "NormalInverseWishart" then
    return require("luma.stats.bayes")[key]
  end
end })

-- Methods called on anything but an instance ("Normal.pdf(nil, 0)", or
-- d.pdf(x) for d:pdf(x)) are "bad self" errors at the caller's line; the
-- class functions fit(data) are not methods.  The public methods and fit
-- call one another and shared checks at varying depths, so their errors
-- are relayed to the caller's line (args.relayed).
local function public(name) return name:sub(1, 1) ~= "_" end
for _, cls in ipairs(classes) do
  if rawget(cls, "fit") then cls.fit = args.relayed(cls.fit) end
  args.wrap_methods(cls, cls.name, args.is_named(cls.name),
    function(name) return name == "fit" end, public)
end

luma.doc.set(dist, { name = "luma.dist",
  doc = "Probability distributions: Normal, LogNormal, Uniform, Exponential, Laplace, Gamma, "
    .. "ChiSquared, Beta, StudentT, F, Bernoulli, Binomial, Geometric, NegativeBinomial, "
    .. "Poisson, Categorical, MultivariateNormal (marginal, conditional), MultivariateStudentT, "
    .. "Dirichlet, Multinomial, Wishart, InverseWishart, Mixture; each with pdf/logpdf "
    .. "(pmf/logpmf), sample, mean, var, entropy and fit, and for the 1-D ones cdf, ppf and "
    .. "the tails sf, logcdf, logsf and isf computed directly (not as 1 - cdf)." })

return dist
