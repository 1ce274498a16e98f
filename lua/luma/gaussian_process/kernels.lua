--- luma.gaussian_process.kernels: covariance functions with hyperparameters
-- (Rasmussen & Williams 2006, Ch. 4 and §5.4; scikit-learn's
-- sklearn.gaussian_process.kernels, whose names, parameters, orderings
-- and defaults these follow so that fitted values can be compared).
--
-- A kernel is callable, k(X [, Y]) -> Gram matrix, like the fixed kernels
-- of luma.kernels, but its parameters are hyperparameters that a Gaussian
-- process fits: each has a value and bounds ({lower, upper}, or "fixed").
-- Fitting works on theta, the logs of the free values (positive
-- quantities, so the search is unconstrained in scale), within the logs of
-- the bounds; k:gradient(X) returns K and dK/dtheta_i for every element of
-- theta.  Sums k1 + k2 and products k1 * k2 (element-wise) are kernels,
-- their theta k1's followed by k2's; a number c in c * k or k + c is a
-- ConstantKernel(c) with default bounds, as in scikit-learn.  Within one
-- base kernel the hyperparameters are in alphabetical order (scikit-learn
-- sorts them so): RationalQuadratic's theta is (log alpha, log
-- length_scale).
--
-- Distances come from luma.pairwise on column-centred inputs: centring
-- changes no distance but shrinks |x|^2, the size of the cancellation
-- error of the Gram-matrix formula (docs/ARCHITECTURE.md, "Distances and
-- kernels"), which matters for inputs far from the origin (dates, ...).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local pairwise = luma.pairwise
local ismatrix = luma.ismatrix
local exp, log, sqrt, pi, huge = math.exp, math.log, math.sqrt, math.pi, math.huge

local kernels = {}

local Kernel = { __name = "luma.gaussian_process.Kernel" }
local methods = {}
Kernel.__index = methods

local is_kernel = args.is_named(Kernel.__name)
kernels.is_kernel = is_kernel

local fail = args.fail

local function is_positive(v)
  return type(v) == "number" and v > 0 and v < huge
end

-- ------------------------------------------------------ base definitions

-- Each base kind: its hyperparameters in theta order (name, default
-- value, whether a vector is allowed), and the other options.
local BASE = {
  ConstantKernel = { hp = { { "constant_value", 1 } } },
  WhiteKernel = { hp = { { "noise_level", 1 } } },
  RBF = { hp = { { "length_scale", 1, vector = true } } },
  Matern = { hp = { { "length_scale", 1, vector = true } }, nu = true },
  RationalQuadratic = { hp = { { "alpha", 1 }, { "length_scale", 1 } } },
  ExpSineSquared = { hp = { { "length_scale", 1 }, { "periodicity", 1 } } },
  DotProduct = { hp = { { "sigma_0", 1 } } },
}
local DEFAULT_BOUNDS = { 1e-5, 1e5 }
local MATERN_NU = { [0.5] = true, [1.5] = true, [2.5] = true, [huge] = true }

local function number_text(v)
  return string.format("%.3g", v)
end

-- A value of hyperparameter name: a number > 0, or (vector) a table or
-- matrix of them, kept as a list of numbers.
local function check_value(kind, name, v, vector, level)
  if vector and (type(v) == "table" or ismatrix(v)) then
    local list = {}
    if ismatrix(v) then
      for i = 1, v:rows() do for j = 1, v:cols() do list[#list + 1] = v:get(i, j) end end
    else
      for i, x in ipairs(v) do list[i] = x end
    end
    if #list == 0 then fail(level + 1, "%s: %s must not be empty", kind, name) end
    for i, x in ipairs(list) do
      if not is_positive(x) then
        fail(level + 1, "%s: %s[%d] must be a finite number > 0, got %s", kind, name, i, tostring(x))
      end
    end
    return list
  end
  if not is_positive(v) then
    fail(level + 1, "%s: %s must be a finite number > 0%s, got %s", kind, name,
      vector and " (or a list of them, one per feature)" or "", tostring(v))
  end
  return v
end

-- Bounds: "fixed" or {lower, upper} with 0 < lower < upper < inf.
local function check_bounds(kind, name, b, level)
  if b == nil then return { DEFAULT_BOUNDS[1], DEFAULT_BOUNDS[2] } end
  if b == "fixed" then return "fixed" end
  local lo, hi
  if type(b) == "table" then lo, hi = b[1], b[2] end
  if not (is_positive(lo) and is_positive(hi) and lo < hi) or (type(b) == "table" and #b ~= 2) then
    local shown = type(b) == "table" and ("{" .. tostring(lo) .. ", " .. tostring(hi) .. "}")
      or tostring(b)
    fail(level + 1, "%s: %s_bounds must be \"fixed\" or {lower, upper} with 0 < lower < upper "
      .. "< inf, got %s", kind, name, shown)
  end
  return { lo, hi }
end

local function make_base(kind, opts, level)
  level = level + 1
  if opts ~= nil and type(opts) ~= "table" then
    fail(level, "%s: options table expected, got %s", kind, type(opts))
  end
  opts = opts or {}
  local def = BASE[kind]
  local valid = {}
  for _, h in ipairs(def.hp) do
    valid[h[1]] = true
    valid[h[1] .. "_bounds"] = true
  end
  if def.nu then valid.nu = true end
  for key in pairs(opts) do
    if not valid[key] then
      local names = {}
      for name in pairs(valid) do names[#names + 1] = name end
      table.sort(names)
      fail(level, "%s: unknown option '%s' (valid: %s)", kind, tostring(key), table.concat(names, ", "))
    end
  end
  local k = { kind = kind, values = {}, limits = {} }
  for _, h in ipairs(def.hp) do
    local name = h[1]
    local v = opts[name]
    if v == nil then v = h[2] end
    k.values[name] = check_value(kind, name, v, h.vector, level)
    k.limits[name] = check_bounds(kind, name, opts[name .. "_bounds"], level)
  end
  if def.nu then
    local nu = opts.nu == nil and 1.5 or opts.nu
    if not MATERN_NU[nu] then
      fail(level, "Matern: nu must be 0.5, 1.5, 2.5 or math.huge (the RBF limit), got %s", tostring(nu))
    end
    k.nu = nu
  end
  return setmetatable(k, Kernel)
end

-- -------------------------------------------------------------- geometry

-- The rows of X (and Y) divided by the length scale(s), centred with X's
-- column means (see the header).
local function scaled(X, Y, ls)
  local s = type(ls) == "table" and luma.matrix({ ls }):pow(-1) or 1 / ls
  local Xs = X:mul(s)
  local mu = Xs:mean(1)
  Xs:subtract(mu, Xs)
  local Ys
  if Y then
    Ys = Y:mul(s)
    Ys:subtract(mu, Ys)
  end
  return Xs, Ys
end

local function sqdist(Xs, Ys) return pairwise.distances(Xs, Ys, "sqeuclidean") end

-- (x_ik - x_jk)^2 for one column x of the scaled self inputs: exact
-- differences (the gradients of anisotropic kernels).
local function feature_sqdist(Xs, k)
  local x = Xs:col(k)
  local D = x - x:t()
  return D:mul(D, D)
end

local function check_width(k, X, level)
  local ls = k.values.length_scale
  if type(ls) == "table" and #ls ~= X:cols() then
    fail(level + 1, "%s: length_scale has %d values but X has %d features", k.kind, #ls, X:cols())
  end
end

-- The number of free elements of one hyperparameter.
local function free_count(k, name)
  if k.limits[name] == "fixed" then return 0 end
  local v = k.values[name]
  return type(v) == "table" and #v or 1
end

-- ------------------------------------------------------------- base gram

-- gram[kind](k, X, Y) -> K; grad[kind](k, X) -> K, {dK/dtheta_i} (free
-- hyperparameters only, theta order).  All results are new matrices.
local gram, diag, grad = {}, {}, {}

function gram.ConstantKernel(k, X, Y)
  return luma.full(X:rows(), (Y or X):rows(), k.values.constant_value)
end
function diag.ConstantKernel(k, X) return luma.full(X:rows(), 1, k.values.constant_value) end
function grad.ConstantKernel(k, X)
  local K = gram.ConstantKernel(k, X)
  if free_count(k, "constant_value") == 0 then return K, {} end
  return K, { K:copy() } -- d(c)/d(log c) = c
end

-- White noise: noise_level on the diagonal of a self Gram matrix only;
-- k(X, Y) with Y given is zero (scikit-learn's convention: noise belongs
-- to the observations, not to the latent function at new points).
function gram.WhiteKernel(k, X, Y)
  if Y then return luma.zeros(X:rows(), Y:rows()) end
  return luma.eye(X:rows()) * k.values.noise_level
end
function diag.WhiteKernel(k, X) return luma.full(X:rows(), 1, k.values.noise_level) end
function grad.WhiteKernel(k, X)
  local K = gram.WhiteKernel(k, X)
  if free_count(k, "noise_level") == 0 then return K, {} end
  return K, { K:copy() }
end

-- RBF: exp(-|x - y|^2 / (2 l^2)) (R&W eq. 4.9; notes 003 §1.21's
-- exp(-|x - y|^2 / (2 sigma^2)) with sigma = l); one l per feature gives
-- automatic relevance determination (R&W eq. 5.2).
function gram.RBF(k, X, Y)
  check_width(k, X, 3)
  local Xs, Ys = scaled(X, Y, k.values.length_scale)
  local D = sqdist(Xs, Ys)
  return D:mul(-0.5, D):exp(D)
end
function diag.RBF(_, X) return luma.ones(X:rows(), 1) end
function grad.RBF(k, X)
  check_width(k, X, 3)
  local ls = k.values.length_scale
  local Xs = scaled(X, nil, ls)
  local D = sqdist(Xs)
  local K = D * -0.5
  K:exp(K)
  if free_count(k, "length_scale") == 0 then return K, {} end
  -- dK/dlog l = K |x - y|^2 / l^2 (per feature: K (x_k - y_k)^2 / l_k^2)
  if type(ls) ~= "table" then return K, { D:mul(K, D) } end
  local G = {}
  for f = 1, #ls do
    local Df = feature_sqdist(Xs, f)
    G[f] = Df:mul(K, Df)
  end
  return K, G
end

-- Matern with nu in {1/2, 3/2, 5/2} (R&W eq. 4.14 and 4.17), r = |x - y| / l:
--   nu = 1/2: exp(-r);  3/2: (1 + sqrt3 r) exp(-sqrt3 r);
--   5/2: (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r);  inf: the RBF.
local function matern_of(nu, R)
  if nu == 0.5 then return (-R):exp() end
  if nu == 1.5 then
    local a = R * sqrt(3)
    return (a + 1):mul((-a):exp())
  end
  if nu == 2.5 then
    local a = R * sqrt(5)
    return (a + 1 + R:pow(2) * (5 / 3)):mul((-a):exp())
  end
  return (R:pow(2) * -0.5):exp()
end

function gram.Matern(k, X, Y)
  check_width(k, X, 3)
  local Xs, Ys = scaled(X, Y, k.values.length_scale)
  return matern_of(k.nu, pairwise.distances(Xs, Ys, "euclidean"))
end
diag.Matern = diag.RBF
function grad.Matern(k, X)
  check_width(k, X, 3)
  local ls, nu = k.values.length_scale, k.nu
  local Xs = scaled(X, nil, ls)
  local D2 = sqdist(Xs)
  local R = D2:sqrt()
  local K = matern_of(nu, R)
  if free_count(k, "length_scale") == 0 then return K, {} end
  -- dK/dlog l_k = f(r) d_k^2 with d_k^2 = (x_k - y_k)^2 / l_k^2 (the
  -- isotropic case: d^2 = r^2) and f(r) = K / r (nu = 1/2; 0 at r = 0),
  -- 3 exp(-sqrt3 r) (3/2), 5/3 (1 + sqrt5 r) exp(-sqrt5 r) (5/2), K (inf).
  local F
  if nu == 0.5 then
    F = luma.matrix.where(R:gt(0), K:div(R), 0)
  elseif nu == 1.5 then
    F = (R * -sqrt(3)):exp():mul(3)
  elseif nu == 2.5 then
    local a = R * sqrt(5)
    F = (a + 1):mul((-a):exp()):mul(5 / 3)
  else
    F = K
  end
  if type(ls) ~= "table" then return K, { D2:mul(F, D2) } end
  local G = {}
  for f = 1, #ls do
    local Df = feature_sqdist(Xs, f)
    G[f] = Df:mul(F, Df)
  end
  return K, G
end

-- Rational quadratic (R&W eq. 4.19): (1 + |x - y|^2 / (2 alpha l^2))^-alpha.
local function rq_parts(k, X, Y)
  local Xs, Ys = scaled(X, Y, 1)
  local D = sqdist(Xs, Ys)
  local a, l = k.values.alpha, k.values.length_scale
  local base = D * (1 / (2 * a * l * l)) + 1
  return D, base, base:pow(-a)
end
function gram.RationalQuadratic(k, X, Y)
  local _, _, K = rq_parts(k, X, Y)
  return K
end
diag.RationalQuadratic = diag.RBF
function grad.RationalQuadratic(k, X)
  local D, base, K = rq_parts(k, X)
  local a, l = k.values.alpha, k.values.length_scale
  local G = {}
  if free_count(k, "alpha") > 0 then
    -- dK/dlog alpha = K (-alpha log(base) + d^2 / (2 l^2 base))
    local t = base:log():mul(-a):add(D:div(base):mul(1 / (2 * l * l)))
    G[#G + 1] = t:mul(K, t)
  end
  if free_count(k, "length_scale") > 0 then
    -- dK/dlog l = d^2 K / (l^2 base)
    G[#G + 1] = D:mul(K):div(base):mul(1 / (l * l))
  end
  return K, G
end

-- Periodic (R&W eq. 4.31; MacKay 1998): exp(-2 sin^2(pi |x - y| / p) / l^2).
local function periodic_parts(k, X, Y)
  local Xs, Ys = scaled(X, Y, 1)
  local arg = pairwise.distances(Xs, Ys, "euclidean"):mul(pi / k.values.periodicity)
  local s = arg:sin()
  local l2 = k.values.length_scale ^ 2
  local K = s:pow(2):mul(-2 / l2):exp()
  return arg, s, K, l2
end
function gram.ExpSineSquared(k, X, Y)
  local _, _, K = periodic_parts(k, X, Y)
  return K
end
diag.ExpSineSquared = diag.RBF
function grad.ExpSineSquared(k, X)
  local arg, s, K, l2 = periodic_parts(k, X)
  local G = {}
  if free_count(k, "length_scale") > 0 then
    G[#G + 1] = s:pow(2):mul(K):mul(4 / l2) -- 4 sin^2 K / l^2
  end
  if free_count(k, "periodicity") > 0 then
    G[#G + 1] = arg:cos():mul(s):mul(arg):mul(K):mul(4 / l2) -- 4 arg cos sin K / l^2
  end
  return K, G
end

-- Dot product (R&W eq. 4.22 with sigma_p = I): sigma_0^2 + x.y, the
-- kernel of Bayesian linear regression with an N(0, sigma_0^2) intercept.
function gram.DotProduct(k, X, Y)
  local K = X * (Y or X):t()
  return K:add(k.values.sigma_0 ^ 2, K)
end
function diag.DotProduct(k, X)
  return X:pow(2):sum(2):add(k.values.sigma_0 ^ 2)
end
function grad.DotProduct(k, X)
  local K = gram.DotProduct(k, X)
  if free_count(k, "sigma_0") == 0 then return K, {} end
  return K, { luma.full(X:rows(), X:rows(), 2 * k.values.sigma_0 ^ 2) }
end

-- --------------------------------------------------------------- compound

local function evaluate(k, X, Y)
  if k.kind == "sum" then
    local K = evaluate(k.k1, X, Y)
    return K:add(evaluate(k.k2, X, Y), K)
  elseif k.kind == "product" then
    local K = evaluate(k.k1, X, Y)
    return K:mul(evaluate(k.k2, X, Y), K)
  end
  return gram[k.kind](k, X, Y)
end

local function diagonal(k, X)
  if k.kind == "sum" then
    local d = diagonal(k.k1, X)
    return d:add(diagonal(k.k2, X), d)
  elseif k.kind == "product" then
    local d = diagonal(k.k1, X)
    return d:mul(diagonal(k.k2, X), d)
  end
  return diag[k.kind](k, X)
end

local function gradient(k, X)
  if k.kind == "sum" then
    local K1, G1 = gradient(k.k1, X)
    local K2, G2 = gradient(k.k2, X)
    for _, g in ipairs(G2) do G1[#G1 + 1] = g end
    return K1:add(K2, K1), G1
  elseif k.kind == "product" then
    -- d(K1 K2) = dK1 K2 + K1 dK2, element-wise
    local K1, G1 = gradient(k.k1, X)
    local K2, G2 = gradient(k.k2, X)
    for _, g in ipairs(G1) do g:mul(K2, g) end
    for _, g in ipairs(G2) do G1[#G1 + 1] = g:mul(K1, g) end
    return K1:mul(K2, K1), G1
  end
  return grad[k.kind](k, X)
end

local function check_X(k, X, Y, level)
  if not ismatrix(X) then
    fail(level + 1, "%s: X must be a luma.Matrix, got %s", tostring(k), type(X))
  end
  if Y ~= nil then
    if not ismatrix(Y) then
      fail(level + 1, "%s: Y must be a luma.Matrix or nil, got %s", tostring(k), type(Y))
    end
    if Y:cols() ~= X:cols() then
      fail(level + 1, "%s: X has %d columns but Y has %d", tostring(k), X:cols(), Y:cols())
    end
  end
end

function Kernel.__call(k, X, Y)
  if not is_kernel(k) then args.bad_self("__call", Kernel.__name, k, 2) end
  check_X(k, X, Y, 2)
  return evaluate(k, X, Y)
end

--- k:diag(X): the column k(x_i, x_i) without the Gram matrix.
function methods.diag(k, X)
  check_X(k, X, nil, 2)
  return diagonal(k, X)
end

--- k:gradient(X) -> K, {dK/dtheta_1, ...}: the self Gram matrix and its
-- derivatives with respect to theta (the logs of the free values).
function methods.gradient(k, X)
  check_X(k, X, nil, 2)
  return gradient(k, X)
end

-- --------------------------------------------------- hyperparameter list

-- Visits the hyperparameters in theta order: fn(kernel, name, path).
local function each_hyper(k, fn, prefix)
  prefix = prefix or ""
  if k.kind == "sum" or k.kind == "product" then
    each_hyper(k.k1, fn, prefix .. "k1__")
    each_hyper(k.k2, fn, prefix .. "k2__")
    return
  end
  for _, h in ipairs(BASE[k.kind].hp) do fn(k, h[1], prefix .. h[1]) end
end

--- k:hyperparameters() -> list of {name, value, bounds, fixed}: names as
-- scikit-learn's (k1__length_scale for the first kernel of a sum or
-- product), values numbers or lists, bounds {lower, upper} or "fixed".
function methods.hyperparameters(k)
  local out = {}
  each_hyper(k, function(base, name, path)
    local v, b = base.values[name], base.limits[name]
    if type(v) == "table" then v = { table.unpack(v) } end
    out[#out + 1] = { name = path, value = v, fixed = b == "fixed",
      bounds = b == "fixed" and "fixed" or { b[1], b[2] } }
  end)
  return out
end

--- k:theta() -> p x 1 matrix of log hyperparameter values (free ones).
function methods.theta(k)
  local t = {}
  each_hyper(k, function(base, name)
    if base.limits[name] == "fixed" then return end
    local v = base.values[name]
    if type(v) == "table" then
      for _, x in ipairs(v) do t[#t + 1] = log(x) end
    else
      t[#t + 1] = log(v)
    end
  end)
  return luma.matrix(t)
end

--- k:n_dims() -> the length of theta.
function methods.n_dims(k)
  local n = 0
  each_hyper(k, function(base, name) n = n + free_count(base, name) end)
  return n
end

--- k:bounds() -> p x 2 matrix of the logs of the bounds of theta.
function methods.bounds(k)
  local B = luma.zeros(k:n_dims(), 2)
  local i = 0
  each_hyper(k, function(base, name)
    for _ = 1, free_count(base, name) do
      i = i + 1
      B:set(i, 1, log(base.limits[name][1]))
      B:set(i, 2, log(base.limits[name][2]))
    end
  end)
  return B
end

-- A copy of k whose free values are exp(theta[pos...]); returns it and
-- the next position.
local function with_theta(k, theta, pos)
  if k.kind == "sum" or k.kind == "product" then
    local k1, k2
    k1, pos = with_theta(k.k1, theta, pos)
    k2, pos = with_theta(k.k2, theta, pos)
    return setmetatable({ kind = k.kind, k1 = k1, k2 = k2 }, Kernel), pos
  end
  local c = setmetatable({ kind = k.kind, nu = k.nu, values = {}, limits = k.limits }, Kernel)
  for _, h in ipairs(BASE[k.kind].hp) do
    local name, v = h[1], k.values[h[1]]
    if k.limits[name] ~= "fixed" then
      if type(v) == "table" then
        local list = {}
        for j = 1, #v do list[j] = exp(theta:get(pos + j - 1, 1)) end
        v, pos = list, pos + #v
      else
        v, pos = exp(theta:get(pos, 1)), pos + 1
      end
    end
    c.values[name] = v
  end
  return c, pos
end

--- k:clone_with_theta(theta) -> a new kernel with the free values
-- exp(theta) (theta a p x 1 matrix or a list of numbers).
function methods.clone_with_theta(k, theta)
  local p = k:n_dims()
  if type(theta) == "table" then theta = args.relay(2, luma.matrix, theta) end
  if not ismatrix(theta) or theta:rows() * theta:cols() ~= p then
    fail(2, "bad argument #1 to 'clone_with_theta' (theta must have %d elements, the kernel's "
      .. "free hyperparameters)", p)
  end
  theta = theta:reshape(p, 1)
  if not theta:isfinite():all() then
    fail(2, "bad argument #1 to 'clone_with_theta' (theta contains NaN or Inf)")
  end
  return (with_theta(k, theta, 1))
end

--- k:params(): a base kernel's values and bounds (and nu) as a new table;
-- k1, k2 for a sum or product.
function methods.params(k)
  if k.kind == "sum" or k.kind == "product" then return { k1 = k.k1, k2 = k.k2 } end
  local p = {}
  for name, v in pairs(k.values) do
    p[name] = type(v) == "table" and { table.unpack(v) } or v
    p[name .. "_bounds"] = k.limits[name] == "fixed" and "fixed"
      or { k.limits[name][1], k.limits[name][2] }
  end
  p.nu = k.nu
  return p
end

-- --------------------------------------------------------------- algebra

local function operand(v, level)
  if is_kernel(v) then return v end
  if type(v) == "number" then return make_base("ConstantKernel", { constant_value = v }, level + 1) end
  fail(level + 1, "a Gaussian-process kernel combines with kernels and numbers > 0, not a %s", type(v))
end

-- (relayed: a bad operand, such as a number <= 0 made into a
-- ConstantKernel, is an error at the line of the expression)
Kernel.__add = args.relayed(function(a, b)
  return setmetatable({ kind = "sum", k1 = operand(a, 2), k2 = operand(b, 2) }, Kernel)
end)

Kernel.__mul = args.relayed(function(a, b)
  return setmetatable({ kind = "product", k1 = operand(a, 2), k2 = operand(b, 2) }, Kernel)
end)

local function text(k, outer)
  local kind, s = k.kind, nil
  if kind == "sum" then
    s = text(k.k1, 1) .. " + " .. text(k.k2, 1)
    if outer > 1 then s = "(" .. s .. ")" end
  elseif kind == "product" then
    s = text(k.k1, 2) .. " * " .. text(k.k2, 2)
  elseif kind == "ConstantKernel" then
    s = number_text(sqrt(k.values.constant_value)) .. "**2"
  else
    local parts = {}
    for _, h in ipairs(BASE[kind].hp) do
      local v = k.values[h[1]]
      if type(v) == "table" then
        local shown = {}
        for i, x in ipairs(v) do shown[i] = number_text(x) end
        v = "[" .. table.concat(shown, ", ") .. "]"
      else
        v = number_text(v)
      end
      parts[#parts + 1] = h[1] .. "=" .. v
    end
    if k.nu then parts[#parts + 1] = "nu=" .. (k.nu == huge and "inf" or number_text(k.nu)) end
    s = kind .. "(" .. table.concat(parts, ", ") .. ")"
  end
  return s
end

function Kernel.__tostring(k)
  if not is_kernel(k) then args.bad_self("__tostring", Kernel.__name, k, 2) end
  return text(k, 0)
end

-- ----------------------------------------------------------- constructors

-- (relayed: make_base's checks raise at levels that differ between its
-- callers; the constructors raise them at their caller's line)
for kind in pairs(BASE) do
  kernels[kind] = args.relayed(function(opts) return make_base(kind, opts, 2) end)
end

-- Persistence: a kernel is saved as its kind, values, bounds (and nu, or
-- its two operands) and rebuilt through the constructors, which check
-- every field of the file.
local function to_plain(k)
  if k.kind == "sum" or k.kind == "product" then return { kind = k.kind, k1 = k.k1, k2 = k.k2 } end
  local t = { kind = k.kind, nu = k.nu, options = {} }
  for name, v in pairs(k.params(k)) do
    if name ~= "nu" then t.options[name] = v end
  end
  return t
end
local function from_plain(t)
  if t.kind == "sum" or t.kind == "product" then
    if not (is_kernel(t.k1) and is_kernel(t.k2)) then
      error("luma.load: a saved kernel " .. t.kind .. " lacks its operands", 0)
    end
    return setmetatable({ kind = t.kind, k1 = t.k1, k2 = t.k2 }, Kernel)
  end
  if type(t.kind) ~= "string" or not BASE[t.kind] or type(t.options) ~= "table" then
    error("luma.load: unknown saved kernel kind '" .. tostring(t.kind) .. "'", 0)
  end
  local opts = {}
  for name, v in pairs(t.options) do opts[name] = v end
  if BASE[t.kind].nu then opts.nu = t.nu end
  return make_base(t.kind, opts, 2)
end
require("luma.persist").register("luma.gaussian_process.Kernel",
  { test = is_kernel, save = to_plain, load = from_plain })

-- k.diag(X) for k:diag(X), or a method called on anything but a kernel, is
-- a "bad self" error at the caller's line.
args.wrap_methods(methods, Kernel.__name, is_kernel)

-- ---------------------------------------------------------- documentation

local doc = luma.doc.set
local BOUNDS_DOC = " Bounds: NAME_bounds = {lower, upper} (default {1e-5, 1e5}) or \"fixed\". "
  .. "Returns the kernel, callable as k(X [, Y])."
local CONSTRUCTOR_DOCS = {
  ConstantKernel = {
    "ConstantKernel{constant_value = 1, constant_value_bounds = {1e-5, 1e5}} -> kernel",
    "The constant c for every pair; c * k scales a kernel (the signal variance sigma_f^2)." },
  WhiteKernel = { "WhiteKernel{noise_level = 1, noise_level_bounds = {1e-5, 1e5}} -> kernel",
    "Independent noise: noise_level on the diagonal of k(X) and 0 in k(X, Y); k1 + WhiteKernel "
    .. "fits the noise variance sigma_n^2 (R&W eq. 2.20)." },
  RBF = { "RBF{length_scale = 1, length_scale_bounds = {1e-5, 1e5}} -> kernel",
    "exp(-|x - y|^2 / (2 l^2)) (R&W eq. 4.9); a list of length scales, one per feature, "
    .. "gives automatic relevance determination." },
  Matern = { "Matern{length_scale = 1, length_scale_bounds = {1e-5, 1e5}, nu = 1.5} -> kernel",
    "Matern kernel with nu = 0.5 (exp(-r)), 1.5, 2.5 (R&W eq. 4.17) or math.huge (the RBF); "
    .. "isotropic or one length scale per feature." },
  RationalQuadratic = { "RationalQuadratic{length_scale = 1, alpha = 1, length_scale_bounds = "
    .. "{1e-5, 1e5}, alpha_bounds = {1e-5, 1e5}} -> kernel",
    "(1 + |x - y|^2 / (2 alpha l^2))^-alpha (R&W eq. 4.19); theta is (log alpha, log "
    .. "length_scale)." },
  ExpSineSquared = { "ExpSineSquared{length_scale = 1, periodicity = 1, length_scale_bounds = "
    .. "{1e-5, 1e5}, periodicity_bounds = {1e-5, 1e5}} -> kernel",
    "The periodic kernel exp(-2 sin^2(pi |x - y| / p) / l^2) (R&W eq. 4.31)." },
  DotProduct = { "DotProduct{sigma_0 = 1, sigma_0_bounds = {1e-5, 1e5}} -> kernel",
    "sigma_0^2 + x.y, Bayesian linear regression's kernel (R&W eq. 4.22)." },
}
for name, d in pairs(CONSTRUCTOR_DOCS) do
  doc(kernels[name], { name = "luma.gaussian_process.kernels." .. name, signature = d[1],
    doc = d[2] .. BOUNDS_DOC })
end
doc(kernels.is_kernel, { name = "luma.gaussian_process.kernels.is_kernel",
  signature = "is_kernel(v) -> boolean", doc = "True if v is a Gaussian-process kernel." })
doc(Kernel, { name = "luma.gaussian_process.Kernel", signature = "k(X [, Y = nil]) -> matrix",
  doc = "A covariance function with hyperparameters: k(X [, Y]) is the Gram matrix; k1 + k2, "
    .. "k1 * k2 and c * k make new kernels. Methods: diag, gradient, theta, bounds, n_dims, "
    .. "clone_with_theta, hyperparameters, params." })
doc(methods.diag, { name = "luma.gaussian_process.Kernel.diag",
  signature = "k:diag(X) -> matrix",
  doc = "The n x 1 column k(x_i, x_i), without the Gram matrix." })
doc(methods.gradient, { name = "luma.gaussian_process.Kernel.gradient",
  signature = "k:gradient(X) -> K, dK", doc = "K = k(X) and the list of dK/dtheta_i, theta "
    .. "the logs of the free hyperparameters in theta order." })
doc(methods.theta, { name = "luma.gaussian_process.Kernel.theta",
  signature = "k:theta() -> matrix",
  doc = "The p x 1 logs of the free (not fixed) hyperparameter values, in order: a sum's or "
    .. "product's k1 then k2, within a kernel alphabetically (scikit-learn's order)." })
doc(methods.bounds, { name = "luma.gaussian_process.Kernel.bounds",
  signature = "k:bounds() -> matrix",
  doc = "The p x 2 logs of the bounds of theta." })
doc(methods.n_dims, { name = "luma.gaussian_process.Kernel.n_dims",
  signature = "k:n_dims() -> integer",
  doc = "The number of free hyperparameters (elements of theta)." })
doc(methods.clone_with_theta, { name = "luma.gaussian_process.Kernel.clone_with_theta",
  signature = "k:clone_with_theta(theta) -> kernel", doc = "A new kernel whose free "
    .. "hyperparameters are exp(theta); k itself is unchanged." })
doc(methods.hyperparameters, { name = "luma.gaussian_process.Kernel.hyperparameters",
  signature = "k:hyperparameters() -> list", doc = "The list of {name, value, bounds, fixed} "
    .. "in theta order, named as scikit-learn does (k1__length_scale, ...)." })
doc(methods.params, { name = "luma.gaussian_process.Kernel.params",
  signature = "k:params() -> table",
  doc = "A base kernel's values and NAME_bounds (and nu) as a new table; k1, k2 for a sum or "
    .. "product." })
doc(kernels, { name = "luma.gaussian_process.kernels",
  doc = "Covariance functions with hyperparameters and bounds for Gaussian processes: "
    .. "ConstantKernel, WhiteKernel, RBF, Matern, RationalQuadratic, ExpSineSquared, DotProduct; "
    .. "sums and products. See docs/GAUSSIAN_PROCESS.md." })

return kernels
