--- luma.manifold TSNE: t-distributed stochastic neighbour embedding (van
-- der Maaten and Hinton 2008; notes 003 §1.15, §3.18), scikit-learn's
-- TSNE (1.2.1) in parameters, schedule and arithmetic.
--
-- Input similarities p_{j|i} = exp(-beta_i d_ij^2) / sum, beta_i by
-- bisection to the target perplexity (the notes give no bandwidth: their
-- exp(-D_ij^2) is beta = 1), symmetrized P = (C + C^T) / sum.  Output
-- similarities q_ij proportional to (1 + |y_i - y_j|^2)^-1 -- the notes'
-- erratum (1 + |.|^{-2}) corrected -- or, with embedding_kernel =
-- "gaussian", the notes' symmetric SNE exp(-|y_i - y_j|^2).  KL(P || Q) is
-- minimized by gradient descent with momentum and per-coordinate gains
-- (Jacobs 1988): 250 iterations with P multiplied by early_exaggeration
-- and momentum 0.5, then momentum 0.8.
--
-- method "exact" forms the dense P and the O(n^2) gradient; "barnes_hut"
-- keeps P on the 3 perplexity + 1 nearest neighbours and approximates
-- the repulsion with a quadtree (van der Maaten 2014).  Neighbours come
-- from luma.manifold.common (brute force by blocks of rows).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local dcommon = require("luma.decomposition.common")
local native = require("luma.manifold.native")
local mcommon = require("luma.manifold.common")

local fail = dcommon.fail

local M = {}

local NAME = "TSNE"
local EXPLORATION_ITERS = 250
local CHECK_EVERY = 50
local MACHINE_EPSILON = dcommon.EPS

-- The squared distances the similarities start from.
local function squared_distances(p, X)
  if p.metric == "precomputed" then return X:pow(2) end
  return luma.pairwise.distances(X, "sqeuclidean")
end

