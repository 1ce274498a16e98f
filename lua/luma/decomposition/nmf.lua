--- luma.decomposition NMF: non-negative matrix factorization X ~ W H with
-- W, H >= 0 (notes 000 Ch. 4 §4.3.1), scikit-learn's NMF (1.2.1) in
-- parameters, attributes and arithmetic, plus the notes' alternating
-- least squares.
--
-- Solvers (notes 000 §3 "NMF multiplicative updates"):
--   * "cd": coordinate descent, scikit-learn's default.  Its per-element
--     updates within one column of W touch no other row, so one column is
--     one vector update: W[:, t] <- max(0, W[:, t] - (W HH^T[:, t] -
--     XH^T[:, t]) / HH^T[t, t]) -- the notes' HALS rule, with the erratum
--     fixed (the notes put W[:, i] inside the sum and the square outside
--     the max).
--   * "mu": Lee and Seung's multiplicative updates for the Frobenius norm
--     and the generalized Kullback-Leibler divergence.  W is updated
--     before H, as scikit-learn does (the notes update H first; the
--     fixed points are the same).
--   * "als": the notes' alternating least squares, W <- max(0, X H^T
--     (H H^T)^-1) and H <- max(0, (W^T W)^-1 W^T X) (the notes print the
--     solve as a fraction).
-- Inits: "random" (|N(0, 1)| sqrt(mean(X) / k)), "nndsvd" (Boutsidis and
-- Gallopoulos 2008), "nndsvda" (its zeros set to mean(X)), "nndsvdar"
-- (its zeros set to small random values), "custom" (W and H passed to
-- fit).  NNDSVD takes the leading singular vectors from the randomized
-- SVD, as scikit-learn does (exact when k + 10 reaches min(n, d); the
-- random numbers differ from scikit-learn's otherwise).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")
local native = require("luma.decomposition.native")

local fail, check_finite = common.fail, common.check_finite

local M = {}

local NAME = "NMF"
-- scikit-learn's EPSILON = np.finfo(np.float32).eps: the floor of
-- denominators and of W H in the KL divergence.
local EPSILON = 1.1920928955078125e-07
local DBL_EPS = common.EPS

local function check_X(method, X)
  check_finite(NAME, method, X)
  common.check_nonnegative(NAME, method, X)
end

-- ---------------------------------------------------------- objectives

--- beta_divergence(X, W, H, beta): 1/2 |X - W H|_F^2 (beta = 2) or the
-- generalized KL divergence sum x log(x / wh) - x + wh (beta = 1), with
-- scikit-learn's guards (entries of X at most float eps are left out of
-- the log term, a zero W H counts as float eps).
local function beta_divergence(X, W, H, beta)
  if luma.sparse.issparse(X) then
    -- |X|^2 - 2 <X, W H> + |W H|^2 without forming W H (the divergence of
    -- a sparse X is Frobenius only: the solvers refuse the other)
    local cross = luma.matrix.dot(W, X * H:t())
    local square = luma.matrix.dot(W:t() * W, H * H:t())
    return (X:norm() ^ 2 - 2 * cross + square) / 2
  end
  local WH = W * H
  if beta == 2 then
    local R = X:subtract(WH, WH) -- in place: one n x d temporary, not two
    return luma.matrix.dot(R, R) / 2
  end
  local keep = X:gt(EPSILON)
  local safe = luma.matrix.where(WH:eq(0), EPSILON, WH)
  local ratio = luma.matrix.where(keep, X:div(safe), 1)
  local sum_WH = (W:sum(1) * H:sum(2)):get(1, 1)
  return luma.matrix.dot(X:mul(keep), ratio:log()) + sum_WH - X:mul(keep):sum()
end

-- sqrt(2 divergence): the Frobenius norm of the residual for beta = 2,
-- scikit-learn's reconstruction_err_.
local function error_of(X, W, H, beta)
  return math.sqrt(2 * math.max(beta_divergence(X, W, H, beta), 0))
