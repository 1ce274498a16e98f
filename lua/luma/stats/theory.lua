--- luma.theory: learning-theory calculators (notes 003 §1.3-1.5, with
-- the errata listed there corrected).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local theory = {}

local fail = args.fail

local function positive_int(fname, what, v)
  if math.type(v) ~= "integer" or v < 1 then
    fail(3, "luma.theory.%s: %s must be an integer >= 1, got %s", fname, what, tostring(v))
  end
  return v
end

local function open_unit(fname, what, v)
  if type(v) ~= "number" or not (v > 0 and v < 1) then
    fail(3, "luma.theory.%s: %s must be in (0, 1), got %s", fname, what, tostring(v))
  end
  return v
end

local function positive(fname, what, v)
  if type(v) ~= "number" or not (v > 0) or v == math.huge then
    fail(3, "luma.theory.%s: %s must be a finite number > 0, got %s", fname, what, tostring(v))
  end
  return v
end

--- hoeffding(n, eps [, {range = 1, two_sided = true}]) ->
-- P(|mean - E mean| >= eps) <= 2 exp(-2 n eps^2 / range^2) for n variables
-- in intervals of width range (the square on (b - a) restored: notes 003
-- §1.3 erratum); one-sided without the 2.
function theory.hoeffding(n, eps, opts)
  opts = args.options("luma.theory.hoeffding", 3, opts, nil, { range = true, two_sided = true }, 2)
  positive_int("hoeffding", "n", n)
  positive("hoeffding", "eps", eps)
  local range = positive("hoeffding", "range", (opts and opts.range) or 1)
  local bound = math.exp(-2 * n * eps * eps / (range * range))
  if not (opts and opts.two_sided == false) then bound = 2 * bound end
  return math.min(1, bound)
end

--- union_bound(M, n, eps) -> 2 M exp(-2 eps^2 n): Hoeffding over M hypotheses.
function theory.union_bound(M, n, eps)
  positive_int("union_bound", "M", M)
  positive_int("union_bound", "n", n)
  positive("union_bound", "eps", eps)
  return math.min(1, 2 * M * math.exp(-2 * eps * eps * n))
end

--- growth_bound(N, k) -> sum_{i=0}^{k-1} C(N, i), N^(k-1) + 1: Sauer's
-- bound on the growth function for a break point k (the notes' garbled
-- formula corrected), and the polynomial that dominates it.
function theory.growth_bound(N, k)
  positive_int("growth_bound", "N", N)
  positive_int("growth_bound", "k", k)
  local sum, c = 0, 1
  for i = 0, k - 1 do
    if i > N then break end
    if i > 0 then c = c * (N - i + 1) / i end
    sum = sum + c
  end
  return sum, N ^ (k - 1) + 1
end

--- vc_bound(N, d_vc, delta) -> Omega = sqrt(8/N ln(4((2N)^d_vc + 1) / delta)):
-- with probability 1 - delta, E_out <= E_in + Omega (notes 003 §1.4, with
-- delta inside the logarithm where the notes print eps).
function theory.vc_bound(N, dvc, delta)
  positive_int("vc_bound", "N", N)
  if math.type(dvc) ~= "integer" or dvc < 0 then fail(2, "luma.theory.vc_bound: d_vc must be an integer >= 0") end
  open_unit("vc_bound", "delta", delta)
  local log_growth = math.log((2 * N) ^ dvc + 1)
  if log_growth == math.huge then log_growth = dvc * math.log(2 * N) end -- (2N)^d dominates
  return math.sqrt(8 / N * (math.log(4) + log_growth - math.log(delta)))
end

--- vc_sample_size(eps, delta, d_vc) -> the smallest N with
-- N >= 8 / eps^2 ln(4((2N)^d_vc + 1) / delta), by fixed-point iteration
-- from N = 1000, as in the textbook's example.
function theory.vc_sample_size(eps, delta, dvc)
  positive("vc_sample_size", "eps", eps)
  open_unit("vc_sample_size", "delta", delta)
  if math.type(dvc) ~= "integer" or dvc < 0 then fail(2, "luma.theory.vc_sample_size: d_vc must be an integer >= 0") end
  local N = 1000
  for _ = 1, 1000 do
    local next_N = 8 / (eps * eps) * (math.log(4) + math.log((2 * N) ^ dvc + 1) - math.log(delta))
    if math.abs(next_N - N) < 1e-9 * N then break end
    N = next_N
  end
  return math.ceil(N)
