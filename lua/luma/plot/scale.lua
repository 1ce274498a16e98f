--- luma.plot.scale: axis scales (linear, log), automatic limits and tick
-- positions with readable labels.
--
-- Linear ticks use Heckbert's nice numbers ("Nice numbers for graph
-- labels", Graphics Gems, 1990): the step is 1, 2 or 5 times a power of
-- ten, chosen so that at most about `n` ticks cover the range, and every
-- label is printed with the same number of decimals, the step's.  Log ticks are
-- the powers of ten in range (every k-th one when there are many), with 2
-- and 5 times them added when the range spans less than two decades.
-- SPDX-License-Identifier: MIT
local scale = {}
local numfmt = require("luma.util.native").format -- "." whatever the locale

local log10 = math.log10 or function(x) return math.log(x, 10) end

--- forward(kind, v) -> v on the scale's linear axis (log10 for "log").
function scale.forward(kind, v)
  if kind == "log" then return log10(v) end
  return v
end

-- Heckbert's nicenum: a 1, 2, 5 or 10 times a power of ten near x,
-- rounded (round = true) or the smallest at or above x.
local function nicenum(x, round)
  local e = math.floor(log10(x))
  local f = x / 10 ^ e
  local nf
  if round then
    nf = f < 1.5 and 1 or f < 3 and 2 or f < 7 and 5 or 10
  else
    nf = f <= 1 and 1 or f <= 2 and 2 or f <= 5 and 5 or 10
  end
  return nf * 10 ^ e
end
scale.nicenum = nicenum

-- Text of v when the ticks are `step` apart: the step's decimals, an
-- exponent form for very large or very small magnitudes, never "-0".
local function label(v, step)
  if not (step > 0 and step < math.huge) or v ~= v then return numfmt("%.3g", v) end
  if math.abs(v) < step * 1e-9 then v = 0 end
  local big = math.max(math.abs(v), step)
  if big >= 1e6 or (step < 1e-4 and big < 1e-3) then
    local s = numfmt("%.3g", v):gsub("e%+?(%-?)0*(%d)", "e%1%2")
    return s
  end
  local decimals = math.max(0, -math.floor(log10(step) + 1e-9))
  local s = numfmt("%." .. decimals .. "f", v)
  if s:match("^%-0%.?0*$") then s = s:sub(2) end
  return s
end
scale.label = label

--- short(v) -> v in at most 6 significant digits, exponents without
-- padding ("1e6", "2.5e-7"): labels of classes and of given ticks.
local function short(v)
  if v == 0 then return "0" end
  local s = numfmt("%.6g", v)
  return (s:gsub("e%+?(%-?)0*(%d)", "e%1%2"))
end
scale.short = short

