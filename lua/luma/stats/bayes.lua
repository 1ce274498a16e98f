--- luma.bayes: conjugate Bayesian updating.
--
-- Each prior is an object; prior:update(data) returns the posterior (a new
-- object of the same kind), and every object offers posterior() (the
-- luma.dist distribution of the parameter where one exists), map() (the
-- posterior mode) and predictive() (the distribution of a new
-- observation).  Formulas: notes 000 §3.3.5-3.3.6 and notes 002 Y2/Y4,
-- with the errata corrected as marked.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local bayes = {}

local function dist() return require("luma.stats.dist") end

local fail = args.fail

local function positive(name, key, v)
  if type(v) ~= "number" or not (v > 0) or v == math.huge then
    fail(3, "luma.bayes.%s: %s must be a finite number > 0, got %s", name, key, tostring(v))
  end
  return v
end

local function data_vector(name, x)
  if not luma.ismatrix(x) or x:rows() * x:cols() == 0 then
    fail(3, "luma.bayes.%s: data must be a non-empty matrix", name)
  end
  x = x:flatten()
  if not x:isfinite():all() then fail(3, "luma.bayes.%s: data contain NaN or infinity", name) end
  return x
end

local function kind(name, fields)
  local cls = {}
  cls.__index = cls
  cls.__name = "luma.bayes." .. name
  cls.__tostring = function(self)
    local parts = {}
    for _, f in ipairs(fields) do parts[#parts + 1] = f .. "=" .. tostring(self[f]) end
    return name .. "(" .. table.concat(parts, ", ") .. ")"
  end
  bayes[name] = setmetatable(cls, { __call = function(c, p)
    if type(p) ~= "table" then fail(2, "luma.bayes.%s expects a table of hyperparameters", name) end
    local self = setmetatable({}, c)
    args.relay(2, c.init, self, p) -- init's checks blame the caller, whatever their depth
    return self
  end })
  return cls
end

-- --------------------------------------------------- Beta-Bernoulli/Binomial

--- BetaBernoulli{a = 1, b = 1}: update(x) with 0/1 observations, or
-- update(k, n) with k successes in n trials.
local BB = kind("BetaBernoulli", { "a", "b" })
function BB.init(self, p)
  self.a = positive("BetaBernoulli", "a", p.a or 1)
  self.b = positive("BetaBernoulli", "b", p.b or 1)
end
function BB.update(self, x, n)
  local k
  if type(x) == "number" then
    if math.type(n) ~= "integer" or x < 0 or x > n then
      fail(2, "luma.bayes.BetaBernoulli: update(k, n) needs 0 <= k <= n")
    end
    k = x
  else
    x = data_vector("BetaBernoulli", x)
    if not x:eq(0):add(x:eq(1)):all() then fail(2, "luma.bayes.BetaBernoulli: observations must be 0 or 1") end
    k, n = x:sum(), x:rows()
  end
  return bayes.BetaBernoulli{ a = self.a + k, b = self.b + n - k }
end
function BB.posterior(self) return dist().Beta{ a = self.a, b = self.b } end
--- map: the mode of the Beta posterior (0 or 1 at a boundary; an error
-- when a, b <= 1, where there is no single mode).
function BB.map(self)
  local a, b = self.a, self.b
  if a > 1 and b > 1 then return (a - 1) / (a + b - 2) end
  if a <= 1 and b > 1 then return 0 end
  if a > 1 and b <= 1 then return 1 end
  fail(2, "luma.bayes.BetaBernoulli: Beta(%s, %s) has no single mode", tostring(a), tostring(b))
end
function BB.predictive(self) return dist().Bernoulli{ p = self.a / (self.a + self.b) } end

-- ------------------------------------------------------------ Gamma-Poisson

--- GammaPoisson{shape = 1, rate = 1}: a Gamma (rate parameterization)
-- prior on a Poisson rate.
local GP = kind("GammaPoisson", { "shape", "rate" })
function GP.init(self, p)
  self.shape = positive("GammaPoisson", "shape", p.shape or 1)
  self.rate = positive("GammaPoisson", "rate", p.rate or 1)
end
function GP.update(self, x)
  x = data_vector("GammaPoisson", x)
  if x:lt(0):any() or not x:eq(x:floor()):all() then fail(2, "luma.bayes.GammaPoisson: counts must be integers >= 0") end
  return bayes.GammaPoisson{ shape = self.shape + x:sum(), rate = self.rate + x:rows() }
end
function GP.posterior(self) return dist().Gamma{ shape = self.shape, rate = self.rate } end
function GP.map(self) return math.max(self.shape - 1, 0) / self.rate end
--- predictive: a negative binomial, failures before shape successes with
-- success probability rate / (rate + 1).
function GP.predictive(self)
  return dist().NegativeBinomial{ r = self.shape, p = self.rate / (self.rate + 1) }
end

-- ------------------------------------------------ Dirichlet-Categorical

--- DirichletCategorical{alpha}: update(labels 1..K) or update(counts)
-- with {counts = true}; notes 000 §3.3.6 with the posterior the notes
-- leave undefined taken as alpha_k + N_k.
local DC = kind("DirichletCategorical", { "alpha" })
function DC.init(self, p)
  local a = luma.ismatrix(p.alpha) and p.alpha:flatten() or (type(p.alpha) == "table" and luma.matrix(p.alpha))
  if not a or a:le(0):any() then fail(3, "luma.bayes.DirichletCategorical: alpha must be a positive vector") end
  self.alpha = a
end
function DC.update(self, x, opts)
  opts = args.options("luma.bayes.DirichletCategorical.update", 2, opts, nil, { counts = true }, 2)
  x = data_vector("DirichletCategorical", x)
  local K = self.alpha:rows()
  local counts
  if opts.counts then
    if x:rows() ~= K then fail(2, "luma.bayes.DirichletCategorical: %d counts for %d categories", x:rows(), K) end
    counts = x
  else
    if x:lt(1):any() or x:gt(K):any() or not x:eq(x:floor()):all() then
      fail(2, "luma.bayes.DirichletCategorical: labels must be integers in 1..%d", K)
    end
    counts = luma.zeros(K, 1)
    for i = 1, x:rows() do counts:set(x:get(i, 1), 1, counts:get(x:get(i, 1), 1) + 1) end
  end
  return bayes.DirichletCategorical{ alpha = self.alpha + counts }
end
function DC.posterior(self) return dist().Dirichlet{ alpha = self.alpha } end
--- map: (N_k + alpha_k - 1) / sum (N_m + alpha_m - 1) (all alpha > 1).
function DC.map(self)
  if self.alpha:le(1):any() then fail(2, "luma.bayes.DirichletCategorical: the mode needs every alpha > 1") end
  local m = self.alpha - 1
  return m / m:sum()
end
function DC.predictive(self) return dist().Categorical{ p = self.alpha / self.alpha:sum() } end

-- ------------------------------------------------ Normal, known variance

--- NormalKnownVariance{mu0 = 0, sigma0 = 1, sigma}: a Normal(mu0, sigma0^2)
-- prior on the mean of Normal(mean, sigma^2) data with sigma known (notes
-- 002 Y2).  Posterior mean (sigma^2 mu0 + sigma0^2 sum x) / (sigma^2 +
-- n sigma0^2); posterior variance sigma^2 sigma0^2 / (sigma^2 + n sigma0^2)
-- (erratum X29: the notes call sigma sigma0^2 / (...) the standard
-- deviation).
local NK = kind("NormalKnownVariance", { "mu0", "sigma0", "sigma" })
function NK.init(self, p)
  self.mu0 = p.mu0 or 0
  if type(self.mu0) ~= "number" or self.mu0 ~= self.mu0 then fail(3, "luma.bayes.NormalKnownVariance: mu0 must be a number") end
  self.sigma0 = positive("NormalKnownVariance", "sigma0", p.sigma0 or 1)
  self.sigma = positive("NormalKnownVariance", "sigma", p.sigma)
end
function NK.update(self, x)
  x = data_vector("NormalKnownVariance", x)
  local n, s2, t2 = x:rows(), self.sigma ^ 2, self.sigma0 ^ 2
  local mean = (s2 * self.mu0 + t2 * x:sum()) / (s2 + n * t2)
  local var = s2 * t2 / (s2 + n * t2)
  return bayes.NormalKnownVariance{ mu0 = mean, sigma0 = math.sqrt(var), sigma = self.sigma }
end
function NK.posterior(self) return dist().Normal{ mu = self.mu0, sigma = self.sigma0 } end
function NK.map(self) return self.mu0 end
function NK.predictive(self)
  return dist().Normal{ mu = self.mu0, sigma = math.sqrt(self.sigma0 ^ 2 + self.sigma ^ 2) }
end

-- ---------------------------------------------- Normal-Inverse-Gamma

--- NormalInverseGamma{alpha, beta, gamma, delta}: the conjugate prior of a
-- Normal with unknown mean and variance, in notes 000's parameters
-- (sigma^2 ~ InvGamma(alpha, beta), mu | sigma^2 ~ N(delta, sigma^2 /
-- gamma)).  update follows notes 000 §3.3.5; map returns mu, sigma^2 of
-- the notes' MAP formulas; predictive is the Student t that the notes'
-- garbled predictive (Prince's ratio of normalizers) equals.
local NIG = kind("NormalInverseGamma", { "alpha", "beta", "gamma", "delta" })
function NIG.init(self, p)
  self.alpha = positive("NormalInverseGamma", "alpha", p.alpha or 1)
  self.beta = positive("NormalInverseGamma", "beta", p.beta or 1)
  self.gamma = positive("NormalInverseGamma", "gamma", p.gamma or 1)
  self.delta = p.delta or 0
  if type(self.delta) ~= "number" or self.delta ~= self.delta then fail(3, "luma.bayes.NormalInverseGamma: delta must be a number") end
end
function NIG.update(self, x)
  x = data_vector("NormalInverseGamma", x)
  local I, sx, sxx = x:rows(), x:sum(), x:pow(2):sum()
  local a, b, g, d = self.alpha, self.beta, self.gamma, self.delta
  return bayes.NormalInverseGamma{
    alpha = a + I / 2,
    beta = sxx / 2 + b + g * d * d / 2 - (g * d + sx) ^ 2 / (2 * (g + I)),
    gamma = g + I,
    delta = (g * d + sx) / (g + I),
  }
end
--- map(x): the MAP mean and variance given data x (notes 000 §3.3.5):
-- mu = (sum x + gamma delta) / (I + gamma), sigma^2 = (sum (x - mu)^2 +
-- 2 beta + gamma (delta - mu)^2) / (I + 3 + 2 alpha).  Without data, the
-- mode of the distribution itself.
function NIG.map(self, x)
  local I, sx, ss = 0, 0, 0
  local mu = self.delta
  if x ~= nil then
    x = data_vector("NormalInverseGamma", x)
    I, sx = x:rows(), x:sum()
    mu = (sx + self.gamma * self.delta) / (I + self.gamma)
    ss = (x - mu):pow(2):sum()
  end
  local var = (ss + 2 * self.beta + self.gamma * (self.delta - mu) ^ 2) / (I + 3 + 2 * self.alpha)
  return mu, var
end
function NIG.predictive(self)
  local a, g = self.alpha, self.gamma
  return dist().StudentT{ df = 2 * a, loc = self.delta,
    scale = math.sqrt(self.beta * (g + 1) / (a * g)) }
end
--- sample(n [, rng]) -> mu, var (n x 1 each): var ~ InvGamma(alpha, beta),
-- mu | var ~ N(delta, var / gamma).
function NIG.sample(self, n, rng)
  args.integer(n, "n", "sample", 0, 2)
  rng = args.generator(rng, 2, "sample", 2) or luma.random.default()
  local var = rng:gamma(self.alpha, n, 1):pow(-1) * self.beta
  local mu = rng:normal(n, 1):mul((var / self.gamma):sqrt()) + self.delta
  return mu, var
end
--- The density of (mu, sigma^2) under the distribution (notes 000 L56).
function NIG.logpdf(self, mu, var)
  args.arg(type(mu) == "number", 1, "logpdf", "number", mu, 2)
  args.arg(type(var) == "number", 2, "logpdf", "number", var, 2)
  local a, b, g, d = self.alpha, self.beta, self.gamma, self.delta
  return 0.5 * math.log(g) - 0.5 * math.log(2 * math.pi * var) + a * math.log(b)
    - luma.special.lgamma(a) - (a + 1) * math.log(var) - (2 * b + g * (d - mu) ^ 2) / (2 * var)
end

-- -------------------------------------------- Normal-Inverse-Wishart

--- NormalInverseWishart{alpha, psi, gamma, delta}: the conjugate prior of
-- a multivariate Normal with unknown mean and covariance (notes 000 L63):
-- Sigma ~ InverseWishart(alpha, psi), mu | Sigma ~ N(delta, Sigma / gamma).
-- logpdf(mu, Sigma) is the notes' density with the normalizer 2^(alpha D/2)
-- (the notes print 2^(alpha Sigma / 2)).
local NIW = kind("NormalInverseWishart", { "alpha", "gamma" })
function NIW.init(self, p)
  local delta = luma.ismatrix(p.delta) and p.delta:flatten() or (type(p.delta) == "table" and luma.matrix(p.delta))
  if not delta then fail(3, "luma.bayes.NormalInverseWishart: delta must be a vector") end
  self.delta, self.d = delta, delta:rows()
  self.psi = p.psi or luma.eye(self.d)
  if not luma.ismatrix(self.psi) or self.psi:rows() ~= self.d or self.psi:cols() ~= self.d then
    fail(3, "luma.bayes.NormalInverseWishart: psi must be a %d x %d matrix", self.d, self.d)
  end
  self.alpha = positive("NormalInverseWishart", "alpha", p.alpha or self.d + 2)
  if not (self.alpha > self.d - 1) then
    fail(3, "luma.bayes.NormalInverseWishart: alpha must be > %d (D - 1)", self.d - 1)
  end
  self.gamma = positive("NormalInverseWishart", "gamma", p.gamma or 1)
  self.covariance = dist().InverseWishart{ df = self.alpha, scale = self.psi }
end
--- update(X): X has one observation per row (I x D).
function NIW.update(self, X)
  if not luma.ismatrix(X) or X:cols() ~= self.d or X:rows() == 0 then
    fail(2, "luma.bayes.NormalInverseWishart: data must be rows of %d columns", self.d)
  end
  local I = X:rows()
  local sx = X:sum(1):t()
  local g, d = self.gamma, self.delta
  local g2 = g + I
  local d2 = (d * g + sx) / g2
  local psi2 = self.psi + X:t() * X + (d * d:t()) * g - (d2 * d2:t()) * g2
  return bayes.NormalInverseWishart{ alpha = self.alpha + I, psi = (psi2 + psi2:t()) / 2,
    gamma = g2, delta = d2 }
end
function NIW.logpdf(self, mu, Sigma)
  local m = luma.ismatrix(mu) and mu:flatten() or luma.matrix(mu)
  local normal = dist().MultivariateNormal{ mean = self.delta, cov = Sigma / self.gamma }
  return self.covariance:logpdf(Sigma) + normal:logpdf(m:t()):get(1, 1)
end
--- sample(n [, rng]) -> a list of {mu = D x 1, sigma = D x D} draws.
function NIW.sample(self, n, rng)
  rng = rng or luma.random.default()
  local out = {}
  for i, S in ipairs(self.covariance:sample(n, rng)) do
    local mvn = dist().MultivariateNormal{ mean = self.delta, cov = S / self.gamma }
    out[i] = { mu = mvn:sample(1, rng):t(), sigma = S }
  end
  return out
end
--- map(X): the MAP mean and covariance given data X (rows).
function NIW.map(self, X)
  local I, mu = 0, self.delta
  local S = luma.zeros(self.d, self.d)
  if X ~= nil then
    I = X:rows()
    mu = (X:sum(1):t() + self.delta * self.gamma) / (I + self.gamma)
    local C = X - mu:t()
    S = C:t() * C
  end
  local dm = self.delta - mu
  return mu, (self.psi + S + (dm * dm:t()) * self.gamma) / (I + self.alpha + self.d + 2)
end
--- predictive(): the multivariate t with df alpha - D + 1, location delta
-- and shape psi (gamma + 1) / (gamma (alpha - D + 1)).
function NIW.predictive(self)
  local df = self.alpha - self.d + 1
  return dist().MultivariateStudentT{ df = df, loc = self.delta,
    shape = self.psi * ((self.gamma + 1) / (self.gamma * df)) }
end

-- -------------------------------------------------- NaturalConjugate

--- NaturalConjugate{family, lambda, y [, sigma]}: the natural conjugate
-- prior of an exponential family (notes 002 Y4), q(theta | lambda, y)
-- proportional to exp(<theta, y> - lambda psi(theta)) as a density in
-- theta; the update is T_n = (lambda + n, y + sum S(x_i)), and E[grad
-- psi(theta)] = y / lambda (the notes' erratum X31 says "y").  family is
-- a luma.dist member (any parameters: it fixes K, n or d); with sigma,
-- a Normal family is the known-variance one, S = x, theta = mu / sigma^2,
-- psi = sigma^2 theta^2 / 2.  Matching q's density in the usual
-- parameters gives the named pairs (as_conjugate), e.g. Bernoulli: p^(y-1)
-- (1 - p)^(lambda-y-1), the Beta(y, lambda - y).
local NC = kind("NaturalConjugate", { "family", "lambda", "y" })
local NC_NAME = "luma.bayes.NaturalConjugate"

-- The family's name, or "NormalKnownVariance".
local function nc_kind(self)
  if self.sigma then return "NormalKnownVariance" end
  return getmetatable(self.family).__name:match("([^.]+)$")
end

local function nc_stats(self, x)
  if self.sigma then
    x = data_vector("NaturalConjugate", x)
    return x
  end
  return self.family:sufficient_statistics(x)
end

function NC.init(self, p)
  local fam = p.family
  if type(fam) ~= "table" or type(fam.natural_parameters) ~= "function" then
    fail(3, "%s: family must be a luma.dist distribution of an exponential family (Normal, "
      .. "MultivariateNormal, Bernoulli, Categorical, Multinomial, Poisson, Exponential, Gamma, "
      .. "Beta), got %s", NC_NAME, args.type_of(fam))
  end
  self.family = fam
  if p.sigma ~= nil then
    if nc_kind(self) ~= "Normal" then
      fail(3, "%s: sigma (a known standard deviation) goes with a Normal family", NC_NAME)
    end
    self.sigma = positive("NaturalConjugate", "sigma", p.sigma)
  end
  self.lambda = positive("NaturalConjugate", "lambda", p.lambda)
  local m = self.sigma and 1 or fam:natural_parameters():rows()
  local y = luma.ismatrix(p.y) and p.y:flatten() or (type(p.y) == "table" and luma.matrix(p.y))
    or (type(p.y) == "number" and luma.matrix{ { p.y } })
  if not y or y:rows() ~= m or not y:isfinite():all() then
    fail(3, "%s: y must be a finite vector of %d entries (one per sufficient statistic)",
      NC_NAME, m)
  end
  self.y = y
end

function NC.update(self, x)
  local S = nc_stats(self, x)
  return bayes.NaturalConjugate{ family = self.family, sigma = self.sigma,
    lambda = self.lambda + S:rows(), y = self.y + S:sum(1):t() }
end

--- mean_statistics(): E[grad psi(theta)] = y / lambda.
function NC.mean_statistics(self) return self.y / self.lambda end

--- map(): the family member at the prior's mode in theta, where grad
-- psi(theta) = y / lambda.
function NC.map(self)
  local m = self.y / self.lambda
  if self.sigma then return dist().Normal{ mu = m:get(1, 1), sigma = self.sigma } end
  return self.family:from_mean_statistics(m)
end

--- log_density(theta): <theta, y> - lambda psi(theta), unnormalized.
function NC.log_density(self, theta)
  local t = luma.ismatrix(theta) and theta:flatten() or (type(theta) == "table" and luma.matrix(theta))
    or (type(theta) == "number" and luma.matrix{ { theta } })
  if not t or t:rows() ~= self.y:rows() then
    fail(2, "%s.log_density: theta must be a vector of %d entries", NC_NAME, self.y:rows())
  end
  local psi
  if self.sigma then
    psi = self.sigma ^ 2 * t:get(1, 1) ^ 2 / 2
  else
    psi = self.family:from_natural(t):log_partition()
  end
  return (t:t() * self.y):get(1, 1) - self.lambda * psi
end

--- as_conjugate(): the named prior of luma.bayes with the same density.
function NC.as_conjugate(self)
  local k, lam, y = nc_kind(self), self.lambda, self.y
  if k == "Bernoulli" then
    return bayes.BetaBernoulli{ a = y:get(1, 1), b = lam - y:get(1, 1) }
  elseif k == "Categorical" then
    return bayes.DirichletCategorical{ alpha = luma.matrix.vstack{ y, luma.matrix{ { lam - y:sum() } } } }
  elseif k == "Poisson" then
    return bayes.GammaPoisson{ shape = y:get(1, 1), rate = lam }
  elseif k == "NormalKnownVariance" then
    return bayes.NormalKnownVariance{ mu0 = y:get(1, 1) / lam, sigma0 = self.sigma / math.sqrt(lam),
      sigma = self.sigma }
  elseif k == "Normal" then
    local y1, y2 = y:get(1, 1), y:get(2, 1)
    return bayes.NormalInverseGamma{ alpha = (lam + 3) / 2, beta = (y1 - y2 * y2 / lam) / 2,
      gamma = lam, delta = y2 / lam }
  elseif k == "MultivariateNormal" then
    local d = self.family.d
    local Y1, y2 = y:sub(1, d * d, 1, 1):reshape(d, d):copy(), y:sub(d * d + 1, d * d + d, 1, 1)
    return bayes.NormalInverseWishart{ alpha = lam + d + 2, psi = Y1 - (y2 * y2:t()) / lam,
      gamma = lam, delta = y2 / lam }
  end
  fail(2, "%s: luma.bayes has no named prior for the %s family", NC_NAME, k)
end

-- ------------------------------------------------------------ help records

-- The methods every kind shares, then each kind's record and its own
-- methods (which override the shared text where the arguments differ).
local SHARED = {
  init = { signature = "prior:init(params)", doc = "Fills the object's fields from the "
    .. "hyperparameter table, with defaults (the constructor calls it). Returns nothing." },
  update = { signature = "prior:update(x)", doc = "Conditions on the observations x (an n x 1 "
    .. "matrix). Returns the posterior, a new object of the same kind." },
  posterior = { signature = "prior:posterior()", doc = "The distribution of the parameter. "
    .. "Returns a luma.dist distribution." },
  map = { signature = "prior:map()", doc = "The most probable parameter value (the mode). "
    .. "Returns a number (a matrix for vector parameters)." },
  predictive = { signature = "prior:predictive()", doc = "The distribution of the next "
    .. "observation, the parameter integrated out. Returns a luma.dist distribution." },
}

local KINDS = {
  BetaBernoulli = {
    signature = "BetaBernoulli{a = 1, b = 1}",
    doc = "A Beta(a, b) prior on the success probability of 0/1 observations (Murphy, "
      .. "Machine Learning: a Probabilistic Perspective, sec. 3.3).",
    params = { { name = "a", default = 1, doc = "prior successes + 1" },
               { name = "b", default = 1, doc = "prior failures + 1" } },
    methods = {
      update = { signature = "prior:update(x [, n = nil])", doc = "Conditions on 0/1 "
        .. "observations x (a matrix), or on x successes in n trials (numbers). Returns "
        .. "the posterior BetaBernoulli." },
      map = { signature = "prior:map()", doc = "The mode of the Beta posterior (0 or 1 at a "
        .. "boundary; an error when a, b <= 1). Returns a number." },
      predictive = { signature = "prior:predictive()", doc = "The probability of a success "
        .. "next. Returns a luma.dist.Bernoulli." },
    },
  },
  GammaPoisson = {
    signature = "GammaPoisson{shape = 1, rate = 1}",
    doc = "A Gamma(shape, rate) prior on the rate of Poisson counts (Gelman et al., "
      .. "Bayesian Data Analysis, 3rd ed., sec. 2.6).",
    params = { { name = "shape", default = 1, doc = "Gamma shape" },
               { name = "rate", default = 1, doc = "Gamma rate" } },
    methods = {
      update = { signature = "prior:update(x)", doc = "Conditions on counts x (integers >= "
        .. "0, an n x 1 matrix). Returns the posterior GammaPoisson." },
      predictive = { signature = "prior:predictive()", doc = "The negative binomial of the "
        .. "next count (r = shape, p = rate / (rate + 1)). Returns a "
        .. "luma.dist.NegativeBinomial." },
    },
  },
  DirichletCategorical = {
    signature = "DirichletCategorical{alpha}",
    doc = "A Dirichlet(alpha) prior on the probabilities of K categories (Murphy, sec. "
      .. "3.4); the posterior is Dirichlet(alpha + counts).",
    params = { { name = "alpha", doc = "positive concentrations, a K-vector (required)" } },
    methods = {
      update = { signature = "prior:update(x [, opts])", doc = "Conditions on labels 1..K "
        .. "(an n x 1 matrix), or on K counts with {counts = true}. Returns the posterior "
        .. "DirichletCategorical.",
        params = { { name = "counts", default = false, doc = "x holds counts, not labels" } } },
      map = { signature = "prior:map()", doc = "(alpha_k - 1) / sum (alpha_m - 1), which "
        .. "needs every alpha > 1. Returns a K x 1 matrix." },
    },
  },
  NormalKnownVariance = {
    signature = "NormalKnownVariance{mu0 = 0, sigma0 = 1, sigma}",
    doc = "A Normal(mu0, sigma0^2) prior on the mean of Normal data with known standard "
      .. "deviation sigma (Murphy, sec. 4.6.1; Bishop, Pattern Recognition and Machine "
      .. "Learning, eqs. 2.141-2.142).",
    params = { { name = "mu0", default = 0, doc = "prior mean" },
               { name = "sigma0", default = 1, doc = "prior standard deviation" },
               { name = "sigma", doc = "the data's known standard deviation (required)" } },
    methods = {},
  },
  NormalInverseGamma = {
    signature = "NormalInverseGamma{alpha = 1, beta = 1, gamma = 1, delta = 0}",
    doc = "The conjugate prior of a Normal with unknown mean and variance: sigma^2 ~ "
      .. "InvGamma(alpha, beta), mu | sigma^2 ~ N(delta, sigma^2 / gamma) (Prince, Computer "
      .. "Vision: Models, Learning, and Inference, secs. 3.5 and 4.4).",
    params = { { name = "alpha", default = 1, doc = "shape of the variance's prior" },
               { name = "beta", default = 1, doc = "scale of the variance's prior" },
               { name = "gamma", default = 1, doc = "pseudo-count of the mean" },
               { name = "delta", default = 0, doc = "prior mean" } },
    methods = {
      map = { signature = "prior:map([x = nil])", doc = "The MAP mean and variance given "
        .. "data x (the mode of the distribution itself without data). Returns mu, "
        .. "sigma^2 (two numbers)." },
      predictive = { signature = "prior:predictive()", doc = "The Student t of the next "
        .. "observation. Returns a luma.dist.StudentT." },
      sample = { signature = "prior:sample(n [, rng = luma.random.default()])",
        doc = "Draws n (mu, sigma^2) pairs. Returns mu, var: two n x 1 matrices." },
      logpdf = { signature = "prior:logpdf(mu, var)", doc = "The log-density of (mu, "
        .. "sigma^2 = var). Returns a number." },
    },
  },
  NormalInverseWishart = {
    signature = "NormalInverseWishart{alpha = D + 2, psi = I, gamma = 1, delta}",
    doc = "The conjugate prior of a multivariate Normal with unknown mean and covariance: "
      .. "Sigma ~ InverseWishart(alpha, psi), mu | Sigma ~ N(delta, Sigma / gamma) (Murphy, "
      .. "sec. 4.6.3).",
    params = { { name = "alpha", default = "D + 2", doc = "degrees of freedom, > D - 1" },
               { name = "psi", default = "the identity", doc = "scale matrix, D x D" },
               { name = "gamma", default = 1, doc = "pseudo-count of the mean" },
               { name = "delta", doc = "prior mean, a D-vector (required)" } },
    methods = {
      update = { signature = "prior:update(X)", doc = "Conditions on observations X, one per "
        .. "row (n x D). Returns the posterior NormalInverseWishart." },
      map = { signature = "prior:map([X = nil])", doc = "The MAP mean and covariance given "
        .. "data X (rows). Returns mu (D x 1) and Sigma (D x D)." },
      predictive = { signature = "prior:predictive()", doc = "The multivariate t of the next "
        .. "observation (df alpha - D + 1). Returns a luma.dist.MultivariateStudentT." },
      sample = { signature = "prior:sample(n [, rng = luma.random.default()])",
        doc = "Draws n (mu, Sigma) pairs. Returns a list of {mu = D x 1, sigma = D x D}." },
      logpdf = { signature = "prior:logpdf(mu, Sigma)", doc = "The log-density of (mu, "
        .. "Sigma). Returns a number." },
    },
  },
  NaturalConjugate = {
    signature = "NaturalConjugate{family, lambda, y [, sigma]}",
    doc = "The natural conjugate prior of an exponential family, density proportional to "
      .. "exp(<theta, y> - lambda psi(theta)) in the natural parameters theta (Bernardo and "
      .. "Smith, Bayesian Theory, 1994, sec. 5.2.2; Diaconis and Ylvisaker, Ann. Statist. 7, "
      .. "1979); the posterior after x_1..x_n is (lambda + n, y + sum S(x_i)) and E[grad "
      .. "psi(theta)] = y / lambda.",
    params = { { name = "family", doc = "a luma.dist distribution of the family (its "
        .. "parameters only fix the number of categories, trials or dimensions)" },
      { name = "lambda", doc = "the concentration, > 0 (prior pseudo-observations)" },
      { name = "y", doc = "the prior's statistic, a vector like S(x) (prior sum of S)" },
      { name = "sigma", doc = "a known standard deviation: the Normal family with only the "
        .. "mean unknown (S = x)" } },
    methods = {
      update = { signature = "prior:update(x)", doc = "Conditions on observations x (as the "
        .. "family's logpdf takes them): lambda + n and y + sum S(x_i). Returns the posterior "
        .. "NaturalConjugate." },
      map = { signature = "prior:map()", doc = "The family member at the prior's mode, where "
        .. "grad psi(theta) = y / lambda. Returns a luma.dist distribution." },
      mean_statistics = { signature = "prior:mean_statistics()", doc = "E[grad psi(theta)] "
        .. "= y / lambda under the prior. Returns a column." },
      log_density = { signature = "prior:log_density(theta)", doc = "The unnormalized "
        .. "log-density <theta, y> - lambda psi(theta). Returns a number." },
      as_conjugate = { signature = "prior:as_conjugate()", doc = "The named luma.bayes prior "
        .. "with the same density (BetaBernoulli, DirichletCategorical, GammaPoisson, "
        .. "NormalKnownVariance, NormalInverseGamma or NormalInverseWishart); an error for "
        .. "the other families. Returns the prior." },
    },
  },
}

for name, spec in pairs(KINDS) do
  local cls = bayes[name]
  luma.doc.set(cls, { name = cls.__name, signature = spec.signature, doc = spec.doc,
    params = spec.params })
  local records = {}
  for m, rec in pairs(SHARED) do
    if rawget(cls, m) then records[m] = { signature = rec.signature, doc = rec.doc } end
  end
  for m, rec in pairs(spec.methods) do records[m] = rec end
  luma.doc.set_members(cls, cls.__name, records)
end

-- Methods called on anything but an instance (BetaBernoulli.map(nil), or
-- prior.update(x) for prior:update(x)) are "bad self" errors at the
-- caller's line.
for name, spec in pairs(KINDS) do
  local cls = bayes[name]
  local init = cls.init
  local valid = args.option_names(spec)
  cls.init = function(self, p)
    args.arg(type(p) == "table", 1, "init", "table of hyperparameters", p, 2)
    args.check_opts(cls.__name, p, valid, 2)
    return init(self, p)
  end
  luma.doc.set(cls.init, luma.doc.get(init))
  args.wrap_methods(cls, cls.__name, args.is_named(cls.__name), nil,
    function() return true end)
end

luma.doc.set(bayes, { name = "luma.bayes",
  doc = "Conjugate Bayesian updating: BetaBernoulli, GammaPoisson, DirichletCategorical, "
    .. "NormalKnownVariance, NormalInverseGamma, NormalInverseWishart; each with update, "
    .. "map and predictive; and NaturalConjugate, the natural conjugate prior of any "
    .. "exponential family of luma.dist." })

return bayes
