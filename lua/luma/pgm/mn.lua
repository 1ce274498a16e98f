--- luma.pgm MarkovNetwork and FactorGraph: discrete undirected models
-- P(x) = (1/Z) prod_c psi_c(x_c) with non-negative potentials (notes 000
-- Ch. 11 "Markov networks" and "factor graphs"; Koller and Friedman,
-- Probabilistic Graphical Models, 2009, ch. 4; Barber, BRML, 2012, secs.
-- 4.2 and 4.4).  The two hold the same thing, variables and factors; a
-- MarkovNetwork is read through its graph (variables joined when they
-- share a factor) and a FactorGraph through the bipartite variable-factor
-- graph that belief propagation runs on.  Z comes by variable
-- elimination, the junction tree or enumeration.
-- SPDX-License-Identifier: MIT
local args = require("luma.util.args")
local factor = require("luma.pgm.factor")
local graph = require("luma.pgm.graph")
local infer = require("luma.pgm.infer")

local M = {}
local fail = args.fail
local show = graph.show

local Base = {}

local MN = setmetatable({}, { __index = Base })
MN.__index = MN
MN.__name = "luma.pgm.MarkovNetwork"
M.MN_mt = MN

local FG = setmetatable({}, { __index = Base })
FG.__index = FG
FG.__name = "luma.pgm.FactorGraph"
M.FG_mt = FG

local function new(mt) return setmetatable({ vars = {}, card = {}, states = {}, factors = {} }, mt) end

function M.MarkovNetwork() return new(MN) end
function M.FactorGraph() return new(FG) end

