-- Sparse input across the library (docs/SPARSE.md's table): each class
-- that takes a luma.sparse matrix gives the same model and predictions as
-- on the dense matrix with the same elements (to rounding: the sparse
-- kernels sum in another order), and the classes that do not refuse one
-- with a message naming the class.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse
local CNB = dofile("tests/sparse/reference/complement_nb.lua")

local g = luma.random.Generator(21)
-- 120 x 25 counts-like data: about 15% stored, values 1..5
local S = sparse.random(120, 25, 0.15, g):scale(5):binarize(0):multiply_rows(
  luma.random.Generator(22):uniform(120, 1):mul(4):ceil())
local D = S:todense()
local y = luma.zeros(120, 1)
for i = 1, 120 do y:set(i, 1, (i * 7) % 3 + 1) end
local Q = sparse.random(9, 25, 0.3, g):scale(3)

local function max_diff(a, b)
  if sparse.issparse(a) then a = a:todense() end
  if sparse.issparse(b) then b = b:todense() end
  return (a - b):abs():max()
end

describe("sparse input to transformers", function()
  it("StandardScaler(with_mean = false), MaxAbsScaler and Normalizer match dense and stay sparse", function()
    local cases = {
      { luma.preprocessing.StandardScaler, { with_mean = false }, 1e-12 },
      { luma.preprocessing.MaxAbsScaler, {}, 1e-15 },
      { luma.preprocessing.Normalizer, { norm = "l1" }, 1e-15 },
      { luma.preprocessing.Normalizer, { norm = "l2" }, 1e-15 },
      { luma.preprocessing.Normalizer, { norm = "max" }, 1e-15 },
    }
    for _, c in ipairs(cases) do
      local a, b = c[1](c[2]):fit(S), c[1](c[2]):fit(D)
      local ta, tb = a:transform(S), b:transform(D)
      assert.is_true(sparse.issparse(ta))
      assert.equal(S:nnz(), ta:nnz())
      assert.is_true(max_diff(ta, tb) < c[3])
      if a.inverse_transform then assert.is_true(max_diff(a:inverse_transform(ta), D) < 1e-12) end
    end
    local a, b = luma.preprocessing.StandardScaler{ with_mean = false }:fit(S),
      luma.preprocessing.StandardScaler{ with_mean = false }:fit(D)
    assert.is_true(max_diff(a.var, b.var) < 1e-12)
    assert.is_true(max_diff(a.scale, b.scale) < 1e-12)
  end)

  it("refuse centring a sparse matrix, as scikit-learn does", function()
    assert.error_matches(function() luma.preprocessing.StandardScaler{}:fit(S) end,
      "StandardScaler cannot centre a sparse matrix; pass with_mean = false")
    assert.error_matches(function() luma.preprocessing.MinMaxScaler{}:fit(S) end,
      "bad argument #1 to 'fit' %(luma.preprocessing.MinMaxScaler does not accept a sparse matrix")
  end)

  it("name the first non-finite stored value", function()
    local bad = sparse.csr(3, 3, { 1, 2 }, { 2, 3 }, { 1, 0 / 0 })
    assert.error_matches(function() luma.preprocessing.MaxAbsScaler{}:fit(bad) end,
      "X has a non%-finite element, nan at row 2, column 3")
  end)
end)

describe("sparse input to naive Bayes", function()
  it("MultinomialNB, BernoulliNB and ComplementNB fit the same model", function()
    for _, name in ipairs({ "MultinomialNB", "BernoulliNB", "ComplementNB" }) do
      local a = luma.naive_bayes[name]{}:fit(S, y)
      local b = luma.naive_bayes[name]{}:fit(D, y)
      assert.is_true(max_diff(a.feature_count, b.feature_count) < 1e-12, name)
      assert.is_true(max_diff(a.feature_log_prob, b.feature_log_prob) < 1e-12, name)
      assert.is_true(max_diff(a:predict_proba(Q), b:predict_proba(Q:todense())) < 1e-12, name)
      assert.is_true(a:predict(Q) == b:predict(Q:todense()), name)
    end
  end)

  it("ComplementNB equals scikit-learn 1.2 (tests/sparse/reference/complement_nb.py)", function()
    local X, yy = luma.naive_bayes.spam_data()
    local T = luma.matrix{ { 1, 0, 2, 1 }, { 5, 1, 0, 0 } }
    for key, norm in pairs({ plain = false, norm = true }) do
      local m = luma.naive_bayes.ComplementNB{ norm = norm }:fit(sparse.from_dense(X), yy)
      assert.matrix_near(luma.matrix(CNB[key].feature_log_prob), m.feature_log_prob, 1e-14)
      assert.matrix_near(luma.matrix(CNB[key].proba), m:predict_proba(sparse.from_dense(T)), 1e-14)
      assert.are.same(CNB[key].predict, { m:predict(T):get(1, 1), m:predict(T):get(2, 1) })
    end
  end)

  it("refuse negative counts and a negative binarize threshold on sparse X", function()
    local neg = sparse.csr(2, 2, { 1, 2 }, { 1, 2 }, { 1, -3 })
    assert.error_matches(function() luma.naive_bayes.MultinomialNB{}:fit(neg, luma.matrix{ 1, 2 }) end,
      "counts must be non%-negative, X%[2%]%[2%] = %-3")
    assert.error_matches(function()
      luma.naive_bayes.BernoulliNB{ binarize = -1 }:fit(S, y)
    end, "binarize must be >= 0 for a sparse X")
  end)
end)

describe("sparse input to pairwise and neighbours", function()
  it("distances and kernels of sparse rows equal the dense ones", function()
    local T = Q:todense()
    for _, m in ipairs({ "euclidean", "sqeuclidean", "cosine" }) do
      assert.is_true(max_diff(luma.pairwise.distances(S, Q, m), luma.pairwise.distances(D, T, m)) < 1e-12)
      local self = luma.pairwise.distances(S, m)
      assert.is_true(max_diff(self, luma.pairwise.distances(D, m)) < 1e-12)
      assert.is_true(self == self:t()) -- exactly symmetric, as the dense self case
      assert.is_true(max_diff(luma.pairwise.distances(S, T, m), luma.pairwise.distances(D, T, m)) < 1e-12)
    end
    for _, k in ipairs({ "linear", "polynomial", "rbf", "sigmoid", "cosine", "rational_quadratic" }) do
      assert.is_true(max_diff(luma.pairwise.kernel(S:tocsc(), Q, k), luma.pairwise.kernel(D, T, k)) < 1e-12)
    end
    assert.error_matches(function() luma.pairwise.distances(S, "manhattan") end,
      "metric 'manhattan' does not take sparse matrices %(euclidean, sqeuclidean and cosine do%)")
    assert.error_matches(function() luma.pairwise.kernel(S, "laplacian") end,
      "kernel 'laplacian' does not take sparse matrices")
  end)

  it("NearestNeighbors searches a sparse X by brute force, as the dense one", function()
    -- continuous values: no ties that rounding could order differently
    local R = sparse.random(120, 25, 0.15, luma.random.Generator(23))
    local RD = R:todense()
    for _, metric in ipairs({ "euclidean", "cosine", "minkowski" }) do
      local a = luma.neighbors.NearestNeighbors{ n_neighbors = 4, metric = metric }:fit(R)
      local b = luma.neighbors.NearestNeighbors{ n_neighbors = 4, metric = metric, algorithm = "brute" }:fit(RD)
      assert.equal("brute", a.effective_algorithm)
      local da, ia = a:kneighbors(Q)
      local db, ib = b:kneighbors(Q:todense())
      assert.is_true(max_diff(da, db) < 1e-12)
      assert.is_true(ia == ib)
      da, ia = a:kneighbors()
      db, ib = b:kneighbors()
      assert.is_true(max_diff(da, db) < 1e-12)
      -- rows with one stored value in the same column are parallel: their
      -- cosine distances tie exactly, and rounding orders them either way
      if metric ~= "cosine" then assert.is_true(ia == ib) end
      local r = metric == "cosine" and 0.8 or 3.2
      local ra, rai, ca = a:radius_neighbors(Q, r, { flat = true })
      local rb, rbi, cb = b:radius_neighbors(Q:todense(), r, { flat = true })
      assert.is_true(ra:rows() > 20)
      assert.is_true(ca == cb)
      if metric ~= "cosine" then assert.is_true(rai == rbi) end
      assert.is_true(max_diff(ra, rb) < 1e-12)
    end
    assert.error_matches(function() luma.neighbors.NearestNeighbors{ metric = "manhattan" }:fit(S) end,
      "a sparse X takes metric euclidean %(minkowski with p = 2%) or cosine, not manhattan")
    assert.error_matches(function() luma.neighbors.NearestNeighbors{ algorithm = "kd_tree" }:fit(S) end,
      "algorithm 'kd_tree' needs a dense X")
    local dense_fit = luma.neighbors.NearestNeighbors{}:fit(D)
    assert.error_matches(function() dense_fit:kneighbors(Q) end, "fitted on a dense X")
  end)
end)

describe("sparse input to LogisticRegression", function()
  local G = luma.random.Generator(5)
  local X = sparse.random(300, 40, 0.1, G):scale(3)
  local XD = X:todense()
  local w = G:normal(40, 1)
  local y2 = (XD * w):gt(0.5)
  local y3 = y2 + (XD * w):gt(2)

  local function same(opts, y_, tol)
    local a = luma.linear.LogisticRegression(opts):fit(X, y_)
    local b = luma.linear.LogisticRegression(opts):fit(XD, y_)
    assert.is_true(max_diff(a.coef, b.coef) < tol)
    assert.is_true(max_diff(luma.matrix{ { 0 } } + a.intercept, luma.matrix{ { 0 } } + b.intercept) < tol)
    assert.is_true(max_diff(a:predict_proba(X), b:predict_proba(XD)) < tol)
    return a, b
  end

  it("lbfgs: binary, multinomial and one-vs-rest match the dense fit", function()
    for _, y_ in ipairs({ y2, y3 }) do
      same({}, y_, 1e-9)
      same({ fit_intercept = false }, y_, 1e-9)
      same({ multi_class = "ovr" }, y_, 1e-9)
    end
  end)

  it("saga: the lazy sparse steps follow the dense ones (same epochs, same zeros)", function()
    for _, y_ in ipairs({ y2, y3 }) do
      for _, opts in ipairs({
        { solver = "saga", seed = 1, max_iter = 500, tol = 1e-8 },
        { solver = "saga", penalty = "l1", C = 0.5, seed = 2, max_iter = 500, tol = 1e-8 },
        { solver = "saga", penalty = "elasticnet", l1_ratio = 0.5, seed = 3, fit_intercept = false,
          max_iter = 500, tol = 1e-8 },
      }) do
        local a, b = same(opts, y_, 1e-9)
        assert.are.same(b.n_iter, a.n_iter)
        assert.equal(b.coef:eq(0):sum(), a.coef:eq(0):sum())
      end
    end
    -- the l1 run of three classes zeroes a good part of the weights
    local l1 = luma.linear.LogisticRegression{ solver = "saga", penalty = "l1", C = 0.5, seed = 2,
      max_iter = 500, tol = 1e-8 }:fit(X, y3)
    assert.is_true(l1.coef:eq(0):sum() > 30)
  end)

  it("refuses newton on a sparse X", function()
    assert.error_matches(function() luma.linear.LogisticRegression{ solver = "newton" }:fit(X, y2) end,
      "solver \"newton\" needs a dense X")
  end)
end)

describe("sparse input to Ridge", function()
  it("sparse_cg fits what the dense solvers fit, with weights, intercept and shrink_to", function()
    local G = luma.random.Generator(6)
    local X = sparse.random(200, 50, 0.1, G):scale(3)
    local XD = X:todense()
    local Y = XD * G:normal(50, 2) + G:normal(200, 2) * 0.1 + 3
    local sw = G:uniform(200, 1) + 0.5
    for _, opts in ipairs({ {}, { fit_intercept = false }, { alpha = 0.01 }, { shrink_to = luma.ones(50, 1) } }) do
      for _, weights in ipairs({ false, true }) do
        local a = luma.linear.Ridge(opts):fit(X, Y, weights and sw or nil)
        local b = luma.linear.Ridge(opts):fit(XD, Y, weights and sw or nil)
        assert.is_true(max_diff(a.coef, b.coef) < 1e-8)
        assert.is_true(max_diff(a:predict(X), b:predict(XD)) < 1e-8)
      end
    end
    assert.error_matches(function() luma.linear.Ridge{ solver = "svd" }:fit(X, Y) end,
      "solver \"svd\" needs a dense X")
  end)
end)

describe("sparse input to Lasso and ElasticNet", function()
  it("coordinate descent on the sparse Gram matrix equals the dense fit", function()
    local G = luma.random.Generator(7)
    local X = sparse.random(200, 50, 0.1, G):scale(3)
    local XD = X:todense()
    local w = G:normal(50, 1):mul(G:uniform(50, 1):gt(0.7))
    local Y = XD * w + G:normal(200, 1) * 0.1 + 3
    local sw = G:uniform(200, 1) + 0.5
    for _, cls in ipairs({ "Lasso", "ElasticNet" }) do
      for _, opts in ipairs({ { alpha = 0.01, tol = 1e-10 }, { alpha = 0.05, fit_intercept = false, tol = 1e-10 },
        { alpha = 0.01, positive = true, tol = 1e-10 } }) do
        for _, weights in ipairs({ false, true }) do
          local a = luma.linear[cls](opts):fit(X, Y, weights and sw or nil)
          local b = luma.linear[cls](opts):fit(XD, Y, weights and sw or nil)
          assert.is_true(max_diff(a.coef, b.coef) < 1e-12)
          assert.equal(b.coef:eq(0):sum(), a.coef:eq(0):sum())
          assert.equal(b.n_iter, a.n_iter)
        end
      end
    end
    assert.is_true(luma.linear.Lasso{ alpha = 0.05 }:fit(X, Y).coef:eq(0):sum() >= 20)
  end)

  it("descends over the CSC columns (precompute = false, or wide X) as the dense residual form", function()
    local G = luma.random.Generator(15)
    for _, shape in ipairs({ { 200, 50 }, { 60, 300 } }) do
      local X = sparse.random(shape[1], shape[2], 0.1, G):scale(3)
      local XD = X:todense()
      local Y = XD * G:normal(shape[2], 1):mul(G:uniform(shape[2], 1):gt(0.7)) + G:normal(shape[1], 1) * 0.1 + 3
      local sw = G:uniform(shape[1], 1) + 0.5
      for _, cls in ipairs({ "Lasso", "ElasticNet" }) do
        for _, opts in ipairs({ { alpha = 0.01, tol = 1e-8, precompute = false, max_iter = 300 },
          { alpha = 0.05, fit_intercept = false, tol = 1e-8, precompute = false, max_iter = 300 },
          { alpha = 0.01, positive = true, tol = 1e-8, precompute = false, max_iter = 300 } }) do
          for _, weights in ipairs({ false, true }) do
            local a = luma.linear[cls](opts):fit(X, Y, weights and sw or nil)
            local b = luma.linear[cls](opts):fit(XD, Y, weights and sw or nil)
            assert.is_true(max_diff(a.coef, b.coef) < 1e-10)
            assert.equal(b.coef:eq(0):sum(), a.coef:eq(0):sum())
            assert.equal(b.n_iter, a.n_iter)
          end
        end
      end
    end
    -- wider than the Gram limit: "auto" goes over the columns
    local wide = sparse.random(30, 5000, 0.002, G)
    local _, j = wide:sum(1):argmax()
    j = math.tointeger(j)
    local y = wide:col(j):todense() * 2 + 1
    local m = luma.linear.Lasso{ alpha = 1e-3 }:fit(wide, y)
    assert.is_true(m.coef:get(j, 1) > 1) -- the column y was made from
    assert.is_true(max_diff(m.coef, luma.linear.Lasso{ alpha = 1e-3 }:fit(wide:todense(), y).coef) < 1e-10)
    assert.error_matches(function() luma.linear.Lasso{ precompute = true }:fit(wide, y) end,
      "precompute = true builds the dense Gram matrix of a sparse X, at most 4096 columns; this one has 5000")
  end)

  -- the dense LassoCV and ElasticNetCV match scikit-learn (tests/linear);
  -- a sparse X takes the same folds, grid and paths, its test folds
  -- predicted as X W - 1 (xm W), so the model is the dense one to rounding
  it("LassoCV and ElasticNetCV choose the dense model's alpha, l1_ratio and coefficients", function()
    local G = luma.random.Generator(5)
    local X = sparse.random(300, 40, 0.2, G):scale(3)
    local XD = X:todense()
    local w = G:normal(40, 1):mul(luma.random.Generator(6):uniform(40, 1):gt(0.6))
    local y = XD * w + G:normal(300, 1) * 0.1 + 2
    for _, opts in ipairs({ { cv = 5, n_alphas = 20 }, { cv = 4, n_alphas = 15, fit_intercept = false },
      { cv = 3, n_alphas = 10, precompute = false } }) do
      local a = luma.linear.LassoCV(opts):fit(X, y)
      local b = luma.linear.LassoCV(opts):fit(XD, y)
      -- the grid's top, max |X^T y| / n, from a sparse product: equal to rounding
      assert.is_true(math.abs(a.alpha - b.alpha) <= 1e-12 * b.alpha)
      assert.is_true(max_diff(a.alphas, b.alphas) <= 1e-12 * b.alphas:max())
      assert.is_true(max_diff(a.mse_path, b.mse_path) < 1e-10)
      assert.is_true(max_diff(a.coef, b.coef) < 1e-10)
      assert.is_true(math.abs(a.intercept - b.intercept) < 1e-10)
      assert.is_true(max_diff(a:predict(X), b:predict(XD)) < 1e-9)
    end
    local opts = { l1_ratio = { 0.3, 0.7, 1 }, cv = 3, n_alphas = 10 }
    local a = luma.linear.ElasticNetCV(opts):fit(X:tocsc(), y)
    local b = luma.linear.ElasticNetCV(opts):fit(XD, y)
    assert.is_true(math.abs(a.alpha - b.alpha) <= 1e-12 * b.alpha)
    assert.equal(b.l1_ratio, a.l1_ratio)
    for r = 1, 3 do assert.is_true(max_diff(a.mse_path[r], b.mse_path[r]) < 1e-10) end
    assert.is_true(max_diff(a.coef, b.coef) < 1e-10)
    -- the refit keeps the sparse path: precompute = true still needs few columns
    local wide = sparse.random(50, 5000, 0.01, G)
    assert.error_matches(function()
      luma.linear.LassoCV{ precompute = true, cv = 2, n_alphas = 3 }:fit(wide, luma.ones(50, 1))
    end, "at most 4096 columns; this one has 5000")
  end)
end)

describe("sparse input to TruncatedSVD", function()
  it("the randomized SVD of a sparse X equals the dense one from the same seed", function()
    local G = luma.random.Generator(9)
    for _, shape in ipairs({ { 300, 60 }, { 40, 200 } }) do -- both of the solver's branches
      local X = sparse.random(shape[1], shape[2], 0.1, G):scale(3)
      local a = luma.decomposition.TruncatedSVD{ n_components = 5, seed = 1 }
      local b = luma.decomposition.TruncatedSVD{ n_components = 5, seed = 1 }
      local Za, Zb = a:fit_transform(X), b:fit_transform(X:todense())
      assert.is_true(max_diff(a.components, b.components) < 1e-10)
      assert.is_true(max_diff(a.singular_values, b.singular_values) < 1e-10)
      assert.is_true(max_diff(Za, Zb) < 1e-10)
      assert.is_true(max_diff(a.explained_variance_ratio, b.explained_variance_ratio) < 1e-12)
      assert.is_true(max_diff(a:transform(X), b:transform(X:todense())) < 1e-10)
    end
    assert.error_matches(function()
      luma.decomposition.TruncatedSVD{ algorithm = "full" }:fit(sparse.eye(5))
    end, "algorithm \"full\" needs a dense X")
  end)
end)

describe("sparse input to KMeans", function()
  it("Lloyd's iterations on a sparse X give the dense fit (seeding, weights, an emptied cluster)", function()
    local G = luma.random.Generator(10)
    local X = sparse.random(300, 30, 0.2, G):scale(3)
    local XD = X:todense()
    local sw = G:uniform(300, 1) + 0.5
    -- a centre far from every row: its cluster empties at once and is re-seeded
    local init = XD:take({ 1, 2, 3 }):copy()
    init:row(3):fill(1000)
    for _, opts in ipairs({ { n_clusters = 4, seed = 1 }, { n_clusters = 6, seed = 2, init = "random" },
      { n_clusters = 3, init = init } }) do
      for _, weights in ipairs({ false, true }) do
        local a = luma.cluster.KMeans(opts):fit(X, nil, weights and sw or nil)
        local b = luma.cluster.KMeans(opts):fit(XD, nil, weights and sw or nil)
        assert.is_true(a.labels == b.labels)
        assert.is_true(max_diff(a.cluster_centers, b.cluster_centers) < 1e-12)
        assert.near(b.inertia, a.inertia, 1e-9 * b.inertia)
        assert.equal(b.n_iter, a.n_iter)
        assert.is_true(a:predict(X:sub(1, 9)) == b:predict(XD:sub(1, 9, nil, nil)))
        assert.near(b:score(XD), a:score(X), 1e-9 * b.inertia)
        assert.is_true(max_diff(a:transform(X), b:transform(XD)) < 1e-12)
      end
    end
  end)
end)

describe("sparse input to LinearSVC and LinearSVR", function()
  it("dual coordinate descent over sparse rows follows the dense one", function()
    local G = luma.random.Generator(11)
    local X = sparse.random(300, 40, 0.15, G):scale(3)
    local XD = X:todense()
    local w = G:normal(40, 1)
    local y = (XD * w):gt(0.3) + (XD * w):gt(1.5)
    for _, opts in ipairs({ { seed = 1, max_iter = 200 }, { loss = "hinge", seed = 2, max_iter = 200 },
      { fit_intercept = false, seed = 3, max_iter = 200 } }) do
      local a = luma.svm.LinearSVC(opts):fit(X:tocsc(), y)
      local b = luma.svm.LinearSVC(opts):fit(XD, y)
      assert.is_true(max_diff(a.coef, b.coef) < 1e-12)
      assert.equal(b.n_iter, a.n_iter)
      assert.is_true(a:predict(X) == b:predict(XD))
    end
    local yr = XD * w + 1
    for _, opts in ipairs({ { seed = 1 }, { loss = "squared_epsilon_insensitive", epsilon = 0.1, seed = 2 } }) do
      local a = luma.svm.LinearSVR(opts):fit(X, yr)
      local b = luma.svm.LinearSVR(opts):fit(XD, yr)
      assert.is_true(max_diff(a.coef, b.coef) < 1e-12)
      assert.is_true(max_diff(a:predict(X), b:predict(XD)) < 1e-12)
    end
  end)

  it("the l1 primal solver over sparse columns follows the dense one", function()
    local G = luma.random.Generator(12)
    local X = sparse.random(400, 60, 0.1, G):scale(3)
    local XD = X:todense()
    local w = G:normal(60, 1)
    local y = (XD * w):gt(0.2) + (XD * w):gt(1.2)
    for _, opts in ipairs({ { C = 0.5, seed = 1 }, { C = 2, fit_intercept = false, seed = 2 },
      { C = 1, intercept_scaling = 3, seed = 3, class_weight = "balanced" } }) do
      opts.penalty, opts.dual, opts.max_iter = "l1", false, 500
      for _, S in ipairs({ X, X:tocsc() }) do
        local a = luma.svm.LinearSVC(opts):fit(S, y)
        local b = luma.svm.LinearSVC(opts):fit(XD, y)
        -- the same visits and steps; only sums over a column's zeros differ
        assert.is_true(max_diff(a.coef, b.coef) < 1e-8, max_diff(a.coef, b.coef))
        assert.is_true(max_diff(a.intercept, b.intercept) < 1e-8)
        assert.equal(b.n_iter, a.n_iter)
        assert.is_true(a:predict(S) == b:predict(XD))
      end
    end
    -- the l1 penalty zeroes coefficients: some, not all
    local m = luma.svm.LinearSVC{ penalty = "l1", dual = false, C = 0.05 }:fit(X, y)
    local zeros = m.coef:eq(0):sum()
    assert.is_true(zeros > 0 and zeros < m.coef:rows() * m.coef:cols(), zeros)
    -- the native solver names the layout it reads
    local native = require("luma.svm.native")
    assert.error_matches(function()
      native.linear(X, { solver = "svc_l1", y = luma.ones(400, 1), C = luma.ones(400, 1) })
    end, "the l1 primal solver reads columns: give X as a CSC matrix")
    assert.error_matches(function()
      native.linear(X:tocsc(), { solver = "svc_dual", y = luma.ones(400, 1), C = luma.ones(400, 1) })
    end, "the dual solvers read rows: give X as a CSR matrix")
  end)
end)

describe("sparse input to the kernel SVMs", function()
  -- SMO reads the kernel from merges of CSR rows instead of dense dot
  -- products: the same solver steps, the same support vectors, the model
  -- equal to rounding; predictions take either kind of X
  local G = luma.random.Generator(14)
  local X = sparse.random(200, 40, 0.15, G):scale(3)
  local XD = X:todense()
  local w = G:normal(40, 1)
  local y = (XD * w):gt(0.3) + (XD * w):gt(1.5)

  it("SVC and NuSVC, every native kernel, with probabilities", function()
    for _, opts in ipairs({ {}, { kernel = "linear" }, { kernel = "poly", degree = 2, gamma = 0.3 },
      { kernel = "sigmoid", gamma = 0.01, coef0 = 0.5 }, { probability = true, seed = 1 },
      { gamma = "auto", class_weight = "balanced" } }) do
      local a = luma.svm.SVC(opts):fit(X, y)
      local b = luma.svm.SVC(opts):fit(XD, y)
      assert.is_true(a.support == b.support)
      assert.is_true(max_diff(a.dual_coef, b.dual_coef) < 1e-12)
      assert.is_true(max_diff(a.intercept, b.intercept) < 1e-12)
      assert.is_true(sparse.issparse(a.support_vectors))
      assert.is_true(max_diff(a:decision_function(X), b:decision_function(XD)) < 1e-12)
      assert.is_true(max_diff(a:decision_function(XD), b:decision_function(X)) < 1e-12)
      if opts.probability then
        assert.is_true(max_diff(a:predict_proba(X), b:predict_proba(XD)) < 1e-9)
      end
      if opts.kernel == "linear" then assert.is_true(max_diff(a.coef, b.coef) < 1e-12) end
    end
    local a = luma.svm.NuSVC{ nu = 0.2 }:fit(X:tocsc(), y)
    local b = luma.svm.NuSVC{ nu = 0.2 }:fit(XD, y)
    assert.is_true(max_diff(a:decision_function(X), b:decision_function(XD)) < 1e-12)
  end)

  it("SVR, NuSVR and OneClassSVM, and gamma = \"scale\" from the sparse variance", function()
    local t = XD * w
    for _, cls in ipairs({ luma.svm.SVR, luma.svm.NuSVR }) do
      local a, b = cls{ C = 2 }:fit(X, t), cls{ C = 2 }:fit(XD, t)
      assert.is_true(max_diff(a:predict(X), b:predict(XD)) < 1e-10)
    end
    local a = luma.svm.OneClassSVM{ nu = 0.2 }:fit(X)
    local b = luma.svm.OneClassSVM{ nu = 0.2 }:fit(XD)
    assert.is_true(max_diff(a:decision_function(X), b:decision_function(XD)) < 1e-10)
    -- "scale": 1 / (d var(X)), with var over every element, zeros included
    local m = luma.svm.SVC{}:fit(X, y)
    local var = XD:var()
    assert.is_true(math.abs(m.kernel_spec.gamma - 1 / (40 * var)) < 1e-12 / var)
  end)

  it("refuses the kernels that need a dense X, and a bad value, by name", function()
    assert.error_matches(function() luma.svm.SVC{ kernel = "precomputed" }:fit(X, y) end,
      "SVC: a precomputed Gram matrix needs a dense X")
    assert.error_matches(function() luma.svm.SVC{ kernel = luma.kernels.laplacian{ gamma = 0.5 } }:fit(X, y) end,
      "SVC: the laplacian kernel needs a dense X")
    assert.error_matches(function()
      luma.svm.SVC{ kernel = function(A) return A * A:t() end }:fit(X, y)
    end, "SVC: a kernel function or object needs a dense X")
    local bad = sparse.csr(3, 2, { 1, 2, 3 }, { 1, 2, 1 }, { 1, 0 / 0, 2 })
    assert.error_matches(function() luma.svm.SVC{}:fit(bad, luma.matrix{ 0, 1, 0 }) end,
      "bad argument #1 to 'fit'")
    local native = require("luma.svm.native")
    assert.error_matches(function()
      native.smo(X:tocsc(), { rows = luma.arange(1, 200):reshape(200, 1), y = luma.ones(200, 1) })
    end, "the kernel reads rows: give X as a CSR matrix")
  end)
end)

describe("sparse input to NMF", function()
  it("cd, mu and als on a sparse X (Frobenius) fit the dense model", function()
    local G = luma.random.Generator(13)
    local X = sparse.random(80, 30, 0.3, G):scale(3)
    local XD = X:todense()
    for _, opts in ipairs({ { n_components = 4, seed = 1 }, { n_components = 4, solver = "mu", seed = 1 },
      { n_components = 3, init = "random", seed = 2 }, { n_components = 4, solver = "als", seed = 1 },
      { n_components = 4, alpha_W = 0.01, l1_ratio = 0.5, seed = 1 } }) do
      local a, b = luma.decomposition.NMF(opts), luma.decomposition.NMF(opts)
      local Wa, Wb = a:fit_transform(X), b:fit_transform(XD)
      assert.is_true(max_diff(Wa, Wb) < 1e-10)
      assert.is_true(max_diff(a.components, b.components) < 1e-10)
      assert.near(b.reconstruction_err, a.reconstruction_err, 1e-9)
      assert.equal(b.n_iter, a.n_iter)
      assert.is_true(max_diff(a:transform(X), b:transform(XD)) < 1e-10)
    end
    assert.error_matches(function()
      luma.decomposition.NMF{ solver = "mu", beta_loss = "kullback-leibler" }:fit(X)
    end, "beta_loss \"kullback%-leibler\" needs a dense X")
    assert.error_matches(function()
      luma.decomposition.NMF{}:fit(sparse.csr(2, 2, { 2 }, { 1 }, { -1 }))
    end, "X must be non%-negative, X%[2%]%[1%] = %-1")
  end)
end)

describe("sparse input to the neighbour models", function()
  it("KNeighbors and RadiusNeighbors classifiers and regressors predict as on the dense X", function()
    local G = luma.random.Generator(14)
    local X = sparse.random(200, 30, 0.2, G)
    local XD = X:todense()
    local y = (XD:col(1) + XD:col(2)):gt(0.3) + 1
    local yr = XD:col(1) + XD:col(2) * 2
    local T = sparse.random(20, 30, 0.2, G)
    local TD = T:todense()
    local function same(cls, opts, yy, exact)
      local a = luma.neighbors[cls](opts):fit(X, yy)
      local b = luma.neighbors[cls](opts):fit(XD, yy)
      if exact then
        assert.is_true(a:predict(T) == b:predict(TD), cls)
      else
        assert.is_true(max_diff(a:predict(T), b:predict(TD)) < 1e-12, cls)
      end
    end
    same("KNeighborsClassifier", { n_neighbors = 5, weights = "distance" }, y, true)
    same("RadiusNeighborsClassifier", { radius = 1.5, outlier_label = 1 }, y, true)
    same("KNeighborsRegressor", { n_neighbors = 4 }, yr)
    same("RadiusNeighborsRegressor", { radius = 1.5 }, yr)
  end)
end)

describe("sparse input through pipelines, searches and resampling", function()
  it("reaches the steps, splits by rows and scores as the dense X does", function()
    local G = luma.random.Generator(16)
    local X = sparse.random(100, 20, 0.2, G)
    local XD = X:todense()
    local y = XD:col(1):gt(0.1) + 1
    local function pipe()
      return luma.pipeline.Pipeline{ steps = { { "scale", luma.preprocessing.MaxAbsScaler{} },
        { "clf", luma.linear.LogisticRegression{} } } }
    end
    assert.near(pipe():fit(XD, y):score(XD, y), pipe():fit(X, y):score(X, y), 1e-12)
    local cv = luma.model_selection.cross_val_score(luma.linear.LogisticRegression{}, X:tocsc(), y, { cv = 3 })
    assert.is_true(max_diff(cv, luma.model_selection.cross_val_score(luma.linear.LogisticRegression{}, XD, y,
      { cv = 3 })) < 1e-12)
    local search = luma.model_selection.GridSearchCV{ estimator = pipe(), param_grid = { clf__C = { 0.1, 1 } },
      cv = 3 }:fit(X, y)
    local dense = luma.model_selection.GridSearchCV{ estimator = pipe(), param_grid = { clf__C = { 0.1, 1 } },
      cv = 3 }:fit(XD, y)
    assert.near(dense.best_score, search.best_score, 1e-12)
    local train, test = luma.model_selection.train_test_split(X, y, { seed = 1 })
    assert.is_true(sparse.issparse(train) and train:rows() == 75 and test:rows() == 25)
    assert.is_true(X:tocsc():take({ 3, 1, 3 }):todense() == XD:take({ 3, 1, 3 }))
    local yr = XD:col(1) * 2
    local _, coefs = luma.linear.lasso_path(X, yr, { n_alphas = 5 })
    local _, dense_coefs = luma.linear.lasso_path(XD, yr, { n_alphas = 5 })
    assert.is_true(max_diff(coefs, dense_coefs) < 1e-12)
    assert.error_matches(function()
      luma.pipeline.Pipeline{ steps = { { "m", luma.preprocessing.MinMaxScaler{} } } }:fit(X)
    end, "MinMaxScaler does not accept a sparse matrix")
  end)
end)
