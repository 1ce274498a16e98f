--- luma.pgm.grid: maximum flow / minimum s-t cut for any graph, and the
-- binary image-denoising Markov random field on a grid (issue 32 item 5;
-- notes 000 Ch. 11 "binary image denoising" and "graph cut", Ch. 12
-- "Gibbs sampling"; docs/PGM.md).
--
-- The MRF (Bishop, PRML 2006, sec. 8.3.3; Barber, BRML 2012, sec. 4.2.5):
-- hidden spins x_i in {-1, +1} on the pixels of an H x W image, an
-- observed noisy image y, 4-neighbour pairs i~j, and
--   E(x) = -beta sum_{i~j} x_i x_j - sum_i f_i x_i,  f_i = eta y_i + h (+ field_i),
--   p(x | y) = exp(-E(x)) / Z,
-- which is the notes' product of phi(y_i, x_i) = exp(eta x_i y_i) (their
-- gamma) and psi(x_i, x_j) = exp(beta x_i x_j).  Images are -1/+1 or 0/1
-- (0 standing for -1); results come back in the input's coding.
-- Inference runs in C (src/ml/pgm/grid_mrf.c): ICM, Gibbs sampling with
-- a luma.Generator, loopy belief propagation (sum- and max-product) and,
-- for attractive couplings (beta >= 0), the exact MAP by a minimum cut
-- with the Boykov-Kolmogorov max-flow (src/ml/pgm/maxflow.c), which
-- maxflow also offers for any s-t graph.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.pgm.grid_native")

local M = {}
local fail = args.fail

local MRF_OPTIONS = { beta = true, eta = true, h = true, field = true }

local function merged(extra)
  local valid = {}
  for k in pairs(MRF_OPTIONS) do valid[k] = true end
  for k in pairs(extra or {}) do valid[k] = true end
  return valid
end

-- A number option: finite, or the default.
local function number_opt(opts, key, dflt, fname)
  local v = opts[key]
  if v == nil then return dflt end
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    fail(3, "%s: %s must be a finite number, got %s", fname, key, tostring(v))
  end
  return v
end

local function integer_opt(opts, key, dflt, min, fname)
  local v = opts[key]
  if v == nil then return dflt end
  if math.type(v) ~= "integer" or v < min then
    fail(3, "%s: %s must be an integer >= %d, got %s", fname, key, min, tostring(v))
  end
  return v
end

