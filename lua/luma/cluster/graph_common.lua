--- luma.cluster.graph_common: what the graph parts of luma.cluster share
-- (graph, spectral, community); not a public API.
--
-- A graph argument is one of
--   * an n x n adjacency (affinity) matrix: weights >= 0, symmetric;
--   * an edge list, E x 2 (i, j) or E x 3 (i, j, weight), nodes 1-based:
--     each row one undirected edge adding its weight to A_ij and A_ji
--     (repeated rows add up); the number of nodes is opts.n_nodes or the
--     largest node number.  A square matrix is taken as an adjacency
--     matrix unless opts.edge_list = true.
-- It becomes a native luma.cluster.Graph (compressed sparse rows).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.cluster.native")

local common = {}

--- common.fail(fmt, ...): raises the message as it is (it names the
-- function itself).
local function fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end
common.fail = fail

--- common.warning(fmt, ...): through warn(), so a host can redirect it.
function common.warning(fmt, ...)
  warn("luma.cluster: " .. string.format(fmt, ...))
end

--- common.native_call(fname, argn, f, ...): f(...) with a native
-- argument error renamed to the user's function and argument.
function common.native_call(fname, argn, f, ...)
  local res = table.pack(pcall(f, ...))
  if not res[1] then
    local msg = tostring(res[2]):gsub("^bad argument #%d+ to '[^']+'",
      string.format("bad argument #%d to '%s'", argn, fname))
    error(msg, 0)
  end
  return table.unpack(res, 2, res.n)
end

--- common.is_graph(v): a native luma.cluster.Graph.
function common.is_graph(v)
  local mt = getmetatable(v)
  return type(v) == "userdata" and type(mt) == "table" and mt.__name == "luma.cluster.Graph"
end

--- common.graph(fname, G, opts, argn [, extra]) -> Graph, n, dense (the
-- matrix when G was an adjacency matrix).  extra: native graph options
-- (drop_diagonal, scale).
function common.graph(fname, G, opts, argn, extra)
  opts = opts or {}
  if common.is_graph(G) then return G, (native.graph_info(G)), nil end
  if not luma.ismatrix(G) then
    fail("bad argument #%d to '%s' (an adjacency matrix or an edge list expected, got %s)",
      argn, fname, type(G))
  end
  local r, c = G:shape()
  local o = { drop_diagonal = extra and extra.drop_diagonal, scale = extra and extra.scale }
  if r == c and not opts.edge_list then
    if opts.n_nodes ~= nil and opts.n_nodes ~= r then
      fail("bad argument #%d to '%s' (n_nodes = %s but the adjacency matrix is %d x %d)", argn,
        fname, tostring(opts.n_nodes), r, c)
    end
    o.format = "dense"
    return common.native_call(fname, argn, native.graph, G, r, o), r, G
  end
  if c ~= 2 and c ~= 3 then
    fail("bad argument #%d to '%s' (an edge list has 2 or 3 columns (i, j [, weight]), got a "
      .. "%d x %d matrix)", argn, fname, r, c)
  end
  local n = opts.n_nodes
  if n == nil then
    n = r > 0 and G:sub(1, r, 1, 2):max() or 0
    n = n == n and n >= 1 and math.floor(n) or 0
  elseif math.type(n) ~= "integer" or n < 0 then
    fail("bad argument #%d to '%s' (n_nodes must be an integer >= 0, got %s)", argn, fname,
      tostring(n))
  end
  o.format = "edges"
  return common.native_call(fname, argn, native.graph, G, math.tointeger(n), o), math.tointeger(n),
    nil
end

--- common.native_seed(fname, seed, argn) -> the integer seed of a native
-- kernel, drawn from seed (an integer or a luma.Generator, copied; nil:
-- the default generator).
function common.native_seed(fname, seed, argn)
  local mt = getmetatable(seed)
  if seed ~= nil and math.type(seed) ~= "integer"
    and not (type(mt) == "table" and rawget(mt, "__name") == "luma.Generator") then
    fail("bad argument #%d to '%s' (seed must be an integer or a luma.Generator, got %s)", argn,
      fname, type(seed))
  end
  return require("luma.estimator").rng(seed):integers(0, math.maxinteger)
end

--- common.check_options(fname, opts, valid, argn): an options table with
-- known keys only.
function common.check_options(fname, opts, valid, argn)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    fail("bad argument #%d to '%s' (options table expected, got %s)", argn, fname, type(opts))
  end
  for key in pairs(opts) do
    if not valid[key] then
      local names = {}
      for k in pairs(valid) do names[#names + 1] = k end
      table.sort(names)
      fail("bad argument #%d to '%s' (unknown option '%s' (valid: %s))", argn, fname,
        tostring(key), table.concat(names, ", "))
    end
  end
  return opts
end

--- common.labels(fname, labels, n, argn) -> n x 1 labels renumbered
-- 1..c (in the order of their values), c.
function common.labels(fname, labels, n, argn)
  if not luma.ismatrix(labels) then
    fail("bad argument #%d to '%s' (labels must be a matrix, got %s)", argn, fname, type(labels))
  end
  local r, c = labels:shape()
  if r * c ~= n or (r ~= 1 and c ~= 1) then
    fail("bad argument #%d to '%s' (labels must be a vector of %d entries, one per node, got "
      .. "%d x %d)", argn, fname, n, r, c)
  end
  local flat = labels:reshape(n, 1)
  if not flat:isfinite():all() then
    fail("bad argument #%d to '%s' (labels must be finite numbers)", argn, fname)
  end
  local values, _, inverse = flat:unique{ inverse = true }
  local out, k = inverse, values:rows()
  return out, k
end

return common
