--- luma.pgm graphs: DiGraph and Graph with named nodes (notes 000 Ch. 11
-- "graph definitions"; Koller and Friedman, Probabilistic Graphical
-- Models, 2009, ch. 2 and 9.4; Barber, Bayesian Reasoning and Machine
-- Learning, 2012, ch. 2 and 6).
--
-- Nodes are strings or numbers, kept in insertion order (every listing is
-- in that order, so results never depend on hash order).  Internally a
-- node is its position i; adjacency is a set per node.  Maximal cliques
-- use Bron-Kerbosch with Tomita's pivot (the vertex of P u X with most
-- neighbours in P); triangulation eliminates nodes in a given order or
-- greedily by min-fill / min-degree (Koller and Friedman, sec. 9.4.3.2),
-- ties broken by insertion order.
-- SPDX-License-Identifier: MIT
local args = require("luma.util.args")
local native = require("luma.pgm.native")

local M = {}
local fail = args.fail

local function key_ok(v)
  return type(v) == "string" or (type(v) == "number" and v == v)
end

local function show(v) return type(v) == "string" and ("'" .. v .. "'") or tostring(v) end
M.show = show

-- ------------------------------------------------------------ common base

local Base = {}

local function new(mt, directed)
  return setmetatable({ directed = directed, list = {}, index = {}, out = {}, inn = {} }, mt)
end

function Base:_add(v)
  if not key_ok(v) then fail(3, "bad argument #1 to 'add_node' (node name must be a string or "
    .. "number, got %s)", args.type_of(v)) end
  local i = self.index[v]
  if i then return i end
  i = #self.list + 1
  self.list[i], self.index[v] = v, i
  self._dag = nil
  self.out[i], self.inn[i] = {}, {}
  return i
end

-- The position of node v, or an error naming it (level: as error()'s,
-- counted from the caller of id).
function Base:_id(v, level)
  local i = self.index[v]
  if not i then fail((level or 1) + 1, "unknown node %s", show(v)) end
  return i
end

function Base:add_node(v)
  self:_add(v)
  return self
end

function Base:has_node(v) return self.index[v] ~= nil end