-- The binary image M (argument #argn of fname) as spins, and whether it
-- was given as 0/1.
local function spins(M, argn, fname, what)
  if not luma.ismatrix(M) then
    fail(3, "bad argument #%d to '%s' (%s must be a luma.Matrix, got %s)", argn, fname, what,
      args.type_of(M))
  end
  if M:rows() < 1 or M:cols() < 1 then
    fail(3, "bad argument #%d to '%s' (%s must have at least one pixel, got %d x %d)", argn,
      fname, what, M:rows(), M:cols())
  end
  local plus, minus, zero = M:eq(1), M:eq(-1), M:eq(0)
  local binary = plus + minus + zero
  if binary:min() < 1 then
    local p = math.tointeger(luma.matrix.find(binary:reshape(-1, 1):eq(0)):get(1, 1))
    local d = M:cols()
    local i, j = (p - 1) // d + 1, (p - 1) % d + 1
    fail(3, "bad argument #%d to '%s' (%s must be a binary image, values -1/+1 or 0/1, got %s "
      .. "at row %d, column %d)", argn, fname, what, tostring(M:get(i, j)), i, j)
  end
  local has_zero, has_minus = zero:max() > 0, minus:max() > 0
  if has_zero and has_minus then
    fail(3, "bad argument #%d to '%s' (%s mixes the codings -1/+1 and 0/1: it holds both -1 "
      .. "and 0)", argn, fname, what)
  end
  if has_zero then return M * 2 - 1, true end
  return M:copy(), false
end

-- Spins back in the coding of the input.
local function coded(x, zero_one)
  if zero_one then return (x + 1) / 2 end
  return x
end

-- The field f = eta y + h (+ field) of the observed spins sy, and beta.
local function model(sy, opts, fname)
  local beta = number_opt(opts, "beta", 1.0, fname)
  local eta = number_opt(opts, "eta", 2.1, fname)
  local h = number_opt(opts, "h", 0.0, fname)
  local f = sy * eta + h
  local extra = opts.field
  if extra ~= nil then
    if not luma.ismatrix(extra) then
      fail(3, "%s: field must be a luma.Matrix, got %s", fname, args.type_of(extra))
    end
    if extra:rows() ~= sy:rows() or extra:cols() ~= sy:cols() then
      fail(3, "%s: field must have the image's shape %d x %d, got %d x %d", fname, sy:rows(),
        sy:cols(), extra:rows(), extra:cols())
    end
    local bad = args.nonfinite(extra, "field", false)
    if bad then fail(3, "%s: %s", fname, bad) end
    f = f + extra
  end
  return f, beta
end

-- The starting spins: opts.init (same shape and coding rules) or sy.
local function start(sy, opts, fname)
  if opts.init == nil then return sy end
  local x0 = spins(opts.init, 2, fname, "init")
  if x0:rows() ~= sy:rows() or x0:cols() ~= sy:cols() then
    fail(3, "%s: init must have the image's shape %d x %d, got %d x %d", fname, sy:rows(),
      sy:cols(), x0:rows(), x0:cols())
  end
  return x0
end

--- maxflow(n_nodes, edges [, opts]) -> flow, side
function M.maxflow(n_nodes, edges, opts)
  opts = args.options("luma.pgm.grid.maxflow", 3, opts, nil,
    { terminals = true, source = true, sink = true }, 2)
  if math.type(n_nodes) ~= "integer" or n_nodes < 1 then
    fail(2, "bad argument #1 to 'maxflow' (n_nodes must be an integer >= 1, got %s)",
      tostring(n_nodes))
  end
  if not luma.ismatrix(edges) then
    fail(2, "bad argument #2 to 'maxflow' (edges must be a luma.Matrix, got %s)",
      args.type_of(edges))
  end
  local T = opts.terminals
  if T ~= nil and not luma.ismatrix(T) then
    fail(2, "luma.pgm.grid.maxflow: terminals must be a luma.Matrix (n_nodes x 2), got %s",
      args.type_of(T))
  end
  if (opts.source == nil) ~= (opts.sink == nil) then
    fail(2, "luma.pgm.grid.maxflow: give both source and sink, or neither")
  end
  if T == nil and opts.source == nil then
    fail(2, "luma.pgm.grid.maxflow: needs terminal capacities (opts.terminals) or source and "
      .. "sink nodes (opts.source, opts.sink)")
  end
  for _, key in ipairs{ "source", "sink" } do
    local v = opts[key]
    if v ~= nil and (math.type(v) ~= "integer" or v < 1 or v > n_nodes) then
      fail(2, "luma.pgm.grid.maxflow: %s must be a node 1..%d, got %s", key, n_nodes, tostring(v))
    end
  end
  -- the native function's argument #3 is opts.terminals, so its messages
  -- name the options table
  local flow, side = native.maxflow(n_nodes, edges, T, opts.source, opts.sink)
  return flow, side
end

--- energy(x, y [, opts]) -> number
function M.energy(x, y, opts)
  opts = args.options("luma.pgm.grid.energy", 3, opts, nil, MRF_OPTIONS, 2)
  local sy = spins(y, 2, "energy", "y")
  local sx = spins(x, 1, "energy", "x")
  if sx:rows() ~= sy:rows() or sx:cols() ~= sy:cols() then
    fail(2, "bad argument #1 to 'energy' (x is %d x %d but y is %d x %d)", sx:rows(), sx:cols(),
      sy:rows(), sy:cols())
  end
  local f, beta = model(sy, opts, "luma.pgm.grid.energy")
  return native.energy(sx, f, beta)
end

--- icm(y [, opts]) -> x, info
function M.icm(y, opts)
  opts = args.options("luma.pgm.grid.icm", 2, opts, nil, merged{ init = true, max_sweeps = true }, 2)
  local sy, zero_one = spins(y, 1, "icm", "y")
  local f, beta = model(sy, opts, "luma.pgm.grid.icm")
  local max_sweeps = integer_opt(opts, "max_sweeps", 100, 1, "luma.pgm.grid.icm")
  local x0 = start(sy, opts, "luma.pgm.grid.icm")
  local x, sweeps, changed = native.icm(x0, f, beta, max_sweeps)
  return coded(x, zero_one), { n_sweeps = sweeps, converged = changed == 0,
    energy = native.energy(x, f, beta) }
end

--- gibbs(y [, opts]) -> x, marginals
function M.gibbs(y, opts)
  opts = args.options("luma.pgm.grid.gibbs", 2, opts, nil,
    merged{ init = true, burn_in = true, n_sweeps = true, seed = true }, 2)
  local sy, zero_one = spins(y, 1, "gibbs", "y")
  local f, beta = model(sy, opts, "luma.pgm.grid.gibbs")
  local burn_in = integer_opt(opts, "burn_in", 100, 0, "luma.pgm.grid.gibbs")
  local n_sweeps = integer_opt(opts, "n_sweeps", 100, 1, "luma.pgm.grid.gibbs")
  local seed = opts.seed
  local rng
  if seed == nil then rng = luma.random.default()
  elseif math.type(seed) == "integer" then rng = luma.random.Generator(seed)
  elseif args.type_of(seed) == "luma.Generator" then rng = seed
  else
    fail(2, "luma.pgm.grid.gibbs: seed must be an integer or a luma.Generator, got %s",
      args.type_of(seed))
  end
  local x0 = start(sy, opts, "luma.pgm.grid.gibbs")
  local x, freq = native.gibbs(x0, f, beta, burn_in, n_sweeps, rng)
  return coded(x, zero_one), freq
end

--- bp(y [, opts]) -> marginals, info
function M.bp(y, opts)
  opts = args.options("luma.pgm.grid.bp", 2, opts, nil,
    merged{ mode = true, damping = true, tol = true, max_iter = true }, 2)
  local sy, zero_one = spins(y, 1, "bp", "y")
  local f, beta = model(sy, opts, "luma.pgm.grid.bp")
  local mode = opts.mode or "sum"
  if mode ~= "sum" and mode ~= "max" then
    fail(2, "luma.pgm.grid.bp: mode must be \"sum\" or \"max\", got %s", tostring(mode))
  end
  local damping = number_opt(opts, "damping", 0.0, "luma.pgm.grid.bp")
  if damping < 0 or damping >= 1 then
    fail(2, "luma.pgm.grid.bp: damping must be in [0, 1), got %s", tostring(damping))
  end
  local tol = number_opt(opts, "tol", 1e-8, "luma.pgm.grid.bp")
  if tol < 0 then fail(2, "luma.pgm.grid.bp: tol must be >= 0, got %s", tostring(tol)) end
  local max_iter = integer_opt(opts, "max_iter", 100, 1, "luma.pgm.grid.bp")
  if math.abs(beta) > 50 then
    fail(2, "luma.pgm.grid.bp: |beta| must be at most 50 (messages are kept as probabilities), "
      .. "got %s", tostring(beta))
  end
  local belief, iters, delta = native.bp(f, beta, mode == "max", damping, tol, max_iter)
  local map = belief:ge(0.5) * 2 - 1
  return belief, { map = coded(map, zero_one), n_iter = iters, delta = delta,
    converged = delta < tol, energy = native.energy(map, f, beta) }
end

--- graphcut(y [, opts]) -> x, info
function M.graphcut(y, opts)
  opts = args.options("luma.pgm.grid.graphcut", 2, opts, nil, MRF_OPTIONS, 2)
  local sy, zero_one = spins(y, 1, "graphcut", "y")
  local f, beta = model(sy, opts, "luma.pgm.grid.graphcut")
  if beta < 0 then
    fail(2, "luma.pgm.grid.graphcut: beta must be >= 0 (an attractive coupling), got %s: with "
      .. "beta < 0 the energy is not submodular and a minimum cut does not give the MAP; use "
      .. "icm or bp{mode = \"max\"}", tostring(beta))
  end
  local x, flow = native.graphcut(f, beta)
  return coded(x, zero_one), { energy = native.energy(x, f, beta), flow = flow }
end

local MRF_PARAMS = {
  { name = "beta", type = "number", default = 1.0, doc = "coupling of neighbouring spins (> 0: smoothing)" },
  { name = "eta", type = "number", default = 2.1, doc = "strength of the tie to the observed image" },
  { name = "h", type = "number", default = 0.0, doc = "bias towards +1 of every pixel" },
  { name = "field", type = "matrix", default = "none", doc = "an extra field per pixel (H x W), added to eta y + h" },
}
local function with(extra)
  local list = {}
  for _, p in ipairs(MRF_PARAMS) do list[#list + 1] = p end
  for _, p in ipairs(extra) do list[#list + 1] = p end
  return list
end

luma.doc.set(M.maxflow, { name = "luma.pgm.grid.maxflow",
  signature = "maxflow(n_nodes, edges [, opts]) -> flow, side",
  doc = "Maximum flow and a minimum s-t cut of a directed graph by the Boykov-Kolmogorov "
    .. "algorithm (search trees from both terminals, augmentation, adoption of orphans; Boykov "
    .. "and Kolmogorov, IEEE PAMI 2004), in C. edges is m x 3 (from, to, capacity) or m x 4 "
    .. "(from, to, capacity, reverse capacity) with nodes 1..n_nodes and capacities finite and "
    .. ">= 0; repeated edges add. The terminals are either named nodes (opts.source, "
    .. "opts.sink) or extra ones joined by opts.terminals, an n_nodes x 2 matrix of capacities "
    .. "from the source and to the sink. Returns the flow value and side (n_nodes x 1: 1 for "
    .. "the nodes on the source side of the minimum cut, the ones reachable from the source "
    .. "in the residual graph, 0 for the others).",
  params = {
    { name = "terminals", type = "matrix", default = "none", doc = "n_nodes x 2: capacity from the source, capacity to the sink" },
    { name = "source", type = "integer", default = "none", doc = "the source node (with sink)" },
    { name = "sink", type = "integer", default = "none", doc = "the sink node (with source)" },
  } })
luma.doc.set(M.energy, { name = "luma.pgm.grid.energy",
  signature = "energy(x, y [, opts]) -> number",
  doc = "The energy E(x) = -beta sum_{i~j} x_i x_j - sum_i f_i x_i, f = eta y + h (+ field), "
    .. "of the denoising MRF for the image x given the observed image y (both binary, -1/+1 "
    .. "or 0/1, the same shape; 4-neighbour pairs). p(x | y) is proportional to exp(-E(x)).",
  params = MRF_PARAMS })
luma.doc.set(M.icm, { name = "luma.pgm.grid.icm",
  signature = "icm(y [, opts]) -> x, info",
  doc = "Iterated conditional modes (Besag 1986) for the denoising MRF: from init (default "
    .. "y), each pixel in raster order takes the value of lower energy given its neighbours "
    .. "(ties keep it), until a sweep changes nothing or max_sweeps. The energy never "
    .. "increases; the result is a local minimum. Returns x (y's coding) and {n_sweeps, "
    .. "converged, energy}.",
  params = with{
    { name = "init", type = "matrix", default = "y", doc = "the starting image" },
    { name = "max_sweeps", type = "integer", default = 100, doc = "sweeps at most" },
  } })
luma.doc.set(M.gibbs, { name = "luma.pgm.grid.gibbs",
  signature = "gibbs(y [, opts]) -> x, marginals",
  doc = "Gibbs sampling of the denoising MRF p(x | y) (Geman and Geman 1984): sweeps in raster "
    .. "order drawing x_i = +1 with probability sigmoid(2 (f_i + beta sum_j x_j)), from init "
    .. "(default y); burn_in sweeps are dropped, then the frequency of +1 over n_sweeps more "
    .. "estimates each pixel's marginal. Reproducible with seed. Returns the last sample "
    .. "(y's coding) and the marginals P(x_i = +1) (H x W).",
  params = with{
    { name = "init", type = "matrix", default = "y", doc = "the starting image" },
    { name = "burn_in", type = "integer", default = 100, doc = "sweeps discarded first" },
    { name = "n_sweeps", type = "integer", default = 100, doc = "sweeps counted" },
    { name = "seed", type = "integer|luma.Generator", default = "the default generator", doc = "randomness" },
  } })
luma.doc.set(M.bp, { name = "luma.pgm.grid.bp",
  signature = "bp(y [, opts]) -> marginals, info",
  doc = "Loopy belief propagation on the 4-neighbour grid of the denoising MRF (Koller and "
    .. "Friedman 2009, sec. 11.3; Barber 2012, sec. 5.1), in C with parallel (flooding) "
    .. "updates of normalized messages, each damped as (1 - damping) new + damping old, until "
    .. "no message changes by more than tol or max_iter. mode \"sum\" gives the beliefs "
    .. "P(x_i = +1) (exact on a tree: a 1 x n chain), \"max\" max-product max-marginals. "
    .. "Returns the beliefs (H x W) and {map (the image of beliefs >= 1/2, y's coding), "
    .. "n_iter, delta (the last largest change), converged, energy (of map)}. |beta| <= 50.",
  params = with{
    { name = "mode", type = "string", default = "sum", doc = "\"sum\" (marginals) or \"max\" (MAP)" },
    { name = "damping", type = "number", default = 0.0, doc = "weight of the old message, in [0, 1)" },
    { name = "tol", type = "number", default = 1e-8, doc = "largest message change to stop at" },
    { name = "max_iter", type = "integer", default = 100, doc = "iterations at most" },
  } })
luma.doc.set(M.graphcut, { name = "luma.pgm.grid.graphcut",
  signature = "graphcut(y [, opts]) -> x, info",
  doc = "The exact MAP image of the attractive denoising MRF (beta >= 0) by a minimum s-t cut "
    .. "(Greig, Porteous and Seheult 1989): source side = +1, a "
    .. "neighbour pair with different values costs 2 beta, a pixel against the sign of its "
    .. "field f_i costs 2 |f_i|; Boykov-Kolmogorov max-flow in C. A negative beta is an error "
    .. "(the energy is then not submodular). Returns x (y's coding) and {energy, flow}, with "
    .. "energy = flow - beta (number of pairs) - sum |f_i|.",
  params = MRF_PARAMS })

luma.doc.set(M, { name = "luma.pgm.grid",
  doc = "Graph cuts and the binary image-denoising MRF on a grid: maxflow (any s-t graph), "
    .. "energy, icm, gibbs, bp and graphcut." })

-- The checks above raise for the caller of each function: relayed, they
-- are located at the user's line however deep they were raised.
args.relay_functions(M)

return M
