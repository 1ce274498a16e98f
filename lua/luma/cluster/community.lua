--- luma.cluster.community: community detection on graphs (notes 003
-- §1.19): the modularity of a partition with either null model, Louvain
-- community detection, and the two-way spectral min-cut with a balance
-- constraint.
--
-- Modularity (Newman and Girvan, Phys. Rev. E 69, 026113, 2004; Newman,
-- Networks: An Introduction, 2010, eq. 7.69):
--   Q = (1/2m) sum_ij (A_ij - gamma P_ij) delta(c_i, c_j),  2m = sum_ij A_ij,
-- with the configuration null model P_ij = k_i k_j / 2m (the notes write
-- 2m - 1: erratum) or the Erdos-Renyi one P_ij = 2m / (n (n - 1)) for
-- i != j (the notes' formula is garbled; P_ii = 0, so that both null
-- models expect the graph's total weight 2m).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.cluster.native")
local common = require("luma.cluster.graph_common")

local fail = common.fail

local M = {}

local NULL_MODELS = { configuration = true, erdos_renyi = true }

local function graph_options(fname, opts, extra, argn)
  local valid = { n_nodes = true, edge_list = true }
  for k in pairs(extra) do valid[k] = true end
  return common.check_options(fname, opts, valid, argn)
end

local function nonnegative(fname, what, v, argn)
  if type(v) ~= "number" or not (v >= 0 and v < math.huge) then
    fail("bad argument #%d to '%s' (%s must be a finite number >= 0, got %s)", argn, fname, what,
      tostring(v))
  end
  return v
end

-- The graph argument, symmetric.
local function symmetric_graph(fname, G, opts)
  local g, n = common.graph(fname, G, opts, 1)
  local ok, i, j = native.symmetric(g)
  if not ok then
    fail("bad argument #1 to '%s' (the adjacency matrix must be symmetric: entries (%d, %d) and "
      .. "(%d, %d) differ)", fname, i, j, j, i)
  end
  return g, n
end

--- modularity(G, labels [, opts]) -> Q
function M.modularity(G, labels, opts)
  local fname = "modularity"
  opts = graph_options(fname, opts, { null_model = true, resolution = true }, 3)
  local null_model = opts.null_model or "configuration"
  if not NULL_MODELS[null_model] then
    fail("bad argument #3 to '%s' (null_model must be \"configuration\" or \"erdos_renyi\", got "
      .. "%s)", fname, tostring(null_model))
  end
  local gamma = nonnegative(fname, "resolution", opts.resolution or 1, 3)
  local g, n = symmetric_graph(fname, G, opts)
  local lab = common.labels(fname, labels, n, 2)
  local q = native.modularity(g, lab, { resolution = gamma, null_model = null_model })
  if q ~= q then fail("bad argument #1 to '%s' (the graph has no edges: Q is undefined)", fname) end
  return q
end

--- louvain(G [, opts]) -> labels, Q, history
function M.louvain(G, opts)
  local fname = "louvain"
  opts = graph_options(fname, opts,
    { resolution = true, threshold = true, max_levels = true, seed = true }, 2)
  local gamma = nonnegative(fname, "resolution", opts.resolution or 1, 2)
  local threshold = nonnegative(fname, "threshold", opts.threshold or 1e-7, 2)
  local max_levels = opts.max_levels or 100
  if math.type(max_levels) ~= "integer" or max_levels < 1 then
    fail("bad argument #2 to '%s' (max_levels must be an integer >= 1, got %s)", fname,
      tostring(max_levels))
  end
  local seed = common.native_seed(fname, opts.seed, 2)
  local g, n = symmetric_graph(fname, G, opts)
  local labels, history = native.louvain(g, { resolution = gamma, threshold = threshold,
    max_levels = max_levels, seed = seed })
  local q = history:rows() > 0 and history:get(history:rows(), 1) or 0 / 0
  if n > 0 and history:rows() == 0 then
    common.warning("louvain: the graph has no edges; every node is its own community")
  end
  return labels, q, history
end

--- spectral_bisection(G [, opts]) -> labels, cut
function M.spectral_bisection(G, opts)
  local fname = "spectral_bisection"
  opts = graph_options(fname, opts, { n1 = true }, 2)
  local g, n = symmetric_graph(fname, G, opts)
  if n < 2 then fail("bad argument #1 to '%s' (the graph needs at least 2 nodes, has %d)", fname, n) end
  local n1 = opts.n1 or n // 2
  if math.type(n1) ~= "integer" or n1 < 1 or n1 >= n then
    fail("bad argument #2 to '%s' (n1 must be an integer in 1..%d, got %s)", fname, n - 1,
      tostring(n1))
  end
  -- the Fiedler vector: the second eigenvector of L = D - A (or the
  -- second component's indicator when the graph is disconnected)
  local _, vecs = native.laplacian_eig(g, 2, { normalized = false })
  local order = vecs:col(2):argsort()
  local A = native.dense(g)
  local best, best_cut
  -- the n1 largest entries in group 1, or the n1 smallest
  for _, first in ipairs{ n - n1 + 1, 1 } do
    local labels = luma.full(n, 1, 2)
    for r = first, first + n1 - 1 do labels:set(math.tointeger(order:get(r, 1)), 1, 1) end
    local s = labels:eq(1) * 2 - 1
    -- cut(A1, A2) = (1/4) sum_ij A_ij (1 - s_i s_j)
    local cut = (A:sum() - (s:t() * A * s):get(1, 1)) / 4
    if best_cut == nil or cut < best_cut then best, best_cut = labels, cut end
  end
  return best, best_cut
end

luma.doc.set(M.modularity, { name = "luma.cluster.modularity",
  signature = "modularity(G, labels [, opts]) -> Q",
  doc = "The modularity of a partition (Newman and Girvan 2004): Q = (1/2m) sum_ij (A_ij - "
    .. "gamma P_ij) delta(c_i, c_j) with the configuration null model P_ij = k_i k_j / 2m or the "
    .. "Erdos-Renyi one P_ij = 2m / (n (n - 1)) (i != j). Returns Q.",
  params = {
    { name = "G", doc = "n x n symmetric adjacency matrix (weights >= 0), or an edge list E x 2 / "
      .. "E x 3 (each row one undirected edge)" },
    { name = "labels", doc = "n community labels (any numbers)" },
    { name = "null_model", default = "configuration", doc = "\"configuration\" or \"erdos_renyi\"" },
    { name = "resolution", default = 1, doc = "gamma (Reichardt and Bornholdt 2006)" },
    { name = "n_nodes", default = "largest node number", doc = "nodes of an edge list" },
    { name = "edge_list", default = false, doc = "take a square G as an edge list" },
  } })

luma.doc.set(M.louvain, { name = "luma.cluster.louvain",
  signature = "louvain(G [, opts]) -> labels, Q, history",
  doc = "Louvain community detection (Blondel, Guillaume, Lambiotte and Lefebvre, J. Stat. "
    .. "Mech. 2008): greedy single-node moves of largest modularity gain, then aggregation of "
    .. "the communities, level after level; each coarse level is refined by single-node moves "
    .. "on the original graph (Rotta and Noack 2011). Returns the labels (n x 1, 1-based, "
    .. "numbered by smallest node), the final modularity Q (configuration null model) and the "
    .. "modularity after each level (a column).",
  params = {
    { name = "G", doc = "n x n symmetric adjacency matrix (weights >= 0), or an edge list E x 2 / "
      .. "E x 3 (each row one undirected edge)" },
    { name = "resolution", default = 1, doc = "gamma: larger values give smaller communities" },
    { name = "threshold", default = 1e-7, doc = "stop when a level raises Q by at most this" },
    { name = "max_levels", default = 100, doc = "levels at most" },
    { name = "seed", default = "nil (the default generator)", doc = "integer or luma.Generator: the node order" },
    { name = "n_nodes", default = "largest node number", doc = "nodes of an edge list" },
    { name = "edge_list", default = false, doc = "take a square G as an edge list" },
  } })

luma.doc.set(M.spectral_bisection, { name = "luma.cluster.spectral_bisection",
  signature = "spectral_bisection(G [, opts]) -> labels, cut",
  doc = "The two-way minimum cut with a balance constraint by spectral relaxation (Newman, "
    .. "Networks: An Introduction, 2010, sec. 11.5): minimize (1/4) sum_ij A_ij (1 - s_i s_j) "
    .. "over s in {-1, 1}^n with n1 entries +1; the relaxed solution is the Fiedler vector of "
    .. "L = D - A, and the n1 nodes with its largest (or smallest, whichever cuts less) entries "
    .. "form group 1. Returns the labels (1 or 2, n x 1) and the cut weight.",
  params = {
    { name = "G", doc = "n x n symmetric adjacency matrix, or an edge list" },
    { name = "n1", default = "floor(n / 2)", doc = "the size of group 1" },
    { name = "n_nodes", default = "largest node number", doc = "nodes of an edge list" },
    { name = "edge_list", default = false, doc = "take a square G as an edge list" },
  } })

return M