end

-- -------------------------------------------------------------- inits

local function nndsvd(X, k, variant, rng)
  local n, d = X:shape()
  local U, S, Vt = common.randomized_svd(X, k, { n_oversamples = 10, rng = rng,
    n_iter = common.power_iterations("auto", k, n, d) })
  local W, H = luma.zeros(n, k), luma.zeros(k, d)
  -- the leading singular pair of a non-negative matrix is non-negative
  W:col(1):assign(U:col(1):abs() * math.sqrt(S:get(1, 1)))
  H:row(1):assign(Vt:row(1):abs() * math.sqrt(S:get(1, 1)))
  for j = 2, k do
    local x, y = U:col(j), Vt:row(j)
    local xp, yp = x:maximum(0), y:maximum(0)
    local xn, yn = x:minimum(0):abs(), y:minimum(0):abs()
    local xpn, ypn, xnn, ynn = xp:norm(), yp:norm(), xn:norm(), yn:norm()
    local mp, mn = xpn * ypn, xnn * ynn
    local u, v, sigma
    if mp > mn then
      u, v, sigma = xp / xpn, yp / ypn, mp
    else
      u, v, sigma = xn / xnn, yn / ynn, mn
    end
    local lambda = math.sqrt(S:get(j, 1) * sigma)
    W:col(j):assign(u * lambda)
    H:row(j):assign(v * lambda)
  end
  W = luma.matrix.where(W:lt(1e-6), 0, W)
  H = luma.matrix.where(H:lt(1e-6), 0, H)
  if variant == "nndsvda" then
    local avg = X:mean()
    W = luma.matrix.where(W:eq(0), avg, W)
    H = luma.matrix.where(H:eq(0), avg, H)
  elseif variant == "nndsvdar" then
    local avg = X:mean()
    W = luma.matrix.where(W:eq(0), rng:normal(n, k):abs() * (avg / 100), W)
    H = luma.matrix.where(H:eq(0), rng:normal(k, d):abs() * (avg / 100), H)
  end
  return W, H
end

local function initialize(self, X, k, W0, H0)
  local p = self.params
  local n, d = X:shape()
  local init = p.init
  if init == nil then init = k <= math.min(n, d) and "nndsvda" or "random" end
  local rng = estimator.rng(p.seed)
  if init == "custom" then
    if not (luma.ismatrix(W0) and W0:rows() == n and W0:cols() == k) then
      fail("bad argument #3 to 'fit' (%s: init \"custom\" needs W, an %d x %d non-negative "
        .. "matrix)", NAME, n, k)
    end
    if not (luma.ismatrix(H0) and H0:rows() == k and H0:cols() == d) then
      fail("bad argument #4 to 'fit' (%s: init \"custom\" needs H, a %d x %d non-negative "
        .. "matrix)", NAME, k, d)
    end
    for _, m in ipairs{ W0, H0 } do
      if not m:isfinite():all() or m:lt(0):any() then
        fail("%s: the custom W and H must be finite and non-negative", NAME)
      end
    end
    return W0:copy(), H0:copy()
  elseif init == "random" then
    local avg = math.sqrt(X:mean() / k)
    local H = rng:normal(k, d):abs() * avg
    local W = rng:normal(n, k):abs() * avg
    return W, H
  end
  if k > math.min(n, d) then
    fail("bad argument #1 to 'fit' (%s: init %q needs n_components <= min(n_samples, "
      .. "n_features) = %d, got %d; use init \"random\")", NAME, init, math.min(n, d), k)
  end
  return nndsvd(X, k, init, rng)
end

