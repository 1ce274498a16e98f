--- luma.mixture.kmeans: the minimal k-means the mixtures start from (not
-- public; the clustering family will own the estimator).
--
-- k-means++ seeding as scikit-learn's kmeans_plusplus (Arthur and
-- Vassilvitskii 2007, greedy: 2 + floor(log k) candidates per centre,
-- the one that lowers the potential most is kept), then Lloyd's
-- iterations (notes 003 §3.8, 002 U6: assign each point to its nearest
-- centre, move each centre to the mean of its points) until no label
-- changes or the centres move less than tol times the mean column
-- variance (scikit-learn's scaled tolerance), at most max_iter times.  An
-- emptied cluster keeps its centre (the notes leave it unspecified).
local luma = require("luma")

local kmeans = {}

local function sq_distances(X, C)
  return luma.pairwise.distances(X, C, "sqeuclidean")
end

--- kmeans.onehot(labels, k) -> n x k: row i has a 1 in column labels[i].
function kmeans.onehot(labels, k)
  return luma.arange(1, k):t():eq(labels)
end

--- kmeans.plusplus(X, k, rng) -> centres (k x d), indices (a table of k
-- row numbers).
function kmeans.plusplus(X, k, rng)
  local n = X:rows()
  local trials = 2 + math.floor(math.log(k))
  local first = rng:integers(1, n)
  local indices = { first }
  local closest = sq_distances(X, X:row(first)) -- n x 1
  local potential = closest:sum()
  for c = 2, k do
    local cum = closest:cumsum()
    local candidates = {}
    for t = 1, trials do
      -- the first point whose cumulated distance exceeds the draw
      -- (searchsorted), clipped to the last row
      local r = rng:uniform() * potential
      candidates[t] = math.min(math.tointeger(cum:lt(r):sum()) + 1, n)
    end
    local D = luma.matrix.minimum(sq_distances(X, X:take(candidates)), closest) -- n x trials
    local pots = D:sum(1)
    local best = math.tointeger(pots:argmin())
    potential = pots:get(1, best)
    closest = D:col(best):copy()
    indices[c] = candidates[best]
  end
  return X:take(indices), indices
end

--- kmeans.fit(X, k, rng [, max_iter = 300, tol = 1e-4]) -> labels (n x 1,
-- codes 1..k), centres (k x d).
function kmeans.fit(X, k, rng, max_iter, tol)
  max_iter, tol = max_iter or 300, tol or 1e-4
  local centres = kmeans.plusplus(X, k, rng)
  local threshold = tol * X:var(1):mean()
  local labels
  for _ = 1, max_iter do
    local new_labels = sq_distances(X, centres):argmin(2)
    local unchanged = labels ~= nil and new_labels:eq(labels):all()
    labels = new_labels
    if unchanged then break end
    local onehot = kmeans.onehot(labels, k)
    local counts = onehot:sum(1)
    local sums = onehot:t() * X
    local moved = centres:copy()
    for c = 1, k do
      local nc = counts:get(1, c)
      if nc > 0 then moved:row(c):assign(sums:row(c) / nc) end
    end
    local shift = (moved - centres):pow(2):sum()
    centres = moved
    if shift <= threshold then
      labels = sq_distances(X, centres):argmin(2)
      break
    end
  end
  return labels, centres
end

return kmeans
