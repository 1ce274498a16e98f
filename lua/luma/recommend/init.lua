--- luma.recommend: recommender systems by matrix factorization (notes 001
-- §K), with the tools to prepare and evaluate them: ratings from a
-- luma.Table, per-user hold-out splits and ranking evaluation averaged
-- over users.  The models are in luma.recommend.factorization (AltMin,
-- FunkSVD, ImplicitALS); docs/RECOMMEND.md describes them.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local factorization = require("luma.recommend.factorization")

local recommend = {}
for name, class in pairs(factorization) do recommend[name] = class end

local fail = args.fail

-- A Table column as 1-based codes into its sorted distinct values (ids).
local function coded(T, name, what)
  if not T:has_column(name) then
    fail(3, "luma.recommend.ratings: no %s column %q (columns: %s)", what, name,
      table.concat(T:names(), ", "))
  end
  local col = T:column(name)
  if luma.ismatrix(col) then
    if col:isnan():any() then
      fail(3, "luma.recommend.ratings: the %s column %q has missing values", what, name)
    end
    local values = col:unique()
    local ids, index = {}, {}
    for i = 1, values:rows() do
      local v = values:get(i, 1)
      ids[i] = math.tointeger(v) or v
      index[v] = i
    end
    local codes = luma.zeros(col:rows(), 1)
    for i = 1, col:rows() do codes:set(i, 1, index[col:get(i, 1)]) end
    return codes, ids
  end
  if col.codes:isnan():any() then
    fail(3, "luma.recommend.ratings: the %s column %q has missing values", what, name)
  end
  -- categories are already sorted; keep only those that occur
  local used = col.codes:unique()
  local remap, ids = {}, {}
  for i = 1, used:rows() do
    local c = used:get(i, 1)
    remap[c] = i
    ids[i] = col.categories[math.tointeger(c)]
  end
  local codes = luma.zeros(col.codes:rows(), 1)
  for i = 1, codes:rows() do codes:set(i, 1, remap[col.codes:get(i, 1)]) end
  return codes, ids
end

