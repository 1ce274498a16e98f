--- luma.decomposition.common: helpers shared by the parts of
-- luma.decomposition (and by luma.mixture and luma.manifold, which need
-- the same input checks); not a public API.
--
-- Holds the argument checks whose messages every estimator of the three
-- families shares, scikit-learn's sign convention for singular vectors
-- (svd_flip) and the randomized SVD of Halko, Martinsson and Tropp (2011)
-- that PCA and TruncatedSVD both use.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.decomposition.native")

local common = {}

common.EPS = 2.220446049250313e-16

--- common.fail(fmt, ...): raises the formatted message as it is (no
-- position: messages name the estimator and the method themselves).
local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
common.fail = fail

--- common.warning(family, fmt, ...): through warn(), so a host can
-- redirect it.
function common.warning(family, fmt, ...)
  warn(family .. ": " .. string.format(fmt, ...))
end

--- common.number_text(v): an element for messages (nan whatever the sign
-- the C library prints).
local function number_text(v)
  if v ~= v then return "nan" end
  return string.format("%.17g", v)
end
common.number_text = number_text

--- common.check_finite(name, method, X [, argn = 1]): an error naming the
-- first NaN or infinite element of X (row-major order).
function common.check_finite(name, method, X, argn)
  local bad = args.nonfinite(X)
  if bad then fail("bad argument #%d to '%s' (%s: %s)", argn or 1, method, name, bad) end
end

