--- luma.montecarlo: Monte Carlo estimation and samplers (notes 000 Ch. 12).
--
-- Samples are matrices with one draw per row.  Every function takes an
-- optional generator (rng) and otherwise uses luma.random's default, so
-- results are reproducible at a fixed seed.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local mc = {}

local fail = args.fail

local function rng_of(opts) return require("luma.estimator").rng(opts and opts.seed or opts and opts.rng) end

local function positive_int(fname, what, v)
  if math.type(v) ~= "integer" or v < 1 then
    fail(3, "luma.montecarlo.%s: %s must be an integer >= 1, got %s", fname, what, tostring(v))
  end
  return v
end

local function number_result(fname, v, i)
  if type(v) ~= "number" then
    fail(4, "luma.montecarlo.%s: the function returned a %s at draw %d, expected a number", fname, type(v), i)
  end
  if v ~= v then fail(4, "luma.montecarlo.%s: the function returned NaN at draw %d", fname, i) end
  return v
end

--- estimate(f, sample, n [, {rng}]) -> mean, standard_error: the plain
-- Monte Carlo estimate of E[f(X)] from n draws, sample(n, rng) returning
-- an n x d matrix (a luma.dist distribution's sample works) and f taking
-- one row (a 1 x d matrix) and returning a number.  The standard error is
-- s / sqrt(n) (variance of the estimator proportional to 1/n).
function mc.estimate(f, sample, n, opts)
  positive_int("estimate", "n", n)
  if type(f) ~= "function" then fail(2, "luma.montecarlo.estimate: f must be a function") end
  if type(sample) ~= "function" and (type(sample) ~= "table" or sample.sample == nil) then
    fail(2, "luma.montecarlo.estimate: sample must be a function or a distribution, got %s",
      type(sample))
  end
  local rng = rng_of(opts)
  local X = type(sample) == "function" and sample(n, rng) or sample:sample(n, rng)
  local values = luma.zeros(n, 1)
  for i = 1, n do values:set(i, 1, number_result("estimate", f(X:row(i)), i)) end
  return values:mean(), n > 1 and math.sqrt(values:var(nil, 1) / n) or math.huge
end

--- importance_sampling(f, log_p, proposal, n [, {rng}]) -> estimate,
-- weights, ess: self-normalized importance sampling of E_p[f] with an
-- unnormalized target log_p(row) and a proposal distribution (sample and
-- logpdf); the effective sample size is (sum w)^2 / sum w^2.
function mc.importance_sampling(f, log_p, proposal, n, opts)
  positive_int("importance_sampling", "n", n)
  local rng = rng_of(opts)
  local X = proposal:sample(n, rng)
  local logq = proposal:logpdf(X)
  local logw = luma.zeros(n, 1)
  for i = 1, n do
    logw:set(i, 1, number_result("importance_sampling", log_p(X:row(i)), i) - logq:get(i, 1))
  end
  local w = (logw - logw:max()):exp()
  w = w / w:sum()
  local est = 0
  for i = 1, n do est = est + w:get(i, 1) * number_result("importance_sampling", f(X:row(i)), i) end
  return est, w, 1 / w:pow(2):sum()
end

--- rejection_sampling(log_p, proposal, c, n [, {rng, max_tries}]) ->
-- samples, acceptance_rate: draws from p (possibly unnormalized) using the
-- envelope c q: accept x ~ q with probability p(x) / (c q(x)).  A point
-- where p > c q is an error (the envelope is too low).
function mc.rejection_sampling(log_p, proposal, c, n, opts)
  positive_int("rejection_sampling", "n", n)
  if type(c) ~= "number" or not (c > 0) then fail(2, "luma.montecarlo.rejection_sampling: c must be > 0") end
  local rng = rng_of(opts)
  local max_tries = (opts and opts.max_tries) or 1000 * n
  local out, got, tries = nil, 0, 0
  while got < n do
    local batch = proposal:sample(math.max(n - got, 16), rng)
    local lq = proposal:logpdf(batch)
    for i = 1, batch:rows() do
      tries = tries + 1
      local ratio = math.exp(number_result("rejection_sampling", log_p(batch:row(i)), tries)
        - lq:get(i, 1)) / c
      if ratio > 1 + 1e-12 then
        fail(2, "luma.montecarlo.rejection_sampling: p > c q at a draw (ratio %g): raise c", ratio)
      end
      if rng:random() < ratio then
        out = out or luma.zeros(n, batch:cols())
        got = got + 1
        out:row(got):assign(batch:row(i))
        if got == n then break end
      end
    end
    if tries > max_tries then
      fail(2, "luma.montecarlo.rejection_sampling: fewer than %d acceptances in %d tries", n, tries)
    end
  end
  return out, n / tries
end

--- metropolis_hastings{log_density, init, n, proposal, log_proposal,
-- step = 1, burn_in = 0, thin = 1, rng} -> samples (n x d), acceptance
-- rate.  proposal(x, rng) -> x' (default: a Gaussian random walk with sd
-- step); log_proposal(to, from) for asymmetric proposals (nil: symmetric).
-- Acceptance min(1, p(x') q(x | x') / (p(x) q(x' | x))); a rejected
-- proposal repeats the current state as the next sample (notes 000 L694).
function mc.metropolis_hastings(opts)
  if type(opts) ~= "table" or type(opts.log_density) ~= "function" then
    fail(2, "luma.montecarlo.metropolis_hastings needs {log_density = f, init = x0, n = count}")
  end
  local n = positive_int("metropolis_hastings", "n", opts.n)
  local x = luma.ismatrix(opts.init) and opts.init:reshape(1, -1):copy() or luma.matrix{ { opts.init } }
  local d = x:cols()
  local rng = rng_of(opts)
  local step = opts.step or 1
  local propose = opts.proposal or function(cur, g) return cur + g:normal(1, d, 0, step) end
  local burn, thin = opts.burn_in or 0, opts.thin or 1
  local lp = number_result("metropolis_hastings", opts.log_density(x), 0)
  if lp == -math.huge then fail(2, "luma.montecarlo.metropolis_hastings: init has zero density") end
  local out = luma.zeros(n, d)
  local accepted, steps, kept = 0, 0, 0
  while kept < n do
    steps = steps + 1
    local y = propose(x, rng)
    local lpy = opts.log_density(y)
    if type(lpy) ~= "number" or lpy ~= lpy then
      fail(2, "luma.montecarlo.metropolis_hastings: log_density returned %s at step %d", tostring(lpy), steps)
    end
    local log_ratio = lpy - lp
    if opts.log_proposal then
      log_ratio = log_ratio + opts.log_proposal(x, y) - opts.log_proposal(y, x)
    end
    if math.log(rng:random()) < log_ratio then
      x, lp = y, lpy
      accepted = accepted + 1
    end
    if steps > burn and (steps - burn) % thin == 0 then
      kept = kept + 1
      out:row(kept):assign(x)
    end
  end
  return out, accepted / steps
end

--- gibbs{conditionals, init, n, burn_in = 0, order = "fixed" | "random",
-- rng} -> samples: sweeps the coordinates, drawing x_i from
-- conditionals[i](x, rng) (which returns a number) given the rest.
function mc.gibbs(opts)
  if type(opts) ~= "table" or type(opts.conditionals) ~= "table" then
    fail(2, "luma.montecarlo.gibbs needs {conditionals = {f1, f2, ...}, init = x0, n = count}")
  end
  local n = positive_int("gibbs", "n", opts.n)
  local d = #opts.conditionals
  local x = luma.ismatrix(opts.init) and opts.init:reshape(1, -1):copy() or luma.zeros(1, d)
  if x:cols() ~= d then fail(2, "luma.montecarlo.gibbs: init has %d entries for %d conditionals", x:cols(), d) end
  local rng = rng_of(opts)
  local order = opts.order or "fixed"
  if order ~= "fixed" and order ~= "random" then fail(2, "luma.montecarlo.gibbs: order must be fixed or random") end
  local out, burn = luma.zeros(n, d), opts.burn_in or 0
  for sweep = 1, burn + n do
    local idx = order == "random" and rng:permutation(d) or nil
    for k = 1, d do
      local i = idx and math.tointeger(idx:get(k, 1)) or k
      x:set(1, i, number_result("gibbs", opts.conditionals[i](x, rng), sweep))
    end
    if sweep > burn then out:row(sweep - burn):assign(x) end
  end
  return out
end

--- effective_sample_size(chain) -> 1 x d: n / (1 + 2 sum rho_k) per
-- column, the autocorrelations summed over Geyer's initial positive
-- sequence (pairs rho_2m + rho_2m+1 while positive).
function mc.effective_sample_size(chain)
  if not luma.ismatrix(chain) or chain:rows() < 4 then
    fail(2, "luma.montecarlo.effective_sample_size: needs a chain of at least 4 rows")
  end
  local n = chain:rows()
  local out = luma.zeros(1, chain:cols())
  for j = 1, chain:cols() do
    local c = chain:col(j) - chain:col(j):mean()
    local var = c:pow(2):mean()
    if var == 0 then
      out:set(1, j, n)
    else
      local function rho(k) return c:sub(1, n - k):dot(c:sub(k + 1, n)) / (n * var) end
      local sum, m = -1, 0 -- tau = -1 + 2 sum_m (rho_2m + rho_2m+1), rho_0 = 1
      while 2 * m + 1 < n do
        local pair = (m == 0 and 1 or rho(2 * m)) + rho(2 * m + 1)
        if pair <= 0 then break end
        sum = sum + 2 * pair
        m = m + 1
      end
      out:set(1, j, n / math.max(sum, 1e-12))
    end
  end
  return out
end

local RNG = { name = "rng", default = "luma.random.default()", doc = "the generator" }
local SEED = { name = "seed", default = "nil", doc = "an integer seed or a generator, instead "
  .. "of rng" }
luma.doc.set_members(mc, "luma.montecarlo", {
  estimate = { signature = "estimate(f, sample, n [, opts]) -> mean, standard_error",
    params = { RNG, SEED },
    doc = "The plain Monte Carlo estimate of E[f(X)] from n draws: sample(n, rng) returns "
      .. "an n x d matrix (a luma.dist distribution's sample works), f takes one row and "
      .. "returns a number; the standard error is s / sqrt(n)." },
  importance_sampling = {
    signature = "importance_sampling(f, log_p, proposal, n [, opts]) -> estimate, weights, ess",
    params = { RNG, SEED },
    doc = "Self-normalized importance sampling of E_p[f] with an unnormalized target "
      .. "log_p(row) and a proposal distribution (with sample and logpdf); ess is the "
      .. "effective sample size (sum w)^2 / sum w^2 (Bishop, Pattern Recognition and "
      .. "Machine Learning, sec. 11.1.4)." },
  rejection_sampling = {
    signature = "rejection_sampling(log_p, proposal, c, n [, opts]) -> samples, acceptance_rate",
    params = { RNG, SEED, { name = "max_tries", default = "1000 n", doc = "proposals drawn at most" } },
    doc = "Draws n samples from p (possibly unnormalized) under the envelope c q: x ~ q is "
      .. "accepted with probability p(x) / (c q(x)); a point where p > c q is an error "
      .. "(Bishop, sec. 11.1.2)." },
  metropolis_hastings = { signature = "metropolis_hastings(opts) -> samples, acceptance_rate",
    params = { { name = "log_density", doc = "log of the (unnormalized) target at a row" },
      { name = "init", doc = "the starting point, 1 x d" },
      { name = "n", doc = "the number of samples kept" },
      { name = "proposal", default = "Gaussian random walk", doc = "proposal(x, rng) -> x'" },
      { name = "log_proposal", doc = "log q(to | from) for asymmetric proposals (nil: "
        .. "symmetric)" },
      { name = "step", default = 1, doc = "the random walk's standard deviation" },
      { name = "burn_in", default = 0, doc = "steps discarded first" },
      { name = "thin", default = 1, doc = "keep every thin-th step" }, RNG, SEED },
    doc = "The Metropolis-Hastings sampler: accept with probability min(1, p(x') q(x | x') / "
      .. "(p(x) q(x' | x))), a rejection repeating the current state (Bishop, sec. 11.2.2). "
      .. "Returns samples (n x d) and the acceptance rate." },
  gibbs = { signature = "gibbs(opts) -> samples",
    params = { { name = "conditionals", doc = "conditionals[i](x, rng) draws x_i given the "
        .. "rest" },
      { name = "init", doc = "the starting point, 1 x d" },
      { name = "n", doc = "the number of sweeps kept" },
      { name = "burn_in", default = 0, doc = "sweeps discarded first" },
      { name = "order", default = "fixed", doc = "\"fixed\" or \"random\" coordinate order" },
      RNG, SEED },
    doc = "Gibbs sampling: sweeps the coordinates, drawing each from its conditional given "
      .. "the rest (Bishop, sec. 11.3). Returns the samples, n x d." },
  effective_sample_size = { signature = "effective_sample_size(chain) -> 1 x d matrix",
    doc = "n / (1 + 2 sum rho_k) per column of a chain, the autocorrelations summed over "
      .. "Geyer's initial positive sequence (Geyer, Practical Markov Chain Monte Carlo, "
      .. "Statistical Science, 1992)." },
})

-- Each function checks its options against those documented above and
-- raises its errors at its caller's line.
args.guard_functions(mc, "luma.montecarlo")

luma.doc.set(mc, { name = "luma.montecarlo",
  doc = "Monte Carlo (Bishop, Pattern Recognition and Machine Learning, ch. 11): estimate "
    .. "with standard errors, importance_sampling "
    .. "(self-normalized, with the effective sample size), rejection_sampling, "
    .. "metropolis_hastings, gibbs and effective_sample_size." })

return mc