--- ratings(T [, {user = "user", item = "item", rating = "rating"}]) ->
-- R, user_ids, item_ids
function recommend.ratings(T, opts)
  if not luma.Table.is_table(T) then
    fail(2, "luma.recommend.ratings: T must be a luma.Table, got %s", args.type_of(T))
  end
  opts = args.options("luma.recommend.ratings", 2, opts, nil,
    { user = true, item = true, rating = true }, 2)
  local users, user_ids = coded(T, opts.user or "user", "user")
  local items, item_ids = coded(T, opts.item or "item", "item")
  local values
  if opts.rating == false then
    values = luma.ones(T:nrows(), 1)
  else
    local name = opts.rating or "rating"
    if not T:has_column(name) then
      fail(2, "luma.recommend.ratings: no rating column %q (give rating = false for implicit "
        .. "feedback without one)", name)
    end
    values = T:column(name)
    if not luma.ismatrix(values) then
      fail(2, "luma.recommend.ratings: the rating column %q must be numeric", name)
    end
  end
  local R = luma.sparse.csr(#user_ids, #item_ids, users, items, values)
  if R:nnz() < T:nrows() then
    fail(2, "luma.recommend.ratings: a (user, item) pair occurs more than once (%d rows, %d "
      .. "distinct pairs)", T:nrows(), R:nnz())
  end
  return R, user_ids, item_ids
end

--- leave_k_out(R, k [, {seed}]) -> train, test
function recommend.leave_k_out(R, k, opts)
  if not luma.sparse.issparse(R) then
    fail(2, "luma.recommend.leave_k_out: R must be a sparse ratings matrix, got %s",
      args.type_of(R))
  end
  if math.type(k) ~= "integer" or k < 1 then
    fail(2, "luma.recommend.leave_k_out: k must be an integer >= 1, got %s", tostring(k))
  end
  opts = args.options("luma.recommend.leave_k_out", 3, opts, nil, { seed = true }, 2)
  local rng = luma.random.Generator(opts.seed)
  local rows, cols, vals = R:coo()
  local train, test = { {}, {}, {} }, { {}, {}, {} }
  local function put(into, e)
    into[1][#into[1] + 1] = rows:get(e, 1)
    into[2][#into[2] + 1] = cols:get(e, 1)
    into[3][#into[3] + 1] = vals:get(e, 1)
  end
  local e = 1
  local n = rows:rows()
  while e <= n do
    local first, user = e, rows:get(e, 1)
    while e <= n and rows:get(e, 1) == user do e = e + 1 end
    local count = e - first
    local held = {}
    if count > k then
      local order = rng:permutation(count)
      for t = 1, k do held[order:get(t, 1)] = true end
    end
    for t = 1, count do put(held[t] and test or train, first + t - 1) end
  end
  local function build(part)
    return luma.sparse.csr(R:rows(), R:cols(), part[1], part[2], part[3])
  end
  return build(train), build(test)
end

-- The rows of S that hold an entry, in order.
local function rows_with_entries(S)
  local out, last = {}, nil
  local rows = S:coo()
  for e = 1, rows:rows() do
    local r = rows:get(e, 1)
    if r ~= last then
      out[#out + 1] = r
      last = r
    end
  end
  return out
end

local EVAL_CHUNK = 512

--- evaluate(model, test [, {k = 10, relevant = 0}]) -> table
function recommend.evaluate(model, test, opts)
  if type(model) ~= "table" or type(model.recommend) ~= "function" or not model:is_fitted() then
    fail(2, "luma.recommend.evaluate: model must be a fitted luma.recommend model")
  end
  if not luma.sparse.issparse(test) then
    fail(2, "luma.recommend.evaluate: test must be a sparse ratings matrix, got %s",
      args.type_of(test))
  end
  local n_users, n_items = model.user_factors:rows(), model.item_factors:rows()
  if test:rows() ~= n_users or test:cols() ~= n_items then
    fail(2, "luma.recommend.evaluate: test is %d x %d but the model has %d users and %d items",
      test:rows(), test:cols(), n_users, n_items)
  end
  opts = args.options("luma.recommend.evaluate", 3, opts, nil, { k = true, relevant = true }, 2)
  local k = opts.k or 10
  local threshold = opts.relevant or 0
  if math.type(k) ~= "integer" or k < 1 or k > n_items then
    fail(2, "luma.recommend.evaluate: k must be an integer in [1, %d]", n_items)
  end
  local users = rows_with_entries(test)
  if #users == 0 then fail(2, "luma.recommend.evaluate: test holds no ratings") end
  local sums = { precision = 0, recall = 0, map = 0, ndcg = 0, hit_rate = 0 }
  local counted = 0
  local metrics = luma.metrics
  for first = 1, #users, EVAL_CHUNK do
    local chunk = {}
    for t = first, math.min(first + EVAL_CHUNK - 1, #users) do chunk[#chunk + 1] = users[t] end
    local relevant = test:take(chunk):todense():gt(threshold)
    local with = relevant:sum(2):gt(0):sum()
    if with > 0 then
      local S = model:item_scores(luma.matrix(chunk):t())
      sums.precision = sums.precision + with * metrics.precision_at_k(relevant, S, k)
      sums.recall = sums.recall + with * metrics.recall_at_k(relevant, S, k)
      sums.map = sums.map + with * metrics.average_precision_at_k(relevant, S, k)
      sums.ndcg = sums.ndcg + with * metrics.ndcg_at_k(relevant, S, k)
      sums.hit_rate = sums.hit_rate + with * metrics.hit_rate_at_k(relevant, S, k)
      counted = counted + with
    end
  end
  if counted == 0 then
    fail(2, "luma.recommend.evaluate: no test rating is above relevant = %g", threshold)
  end
  local out = { users = math.tointeger(counted), k = k }
  for name, total in pairs(sums) do out[name] = total / counted end
  local rows, cols, vals = test:coo()
  local pred = model:predict(luma.matrix.hstack{ rows, cols })
  out.rmse = math.sqrt((pred - vals):pow(2):mean())
  out.mae = (pred - vals):abs():mean()
  return out
end

luma.doc.set_members(recommend, "luma.recommend", {
  ratings = { signature = "ratings(T [, opts]) -> R, user_ids, item_ids",
    doc = "The ratings of a luma.Table with one row per (user, item, rating) as an n_users x "
      .. "n_items sparse matrix; users and items (numeric or categorical columns) are coded "
      .. "1.. in the sorted order of their distinct values, listed in user_ids and item_ids. "
      .. "A pair given twice is an error.",
    params = { { name = "user", default = "user", doc = "the users' column" },
      { name = "item", default = "item", doc = "the items' column" },
      { name = "rating", default = "rating", doc = "the ratings' column; false: every pair "
        .. "counts 1 (implicit feedback)" } } },
  leave_k_out = { signature = "leave_k_out(R, k [, opts]) -> train, test",
    doc = "A per-user split: for every user with more than k ratings, k of them chosen at "
      .. "random go to test, the rest to train (users with k or fewer keep all in train). "
      .. "Returns two sparse matrices of R's shape.",
    params = { { name = "seed", doc = "the random choice (integer)" } } },
  evaluate = { signature = "evaluate(model, test [, opts]) -> table",
    doc = "Scores a fitted model on held-out ratings: for each user with a relevant test "
      .. "rating, the items not rated at fit ranked by the model, and precision, recall, "
      .. "average precision (MAP), NDCG and hit rate at k averaged over those users "
      .. "(luma.metrics' *_at_k); with RMSE and MAE of predict on the test ratings. Returns "
      .. "{precision, recall, map, ndcg, hit_rate, rmse, mae, users, k}.",
    params = { { name = "k", default = 10, doc = "the cutoff" },
      { name = "relevant", default = 0, doc = "test ratings above it are relevant" } } },
})

luma.doc.set(recommend, { name = "luma.recommend",
  doc = "Recommenders by matrix factorization: AltMin (alternating minimization, Jain, "
    .. "Netrapalli & Sanghavi, STOC 2013), "
    .. "FunkSVD (SGD with biases), ImplicitALS (Hu, Koren & Volinsky); ratings, leave_k_out "
    .. "and evaluate; see docs/RECOMMEND.md." })

return recommend
