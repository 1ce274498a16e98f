--- luma.pgm inference over a list of discrete factors, shared by belief
-- networks, Markov networks and factor graphs: enumeration, variable
-- elimination (sum and max, with traceback), the junction tree and
-- belief propagation.  Not public; the model classes call it.
--
-- A model here is {vars = list of names, card = {name = k}, states =
-- {name = names or nil}}; evidence is already turned into factors or
-- reductions by the caller.
--
-- Junction tree (notes 000 Ch. 11 "junction tree", the steps as listed;
-- Barber, BRML, 2012, ch. 6; Koller and Friedman, 2009, ch. 10): the
-- interaction (moral) graph of the factors' scopes is triangulated by
-- min-fill elimination; its maximal cliques are joined by a maximum-
-- weight spanning tree (Kruskal) of the clique graph weighted by
-- separator sizes, where weight-0 links are dropped, so a disconnected
-- model gives a forest; the running-intersection property is checked;
-- each factor goes to the first clique that holds its scope; potentials
-- are calibrated by Hugin absorption towards each tree's root and back:
-- W absorbs from V through S as phi*(S) = sum_{V\S} phi(V), phi*(W) =
-- phi(W) phi*(S) / phi(S) (0/0 = 0).
--
-- Belief propagation (Kschischang, Frey and Loeliger 2001; Barber sec.
-- 5.1; the notes' message figures are lost): mu_{v->f} = prod of the
-- other factors' messages into v, mu_{f->v} = sum (max) over f's other
-- variables of f times their messages; messages are normalised; beliefs
-- b_v are proportional to the product of v's incoming messages.  Exact on
-- trees (factor graphs without cycles).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.pgm.native")
local factor = require("luma.pgm.factor")
local graph = require("luma.pgm.graph")

local M = {}
local fail = args.fail
local make = factor.make

local function show(v) return type(v) == "string" and ("'" .. v .. "'") or tostring(v) end

local function ones(model, vars, log, what)
  local card, n = {}, 1
  for k, v in ipairs(vars) do card[k] = model.card[v]; n = n * card[k] end
  native.check_cells(card, what)
  local states = {}
  for _, v in ipairs(vars) do states[v] = model.states[v] end
  return make(table.move(vars, 1, #vars, 1, {}), card, luma.full(n, 1, log and 0 or 1), log, states)
end
M.ones = ones

-- Adds a uniform factor for each model variable no factor mentions (so
-- every variable has a marginal).
local function cover(model, factors, log)
  local seen = {}
  for _, f in ipairs(factors) do for _, v in ipairs(f.vars) do seen[v] = true end end
  local out = table.move(factors, 1, #factors, 1, {})
  for _, v in ipairs(model.vars) do
    if not seen[v] then out[#out + 1] = ones(model, { v }, log) end
  end
  return out
end
M.cover = cover

-- --------------------------------------------------------------- enumeration

--- The unnormalised joint over query by the full product (notes'
-- inference by enumeration): exponential in the number of variables.
function M.enumerate(model, factors, query, log)
  local joint = factor.product_all(cover(model, factors, log), log)
  local keep = {}
  for _, v in ipairs(query) do keep[v] = true end
  return joint:_marginal(keep, "sum")
end

-- ------------------------------------------------------ variable elimination

-- The greedy min-fill choice among the candidate variables, over the
-- interaction graph of the current factors.
local function pick(factors, candidates)
  local adj = {}
  for v in pairs(candidates) do adj[v] = {} end
  for _, f in ipairs(factors) do
    for _, a in ipairs(f.vars) do
      if adj[a] then for _, b in ipairs(f.vars) do if b ~= a then adj[a][b] = true end end end
    end
  end
  local best, choice
  for v, nb in pairs(adj) do
    local list = {}
    for u in pairs(nb) do list[#list + 1] = u end
    local fill = 0
    -- fill-in needs adjacency of the neighbours: recompute from scopes
    for x = 1, #list do
      for y = x + 1, #list do
        local linked = false
        for _, f in ipairs(factors) do
          if f.pos[list[x]] and f.pos[list[y]] then linked = true; break end
        end
        if not linked then fill = fill + 1 end
      end
    end
    -- ties by the variable's name order, so results never depend on hashing
    if best == nil or fill < best or (fill == best and tostring(v) < tostring(choice)) then
      best, choice = fill, v
    end
  end
  return choice
end

-- Eliminates every variable not in keep (a set) by sum or max; returns
-- the remaining factors and, for max, the list of (variable, psi) for a
-- traceback.
local function eliminate(factors, keep, mode)
  local pending, trace = {}, {}
  for _, f in ipairs(factors) do
    for _, v in ipairs(f.vars) do if not keep[v] then pending[v] = true end end
  end
  factors = table.move(factors, 1, #factors, 1, {})
  while next(pending) do
    local v = pick(factors, pending)
    pending[v] = nil
    local with, rest = {}, {}
    for _, f in ipairs(factors) do
      if f.pos[v] then with[#with + 1] = f else rest[#rest + 1] = f end
    end
    local psi = with[1]
    for k = 2, #with do psi = psi:product(with[k]) end
    local others = {}
    for _, u in ipairs(psi.vars) do if u ~= v then others[u] = true end end
    rest[#rest + 1] = psi:_marginal(others, mode)
    if mode == "max" then trace[#trace + 1] = { v, psi } end
    factors = rest
  end
  return factors, trace
end
M.eliminate = eliminate

--- Variable elimination: the unnormalised joint over query.
function M.ve(model, factors, query, log)
  local keep = {}
  for _, v in ipairs(query) do keep[v] = true end
  local rest = eliminate(cover(model, factors, log), keep, "sum")
  return factor.product_all(rest, log):_marginal(keep, "sum")
end

-- Max-product elimination with traceback over the given factors: the
-- maximising assignment (by state index) of every variable they mention
-- and the maximum (in the factors' space).
local function max_decode(factors, log)
  local rest, trace = eliminate(factors, {}, "max")
  local top = factor.product_all(rest, log)
  local value = top.values:get(1, 1)
  local assign = {}
  for k = #trace, 1, -1 do
    local v, psi = trace[k][1], trace[k][2]
    local e = {}
    for _, u in ipairs(psi.vars) do if u ~= v then e[u] = assign[u] end end
    local r = psi:reduce(e)
    local best, at = -math.huge, 1
    for i = 1, r.values:rows() do
      local x = r.values:get(i, 1)
      if x > best then best, at = x, i end
    end
    assign[v] = at
  end
  return assign, value
end
M.max_decode = max_decode

-- ------------------------------------------------------------- junction tree

local JT = {}
JT.__index = JT
JT.__name = "luma.pgm.JunctionTree"
M.JunctionTree_mt = JT

--- Builds the tree (no potentials yet): cliques as lists of variable
-- names, edges {a, b, separator}.
function M.junction_tree(model, factors, heuristic)
  local g = graph.Graph()
  for _, v in ipairs(model.vars) do g:_add(v) end
  for _, f in ipairs(factors) do
    for a = 1, #f.vars do
      for b = a + 1, #f.vars do g:_link(g.index[f.vars[a]], g.index[f.vars[b]]) end
    end
  end
  local n = #g.list
  local seq = graph.eliminate(g.out, n, heuristic or "min_fill")
  -- elimination cliques {v} u later neighbours in the filled graph; the
  -- maximal ones are the chordal graph's maximal cliques
  local adj, gone, raw = {}, {}, {}
  for i = 1, n do adj[i] = {}; for j in pairs(g.out[i]) do adj[i][j] = true end end
  for _, v in ipairs(seq) do
    local c = { v }
    for j in pairs(adj[v]) do if not gone[j] then c[#c + 1] = j end end
    for x = 2, #c do for y = x + 1, #c do adj[c[x]][c[y]], adj[c[y]][c[x]] = true, true end end
    gone[v] = true
    table.sort(c)
    raw[#raw + 1] = c
  end
  local cliques = {}
  for a, c in ipairs(raw) do
    local set = {}
    for _, i in ipairs(c) do set[i] = true end
    local contained = false
    for b, d in ipairs(raw) do
      if b ~= a and #d >= #c and not (#d == #c and b > a) then
        local all = true
        for i in pairs(set) do
          local found = false
          for _, j in ipairs(d) do if j == i then found = true; break end end
          if not found then all = false; break end
        end
        if all then contained = true; break end
      end
    end
    if not contained then cliques[#cliques + 1] = c end
  end
  -- Kruskal on separator sizes, largest first (ties by clique order)
  local links = {}
  for a = 1, #cliques do
    local sa = {}
    for _, i in ipairs(cliques[a]) do sa[i] = true end
    for b = a + 1, #cliques do
      local sep = {}
      for _, i in ipairs(cliques[b]) do if sa[i] then sep[#sep + 1] = i end end
      if #sep > 0 then links[#links + 1] = { a, b, sep } end
    end
  end
  table.sort(links, function(x, y)
    if #x[3] ~= #y[3] then return #x[3] > #y[3] end
    if x[1] ~= y[1] then return x[1] < y[1] end
    return x[2] < y[2]
  end)
  local root = {}
  local function find(i)
    while root[i] and root[i] ~= i do i = root[i] end
    return i
  end
  for i = 1, #cliques do root[i] = i end
  local edges = {}
  for _, l in ipairs(links) do
    local ra, rb = find(l[1]), find(l[2])
    if ra ~= rb then
      root[ra] = rb
      edges[#edges + 1] = l
    end
  end
  local function names(list)
    local out = {}
    for k, i in ipairs(list) do out[k] = g.list[i] end
    return out
  end
  local self = setmetatable({ model = model, cliques = {}, edges = {} }, JT)
  for k, c in ipairs(cliques) do self.cliques[k] = names(c) end
  for k, e in ipairs(edges) do self.edges[k] = { e[1], e[2], names(e[3]) } end
  self:_check_running_intersection()
  return self
end

-- Every variable's cliques must form a connected subtree: in a forest a
-- vertex set induces a connected subgraph exactly when the induced edges
-- are one fewer than the vertices.
function JT:_check_running_intersection()
  local count, links = {}, {}
  for _, c in ipairs(self.cliques) do for _, v in ipairs(c) do count[v] = (count[v] or 0) + 1 end end
  for _, e in ipairs(self.edges) do for _, v in ipairs(e[3]) do links[v] = (links[v] or 0) + 1 end end
  for v, k in pairs(count) do
    if (links[v] or 0) ~= k - 1 then
      fail(4, "junction tree: the running-intersection property fails for %s", show(v))
    end
  end
  return true
end

function JT:check_running_intersection() return self:_check_running_intersection() end

--- The width: the largest clique's size minus one.
function JT:treewidth()
  local w = 0
  for _, c in ipairs(self.cliques) do if #c - 1 > w then w = #c - 1 end end
  return w
end

-- Assigns factors and calibrates (mode "sum" or "max"); keeps the clique
-- and separator potentials and each tree's normaliser.
function JT:_calibrate(factors, mode, log)
  local model = self.model
  -- refuse the whole tree before allocating any of it
  for _, c in ipairs(self.cliques) do
    local card = {}
    for k, v in ipairs(c) do card[k] = model.card[v] end
    local shown = {}
    for k, v in ipairs(c) do shown[k] = tostring(v) end
    native.check_cells(card, "clique {" .. table.concat(shown, ", ") .. "}")
  end
  local pot = {}
  for k, c in ipairs(self.cliques) do pot[k] = ones(model, c, log) end
  for _, f in ipairs(factors) do
    local home
    for k, c in ipairs(self.cliques) do
      local all = true
      local set = {}
      for _, v in ipairs(c) do set[v] = true end
      for _, v in ipairs(f.vars) do if not set[v] then all = false; break end end
      if all then home = k; break end
    end
    if not home then fail(3, "junction tree: no clique holds a factor's scope") end
    pot[home] = pot[home]:product(f)
  end
  local sep = {}
  for k, e in ipairs(self.edges) do sep[k] = ones(model, e[3], log) end
  -- the tree's adjacency and a root per component
  local nb = {}
  for k = 1, #self.cliques do nb[k] = {} end
  for k, e in ipairs(self.edges) do
    nb[e[1]][#nb[e[1]] + 1] = { e[2], k }
    nb[e[2]][#nb[e[2]] + 1] = { e[1], k }
  end
  local function absorb(w, v, k)
    local keep = {}
    for _, x in ipairs(self.edges[k][3]) do keep[x] = true end
    local new = pot[v]:_marginal(keep, mode)
    pot[w] = pot[w]:product(new:divide(sep[k]))
    sep[k] = new
  end
  local seen, roots = {}, {}
  for r = 1, #self.cliques do
    if not seen[r] then
      roots[#roots + 1] = r
      -- an order by depth-first search: parents before children
      local order, parent, stack = {}, {}, { r }
      seen[r] = true
      while #stack > 0 do
        local c = table.remove(stack)
        order[#order + 1] = c
        for _, x in ipairs(nb[c]) do
          if not seen[x[1]] then
            seen[x[1]] = true
            parent[x[1]] = { c, x[2] }
            stack[#stack + 1] = x[1]
          end
        end
      end
      for k = #order, 2, -1 do -- collect: children into parents
        local c = order[k]
        absorb(parent[c][1], c, parent[c][2])
      end
      for k = 2, #order do -- distribute: parents into children
        local c = order[k]
        absorb(c, parent[c][1], parent[c][2])
      end
    end
  end
  self.potentials, self.separators, self.roots, self.mode, self.log = pot, sep, roots, mode, log
  return self
end

--- The normaliser: the product over trees of each root's total (the
-- partition function, or the evidence's probability).
function JT:normalizer()
  local z = self.log and 0 or 1
  for _, r in ipairs(self.roots) do
    local t = self.potentials[r]:sum()
    if self.log then z = z + t else z = z * t end
  end
  return z
end

--- The normalised marginal of variable v from the smallest clique that
-- holds it.
function JT:marginal(v)
  local best
  for k, c in ipairs(self.cliques) do
    for _, x in ipairs(c) do
      if x == v and (best == nil or #c < #self.cliques[best]) then best = k end
    end
  end
  if not best then fail(2, "unknown variable %s", show(v)) end
  local m = self.potentials[best]:_marginal({ [v] = true }, self.mode)
  return (m:normalize())
end

-- ----------------------------------------------------------------------- BP

--- Sum- or max-product belief propagation over the factor graph of
-- factors.  opts: mode, max_iter, tol, damping, schedule.  Returns the
-- beliefs (variable -> normalised 1-variable factor) and a report.
function M.belief_propagation(model, factors, opts)
  local mode = opts.mode or "sum"
  local max_iter, tol, damping = opts.max_iter or 100, opts.tol or 1e-10, opts.damping or 0
  local schedule = opts.schedule or "parallel"
  local var_f = {} -- variable -> list of {factor index, position}
  for _, v in ipairs(model.vars) do var_f[v] = {} end
  for fi, f in ipairs(factors) do
    for k, v in ipairs(f.vars) do var_f[v][#var_f[v] + 1] = { fi, k } end
  end
  local function uniform(v) return ones(model, { v }, false) end
  local fv, vf = {}, {} -- fv[fi][k], vf[fi][k]: 1-variable factors
  for fi, f in ipairs(factors) do
    fv[fi], vf[fi] = {}, {}
    for k, v in ipairs(f.vars) do fv[fi][k], vf[fi][k] = uniform(v), uniform(v) end
  end
  local function var_to_factor(fi, k)
    local v = factors[fi].vars[k]
    local m = uniform(v)
    for _, e in ipairs(var_f[v]) do
      if e[1] ~= fi then m = m:product(fv[e[1]][e[2]]) end
    end
    local total = m:sum()
    if total == 0 then fail(3, "belief propagation: the messages into %s are all 0 "
      .. "(impossible evidence?)", show(v)) end
    return (m:normalize())
  end
  local function factor_to_var(fi, k)
    local f = factors[fi]
    local p = f
    for j = 1, #f.vars do if j ~= k then p = p:product(vf[fi][j]) end end
    local m = p:_marginal({ [f.vars[k]] = true }, mode)
    if m:sum() == 0 then fail(3, "belief propagation: factor %d sends an all-zero message to %s "
      .. "(impossible evidence?)", fi, show(f.vars[k])) end
    m = m:normalize()
    if damping > 0 then
      local old = fv[fi][k]
      m = make(m.vars, m.card, m.values * (1 - damping) + old.values * damping, false, m.states)
    end
    return m
  end
  local function change(a, b) return (a.values - b.values):abs():max() end
  local iterations, delta, converged = 0, math.huge, false
  for it = 1, max_iter do
    iterations, delta = it, 0
    if schedule == "parallel" then
      for fi, f in ipairs(factors) do
        for k = 1, #f.vars do vf[fi][k] = var_to_factor(fi, k) end
      end
      local new = {}
      for fi, f in ipairs(factors) do
        new[fi] = {}
        for k = 1, #f.vars do new[fi][k] = factor_to_var(fi, k) end
      end
      for fi, f in ipairs(factors) do
        for k = 1, #f.vars do
          delta = math.max(delta, change(new[fi][k], fv[fi][k]))
          fv[fi][k] = new[fi][k]
        end
      end
    else -- sequential: factors in order, then back, each using the latest messages
      local seq = {}
      for fi = 1, #factors do seq[#seq + 1] = fi end
      for fi = #factors, 1, -1 do seq[#seq + 1] = fi end
      for _, fi in ipairs(seq) do
        local f = factors[fi]
        for k = 1, #f.vars do vf[fi][k] = var_to_factor(fi, k) end
        for k = 1, #f.vars do
          local m = factor_to_var(fi, k)
          delta = math.max(delta, change(m, fv[fi][k]))
          fv[fi][k] = m
        end
      end
    end
    if delta < tol then converged = true; break end
  end
  local beliefs = {}
  for _, v in ipairs(model.vars) do
    local b = uniform(v)
    for _, e in ipairs(var_f[v]) do b = b:product(fv[e[1]][e[2]]) end
    beliefs[v] = (b:normalize())
  end
  return beliefs, { converged = converged, iterations = iterations, max_delta = delta }
end

return M
