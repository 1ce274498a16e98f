--- luma.cluster.hierarchical: AgglomerativeClustering, linkage, fcluster
-- and minimum_spanning_tree (docs/CLUSTER.md).
--
-- The merge trees are built in C (src/ml/cluster/hierarchy.c, Müllner,
-- "Modern hierarchical, agglomerative clustering algorithms", 2011):
-- single linkage from Prim's minimum spanning tree (notes 003 §1.19, the
-- spanning tree of least total weight), complete and average linkage by
-- the nearest-neighbour chain over the condensed distance matrix with
-- Lance-Williams updates, Ward's linkage by the same chain over centroids
-- (no distance matrix), and, under a connectivity graph, the generic
-- algorithm restricted to adjacent clusters (scikit-learn's structured
-- linkages).  Trees come in SciPy's linkage-matrix layout with 1-based
-- ids, which luma.plot.dendrogram reads: row r merges clusters Z[r][1] <
-- Z[r][2] (leaves 1..n, row r makes cluster n + r) at height Z[r][3] into
-- Z[r][4] points.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local native = require("luma.cluster.native")
local dcommon = require("luma.decomposition.common")
local gcommon = require("luma.cluster.graph_common")

local fail = dcommon.fail

local M = {}

local METHODS = { "single", "complete", "average", "ward" }
local METRICS = { "euclidean", "l2", "manhattan", "l1", "cityblock", "chebyshev", "minkowski",
                  "cosine", "precomputed" }

local function one_of(list, v)
  for _, x in ipairs(list) do
    if x == v then return true end
  end
  return false
end

