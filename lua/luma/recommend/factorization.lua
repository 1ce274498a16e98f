--- luma.recommend.factorization: low-rank matrix factorization of a
-- ratings matrix (notes 001 §K).
--
-- Ratings are an n_users x n_items sparse matrix R whose stored entries
-- are the observed set Omega (a stored 0 is a rating of 0), or (user,
-- item) pairs with their ratings.  Each user i gets a row u_i and each
-- item j a row v_j of k factors, and r_ij is predicted by <u_i, v_j>:
--
-- AltMin: MAP estimation with Gaussian noise and Gaussian priors, i.e.
--   min sum_{(i,j) in Omega} (R_ij - <u_i, v_j>)^2
--       + reg (sum |u_i|^2 + sum |v_j|^2),
-- by alternating exact minimization (the notes' AltMin): every u_i solves
-- (sum_{j:(i,j) in Omega} v_j v_j' + reg I) u_i = sum R_ij v_j, then every
-- v_j the same against the new U.  Each half-step minimizes the objective
-- over its block exactly, so the objective never increases.
--
-- FunkSVD: the notes' SGD variant, with a global mean and user and item
-- biases (Funk 2006; Koren, Bell & Volinsky, IEEE Computer 42, 2009,
-- eq. 5): r_ij ~ mu + b_i + c_j + <u_i, v_j>, one O(k) update per rating.
--
-- ImplicitALS: implicit feedback (counts, clicks) as Hu, Koren & Volinsky
-- (ICDM 2008): every (i, j) has preference p = [r_ij > 0] and confidence
-- c = 1 + alpha r_ij; ALS on sum c (p - <u, v>)^2 + reg (|U|^2 + |V|^2) with
-- V'V computed once per half-sweep (their eq. 4), each row solved by a few
-- conjugate-gradient steps from the previous sweep (Takacs, Pilaszy &
-- Tikk, RecSys 2011) or exactly by Cholesky.
--
-- The per-row solves run on the state's native threads
-- (src/ml/recommend/factor.c).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")
local native = require("luma.recommend.native")
local mpi = require("luma.mpi")
local neighbors_native = require("luma.neighbors.native") -- per-row top-k selection

local factorization = {}

local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end

-- ----------------------------------------------------------------- ratings

-- R (sparse) from fit's X and y: X sparse (y nil), or X an n x 2 matrix of
-- 1-based (user, item) pairs with y their ratings.  Sizes from the
-- parameters n_users / n_items, else the largest indices.
local function ratings_of(self, X, y)
  local name = self.__class.short_name
  local p = self.params
  local R
  if luma.sparse.issparse(X) then
    if y ~= nil then
      fail("bad argument #2 to 'fit' (%s: y must be nil when X is the sparse ratings matrix)",
        name)
    end
    R = X
  elseif luma.ismatrix(X) then
    if X:cols() ~= 2 then
      fail("bad argument #1 to 'fit' (%s: X must be the sparse ratings matrix or n x 2 "
        .. "(user, item) pairs, got %d columns)", name, X:cols())
    end
    if not luma.ismatrix(y) or y:rows() * y:cols() ~= X:rows() then
      fail("bad argument #2 to 'fit' (%s: y must hold one rating per row of X (%d))", name,
        X:rows())
    end
    for c, what in ipairs({ "user", "item" }) do
      local col = X:col(c)
      if not (col:ge(1):all() and col:eq(col:floor()):all()) then
        fail("bad argument #1 to 'fit' (%s: column %d of X must hold %s indices, integers >= 1)",
          name, c, what)
      end
    end
    local n_users = p.n_users or math.tointeger(X:col(1):max())
    local n_items = p.n_items or math.tointeger(X:col(2):max())
    if X:col(1):max() > n_users or X:col(2):max() > n_items then
      fail("bad argument #1 to 'fit' (%s: X has a user above n_users = %d or an item above "
        .. "n_items = %d)", name, n_users, n_items)
    end
    R = luma.sparse.csr(n_users, n_items, X:col(1), X:col(2), y:reshape(X:rows(), 1))
    if R:nnz() < X:rows() then
      fail("bad argument #1 to 'fit' (%s: X holds a (user, item) pair more than once; "
        .. "%d pairs but %d distinct)", name, X:rows(), R:nnz())
    end
  else
    fail("bad argument #1 to 'fit' (%s: X must be the sparse ratings matrix or n x 2 (user, "
      .. "item) pairs, got %s)", name, type(X))
  end
  if p.n_users and R:rows() ~= p.n_users or p.n_items and R:cols() ~= p.n_items then
    fail("bad argument #1 to 'fit' (%s: the ratings are %d x %d but n_users = %s, n_items = %s)",
      name, R:rows(), R:cols(), tostring(p.n_users), tostring(p.n_items))
  end
  if R:nnz() == 0 then fail("bad argument #1 to 'fit' (%s: there are no ratings)", name) end
  local _, _, v = R:coo()
  if not v:isfinite():all() then
    fail("bad argument #1 to 'fit' (%s: the ratings hold NaN or infinite values)", name)
  end
  local scale = p.rating_scale
  if scale then
    if type(scale) ~= "table" or type(scale[1]) ~= "number" or type(scale[2]) ~= "number"
      or not (scale[1] < scale[2]) then
      fail("bad argument #1 to 'fit' (%s: rating_scale must be {lowest, highest})", name)
    end
    if v:min() < scale[1] or v:max() > scale[2] then
      fail("bad argument #1 to 'fit' (%s: a rating lies outside rating_scale [%g, %g] (the "
        .. "ratings span [%g, %g])", name, scale[1], scale[2], v:min(), v:max())
    end
  end
  return R, v
end

-- The (user, item) pairs of predict as two 1-based index columns, checked
-- against the fitted sizes.
local function pairs_of(self, X, method)
  local name = self.__class.short_name
  if not luma.ismatrix(X) or X:cols() ~= 2 then
    fail("bad argument #1 to '%s' (%s: X must be n x 2 (user, item) pairs)", method, name)
  end
  local sizes = { self.user_factors:rows(), self.item_factors:rows() }
  for c, what in ipairs({ "user", "item" }) do
    local col = X:col(c)
    if not col:eq(col:floor()):all() or col:lt(1):any() then
      fail("bad argument #1 to '%s' (%s: %s indices must be integers >= 1)", method, name, what)
    end
    if col:gt(sizes[c]):any() then
      fail("bad argument #1 to '%s' (%s: %s %d was not seen at fit (the model has %d %ss))",
        method, name, what, math.tointeger(col:max()), sizes[c], what)
    end
  end
  return X:col(1):copy(), X:col(2):copy()
end

-- Clips predictions into rating_scale, when there is one.
local function clipped(self, pred)
  local scale = self.params.rating_scale
  if not scale then return pred end
  return pred:maximum(scale[1]):minimum(scale[2])
end

-- Scores of every item for the given users (m x n_items), the items each
-- rated at fit -inf when exclude_seen.
local function scores_for(self, users, exclude_seen)
  local S = self.user_factors:take(users) * self.item_factors:t()
  if self.user_bias then
    S = S + self.user_bias:take(users) + self.item_bias:t() + self.global_mean
  end
  if exclude_seen then
    local rows, cols = self.seen:take(users):coo()
    for e = 1, rows:rows() do S:set(rows:get(e, 1), cols:get(e, 1), -math.huge) end
  end
  return S
end

-- Errors unless self is fitted (the methods beyond the contract's check
-- it themselves).
local function check_fitted(self, method)
  if not self:is_fitted() then fail("%s: %s called before fit", self.__class.name, method) end
end

-- users as a column of 1-based indices: an integer or a vector of them.
local function users_arg(self, users, method)
  local name = self.__class.short_name
  check_fitted(self, method)
  local n = self.user_factors:rows()
  local col
  if math.type(users) == "integer" then
    col = luma.matrix{ { users } }
  elseif luma.ismatrix(users) and (users:cols() == 1 or users:rows() == 1) then
    col = users:reshape(users:rows() * users:cols(), 1)
  else
    fail("bad argument #1 to '%s' (%s: user must be an integer or a vector of user indices)",
      method, name)
  end
  if not (col:ge(1):all() and col:le(n):all() and col:eq(col:floor()):all()) then
    fail("bad argument #1 to '%s' (%s: users are integers in [1, %d])", method, name, n)
  end
  return col
end

local SEEN_OPTION = { exclude_seen = true }

local METHOD_DOCS = {
  fit = { signature = "est:fit(R) or est:fit(X, y)",
    doc = "Fits the factors to the ratings: R an n_users x n_items sparse matrix (its stored "
      .. "entries are the observed ratings), or X an n x 2 matrix of 1-based (user, item) pairs "
      .. "and y their n ratings. Returns the estimator itself." },
  predict = { signature = "est:predict(X)",
    doc = "The predicted rating of each (user, item) pair, X n x 2 of 1-based indices (clipped "
      .. "into rating_scale when set). Returns an n x 1 matrix." },
  score = { signature = "est:score(X, y)",
    doc = "The R^2 of predict(X) against the ratings y. Returns a number, 1 at best." },
  recommend = { signature = "est:recommend(users, k [, {exclude_seen = true}]) -> items, scores",
    doc = "Each user's k best-scored items (users an integer or a vector of 1-based user "
      .. "indices), leaving out the items the user rated at fit unless exclude_seen = false. "
      .. "Returns items (m x k, 1-based, the smaller first on ties) and their scores (m x k; "
      .. "-inf where a user has fewer than k unseen items)." },
  item_scores = { signature = "est:item_scores(users [, {exclude_seen = true}])",
    doc = "Every item's score for each user (users an integer or a vector of 1-based user "
      .. "indices): predicted ratings (AltMin, FunkSVD) or preferences (ImplicitALS), -inf for "
      .. "the items the user rated at fit unless exclude_seen = false. Returns an m x n_items "
      .. "matrix." },
  similar_items = { signature = "est:similar_items(item, k) -> items, similarities",
    doc = "The k items whose factor rows have the largest cosine similarity to item's (item "
      .. "itself left out). Returns items (k x 1) and similarities (k x 1)." },
}

--- Adds the shared methods to spec and makes the class.
local function model_class(spec)
  spec.kind = "regressor"
  spec.input = "any"
  spec.requires_y = false
  spec.method_docs = METHOD_DOCS
  local fit = spec.fit
  spec.fit = function(self, X, y)
    local R, values = ratings_of(self, X, y)
    fit(self, R, values)
    self.n_features_in = 2
    -- the ratings seen, for recommend's exclude_seen
    self.seen = R
  end
  spec.predict = function(self, X)
    local users, items = pairs_of(self, X, "predict")
    local pred = self.user_factors:take(users):mul(self.item_factors:take(items)):sum(2)
    if self.user_bias then
      pred = pred + self.user_bias:take(users) + self.item_bias:take(items) + self.global_mean
    end
    return clipped(self, pred)
  end
  spec.item_scores = function(self, users, opts)
    local col = users_arg(self, users, "item_scores")
    local name = self.__class.short_name
    opts = args.options(name .. ":item_scores", 2, opts, nil, SEEN_OPTION, 1)
    return scores_for(self, col, opts.exclude_seen ~= false)
  end
  spec.recommend = function(self, users, k, opts)
    local name = self.__class.short_name
    local col = users_arg(self, users, "recommend")
    local n_items = self.item_factors:rows()
    if math.type(k) ~= "integer" or k < 1 or k > n_items then
      fail("bad argument #2 to 'recommend' (%s: k must be an integer in [1, %d])", name, n_items)
    end
    opts = args.options(name .. ":recommend", 3, opts, nil, SEEN_OPTION, 1)
    local S = scores_for(self, col, opts.exclude_seen ~= false)
    local negated, items = neighbors_native.select_rows(S * -1, k)
    return items, negated * -1
  end
  spec.similar_items = function(self, item, k)
    local name = self.__class.short_name
    check_fitted(self, "similar_items")
    local V = self.item_factors
    local n = V:rows()
    if math.type(item) ~= "integer" or item < 1 or item > n then
      fail("bad argument #1 to 'similar_items' (%s: item must be an integer in [1, %d])", name, n)
    end
    if math.type(k) ~= "integer" or k < 1 or k > n - 1 then
      fail("bad argument #2 to 'similar_items' (%s: k must be an integer in [1, %d])", name, n - 1)
    end
    local sim = luma.pairwise.distances(V:row(item), V, "cosine") * -1 + 1
    sim:set(1, item, -math.huge)
    local negated, items = neighbors_native.select_rows(sim * -1, k)
    return items:t():copy(), (negated * -1):t():copy()
  end
  return estimator.class(spec)
end

-- One half-sweep: every row of U solves its problem against V; with
-- split, under an MPI job of several ranks, rank r solves the r-th
-- contiguous block of rows and luma.mpi.allgather assembles U on every
-- rank (every rank holds all the ratings: only the solves are shared, and
-- since each row's solve is independent, U is the same, bit for bit,
-- with any number of ranks).
local function half_sweep(R, V, U, reg, opts, split)
  local ranks = split and mpi.size() or 1
  if ranks == 1 then return native.als_sweep(R, V, U, reg, opts) end
  local n, k = U:rows(), U:cols()
  local rank = mpi.rank()
  local first = (n * rank) // ranks + 1
  local last = (n * (rank + 1)) // ranks
  local part = luma.zeros(math.max(0, last - first + 1), k)
  if last >= first then
    part:assign(U:sub(first, last, 1, k))
    native.als_sweep(R:sub(first, last), V, part, reg, opts)
  end
  mpi.allgather(part, U)
  return U
end

-- Starting factors: normal with std init_std, from the generator.
local function start(rng, rows, k, std)
  return rng:normal(rows, k) * std
end

local SIZE_PARAMS = {
  { name = "n_users", type = "integer", min = 1,
    doc = "users (rows) when fitting on pairs; nil: the largest user index" },
  { name = "n_items", type = "integer", min = 1,
    doc = "items (columns) when fitting on pairs; nil: the largest item index" },
  { name = "rating_scale", type = "table",
    doc = "{lowest, highest}: ratings outside it are refused at fit, predictions clipped to it" },
}

local MPI_PARAM = { name = "mpi", type = "boolean", default = false,
  doc = "under an MPI job of several ranks (luma.mpi), share each half-sweep's rows among the "
    .. "ranks; every rank runs the same script on the same ratings and ends with the same "
    .. "factors" }

local function with_sizes(params, extra)
  for _, p in ipairs(SIZE_PARAMS) do params[#params + 1] = p end
  if extra then params[#params + 1] = extra end
  return params
end

local function example(make)
  return function()
    -- 6 users x 5 items of rank-1 ratings u_i v_j, 18 of them observed
    local pairs, ratings = {}, {}
    local u, v = { 1, 2, 3, 1, 2, 3 }, { 1, 2, 1, 3, 2 }
    for i = 1, 6 do
      for j = 1, 5 do
        if (i + j) % 5 ~= 0 and (i * j) % 4 ~= 1 then
          pairs[#pairs + 1] = { i, j }
          ratings[#ratings + 1] = { u[i] * v[j] }
        end
      end
    end
    return make(), luma.matrix(pairs), luma.matrix(ratings)
  end
end

-- ------------------------------------------------------------------ AltMin

factorization.AltMin = model_class{
  name = "luma.recommend.AltMin",
  doc = "Low-rank matrix completion by alternating minimization (Jain, Netrapalli & "
    .. "Sanghavi, STOC 2013; MAP with Gaussian noise and priors): min over U, V of the squared "
    .. "error on the observed "
    .. "ratings + reg (|U|^2 + |V|^2), each half-step an exact ridge solve per user, then per "
    .. "item, so the objective never increases (Koren, Bell & Volinsky 2009). Fitted: "
    .. "user_factors (n_users x k), item_factors (n_items x k), objective (its value after "
    .. "each iteration), n_iter.",
  params = with_sizes({
    { name = "n_factors", type = "integer", default = 10, min = 1, doc = "k, the rank" },
    { name = "reg", type = "number", default = 0.1, gt = 0, doc = "lambda, the prior's penalty" },
    { name = "max_iter", type = "integer", default = 50, min = 1, doc = "most AltMin iterations" },
    { name = "tol", type = "number", default = 1e-6, min = 0,
      doc = "stop when an iteration lowers the objective by less than tol times its value" },
    { name = "init_std", type = "number", default = 0.1, gt = 0,
      doc = "std of the normal starting item factors" },
    { name = "seed", type = "seed", doc = "the starting item factors" },
  }, MPI_PARAM),
  example = example(function() return factorization.AltMin{ n_factors = 2, seed = 1 } end),
  fit = function(self, R)
    local p = self.params
    local k = p.n_factors
    local rng = estimator.rng(p.seed)
    local Rt = R:t()
    local U = luma.zeros(R:rows(), k)
    local V = start(rng, R:cols(), k, p.init_std)
    self.objective = {}
    local previous = math.huge
    for it = 1, p.max_iter do
      half_sweep(R, V, U, p.reg, nil, p.mpi)
      half_sweep(Rt, U, V, p.reg, nil, p.mpi)
      local value = native.als_objective(R, U, V, p.reg)
      self.objective[it] = value
      self.n_iter = it
      if previous - value < p.tol * value then break end
      previous = value
    end
    self.user_factors, self.item_factors = U, V
  end,
}

-- ----------------------------------------------------------------- FunkSVD

factorization.FunkSVD = model_class{
  name = "luma.recommend.FunkSVD",
  doc = "Matrix factorization by stochastic gradient descent with biases (Funk 2006; Koren, "
    .. "Bell & Volinsky 2009, eq. 5; Surprise's SVD): r ~ mean + b_user + b_item + <u, v>, "
    .. "one pass over the ratings in a fresh random order per epoch. Fitted: user_factors, "
    .. "item_factors, user_bias (n_users x 1), item_bias (n_items x 1), global_mean, "
    .. "train_rmse (after each epoch).",
  params = with_sizes{
    { name = "n_factors", type = "integer", default = 100, min = 1, doc = "k, the rank" },
    { name = "n_epochs", type = "integer", default = 20, min = 1, doc = "passes over the ratings" },
    { name = "biased", type = "boolean", default = true,
      doc = "learn the global mean and the user and item biases" },
    { name = "lr", type = "number", default = 0.005, gt = 0, doc = "the learning rate" },
    { name = "reg", type = "number", default = 0.02, min = 0, doc = "the factors' penalty" },
    { name = "reg_bias", type = "number", default = 0.02, min = 0, doc = "the biases' penalty" },
    { name = "init_std", type = "number", default = 0.1, gt = 0,
      doc = "std of the normal starting factors" },
    { name = "seed", type = "seed", doc = "the starting factors and the visiting orders" },
  },
  example = example(function() return factorization.FunkSVD{ n_factors = 2, seed = 1 } end),
  fit = function(self, R, values)
    local p = self.params
    local k = p.n_factors
    local rng = estimator.rng(p.seed)
    local users, items = R:coo()
    local n = values:rows()
    local P, Q = start(rng, R:rows(), k, p.init_std), start(rng, R:cols(), k, p.init_std)
    local opts = { lr = p.lr, reg = p.reg, reg_bias = p.reg_bias }
    if p.biased then
      opts.bu, opts.bi = luma.zeros(R:rows(), 1), luma.zeros(R:cols(), 1)
      opts.mean = values:mean()
    end
    self.train_rmse = {}
    for epoch = 1, p.n_epochs do
      local sse = native.sgd_epoch(users, items, values, rng:permutation(n), P, Q, opts)
      if sse ~= sse or sse == math.huge then
        fail("%s: the training error diverged at epoch %d; lower lr", "FunkSVD", epoch)
      end
      self.train_rmse[epoch] = math.sqrt(sse / n)
    end
    self.user_factors, self.item_factors = P, Q
    self.user_bias, self.item_bias, self.global_mean = opts.bu, opts.bi, opts.mean
  end,
}

-- ------------------------------------------------------------- ImplicitALS

factorization.ImplicitALS = model_class{
  name = "luma.recommend.ImplicitALS",
  doc = "Implicit-feedback ALS (Hu, Koren & Volinsky, ICDM 2008): the stored entries are "
    .. "counts r >= 0 (plays, clicks); every (user, item) has preference [r > 0] and "
    .. "confidence 1 + alpha r, and ALS minimizes the confidence-weighted squared error + reg "
    .. "(|U|^2 + |V|^2) with V'V formed once per half-sweep; each row by cg_steps conjugate-"
    .. "gradient steps from the last sweep (Takacs et al. 2011), or exactly (solver = "
    .. "\"cholesky\"). predict and recommend score preferences <u, v>. Fitted: user_factors, "
    .. "item_factors, n_iter.",
  params = with_sizes({
    { name = "n_factors", type = "integer", default = 10, min = 1, doc = "k, the rank" },
    { name = "reg", type = "number", default = 0.01, gt = 0, doc = "lambda, the penalty" },
    { name = "alpha", type = "number", default = 40, min = 0,
      doc = "confidence per unit of r (HKV's 40)" },
    { name = "max_iter", type = "integer", default = 15, min = 1, doc = "ALS iterations" },
    { name = "solver", type = "string", default = "cg", values = { "cg", "cholesky" },
      doc = "each row's solve: a few conjugate-gradient steps, or Cholesky (exact)" },
    { name = "cg_steps", type = "integer", default = 3, min = 1, doc = "CG steps per row (solver cg)" },
    { name = "init_std", type = "number", default = 0.01, gt = 0,
      doc = "std of the normal starting factors" },
    { name = "seed", type = "seed", doc = "the starting factors" },
  }, MPI_PARAM),
  example = example(function() return factorization.ImplicitALS{ n_factors = 2, seed = 1 } end),
  fit = function(self, R, values)
    local p = self.params
    if values:min() < 0 then
      fail("bad argument #1 to 'fit' (ImplicitALS: implicit feedback must be >= 0, got %g)",
        values:min())
    end
    local k = p.n_factors
    local rng = estimator.rng(p.seed)
    local Rt = R:t()
    local U = start(rng, R:rows(), k, p.init_std)
    local V = start(rng, R:cols(), k, p.init_std)
    local steps = p.solver == "cg" and p.cg_steps or 0
    for it = 1, p.max_iter do
      half_sweep(R, V, U, p.reg, { gram = V:t() * V, alpha = p.alpha, cg_steps = steps }, p.mpi)
      half_sweep(Rt, U, V, p.reg, { gram = U:t() * U, alpha = p.alpha, cg_steps = steps }, p.mpi)
      self.n_iter = it
    end
    self.user_factors, self.item_factors = U, V
  end,
}

return factorization
