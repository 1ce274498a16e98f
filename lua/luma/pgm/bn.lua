--- luma.pgm BayesianNetwork: a DAG over discrete variables with one
-- conditional probability table per node, P(x) = prod_i P(x_i | pa(x_i))
-- (notes 000 Ch. 11 "belief networks"; Koller and Friedman, Probabilistic
-- Graphical Models, 2009, ch. 3 and 9-10; Barber, BRML, 2012, ch. 3).
--
-- CPTs.  set_cpt(var, {states, parents, probs}): probs lists one
-- distribution over var's states per configuration of the parents, in
-- row-major order over the parents (the last parent varies fastest), or
-- for one parent a map from its state names; a distribution is a list in
-- state order or a map from state names.  Each must be non-negative and
-- sum to 1 within CPT_TOLERANCE = 1e-6.
--
-- Evidence.  Hard evidence {var = state}; virtual (likelihood) evidence
-- {var = {lambda_1, ..., lambda_k}}, multiplied in as a factor (Pearl
-- 1988); soft evidence {var = {q_1, ..., q_k}}, a new marginal for var
-- by Jeffrey's rule, P2(x) = sum_y P1(x | y, e) q(y), applied as the
-- virtual evidence lambda(y) = q(y) / P1(y | e) (Chan and Darwiche 2005);
-- several soft findings are fitted together by iterative proportional
-- fitting.  Evidence of probability 0 is an error, never a NaN.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local factor = require("luma.pgm.factor")
local graph = require("luma.pgm.graph")
local infer = require("luma.pgm.infer")

local M = {}
local fail = args.fail
local show = graph.show
local make = factor.make

local CPT_TOLERANCE = 1e-6
M.CPT_TOLERANCE = CPT_TOLERANCE

local BN = {}
BN.__index = BN
BN.__name = "luma.pgm.BayesianNetwork"
M.BN_mt = BN

local function is_bn(v) return getmetatable(v) == BN end
M.is_bn = is_bn

local function cycle_text(cycle)
  local names = {}
  for k, v in ipairs(cycle) do names[k] = show(v) end
  return table.concat(names, " -> ")
end

--- BayesianNetwork([edges])
function M.BayesianNetwork(edges)
  local g = graph.DiGraph(edges)
  local cycle = g:find_cycle()
  if cycle then
    fail(2, "BayesianNetwork: the graph has a cycle %s (a belief network must be acyclic)",
      cycle_text(cycle))
  end
  return setmetatable({ graph = g, cpts = {}, states = {} }, BN)
end

