--- luma.stats.natural: the exponential-family form of the luma.dist
-- families (notes 002 X1-X3), installed into their classes by dist.lua.
-- Not a public API: the methods it installs are (see luma.dist's help and
-- docs/STATS.md, "Exponential families").
--
-- A family is p(x | theta) = h(x) exp(<S(x), theta> - psi(theta)) with
-- sufficient statistics S, natural parameters theta, base measure h and
-- log-partition psi = log Z; its gradient is the mean of S,
-- grad psi(theta) = E[S] (X3), so maximum likelihood matches moments:
-- grad psi(theta_hat) = (1/n) sum S(x_i).  The representations (Wainwright
-- & Jordan, "Graphical models, exponential families, and variational
-- inference", 2008, sec. 3.2; Bishop, PRML sec. 2.4):
--   Normal             S = (x^2, x), theta = (-1/(2 sigma^2), mu/sigma^2), h = 1
--                      (the notes' X2 order)
--   MultivariateNormal S = (vec(x x'), x), theta = (vec(-Sigma^-1 / 2),
--                      Sigma^-1 mu), h = 1 (vec: row by row)
--   Bernoulli          S = x, theta = log(p / (1 - p)), h = 1
--   Categorical        S = the one-hot of x without its last entry,
--                      theta_k = log(p_k / p_K) (minimal: K - 1 entries)
--   Multinomial        S = the counts without the last, theta as
--                      Categorical, h = n! / prod x_k!
--   Poisson            S = x, theta = log lambda, h = 1 / x!
--   Exponential        S = x, theta = -rate, h = 1
--   Gamma              S = (log x, x), theta = (shape - 1, -rate), h = 1
--   Beta               S = (log x, log(1 - x)), theta = (a - 1, b - 1), h = 1
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local sf = luma.special
local LOG_2PI = math.log(2 * math.pi)

local natural = {}

local fail = args.fail

local function col(t) return luma.matrix(t) end

-- theta as a column of m finite entries (level as fail's).
local function theta_arg(fname, theta, m, level)
  local v = luma.ismatrix(theta) and theta:flatten() or (type(theta) == "table" and luma.matrix(theta))
  if not v or v:rows() ~= m then
    fail(level + 1, "%s: theta must be a vector of %d entries", fname, m)
  end
  if not v:isfinite():all() then fail(level + 1, "%s: theta must be finite", fname) end
  return v
end

-- log(1 + sum exp(t_k)) without overflow.
local function log1p_sum_exp(t)
  local top = math.max(0, t:max())
  return top + math.log(math.exp(-top) + (t - top):exp():sum())
end

-- The categorical probabilities (K x 1) of minimal natural parameters.
local function softmax_last(t)
  local top = math.max(0, t:max())
  local e = (t - top):exp()
  local last = math.exp(-top)
  local total = e:sum() + last
  return luma.matrix.vstack{ e / total, luma.matrix{ { last / total } } }
end

-- Newton on the Gamma shape: digamma(a) - log(a) = c (c < 0), Minka's
-- start and iteration (as luma.dist.Gamma.fit).
local function gamma_shape(c)
  local s = -c
  local a = (3 - s + math.sqrt((s - 3) ^ 2 + 24 * s)) / (12 * s)
  for _ = 1, 100 do
    local step = (math.log(a) - sf.digamma(a) - s) / (1 / a - sf.trigamma(a))
    a = a - step
    if a <= 0 then a = (a + step) / 2 end
    if math.abs(step) < 1e-14 * a then break end
  end
  return a
end

-- Newton on the Beta score equations: digamma(a) - digamma(a + b) = g1,
-- digamma(b) - digamma(a + b) = g2, from a start with the same mean.
local function beta_shapes(g1, g2)
  local m = math.exp(g1) / (math.exp(g1) + math.exp(g2))
  local a, b = m, 1 - m
  for _ = 1, 200 do
    local t = sf.trigamma(a + b)
    local f1 = sf.digamma(a) - sf.digamma(a + b) - g1
    local f2 = sf.digamma(b) - sf.digamma(a + b) - g2
    local j11, j22, j12 = sf.trigamma(a) - t, sf.trigamma(b) - t, -t
    local det = j11 * j22 - j12 * j12
    local da, db = (j22 * f1 - j12 * f2) / det, (j11 * f2 - j12 * f1) / det
    local scale = 1
    while a - scale * da <= 0 or b - scale * db <= 0 do scale = scale / 2 end
    a, b = a - scale * da, b - scale * db
    if math.abs(da) < 1e-14 * a and math.abs(db) < 1e-14 * b then break end
  end
  return a, b
end

-- Row-major vec of a d x d matrix as a column, and back.
local function vec(M) return M:reshape(M:rows() * M:cols(), 1):copy() end
local function unvec(v, d) return v:reshape(d, d):copy() end

--- natural.FAMILIES[class name]: size(d) -> m (entries of theta and S);
-- stats(d, x) -> n x m; log_base(d, x) -> n x 1; theta(d) -> m x 1;
-- psi(theta, d) -> number; mean(theta, d) -> m x 1 (grad psi);
-- from_theta(theta, d) and from_mean(mu, d) -> a distribution (d: an
-- instance whose fixed parts -- K, n, the dimension -- are kept).
natural.FAMILIES = {}
local F = natural.FAMILIES

F.Normal = {
  size = function() return 2 end,
  stats = function(_, x) return luma.matrix.hstack{ x:pow(2), x } end,
  log_base = function(_, x) return luma.zeros(x:rows(), 1) end,
  theta = function(d) return col{ -0.5 / d.sigma ^ 2, d.mu / d.sigma ^ 2 } end,
  psi = function(t)
    local t1, t2 = t:get(1, 1), t:get(2, 1)
    return -t2 * t2 / (4 * t1) - 0.5 * math.log(-2 * t1) + 0.5 * LOG_2PI
  end,
  mean = function(t)
    local var = -0.5 / t:get(1, 1)
    local mu = t:get(2, 1) * var
    return col{ var + mu * mu, mu }
  end,
  domain = function(t) return t:get(1, 1) < 0, "theta[1] must be < 0" end,
  from_theta = function(t, _, dist)
    local var = -0.5 / t:get(1, 1)
    return dist.Normal{ mu = t:get(2, 1) * var, sigma = math.sqrt(var) }
  end,
  mean_domain = function(m) return m:get(1, 1) - m:get(2, 1) ^ 2 > 0, "E[x^2] must exceed E[x]^2" end,
  from_mean = function(m, _, dist)
    local mu = m:get(2, 1)
    return dist.Normal{ mu = mu, sigma = math.sqrt(m:get(1, 1) - mu * mu) }
  end,
}

F.MultivariateNormal = {
  size = function(d) return d.d * d.d + d.d end,
  stats = function(d, X)
    local n, k = X:rows(), d.d
    local out = luma.zeros(n, k * k + k)
    for a = 1, k do
      out:sub(1, n, (a - 1) * k + 1, a * k):assign(X:mul(X:col(a)))
    end
    out:sub(1, n, k * k + 1, k * k + k):assign(X)
    return out
  end,
  log_base = function(_, X) return luma.zeros(X:rows(), 1) end,
  theta = function(d)
    local P = luma.linalg.inv(d.cov)
    return luma.matrix.vstack{ vec(P * -0.5), P * d.mean }
  end,
  psi = function(t, d)
    local k = d.d
    local P = unvec(t:sub(1, k * k, 1, 1), k) * -2
    local eta = t:sub(k * k + 1, k * k + k, 1, 1)
    local S = luma.linalg.inv(P)
    local mu = S * eta
    local _, log_det = luma.linalg.slogdet(S)
    return 0.5 * (mu:t() * eta):get(1, 1) + 0.5 * log_det + 0.5 * k * LOG_2PI
  end,
  mean = function(t, d)
    local k = d.d
    local S = luma.linalg.inv(unvec(t:sub(1, k * k, 1, 1), k) * -2)
    local mu = S * t:sub(k * k + 1, k * k + k, 1, 1)
    return luma.matrix.vstack{ vec(S + mu * mu:t()), mu }
  end,
  domain = function(t, d)
    local k = d.d
    local P = unvec(t:sub(1, k * k, 1, 1), k) * -2
    return pcall(luma.linalg.cholesky, (P + P:t()) * 0.5), "-2 Theta must be positive definite"
  end,
  from_theta = function(t, d, dist)
    local k = d.d
    local P = unvec(t:sub(1, k * k, 1, 1), k) * -2
    local S = luma.linalg.inv((P + P:t()) * 0.5)
    S = (S + S:t()) * 0.5
    return dist.MultivariateNormal{ mean = S * t:sub(k * k + 1, k * k + k, 1, 1), cov = S }
  end,
  mean_domain = function(m, d)
    local k = d.d
    local mu = m:sub(k * k + 1, k * k + k, 1, 1)
    local C = unvec(m:sub(1, k * k, 1, 1), k) - mu * mu:t()
    return pcall(luma.linalg.cholesky, (C + C:t()) * 0.5), "E[x x'] - E[x] E[x]' must be positive definite"
  end,
  from_mean = function(m, d, dist)
    local k = d.d
    local mu = m:sub(k * k + 1, k * k + k, 1, 1)
    local C = unvec(m:sub(1, k * k, 1, 1), k) - mu * mu:t()
    return dist.MultivariateNormal{ mean = mu:copy(), cov = (C + C:t()) * 0.5 }
  end,
}

F.Bernoulli = {
  size = function() return 1 end,
  stats = function(_, x) return x:copy() end,
  log_base = function(_, x) return luma.zeros(x:rows(), 1) end,
  theta = function(d) return col{ math.log(d.p) - math.log(1 - d.p) } end,
  psi = function(t) return sf.log1pexp(t:get(1, 1)) end,
  mean = function(t) return col{ sf.expit(t:get(1, 1)) } end,
  from_theta = function(t, _, dist) return dist.Bernoulli{ p = sf.expit(t:get(1, 1)) } end,
  mean_domain = function(m) local p = m:get(1, 1); return p >= 0 and p <= 1, "E[x] must be in [0, 1]" end,
  from_mean = function(m, _, dist) return dist.Bernoulli{ p = m:get(1, 1) } end,
}

-- Categorical and Multinomial share theta_k = log(p_k / p_K) and scale
-- psi and the mean by the number of draws (1 for Categorical).
local function simplex_family(draws, stats, log_base, make)
  return {
    size = function(d) return d.p:rows() - 1 end,
    stats = stats,
    log_base = log_base,
    theta = function(d)
      local K = d.p:rows()
      return d.p:sub(1, K - 1, 1, 1):log() - math.log(d.p:get(K, 1))
    end,
    psi = function(t, d) return draws(d) * log1p_sum_exp(t) end,
    mean = function(t, d)
      local p = softmax_last(t)
      return p:sub(1, p:rows() - 1, 1, 1) * draws(d)
    end,
    from_theta = function(t, d, dist) return make(d, softmax_last(t), dist) end,
    mean_domain = function(m, d)
      local q = m / draws(d)
      return q:ge(0):all() and q:sum() <= 1 + 1e-12, "E[S] / draws must be a sub-probability vector"
    end,
    from_mean = function(m, d, dist)
      local q = m / draws(d)
      return make(d, luma.matrix.vstack{ q, luma.matrix{ { math.max(0, 1 - q:sum()) } } }, dist)
    end,
  }
end

F.Categorical = simplex_family(function() return 1 end,
  function(d, x)
    local K = d.p:rows()
    local out = luma.zeros(x:rows(), K - 1)
    for i = 1, x:rows() do
      local k = x:get(i, 1)
      if k < K then out:set(i, k, 1) end
    end
    return out
  end,
  function(_, x) return luma.zeros(x:rows(), 1) end,
  function(_, p, dist) return dist.Categorical{ p = p } end)

F.Multinomial = simplex_family(function(d) return d.n end,
  function(d, X) return X:sub(1, X:rows(), 1, d.d - 1):copy() end,
  function(d, X) return sf.lgamma(X + 1):sum(2) * -1 + sf.lgamma(d.n + 1) end,
  function(d, p, dist) return dist.Multinomial{ n = d.n, p = p } end)

F.Poisson = {
  size = function() return 1 end,
  stats = function(_, x) return x:copy() end,
  log_base = function(_, x) return sf.lgamma(x + 1) * -1 end,
  theta = function(d) return col{ math.log(d.lambda) } end,
  psi = function(t) return math.exp(t:get(1, 1)) end,
  mean = function(t) return col{ math.exp(t:get(1, 1)) } end,
  from_theta = function(t, _, dist) return dist.Poisson{ lambda = math.exp(t:get(1, 1)) } end,
  mean_domain = function(m) return m:get(1, 1) > 0, "E[x] must be > 0" end,
  from_mean = function(m, _, dist) return dist.Poisson{ lambda = m:get(1, 1) } end,
}

F.Exponential = {
  size = function() return 1 end,
  stats = function(_, x) return x:copy() end,
  log_base = function(_, x) return luma.zeros(x:rows(), 1) end,
  theta = function(d) return col{ -d.rate } end,
  psi = function(t) return -math.log(-t:get(1, 1)) end,
  mean = function(t) return col{ -1 / t:get(1, 1) } end,
  domain = function(t) return t:get(1, 1) < 0, "theta must be < 0" end,
  from_theta = function(t, _, dist) return dist.Exponential{ rate = -t:get(1, 1) } end,
  mean_domain = function(m) return m:get(1, 1) > 0, "E[x] must be > 0" end,
  from_mean = function(m, _, dist) return dist.Exponential{ rate = 1 / m:get(1, 1) } end,
}

F.Gamma = {
  size = function() return 2 end,
  stats = function(_, x) return luma.matrix.hstack{ x:log(), x } end,
  log_base = function(_, x) return luma.zeros(x:rows(), 1) end,
  theta = function(d) return col{ d.shape - 1, -d.rate } end,
  psi = function(t)
    local a, b = t:get(1, 1) + 1, -t:get(2, 1)
    return sf.lgamma(a) - a * math.log(b)
  end,
  mean = function(t)
    local a, b = t:get(1, 1) + 1, -t:get(2, 1)
    return col{ sf.digamma(a) - math.log(b), a / b }
  end,
  domain = function(t) return t:get(1, 1) > -1 and t:get(2, 1) < 0, "theta must have theta[1] > -1 and theta[2] < 0" end,
  from_theta = function(t, _, dist) return dist.Gamma{ shape = t:get(1, 1) + 1, rate = -t:get(2, 1) } end,
  mean_domain = function(m)
    return m:get(2, 1) > 0 and m:get(1, 1) < math.log(m:get(2, 1)),
      "E[log x] must be below log E[x] (Jensen), with E[x] > 0"
  end,
  from_mean = function(m, _, dist)
    local a = gamma_shape(m:get(1, 1) - math.log(m:get(2, 1)))
    return dist.Gamma{ shape = a, rate = a / m:get(2, 1) }
  end,
}

F.Beta = {
  size = function() return 2 end,
  stats = function(_, x) return luma.matrix.hstack{ x:log(), (x * -1):log1p() } end,
  log_base = function(_, x) return luma.zeros(x:rows(), 1) end,
  theta = function(d) return col{ d.a - 1, d.b - 1 } end,
  psi = function(t)
    local a, b = t:get(1, 1) + 1, t:get(2, 1) + 1
    return sf.lgamma(a) + sf.lgamma(b) - sf.lgamma(a + b)
  end,
  mean = function(t)
    local a, b = t:get(1, 1) + 1, t:get(2, 1) + 1
    return col{ sf.digamma(a) - sf.digamma(a + b), sf.digamma(b) - sf.digamma(a + b) }
  end,
  domain = function(t) return t:get(1, 1) > -1 and t:get(2, 1) > -1, "theta entries must be > -1" end,
  from_theta = function(t, _, dist) return dist.Beta{ a = t:get(1, 1) + 1, b = t:get(2, 1) + 1 } end,
  mean_domain = function(m)
    local g1, g2 = m:get(1, 1), m:get(2, 1)
    return g1 < 0 and g2 < 0 and math.exp(g1) + math.exp(g2) < 1,
      "E[log x] and E[log(1 - x)] must be negative with exp sum below 1"
  end,
  from_mean = function(m, _, dist)
    local a, b = beta_shapes(m:get(1, 1), m:get(2, 1))
    return dist.Beta{ a = a, b = b }
  end,
}

-- ------------------------------------------------------------ installing

-- The data x as the family's logpdf takes it, checked for the statistics:
-- a column (1-D; a number becomes 1 x 1) or rows of points.
local function data_of(self, x, fname, level)
  if type(x) == "number" then x = luma.matrix{ { x } } end
  if not luma.ismatrix(x) then
    fail(level + 1, "%s: x must be a number or a matrix, got %s", fname, args.type_of(x))
  end
  local k = rawget(self, "d")
  if k then
    if x:cols() ~= k then fail(level + 1, "%s: points must be rows of %d columns", fname, k) end
    return x
  end
  if x:cols() ~= 1 then x = x:reshape(x:rows() * x:cols(), 1) end
  return x
end

-- x (as data_of gives it), refused where it lies outside the support:
-- the statistics of such a point (the log of a negative number, a label
-- out of range) mean nothing.
local function in_support(self, x, fname, level)
  local out = self:logpdf(x):eq(-math.huge)
  if out:any() then
    for i = 1, out:rows() do
      if out:get(i, 1) == 1 then
        fail(level + 1, "%s: point %d of x lies outside the support (its density is 0)", fname, i)
      end
    end
  end
  return x
end

-- Checks theta's domain (or the mean's) and builds the distribution of
-- self's family (self gives what theta leaves fixed: K, n, d).
local function build(fam, name, what, v, self, dist, level)
  local check = fam.mean_domain
  if what == "theta" then check = fam.domain end
  if check then
    local ok, why = check(v, self)
    if not ok then
      fail(level + 1, "luma.dist.%s.%s: %s", name,
        what == "theta" and "from_natural" or "from_mean_statistics", why)
    end
  end
  return (what == "theta" and fam.from_theta or fam.from_mean)(v, self, dist)
end

--- natural.install(dist): adds the methods of METHOD_DOCS to each
-- family's class in dist.
function natural.install(dist)
  for name, fam in pairs(F) do
    local cls = dist[name]
    cls.natural_parameters = function(self) return fam.theta(self) end
    cls.log_partition = function(self) return fam.psi(fam.theta(self), self) end
    cls.mean_statistics = function(self) return fam.mean(fam.theta(self), self) end
    cls.sufficient_statistics = function(self, x)
      local fname = "luma.dist." .. name .. ".sufficient_statistics"
      return fam.stats(self, in_support(self, data_of(self, x, fname, 2), fname, 2))
    end
    cls.log_base_measure = function(self, x)
      local fname = "luma.dist." .. name .. ".log_base_measure"
      return fam.log_base(self, in_support(self, data_of(self, x, fname, 2), fname, 2))
    end
    -- from_natural(theta) and from_mean_statistics(m) are methods of an
    -- instance, which gives what theta leaves fixed (K, n, d).
    cls.from_natural = function(self, theta)
      local v = theta_arg("luma.dist." .. name .. ".from_natural", theta, fam.size(self), 2)
      return build(fam, name, "theta", v, self, dist, 2)
    end
    cls.from_mean_statistics = function(self, m)
      local v = theta_arg("luma.dist." .. name .. ".from_mean_statistics", m, fam.size(self), 2)
      return build(fam, name, "mean", v, self, dist, 2)
    end
    cls.fit_moments = function(self, x)
      local fname = "luma.dist." .. name .. ".fit_moments"
      x = in_support(self, data_of(self, x, fname, 2), fname, 2)
      if x:rows() == 0 then fail(2, "%s: x is empty", fname) end
      return build(fam, name, "mean", fam.stats(self, x):mean(1):t(), self, dist, 2)
    end
  end
end

natural.METHOD_DOCS = {
  natural_parameters = { "d:natural_parameters()", "The natural parameters theta of the "
    .. "exponential-family form p(x) = h(x) exp(<S(x), theta> - psi(theta)) (Wainwright and "
    .. "Jordan 2008, sec. 3.2; docs/STATS.md lists each family's S, theta and h). Returns an "
    .. "m x 1 matrix." },
  log_partition = { "d:log_partition()", "psi(theta) = log Z(theta), the log-partition "
    .. "function at the distribution's natural parameters. Returns a number." },
  mean_statistics = { "d:mean_statistics()", "E[S(x)] = grad psi(theta), the mean of the "
    .. "sufficient statistics (the mean parameters). Returns an m x 1 matrix." },
  sufficient_statistics = { "d:sufficient_statistics(x)", "S(x) for each point of x (a "
    .. "number or a column; rows of points for multivariate families). Returns an n x m "
    .. "matrix." },
  log_base_measure = { "d:log_base_measure(x)", "log h(x) for each point of x. Returns an "
    .. "n x 1 matrix." },
  from_natural = { "d:from_natural(theta)", "The distribution of the same family (and the "
    .. "same number of categories, trials or dimensions as d) with natural parameters theta. "
    .. "Returns a new distribution." },
  from_mean_statistics = { "d:from_mean_statistics(m)", "The distribution of the same family "
    .. "whose mean statistics E[S] equal m, i.e. grad psi(theta) = m solved for theta (in "
    .. "closed form, or by Newton's method for Gamma and Beta). Returns a new distribution." },
  fit_moments = { "d:fit_moments(x)", "Maximum likelihood by moment matching: "
    .. "from_mean_statistics of the mean of S over the points of x, grad psi(theta) = (1/n) "
    .. "sum S(x_i) (the same estimate as fit). Returns a new distribution." },
}

return natural