--- common.check_nonnegative(name, method, X [, argn = 1]): an error naming
-- the first negative element of X (NMF and the count mixtures).
function common.check_nonnegative(name, method, X, argn)
  if not (X:min() < 0) then return end -- one pass, no mask (NaN is check_finite's)
  if luma.sparse.issparse(X) then
    local I, J, V = X:coo()
    local k = math.tointeger(luma.matrix.find(V:lt(0)):get(1, 1))
    fail("bad argument #%d to '%s' (%s: X must be non-negative, X[%d][%d] = %s)", argn or 1,
      method, name, math.tointeger(I:get(k, 1)), math.tointeger(J:get(k, 1)), number_text(V:get(k, 1)))
  end
  local negative = X:lt(0)
  local p = math.tointeger(luma.matrix.find(negative):get(1, 1))
  local d = X:cols()
  local i, j = (p - 1) // d + 1, (p - 1) % d + 1
  fail("bad argument #%d to '%s' (%s: X must be non-negative, X[%d][%d] = %s)", argn or 1,
    method, name, i, j, number_text(X:get(i, j)))
end

--- common.check_min_rows(name, method, X, need, why): at least need rows.
function common.check_min_rows(name, method, X, need, why)
  if X:rows() < need then
    fail("bad argument #1 to '%s' (%s needs at least %d rows%s, X has %d)", method, name, need,
      why and (" " .. why) or "", X:rows())
  end
end

--- common.check_fitted(self, method): for methods the estimator contract
-- does not wrap (get_covariance, sample, ...).
function common.check_fitted(self, method)
  if not self:is_fitted() then
    fail("%s: %s called before fit", self.__class.name, method)
  end
end

--- common.check_components(name, k, n, d): an integer
-- n_components must lie in 1..min(n, d).
function common.check_components(name, k, n, d)
  local m = math.min(n, d)
  if k < 1 then
    fail("bad argument #1 to 'fit' (%s: n_components must be at least 1, got %d)", name, k)
  end
  if k > m then
    fail("bad argument #1 to 'fit' (%s: n_components = %d is more than min(n_samples, "
      .. "n_features) = min(%d, %d) = %d)", name, k, n, d, m)
  end
end

--- common.svd_flip(U, Vt [, u_based = true [, D]]): scikit-learn's sign
-- convention (sklearn.utils.extmath.svd_flip), in place.  u_based: each
-- column of U gets a positive entry where it is largest in magnitude
-- (the first such entry on ties), and the matching row of Vt the same
-- sign; otherwise the rows of Vt decide.  U may be nil when only the
-- signs of Vt matter and the deciding vectors are given as D (a matrix
-- whose columns are proportional to U's, such as X V; D is only read).
function common.svd_flip(U, Vt, u_based, D)
  local decider = u_based == false and Vt or (D or U):t()
  -- one pass in C (luma.decomposition.native): |.| and argmax over a
  -- matrix as large as X cost ten times as much in Lua
  local signs = native.max_abs_signs(decider)
  for j = 1, Vt:rows() do
    if signs:get(j, 1) < 0 then
      if U then U:col(j):neg(U:col(j)) end
      Vt:row(j):neg(Vt:row(j))
    end
  end
end

-- A product operator for the centred matrix A = X - 1 mean without
-- forming it (implicit centring saves a copy of X): mul(Q) = A Q and
-- tmul(Q) = A^T Q; transposed swaps the two (the operator of A^T).
local function centred_operator(X, mean, transposed)
  local function mul(Q)
    local P = X * Q
    if mean then P = P - mean * Q end
    return P
  end
  local function tmul(Q)
    -- a sparse X multiplies by its transpose without forming it
    local P = luma.sparse.issparse(X) and X:tmatmul(Q) or X:t() * Q
    if mean then P = P - mean:t() * Q:sum(1) end
    return P
  end
  if transposed then return tmul, mul, X:cols(), X:rows() end
  return mul, tmul, X:rows(), X:cols()
end

--- common.svd(A [, mean]) -> U, s, Vt: luma.linalg.svd of A - 1 mean (mean
-- a 1 x d row, or nil), thin, computed on the transpose when A has more
-- rows than columns.  LAPACK sees a row-major matrix as its transpose, so
-- a tall A reaches dgesdd as a wide one, whose LQ path is about 3 times
-- slower in OpenBLAS than the QR path of the tall transpose (10,000 x
-- 500: 1.5 s against 0.5 s); the transpose is made (and centred) by cache
-- tiles in C, a third of the time of copying a transposed view.
function common.svd(A, mean)
  if A:rows() <= A:cols() then return luma.linalg.svd(mean and A - mean or A) end
  local U, s, Vt = luma.linalg.svd(native.centred_transpose(A, mean))
  return Vt:t(), s, U:t()
end

-- An orthonormal basis of the columns of A between the randomized
-- solver's products.  Cholesky QR (Q = A R^-1 with R^T R = A^T A) costs a
-- syrk and a triangular solve, a tenth of LAPACK's Householder QR on a
-- 50,000 x 30 block (scikit-learn normalizes with LU for the same reason);
-- when A^T A is not numerically positive definite (A nearly rank
-- deficient, e.g. data of lower rank than the sample) Householder QR
-- takes over.
local function orthonormalize(A)
  local ok, L = pcall(luma.linalg.cholesky, A:t() * A)
  if ok then return luma.linalg.solve_triangular(L, A:t()):t() end
  return (luma.linalg.qr(A))
end

-- One pass over the rows of X (native.range_pass): P = A Q and S = A^T P
-- for A = X - 1 mean (implicit centring), P kept with keep_P, and |A|_F^2
-- with want_ss.  Both products of a power iteration read each block of X
-- once, from cache for the second (the data are 400 MB at 50,000 x 1,000:
-- the iteration is memory-bound), and run as single-threaded dgemm on the
-- pool's threads, a row chunk each: the blocks' small products cost a
-- fifth of their time in the wake-ups of OpenBLAS's own threads.
local function fused_pass(X, mean, Q, keep_P, want_ss)
  if luma.sparse.issparse(X) then
    -- the two threaded sparse products (TruncatedSVD never centres)
    assert(mean == nil, "a sparse X is not centred")
    local P = X * Q
    return X:tmatmul(P), keep_P and P or nil, want_ss and X:norm() ^ 2 or 0
  end
  local S, P, ss = native.range_pass(X, mean, Q, keep_P, want_ss)
  return S, P, ss or 0
end

--- common.randomized_svd(X, k, opts) -> U (n x k), s (k x 1), Vt (k x d)
-- [, ss]: the rank-k truncated SVD of A = X - 1 mean (mean a 1 x d row,
-- or nil for X itself) by randomized subspace iteration (Halko,
-- Martinsson and Tropp 2011, Algorithms 4.3/4.4 and 5.1), as
-- scikit-learn's randomized_svd: opts.n_oversamples extra columns (10),
-- opts.n_iter power iterations, opts.rng the generator of the Gaussian
-- test matrix; signs follow svd_flip, deciding by U, or by Vt when the
-- transpose was sampled (scikit-learn's choice).  With opts.total, also
-- |A|_F^2 (the total variance's numerator).
-- Tall data (n >= d): each iteration is one pass over X computing A Q and
-- A^T (A Q) block by block, then an orthonormal basis of the result
-- (opts.normalizer "qr"; "none" keeps the raw product).  scikit-learn
-- normalizes after each of the two products with an LU factor; the span,
-- and so the result, is the same in exact arithmetic.  The last pass also
-- keeps P = A Q, whose Householder QR P = Q R gives B = Q^T A = R^-T (A^T
-- P)^T without another pass.  Wide data sample the transpose, two passes
-- an iteration.
function common.randomized_svd(X, k, opts)
  local n, d = X:shape()
  local mean = opts.mean
  local size = math.min(k + (opts.n_oversamples or 10), math.min(n, d))
  local normalize = opts.normalizer == "none" and function(A) return A end or orthonormalize
  local U, s, Vt, ss
  if n >= d then
    local Q = opts.rng:normal(d, size)
    for it = 1, opts.n_iter do
      local S, _, total = fused_pass(X, mean, Q, false, opts.total and it == 1)
      if it == 1 then ss = total end
      Q = normalize(S)
    end
    local S, P, total = fused_pass(X, mean, Q, true, opts.total and opts.n_iter == 0)
    if opts.n_iter == 0 then ss = total end
    local Qf, R = luma.linalg.qr(P)
    local diag = R:diag():abs()
    local B
    if diag:min() > 1e-12 * diag:max() then
      B = luma.linalg.solve_triangular(R, S:t(), { lower = false, trans = true })
    else -- A Q is rank deficient: B = Q^T A by a second pass
      local _, tmul = centred_operator(X, mean, false)
      B = tmul(Qf):t()
    end
    local Ub
    Ub, s, Vt = common.svd(B)
    U = (Qf * Ub):sub(nil, nil, 1, k):copy()
    s, Vt = s:sub(1, k, 1, 1):copy(), Vt:sub(1, k, nil, nil):copy()
    common.svd_flip(U, Vt, true)
  else
    local mul, tmul = centred_operator(X, mean, true)
    local Q = opts.rng:normal(n, size)
    for _ = 1, opts.n_iter do Q = normalize(tmul(normalize(mul(Q)))) end
    Q = luma.linalg.qr(mul(Q)) -- the final basis: Householder, for accuracy
    local Ub
    Ub, s, Vt = common.svd(tmul(Q):t())
    -- the SVD of A^T: A = Vt^T s U^T
    U, Vt = Vt:sub(1, k, nil, nil):t():copy(), (Q * Ub):sub(nil, nil, 1, k):t():copy()
    s = s:sub(1, k, 1, 1):copy()
    common.svd_flip(U, Vt, false)
    if opts.total then
      ss = mean and common.total_variance(X, mean, 0) * n or luma.matrix.dot(X, X)
    end
  end
  return U, s, Vt, ss
end

--- common.power_iterations(iterated_power, k, n, d): the randomized
-- solvers' power iterations: the parameter, or for "auto" scikit-learn's
-- rule (7 when k is under a tenth of min(n, d), else 4).
function common.power_iterations(iterated_power, k, n, d)
  if iterated_power ~= "auto" then
    if math.type(iterated_power) ~= "integer" or iterated_power < 0 then
      fail("iterated_power must be an integer >= 0 or \"auto\", got %s", tostring(iterated_power))
    end
    return iterated_power
  end
  return k < 0.1 * math.min(n, d) and 7 or 4
end

--- common.column_means(X) -> 1 x d: the column means as one matrix-vector
-- product (X:mean(1) walks the columns of a row-major matrix one by one,
-- ten times slower on 50,000 x 1,000).
function common.column_means(X)
  return luma.ones(1, X:rows()) * X / X:rows()
end

--- common.total_variance(X, mean, ddof): the sum of the column variances,
-- sum |x_i - mean|^2 / (n - ddof), over blocks of 1024 rows centred into
-- one reused buffer (no n x d copy, no cancellation; a fresh block per
-- step took twice as long, in page faults).
function common.total_variance(X, mean, ddof)
  local n = X:rows()
  local buf = luma.zeros(math.min(n, 1024), X:cols())
  local total = 0
  for r = 1, n, 1024 do
    local r2 = math.min(n, r + 1023)
    local block = X:sub(r, r2, nil, nil):subtract(mean, buf:sub(1, r2 - r + 1, nil, nil))
    total = total + luma.matrix.dot(block, block)
  end
  return total / (n - ddof)
end

--- common.example_data(): a small fixed 12 x 4 matrix with correlated
-- columns, for the persistence registry test of the transformers.
function common.example_data()
  return luma.matrix{
    { 2.5, 2.4, 0.5, 1.1 }, { 0.5, 0.7, 1.9, 0.2 }, { 2.2, 2.9, 0.8, 1.4 }, { 1.9, 2.2, 1.1, 0.9 },
    { 3.1, 3.0, 0.3, 1.6 }, { 2.3, 2.7, 0.9, 1.2 }, { 2.0, 1.6, 1.3, 0.8 }, { 1.0, 1.1, 1.7, 0.4 },
    { 1.5, 1.6, 1.5, 0.6 }, { 1.1, 0.9, 2.1, 0.3 }, { 2.8, 2.6, 0.6, 1.3 }, { 1.7, 1.9, 1.2, 0.7 } }
end

return common