-- The ticks of a range no nice step divides into a few parts (empty,
-- infinite, or finer than a double resolves): its finite ends.  Without
-- this a step of 0 or a NaN makes the loop below run forever (k from inf
-- to inf) or never.
local function end_ticks(lo, hi)
  local values, labels = {}, {}
  for _, v in ipairs(lo == hi and { lo } or { lo, hi }) do
    if math.abs(v) < math.huge then
      values[#values + 1] = v
      labels[#labels + 1] = short(v)
    end
  end
  return values, labels
end

--- linear_ticks(lo, hi [, n = 6]) -> values, labels: the nice ticks
-- inside [lo, hi] (lo < hi).  The step is the finest nice number (1, 2 or
-- 5 times a power of ten) that puts at most n + 1 ticks in the range,
-- starting from Heckbert's rounded estimate range / (n - 1).
function scale.linear_ticks(lo, hi, n)
  n = n or 6
  local step = nicenum((hi - lo) / math.max(n - 1, 1), true)
  -- one nicer step finer when it still fits (Heckbert's estimate can be
  -- twice too coarse for small n)
  local e = 10 ^ math.floor(log10(step) + 1e-9)
  local m = math.floor(step / e + 0.5)
  local finer = (m == 1 and 0.5 or m == 2 and 1 or m == 5 and 2 or 5) * e
  local function count(s) return math.floor(hi / s + 1e-9) - math.ceil(lo / s - 1e-9) + 1 end
  if count(finer) <= n + 1 then step = finer end
  local first = math.ceil(lo / step - 1e-9)
  local last = math.floor(hi / step + 1e-9)
  if not (step > 0 and step < math.huge and last - first <= 2 * n + 2) then
    return end_ticks(lo, hi)
  end
  -- k * step as the nearest double to the decimal (k * 6 / 10, not
  -- k * 0.6000000000000001)
  local se = math.floor(log10(step) + 1e-9)
  local sm = math.floor(step / 10 ^ se + 0.5)
  local values, labels = {}, {}
  for k = first, last do
    local v = se < 0 and k * sm / 10 ^ -se or k * sm * 10 ^ se
    values[#values + 1] = v
    labels[#labels + 1] = label(v, step)
  end
  return values, labels
end

local log_label = short

--- log_ticks(lo, hi [, n = 6]) -> values, labels inside [lo, hi] (0 < lo < hi).
function scale.log_ticks(lo, hi, n)
  n = n or 6
  local a, b = math.ceil(log10(lo) - 1e-9), math.floor(log10(hi) + 1e-9)
  -- lo = 0 or hi = inf: a loop over infinitely many decades
  if not (b - a < math.huge) then return end_ticks(lo, hi) end
  local values, labels = {}, {}
  if b - a >= 1 then
    local every = math.max(1, math.ceil((b - a + 1) / n))
    for e = a, b do
      if (e - a) % every == 0 then
        values[#values + 1] = 10 ^ e
        labels[#labels + 1] = log_label(10 ^ e)
      end
    end
    return values, labels
  end
  -- less than two decades: 1, 2 and 5 times the powers of ten
  for e = a - 1, b + 1 do
    for _, m in ipairs{ 1, 2, 5 } do
      local v = m * 10 ^ e
      if v >= lo * (1 - 1e-9) and v <= hi * (1 + 1e-9) then
        values[#values + 1] = v
        labels[#labels + 1] = log_label(v)
      end
    end
  end
  if #values < 2 then return scale.linear_ticks(lo, hi, n) end
  return values, labels
end

--- ticks(kind, lo, hi [, n]) -> values, labels (lo and hi in either order).
function scale.ticks(kind, lo, hi, n)
  if lo > hi then lo, hi = hi, lo end
  if kind == "log" then return scale.log_ticks(lo, hi, n) end
  return scale.linear_ticks(lo, hi, n)
end

--- limits(kind, lo, hi, margin, sticky_lo, sticky_hi) -> lo, hi: the data
-- range widened by `margin` (a fraction of the range, on the scale's axis)
-- except at sticky ends (bars start at 0, images end at their edges); a
-- single value gets a unit range around it.
function scale.limits(kind, lo, hi, margin, sticky_lo, sticky_hi)
  if kind == "log" then
    local a, b = scale.limits("linear", log10(lo), log10(hi), margin,
      sticky_lo and log10(sticky_lo) or nil, sticky_hi and log10(sticky_hi) or nil)
    return 10 ^ a, 10 ^ b
  end
  if lo == hi then
    local d = lo == 0 and 1 or math.abs(lo) * 0.1
    return lo - d, hi + d
  end
  local pad = (hi - lo) * margin
  local a, b = lo - pad, hi + pad
  if sticky_lo and lo >= sticky_lo and a < sticky_lo then a = sticky_lo end
  if sticky_hi and hi <= sticky_hi and b > sticky_hi then b = sticky_hi end
  return a, b
end

--- mapping(kind, lo, hi, p0, p1) -> {log, lo, k, p0}: the map from data
-- to pixels that maps lo to p0 and hi to p1 on the scale's axis (p1 < p0
-- for a y axis drawn upwards), v -> p0 + (f(v) - lo) k with f = log10 on
-- a log scale; as numbers for the native renderer.
function scale.mapping(kind, lo, hi, p0, p1)
  local log = kind == "log"
  local a, b = lo, hi
  if log then a, b = log10(lo), log10(hi) end
  return { log = log, lo = a, k = (p1 - p0) / (b - a), p0 = p0 }
end

--- mapper(m) -> function(v) -> pixel: the mapping m as a function.
function scale.mapper(m)
  local a, k, p0 = m.lo, m.k, m.p0
  if m.log then
    return function(v) return p0 + (log10(v) - a) * k end
  end
  return function(v) return p0 + (v - a) * k end
end

--- transform(kind, lo, hi, p0, p1) -> function(v) -> pixel: maps lo to p0
-- and hi to p1 on the scale's axis (p1 < p0 for a y axis drawn upwards).
function scale.transform(kind, lo, hi, p0, p1)
  return scale.mapper(scale.mapping(kind, lo, hi, p0, p1))
end

return scale
