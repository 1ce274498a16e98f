--- luma.info: information measures in nats (base e) or any base.
--
-- Probability vectors are matrices or tables of non-negative numbers
-- summing to 1 (within 1e-8); joint tables are matrices of probabilities
-- (rows: X, columns: Y).  0 log 0 = 0.  Every function takes an optional
-- options table {base = b} (2 gives bits).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local info = {}

local fail = args.fail

local function log_base(opts)
  local base = opts and opts.base
  if base == nil then return 1 end
  if type(base) ~= "number" or not (base > 0) or base == 1 then
    fail(3, "luma.info: base must be a number > 0 other than 1, got %s", tostring(base))
  end
  return math.log(base)
end

local function probabilities(fname, p, what, shape_ok)
  local m = luma.ismatrix(p) and p or (type(p) == "table" and luma.matrix(p))
  if not m then fail(3, "luma.info.%s: %s must be a matrix or a table of probabilities", fname, what) end
  if not shape_ok and m:cols() ~= 1 and m:rows() ~= 1 then
    fail(3, "luma.info.%s: %s must be a vector", fname, what)
  end
  if m:lt(0):any() or not m:isfinite():all() then
    fail(3, "luma.info.%s: %s has a negative or non-finite entry", fname, what)
  end
  if math.abs(m:sum() - 1) > 1e-8 then
    fail(3, "luma.info.%s: %s sums to %s, not 1", fname, what, tostring(m:sum()))
  end
  return shape_ok and m or m:flatten()
end

-- sum p log p over the positive entries.
local function plogp(p)
  local pos = p:select(p:gt(0))
  return (pos:mul(pos:log())):sum()
end

--- entropy(p [, opts]) -> H(p) = -sum p log p.
function info.entropy(p, opts)
  return -plogp(probabilities("entropy", p, "p")) / log_base(opts)
end

--- cross_entropy(p, q [, opts]) -> -sum p log q (inf where q = 0 < p).
function info.cross_entropy(p, q, opts)
  p, q = probabilities("cross_entropy", p, "p"), probabilities("cross_entropy", q, "q")
  if p:rows() ~= q:rows() then
    fail(2, "luma.info.cross_entropy: p has %d entries but q has %d", p:rows(), q:rows())
  end
  local mask = p:gt(0)
  if q:select(mask):eq(0):any() then return math.huge end
  return -(p:select(mask):mul(q:select(mask):log())):sum() / log_base(opts)
end

--- kl_divergence(p, q [, opts]) -> KL(p || q) = sum p log(p / q).
function info.kl_divergence(p, q, opts)
  p, q = probabilities("kl_divergence", p, "p"), probabilities("kl_divergence", q, "q")
  if p:rows() ~= q:rows() then
    fail(2, "luma.info.kl_divergence: p has %d entries but q has %d", p:rows(), q:rows())
  end
  local mask = p:gt(0)
  local qs = q:select(mask)
  if qs:eq(0):any() then return math.huge end
  local ps = p:select(mask)
  return (ps:mul((ps:div(qs)):log())):sum() / log_base(opts)
end

--- kl_normal(mu1, var1, mu2, var2 [, opts]) -> KL(N1 || N2), closed form.
function info.kl_normal(mu1, var1, mu2, var2, opts)
  args.arg(type(mu1) == "number", 1, "kl_normal", "number", mu1, 2)
  args.arg(type(mu2) == "number", 3, "kl_normal", "number", mu2, 2)
  local variances = { var1, var2 }
  for i = 1, 2 do
    local v = variances[i]
    if type(v) ~= "number" or not (v > 0) then
      fail(2, "luma.info.kl_normal: variance %d must be > 0, got %s", i, tostring(v))
    end
  end
  return (0.5 * (math.log(var2 / var1) + (var1 + (mu1 - mu2) ^ 2) / var2 - 1)) / log_base(opts)
end

