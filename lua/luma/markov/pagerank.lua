--- luma.markov pagerank: PageRank (notes 002 §1.16 Q6 with erratum X32;
-- Page, Brin, Motwani and Winograd 1999; Langville and Meyer, Google's
-- PageRank and Beyond, 2006, ch. 4).
--
-- The notes' matrix p = (1 - alpha) A + (alpha / d) 1 with A_ij = 1/N_i
-- for links i -> j is the "Google matrix" with teleportation probability
-- alpha; here damping = 1 - alpha (networkx's and the paper's parameter,
-- default 0.85), rows are row-stochastic and the scores are the row
-- vector x = x G (X32's orientation, as luma.markov).  Dangling nodes
-- (N_i = 0, which the notes leave open) jump by the `dangling` vector,
-- by default the personalization vector (networkx's rule), so the chain
-- stays stochastic.  Power iteration from `start` (warm start: pass the
-- previous scores, notes 002 Q6) until the L1 change < tol; the iteration
-- runs in C over the in-edges in compressed sparse form
-- (src/ml/markov/pagerank.c).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local chain = require("luma.markov.chain")
local native = require("luma.markov.native")

local M = {}
local fail = chain.fail

-- The edges (m x 3: from, to, weight) of a dense non-negative adjacency.
local function edges_of_adjacency(A)
  local n = A:rows()
  if A:cols() ~= n then
    fail("bad argument #1 to 'pagerank' (an adjacency matrix must be square, got %d x %d; "
      .. "pass input = \"edges\" for an edge list)", n, A:cols())
  end
  if not A:isfinite():all() or A:min() < 0 then
    fail("bad argument #1 to 'pagerank' (adjacency weights must be finite and >= 0)")
  end
  local flat = A:flatten()
  local idx = luma.matrix.find(flat:ne(0))
  if idx:rows() == 0 then return luma.zeros(0, 3) end
  local from = ((idx - 1) / n):floor()
  local to = idx - from * n
  return luma.matrix.hstack{ from + 1, to, flat:take(idx) }
end

--- pagerank(G [, opts]) -> scores, info
function M.pagerank(G, opts)
  opts = args.options("luma.markov.pagerank", 2, opts, nil, { damping = true,
    personalization = true, dangling = true, start = true, tol = true, max_iter = true,
    input = true, n_nodes = true }, 2)
  if not luma.ismatrix(G) then
    fail("bad argument #1 to 'pagerank' (G must be an adjacency matrix or an edge list, got %s)",
      type(G))
  end
  local input = opts.input or "adjacency"
  local edges, n
  if input == "adjacency" then
    edges, n = edges_of_adjacency(G), G:rows()
  elseif input == "edges" then
    edges = G
    if G:cols() ~= 2 and G:cols() ~= 3 then
      fail("bad argument #1 to 'pagerank' (an edge list is m x 2 (from, to) or m x 3 (from, to, "
        .. "weight), got %d columns)", G:cols())
    end
    n = opts.n_nodes or (G:rows() > 0 and math.tointeger(G:slice(nil, { 1, 2 }):max()))
    if not n then fail("bad argument #1 to 'pagerank' (an empty edge list needs opts.n_nodes)") end
  else
    fail("bad argument #2 to 'pagerank' (input must be \"adjacency\" or \"edges\", got %s)",
      tostring(input))
  end
  if math.type(n) ~= "integer" or n < 1 then
    fail("pagerank: the graph needs at least one node (n_nodes must be an integer >= 1, got %s)",
      tostring(n))
  end
  local x, n_iter, err = native.pagerank(edges, n, {
    damping = opts.damping, tol = opts.tol, max_iter = opts.max_iter,
    personalization = opts.personalization, dangling = opts.dangling, start = opts.start })
  local tol = opts.tol or 1e-10
  local converged = err < tol
  if not converged then
    warn(string.format("luma.markov: pagerank did not converge in %d iterations (L1 change "
      .. "%.3g >= tol %.3g)", n_iter, err, tol))
  end
  return x, { n_iter = n_iter, err = err, converged = converged }
end

--- google_matrix(A [, opts]) -> G: the dense transition matrix PageRank's
-- power iteration works with (for small graphs and checks).
function M.google_matrix(A, opts)
  if not luma.ismatrix(A) then
    fail("bad argument #1 to 'google_matrix' (luma.Matrix expected, got %s)", type(A))
  end
  opts = args.options("luma.markov.google_matrix", 2, opts, nil,
    { damping = true, personalization = true, dangling = true }, 2)
  local n = A:rows()
  if A:cols() ~= n or not A:isfinite():all() or A:min() < 0 then
    fail("bad argument #1 to 'google_matrix' (A must be a square non-negative adjacency matrix)")
  end
  local d = opts.damping or 0.85
  local v = opts.personalization and chain.check_distribution(opts.personalization / opts.personalization:sum(), n,
    "google_matrix", "personalization") or luma.full(1, n, 1 / n)
  local u = opts.dangling and chain.check_distribution(opts.dangling / opts.dangling:sum(), n,
    "google_matrix", "dangling") or v
  local out = A:sum(2)
  local P = luma.zeros(n, n)
  for i = 1, n do
    local w = out:get(i, 1)
    P:row(i):assign(w > 0 and A:row(i) / w or u)
  end
  return P * d + luma.ones(n, 1) * v * (1 - d)
end

luma.doc.set(M.pagerank, { name = "luma.markov.pagerank",
  signature = "pagerank(G [, opts]) -> scores, info",
  doc = "PageRank (Page, Brin, Motwani and Winograd 1999): the stationary distribution of the "
    .. "random surfer who follows an out-edge (chosen by weight) with probability damping and "
    .. "otherwise jumps to a node drawn from the personalization vector; dangling nodes (no "
    .. "out-edges) always jump, by the dangling vector (default: personalization). Power "
    .. "iteration in C over a compressed sparse graph until the L1 change is below tol. G is a "
    .. "dense adjacency matrix (G[i][j] the weight of i -> j) or, with input = \"edges\", an "
    .. "m x 2 or m x 3 edge list of node numbers 1..n (and weights; repeated edges add). "
    .. "Returns the scores (n x 1, summing to 1) and a table {n_iter, err, converged}.",
  params = {
    { name = "damping", type = "number", default = 0.85, doc = "probability of following a link (1 - the teleportation probability)" },
    { name = "personalization", type = "matrix", default = "uniform", doc = "teleportation distribution (n non-negative weights, normalized)" },
    { name = "dangling", type = "matrix", default = "personalization", doc = "where dangling nodes jump (n weights)" },
    { name = "start", type = "matrix", default = "uniform", doc = "starting scores (warm start: previous scores)" },
    { name = "tol", type = "number", default = 1e-10, doc = "L1 change between iterations to stop at" },
    { name = "max_iter", type = "integer", default = 1000, doc = "iteration limit (a warning if reached)" },
    { name = "input", type = "string", default = "adjacency", doc = "\"adjacency\" or \"edges\"" },
    { name = "n_nodes", type = "integer", default = "largest node", doc = "edge lists: the number of nodes" },
  } })
luma.doc.set(M.google_matrix, { name = "luma.markov.google_matrix",
  signature = "google_matrix(A [, opts]) -> matrix",
  doc = "The dense row-stochastic PageRank matrix damping P + (1 - damping) 1 v, P the "
    .. "random-walk matrix of A with dangling rows replaced by the dangling vector (Langville "
    .. "and Meyer 2006, ch. 4); its stationary distribution is pagerank(A). Returns an n x n "
    .. "matrix.",
  params = {
    { name = "damping", type = "number", default = 0.85, doc = "probability of following a link" },
    { name = "personalization", type = "matrix", default = "uniform", doc = "teleportation distribution" },
    { name = "dangling", type = "matrix", default = "personalization", doc = "where dangling nodes jump" },
  } })

return M