-- Calls a native kernel; its argument errors are restated for `method`
-- (bad X: argument 1 of method; bad options: the caller's own message).
local function run(fn, who, method, ...)
  local ok, a, b = pcall(fn, ...)
  if ok then return a, b end
  if type(a) == "string" then
    local arg, why = a:match("^bad argument #(%d+) to '[^']*' %((.*)%)$")
    if arg == "1" then fail("bad argument #1 to '%s' (%s: %s)", method, who, why) end
    if arg then fail("%s: %s", who, why) end
  end
  error(a, 0)
end

-- The connectivity option: a matrix, or a function of X returning one.
local function connectivity_of(who, method, conn, X)
  if type(conn) == "function" then conn = conn(X) end
  if conn ~= nil and not luma.ismatrix(conn) then
    fail("bad argument #1 to '%s' (%s: connectivity must be a matrix or a function of X "
      .. "returning one, got %s)", method, who, type(conn))
  end
  return conn
end

-- The merge tree of X (checked): Z and the number of connected components.
local function tree_of(who, method, X, how, metric, p, conn)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to '%s' (X must be a luma.Matrix, got %s)", method, type(X))
  end
  dcommon.check_finite(who, method, X)
  if not one_of(METHODS, how) then
    fail("%s: method must be one of %s, got %s", who, table.concat(METHODS, ", "), tostring(how))
  end
  if not one_of(METRICS, metric) then
    fail("%s: metric must be one of %s, got %s", who, table.concat(METRICS, ", "),
      tostring(metric))
  end
  conn = connectivity_of(who, method, conn, X)
  return run(native.linkage, who, method, X,
    { method = how, metric = metric, p = p, connectivity = conn })
end

--- M.linkage(X [, method = "single" [, opts]]) or M.linkage(X, opts)
-- -> Z: SciPy's scipy.cluster.hierarchy.linkage with 1-based ids; the
-- options table may come second and hold the method too
-- (linkage(X, {method = "ward"}), the way estimators take theirs).
function M.linkage(X, method, opts)
  local valid = { metric = true, p = true, connectivity = true }
  local argn = 3
  if type(method) == "table" then
    if opts ~= nil then
      fail("bad argument #2 to 'linkage' (method must be a string when the options come third)")
    end
    method, opts, argn, valid.method = method.method, method, 2, true
  end
  opts = gcommon.check_options("linkage", opts, valid, argn)
  return (tree_of("linkage", "linkage", X, method or "single", opts.metric or "euclidean",
    opts.p or 2, opts.connectivity))
end

-- The tree of a linkage matrix as Lua arrays, checked: left[r], right[r]
-- (ids of row r), height[r]; n leaves.
local function read_tree(fname, Z)
  if not luma.ismatrix(Z) or Z:cols() < 3 then
    fail("bad argument #1 to '%s' (Z must be an (n-1) x 4 linkage matrix)", fname)
  end
  local rows = Z:totable()
  local m = #rows
  local n = m + 1
  local left, right, height, used = {}, {}, {}, {}
  for r, row in ipairs(rows) do
    for c = 1, 2 do
      local id = math.tointeger(row[c])
      if not id or id < 1 or id >= n + r or used[id] then
        fail("bad argument #1 to '%s' (Z[%d][%d] = %s is not a leaf 1..%d or an unmerged "
          .. "cluster of an earlier row)", fname, r, c, tostring(row[c]), n)
      end
      used[id] = true
    end
    if not (row[3] >= 0 and row[3] < math.huge) then
      fail("bad argument #1 to '%s' (Z[%d][3], a height, must be finite and >= 0)", fname, r)
    end
    left[r], right[r], height[r] = math.tointeger(row[1]), math.tointeger(row[2]), row[3]
  end
  return left, right, height, n
end

-- The leaves under node id (1-based ids), appended to out.
local function leaves(id, n, left, right, out)
  local stack = { id }
  while #stack > 0 do
    local v = table.remove(stack)
    if v <= n then
      out[#out + 1] = v
    else
      stack[#stack + 1] = right[v - n]
      stack[#stack + 1] = left[v - n]
    end
  end
  return out
end

-- Flat clusters of the nodes whose highest merge is <= t, numbered as
-- SciPy's cluster_monocrit numbers them: a depth-first walk from the root,
-- left subtree first; a qualifying node opens its cluster when first
-- reached, a leaf outside one gets its own after its parent's subtrees.
local function cut_at(n, left, right, top, t)
  if n == 1 then return { 1 }, 1 end
  local labels, count, leader, seen = {}, 0, nil, {}
  local stack = { n - 1 } -- rows; the root is the last
  while #stack > 0 do
    local r = stack[#stack]
    local a, b = left[r], right[r]
    if leader == nil and top[r] <= t then
      leader = r
      count = count + 1
    end
    if a > n and not seen[a] then
      seen[a] = true
      stack[#stack + 1] = a - n
    elseif b > n and not seen[b] then
      seen[b] = true
      stack[#stack + 1] = b - n
    else
      for _, leaf in ipairs{ a, b } do
        if leaf <= n then
          if leader == nil then count = count + 1 end
          labels[leaf] = count
        end
      end
      if leader == r then leader = nil end
      stack[#stack] = nil
    end
  end
  return labels, count
end

--- M.fcluster(Z, t [, criterion = "maxclust"]) -> labels (n x 1, 1..k).
function M.fcluster(Z, t, criterion)
  criterion = criterion or "maxclust"
  local left, right, height, n = read_tree("fcluster", Z)
  -- the highest merge within each subtree (Z[r][3] itself when monotone)
  local top = {}
  for r = 1, n - 1 do
    local a, b = left[r], right[r]
    top[r] = math.max(height[r], a > n and top[a - n] or 0, b > n and top[b - n] or 0)
  end
  local thr
  if criterion == "distance" then
    if type(t) ~= "number" or t ~= t or t < 0 then
      fail("bad argument #2 to 'fcluster' (the distance threshold must be a number >= 0, got %s)",
        tostring(t))
    end
    thr = t
  elseif criterion == "maxclust" then
    if math.type(t) ~= "integer" or t < 1 or t > n then
      fail("bad argument #2 to 'fcluster' (the number of clusters must be an integer in 1..%d, "
        .. "got %s)", n, tostring(t))
    end
    -- the lowest cut giving at most t clusters: below every merge (n
    -- clusters) or at one of the subtree heights, by bisection (the count
    -- falls as the cut rises)
    local cuts = { -1 }
    for r = 1, n - 1 do cuts[#cuts + 1] = top[r] end
    table.sort(cuts)
    local lo, hi = 1, #cuts
    while lo < hi do
      local mid = (lo + hi) // 2
      local _, count = cut_at(n, left, right, top, cuts[mid])
      if count <= t then hi = mid else lo = mid + 1 end
    end
    thr = cuts[lo]
  else
    fail("bad argument #3 to 'fcluster' (criterion must be \"maxclust\" or \"distance\", got %s)",
      tostring(criterion))
  end
  return luma.matrix((cut_at(n, left, right, top, thr)))
end

--- M.minimum_spanning_tree(X [, opts]) -> edges, weights.
function M.minimum_spanning_tree(X, opts)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to 'minimum_spanning_tree' (X must be a luma.Matrix, got %s)", type(X))
  end
  opts = gcommon.check_options("minimum_spanning_tree", opts, { metric = true, p = true }, 2)
  local metric = opts.metric or "euclidean"
  if not one_of(METRICS, metric) then
    fail("minimum_spanning_tree: metric must be one of %s, got %s", table.concat(METRICS, ", "),
      tostring(metric))
  end
  dcommon.check_finite("minimum_spanning_tree", "minimum_spanning_tree", X)
  return run(native.mst, "minimum_spanning_tree", "minimum_spanning_tree", X,
    { metric = metric, p = opts.p })
end

-- ------------------------------------------------- AgglomerativeClustering

-- scikit-learn's _hc_cut: split the highest remaining node n_clusters - 1
-- times, the open nodes kept in a heap of negated ids exactly as Python's
-- heapq keeps them, so the labels (numbered in heap order) are
-- scikit-learn's.  children: Lua arrays of the merges' 1-based ids.
local function siftdown(h, start, pos)
  local item = h[pos]
  while pos > start do
    local parent = (pos - 2) // 2 + 1
    if item < h[parent] then
      h[pos] = h[parent]
      pos = parent
    else
      break
    end
  end
  h[pos] = item
end

local function siftup(h, pos)
  local stop, start, item = #h, pos, h[pos]
  local child = 2 * pos
  while child <= stop do
    if child + 1 <= stop and not (h[child] < h[child + 1]) then child = child + 1 end
    h[pos] = h[child]
    pos = child
    child = 2 * pos
  end
  h[pos] = item
  siftdown(h, start, pos)
end

local function hc_cut(k, n, left, right)
  local heap = { -(2 * n - 1) }
  for _ = 1, k - 1 do
    local split = -heap[1]
    heap[#heap + 1] = -left[split - n]
    siftdown(heap, 1, #heap)
    local item = -right[split - n] -- heappushpop: the split node leaves
    if heap[1] < item then
      heap[1] = item
      siftup(heap, 1)
    end
  end
  local labels = {}
  for i, node in ipairs(heap) do
    for _, leaf in ipairs(leaves(-node, n, left, right, {})) do labels[leaf] = i end
  end
  return luma.matrix(labels)
end

local NAME = "AgglomerativeClustering"

local function agglomerative_fit(self, X)
  local p = self.params
  local n = X:rows()
  if p.distance_threshold ~= nil and p.n_clusters ~= nil then
    fail("%s: give either n_clusters or distance_threshold, not both (n_clusters = %d, "
      .. "distance_threshold = %s)", NAME, p.n_clusters, tostring(p.distance_threshold))
  end
  if n < 2 then fail("bad argument #1 to 'fit' (%s needs at least 2 rows, got %d)", NAME, n) end
  local k = p.n_clusters or 2
  if p.distance_threshold == nil and k > n then
    fail("bad argument #1 to 'fit' (%s: n_clusters = %d is more than the %d rows of X)", NAME, k, n)
  end
  local Z, components = tree_of(NAME, "fit", X, p.linkage, p.metric, p.p, p.connectivity)
  local distances = Z:sub(nil, nil, 3, 3):copy()
  if p.distance_threshold ~= nil then
    k = math.tointeger(distances:ge(p.distance_threshold):sum()) + 1
  end
  if components > 1 then
    dcommon.warning("luma.cluster", "%s: the connectivity graph has %d connected components; "
      .. "completed with the closest pair of points of every two components", NAME, components)
  end
  local t = Z:totable()
  local left, right = {}, {}
  for r, row in ipairs(t) do left[r], right[r] = math.tointeger(row[1]), math.tointeger(row[2]) end
  self.linkage_matrix = Z
  self.children = Z:sub(nil, nil, 1, 2):copy()
  self.distances = distances
  self.n_leaves = n
  self.n_connected_components = components
  self.n_clusters = k
  self.labels = hc_cut(k, n, left, right)
end

M.AgglomerativeClustering = estimator.class{
  name = "luma.cluster.AgglomerativeClustering",
  kind = "clusterer",
  doc = "Agglomerative (bottom-up hierarchical) clustering as scikit-learn's "
    .. "AgglomerativeClustering: start from single points and merge the closest two clusters "
    .. "until one is left (Hastie, Tibshirani and Friedman, The Elements of Statistical "
    .. "Learning, sec. 14.3.12), then cut the tree into n_clusters, or where merges reach "
    .. "distance_threshold. Linkages: ward (least increase of within-cluster variance; Ward "
    .. "1963), complete, average, single; built by the nearest-neighbour chain and Prim's "
    .. "minimum spanning tree (Muellner 2011). connectivity (an n x n matrix, an edge list of "
    .. "1-based points such as luma.neighbors.kneighbors_graph gives, or a function of X) "
    .. "allows merges of adjacent clusters only. Fitted: labels (n x 1, 1..k, numbered as "
    .. "scikit-learn numbers them), n_clusters, linkage_matrix (SciPy's (n-1) x 4 layout with "
    .. "1-based ids: leaves 1..n, row r makes cluster n + r), children ((n-1) x 2, the same "
    .. "ids), distances ((n-1) x 1, the merge heights), n_leaves, n_connected_components.",
  params = {
    { name = "n_clusters", type = "integer", min = 1,
      doc = "clusters to cut the tree into (2 when neither this nor distance_threshold is set)" },
    { name = "metric", type = "string", default = "euclidean", values = METRICS,
      doc = "distance between rows (ward needs euclidean), or precomputed: X is an n x n "
        .. "distance matrix" },
    { name = "p", type = "number", default = 2, min = 1, doc = "the minkowski exponent" },
    { name = "connectivity", type = "matrix|function",
      doc = "graph of the allowed merges: n x n, an edge list E x 2 or E x 3, or a function "
        .. "of X returning one" },
    { name = "linkage", type = "string", default = "ward", values = METHODS,
      doc = "distance between clusters: ward, complete (largest), average (mean) or single "
        .. "(smallest pairwise distance)" },
    { name = "distance_threshold", type = "number", min = 0,
      doc = "cut where merges reach this height instead of into n_clusters" },
  },
  example = function()
    return M.AgglomerativeClustering{ n_clusters = 2 },
      luma.matrix{ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 9, 9 }, { 9, 10 }, { 10, 9 } }
  end,
  method_docs = {
    fit_predict = { signature = "est:fit_predict(X) -> labels",
      doc = "Fits to X and returns the labels of its rows (est.labels). Returns an n x 1 "
        .. "matrix." },
  },
  fit = agglomerative_fit,
  fit_predict = function(self, X)
    agglomerative_fit(self, X)
    return self.labels
  end,
}

luma.doc.set(M.linkage, { name = "luma.cluster.linkage",
  signature = "linkage(X [, method = \"single\" [, {metric = \"euclidean\", p = 2, "
    .. "connectivity = nil}]]) | linkage(X, {method = \"single\", metric = \"euclidean\", "
    .. "p = 2, connectivity = nil}) -> Z",
  doc = "Hierarchical agglomerative clustering of the rows of X as SciPy's "
    .. "scipy.cluster.hierarchy.linkage (Muellner 2011): single (Prim's minimum spanning "
    .. "tree), complete, average or ward (nearest-neighbour chain). Returns the (n-1) x 4 "
    .. "linkage matrix with 1-based ids: row r merges clusters Z[r][1] < Z[r][2] (leaves "
    .. "1..n, row r makes cluster n + r) at height Z[r][3] into Z[r][4] points. The "
    .. "options table may also come second, with the method in it.",
  params = {
    { name = "method", default = "single", doc = "single, complete, average or ward: argument "
      .. "#2, or a field of the options table given second" },
    { name = "metric", default = "euclidean",
      doc = "euclidean, manhattan, chebyshev, minkowski (with p), cosine, or precomputed (X "
        .. "is a symmetric n x n distance matrix; ward then takes it as Euclidean)" },
    { name = "p", default = 2, doc = "the minkowski exponent (>= 1)" },
    { name = "connectivity", default = nil,
      doc = "merge only adjacent clusters: an n x n matrix (nonzero = edge) or an edge list "
        .. "E x 2 or E x 3 of 1-based points; a disconnected graph is completed" },
  } })

luma.doc.set(M.fcluster, { name = "luma.cluster.fcluster",
  signature = "fcluster(Z, t [, criterion = \"maxclust\"]) -> labels",
  doc = "Flat clusters from a linkage matrix, as SciPy's fcluster: criterion \"maxclust\" "
    .. "cuts at the lowest height giving at most t clusters, \"distance\" joins every subtree "
    .. "whose merges are all at height <= t. Clusters are numbered 1..k left to right along "
    .. "the dendrogram. Returns an n x 1 matrix of labels.",
  params = {
    { name = "t", doc = "the number of clusters (maxclust) or the height threshold (distance)" },
    { name = "criterion", default = "maxclust", doc = "\"maxclust\" or \"distance\"" },
  } })

luma.doc.set(M.minimum_spanning_tree, { name = "luma.cluster.minimum_spanning_tree",
  signature = "minimum_spanning_tree(X [, {metric = \"euclidean\", p = 2}]) -> edges, weights",
  doc = "The minimum spanning tree of the complete graph on the rows of X (or of a precomputed "
    .. "distance matrix), by Prim's algorithm (Prim 1957; Cormen et al., Introduction to "
    .. "Algorithms, sec. 23.2) in O(n^2) time and O(n) memory. Returns the n-1 edges (an "
    .. "(n-1) x 2 matrix of 1-based points, (from, to) in the order the tree grows from point "
    .. "1) and their weights ((n-1) x 1).",
  params = {
    { name = "metric", default = "euclidean",
      doc = "euclidean, manhattan, chebyshev, minkowski, cosine or precomputed" },
    { name = "p", default = 2, doc = "the minkowski exponent (>= 1)" },
  } })

return {
  AgglomerativeClustering = M.AgglomerativeClustering,
  linkage = M.linkage,
  fcluster = M.fcluster,
  minimum_spanning_tree = M.minimum_spanning_tree,
}
