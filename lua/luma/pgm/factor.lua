--- luma.pgm Factor: a table of non-negative values over named discrete
-- variables (Koller and Friedman, Probabilistic Graphical Models, 2009,
-- sec. 4.2.1; Barber, BRML, 2012, sec. 5.1), the unit every inference
-- method of luma.pgm is built of.  Products, quotients (0/0 = 0),
-- sum/max marginals and reductions run in C (src/ml/pgm/factor.c),
-- charged to the state's budget; a table that would not fit under the
-- state's memory limit is refused before it is allocated.
--
-- Values are row-major over the variables in scope order (the last
-- varies fastest).  A factor in log space (log = true) holds log values:
-- products add, sums are log-sum-exp.  States are 1-based; a variable may
-- carry state names (states[var] = {"no", "yes"}), and every function
-- taking a state accepts its index or its name.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.pgm.native")

local M = {}
local fail = args.fail

-- Variable names to the integer ids the kernels use (one id per name for
-- the life of the module: names are few).
local ids, name_of = {}, {}
local function id_of(name)
  local i = ids[name]
  if not i then
    i = #name_of + 1
    ids[name], name_of[i] = i, name
  end
  return i
end
M.id_of = id_of

local Factor = {}
Factor.__index = Factor
Factor.__name = "luma.pgm.Factor"
M.Factor_mt = Factor

local function is_factor(v) return getmetatable(v) == Factor end
M.is_factor = is_factor

local function show(v) return type(v) == "string" and ("'" .. v .. "'") or tostring(v) end

-- The factor with these fields (no checks): vars (names), card, values (n
-- x 1), log, states (var -> names or nil).
local function make(vars, card, values, log, states)
  -- the parts are checked, so no caller can build a malformed factor
  if type(vars) ~= "table" or type(card) ~= "table" or #card ~= #vars or not luma.ismatrix(values)
    or (states ~= nil and type(states) ~= "table") then
    error("luma.pgm.factor.make: vars, card (as many), values (a matrix) and states (a table) expected", 2)
  end
  local n = 1
  for k = 1, #card do
    if math.type(card[k]) ~= "integer" or card[k] < 1 then
      error("luma.pgm.factor.make: cardinalities must be integers >= 1", 2)
    end
    n = n * card[k]
  end
  if values:cols() ~= 1 or values:rows() ~= n then
    error("luma.pgm.factor.make: the values must be a column of one value per cell", 2)
  end
  local vid = {}
  for k, v in ipairs(vars) do vid[k] = id_of(v) end
  local pos = {}
  for k, v in ipairs(vars) do pos[v] = k end
  return setmetatable({ vars = vars, card = card, vid = vid, pos = pos, values = values,
    log = log and true or false, states = states or {} }, Factor)
end
M.make = make

-- Result of a native call (ids, cards, values) back to a factor; state
-- names from the operands.
local function from_native(v_ids, cards, values, log, s1, s2)
  local vars, states = {}, {}
  for k, i in ipairs(v_ids) do
    local name = name_of[i]
    vars[k] = name
    states[name] = s1[name] or (s2 and s2[name])
  end
  return make(vars, cards, values, log, states)
end
--- The 1-based index of state s (index or name) of variable v, or an
-- error naming both.
function Factor:_state_index(v, s, level)
  local k = self.pos[v]
  if not k then fail((level or 1) + 1, "unknown variable %s (the factor is over %s)", show(v),
    table.concat(self:_shown(), ", ")) end
  local names = self.states[v]
  if names then
    for i, n in ipairs(names) do if n == s then return i end end
  end
  if math.type(s) == "integer" and s >= 1 and s <= self.card[k] then return s end
  if names then
    fail((level or 1) + 1, "unknown state %s of variable %s (states: %s)", show(s), show(v),
      table.concat(names, ", "))
  end
  fail((level or 1) + 1, "state of variable %s must be an integer in [1, %d], got %s", show(v),
    self.card[k], show(s))
end