-- scikit-learn's scaling of the penalties: alpha times the other side's
-- size, split by l1_ratio.
local function regularization(p, n, d)
  local aW = p.alpha_W
  local aH = p.alpha_H == "same" and aW or p.alpha_H
  if type(aH) ~= "number" then
    fail("%s: alpha_H must be a number >= 0 or \"same\", got %q", NAME, tostring(aH))
  end
  return { l1_W = d * aW * p.l1_ratio, l1_H = n * aH * p.l1_ratio,
           l2_W = d * aW * (1 - p.l1_ratio), l2_H = n * aH * (1 - p.l1_ratio) }
end

-- ------------------------------------------------------------- solvers

-- One sweep of coordinate descent over the columns of W for X ~ W Ht^T
-- (scikit-learn's _update_coordinate_descent): the Gram matrix with the
-- l2 penalty on its diagonal, then the native sweep
-- (luma.decomposition.native, src/ml/decomposition/nmf.c), which computes
-- X H^T - l1 chunk by chunk of rows inside the sweep: each chunk's rows
-- of the product are swept while still in cache, and the small products
-- run on the pool's threads instead of waking OpenBLAS's for each one.
-- Returns the sum of |projected gradient|.
-- A sparse X forms X H^T by its own threaded product first.
local function cd_sweep(X, W, Ht, l1, l2, order)
  local HHt = Ht:t() * Ht
  if l2 ~= 0 then HHt:diag():add(l2, HHt:diag()) end
  if luma.sparse.issparse(X) then
    local XHt = X:matmul(Ht)
    if l1 ~= 0 then XHt:subtract(l1, XHt) end
    return native.cd_sweep(W, HHt, XHt, order)
  end
  return native.cd_fused_sweep(X, Ht, W, HHt, l1, order)
end

local function solve_cd(X, W, H, p, reg, update_H, rng)
  local k = W:cols()
  local Ht = H:t():copy()
  local function component_order()
    return p.shuffle and rng:permutation(k) or nil
  end
  local Xt = X:t()
  local initial
  local n_iter = 0
  for it = 1, p.max_iter do
    n_iter = it
    local violation = cd_sweep(X, W, Ht, reg.l1_W, reg.l2_W, component_order())
    if update_H then
      violation = violation + cd_sweep(Xt, Ht, W, reg.l1_H, reg.l2_H, component_order())
    end
    if it == 1 then initial = violation end
    if initial == 0 or violation / initial <= p.tol then break end
  end
  return W, Ht:t():copy(), n_iter
end

-- scikit-learn's _multiplicative_update_w / _h for beta = 2 and 1.
local function mu_update_W(X, W, H, beta, l1, l2)
  local num, den
  if beta == 2 then
    num, den = X * H:t(), W * (H * H:t())
  else
    local WH = W * H
    WH = luma.matrix.where(WH:lt(EPSILON), EPSILON, WH)
    num = X:div(WH) * H:t()
    den = luma.ones(W:rows(), 1) * H:sum(2):t()
  end
  if l1 > 0 then den = den + l1 end
  if l2 > 0 then den = den + W * l2 end
  den = luma.matrix.where(den:eq(0), EPSILON, den)
  return W:mul(num:div(den))
end

local function mu_update_H(X, W, H, beta, l1, l2)
  local num, den
  if beta == 2 then
    num, den = W:t() * X, (W:t() * W) * H
  else
    local WH = W * H
    WH = luma.matrix.where(WH:lt(EPSILON), EPSILON, WH)
    num = W:t() * X:div(WH)
    local Wsum = W:sum(1):t()
    Wsum = luma.matrix.where(Wsum:eq(0), 1, Wsum)
    den = Wsum * luma.ones(1, H:cols())
  end
  if l1 > 0 then den = den + l1 end
  if l2 > 0 then den = den + H * l2 end
  den = luma.matrix.where(den:eq(0), EPSILON, den)
  return H:mul(num:div(den))
end

-- The multiplicative updates and ALS share scikit-learn's stopping rule:
-- every 10 iterations, stop when the error fell by less than tol times
-- the initial error since the last check.  history gets the objective
-- after every iteration (the monotonicity the specs test).
local function solve_iterative(X, W, H, p, reg, update_H, beta, step)
  local start = error_of(X, W, H, beta)
  local previous = start
  local history = {}
  local n_iter = 0
  for it = 1, p.max_iter do
    n_iter = it
    W, H = step(X, W, H, update_H)
    history[it] = beta_divergence(X, W, H, beta)
    if p.tol > 0 and it % 10 == 0 then
      local err = error_of(X, W, H, beta)
      if (previous - err) / start < p.tol then break end
      previous = err
    end
  end
  return W, H, n_iter, history
end

local function mu_step(p, reg, beta)
  return function(X, W, H, update_H)
    W = mu_update_W(X, W, H, beta, reg.l1_W, reg.l2_W)
    if update_H then
      H = mu_update_H(X, W, H, beta, reg.l1_H, reg.l2_H)
      if beta <= 1 then H = luma.matrix.where(H:lt(DBL_EPS), 0, H) end
    end
    return W, H
  end
end

-- The notes' ALS with the max(0, .) projection; penalties as for cd (l2
-- on the Gram diagonal, l1 subtracted from the right-hand side).
local function als_step(p, reg)
  local function solve(G, B, l1, l2)
    if l2 ~= 0 then G:diag():add(l2, G:diag()) end
    if l1 ~= 0 then B = B - l1 end
    local ok, Z = pcall(luma.linalg.solve, G, B, { assume = "spd" })
    if not ok then Z = luma.linalg.lstsq(G, B) end
    return Z:maximum(0)
  end
  return function(X, W, H, update_H)
    W = solve(H * H:t(), H * X:t(), reg.l1_W, reg.l2_W):t():copy()
    if update_H then H = solve(W:t() * W, W:t() * X, reg.l1_H, reg.l2_H) end
    return W, H
  end