--- add_variable(name, states): states a list of names or a count.
function Base:add_variable(v, states)
  if type(v) ~= "string" and math.type(v) ~= "integer" then
    fail(2, "bad argument #1 to 'add_variable' (a string or integer name expected, got %s)",
      args.type_of(v))
  end
  local names
  if math.type(states) == "integer" and states >= 1 then
    names = {}
    for k = 1, states do names[k] = k end
  elseif type(states) == "table" and #states >= 1 then
    names = table.move(states, 1, #states, 1, {})
  else
    fail(2, "bad argument #2 to 'add_variable' (a list of state names or a count >= 1 expected)")
  end
  if self.card[v] then
    if self.card[v] ~= #names then
      fail(2, "add_variable: %s already has %d states", show(v), self.card[v])
    end
  else
    self.vars[#self.vars + 1] = v
  end
  self.card[v], self.states[v] = #names, names
  return self
end

--- add_factor(vars, values) or add_factor(factor): a potential over
-- declared variables (values row-major, the last variable fastest).
function Base:add_factor(vars, values)
  local f
  if factor.is_factor(vars) then
    f = vars
    if f.log then f = f:to_prob() end
    for k, v in ipairs(f.vars) do
      if not self.card[v] then
        self.vars[#self.vars + 1] = v
        self.card[v] = f.card[k]
        local names = f.states[v]
        if not names then names = {}; for s = 1, f.card[k] do names[s] = s end end
        self.states[v] = names
      elseif self.card[v] ~= f.card[k] then
        fail(2, "add_factor: %s has %d states, the factor gives it %d", show(v), self.card[v], f.card[k])
      end
    end
    factor.check_values(f.values, f.values:rows(), false, "add_factor", 2)
  else
    if type(vars) ~= "table" or #vars == 0 then
      fail(2, "bad argument #1 to 'add_factor' (a list of variables or a luma.pgm.Factor expected)")
    end
    local card, st = {}, {}
    for k, v in ipairs(vars) do
      if not self.card[v] then fail(2, "add_factor: unknown variable %s (add_variable first)", show(v)) end
      card[k], st[v] = self.card[v], self.states[v]
    end
    local n = 1
    for _, c in ipairs(card) do n = n * c end
    local m = factor.check_values(values, n, false, "add_factor", 2)
    f = factor.make(table.move(vars, 1, #vars, 1, {}), card, m, false, st)
  end
  self.factors[#self.factors + 1] = f
  return self
end

function Base:get_factors() return table.move(self.factors, 1, #self.factors, 1, {}) end
function Base:variables() return table.move(self.vars, 1, #self.vars, 1, {}) end

function Base:_model() return { vars = self.vars, card = self.card, states = self.states } end

local function check_nonempty(self, level)
  if #self.factors == 0 then fail(level + 1, "the model has no factors") end
end

-- Hard evidence as {var = index}.
local function read_evidence(self, evidence, level)
  local e = {}
  if evidence == nil then return e end
  if type(evidence) ~= "table" then fail(level + 1, "evidence must be a table {variable = state}") end
  for v, s in pairs(evidence) do
    local names = self.states[v]
    if not names then fail(level + 1, "unknown variable %s in evidence", show(v)) end
    local idx
    for k, n in ipairs(names) do if idx == nil and n == s then idx = k end end
    if idx == nil and math.type(s) == "integer" and s >= 1 and s <= #names then idx = s end
    if not idx then
      local shown = {}
      for k, n in ipairs(names) do shown[k] = tostring(n) end
      fail(level + 1, "unknown state %s of variable %s (states: %s)", show(s), show(v),
        table.concat(shown, ", "))
    end
    e[v] = idx
  end
  return e
end

local function reduced(self, e)
  local fs = {}
  for k, f in ipairs(self.factors) do fs[k] = f:reduce(e) end
  local m = { card = self.card, states = self.states, vars = {} }
  for _, v in ipairs(self.vars) do if not e[v] then m.vars[#m.vars + 1] = v end end
  return m, fs
end

local Z_METHODS = { ve = true, jt = true, enumeration = true }

--- The partition function Z = sum_x prod_c psi_c(x_c).
function Base:partition_function(opts)
  opts = args.options("partition_function", 1, opts, nil, { method = true }, 2)
  check_nonempty(self, 2)
  local method = opts.method or "ve"
  if not Z_METHODS[method] then
    fail(2, "partition_function: method must be \"ve\", \"jt\" or \"enumeration\", got %s", tostring(method))
  end
  local model = self:_model()
  if method == "jt" then
    local jt = args.relay(2, infer.junction_tree, model, self.factors)
    args.relay(2, jt._calibrate, jt, self.factors, "sum", false)
    return jt:normalizer()
  end
  if method == "enumeration" then
    return factor.product_all(infer.cover(model, self.factors, false), false):sum()
  end
  local rest = infer.eliminate(infer.cover(model, self.factors, false), {}, "sum")
  return factor.product_all(rest, false).values:get(1, 1)
end

local Q_METHODS = { ve = true, jt = true, enumeration = true, bp = true }

function Base:query(vars, opts)
  opts = args.options("query", 2, opts, nil, { evidence = true, method = true }, 2)
  check_nonempty(self, 2)
  local method = opts.method or "ve"
  if not Q_METHODS[method] then
    fail(2, "query: method must be \"ve\", \"jt\", \"enumeration\" or \"bp\", got %s", tostring(method))
  end
  if type(vars) ~= "table" then vars = { vars } end
  local e = read_evidence(self, opts.evidence, 2)
  for _, v in ipairs(vars) do
    if not self.card[v] then fail(2, "query: unknown variable %s", show(v)) end
    if e[v] then fail(2, "query: %s is both queried and observed", show(v)) end
  end
  local model, fs = reduced(self, e)
  local m
  if method == "bp" or (method == "jt" and #vars == 1) then
    if #vars ~= 1 then fail(2, "query: method \"bp\" gives single-variable marginals only") end
    local beliefs = method == "bp" and args.relay(2, infer.belief_propagation, model, fs, {})
    if beliefs then return beliefs[vars[1]] end
    local jt = args.relay(2, infer.junction_tree, model, fs)
    args.relay(2, jt._calibrate, jt, fs, "sum", false)
    if not (jt:normalizer() > 0) then fail(2, "impossible evidence: its probability is 0") end
    return jt:marginal(vars[1])
  elseif method == "enumeration" then
    m = infer.enumerate(model, fs, vars, false)
  else
    m = infer.ve(model, fs, vars, false)
  end
  if not (m:sum() > 0) then fail(2, "impossible evidence: its probability is 0") end
  return (m:normalize())
end

--- The most probable joint state given evidence, and its probability.
function Base:mpe(opts)
  opts = args.options("mpe", 1, opts, nil, { evidence = true }, 2)
  check_nonempty(self, 2)
  local e = read_evidence(self, opts.evidence, 2)
  local model, fs = reduced(self, e)
  fs = infer.cover(model, fs, false)
  local z = factor.product_all(infer.eliminate(fs, {}, "sum"), false).values:get(1, 1)
  if not (z > 0) then fail(2, "impossible evidence: its probability is 0") end
  local assign, value = infer.max_decode(fs, false)
  local out = {}
  for v, i in pairs(assign) do out[v] = self.states[v][i] end
  return out, value / z
end

local BP_OPTS = { evidence = true, mode = true, max_iter = true, tol = true, damping = true,
  schedule = true }

--- Sum- or max-product belief propagation: variable -> {state = belief},
-- and a report {converged, iterations, max_delta}.
function Base:belief_propagation(opts)
  opts = args.options("belief_propagation", 1, opts, nil, BP_OPTS, 2)
  check_nonempty(self, 2)
  local mode = opts.mode or "sum"
  if mode ~= "sum" and mode ~= "max" then
    fail(2, "belief_propagation: mode must be \"sum\" or \"max\", got %s", tostring(mode))
  end
  local schedule = opts.schedule or "parallel"
  if schedule ~= "parallel" and schedule ~= "sequential" then
    fail(2, "belief_propagation: schedule must be \"parallel\" or \"sequential\", got %s", tostring(schedule))
  end
  for _, key in ipairs({ "max_iter" }) do
    local x = opts[key]
    if x ~= nil and (math.type(x) ~= "integer" or x < 1) then
      fail(2, "belief_propagation: %s must be an integer >= 1, got %s", key, tostring(x))
    end
  end
  if opts.tol ~= nil and (type(opts.tol) ~= "number" or not (opts.tol > 0)) then
    fail(2, "belief_propagation: tol must be a number > 0, got %s", tostring(opts.tol))
  end
  if opts.damping ~= nil and (type(opts.damping) ~= "number" or not (opts.damping >= 0 and opts.damping < 1)) then
    fail(2, "belief_propagation: damping must be in [0, 1), got %s", tostring(opts.damping))
  end
  local e = read_evidence(self, opts.evidence, 2)
  local model, fs = reduced(self, e)
  local beliefs, report = args.relay(2, infer.belief_propagation, model, fs, { mode = mode,
    max_iter = opts.max_iter, tol = opts.tol, damping = opts.damping, schedule = schedule })
  local out = {}
  for v, b in pairs(beliefs) do
    local t = {}
    for k, s in ipairs(self.states[v]) do t[s] = b.values:get(k, 1) end
    out[v] = t
  end
  return out, report
end

--- The Markov network's graph: variables joined when they share a factor.
function Base:to_graph()
  local g = graph.Graph()
  for _, v in ipairs(self.vars) do g:add_node(v) end
  for _, f in ipairs(self.factors) do
    for a = 1, #f.vars do for b = a + 1, #f.vars do g:add_edge(f.vars[a], f.vars[b]) end end
  end
  return g
end

local function copy_into(self, mt)
  local out = new(mt)
  for _, v in ipairs(self.vars) do out:add_variable(v, self.states[v]) end
  for _, f in ipairs(self.factors) do out.factors[#out.factors + 1] = f end
  return out
end
M.copy_into = copy_into

function Base:to_factor_graph() return copy_into(self, FG) end
function Base:to_markov_network() return copy_into(self, MN) end

function MN:maximal_cliques() return self:to_graph():maximal_cliques() end

function MN:to_dot(opts) return self:to_graph():to_dot(opts) end

--- The bipartite graph in DOT: variables as ellipses, factors as boxes.
function FG:to_dot(opts)
  opts = args.options("to_dot", 1, opts, nil, { name = true }, 2)
  local function id(v) return '"' .. tostring(v):gsub('[\\"]', "\\%0") .. '"' end
  local lines = { "graph " .. id(opts.name or "G") .. " {" }
  for _, v in ipairs(self.vars) do lines[#lines + 1] = "  " .. id(v) .. " [shape=ellipse];" end
  for k, f in ipairs(self.factors) do
    local shown = {}
    for j, v in ipairs(f.vars) do shown[j] = tostring(v) end
    lines[#lines + 1] = string.format('  "f%d" [shape=box, label="f(%s)"];', k, table.concat(shown, ", "))
    for _, v in ipairs(f.vars) do lines[#lines + 1] = string.format('  "f%d" -- %s;', k, id(v)) end
  end
  lines[#lines + 1] = "}"
  return table.concat(lines, "\n") .. "\n"
end

--- Whether the factor graph has no cycles (then BP is exact).
function FG:is_tree()
  -- nodes: variables and factors; a forest has edges = nodes - components
  local nodes, edges = #self.vars + #self.factors, 0
  for _, f in ipairs(self.factors) do edges = edges + #f.vars end
  local parent = {}
  local function find(x)
    while parent[x] do x = parent[x] end
    return x
  end
  local comps = nodes
  for k, f in ipairs(self.factors) do
    for _, v in ipairs(f.vars) do
      local a, b = find("f" .. k), find("v" .. tostring(v))
      if a ~= b then parent[a] = b; comps = comps - 1 end
    end
  end
  return edges == nodes - comps
end

return M