-- Dense joint probabilities (scikit-learn's _joint_probabilities): the
-- off-diagonal entries floored at machine epsilon.
local function joint_dense(p, X)
  local C = native.conditional(squared_distances(p, X), p.perplexity)
  local P = C + C:t()
  P = P / math.max(P:sum(), MACHINE_EPSILON)
  P = luma.matrix.where(P:lt(MACHINE_EPSILON), MACHINE_EPSILON, P)
  P:diag():assign(0)
  return P
end

-- Sparse joint probabilities on the neighbour graph
-- (_joint_probabilities_nn): {indptr, cols, vals}.
local function joint_sparse(p, X)
  local n = X:rows()
  local k = math.min(n - 1, math.floor(3 * p.perplexity + 1))
  local idx, dist = mcommon.neighbours(X, k, nil, p.metric == "precomputed")
  local C = native.conditional(dist, p.perplexity, { exclude_self = false })
  local indptr, cols, vals = native.joint(idx, C)
  return { indptr = indptr, cols = cols, vals = vals }
end

local function initial_embedding(self, X, rng, init)
  local p = self.params
  local n, c = X:rows(), p.n_components
  if luma.ismatrix(init) then
    if init:rows() ~= n or init:cols() ~= c then
      fail("%s: init must be a %d x %d matrix", NAME, n, c)
    end
    return init:copy()
  elseif init == "pca" then
    local Y = luma.decomposition.PCA{ n_components = c, svd_solver = "randomized", seed = rng }
      :fit_transform(X)
    return Y / Y:col(1):std() * 1e-4
  end
  return rng:normal(n, c) * 1e-4
end

-- scikit-learn's _gradient_descent from iteration `first` (0-based) up to
-- n_iter: gains grow by 0.2 where the update and the gradient disagree in
-- sign and shrink by 0.8 elsewhere (at least min_gain = 0.01); the
-- divergence is computed every 50 iterations, which also checks for
-- progress and a vanishing gradient.
local function descend(self, state, objective, first, n_iter, momentum, patience)
  local p = self.params
  local Y, update, gains = state.Y, state.update, state.gains
  local err = math.huge
  local best_error, best_iter = math.huge, first
  local i = first
  for it = first, n_iter - 1 do
    i = it
    local check = (it + 1) % CHECK_EVERY == 0
    local grad, kl = objective(Y, check or it == n_iter - 1)
    if kl then err = kl end
    local inc = update:mul(grad):lt(0)
    gains = luma.matrix.where(inc, gains + 0.2, gains * 0.8):maximum(0.01)
    grad = grad:mul(gains)
    update = update * momentum - grad * state.learning_rate
    Y = Y + update
    if check then
      if err < best_error then
        best_error, best_iter = err, it
      elseif it - best_iter > patience then
        break
      end
      if grad:norm() <= p.min_grad_norm then break end
    end
  end
  state.Y, state.update, state.gains = Y, update, gains
  return err, i
end

local function fit_transform(self, X)
  local p = self.params
  dcommon.check_finite(NAME, "fit", X)
  local n = X:rows()
  if n < 2 then fail("bad argument #1 to 'fit' (%s needs at least 2 rows, X has %d)", NAME, n) end
  if p.perplexity >= n then
    fail("bad argument #1 to 'fit' (%s: perplexity = %s must be less than n_samples = %d)", NAME,
      dcommon.number_text(p.perplexity), n)
  end
  local gaussian = p.embedding_kernel == "gaussian"
  if gaussian and p.method ~= "exact" then
    fail("%s: embedding_kernel \"gaussian\" (symmetric SNE) needs method \"exact\"", NAME)
  end
  if p.method == "barnes_hut" and p.n_components > 3 then
    fail("%s: method \"barnes_hut\" needs n_components <= 3 (a quadtree or an octree); use "
      .. "method \"exact\"", NAME)
  end
  local init = p.init
  if p.metric == "precomputed" then
    if X:cols() ~= n then
      fail("bad argument #1 to 'fit' (%s: a precomputed distance matrix must be square, got "
        .. "%d x %d)", NAME, n, X:cols())
    end
    if X:lt(0):any() then fail("bad argument #1 to 'fit' (%s: distances must be >= 0)", NAME) end
    if init == "pca" then fail("%s: init \"pca\" needs rows, not metric \"precomputed\"", NAME) end
  end
  local rng = estimator.rng(p.seed)
  local dof = math.max(p.n_components - 1, 1)
  local objective
  local P, S
  if p.method == "exact" then
    P = joint_dense(p, X)
    objective = function(Y, err)
      return native.grad_exact(Y, P, { dof = dof, gaussian = gaussian, error = err })
    end
  else
    S = joint_sparse(p, X)
    objective = function(Y, err)
      return native.grad_bh(Y, S.indptr, S.cols, S.vals, { theta = p.angle, dof = dof, error = err })
    end
  end
  local lr = p.learning_rate
  if lr == "auto" then
    lr = math.max(n / p.early_exaggeration / 4, 50)
  elseif type(lr) ~= "number" or not (lr > 0) then
    fail("%s: learning_rate must be a number > 0 or \"auto\", got %s", NAME, tostring(lr))
  end
  local Y0 = initial_embedding(self, X, rng, init)
  local state = { Y = Y0, update = luma.zeros(n, p.n_components), gains = luma.ones(n, p.n_components),
                  learning_rate = lr }
  -- early exaggeration
  local function exaggerate(f)
    if P then P = P * f else S.vals = S.vals * f end
  end
  exaggerate(p.early_exaggeration)
  local kl, it = descend(self, state, objective, 0, EXPLORATION_ITERS, 0.5, EXPLORATION_ITERS)
  exaggerate(1 / p.early_exaggeration)
  if it < EXPLORATION_ITERS or p.n_iter > EXPLORATION_ITERS then
    kl, it = descend(self, state, objective, it + 1, p.n_iter, 0.8, p.n_iter_without_progress)
  end
  self.embedding = state.Y
  self.kl_divergence = kl
  self.n_iter = it
  self.learning_rate = lr
  return state.Y
end

M.TSNE = estimator.class{
  name = "luma.manifold.TSNE",
  kind = "transformer",
  doc = "t-distributed stochastic neighbour embedding (van der Maaten and Hinton, Visualizing "
    .. "data using t-SNE, JMLR 2008), as scikit-learn's TSNE: input similarities calibrated to "
    .. "a perplexity, a Student-t kernel in the embedding, KL(P || Q) minimized by gradient "
    .. "descent with momentum, gains and early exaggeration. method \"barnes_hut\" keeps P on "
    .. "the nearest neighbours and approximates the repulsion with a quadtree (van der "
    .. "Maaten, Accelerating t-SNE using tree-based algorithms, JMLR 2014); \"exact\" is "
    .. "O(n^2). embedding_kernel \"gaussian\" gives symmetric SNE. Fitted: embedding, "
    .. "kl_divergence (final), n_iter, learning_rate (the one used).",
  params = {
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "embedding dimension" },
    { name = "perplexity", type = "number", default = 30, gt = 0,
      doc = "effective number of neighbours (less than the number of points)" },
    { name = "early_exaggeration", type = "number", default = 12, min = 1,
      doc = "P is multiplied by it during the first 250 iterations" },
    { name = "learning_rate", type = "number|string", default = "auto",
      doc = "step size, or \"auto\": max(N / early_exaggeration / 4, 50)" },
    { name = "n_iter", type = "integer", default = 1000, min = 250, doc = "iterations at most" },
    { name = "n_iter_without_progress", type = "integer", default = 300, min = 1,
      doc = "stop after this many iterations without a lower divergence (checked every 50)" },
    { name = "min_grad_norm", type = "number", default = 1e-7, min = 0,
      doc = "stop when the gradient norm falls below it" },
    { name = "metric", type = "string", default = "euclidean", values = { "euclidean", "precomputed" },
      doc = "distances of the rows, or X is a distance matrix" },
    { name = "init", type = "string|matrix", default = "pca",
      doc = "\"pca\" (scaled to standard deviation 1e-4), \"random\" or an n x n_components matrix" },
    { name = "method", type = "string", default = "barnes_hut", values = { "barnes_hut", "exact" },
      doc = "Barnes-Hut approximation or the exact gradient" },
    { name = "angle", type = "number", default = 0.5, min = 0, max = 1,
      doc = "Barnes-Hut: cells narrower than angle times their distance count as one point" },
    { name = "embedding_kernel", type = "string", default = "student_t",
      values = { "student_t", "gaussian" },
      doc = "Student-t (t-SNE) or Gaussian (symmetric SNE, method exact) output similarities" },
    { name = "seed", type = "seed", doc = "initialization" },
  },
  example = function()
    return M.TSNE{ perplexity = 3, n_iter = 250, seed = 0, method = "exact" }, dcommon.example_data()
  end,
  method_docs = {
    fit_transform = { signature = "est:fit_transform(X [, y = nil]) -> matrix",
      doc = "Computes and returns the embedding of the rows of X (or of the distance matrix "
        .. "X), n x n_components." },
  },
  fit = function(self, X) fit_transform(self, X) end,
  fit_transform = fit_transform,
}

return M