end

local BETA = { frobenius = 2, ["kullback-leibler"] = 1 }

-- Runs the chosen solver: W (and H when update_H) from their start.
local function run(self, X, W, H, update_H)
  local p = self.params
  local beta = BETA[p.beta_loss]
  if p.solver ~= "mu" and beta ~= 2 then
    fail("%s: solver %q handles beta_loss \"frobenius\" only; use solver \"mu\" for %q", NAME,
      p.solver, p.beta_loss)
  end
  if luma.sparse.issparse(X) and beta ~= 2 then
    fail("%s: beta_loss %q needs a dense X (a sparse X takes \"frobenius\")", NAME, p.beta_loss)
  end
  local reg = regularization(p, X:rows(), X:cols())
  local n_iter, history
  if p.solver == "cd" then
    W, H, n_iter = solve_cd(X, W, H, p, reg, update_H, estimator.rng(p.seed))
  else
    local step = p.solver == "mu" and mu_step(p, reg, beta) or als_step(p, reg)
    W, H, n_iter, history = solve_iterative(X, W, H, p, reg, update_H, beta, step)
  end
  if n_iter == p.max_iter and p.tol > 0 and update_H then
    common.warning("luma.decomposition", "%s did not converge in %d iterations; raise max_iter",
      NAME, p.max_iter)
  end
  return W, H, n_iter, history
end

local function fit_transform(self, X, _, W0, H0)
  local p = self.params
  check_X("fit", X)
  local k = p.n_components or X:cols()
  local W, H = initialize(self, X, k, W0, H0)
  local n_iter, history
  W, H, n_iter, history = run(self, X, W, H, true)
  self.components = H
  self.n_components = k
  self.n_iter = n_iter
  self.reconstruction_err = error_of(X, W, H, BETA[p.beta_loss])
  if history then self.loss_history = luma.matrix(history) end
  self.n_features_out = k
  return W
end

