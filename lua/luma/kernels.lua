-- luma.kernels: kernel objects and their algebra (notes 001, section F).
--
-- A kernel object is callable: k(X [, Y]) returns the Gram matrix between
-- the rows of X and of Y (Y omitted: X with itself, exactly symmetric),
-- computed by luma.pairwise.kernel.  Kernels combine into new kernels
-- (notes 001, L738-754): k1 + k2, k1 * k2 (element-wise product of the Gram
-- matrices), c * k with c > 0, and k:normalized(), K(x,y)/sqrt(K(x,x)K(y,y)).
-- kernels.center(K) double-centres a Gram matrix for kernel PCA.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.util.native") -- numbers with "." whatever the locale

local pairwise = luma.pairwise
local where = luma.matrix.where
local ismatrix = luma.ismatrix

local kernels = {}

-- Options of each base kernel, in display order.  gamma defaults to
-- 1/n_features at call time (scikit-learn's rule); the notes' polynomial
-- (<x,y> + c)^p is polynomial{gamma = 1, coef0 = c, degree = p}.
local OPTIONS = {
  linear = {},
  polynomial = { "degree", "gamma", "coef0" },
  rbf = { "gamma" },
  laplacian = { "gamma" },
  sigmoid = { "gamma", "coef0" },
  rational_quadratic = { "alpha", "length_scale" },
  cosine = {},
}
local DEFAULTS = { degree = 3, coef0 = 1, alpha = 1, length_scale = 1 }

local function is_positive(v) return v > 0 and v < math.huge end
local function is_finite(v) return v == v and v > -math.huge and v < math.huge end
local function is_degree(v) return v >= 1 and v < 2 ^ 31 and v == math.floor(v) end
local CHECKS = {
  gamma = { is_positive, "a finite number > 0" },
  coef0 = { is_finite, "a finite number" },
  degree = { is_degree, "an integer >= 1" },
  alpha = { is_positive, "a finite number > 0" },
  length_scale = { is_positive, "a finite number > 0" },
}

-- Shortest text that reads back as the same number.
local function number_text(v)
  if math.type(v) == "integer" then return tostring(v) end
  local s = native.format("%.15g", v)
  if tonumber(s) ~= v then s = native.format("%.17g", v) end
  return s
end

local Kernel = { __name = "luma.Kernel" }
local methods = {}
Kernel.__index = methods

local is_kernel = args.is_named(Kernel.__name)

local function make(fields) return setmetatable(fields, Kernel) end

-- Copies and checks the options of a base kernel (level: error()'s, the
-- constructors tail-call this, so 2 is their caller).
local function base(kind, opts, level)
  local fname = "kernels." .. kind
  if opts ~= nil and type(opts) ~= "table" then
    error(string.format("%s: options table expected, got %s", fname, type(opts)), level)
  end
  local valid, copy = OPTIONS[kind], {}
  for key, value in pairs(opts or {}) do
    local known = false
    for _, name in ipairs(valid) do known = known or key == name end
    if not known then
      local list = #valid > 0 and table.concat(valid, ", ") or "none"
      error(string.format("%s: unknown option '%s' (valid: %s)", fname, tostring(key), list), level)
    end
    local check = CHECKS[key]
    if type(value) ~= "number" or not check[1](value) then
      error(string.format("%s: %s must be %s, got %s", fname, key, check[2], tostring(value)),
        level)
    end
    copy[key] = key == "degree" and math.tointeger(value) or value
  end
  return make({ kind = kind, opts = copy })
end

-- ---------------------------------------------------------- evaluation

local gram, diagonal -- mutually recursive with normalization

-- 1/sqrt(d) where d > 0, 0 where d == 0 (a zero feature vector: its
-- normalized similarity is 0, as for the cosine kernel), NaN stays NaN.
local function inverse_sqrt(d)
  if d:lt(0):any() then
    local i = 1
    while not (d:get(i, 1) < 0) do i = i + 1 end
    error(string.format("normalized: k(x, x) = %s < 0 for row %d (the kernel is not positive "
      .. "semi-definite there, so it cannot be normalized)", number_text(d:get(i, 1)), i), 0)
  end
  return where(d:eq(0), 0, d:pow(-0.5))
end

gram = function(k, X, Y)
  local kind = k.kind
  if kind == "sum" then
    local K = gram(k.k1, X, Y)
    return K:add(gram(k.k2, X, Y), K)
  elseif kind == "product" then
    local K = gram(k.k1, X, Y)
    return K:mul(gram(k.k2, X, Y), K)
  elseif kind == "scaled" then
    local K = gram(k.kernel, X, Y)
    return K:mul(k.scale, K)
  elseif kind == "normalized" then
    local K = gram(k.kernel, X, Y)
    local ix = inverse_sqrt(diagonal(k.kernel, X))
    local iy = Y and inverse_sqrt(diagonal(k.kernel, Y)) or ix
    -- One product per pair, ix_i * iy_j, keeps a self Gram exactly symmetric.
    return K:mul(ix * iy:t(), K)
  end
  return pairwise.kernel(X, Y, kind, k.opts)
end

diagonal = function(k, X)
  local kind = k.kind
  if kind == "sum" then
    local d = diagonal(k.k1, X)
    return d:add(diagonal(k.k2, X), d)
  elseif kind == "product" then
    local d = diagonal(k.k1, X)
    return d:mul(diagonal(k.k2, X), d)
  elseif kind == "scaled" then
    local d = diagonal(k.kernel, X)
    return d:mul(k.scale, d)
  elseif kind == "normalized" then
    local d = diagonal(k.kernel, X)
    inverse_sqrt(d) -- the same error as evaluating for a negative k(x, x)
    return where(d:eq(0), 0, d:div(d))
  end
  return pairwise.kernel_diag(X, kind, k.opts)
end

local function check_operands(k, X, Y)
  if not ismatrix(X) then
    error(string.format("%s: X must be a luma.Matrix, got %s", tostring(k), type(X)), 3)
  end
  if Y ~= nil and not ismatrix(Y) then
    error(string.format("%s: Y must be a luma.Matrix or nil, got %s", tostring(k), type(Y)), 3)
  end
end

function Kernel.__call(k, X, Y)
  if not is_kernel(k) then args.bad_self("__call", "luma.Kernel", k, 2) end
  check_operands(k, X, Y)
  -- (the pairwise checks of X and Y, at any depth of a composite, blame the caller)
  local K = args.relay(2, gram, k, X, Y)
  return K
end

function methods.diag(k, X)
  check_operands(k, X, nil)
  return diagonal(k, X)
end

function methods.params(k)
  local kind = k.kind
  if kind == "sum" or kind == "product" then return { k1 = k.k1, k2 = k.k2 } end
  if kind == "scaled" then return { scale = k.scale, kernel = k.kernel } end
  if kind == "normalized" then return { kernel = k.kernel } end
  local p = {}
  for _, name in ipairs(OPTIONS[kind]) do p[name] = k.opts[name] or DEFAULTS[name] end
  return p
end

function methods.normalized(k)
  return make({ kind = "normalized", kernel = k })
end

-- ------------------------------------------------------------- algebra

function Kernel.__add(a, b)
  if not (is_kernel(a) and is_kernel(b)) then
    error("kernels add only to kernels (scale with c * k)", 2)
  end
  return make({ kind = "sum", k1 = a, k2 = b })
end

function Kernel.__mul(a, b)
  if is_kernel(a) and is_kernel(b) then return make({ kind = "product", k1 = a, k2 = b }) end
  local c, k = a, b
  if is_kernel(a) then c, k = b, a end
  if type(c) ~= "number" then
    error("a kernel multiplies a kernel (element-wise product) or a number > 0 (scaling), not a "
      .. type(c), 2)
  end
  if not is_positive(c) then
    error("kernel scale must be a finite number > 0, got " .. number_text(c), 2)
  end
  return make({ kind = "scaled", scale = c, kernel = k })
end

-- Operator precedence for parentheses in __tostring.
local PRECEDENCE = { sum = 1, product = 2, scaled = 2 }

local function text(k, outer)
  local kind, s = k.kind, nil
  if kind == "sum" then
    s = text(k.k1, 1) .. " + " .. text(k.k2, 1)
  elseif kind == "product" then
    s = text(k.k1, 2) .. " * " .. text(k.k2, 2)
  elseif kind == "scaled" then
    s = number_text(k.scale) .. " * " .. text(k.kernel, 2)
  elseif kind == "normalized" then
    s = "normalized(" .. text(k.kernel, 0) .. ")"
  else
    local parts = {}
    for _, name in ipairs(OPTIONS[kind]) do
      local v = k.opts[name] or DEFAULTS[name]
      parts[#parts + 1] = name .. "=" .. (v and number_text(v) or "1/n_features")
    end
    s = kind .. "(" .. table.concat(parts, ", ") .. ")"
  end
  if PRECEDENCE[kind] and PRECEDENCE[kind] < outer then s = "(" .. s .. ")" end
  return s
end

function Kernel.__tostring(k)
  if not is_kernel(k) then args.bad_self("__tostring", "luma.Kernel", k, 2) end
  return text(k, 0)
end

-- -------------------------------------------------------- constructors

function kernels.linear() return base("linear", nil, 2) end
function kernels.polynomial(opts) return base("polynomial", opts, 2) end
function kernels.rbf(opts) return base("rbf", opts, 2) end
function kernels.laplacian(opts) return base("laplacian", opts, 2) end
function kernels.sigmoid(opts) return base("sigmoid", opts, 2) end
function kernels.rational_quadratic(opts) return base("rational_quadratic", opts, 2) end
function kernels.cosine() return base("cosine", nil, 2) end

function kernels.is_kernel(v) return is_kernel(v) end

--- Double centring of a Gram matrix (the feature vectors' mean moved to
--- the origin): K - 1K/n - K1/n + 1K1/n^2.  With K_fit (the n x n Gram
--- matrix of the training rows), K is a test-train kernel (m x n) centred
--- with the training means, as scikit-learn's KernelCenterer.transform.
function kernels.center(K, K_fit)
  if not ismatrix(K) then
    error("kernels.center: K must be a luma.Matrix, got " .. type(K), 2)
  end
  local m, n = K:shape()
  if K_fit == nil then
    if m ~= n then
      error(string.format("kernels.center: K is %d x %d, expected a square train-train Gram "
        .. "matrix (pass K_fit to centre a test-train kernel)", m, n), 2)
    end
    K_fit = K
  elseif not ismatrix(K_fit) then
    error("kernels.center: K_fit must be a luma.Matrix, got " .. type(K_fit), 2)
  else
    local r, c = K_fit:shape()
    if r ~= c or c ~= n then
      error(string.format("kernels.center: K is %d x %d but K_fit is %d x %d (K_fit must be "
        .. "%d x %d, the Gram matrix of the training rows)", m, n, r, c, n, n), 2)
    end
  end
  local centered = K:subtract(K_fit:mean(1))
  return centered:subtract(K:mean(2), centered):add(K_fit:mean(), centered)
end

-- k.diag(X) for k:diag(X), or a method called on anything but a kernel, is
-- a "bad self" error at the caller's line.
args.wrap_methods(methods, "luma.Kernel", is_kernel)

-- ------------------------------------------------------- documentation

local doc = luma.doc.set
doc(kernels, { name = "luma.kernels",
  doc = "Kernel objects over luma.pairwise.kernel: linear, polynomial, rbf, laplacian, "
     .. "sigmoid, rational_quadratic, cosine. A kernel k is callable, k(X [, Y]) -> Gram "
     .. "matrix, and combines: k1 + k2, k1 * k2 (element-wise), c * k (c > 0), "
     .. "k:normalized(). center(K) double-centres a Gram matrix." })
doc(Kernel, { name = "luma.Kernel", signature = "k(X [, Y])",
  doc = "A kernel: k(X [, Y]) returns the Gram matrix between the rows of X and of Y (Y "
     .. "omitted: X with itself, exactly symmetric). k1 + k2, k1 * k2 and c * k make new "
     .. "kernels; fields kind (\"rbf\", ..., \"sum\", \"product\", \"scaled\", "
     .. "\"normalized\")." })
doc(methods.diag, { name = "luma.Kernel.diag", signature = "k:diag(X) -> matrix",
  doc = "The n x 1 column k(x_i, x_i), without the Gram matrix." })
doc(methods.params, { name = "luma.Kernel.params", signature = "k:params() -> table",
  doc = "The kernel's parameters as a new table: the options with their defaults (gamma nil "
     .. "means 1/n_features) for a base kernel; k1, k2 for a sum or product; scale, kernel for "
     .. "a scaled kernel; kernel for a normalized one." })
doc(methods.normalized, { name = "luma.Kernel.normalized", signature = "k:normalized() -> Kernel",
  doc = "The kernel K(x,y)/sqrt(K(x,x) K(y,y)), in [-1, 1] with unit diagonal, computed from "
     .. "k(x,x) alone (no extra Gram matrices). A zero K(x,x) gives 0; a negative one is an "
     .. "error (the kernel is not positive semi-definite)." })
local CONSTRUCTOR_DOCS = {
  linear = { "linear() -> Kernel", "The linear kernel x.y." },
  polynomial = { "polynomial{degree = 3, gamma = 1/n_features, coef0 = 1} -> Kernel",
    "The polynomial kernel (gamma x.y + coef0)^degree; the textbook form (x.y + c)^p is "
    .. "polynomial{gamma = 1, coef0 = c, degree = p}." },
  rbf = { "rbf{gamma = 1/n_features} -> Kernel", "The Gaussian (RBF) kernel exp(-gamma |x-y|^2)." },
  laplacian = { "laplacian{gamma = 1/n_features} -> Kernel", "The Laplacian kernel exp(-gamma |x-y|_1)." },
  sigmoid = { "sigmoid{gamma = 1/n_features, coef0 = 1} -> Kernel",
    "The sigmoid kernel tanh(gamma x.y + coef0) (not positive semi-definite in general)." },
  rational_quadratic = { "rational_quadratic{alpha = 1, length_scale = 1} -> Kernel",
    "The rational quadratic kernel (1 + |x-y|^2 / (2 alpha length_scale^2))^-alpha." },
  cosine = { "cosine() -> Kernel", "The cosine kernel x.y / (|x| |y|), 0 for a zero vector." },
}
for name, d in pairs(CONSTRUCTOR_DOCS) do
  doc(kernels[name], { name = "luma.kernels." .. name, signature = d[1], doc = d[2] })
end
doc(kernels.center, { name = "luma.kernels.center", signature = "center(K [, K_fit = nil]) -> matrix",
  doc = "Double centring K - 1K/n - K1/n + 1K1/n^2 of a square Gram matrix (kernel PCA); with "
     .. "K_fit, centres a test-train kernel with the training means." })
doc(kernels.is_kernel, { name = "luma.kernels.is_kernel", signature = "is_kernel(v) -> boolean",
  doc = "True if v is a kernel object." })

return kernels
