--- luma.plot.common: argument checking shared by the parts of luma.plot:
-- errors that read like Lua's, option tables, data given as matrices or
-- Lua lists, and the NaN/Inf filter (skipped with a warning, as
-- matplotlib draws nothing for them).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local common = {}

--- fail(level, fmt, ...): raises a formatted error level frames up.
function common.fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end
local fail = common.fail

--- warning(fmt, ...): through warn(), so a host can redirect it.
function common.warning(fmt, ...)
  warn("luma.plot: " .. string.format(fmt, ...))
end

--- check_opts(fname, arg, opts, valid) -> opts (a table, {} for nil):
-- any key not in the set `valid` is an error listing the valid ones.
function common.check_opts(fname, arg, opts, valid)
  if opts == nil then return {} end
  if type(opts) ~= "table" or luma.ismatrix(opts) then
    fail(3, "bad argument #%d to '%s' (options table expected, got %s)", arg, fname,
      luma.ismatrix(opts) and "matrix" or type(opts))
  end
  for k in pairs(opts) do
    if not valid[k] then
      local names = {}
      for name in pairs(valid) do names[#names + 1] = name end
      table.sort(names)
      fail(3, "bad argument #%d to '%s' (unknown option '%s'; valid options: %s)", arg, fname,
        tostring(k), table.concat(names, ", "))
    end
  end
  return opts
end

--- vector(fname, arg, what, v) -> list of numbers: v is a matrix with one
-- row or one column, or a Lua list of numbers.
function common.vector(fname, arg, what, v)
  if luma.ismatrix(v) then
    local r, c = v:shape()
    if r ~= 1 and c ~= 1 then
      fail(3, "bad argument #%d to '%s' (%s must be a vector, got a %d x %d matrix)", arg,
        fname, what, r, c)
    end
    if r * c == 0 then return {} end
    return v:reshape(1, -1):totable()[1]
  end
  if type(v) ~= "table" then
    fail(3, "bad argument #%d to '%s' (%s must be a matrix or a list of numbers, got %s)",
      arg, fname, what, type(v))
  end
  local out = {}
  for i = 1, #v do
    local x = v[i]
    if type(x) ~= "number" then
      fail(3, "bad argument #%d to '%s' (%s[%d] is %s, not a number)", arg, fname, what, i,
        type(x))
    end
    out[i] = x
  end
  return out
end

--- grid(fname, arg, what, Z) -> rows (list of row lists), nrows, ncols:
-- Z is a matrix or a table of equally long rows of numbers.
function common.grid(fname, arg, what, Z)
  local rows
  if luma.ismatrix(Z) then
    rows = Z:totable()
  elseif type(Z) == "table" then
    rows = {}
    for i = 1, #Z do rows[i] = common.vector(fname, arg, string.format("%s[%d]", what, i), Z[i]) end
  else
    fail(3, "bad argument #%d to '%s' (%s must be a matrix or a table of rows, got %s)", arg,
      fname, what, type(Z))
  end
  local n, m = #rows, rows[1] and #rows[1] or 0
  if n == 0 or m == 0 then
    fail(3, "bad argument #%d to '%s' (%s is empty)", arg, fname, what)
  end
  for i = 2, n do
    if #rows[i] ~= m then
      fail(3, "bad argument #%d to '%s' (%s: row %d has %d values, row 1 has %d)", arg, fname,
        what, i, #rows[i], m)
    end
  end
  return rows, n, m
end

--- label_before(a, b): the order of class labels in legends and colours:
-- numbers, then strings byte-wise, then false and true (a classifier's
-- classes, whatever the locale).
local LABEL_RANK = { number = 1, string = 2, boolean = 3 }
function common.label_before(a, b)
  if type(a) == type(b) then return require("luma.util.labels").before(a, b) end
  return LABEL_RANK[type(a)] < LABEL_RANK[type(b)]
end

--- labels(fname, arg, what, v) -> list of values: class labels given as a
-- vector of numbers, a Lua list of numbers, strings or booleans, a
-- categorical column of a luma.Table or a one-column Table (what a
-- classifier takes and predict gives back).
function common.labels(fname, arg, what, v)
  if luma.ismatrix(v) then
    if v:isnan():any() then
      fail(3, "bad argument #%d to '%s' (%s has a NaN, not a label)", arg, fname, what)
    end
    return common.vector(fname, arg, what, v)
  end
  local mt = getmetatable(v)
  local name = type(mt) == "table" and rawget(mt, "__name")
  if name == "luma.Categorical" or name == "luma.Table" then
    return require("luma.util.labels").values(v, { fname = fname, argn = arg, what = what }, 2)
  end
  if type(v) ~= "table" then
    fail(3, "bad argument #%d to '%s' (%s must be a vector or a list, got %s)", arg, fname,
      what, type(v))
  end
  local out = {}
  for i = 1, #v do
    local x = v[i]
    if (type(x) ~= "number" and type(x) ~= "string" and type(x) ~= "boolean") or x ~= x then
      fail(3, "bad argument #%d to '%s' (%s[%d] is %s, not a label)", arg, fname, what, i,
        x ~= x and "NaN" or type(x))
    end
    out[i] = x
  end
  return out
end

--- same_length(fname, arg, what, n, list): the length check of paired data.
function common.same_length(fname, arg, what, n, list, first)
  if #list ~= n then
    fail(3, "bad argument #%d to '%s' (%s has %d values but %s has %d)", arg, fname, what,
      #list, first or "x", n)
  end
end

--- nonempty(fname, arg, what, list)
function common.nonempty(fname, arg, what, list)
  if #list == 0 then fail(3, "bad argument #%d to '%s' (%s is empty)", arg, fname, what) end
end

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end
common.finite = finite

--- keep_finite(fname, lists, also) -> lists: drops the positions where any
-- list (all of equal length) holds NaN or an infinity, with one warning
-- naming how many; lists in `also` (labels, sizes) lose the same positions
-- without being checked.  Returns the given lists when nothing is dropped.
function common.keep_finite(fname, lists, also)
  local n = #lists[1]
  -- the common case first: every list finite (x - x is NaN exactly for
  -- NaN and the infinities), one plain loop per list
  local clean = true
  for _, l in ipairs(lists) do
    for i = 1, n do
      local v = l[i]
      if v - v ~= 0 then clean = false break end
    end
    if not clean then break end
  end
  if clean then return lists, also end
  local bad = 0
  for i = 1, n do
    for _, l in ipairs(lists) do
      if not finite(l[i]) then bad = bad + 1 break end
    end
  end
  common.warning("%s: skipped %d of %d points with NaN or infinite values", fname, bad, n)
  local kept, kept_also = {}, {}
  for k = 1, #lists do kept[k] = {} end
  for k = 1, #(also or {}) do kept_also[k] = {} end
  local m = 0
  for i = 1, n do
    local ok = true
    for _, l in ipairs(lists) do
      if not finite(l[i]) then ok = false break end
    end
    if ok then
      m = m + 1
      for k, l in ipairs(lists) do kept[k][m] = l[i] end
      for k, l in ipairs(also or {}) do kept_also[k][m] = l[i] end
    end
  end
  return kept, kept_also
end

--- number(fname, arg, what, v [, default]) -> v, a finite number (nil
-- gives the default: for options).
function common.number(fname, arg, what, v, default)
  if v == nil then return default end
  if type(v) ~= "number" or not finite(v) then
    fail(3, "bad argument #%d to '%s' (%s must be a finite number, got %s)", arg, fname, what,
      type(v) == "number" and tostring(v) or type(v))
  end
  return v
end

--- required_number(fname, arg, what, v) -> v, a finite number that must
-- be given (a positional argument).
function common.required_number(fname, arg, what, v)
  if v == nil then
    fail(3, "bad argument #%d to '%s' (%s must be a finite number, got nil)", arg, fname, what)
  end
  return common.number(fname, arg, what, v)
end

--- choice(fname, arg, what, v, valid [, default]) -> v, one of the list valid.
function common.choice(fname, arg, what, v, valid, default)
  if v == nil then return default end
  for _, name in ipairs(valid) do
    if v == name then return v end
  end
  fail(3, "bad argument #%d to '%s' (unknown %s '%s'; valid: %s)", arg, fname, what,
    tostring(v), table.concat(valid, ", "))
end

--- minmax(list) -> smallest, largest (nil, nil for an empty list).
function common.minmax(list)
  local lo, hi = math.huge, -math.huge
  for i = 1, #list do
    local v = list[i]
    if v < lo then lo = v end
    if v > hi then hi = v end
  end
  if lo > hi then return nil, nil end
  return lo, hi
end

--- text_width(s, size) -> an estimate of the width of s in pixels at the
-- font size `size`: 0.6 em per character (DejaVu Sans averages about
-- 0.55 em for digits and lower case), counting UTF-8 characters.
function common.text_width(s, size)
  return 0.6 * size * (utf8.len(s) or #s)
end

return common