--- kl_mvnormal(mu1, S1, mu2, S2 [, opts]) -> KL(N(mu1, S1) || N(mu2, S2)) =
-- (tr(S2^-1 S1) + (mu2 - mu1)' S2^-1 (mu2 - mu1) - d + log det S2 / det S1) / 2.
function info.kl_mvnormal(mu1, S1, mu2, S2, opts)
  local given = { mu1, S1, mu2, S2 }
  for i = 1, 4 do args.matrix(given[i], i, "kl_mvnormal", 2) end
  local d = S1:rows()
  if S1:cols() ~= d or S2:rows() ~= d or S2:cols() ~= d or mu1:rows() * mu1:cols() ~= d
    or mu2:rows() * mu2:cols() ~= d then
    fail(2, "luma.info.kl_mvnormal: the means must have d entries and the covariances be d x d "
      .. "(d = %d, the rows of S1)", d)
  end
  mu1, mu2 = mu1:flatten(), mu2:flatten()
  local la = luma.linalg
  local diff = mu2 - mu1
  local term = la.solve(S2, S1, { assume = "spd" }):trace()
    + (diff:t() * la.solve(S2, diff, { assume = "spd" })):get(1, 1) - d
  local _, ld2 = la.slogdet(S2)
  local _, ld1 = la.slogdet(S1)
  return 0.5 * (term + ld2 - ld1) / log_base(opts)
end

--- joint_entropy(P [, opts]) -> H(X, Y) of a joint table.
function info.joint_entropy(P, opts)
  return -plogp(probabilities("joint_entropy", P, "P", true)) / log_base(opts)
end

--- conditional_entropy(P [, opts]) -> H(Y | X) = H(X, Y) - H(X), with X
-- indexing the rows of the joint table.
function info.conditional_entropy(P, opts)
  P = probabilities("conditional_entropy", P, "P", true)
  return (-plogp(P) + plogp(P:sum(2))) / log_base(opts)
end

--- mutual_information(P [, opts]) -> I(X; Y) = H(X) + H(Y) - H(X, Y).
function info.mutual_information(P, opts)
  P = probabilities("mutual_information", P, "P", true)
  local mi = -plogp(P:sum(2)) - plogp(P:sum(1)) + plogp(P)
  return math.max(mi, 0) / log_base(opts)
end

-- The joint table of two label vectors (labels: any numbers).
local function joint_table(fname, x, y)
  if not luma.ismatrix(x) or not luma.ismatrix(y) then fail(3, "luma.info.%s: labels must be matrices", fname) end
  x, y = x:flatten(), y:flatten()
  if x:rows() ~= y:rows() or x:rows() == 0 then
    fail(3, "luma.info.%s: x has %d labels but y has %d", fname, x:rows(), y:rows())
  end
  if x:isnan():any() or y:isnan():any() then fail(3, "luma.info.%s: labels contain NaN", fname) end
  local xs, ys = x:unique(), y:unique()
  local xi, yi = {}, {}
  for i = 1, xs:rows() do xi[xs:get(i, 1)] = i end
  for j = 1, ys:rows() do yi[ys:get(j, 1)] = j end
  local P = luma.zeros(xs:rows(), ys:rows())
  for k = 1, x:rows() do
    local a, b = xi[x:get(k, 1)], yi[y:get(k, 1)]
    P:set(a, b, P:get(a, b) + 1)
  end
  return P / x:rows()
end

--- entropy_labels(x [, opts]) -> the entropy of the label frequencies.
function info.entropy_labels(x, opts)
  local P = joint_table("entropy_labels", x, x)
  return -plogp(P:sum(2)) / log_base(opts)
end

--- mutual_information_labels(x, y [, opts]) -> I of the empirical joint.
function info.mutual_information_labels(x, y, opts)
  local P = joint_table("mutual_information_labels", x, y)
  return math.max(-plogp(P:sum(2)) - plogp(P:sum(1)) + plogp(P), 0) / log_base(opts)
end

-- Every measure takes {base = b} last (natural logarithms, nats, when
-- absent; 2 gives bits).
local BASE = { { name = "base", default = "e", doc = "the logarithm's base (2: bits)" } }
luma.doc.set_members(info, "luma.info", {
  entropy = { signature = "entropy(p [, opts]) -> number", params = BASE,
    doc = "The Shannon entropy H(p) = -sum p log p of a probability vector (0 log 0 = 0)." },
  cross_entropy = { signature = "cross_entropy(p, q [, opts]) -> number", params = BASE,
    doc = "The cross-entropy -sum p log q (inf where q = 0 < p)." },
  kl_divergence = { signature = "kl_divergence(p, q [, opts]) -> number", params = BASE,
    doc = "The Kullback-Leibler divergence KL(p || q) = sum p log(p / q) (Cover and Thomas, "
      .. "Elements of Information Theory, sec. 2.3)." },
  kl_normal = { signature = "kl_normal(mu1, var1, mu2, var2 [, opts]) -> number",
    params = BASE, doc = "KL(N(mu1, var1) || N(mu2, var2)) in closed form." },
  kl_mvnormal = { signature = "kl_mvnormal(mu1, S1, mu2, S2 [, opts]) -> number",
    params = BASE, doc = "KL(N(mu1, S1) || N(mu2, S2)) = (tr(S2^-1 S1) + (mu2 - mu1)' "
      .. "S2^-1 (mu2 - mu1) - d + log(det S2 / det S1)) / 2." },
  joint_entropy = { signature = "joint_entropy(P [, opts]) -> number", params = BASE,
    doc = "H(X, Y) of a joint probability table (rows X, columns Y)." },
  conditional_entropy = { signature = "conditional_entropy(P [, opts]) -> number",
    params = BASE, doc = "H(Y | X) = H(X, Y) - H(X) of a joint table, X indexing its rows." },
  mutual_information = { signature = "mutual_information(P [, opts]) -> number",
    params = BASE, doc = "I(X; Y) = H(X) + H(Y) - H(X, Y) of a joint table." },
  entropy_labels = { signature = "entropy_labels(x [, opts]) -> number", params = BASE,
    doc = "The entropy of the frequencies of the labels in x." },
  mutual_information_labels = {
    signature = "mutual_information_labels(x, y [, opts]) -> number", params = BASE,
    doc = "The mutual information of two label vectors' empirical joint distribution." },
})

luma.doc.set(info, { name = "luma.info",
  doc = "Information measures: entropy, cross_entropy, kl_divergence, kl_normal, kl_mvnormal, "
    .. "joint_entropy, conditional_entropy, mutual_information, entropy_labels, "
    .. "mutual_information_labels; nats unless {base = 2} (bits) or another base." })

-- Errors at the caller's line, options tables checked (util.args).
args.guard_functions(info, "luma.info")

return info
