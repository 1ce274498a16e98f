--- luma.pgm learning from data: CPTs by maximum likelihood or with a
-- Dirichlet / BDeu prior (Koller and Friedman, Probabilistic Graphical
-- Models, 2009, secs. 17.2-17.4), structure by Chow-Liu trees (Chow and
-- Liu 1968) and greedy hill climbing on BIC or BDeu (Heckerman, Geiger and
-- Chickering 1995; Koller and Friedman sec. 18.4).
--
-- Data: a luma.Table whose columns are categorical (string columns), or
-- a plain table {name = list of states}.  Missing values are errors.
-- Estimates for parent configuration j and state k of a node with r
-- states and q parent configurations:
--   mle        N_jk / N_j (a configuration never seen: uniform)
--   dirichlet  (N_jk + a) / (N_j + r a), a = pseudo_count (default 1)
--   bdeu       (N_jk + s/(q r)) / (N_j + s/q), s = equivalent_sample_size (10)
-- Scores (decomposable, larger is better):
--   BIC  = sum N_jk log(N_jk / N_j) - (log N / 2) q (r - 1)
--   BDeu = sum_j [lgamma(s/q) - lgamma(s/q + N_j)
--                 + sum_k (lgamma(s/(q r) + N_jk) - lgamma(s/(q r)))]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local bn = require("luma.pgm.bn")

local M = {}
local fail = args.fail
local show = require("luma.pgm.graph").show
local lgamma = luma.special.lgamma