function Base:nodes() return table.move(self.list, 1, #self.list, 1, {}) end

function Base:number_of_nodes() return #self.list end

function Base:has_edge(u, v)
  local i, j = self.index[u], self.index[v]
  return i ~= nil and j ~= nil and self.out[i][j] == true
end

-- positions -> names, in insertion order
function Base:_names(set)
  local out = {}
  for i, v in ipairs(self.list) do if set[i] then out[#out + 1] = v end end
  return out
end

-- A set of positions from a node or a list of nodes.
function Base:_set(vs, level)
  local s = {}
  if type(vs) == "table" then
    for _, v in ipairs(vs) do s[self:_id(v, level + 1)] = true end
  else
    s[self:_id(vs, level + 1)] = true
  end
  return s
end

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks)
  return ks
end
M.sorted_keys = sorted_keys

-- Components over the undirected adjacency (out u inn), as lists of names.
function Base:connected_components()
  local comp, out = {}, {}
  for s = 1, #self.list do
    if not comp[s] then
      local members, stack = {}, { s }
      comp[s] = true
      while #stack > 0 do
        local i = table.remove(stack)
        members[#members + 1] = i
        for _, nb in ipairs({ self.out[i], self.inn[i] }) do
          for j in pairs(nb) do
            if not comp[j] then comp[j] = true; stack[#stack + 1] = j end
          end
        end
      end
      table.sort(members)
      local names = {}
      for k, i in ipairs(members) do names[k] = self.list[i] end
      out[#out + 1] = names
    end
  end
  return out
end

local function dot_id(v) return '"' .. tostring(v):gsub('[\\"]', "\\%0") .. '"' end

function Base:to_dot(opts)
  opts = args.options("to_dot", 1, opts, nil, { name = true }, 2)
  local arrow = self.directed and " -> " or " -- "
  local lines = { (self.directed and "digraph " or "graph ") .. dot_id(opts.name or "G") .. " {" }
  for _, v in ipairs(self.list) do lines[#lines + 1] = "  " .. dot_id(v) .. ";" end
  for _, e in ipairs(self:edges()) do
    lines[#lines + 1] = "  " .. dot_id(e[1]) .. arrow .. dot_id(e[2]) .. ";"
  end
  lines[#lines + 1] = "}"
  return table.concat(lines, "\n") .. "\n"
end

-- ---------------------------------------------------------------- DiGraph

local DiGraph = setmetatable({}, { __index = Base })
DiGraph.__index = DiGraph
DiGraph.__name = "luma.pgm.DiGraph"
M.DiGraph_mt = DiGraph

local Graph = setmetatable({}, { __index = Base })
Graph.__index = Graph
Graph.__name = "luma.pgm.Graph"
M.Graph_mt = Graph

local function fill(g, nodes, edges)
  if nodes ~= nil and type(nodes) ~= "table" then
    fail(3, "bad argument #1 to '%s' (a list of edges {u, v} expected, got %s)",
      g.directed and "DiGraph" or "Graph", args.type_of(nodes))
  end
  for k, e in ipairs(nodes or {}) do
    if type(e) == "table" then
      if #e ~= 2 then fail(3, "bad argument #1 to '%s' (edge %d must be {u, v})",
        g.directed and "DiGraph" or "Graph", k) end
      g:_add(e[1]); g:_add(e[2])
      g:_link(g.index[e[1]], g.index[e[2]])
    else
      g:_add(e)
    end
  end
  return g
end

--- DiGraph([edges]): edges a list of {u, v} pairs (a bare name adds a node).
function M.DiGraph(edges) return fill(new(DiGraph, true), edges) end

--- Graph([edges])
function M.Graph(edges) return fill(new(Graph, false), edges) end

function DiGraph:_link(i, j)
  if i == j then fail(4, "a self-loop on %s", show(self.list[i])) end
  self.out[i][j], self.inn[j][i] = true, true
  self._dag = nil
end

function DiGraph:add_edge(u, v)
  local i, j = self:_add(u), self:_add(v)
  if i == j then fail(2, "add_edge: a self-loop on %s", show(u)) end
  self.out[i][j], self.inn[j][i] = true, true
  self._dag = nil
  return self
end

function DiGraph:remove_edge(u, v)
  local i, j = self:_id(u, 2), self:_id(v, 2)
  self.out[i][j], self.inn[j][i] = nil, nil
  self._dag = nil
  return self
end

function DiGraph:copy()
  local g = M.DiGraph()
  for _, v in ipairs(self.list) do g:_add(v) end
  for i, s in ipairs(self.out) do for j in pairs(s) do g.out[i][j], g.inn[j][i] = true, true end end
  return g
end

function DiGraph:edges()
  local out = {}
  for i, v in ipairs(self.list) do
    for _, j in ipairs(sorted_keys(self.out[i])) do out[#out + 1] = { v, self.list[j] } end
  end
  return out
end

function DiGraph:parents(v) return self:_names(self.inn[self:_id(v, 2)]) end
function DiGraph:children(v) return self:_names(self.out[self:_id(v, 2)]) end

-- Positions reachable from the set s along adj (s itself excluded unless
-- reached again).
local function reach(adj, s)
  local seen, stack = {}, {}
  for i in pairs(s) do stack[#stack + 1] = i end
  while #stack > 0 do
    local i = table.remove(stack)
    for j in pairs(adj[i]) do
      if not seen[j] then seen[j] = true; stack[#stack + 1] = j end
    end
  end
  return seen
end
M.reach = reach

function DiGraph:ancestors(v) return self:_names(reach(self.inn, self:_set(v, 2))) end
function DiGraph:descendants(v) return self:_names(reach(self.out, self:_set(v, 2))) end

-- Kahn's algorithm taking the earliest-inserted ready node first: the
-- positions in topological order, or nil and a cycle (a list of names).
function DiGraph:_topo()
  local n, indeg, order = #self.list, {}, {}
  for i = 1, n do
    local d = 0
    for _ in pairs(self.inn[i]) do d = d + 1 end
    indeg[i] = d
  end
  local ready = {}
  for i = 1, n do if indeg[i] == 0 then ready[#ready + 1] = i end end
  while #ready > 0 do
    table.sort(ready, function(a, b) return a > b end)
    local i = table.remove(ready)
    order[#order + 1] = i
    for j in pairs(self.out[i]) do
      indeg[j] = indeg[j] - 1
      if indeg[j] == 0 then ready[#ready + 1] = j end
    end
  end
  if #order == n then return order end
  -- a cycle among the nodes left: walk back along parents still unplaced
  local start
  for i = 1, n do if indeg[i] > 0 then start = i; break end end
  local path, at, pos = {}, start, {}
  while not pos[at] do
    pos[at] = #path + 1
    path[#path + 1] = at
    for p in pairs(self.inn[at]) do if indeg[p] > 0 then at = p; break end end
  end
  -- the cycle in edge direction, started at its earliest-inserted node
  local ring = {}
  for k = #path, pos[at], -1 do ring[#ring + 1] = path[k] end
  local first = 1
  for k = 2, #ring do if ring[k] < ring[first] then first = k end end
  local cycle = {}
  for k = 0, #ring do cycle[#cycle + 1] = self.list[ring[(first - 1 + k) % #ring + 1]] end
  return nil, cycle
end

function DiGraph:is_dag() return (self:_topo()) ~= nil end

function DiGraph:find_cycle()
  local _, cycle = self:_topo()
  return cycle
end

function DiGraph:topological_order()
  local order, cycle = self:_topo()
  if not order then
    local names = {}
    for k, v in ipairs(cycle) do names[k] = show(v) end
    fail(2, "topological_order: the graph has a cycle %s", table.concat(names, " -> "))
  end
  local out = {}
  for k, i in ipairs(order) do out[k] = self.list[i] end
  return out
end

function DiGraph:to_undirected()
  local g = M.Graph()
  for _, v in ipairs(self.list) do g:_add(v) end
  for i, s in ipairs(self.out) do for j in pairs(s) do g:_link(i, j) end end
  return g
end

--- The moral graph: the skeleton plus an edge between every two parents
-- of a common child.
function DiGraph:moralize()
  local g = self:to_undirected()
  for j = 1, #self.list do
    local ps = sorted_keys(self.inn[j])
    for a = 1, #ps do for b = a + 1, #ps do g:_link(ps[a], ps[b]) end end
  end
  return g
end

-- Immoralities a -> c <- b with a, b not adjacent, as sorted triples of
-- positions {a, c, b} (a < b).
function DiGraph:_immoralities()
  local out = {}
  for c = 1, #self.list do
    local ps = sorted_keys(self.inn[c])
    for x = 1, #ps do
      for y = x + 1, #ps do
        local a, b = ps[x], ps[y]
        if not (self.out[a][b] or self.out[b][a]) then out[#out + 1] = { a, c, b } end
      end
    end
  end
  return out
end

function DiGraph:immoralities()
  local out = {}
  for k, t in ipairs(self:_immoralities()) do
    out[k] = { self.list[t[1]], self.list[t[2]], self.list[t[3]] }
  end
  return out
end

-- ----------------------------------------------------------- d-separation

-- The d-separation checks of X _|_ Y | Z as position sets; X, Y, Z
-- disjoint (checked by the caller).

-- Bayes ball (Shachter 1998; Koller and Friedman Alg. 3.1, "reachable"):
-- the nodes reachable from X along active trails given Z.
local function bayes_ball(g, X, Z)
  -- ancestors of Z (colliders there are active)
  local anc = reach(g.inn, Z)
  for i in pairs(Z) do anc[i] = true end
  local visited, reachable = {}, {}
  local stack = {}
  for i in pairs(X) do stack[#stack + 1] = { i, true } end -- true: arriving from a child ("up")
  while #stack > 0 do
    local top = table.remove(stack)
    local i, up = top[1], top[2]
    local key = up and i or -i
    if not visited[key] then
      visited[key] = true
      if not Z[i] then reachable[i] = true end
      if up and not Z[i] then
        for p in pairs(g.inn[i]) do stack[#stack + 1] = { p, true } end
        for c in pairs(g.out[i]) do stack[#stack + 1] = { c, false } end
      elseif not up then
        if not Z[i] then
          for c in pairs(g.out[i]) do stack[#stack + 1] = { c, false } end
        end
        if anc[i] then
          for p in pairs(g.inn[i]) do stack[#stack + 1] = { p, true } end
        end
      end
    end
  end
  return reachable
end

-- The notes' path rule made exhaustive: every simple path between X and
-- Y in the skeleton is examined, and is blocked by a non-collider in Z or
-- a collider with neither itself nor a descendant in Z.  Exponential in
-- the worst case; the reference the faster methods are tested against.
local function path_rule(g, X, Y, Z)
  local n = #g.list
  local desc_in_z = {}
  for c = 1, n do
    if Z[c] then desc_in_z[c] = true
    else
      local d = reach(g.out, { [c] = true })
      for j in pairs(d) do if Z[j] then desc_in_z[c] = true; break end end
    end
  end
  local on_path = {}
  local function active_from(prev, i)
    -- i is an interior node reached from prev; try every next node
    for _, nb in ipairs({ g.out[i], g.inn[i] }) do
      for j in pairs(nb) do
        if not on_path[j] then
          local collider = g.out[prev][i] and g.out[j][i]
          local open
          if collider then open = desc_in_z[i] else open = not Z[i] end
          if open then
            if Y[j] then return true end
            on_path[j] = true
            local found = active_from(i, j)
            on_path[j] = nil
            if found then return true end
          end
        end
      end
    end
    return false
  end
  for x in pairs(X) do
    on_path[x] = true
    for _, nb in ipairs({ g.out[x], g.inn[x] }) do
      for j in pairs(nb) do
        if Y[j] then on_path[x] = nil; return false end
        if not on_path[j] then
          on_path[j] = true
          local found = active_from(x, j)
          on_path[j] = nil
          if found then on_path[x] = nil; return false end
        end
      end
    end
    on_path[x] = nil
  end
  return true
end

-- The unified procedure (notes Ch. 11; Lauritzen et al. 1990): keep X u Y
-- u Z and their ancestors, moralise, delete Z, and look for a path.
local function ancestral_moral(g, X, Y, Z)
  local keep = {}
  for _, s in ipairs({ X, Y, Z }) do for i in pairs(s) do keep[i] = true end end
  for i in pairs(reach(g.inn, keep)) do keep[i] = true end
  local adj = {}
  for i in pairs(keep) do adj[i] = {} end
  for j in pairs(keep) do
    local ps = {}
    for p in pairs(g.inn[j]) do
      ps[#ps + 1] = p
      adj[p][j], adj[j][p] = true, true
    end
    for a = 1, #ps do for b = a + 1, #ps do adj[ps[a]][ps[b]], adj[ps[b]][ps[a]] = true, true end end
  end
  local seen, stack = {}, {}
  for i in pairs(X) do seen[i] = true; stack[#stack + 1] = i end
  while #stack > 0 do
    local i = table.remove(stack)
    if Y[i] then return false end
    for j in pairs(adj[i]) do
      if not seen[j] and not Z[j] then seen[j] = true; stack[#stack + 1] = j end
    end
  end
  return true
end

local DSEP_METHODS = { bayes_ball = true, bayes_ball_lua = true, path = true, moral = true }

function DiGraph:d_separated(x, y, z, opts)
  opts = args.options("d_separated", 4, opts, nil, { method = true }, 2)
  local method = opts.method or "bayes_ball"
  if not DSEP_METHODS[method] then
    fail(2, "d_separated: method must be \"bayes_ball\", \"bayes_ball_lua\", \"moral\" or \"path\", got %s",
      tostring(method))
  end
  local X, Y = self:_set(x, 2), self:_set(y, 2)
  local Z = z == nil and {} or self:_set(z, 2)
  for _, pair in ipairs({ { X, Y, "x and y" }, { X, Z, "x and z" }, { Y, Z, "y and z" } }) do
    for i in pairs(pair[1]) do
      if pair[2][i] then fail(2, "d_separated: %s share node %s", pair[3], show(self.list[i])) end
    end
  end
  if method == "path" then return path_rule(self, X, Y, Z) end
  if method == "moral" then return ancestral_moral(self, X, Y, Z) end
  if method == "bayes_ball_lua" then
    local r = bayes_ball(self, X, Z)
    for i in pairs(Y) do if r[i] then return false end end
    return true
  end
  -- Bayes ball in C over the DAG compiled once per change of the graph
  if not self._dag then
    local parents = {}
    for i = 1, #self.list do parents[i] = sorted_keys(self.inn[i]) end
    self._dag = native.dag_compile(math.max(#self.list, 1), parents)
  end
  local xs, ys, zs = {}, {}, {}
  for i in pairs(X) do xs[#xs + 1] = i end
  for i in pairs(Y) do ys[#ys + 1] = i end
  for i in pairs(Z) do zs[#zs + 1] = i end
  return native.d_separated(self._dag, xs, ys, zs)
end

--- Markov equivalence (Verma and Pearl 1990): same skeleton, same
-- immoralities.
function DiGraph:is_markov_equivalent(other)
  if getmetatable(other) ~= DiGraph then
    fail(2, "bad argument #1 to 'is_markov_equivalent' (luma.pgm.DiGraph expected, got %s)",
      args.type_of(other))
  end
  if #self.list ~= #other.list then return false end
  local map = {}
  for i, v in ipairs(self.list) do
    local j = other.index[v]
    if not j then return false end
    map[i] = j
  end
  for i = 1, #self.list do
    for j = 1, #self.list do
      local a = self.out[i][j] or self.out[j][i]
      local b = other.out[map[i]][map[j]] or other.out[map[j]][map[i]]
      if (a and true or false) ~= (b and true or false) then return false end
    end
  end
  local function keyset(g, trip, m)
    local s = {}
    for _, t in ipairs(trip) do
      local a, c, b = m and m[t[1]] or t[1], m and m[t[2]] or t[2], m and m[t[3]] or t[3]
      if a > b then a, b = b, a end
      s[a .. ":" .. c .. ":" .. b] = true
    end
    return s
  end
  local s1 = keyset(self, self:_immoralities(), map)
  local s2 = keyset(other, other:_immoralities())
  for k in pairs(s1) do if not s2[k] then return false end end
  for k in pairs(s2) do if not s1[k] then return false end end
  return true
end

--- The CPDAG (essential graph) of the DAG's equivalence class: its
-- compelled edges directed, the others both ways.  Immoralities are
-- directed first, then Meek's rules R1-R3 (Meek 1995) orient what they
-- force, to a fixed point.
function DiGraph:cpdag()
  local order = self:_topo()
  if not order then fail(2, "cpdag: the graph has a cycle") end
  local n = #self.list
  local dir, und = {}, {} -- dir[i][j]: i -> j compelled; und[i][j] = und[j][i]
  for i = 1, n do dir[i], und[i] = {}, {} end
  for i = 1, n do for j in pairs(self.out[i]) do und[i][j], und[j][i] = true, true end end
  local function adjacent(a, b) return dir[a][b] or dir[b][a] or und[a][b] end
  local function orient(a, b)
    und[a][b], und[b][a] = nil, nil
    dir[a][b] = true
  end
  for _, t in ipairs(self:_immoralities()) do
    orient(t[1], t[2]); orient(t[3], t[2])
  end
  local changed = true
  while changed do
    changed = false
    for a = 1, n do
      for b in pairs(und[a]) do
        if und[a][b] then
          local force = false
          -- R1: c -> a - b, c and b not adjacent
          for c = 1, n do
            if dir[c][a] and not adjacent(c, b) then force = true; break end
          end
          -- R2: a -> c -> b
          if not force then
            for c = 1, n do if dir[a][c] and dir[c][b] then force = true; break end end
          end
          -- R3: a - c -> b, a - d -> b, c and d not adjacent
          if not force then
            local cs = {}
            for c = 1, n do if und[a][c] and dir[c][b] then cs[#cs + 1] = c end end
            for x = 1, #cs do
              for y = x + 1, #cs do
                if not adjacent(cs[x], cs[y]) then force = true end
              end
            end
          end
          if force then orient(a, b); changed = true end
        end
      end
    end
  end
  local g = M.DiGraph()
  for _, v in ipairs(self.list) do g:_add(v) end
  for i = 1, n do
    for j = 1, n do
      if dir[i][j] or und[i][j] then g.out[i][j], g.inn[j][i] = true, true end
    end
  end
  return g
end

-- ------------------------------------------------------------------ Graph

function Graph:_link(i, j)
  if i == j then return end
  self.out[i][j], self.out[j][i] = true, true
  self.inn[i][j], self.inn[j][i] = true, true
end

function Graph:add_edge(u, v)
  local i, j = self:_add(u), self:_add(v)
  if i == j then fail(2, "add_edge: a self-loop on %s", show(u)) end
  self:_link(i, j)
  return self
end

function Graph:copy()
  local g = M.Graph()
  for _, v in ipairs(self.list) do g:_add(v) end
  for i, s in ipairs(self.out) do for j in pairs(s) do g:_link(i, j) end end
  return g
end

function Graph:edges()
  local out = {}
  for i, v in ipairs(self.list) do
    for _, j in ipairs(sorted_keys(self.out[i])) do
      if j > i then out[#out + 1] = { v, self.list[j] } end
    end
  end
  return out
end

function Graph:neighbors(v) return self:_names(self.out[self:_id(v, 2)]) end

-- Bron-Kerbosch with pivoting over positions; calls emit(list).
local function bron_kerbosch(adj, R, P, X, emit)
  if next(P) == nil and next(X) == nil then
    local c = {}
    for i in pairs(R) do c[#c + 1] = i end
    table.sort(c)
    emit(c)
    return
  end
  local pivot, best = nil, -1
  for _, s in ipairs({ P, X }) do
    for u in pairs(s) do
      local k = 0
      for v in pairs(P) do if adj[u][v] then k = k + 1 end end
      if k > best then best, pivot = k, u end
    end
  end
  local cand = {}
  for v in pairs(P) do if not adj[pivot][v] then cand[#cand + 1] = v end end
  table.sort(cand)
  for _, v in ipairs(cand) do
    local P2, X2 = {}, {}
    for u in pairs(P) do if adj[v][u] then P2[u] = true end end
    for u in pairs(X) do if adj[v][u] then X2[u] = true end end
    R[v] = true
    bron_kerbosch(adj, R, P2, X2, emit)
    R[v] = nil
    P[v] = nil
    X[v] = true
  end
end
M.bron_kerbosch = bron_kerbosch

local function clique_less(a, b)
  for k = 1, math.min(#a, #b) do if a[k] ~= b[k] then return a[k] < b[k] end end
  return #a < #b
end

function Graph:_maximal_cliques()
  local out, P = {}, {}
  for i = 1, #self.list do P[i] = true end
  bron_kerbosch(self.out, {}, P, {}, function(c) out[#out + 1] = c end)
  table.sort(out, clique_less)
  return out
end

function Graph:maximal_cliques()
  local out = {}
  for k, c in ipairs(self:_maximal_cliques()) do
    local names = {}
    for m, i in ipairs(c) do names[m] = self.list[i] end
    out[k] = names
  end
  return out
end

-- Greedy elimination: the order (positions) and the fill-in edges.
-- weight(i) (optional) multiplies cardinalities for the "min-weight"
-- tie-break.
local function eliminate(adj0, n, heuristic, order)
  local adj = {}
  for i = 1, n do
    adj[i] = {}
    for j in pairs(adj0[i]) do adj[i][j] = true end
  end
  local gone, seq, fill_edges, width = {}, {}, {}, 0
  local function cost(i)
    if heuristic == "min_degree" then
      local d = 0
      for _ in pairs(adj[i]) do d = d + 1 end
      return d
    end
    local nb, f = sorted_keys(adj[i]), 0
    for a = 1, #nb do for b = a + 1, #nb do if not adj[nb[a]][nb[b]] then f = f + 1 end end end
    return f
  end
  for step = 1, n do
    local v = order and order[step]
    if not v then
      local best
      for i = 1, n do
        if not gone[i] then
          local c = cost(i)
          if best == nil or c < best then best, v = c, i end
        end
      end
    end
    local nb = sorted_keys(adj[v])
    if #nb > width then width = #nb end
    for a = 1, #nb do
      for b = a + 1, #nb do
        local x, y = nb[a], nb[b]
        if not adj[x][y] then
          adj[x][y], adj[y][x] = true, true
          fill_edges[#fill_edges + 1] = { x, y }
        end
      end
    end
    for _, j in ipairs(nb) do adj[j][v] = nil end
    adj[v] = {}
    gone[v] = true
    seq[step] = v
  end
  return seq, fill_edges, width
end
M.eliminate = eliminate

local HEURISTICS = { min_fill = true, min_degree = true }

function Graph:_order(opts, fname, level)
  local order
  if opts.order then
    if type(opts.order) ~= "table" or #opts.order ~= #self.list then
      fail(level + 1, "%s: order must list all %d nodes", fname, #self.list)
    end
    order = {}
    local seen = {}
    for k, v in ipairs(opts.order) do
      local i = self:_id(v, level + 1)
      if seen[i] then fail(level + 1, "%s: node %s appears twice in order", fname, show(v)) end
      seen[i], order[k] = true, i
    end
  end
  local h = opts.heuristic or "min_fill"
  if not HEURISTICS[h] then
    fail(level + 1, "%s: heuristic must be \"min_fill\" or \"min_degree\", got %s", fname, tostring(h))
  end
  return order, h
end

function Graph:elimination_order(opts)
  opts = args.options("elimination_order", 1, opts, nil, { heuristic = true }, 2)
  local _, h = self:_order(opts, "elimination_order", 2)
  local seq = eliminate(self.out, #self.list, h)
  local out = {}
  for k, i in ipairs(seq) do out[k] = self.list[i] end
  return out
end

function Graph:triangulate(opts)
  opts = args.options("triangulate", 1, opts, nil, { heuristic = true, order = true }, 2)
  local order, h = self:_order(opts, "triangulate", 2)
  local seq, fills = eliminate(self.out, #self.list, h, order)
  local g = self:copy()
  for _, e in ipairs(fills) do g:_link(e[1], e[2]) end
  local names = {}
  for k, i in ipairs(seq) do names[k] = self.list[i] end
  return g, names
end

function Graph:treewidth(order)
  local o = self:_order({ order = order }, "treewidth", 2)
  local _, _, width = eliminate(self.out, #self.list, "min_fill", o)
  return width
end

--- Whether every cycle of length >= 4 has a chord: maximum cardinality
-- search gives a perfect elimination order exactly then (Tarjan and
-- Yannakakis 1984).
function Graph:is_chordal()
  local n = #self.list
  local weight, done, order = {}, {}, {}
  for i = 1, n do weight[i] = 0 end
  for k = n, 1, -1 do
    local v, best = nil, -1
    for i = 1, n do if not done[i] and weight[i] > best then best, v = weight[i], i end end
    done[v], order[k] = true, v
    for j in pairs(self.out[v]) do if not done[j] then weight[j] = weight[j] + 1 end end
  end
  local _, fills = eliminate(self.out, n, "min_fill", order)
  return #fills == 0
end

return M
