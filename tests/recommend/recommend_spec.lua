-- luma.recommend: the notes' AltMin, FunkSVD and implicit ALS, checked
-- against closed forms (each half-sweep is a set of ridge solves, written
-- out densely here), the notes' recovery fixture, and hand-computed SGD
-- updates; the tools (ratings, leave_k_out, evaluate) on small cases.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local rec = luma.recommend
local native = require("luma.recommend.native")

-- The notes' fixture: a rank-3 60 x 40 matrix U V', 30% of it observed
-- with N(0, 0.01^2) noise; the rest held out (noise-free truth).
local function fixture()
  local g = luma.random.Generator(5)
  local U, V = g:normal(60, 3), g:normal(40, 3)
  local full = U * V:t()
  local observed = g:uniform(60, 40):lt(0.3)
  local noisy = full + g:normal(60, 40) * 0.01
  local obs, held = { {}, {}, {} }, { {}, {}, {} }
  for i = 1, 60 do
    for j = 1, 40 do
      local part, value = held, full:get(i, j)
      if observed:get(i, j) == 1 then part, value = obs, noisy:get(i, j) end
      part[1][#part[1] + 1], part[2][#part[2] + 1], part[3][#part[3] + 1] = i, j, value
    end
  end
  local R = luma.sparse.csr(60, 40, obs[1], obs[2], obs[3])
  local pairs = luma.matrix.hstack{ luma.matrix(held[1]), luma.matrix(held[2]) }
  return R, pairs, luma.matrix(held[3])
end

-- Row r of the explicit half-sweep, densely: (sum v v' + reg I)^-1 sum x v
-- over the stored entries of row r.
local function dense_explicit_row(R, V, r, reg)
  local k = V:cols()
  local A, b = luma.eye(k) * reg, luma.zeros(k, 1)
  local _, cols, vals = R:row(r):coo()
  for e = 1, cols:rows() do
    local v = V:row(cols:get(e, 1)):t()
    A = A + v * v:t()
    b = b + v * vals:get(e, 1)
  end
  return luma.linalg.solve(A, b):t()
end

-- Row r of the implicit half-sweep as Hu, Koren & Volinsky's eq. 4 with
-- dense C_u and p(u): (V' C V + reg I)^-1 V' C p.
local function dense_implicit_row(R, V, r, reg, alpha)
  local n = V:rows()
  local dense = R:row(r):todense()
  local C = luma.eye(n) + luma.diag((dense * alpha):t())
  local p = dense:gt(0):t()
  return luma.linalg.solve(V:t() * C * V + luma.eye(V:cols()) * reg, V:t() * C * p):t()
end

describe("AltMin", function()
  local R, pairs, truth = fixture()

  it("recovers the held-out entries of the notes' rank-3 fixture", function()
    local m = rec.AltMin{ n_factors = 3, reg = 0.01, max_iter = 300, seed = 1 }:fit(R)
    local rmse = math.sqrt((m:predict(pairs) - truth):pow(2):mean())
    assert.is_true(rmse < 0.05, "held-out RMSE " .. rmse)
  end)

  it("never increases its objective", function()
    local m = rec.AltMin{ n_factors = 3, reg = 0.01, max_iter = 60, tol = 0, seed = 2 }:fit(R)
    assert.equal(60, #m.objective)
    for it = 2, #m.objective do
      assert.is_true(m.objective[it] <= m.objective[it - 1] * (1 + 1e-12),
        "iteration " .. it .. " raised the objective")
    end
    -- and the recorded value is the objective of the fitted factors
    local U, V = m.user_factors, m.item_factors
    local _, _, vals = R:coo()
    local rows, cols = R:coo()
    local pred = U:take(rows):mul(V:take(cols)):sum(2)
    local expected = (vals - pred):pow(2):sum() + 0.01 * (U:pow(2):sum() + V:pow(2):sum())
    assert.near(expected, m.objective[60], 1e-9 * expected)
  end)

  it("solves each row's ridge problem exactly, on any thread count", function()
    local V = luma.random.Generator(3):normal(40, 3)
    local before = luma.config().threads
    local results = {}
    for _, threads in ipairs({ 1, 2 }) do
      luma.config{ threads = threads }
      results[threads] = native.als_sweep(R, V, luma.zeros(60, 3), 0.5)
    end
    luma.config{ threads = before }
    assert.matrix_near(results[1], results[2], 0)
    for _, r in ipairs({ 1, 17, 60 }) do
      assert.matrix_near(dense_explicit_row(R, V, r, 0.5), results[1]:row(r), 1e-12)
    end
  end)

  it("recommends unseen items by score, and finds similar items by cosine", function()
    local m = rec.AltMin{ n_factors = 3, reg = 0.01, max_iter = 50, seed = 1 }:fit(R)
    local items, scores = m:recommend(4, 5)
    local S = m.user_factors:row(4) * m.item_factors:t()
    local _, seen = R:row(4):coo()
    local is_seen = {}
    for e = 1, seen:rows() do is_seen[seen:get(e, 1)] = true end
    -- the best five of the unseen items, in order
    local best = {}
    for j = 1, 40 do if not is_seen[j] then best[#best + 1] = j end end
    table.sort(best, function(a, b) return S:get(1, a) > S:get(1, b) end)
    for t = 1, 5 do
      assert.equal(best[t], items:get(1, t))
      assert.near(S:get(1, best[t]), scores:get(1, t), 1e-12)
    end
    local all = m:item_scores(4, { exclude_seen = false })
    assert.matrix_near(S, all, 1e-12)
    local similar, sims = m:similar_items(7, 3)
    local V = m.item_factors
    local v7 = V:row(7)
    for t = 1, 3 do
      local v = V:row(similar:get(t, 1))
      local cos = (v7 * v:t()):get(1, 1) / (v7:norm() * v:norm())
      assert.near(cos, sims:get(t, 1), 1e-12)
      assert.not_equal(7, similar:get(t, 1))
    end
  end)

  it("fits (user, item) pairs as it fits the sparse matrix", function()
    local rows, cols, vals = R:coo()
    local a = rec.AltMin{ n_factors = 3, max_iter = 5, seed = 1 }:fit(R)
    local b = rec.AltMin{ n_factors = 3, max_iter = 5, seed = 1, n_users = 60, n_items = 40 }
      :fit(luma.matrix.hstack{ rows, cols }, vals)
    assert.matrix_near(a.user_factors, b.user_factors, 0)
    assert.matrix_near(a:predict(pairs), b:predict(pairs), 0)
  end)

  it("refuses bad input at the caller's line", function()
    local m = rec.AltMin{ n_factors = 2, max_iter = 2 }
    support.errors_with("recommend_spec.lua:%d+: .*AltMin: X holds a %(user, item%) pair more "
      .. "than once", function()
        m:fit(luma.matrix{ { 1, 1 }, { 2, 1 }, { 1, 1 } }, luma.matrix{ 3, 4, 5 })
      end)
    support.errors_with("recommend_spec.lua:%d+: .*column 2 of X must hold item indices",
      function() m:fit(luma.matrix{ { 1, 1 }, { 2, 0.5 } }, luma.matrix{ 3, 4 }) end)
    support.errors_with("recommend_spec.lua:%d+: .*a rating lies outside rating_scale %[1, 5%]",
      function()
        rec.AltMin{ rating_scale = { 1, 5 } }:fit(luma.matrix{ { 1, 1 }, { 2, 2 } },
          luma.matrix{ 3, 6 })
      end)
    local fitted = rec.AltMin{ n_factors = 2, max_iter = 2, seed = 1 }:fit(R)
    support.errors_with("recommend_spec.lua:%d+: .*user 61 was not seen at fit %(the model has "
      .. "60 users%)", function() fitted:predict(luma.matrix{ { 61, 1 } }) end)
    support.errors_with("recommend_spec.lua:%d+: .*k must be an integer in %[1, 40%]",
      function() fitted:recommend(1, 41) end)
    support.errors_with("recommend_spec.lua:%d+: .*AltMin: recommend called before fit",
      function() rec.AltMin{}:recommend(1, 2) end)
    support.errors_with("recommend_spec.lua:%d+: .*AltMin: similar_items called before fit",
      function() rec.AltMin{}:similar_items(1, 2) end)
    support.errors_with("recommend_spec.lua:%d+: .*there are no ratings",
      function() m:fit(luma.sparse.csr(3, 3, {}, {}, {})) end)
  end)
end)

describe("FunkSVD", function()
  it("makes the textbook updates, in the given order", function()
    -- two ratings: (1, 1) = 4 then (2, 1) = 2, one factor, mean 3
    local P, Q = luma.matrix{ { 0.5 }, { -0.2 } }, luma.matrix{ { 0.4 } }
    local bu, bi = luma.zeros(2, 1), luma.zeros(1, 1)
    local lr, reg, rb = 0.1, 0.05, 0.02
    local sse = native.sgd_epoch(luma.matrix{ 1, 2 }, luma.matrix{ 1, 1 }, luma.matrix{ 4, 2 },
      luma.matrix{ 1, 2 }, P, Q, { bu = bu, bi = bi, mean = 3, lr = lr, reg = reg, reg_bias = rb })
    -- step 1: e = 4 - (3 + 0.5 * 0.4) = 0.8
    local e1 = 0.8
    local bu1, bi1 = lr * e1, lr * e1
    local p1, q1 = 0.5 + lr * (e1 * 0.4 - reg * 0.5), 0.4 + lr * (e1 * 0.5 - reg * 0.4)
    -- step 2: user 2, the same item
    local e2 = 2 - (3 + 0 + bi1 + (-0.2) * q1)
    local bu2, bi2 = lr * e2, bi1 + lr * (e2 - rb * bi1)
    local p2, q2 = -0.2 + lr * (e2 * q1 + reg * 0.2), q1 + lr * (e2 * -0.2 - reg * q1)
    assert.near(e1 * e1 + e2 * e2, sse, 1e-15)
    assert.matrix_near({ { p1 }, { p2 } }, P, 1e-15)
    assert.matrix_near({ { q2 } }, Q, 1e-15)
    assert.matrix_near({ { bu1 }, { bu2 } }, bu, 1e-15)
    assert.matrix_near({ { bi2 } }, bi, 1e-15)
  end)

  it("learns the fixture, its training error falling", function()
    local R, pairs, truth = fixture()
    local m = rec.FunkSVD{ n_factors = 3, n_epochs = 400, lr = 0.02, reg = 0.001, seed = 1 }:fit(R)
    assert.is_true(m.train_rmse[400] < m.train_rmse[1] / 20)
    local rmse = math.sqrt((m:predict(pairs) - truth):pow(2):mean())
    assert.is_true(rmse < 0.6, "held-out RMSE " .. rmse)
  end)

  it("clips predictions into rating_scale", function()
    local m = rec.FunkSVD{ n_factors = 2, n_epochs = 5, rating_scale = { 1, 5 }, seed = 1 }
      :fit(luma.matrix{ { 1, 1 }, { 1, 2 }, { 2, 1 } }, luma.matrix{ 5, 5, 1 })
    local pred = m:predict(luma.matrix{ { 1, 1 }, { 2, 2 } })
    assert.is_true(pred:ge(1):all() and pred:le(5):all())
  end)
end)

describe("ImplicitALS", function()
  local counts = luma.sparse.csr(7, 6, { 1, 1, 2, 3, 3, 3, 4, 5, 6, 6, 7 },
    { 1, 3, 2, 1, 4, 6, 5, 2, 3, 6, 1 }, { 3, 1, 5, 2, 1, 4, 7, 1, 2, 2, 1 })

  it("solves Hu, Koren & Volinsky's eq. 4 exactly with Cholesky, and by CG", function()
    local V = luma.random.Generator(4):normal(6, 3)
    local exact = native.als_sweep(counts, V, luma.zeros(7, 3), 0.1,
      { gram = V:t() * V, alpha = 2 })
    for r = 1, 7 do
      assert.matrix_near(dense_implicit_row(counts, V, r, 0.1, 2), exact:row(r), 1e-10)
    end
    -- k = 3 conjugate-gradient steps solve a 3 x 3 system (up to rounding)
    local cg = native.als_sweep(counts, V, luma.zeros(7, 3), 0.1,
      { gram = V:t() * V, alpha = 2, cg_steps = 3 })
    assert.matrix_near(exact, cg, 1e-8)
  end)

  it("ranks the held-out items of users above chance", function()
    -- two groups of users who each consume one group of items
    local g = luma.random.Generator(9)
    local i, j, v = {}, {}, {}
    for u = 1, 80 do
      local group = u <= 40 and 0 or 20
      for item = 1, 20 do
        if g:uniform() < 0.5 then
          i[#i + 1], j[#j + 1], v[#v + 1] = u, group + item, 1 + math.floor(g:uniform() * 5)
        end
      end
    end
    local R = luma.sparse.csr(80, 40, i, j, v)
    local train, test = rec.leave_k_out(R, 2, { seed = 3 })
    assert.equal(R:nnz(), train:nnz() + test:nnz())
    local m = rec.ImplicitALS{ n_factors = 4, seed = 1 }:fit(train)
    local result = rec.evaluate(m, test, { k = 5 })
    -- chance: 2 relevant among the ~30 unseen items, precision@5 about 0.07;
    -- knowing the groups only: 2 among the ~8 unseen items of the group, 0.25
    assert.is_true(result.precision > 0.14, "precision@5 " .. result.precision)
    assert.is_true(result.hit_rate > 0.5, "hit rate " .. result.hit_rate)
    -- (users with more than 2 ratings, the ones with a test item)
    assert.equal(test:sum(2):gt(0):sum(), result.users)
  end)

  it("refuses negative feedback", function()
    support.errors_with("recommend_spec.lua:%d+: .*implicit feedback must be >= 0", function()
      rec.ImplicitALS{}:fit(luma.matrix{ { 1, 1 }, { 2, 2 } }, luma.matrix{ 1, -1 })
    end)
  end)
end)

describe("the tools", function()
  it("read ratings from a Table, coding ids in sorted order", function()
    local T = luma.Table{ user = luma.Table.Categorical{ "bo", "al", "al", "cy" },
      item = luma.matrix{ 30, 10, 30, 20 }, rating = luma.matrix{ 4, 5, 3, 1 } }
    local R, users, items = rec.ratings(T)
    assert.same({ "al", "bo", "cy" }, users)
    assert.same({ 10, 20, 30 }, items)
    assert.matrix_near({ { 5, 0, 3 }, { 0, 0, 4 }, { 0, 1, 0 } }, R:todense(), 0)
    support.errors_with("recommend_spec.lua:%d+: luma.recommend.ratings: a %(user, item%) pair "
      .. "occurs more than once", function()
        rec.ratings(luma.Table{ user = luma.matrix{ 1, 1 }, item = luma.matrix{ 2, 2 },
          rating = luma.matrix{ 1, 1 } })
      end)
  end)

  it("evaluate averages the ranking metrics over users as luma.metrics does", function()
    local R = luma.sparse.csr(3, 4, { 1, 2, 3 }, { 1, 2, 3 }, { 5, 5, 5 })
    local m = rec.AltMin{ n_factors = 2, max_iter = 3, seed = 1 }:fit(R)
    local test = luma.sparse.csr(3, 4, { 1, 1, 3 }, { 2, 4, 4 }, { 4, 2, 5 })
    local result = rec.evaluate(m, test, { k = 2 })
    local S = m:item_scores(luma.matrix{ 1, 3 })
    local Y = luma.matrix{ { 0, 1, 0, 1 }, { 0, 0, 0, 1 } }
    assert.near(luma.metrics.precision_at_k(Y, S, 2), result.precision, 1e-15)
    assert.near(luma.metrics.ndcg_at_k(Y, S, 2), result.ndcg, 1e-15)
    assert.equal(2, result.users)
    local pred = m:predict(luma.matrix{ { 1, 2 }, { 1, 4 }, { 3, 4 } })
    assert.near(math.sqrt((pred - luma.matrix{ 4, 2, 5 }):pow(2):mean()), result.rmse, 1e-12)
  end)
end)

describe("the half-sweeps under mpirun", function()
  local usable = os.execute("command -v mpirun > /dev/null 2>&1") == true and luma.mpi.available
    and os.getenv("LUMA_SANITIZED") ~= "1"
  local env = { OMPI_ALLOW_RUN_AS_ROOT = "1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = "1",
    LUMA_NUM_THREADS = "1", OPENBLAS_NUM_THREADS = "1" }
  local name = "give the same factors, bit for bit, with 1, 2 and 3 ranks"
  if not usable then
    pending(name .. " (no mpirun or no MPI in this build)")
    return
  end
  it(name, function()
    local seen = {}
    for np = 1, 3 do
      local cmd = np == 1
        and string.format("timeout 60 %s tests/recommend/mpi_job.lua", support.quote(support.luma))
        or string.format("timeout 60 mpirun --oversubscribe -np %d %s tests/recommend/mpi_job.lua",
          np, support.quote(support.luma))
      local out, err, code = support.run(cmd, nil, env)
      assert.equal(0, code, out .. err)
      local ranks = 0
      for _, digests in out:gmatch("factors (%d+) ([^\n]+)") do
        ranks = ranks + 1
        seen[#seen + 1] = digests
      end
      assert.equal(np, ranks, out .. err)
    end
    for i = 2, #seen do assert.equal(seen[1], seen[i]) end
  end)
end)