function BN:add_node(v, states)
  self.graph:add_node(v)
  if states ~= nil then
    if type(states) ~= "table" or #states < 1 then
      fail(2, "bad argument #2 to 'add_node' (a list of state names expected)")
    end
    self.states[v] = table.move(states, 1, #states, 1, {})
  end
  return self
end

function BN:add_edge(u, v)
  local had = self.graph:has_edge(u, v)
  self.graph:add_edge(u, v)
  local cycle = self.graph:find_cycle()
  if cycle then
    if not had then self.graph:remove_edge(u, v) end
    fail(2, "add_edge: %s -> %s would make the cycle %s", show(u), show(v), cycle_text(cycle))
  end
  return self
end

function BN:nodes() return self.graph:nodes() end
function BN:edges() return self.graph:edges() end
function BN:parents(v) self.graph:_id(v, 2); return self.graph:parents(v) end
function BN:children(v) self.graph:_id(v, 2); return self.graph:children(v) end
function BN:to_dot(opts) return self.graph:to_dot(opts) end

function BN:d_separated(x, y, z, opts)
  return args.relay(2, self.graph.d_separated, self.graph, x, y, z, opts)
end

-- The index of state s (index or name) of var, with errors naming both
-- (level counted from the caller of state_index).
local function state_index(self, v, s, level)
  local names = self.states[v]
  if not names then fail(level + 1, "unknown variable %s", show(v)) end
  for i, n in ipairs(names) do if n == s then return i end end
  if math.type(s) == "integer" and s >= 1 and s <= #names then return s end
  fail(level + 1, "unknown state %s of variable %s (states: %s)", show(s), show(v),
    table.concat(names, ", "))
end
M.state_index = state_index

-- A distribution given as a list or a map of state names: a list of k
-- numbers, checked (what names it in messages).
local function distribution(names, d, what, level)
  local out = {}
  if type(d) ~= "table" then fail(level + 1, "%s must be a list of %d probabilities", what, #names) end
  if #d > 0 then
    if #d ~= #names then
      fail(level + 1, "%s has %d probabilities for %d states", what, #d, #names)
    end
    for k = 1, #names do out[k] = d[k] end
  else
    for k, n in ipairs(names) do out[k] = d[n] or 0 end
    for key in pairs(d) do
      local known = false
      for _, n in ipairs(names) do known = known or n == key end
      if not known then fail(level + 1, "%s: unknown state %s (states: %s)", what, show(key),
        table.concat(names, ", ")) end
    end
  end
  local sum = 0
  for k, p in ipairs(out) do
    if type(p) ~= "number" or p ~= p or p < 0 or p == math.huge then
      fail(level + 1, "%s: probability of state %s is %s (must be finite and >= 0)", what,
        show(names[k]), tostring(p))
    end
    sum = sum + p
  end
  if math.abs(sum - 1) > CPT_TOLERANCE then
    fail(level + 1, "%s sums to %.10g, not 1 (tolerance %g)", what, sum, CPT_TOLERANCE)
  end
  return out
end

function BN:set_cpt(v, spec)
  if type(spec) ~= "table" then
    fail(2, "bad argument #2 to 'set_cpt' (a table {states, parents, probs} expected, got %s)",
      args.type_of(spec))
  end
  args.check_opts("set_cpt", spec, { states = true, parents = true, probs = true }, 2)
  self.graph:add_node(v)
  local states = spec.states or self.states[v]
  if type(states) ~= "table" or #states < 1 then
    fail(2, "set_cpt: the states of %s are unknown (give states = {...})", show(v))
  end
  for k, s in ipairs(states) do
    if type(s) ~= "string" and math.type(s) ~= "integer" then
      fail(2, "set_cpt: state %d of %s must be a string or an integer", k, show(v))
    end
  end
  local parents = spec.parents or self.graph:parents(v)
  if type(parents) ~= "table" then fail(2, "set_cpt: parents must be a list of node names") end
  for _, p in ipairs(parents) do
    if p == v then fail(2, "set_cpt: %s cannot be its own parent", show(v)) end
    if not self.states[p] then
      fail(2, "set_cpt: the states of parent %s of %s are unknown (set its CPT first, or "
        .. "add_node(%s, states))", show(p), show(v), show(p))
    end
  end
  -- the graph's parents must be exactly these
  local listed = {}
  for _, p in ipairs(parents) do listed[p] = true end
  for _, p in ipairs(self.graph:parents(v)) do
    if not listed[p] then
      fail(2, "set_cpt: %s has parent %s in the graph, which the CPT does not list", show(v), show(p))
    end
  end
  for _, p in ipairs(parents) do
    if not self.graph:has_edge(p, v) then
      self.graph:add_edge(p, v)
      local cycle = self.graph:find_cycle()
      if cycle then
        self.graph:remove_edge(p, v)
        fail(2, "set_cpt: parent %s of %s makes the cycle %s", show(p), show(v), cycle_text(cycle))
      end
    end
  end
  local names = table.move(states, 1, #states, 1, {})
  local rows, pcard = 1, {}
  for k, p in ipairs(parents) do pcard[k] = #self.states[p]; rows = rows * pcard[k] end
  local probs = spec.probs
  if type(probs) ~= "table" then fail(2, "set_cpt: probs of %s must be a table", show(v)) end
  local list = {}
  if #parents == 0 then
    list[1] = distribution(names, probs, "the CPT of " .. show(v), 2)
  else
    local given = probs
    if #probs == 0 and #parents == 1 then
      given = {}
      for k, s in ipairs(self.states[parents[1]]) do given[k] = probs[s] end
      for key in pairs(probs) do
        local known = false
        for _, s in ipairs(self.states[parents[1]]) do known = known or s == key end
        if not known then fail(2, "set_cpt: unknown state %s of parent %s", show(key),
          show(parents[1])) end
      end
    end
    if #given ~= rows then
      fail(2, "set_cpt: the CPT of %s needs %d rows (one per parent configuration), got %d",
        show(v), rows, #given)
    end
    for r = 1, rows do
      local cfg, rest = {}, r - 1
      for k = #parents, 1, -1 do
        cfg[k] = tostring(self.states[parents[k]][rest % pcard[k] + 1])
        rest = rest // pcard[k]
      end
      local what = string.format("the CPT row of %s given %s", show(v), table.concat(cfg, ", "))
      if given[r] == nil then fail(2, "set_cpt: %s is missing", what) end
      list[r] = distribution(names, given[r], what, 2)
    end
  end
  local flat = {}
  for _, row in ipairs(list) do for _, p in ipairs(row) do flat[#flat + 1] = p end end
  local vars, card, st = {}, {}, {}
  for k, p in ipairs(parents) do vars[k], card[k], st[p] = p, pcard[k], self.states[p] end
  vars[#vars + 1], card[#card + 1], st[v] = v, #names, names
  self.states[v] = names
  self.cpts[v] = make(vars, card, luma.matrix(flat):reshape(#flat, 1), false, st)
  return self
end

function BN:cpt(v)
  self.graph:_id(v, 2)
  return self.cpts[v]
end

-- Every node needs a CPT (the error names the first without one).
local function check_model(self, level)
  for _, v in ipairs(self.graph.list) do
    if not self.cpts[v] then fail(level + 1, "the node %s has no CPT", show(v)) end
    local f = self.cpts[v]
    -- a parent's states may have been redefined after this CPT was set
    for k = 1, #f.vars - 1 do
      local p = f.vars[k]
      if f.card[k] ~= #self.states[p] then
        fail(level + 1, "the CPT of %s was set for %d states of %s, which now has %d", show(v),
          f.card[k], show(p), #self.states[p])
      end
    end
  end
end

function BN:check_model()
  check_model(self, 2)
  return true
end

-- The model record the inference engine reads.
function BN:_model()
  local card = {}
  for _, v in ipairs(self.graph.list) do card[v] = #self.states[v] end
  return { vars = self.graph:nodes(), card = card, states = self.states }
end

function BN:_factors()
  local out = {}
  for k, v in ipairs(self.graph.list) do out[k] = self.cpts[v] end
  return out
end

function BN:log_probability(assignment)
  check_model(self, 2)
  if type(assignment) ~= "table" then
    fail(2, "bad argument #1 to 'log_probability' (a table {variable = state} expected)")
  end
  for v in pairs(assignment) do
    if not self.graph.index[v] then fail(2, "unknown variable %s", show(v)) end
  end
  local lp = 0
  for _, v in ipairs(self.graph.list) do
    if assignment[v] == nil then fail(2, "no state given for variable %s", show(v)) end
  end
  for _, v in ipairs(self.graph.list) do
    local f = self.cpts[v]
    local st = {}
    for k, u in ipairs(f.vars) do st[k] = state_index(self, u, assignment[u], 2) end
    lp = lp + math.log(f.values:get(f:_cell(st), 1))
  end
  return lp
end

--- The joint probability of a full assignment.
function BN:probability(assignment)
  return math.exp(args.relay(2, self.log_probability, self, assignment))
end

-- ---------------------------------------------------------------- evidence

local QUERY_OPTS = { evidence = true, virtual_evidence = true, soft_evidence = true,
  method = true, log = true }
local METHODS = { ve = true, jt = true, enumeration = true, bp = true }

-- Hard evidence as {var = index}; likelihood factors for virtual evidence.
local function read_evidence(self, opts, level)
  local hard = {}
  if opts.evidence ~= nil then
    if type(opts.evidence) ~= "table" then fail(level + 1, "evidence must be a table {variable = state}") end
    for v, s in pairs(opts.evidence) do hard[v] = state_index(self, v, s, level + 1) end
  end
  local lambdas = {}
  local function likelihoods(tbl, what, normalise)
    if tbl == nil then return end
    if type(tbl) ~= "table" then fail(level + 2, "%s must be a table {variable = weights}", what) end
    for v, w in pairs(tbl) do
      local names = self.states[v]
      if not names then fail(level + 2, "unknown variable %s in %s", show(v), what) end
      if hard[v] then fail(level + 2, "%s has both hard evidence and %s", show(v), what) end
      local vals = {}
      if type(w) ~= "table" then fail(level + 2, "%s of %s must be a list of %d numbers", what, show(v), #names) end
      if #w > 0 then
        if #w ~= #names then fail(level + 2, "%s of %s has %d numbers for %d states", what, show(v), #w, #names) end
        for k = 1, #names do vals[k] = w[k] end
      else
        for k, n in ipairs(names) do vals[k] = w[n] or 0 end
        for key in pairs(w) do
          local known = false
          for _, n in ipairs(names) do known = known or n == key end
          if not known then fail(level + 2, "unknown state %s of %s in %s", show(key), show(v), what) end
        end
      end
      local sum = 0
      for k, x in ipairs(vals) do
        if type(x) ~= "number" or x ~= x or x < 0 or x == math.huge then
          fail(level + 2, "%s of %s: entry %d is %s (must be finite and >= 0)", what, show(v), k, tostring(x))
        end
        sum = sum + x
      end
      if sum == 0 then fail(level + 2, "%s of %s is all zeros (impossible evidence)", what, show(v)) end
      if normalise and math.abs(sum - 1) > CPT_TOLERANCE then
        fail(level + 2, "%s of %s sums to %.10g, not 1 (tolerance %g)", what, show(v), sum, CPT_TOLERANCE)
      end
      lambdas[v] = vals
    end
  end
  likelihoods(opts.virtual_evidence, "virtual_evidence", false)
  local virtual = lambdas
  lambdas = {}
  likelihoods(opts.soft_evidence, "soft_evidence", true)
  for v in pairs(lambdas) do
    if virtual[v] then fail(level + 1, "%s has both virtual and soft evidence", show(v)) end
  end
  return hard, virtual, lambdas
end

local function lambda_factor(self, v, vals)
  return make({ v }, { #vals }, luma.matrix(vals):reshape(#vals, 1), false, { [v] = self.states[v] })
end

local function indicator(self, v, i)
  local k = #self.states[v]
  local vals = {}
  for s = 1, k do vals[s] = s == i and 1 or 0 end
  return lambda_factor(self, v, vals)
end

-- The evidence factors: the CPTs reduced by hard evidence (or, for the
-- junction tree, with indicator factors) and the likelihood factors.
local function evidence_factors(self, hard, lambdas, reduce)
  local out = {}
  local e = {}
  for v, i in pairs(hard) do e[v] = i end
  for _, f in ipairs(self:_factors()) do out[#out + 1] = reduce and f:reduce(e) or f end
  if not reduce then
    for _, v in ipairs(self.graph.list) do
      if hard[v] then out[#out + 1] = indicator(self, v, hard[v]) end
    end
  end
  for _, v in ipairs(self.graph.list) do
    if lambdas[v] then out[#out + 1] = lambda_factor(self, v, lambdas[v]) end
  end
  return out
end

local function sorted_vars(self, set)
  local out = {}
  for _, v in ipairs(self.graph.list) do if set[v] then out[#out + 1] = v end end
  return out
end

-- Unnormalised marginal over query (a list) by method; ve and enumeration
-- take reduced factors.
-- In log space (log true) every factor is converted first and the result
-- converted back: products become sums, sums log-sum-exp.
local function raw_marginal(self, model, hard, lambdas, query, method, log)
  local fs = evidence_factors(self, hard, lambdas, method ~= "jt")
  if log then for k, f in ipairs(fs) do fs[k] = f:to_log() end end
  local m = {}
  for k, v in pairs(model) do m[k] = v end
  if method ~= "jt" then
    local vars = {}
    for _, v in ipairs(model.vars) do if not hard[v] then vars[#vars + 1] = v end end
    m.vars = vars
  end
  local r
  if method == "enumeration" then r = infer.enumerate(m, fs, query, log)
  else r = infer.ve(m, fs, query, log) end
  return log and r:to_prob() or r
end

-- Folds soft evidence into virtual evidence (Jeffrey's rule): returns the
-- likelihoods to use for all findings.
local function jeffrey(self, model, hard, virtual, soft, level)
  local lambdas = {}
  for v, x in pairs(virtual) do lambdas[v] = x end
  local list = sorted_vars(self, soft)
  if #list == 0 then return lambdas end
  for _, v in ipairs(list) do
    local ones = {}
    for k = 1, #soft[v] do ones[k] = 1 end
    lambdas[v] = ones
  end
  for _ = 1, 200 do
    local worst = 0
    for _, v in ipairs(list) do
      local m = raw_marginal(self, model, hard, lambdas, { v }, "ve")
      local total = m:sum()
      if total == 0 then fail(level + 1, "impossible evidence: its probability is 0") end
      local new = {}
      for k, q in ipairs(soft[v]) do
        local p = m.values:get(k, 1) / total
        if p == 0 and q > 0 then
          fail(level + 1, "soft evidence on %s puts probability %g on state %s, which the other "
            .. "evidence makes impossible", show(v), q, show(self.states[v][k]))
        end
        worst = math.max(worst, math.abs(p - q))
        new[k] = p > 0 and lambdas[v][k] * q / p or 0
      end
      lambdas[v] = new
    end
    if worst < 1e-14 or #list == 1 then
      if #list == 1 then return lambdas end
      return lambdas
    end
  end
  return lambdas
end

-- Options, evidence and model for a query; level counted from the caller.
local function prepare(self, fname, argn, opts, level, valid, default_method)
  opts = args.options(fname, argn, opts, nil, valid or QUERY_OPTS, level + 1)
  check_model(self, level + 1)
  local method = opts.method or default_method or "ve"
  if not METHODS[method] then
    fail(level + 1, "%s: method must be \"ve\", \"jt\", \"enumeration\" or \"bp\", got %s", fname,
      tostring(method))
  end
  local hard, virtual, soft = read_evidence(self, opts, level + 1)
  local model = self:_model()
  local lambdas = jeffrey(self, model, hard, virtual, soft, level + 1)
  return opts, method, hard, lambdas, model
end

local function query_list(self, vars, hard, fname, level)
  if type(vars) ~= "table" then vars = { vars } end
  if #vars == 0 then fail(level + 1, "bad argument #1 to '%s' (no query variables)", fname) end
  local seen = {}
  for _, v in ipairs(vars) do
    if not self.graph.index[v] then fail(level + 1, "%s: unknown variable %s", fname, show(v)) end
    if hard[v] then fail(level + 1, "%s: %s is both queried and observed", fname, show(v)) end
    if seen[v] then fail(level + 1, "%s: %s is queried twice", fname, show(v)) end
    seen[v] = true
  end
  return vars
end

local function impossible(level) fail(level + 1, "impossible evidence: its probability is 0") end

-- The calibrated junction tree for the evidence, or an error when the
-- evidence is impossible.
local function calibrated(self, model, hard, lambdas, mode, level, log)
  local fs = evidence_factors(self, hard, lambdas, false)
  if log then for k, f in ipairs(fs) do fs[k] = f:to_log() end end
  local jt = args.relay(level + 1, infer.junction_tree, model, fs)
  args.relay(level + 1, jt._calibrate, jt, fs, mode or "sum", log)
  local z = jt:normalizer()
  if log then z = math.exp(z) end
  if not (z > 0) then impossible(level + 1) end
  return jt, z
end

function BN:query(vars, opts)
  local method, hard, lambdas, model
  opts, method, hard, lambdas, model = prepare(self, "query", 2, opts, 2)
  vars = query_list(self, vars, hard, "query", 2)
  if method == "jt" and #vars == 1 then
    local jt = calibrated(self, model, hard, lambdas, "sum", 2, opts.log)
    return jt:marginal(vars[1]):to_prob()
  end
  if method == "bp" then
    if #vars ~= 1 then fail(2, "query: method \"bp\" gives single-variable marginals only") end
    local beliefs = self:_bp(model, hard, lambdas, {}, 2)
    return beliefs[vars[1]]
  end
  local m = raw_marginal(self, model, hard, lambdas, vars, method == "jt" and "ve" or method, opts.log)
  if not (m:sum() > 0) then impossible(2) end
  return (m:normalize())
end

function BN:_bp(model, hard, lambdas, bp_opts, level)
  local fs = evidence_factors(self, hard, lambdas, true)
  local m = { card = model.card, states = model.states, vars = {} }
  for _, v in ipairs(model.vars) do if not hard[v] then m.vars[#m.vars + 1] = v end end
  return args.relay(level + 1, infer.belief_propagation, m, fs, bp_opts)
end

--- Every unobserved variable's posterior: variable -> {state = p}.
function BN:marginals(opts)
  local method, hard, lambdas, model
  opts, method, hard, lambdas, model = prepare(self, "marginals", 1, opts, 2, nil, "jt")
  local out = {}
  local function record(v, f)
    local t = {}
    for k, s in ipairs(self.states[v]) do t[s] = f.values:get(k, 1) end
    out[v] = t
  end
  if method == "jt" then
    local jt = calibrated(self, model, hard, lambdas, "sum", 2, opts.log)
    for _, v in ipairs(model.vars) do if not hard[v] then record(v, jt:marginal(v):to_prob()) end end
  elseif method == "bp" then
    local beliefs = self:_bp(model, hard, lambdas, {}, 2)
    for v, b in pairs(beliefs) do record(v, b) end
  else
    for _, v in ipairs(model.vars) do
      if not hard[v] then
        local m = raw_marginal(self, model, hard, lambdas, { v }, method, opts.log)
        if not (m:sum() > 0) then impossible(2) end
        record(v, (m:normalize()))
      end
    end
  end
  return out
end

--- The probability of the evidence, P(e) (virtual evidence weighs it).
function BN:evidence_probability(evidence, opts)
  opts = args.options("evidence_probability", 2, opts, nil,
    { evidence = true, virtual_evidence = true, method = true }, 2)
  local all = { evidence = evidence }
  for k, v in pairs(opts) do if k ~= "evidence" then all[k] = v end end
  local method, hard, lambdas, model
  all, method, hard, lambdas, model = prepare(self, "evidence_probability", 2, all, 2,
    { evidence = true, virtual_evidence = true, method = true })
  local fs = evidence_factors(self, hard, lambdas, true)
  local m = { card = model.card, states = model.states, vars = {} }
  for _, v in ipairs(model.vars) do if not hard[v] then m.vars[#m.vars + 1] = v end end
  if method == "jt" then
    local _, z = calibrated(self, model, hard, lambdas, "sum", 2)
    return z
  end
  local rest = infer.eliminate(infer.cover(m, fs, false), {}, "sum")
  return factor.product_all(rest, false).values:get(1, 1)
end

local function named_assignment(self, assign)
  local out = {}
  for v, i in pairs(assign) do out[v] = self.states[v][i] end
  return out
end

--- Most probable explanation: the most probable joint state of all
-- unobserved variables given the evidence, and its posterior probability.
function BN:mpe(opts)
  local method, hard, lambdas, model
  opts, method, hard, lambdas, model = prepare(self, "mpe", 1, opts, 2,
    { evidence = true, virtual_evidence = true, soft_evidence = true })
  local fs = evidence_factors(self, hard, lambdas, true)
  local m = { card = model.card, states = model.states, vars = {} }
  for _, v in ipairs(model.vars) do if not hard[v] then m.vars[#m.vars + 1] = v end end
  local pe = factor.product_all(infer.eliminate(infer.cover(m, fs, false), {}, "sum"), false)
    .values:get(1, 1)
  if not (pe > 0) then impossible(2) end
  local assign, value = infer.max_decode(infer.cover(m, fs, false), false)
  return named_assignment(self, assign), value / pe
end

--- Maximum a posteriori state of the query variables (the others summed
-- out) and its posterior probability.
function BN:map_query(vars, opts)
  local method, hard, lambdas, model
  opts, method, hard, lambdas, model = prepare(self, "map_query", 2, opts, 2,
    { evidence = true, virtual_evidence = true, soft_evidence = true })
  vars = query_list(self, vars, hard, "map_query", 2)
  local fs = evidence_factors(self, hard, lambdas, true)
  local m = { card = model.card, states = model.states, vars = {} }
  for _, v in ipairs(model.vars) do if not hard[v] then m.vars[#m.vars + 1] = v end end
  local keep = {}
  for _, v in ipairs(vars) do keep[v] = true end
  local summed = infer.eliminate(infer.cover(m, fs, false), keep, "sum")
  local pe = factor.product_all(summed, false):sum()
  if not (pe > 0) then impossible(2) end
  local assign, value = infer.max_decode(summed, false)
  return named_assignment(self, assign), value / pe
end

--- The calibrated junction tree for the evidence.
function BN:junction_tree(opts)
  local method, hard, lambdas, model
  opts, method, hard, lambdas, model = prepare(self, "junction_tree", 1, opts, 2,
    { evidence = true, virtual_evidence = true, soft_evidence = true })
  return (calibrated(self, model, hard, lambdas, "sum", 2))
end

-- ---------------------------------------------------------------- sampling

--- Ancestral sampling (forward, in topological order).  Returns a
-- luma.Table of n rows with one categorical column per node (categories
-- in state order).
function BN:sample(n, rng)
  check_model(self, 2)
  if math.type(n) ~= "integer" or n < 1 then
    fail(2, "bad argument #1 to 'sample' (an integer >= 1 expected, got %s)", tostring(n))
  end
  if rng == nil then rng = luma.random.default() end
  args.generator(rng, 2, "sample", 2)
  local order = self.graph:topological_order()
  local u = rng:uniform(n, #order)
  local codes = {}
  for _, v in ipairs(order) do codes[v] = {} end
  for i = 1, n do
    for j, v in ipairs(order) do
      local f = self.cpts[v]
      local row = 0
      for k = 1, #f.vars - 1 do row = row * f.card[k] + (codes[f.vars[k]][i] - 1) end
      local k = f.card[#f.vars]
      local base = row * k
      local x, acc, pick = u:get(i, j), 0, k
      for s = 1, k do
        acc = acc + f.values:get(base + s, 1)
        if x < acc then pick = s; break end
      end
      codes[v][i] = pick
    end
  end
  local cols, names = {}, {}
  for _, v in ipairs(self.graph.list) do
    local cats = {}
    for k, s in ipairs(self.states[v]) do cats[k] = tostring(s) end
    cols[tostring(v)] = luma.Table.Categorical.from_codes(luma.matrix(codes[v]):reshape(n, 1), cats)
    names[#names + 1] = tostring(v)
  end
  return luma.Table(cols, { columns = names })
end

-- ------------------------------------------------------------- conversions

function BN:is_markov_equivalent(other)
  local g = is_bn(other) and other.graph or other
  return args.relay(2, self.graph.is_markov_equivalent, self.graph, g)
end

function BN:cpdag() return self.graph:cpdag() end

function BN:copy()
  local c = setmetatable({ graph = self.graph:copy(), cpts = {}, states = {} }, BN)
  for v, f in pairs(self.cpts) do c.cpts[v] = f end
  for v, s in pairs(self.states) do c.states[v] = s end
  return c
end

M.check_model = check_model
return M