-- The data as {names, states = {name = list}, codes = {name = list of
-- ints}, n}; known: states already fixed for some columns.
local function read_data(data, known, fname, level)
  local names, states, codes, n = {}, {}, {}, nil
  local columns = {}
  if luma.Table.is_table(data) then
    for _, name in ipairs(data:names()) do
      local col = data:column(name)
      if luma.ismatrix(col) then
        local list = {}
        for i = 1, col:rows() do
          local x = col:get(i, 1)
          if x ~= x then fail(level + 1, "%s: column %s has a missing value in row %d", fname, show(name), i) end
          list[i] = math.tointeger(x) or x
        end
        columns[name] = list
      else
        columns[name] = col:totable()
        local nrow = col.codes:rows()
        for i = 1, nrow do
          if columns[name][i] == nil then
            fail(level + 1, "%s: column %s has a missing value in row %d", fname, show(name), i)
          end
        end
        columns[name].n = nrow
      end
      names[#names + 1] = name
    end
  elseif type(data) == "table" and getmetatable(data) == nil then
    for name, list in pairs(data) do
      if type(list) ~= "table" then fail(level + 1, "%s: column %s must be a list of states", fname, show(name)) end
      columns[name] = list
      names[#names + 1] = name
    end
    table.sort(names, function(a, b) return tostring(a) < tostring(b) end)
  else
    fail(level + 1, "bad argument #1 to '%s' (a luma.Table or a table of columns expected, got %s)",
      fname, args.type_of(data))
  end
  for _, name in ipairs(names) do
    local list = columns[name]
    local len = list.n or #list
    if n == nil then n = len
    elseif len ~= n then fail(level + 1, "%s: column %s has %d rows, the others %d", fname, show(name), len, n) end
    local st = known and known[name]
    local index = {}
    if st then
      for k, s in ipairs(st) do index[s] = k; index[tostring(s)] = index[tostring(s)] or k end
    else
      local seen = {}
      st = {}
      for i = 1, len do
        local x = list[i]
        if x == nil then fail(level + 1, "%s: column %s has a missing value in row %d", fname, show(name), i) end
        if not seen[x] then seen[x] = true; st[#st + 1] = x end
      end
      table.sort(st, function(a, b)
        if type(a) == type(b) then return a < b end
        return type(a) == "number"
      end)
      for k, s in ipairs(st) do index[s] = k end
    end
    local c = {}
    for i = 1, len do
      local x = list[i]
      local k = index[x] or index[tostring(x)]
      if not k then
        fail(level + 1, "%s: column %s holds %s in row %d, which is not among its states (%s)",
          fname, show(name), show(x), i, table.concat((function()
            local t = {}
            for j, s in ipairs(st) do t[j] = tostring(s) end
            return t
          end)(), ", "))
      end
      c[i] = k
    end
    states[name], codes[name] = st, c
  end
  if n == nil or n == 0 then fail(level + 1, "%s: the data have no rows", fname) end
  return { names = names, states = states, codes = codes, n = n }
end
M.read_data = read_data

-- Counts N[j][k] of var given parents (lists); q and r.
local function counts(d, v, parents)
  local r, q = #d.states[v], 1
  for _, p in ipairs(parents) do q = q * #d.states[p] end
  local N = {}
  for j = 1, q do
    N[j] = {}
    for k = 1, r do N[j][k] = 0 end
  end
  local cv = d.codes[v]
  local cp = {}
  for k, p in ipairs(parents) do cp[k] = d.codes[p] end
  for i = 1, d.n do
    local j = 0
    for k, p in ipairs(parents) do j = j * #d.states[p] + (cp[k][i] - 1) end
    local row = N[j + 1]
    row[cv[i]] = row[cv[i]] + 1
  end
  return N, q, r
end
M.counts = counts

local ESTIMATORS = { mle = true, dirichlet = true, bdeu = true }

local function estimate(N, q, r, opts)
  local est = opts.estimator or "mle"
  local rows = {}
  for j = 1, q do
    local Nj = 0
    for k = 1, r do Nj = Nj + N[j][k] end
    local row = {}
    for k = 1, r do
      if est == "mle" then row[k] = Nj > 0 and N[j][k] / Nj or 1 / r
      elseif est == "dirichlet" then
        local a = opts.pseudo_count or 1
        row[k] = (N[j][k] + a) / (Nj + r * a)
      else
        local s = opts.equivalent_sample_size or 10
        row[k] = (N[j][k] + s / (q * r)) / (Nj + s / q)
      end
    end
    -- the last entry closes the row exactly, so it passes the sum check
    local sum = 0
    for k = 1, r - 1 do sum = sum + row[k] end
    row[r] = math.max(0, 1 - sum)
    rows[j] = row
  end
  return rows
end

local FIT_OPTS = { estimator = true, pseudo_count = true, equivalent_sample_size = true }

local function check_fit_opts(fname, argn, opts, level, extra)
  local valid = {}
  for k in pairs(FIT_OPTS) do valid[k] = true end
  for k in pairs(extra or {}) do valid[k] = true end
  opts = args.options(fname, argn, opts, nil, valid, level + 1)
  local est = opts.estimator or "mle"
  if not ESTIMATORS[est] then
    fail(level + 1, "%s: estimator must be \"mle\", \"dirichlet\" or \"bdeu\", got %s", fname, tostring(est))
  end
  for _, key in ipairs({ "pseudo_count", "equivalent_sample_size" }) do
    local x = opts[key]
    if x ~= nil and (type(x) ~= "number" or not (x > 0) or x == math.huge) then
      fail(level + 1, "%s: %s must be a finite number > 0, got %s", fname, key, tostring(x))
    end
  end
  return opts
end

-- Sets every CPT of net from the data d.
local function fit_cpts(net, d, opts)
  for _, v in ipairs(net.graph:topological_order()) do
    local parents = net.graph:parents(v)
    local N, q, r = counts(d, v, parents)
    net.states[v] = d.states[v]
    local rows = estimate(N, q, r, opts)
    net:set_cpt(v, { states = d.states[v], parents = parents, probs = #parents == 0 and rows[1] or rows })
  end
  return net
end

--- bn:fit(data [, opts]): the CPTs of the network's structure from data.
function M.fit(self, data, opts)
  opts = check_fit_opts("fit", 2, opts, 2)
  local known = {}
  for v, s in pairs(self.states) do known[v] = s end
  local d = read_data(data, known, "fit", 2)
  for _, v in ipairs(self.graph.list) do
    if not d.states[v] then fail(2, "fit: the data have no column %s", show(v)) end
  end
  return fit_cpts(self, d, opts)
end

-- ---------------------------------------------------------------- scores

local function local_score(d, v, parents, score, ess)
  local N, q, r = counts(d, v, parents)
  local s = 0
  if score == "bic" then
    for j = 1, q do
      local Nj = 0
      for k = 1, r do Nj = Nj + N[j][k] end
      for k = 1, r do
        if N[j][k] > 0 then s = s + N[j][k] * math.log(N[j][k] / Nj) end
      end
    end
    return s - 0.5 * math.log(d.n) * q * (r - 1)
  end
  local aj, ajk = ess / q, ess / (q * r)
  for j = 1, q do
    local Nj = 0
    for k = 1, r do Nj = Nj + N[j][k] end
    s = s + lgamma(aj) - lgamma(aj + Nj)
    for k = 1, r do s = s + lgamma(ajk + N[j][k]) - lgamma(ajk) end
  end
  return s
end
M.local_score = local_score

local SCORES = { bic = true, bdeu = true }

--- score(net, data [, {score = "bic", equivalent_sample_size = 10}])
function M.score(net, data, opts)
  opts = args.options("score", 3, opts, nil, { score = true, equivalent_sample_size = true }, 2)
  if not bn.is_bn(net) then
    fail(2, "bad argument #1 to 'score' (luma.pgm.BayesianNetwork expected, got %s)", args.type_of(net))
  end
  local sc = opts.score or "bic"
  if not SCORES[sc] then fail(2, "score: score must be \"bic\" or \"bdeu\", got %s", tostring(sc)) end
  local d = read_data(data, net.states, "score", 2)
  local total = 0
  for _, v in ipairs(net.graph.list) do
    if not d.states[v] then fail(2, "score: the data have no column %s", show(v)) end
    total = total + local_score(d, v, net.graph:parents(v), sc, opts.equivalent_sample_size or 10)
  end
  return total
end

-- ---------------------------------------------------------------- Chow-Liu

local function mutual_information(d, a, b)
  local N = counts(d, b, { a })
  local ra, rb = #d.states[a], #d.states[b]
  local pa, pb = {}, {}
  for i = 1, ra do pa[i] = 0 end
  for k = 1, rb do pb[k] = 0 end
  for i = 1, ra do for k = 1, rb do pa[i] = pa[i] + N[i][k]; pb[k] = pb[k] + N[i][k] end end
  local mi = 0
  for i = 1, ra do
    for k = 1, rb do
      local x = N[i][k]
      if x > 0 then mi = mi + x / d.n * math.log(x * d.n / (pa[i] * pb[k])) end
    end
  end
  return mi
end
M.mutual_information = mutual_information

--- chow_liu(data [, opts]) -> BayesianNetwork: the maximum-likelihood tree.
function M.chow_liu(data, opts)
  opts = check_fit_opts("chow_liu", 2, opts, 2, { root = true })
  local d = read_data(data, nil, "chow_liu", 2)
  local vars = d.names
  local root = opts.root or vars[1]
  if not d.states[root] then fail(2, "chow_liu: root %s is not a column", show(root)) end
  local links = {}
  for a = 1, #vars do
    for b = a + 1, #vars do links[#links + 1] = { a, b, mutual_information(d, vars[a], vars[b]) } end
  end
  table.sort(links, function(x, y)
    if x[3] ~= y[3] then return x[3] > y[3] end
    if x[1] ~= y[1] then return x[1] < y[1] end
    return x[2] < y[2]
  end)
  local parent = {}
  local function find(i)
    while parent[i] do i = parent[i] end
    return i
  end
  local adj = {}
  for i = 1, #vars do adj[i] = {} end
  for _, l in ipairs(links) do
    local ra, rb = find(l[1]), find(l[2])
    if ra ~= rb then
      parent[ra] = rb
      adj[l[1]][#adj[l[1]] + 1] = l[2]
      adj[l[2]][#adj[l[2]] + 1] = l[1]
    end
  end
  local net = bn.BayesianNetwork()
  for _, v in ipairs(vars) do net.graph:add_node(v) end
  local seen = {}
  local function orient(start)
    local stack = { start }
    seen[start] = true
    while #stack > 0 do
      local i = table.remove(stack, 1)
      for _, j in ipairs(adj[i]) do
        if not seen[j] then seen[j] = true; net.graph:add_edge(vars[i], vars[j]); stack[#stack + 1] = j end
      end
    end
  end
  for i, v in ipairs(vars) do if v == root then orient(i) end end
  for i = 1, #vars do if not seen[i] then orient(i) end end
  return fit_cpts(net, d, opts)
end

-- ----------------------------------------------------------- hill climbing

--- hill_climb(data [, opts]) -> BayesianNetwork, info
function M.hill_climb(data, opts)
  opts = check_fit_opts("hill_climb", 2, opts, 2, { score = true, max_indegree = true,
    max_iter = true, start = true })
  local sc = opts.score or "bic"
  if not SCORES[sc] then fail(2, "hill_climb: score must be \"bic\" or \"bdeu\", got %s", tostring(sc)) end
  local max_in = opts.max_indegree or math.huge
  local max_iter = opts.max_iter or 1000
  local ess = opts.equivalent_sample_size or 10
  local d = read_data(data, nil, "hill_climb", 2)
  local vars = d.names
  local net = bn.BayesianNetwork()
  for _, v in ipairs(vars) do net.graph:add_node(v) end
  if opts.start ~= nil then
    if not bn.is_bn(opts.start) then fail(2, "hill_climb: start must be a BayesianNetwork") end
    for _, e in ipairs(opts.start:edges()) do
      if not d.states[e[1]] or not d.states[e[2]] then
        fail(2, "hill_climb: the start network's node %s is not a column", show(d.states[e[1]] and e[2] or e[1]))
      end
      net.graph:add_edge(e[1], e[2])
    end
  end
  local g = net.graph
  local cache = {}
  local function parents_of(v, change_add, change_remove)
    local ps = {}
    for _, p in ipairs(g:parents(v)) do if p ~= change_remove then ps[#ps + 1] = p end end
    if change_add then ps[#ps + 1] = change_add end
    table.sort(ps, function(a, b) return g.index[a] < g.index[b] end)
    return ps
  end
  local function score_of(v, ps)
    local key = tostring(v) .. "|" .. table.concat((function()
      local t = {}
      for k, p in ipairs(ps) do t[k] = tostring(p) end
      return t
    end)(), ",")
    local s = cache[key]
    if s == nil then s = local_score(d, v, ps, sc, ess); cache[key] = s end
    return s
  end
  local function acyclic_with(u, v) -- would u -> v keep the graph acyclic?
    return not (u == v or g.out[g.index[v]] and (function()
      local r = require("luma.pgm.graph").reach(g.out, { [g.index[v]] = true })
      return r[g.index[u]]
    end)())
  end
  local iterations = 0
  for it = 1, max_iter do
    local best, op = 1e-9, nil
    for _, u in ipairs(vars) do
      for _, v in ipairs(vars) do
        if u ~= v then
          local cur_v = score_of(v, parents_of(v))
          if g:has_edge(u, v) then
            -- remove
            local delta = score_of(v, parents_of(v, nil, u)) - cur_v
            if delta > best then best, op = delta, { "remove", u, v } end
            -- reverse: u -> v becomes v -> u
            if #g:parents(u) < max_in then
              g:remove_edge(u, v)
              local ok = acyclic_with(v, u)
              g:add_edge(u, v)
              if ok then
                local dl = delta + score_of(u, parents_of(u, v)) - score_of(u, parents_of(u))
                if dl > best then best, op = dl, { "reverse", u, v } end
              end
            end
          elseif not g:has_edge(v, u) and #g:parents(v) < max_in and acyclic_with(u, v) then
            local delta = score_of(v, parents_of(v, u)) - cur_v
            if delta > best then best, op = delta, { "add", u, v } end
          end
        end
      end
    end
    if not op then break end
    iterations = it
    if op[1] == "add" then g:add_edge(op[2], op[3])
    elseif op[1] == "remove" then g:remove_edge(op[2], op[3])
    else g:remove_edge(op[2], op[3]); g:add_edge(op[3], op[2]) end
  end
  local total = 0
  for _, v in ipairs(vars) do total = total + score_of(v, parents_of(v)) end
  fit_cpts(net, d, opts)
  return net, { iterations = iterations, score = total }
end

return M