local function transform(self, X)
  check_X("transform", X)
  local n, k = X:rows(), self.n_components
  local W
  if self.params.solver == "mu" then
    W = luma.full(n, k, math.sqrt(X:mean() / k)) -- multiplicative updates cannot leave 0
  else
    W = luma.zeros(n, k)
  end
  W = run(self, X, W, self.components, false)
  return W
end

M.NMF = estimator.class{
  name = "luma.decomposition.NMF",
  kind = "transformer",
  doc = "Non-negative matrix factorization X ~ W H, W and H >= 0 (Lee and Seung, Algorithms "
    .. "for non-negative matrix factorization, 2001; Cichocki and Phan 2009 for coordinate "
    .. "descent / HALS), as scikit-learn's NMF: minimizes 1/2 |X - W H|_F^2 (or the "
    .. "generalized Kullback-Leibler divergence with solver \"mu\") plus elastic-net "
    .. "penalties on W and H. transform(X) solves for W with H fixed; inverse_transform(W) is "
    .. "W H. Fitted: components (H, k x d), n_components, reconstruction_err (sqrt of twice "
    .. "the final loss: |X - W H|_F for the Frobenius loss), n_iter, loss_history (mu, als). "
    .. "fit(X, nil, W, H) starts from W and H with init \"custom\".",
  params = {
    { name = "n_components", type = "integer", min = 1, doc = "rank k (nil: the number of columns)" },
    { name = "init", type = "string", values = { "random", "nndsvd", "nndsvda", "nndsvdar", "custom" },
      doc = "initialization (nil: nndsvda when k <= min(n, d), else random)" },
    { name = "solver", type = "string", default = "cd", values = { "cd", "mu", "als" },
      doc = "coordinate descent (HALS), multiplicative updates, or alternating least squares "
        .. "with projection" },
    { name = "beta_loss", type = "string", default = "frobenius",
      values = { "frobenius", "kullback-leibler" }, doc = "the loss (kullback-leibler: solver mu)" },
    { name = "tol", type = "number", default = 1e-4, min = 0, doc = "stopping tolerance" },
    { name = "max_iter", type = "integer", default = 200, min = 1, doc = "iterations at most" },
    { name = "alpha_W", type = "number", default = 0, min = 0,
      doc = "penalty strength on W (scaled by the number of features)" },
    { name = "alpha_H", type = "number|string", default = "same",
      doc = "penalty strength on H (scaled by the number of samples); \"same\" as alpha_W" },
    { name = "l1_ratio", type = "number", default = 0, min = 0, max = 1,
      doc = "share of the l1 penalty in the elastic net" },
    { name = "shuffle", type = "boolean", default = false,
      doc = "coordinate descent visits the components in random order" },
    { name = "seed", type = "seed", doc = "random init and shuffling" },
  },
  sparse = true,
  example = function() return M.NMF{ n_components = 2, seed = 0 }, common.example_data() end,
  method_docs = {
    fit = { signature = "est:fit(X [, y = nil] [, W = nil] [, H = nil]) -> est",
      doc = "Factorizes the non-negative X; W and H are the starting point with init "
        .. "\"custom\". Returns the estimator." },
    fit_transform = { signature = "est:fit_transform(X [, y = nil] [, W = nil] [, H = nil]) -> W",
      doc = "Factorizes X and returns its W (n x k)." },
    transform = { signature = "est:transform(X) -> W",
      doc = "Solves for the non-negative W of new rows with the fitted H fixed. Returns an "
        .. "n x k matrix." },
    inverse_transform = { signature = "est:inverse_transform(W) -> matrix",
      doc = "W H, the reconstruction. Returns an n x d matrix." },
  },
  fit = function(self, X, y, W, H) fit_transform(self, X, y, W, H) end,
  fit_transform = fit_transform,
  transform = transform,
  inverse_transform = function(self, W)
    check_finite(NAME, "inverse_transform", W)
    return W * self.components
  end,
}

M.beta_divergence = beta_divergence -- for the specs
M.initialize = initialize

return M