end

--- hoeffding_sample_size(eps, delta [, M = 1]) -> the smallest n with
-- 2 M exp(-2 eps^2 n) <= delta.
function theory.hoeffding_sample_size(eps, delta, M)
  positive("hoeffding_sample_size", "eps", eps)
  open_unit("hoeffding_sample_size", "delta", delta)
  M = M and positive_int("hoeffding_sample_size", "M", M) or 1
  return math.ceil(math.log(2 * M / delta) / (2 * eps * eps))
end

--- condorcet(p, m) -> the probability that a majority of m independent
-- voters, each right with probability p, is right (m odd).
function theory.condorcet(p, m)
  open_unit("condorcet", "p", p)
  positive_int("condorcet", "m", m)
  if m % 2 == 0 then fail(2, "luma.theory.condorcet: m must be odd, got %d", m) end
  local B = require("luma.stats.dist").Binomial{ n = m, p = p }
  return 1 - B:cdf((m - 1) // 2)
end

--- bootstrap_left_out(n) -> (1 - 1/n)^n, the probability that a given
-- point is missing from a bootstrap sample of size n (-> 1/e).
function theory.bootstrap_left_out(n)
  positive_int("bootstrap_left_out", "n", n)
  return (1 - 1 / n) ^ n
end

luma.doc.set_members(theory, "luma.theory", {
  hoeffding = { signature = "hoeffding(n, eps [, {range = 1, two_sided = true}]) -> number",
    doc = "Hoeffding's bound on P(|mean - E mean| >= eps) for the mean of n independent "
      .. "variables in an interval of width range: 2 exp(-2 n eps^2 / range^2), without "
      .. "the 2 one-sided (Abu-Mostafa, Magdon-Ismail and Lin, Learning From Data, eq. 1.4)." },
  union_bound = { signature = "union_bound(M, n, eps) -> number",
    doc = "Hoeffding's bound over M hypotheses, 2 M exp(-2 eps^2 n) (Learning From Data, "
      .. "eq. 1.6)." },
  growth_bound = { signature = "growth_bound(N, k) -> bound, polynomial",
    doc = "Sauer's bound sum_{i=0}^{k-1} C(N, i) on the growth function of a class with "
      .. "break point k, and the polynomial N^(k-1) + 1 that dominates it (Learning From "
      .. "Data, sec. 2.1.2)." },
  vc_bound = { signature = "vc_bound(N, d_vc, delta) -> number",
    doc = "The VC generalization error bar sqrt(8/N ln(4((2N)^d_vc + 1) / delta)): with "
      .. "probability 1 - delta, E_out <= E_in + that (Learning From Data, eq. 2.12)." },
  vc_sample_size = { signature = "vc_sample_size(eps, delta, d_vc) -> integer",
    doc = "The smallest N with N >= 8 / eps^2 ln(4((2N)^d_vc + 1) / delta), by fixed-point "
      .. "iteration from N = 1000 (Learning From Data, example 2.6)." },
  hoeffding_sample_size = { signature = "hoeffding_sample_size(eps, delta [, M = 1]) -> integer",
    doc = "The smallest n with 2 M exp(-2 eps^2 n) <= delta." },
  condorcet = { signature = "condorcet(p, m) -> number",
    doc = "Condorcet's jury theorem: the probability that a majority of m independent "
      .. "voters (m odd), each right with probability p, is right." },
  bootstrap_left_out = { signature = "bootstrap_left_out(n) -> number",
    doc = "(1 - 1/n)^n, the probability that a given point is missing from a bootstrap "
      .. "sample of size n (about 1/e = 0.368; Hastie, Tibshirani and Friedman, The "
      .. "Elements of Statistical Learning, sec. 7.11)." },
})

luma.doc.set(theory, { name = "luma.theory",
  doc = "Learning-theory calculators: hoeffding, union_bound, growth_bound (Sauer), vc_bound, "
    .. "vc_sample_size, hoeffding_sample_size, condorcet, bootstrap_left_out (Abu-Mostafa, "
    .. "Magdon-Ismail and Lin, Learning From Data, ch. 1-2)." })

return theory