function Factor:state_index(v, s) return self:_state_index(v, s, 2) end

function Factor:_shown()
  local out = {}
  for k, v in ipairs(self.vars) do out[k] = show(v) end
  return out
end

local function check_values(values, n, log, fname, level)
  local m
  if luma.ismatrix(values) then
    if values:cols() ~= 1 or values:rows() ~= n then
      fail(level + 1, "%s: %d values for a table of %d cells", fname, values:rows() * values:cols(), n)
    end
    m = values:cols() == 1 and values:copy() or values:flatten():t():copy()
    if m:cols() ~= 1 then m = m:reshape(n, 1) end
  elseif type(values) == "table" then
    local flat = {}
    local function walk(t)
      for _, x in ipairs(t) do
        if type(x) == "table" then walk(x) else flat[#flat + 1] = x end
      end
    end
    walk(values)
    if #flat ~= n then fail(level + 1, "%s: %d values for a table of %d cells", fname, #flat, n) end
    for k, x in ipairs(flat) do
      if type(x) ~= "number" then fail(level + 1, "%s: value %d is %s, not a number", fname, k,
        args.type_of(x)) end
    end
    m = luma.matrix(flat):reshape(n, 1)
  else
    fail(level + 1, "%s: values must be a list of numbers or a matrix, got %s", fname,
      args.type_of(values))
  end
  for k = 1, n do
    local x = m:get(k, 1)
    if x ~= x or (not log and (x < 0 or x == math.huge)) or (log and x == math.huge) then
      fail(level + 1, "%s: value %d is %.17g: potentials must be finite and >= 0%s", fname, k,
        x, log and " (log space: < inf)" or "")
    end
  end
  return m
end
M.check_values = check_values

--- Factor(vars, card, values [, {log = false, states = nil}])
function M.Factor(vars, card, values, opts)
  local fname = "Factor"
  opts = args.options(fname, 4, opts, nil, { log = true, states = true }, 2)
  if type(vars) ~= "table" then
    fail(2, "bad argument #1 to 'Factor' (a list of variable names expected, got %s)", args.type_of(vars))
  end
  if type(card) ~= "table" or #card ~= #vars then
    fail(2, "bad argument #2 to 'Factor' (a list of %d cardinalities expected)", #vars)
  end
  local n, seen, vs, cs = 1, {}, {}, {}
  for k, v in ipairs(vars) do
    if type(v) ~= "string" and math.type(v) ~= "integer" then
      fail(2, "bad argument #1 to 'Factor' (variable %d must be a string or integer name)", k)
    end
    if seen[v] then fail(2, "bad argument #1 to 'Factor' (variable %s appears twice)", show(v)) end
    seen[v] = true
    local c = card[k]
    if math.type(c) ~= "integer" or c < 1 then
      fail(2, "bad argument #2 to 'Factor' (cardinality of %s must be an integer >= 1, got %s)",
        show(v), tostring(c))
    end
    vs[k], cs[k], n = v, c, n * c
  end
  local states = {}
  if opts.states ~= nil then
    if type(opts.states) ~= "table" then fail(2, "Factor: states must be a table var -> names") end
    for k, v in ipairs(vs) do
      local names = opts.states[v]
      if names ~= nil then
        if type(names) ~= "table" or #names ~= cs[k] then
          fail(2, "Factor: states of %s must list its %d state names", show(v), cs[k])
        end
        states[v] = table.move(names, 1, #names, 1, {})
      end
    end
    for v in pairs(opts.states) do
      if not seen[v] then fail(2, "Factor: states given for unknown variable %s", show(v)) end
    end
  end
  native.check_cells(cs)
  local m = check_values(values, n, opts.log, fname, 2)
  return make(vs, cs, m, opts.log, states)
end

local function same_space(a, b, fname)
  if not is_factor(b) then
    fail(3, "bad argument #1 to '%s' (luma.pgm.Factor expected, got %s)", fname, args.type_of(b))
  end
  if a.log ~= b.log then fail(3, "%s: one factor is in log space and the other is not", fname) end
  for k, v in ipairs(b.vars) do
    local j = a.pos[v]
    if j and a.card[j] ~= b.card[k] then
      fail(3, "%s: variable %s has %d states in one factor and %d in the other", fname, show(v),
        a.card[j], b.card[k])
    end
  end
end

function Factor:product(other)
  same_space(self, other, "product")
  local v, c, x = native.combine(self.vid, self.card, self.values, other.vid, other.card,
    other.values, self.log and "add" or "mul")
  return from_native(v, c, x, self.log, self.states, other.states)
end

--- self / other; other's scope must lie within self's (a separator
-- update), 0 / 0 = 0.
function Factor:divide(other)
  same_space(self, other, "divide")
  for _, v in ipairs(other.vars) do
    if not self.pos[v] then fail(2, "divide: the divisor's variable %s is not in the dividend", show(v)) end
  end
  local v, c, x = native.combine(self.vid, self.card, self.values, other.vid, other.card,
    other.values, self.log and "sub" or "div")
  return from_native(v, c, x, self.log, self.states)
end

local function operands(a, b, op)
  for k = 1, 2 do
    local x = k == 1 and a or b
    if not is_factor(x) then
      fail(3, "bad argument #%d to '%s' (luma.pgm.Factor expected, got %s)", k, op, args.type_of(x))
    end
  end
end
-- (relayed: an error of the method is raised at the caller's line)
Factor.__mul = function(a, b)
  operands(a, b, "__mul")
  local p = args.relay(2, a.product, a, b)
  return p
end
Factor.__div = function(a, b)
  operands(a, b, "__div")
  local q = args.relay(2, a.divide, a, b)
  return q
end

local function var_list(self, vs, fname, level)
  if type(vs) ~= "table" then vs = { vs } end
  local set = {}
  for _, v in ipairs(vs) do
    if not self.pos[v] then
      fail(level + 1, "%s: unknown variable %s (the factor is over %s)", fname, show(v),
        table.concat(self:_shown(), ", "))
    end
    set[v] = true
  end
  return set
end

-- keep: a set of names; mode "sum" or "max"
function Factor:_marginal(keep, mode)
  local ks = {}
  for k, v in ipairs(self.vars) do if keep[v] then ks[#ks + 1] = self.vid[k] end end
  local native_mode = mode == "max" and "max" or (self.log and "logsum" or "sum")
  local v, c, x = native.marginal(self.vid, self.card, self.values, ks, native_mode)
  return from_native(v, c, x, self.log, self.states)
end

--- Sums the variables vs out (pgmpy's marginalize).
function Factor:marginalize(vs)
  local drop = var_list(self, vs, "marginalize", 2)
  local keep = {}
  for _, v in ipairs(self.vars) do if not drop[v] then keep[v] = true end end
  return self:_marginal(keep, "sum")
end

--- Maxes the variables vs out.
function Factor:maximize(vs)
  local drop = var_list(self, vs, "maximize", 2)
  local keep = {}
  for _, v in ipairs(self.vars) do if not drop[v] then keep[v] = true end end
  return self:_marginal(keep, "max")
end

--- The marginal over vs (the others summed out).
function Factor:marginal(vs)
  return self:_marginal(var_list(self, vs, "marginal", 2), "sum")
end

--- The factor restricted to evidence {var = state}; variables of the
-- evidence the factor lacks are ignored.
function Factor:reduce(evidence)
  if type(evidence) ~= "table" then
    fail(2, "bad argument #1 to 'reduce' (a table {variable = state} expected, got %s)",
      args.type_of(evidence))
  end
  local e, any = {}, false
  for v, s in pairs(evidence) do
    if self.pos[v] then e[id_of(v)] = self:_state_index(v, s, 2); any = true end
  end
  if not any then return self end
  local v, c, x = native.reduce(self.vid, self.card, self.values, e)
  return from_native(v, c, x, self.log, self.states)
end

function Factor:normalize()
  local x, total = native.normalize(self.values, self.log)
  if (self.log and total == -math.huge) or (not self.log and total == 0) then
    fail(2, "normalize: the factor sums to 0")
  end
  return make(self.vars, self.card, x, self.log, self.states), total
end

--- The sum of the values (their log-sum-exp in log space).
function Factor:sum()
  local _, total = native.normalize(self.values, self.log)
  return total
end

function Factor:to_log()
  if self.log then return self end
  return make(self.vars, self.card, self.values:log(), true, self.states)
end

function Factor:to_prob()
  if not self.log then return self end
  return make(self.vars, self.card, self.values:exp(), false, self.states)
end

function Factor:scope() return table.move(self.vars, 1, #self.vars, 1, {}) end

function Factor:cardinality()
  local out = {}
  for k, v in ipairs(self.vars) do out[v] = self.card[k] end
  return out
end

-- The row-major cell of a full assignment (position -> 1-based state).
function Factor:_cell(states)
  local idx = 0
  for k = 1, #self.vars do idx = idx * self.card[k] + (states[k] - 1) end
  return idx + 1
end

--- The value at a full assignment {var = state}.
function Factor:get(assignment)
  if type(assignment) ~= "table" then
    fail(2, "bad argument #1 to 'get' (a table {variable = state} expected, got %s)",
      args.type_of(assignment))
  end
  local st = {}
  for k, v in ipairs(self.vars) do
    if assignment[v] == nil then fail(2, "get: no state given for variable %s", show(v)) end
    st[k] = self:_state_index(v, assignment[v], 2)
  end
  return self.values:get(self:_cell(st), 1)
end

-- The state's name (or index) for display and assignments.
function Factor:state_name(v, i)
  local names = self.states[v]
  return names and names[i] or i
end

--- The assignment of largest value and that value (ties: the first cell).
function Factor:argmax()
  local n = self.values:rows()
  local best, at = -math.huge, 1
  for i = 1, n do
    local x = self.values:get(i, 1)
    if x > best then best, at = x, i end
  end
  local out, rest = {}, at - 1
  for k = #self.vars, 1, -1 do
    local c = self.card[k]
    out[self.vars[k]] = self:state_name(self.vars[k], rest % c + 1)
    rest = rest // c
  end
  return out, best
end

--- Nested tables of the values by state name: t[s1][s2]...
function Factor:totable()
  local function build(k, offset, stride)
    if k > #self.vars then return self.values:get(offset + 1, 1) end
    local c = self.card[k]
    local t = {}
    local sub = stride // c
    for i = 1, c do t[self:state_name(self.vars[k], i)] = build(k + 1, offset + (i - 1) * sub, sub) end
    return t
  end
  return build(1, 0, self.values:rows())
end

Factor.__tostring = function(self)
  if not is_factor(self) then
    fail(2, "bad argument #1 to '__tostring' (luma.pgm.Factor expected, got %s)", args.type_of(self))
  end
  local lines = { string.format("Factor(%s)%s", table.concat(self:_shown(), ", "),
    self.log and " [log]" or "") }
  local n = self.values:rows()
  for i = 1, math.min(n, 64) do
    local rest, parts = i - 1, {}
    for k = #self.vars, 1, -1 do
      local c = self.card[k]
      parts[k] = tostring(self.vars[k]) .. "=" .. tostring(self:state_name(self.vars[k], rest % c + 1))
      rest = rest // c
    end
    lines[#lines + 1] = string.format("  %-40s %.6g", table.concat(parts, ", "), self.values:get(i, 1))
  end
  if n > 64 then lines[#lines + 1] = string.format("  ... %d more", n - 64) end
  return table.concat(lines, "\n")
end

--- Factor.product_all(list) -> the product of a list of factors (a
-- factor of no variables, value 1, for an empty list).
function M.product_all(list, log)
  local acc = make({}, {}, luma.matrix({ log and 0 or 1 }):reshape(1, 1), log)
  for _, f in ipairs(list) do acc = acc:product(f) end
  return acc
end

return M
