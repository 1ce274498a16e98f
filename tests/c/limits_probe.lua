-- The limits probe (issue 24, docs/RELIABILITY.md "Limits inside native
-- code"): calls every function and method Luma registers (the registry of
-- tests/c/api_registry.lua, the API fuzzer's) with degenerate shapes
-- (2^40 x 0 and 0 x 2^40 matrices and their transposes, or the largest
-- dimension allowed), huge counts and sizes (2^31, 10^9, 2^40) and one
-- real 400 x 100 matrix (whose distances, products and sorts cost more than the budget), from a sandboxed state with a small instruction
-- budget and a 256 MB memory limit (`api_fuzz --probe`, tests/c/api_fuzz.c).
-- Any call that takes more than LIMIT seconds of wall time fails the test;
-- so does a crash or a hang (the driver's watchdog names the call).  The
-- slowest ten calls are printed, and the largest time per budget unit
-- (the constant c of the guarantee in docs/RELIABILITY.md).
--
-- Functions and methods that land later are picked up without edits.
-- SPDX-License-Identifier: MIT
local LIMIT = probe_sanitized and 6.0 or 2.0 -- seconds per call (AddressSanitizer: ~3x slower)

-- ------------------------------------------------------------ arguments

local function try(f, ...)
  local ok, v = pcall(f, ...)
  return ok and v or nil
end

-- Degenerate but cheap: no elements, enormous dimensions.
local tall = try(luma.zeros, 1 << 40, 0) or luma.zeros((1 << 31) - 1, 0)
assert(tall:rows() == (1 << 31) - 1, "the largest dimension is 2^31 - 1")
local wide = try(luma.zeros, 0, 1 << 40) or luma.zeros(0, (1 << 31) - 1)
local g = luma.random.Generator(1)
local X = g:normal(400, 100)

local function values()
  return {
    tall, wide, tall:t(), wide:t(), X,
    1 << 31, 1000000000, 1 << 40, 1e9, 2 ^ 31,
  }
end
local NV = 10

-- Second arguments of the pairs: the tall degenerate shape and the real
-- matrix (values() indices); single arguments cover the rest, and fewer
-- pairs keep the whole probe to a minute or two.
local SECOND = { 1, 5 }

local function matrix_selves()
  return { tall, wide, tall:t(), wide:t(), X }
end

-- ------------------------------------------------------------ discovery

local registry = api_registry.new{
  types = native_types,
  selves = { ["luma.Matrix"] = matrix_selves() },
  self_of = { ["luma.Generator"] = luma.random.Generator(5) },
  guard = guarded_call,
}

-- ------------------------------------------------------------- calling

local calls, slow, crashes = 0, {}, {}
local times = {} -- the slowest calls: { seconds, description }
local worst_ratio = 0 -- seconds per budget unit, over all calls

local function describe(v)
  if v == tall then return "zeros(" .. tall:rows() .. ", 0)" end
  if v == wide then return "zeros(0, " .. wide:cols() .. ")" end
  if v == X then return "X(400 x 100)" end
  if luma.matrix.ismatrix(v) then
    local r, c = v:shape()
    return string.format("T(%d x %d)", r, c)
  end
  if math.type(v) == "integer" then return string.format("%d", v) end
  return tostring(v)
end

local function describe_call(t, self, args, n)
  local parts = {}
  for i = 1, n do parts[i] = describe(args[i]) end
  local who = t.name
  if self ~= nil and luma.matrix.ismatrix(self) then who = describe(self) .. " " .. t.name end
  return who .. "(" .. table.concat(parts, ", ") .. ")"
end

local function keep_slowest(dt, what)
  if #times < 10 or dt > times[#times][1] then
    times[#times + 1] = { dt, what }
    table.sort(times, function(a, b) return a[1] > b[1] end)
    if #times > 10 then times[11] = nil end
  end
end

local function call(t, self, args, n)
  local what = describe_call(t, self, args, n)
  set_current(what)
  local t0 = luma.now()
  local res
  if self ~= nil then
    res = table.pack(guarded_call(t.fn, self, table.unpack(args, 1, n)))
  else
    res = table.pack(guarded_call(t.fn, table.unpack(args, 1, n)))
  end
  local dt = luma.now() - t0
  calls = calls + 1
  keep_slowest(dt, what)
  if dt / probe_budget > worst_ratio then worst_ratio = dt / probe_budget end
  if dt > LIMIT then slow[#slow + 1] = string.format("%.2f s: %s", dt, what) end
  if res[1] then
    for i = 2, math.min(res.n, 4) do registry:note(res[i]) end
  elseif res[2] ~= "runtime error" and res[2] ~= "not enough memory" then
    crashes[#crashes + 1] = string.format("%s: %s (%s)", what, tostring(res[3]), res[2])
  end
end

local function probe(t)
  local selves = t.selves or { t.self }
  for s = 1, math.max(#selves, 1) do
    local self = selves[s]
    local vals = values()
    call(t, self, vals, 0)
    for i = 1, NV do
      call(t, self, { vals[i] }, 1)
      for _, j in ipairs(SECOND) do call(t, self, { vals[i], vals[j] }, 2) end
    end
  end
  guarded_call(collectgarbage, "step", 1000) -- charged in a sandbox: a budget of its own
end

local functions = 0
local started = not probe_from
for t in registry:each() do
  started = started or t.name == probe_from
  if started and (not probe_only or t.name:find(probe_only, 1, true)) then
    probe(t)
    functions = functions + 1
  end
end

local report = { string.format("limits probe: %d functions and methods, %d calls, budget %d "
  .. "instructions, 256 MB; the largest time per budget unit %.1f ns", functions, calls,
  probe_budget, worst_ratio * 1e9) }
report[#report + 1] = "slowest calls:"
for _, e in ipairs(times) do report[#report + 1] = string.format("  %.3f s  %s", e[1], e[2]) end
for _, f in ipairs(slow) do report[#report + 1] = "FAIL over " .. LIMIT .. " s: " .. f end
for _, f in ipairs(crashes) do report[#report + 1] = "FAIL not a Lua error: " .. f end
return { passed = functions, failed = #slow + #crashes, calls = calls,
         report = table.concat(report, "\n") }
