-- The registry of every function and method Luma registers, shared by the
-- Lua API fuzzer (api_fuzz.lua) and the limits probe (limits_probe.lua).
-- The driver (tests/c/api_fuzz.c) loads this file and hands the scripts
-- its result as the global `api_registry`, and the native types' metatables
-- (the registry's "luma.*" entries) as the global `native_types`, so the
-- walk works in a sandboxed state too (no debug.getregistry there).
--
-- Discovery is automatic, so modules that land later are covered without
-- edits: the luma table and every lazily loaded submodule (the __lazy list
-- of luma's metatable), the parts of family packages (the luma.* entries
-- of package.preload), tables nested in them, the metatables of native
-- types (methods and metamethods), and the methods of objects the calls
-- return (estimators, generators, results, distributions...), fed back
-- through registry:note(value).
--
--   local reg = api_registry.new{ skip = {name = reason}, types = native_types,
--                                 selves = {["luma.Matrix"] = {...}},
--                                 self_of = {["luma.Generator"] = g},
--                                 guard = pcall }   -- how modules are loaded
--   for target in reg:each() do ... reg:note(result) ... end
--   -- target: { name, fn, self (or nil), selves (list or nil) }
-- SPDX-License-Identifier: MIT
local M = {}

-- Metamethods only the collector calls: calling them by hand on a live
-- object would release its storage twice, by design.
M.SKIP_META = { __gc = true, __close = true, __mode = true, __name = true, __metatable = true }

local function callable(v)
  if type(v) == "function" then return true end
  local mt = (type(v) == "table" or type(v) == "userdata") and getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

local Registry = {}
Registry.__index = Registry

function Registry:add(name, fn, obj, selves)
  if self.skip[name] then
    self.skipped[name] = self.skip[name]
    return
  end
  -- a function reached twice (under two names) is called once; methods
  -- are called with each of their objects
  if self.seen_fn[fn] and obj == nil and not selves then return end
  self.seen_fn[fn] = true
  self.targets[#self.targets + 1] = { name = name, fn = fn, self = obj, selves = selves }
end

function Registry:walk_table(prefix, t, depth)
  if self.seen_table[t] or depth > 4 then return end
  self.seen_table[t] = true
  local keys = {}
  for k in pairs(t) do
    if type(k) == "string" then keys[#keys + 1] = k end
  end
  self.guard(table.sort, keys)
  for _, k in ipairs(keys) do
    local v = rawget(t, k)
    local name = prefix .. "." .. k
    if callable(v) then self:add(name, v) end
    if type(v) == "table" and not k:match("^_") then self:walk_table(name, v, depth + 1) end
  end
end

-- Methods of an object's metatable (its __index table) and metamethods.
function Registry:walk_methods(obj, mt, selves)
  if type(mt) ~= "table" or self.seen_mt[mt] then return end
  self.seen_mt[mt] = true
  local tname = rawget(mt, "__name")
  tname = type(tname) == "string" and tname or "object"
  local methods = rawget(mt, "__methods") or rawget(mt, "__index")
  if type(methods) == "table" then
    local keys = {}
    for k, v in pairs(methods) do
      if type(k) == "string" and type(v) == "function" then keys[#keys + 1] = k end
    end
    table.sort(keys)
    for _, k in ipairs(keys) do self:add(tname .. ":" .. k, methods[k], obj, selves) end
  end
  local metas = {}
  for k, v in pairs(mt) do
    if type(k) == "string" and k:match("^__") and type(v) == "function" and not M.SKIP_META[k] then
      metas[#metas + 1] = k
    end
  end
  table.sort(metas)
  for _, k in ipairs(metas) do self:add(tname .. "." .. k, mt[k], obj, selves) end
end

-- A value a call returned: an object of a kind not seen yet has its
-- methods walked once the targets known so far are done.
function Registry:note(r)
  local mt = (type(r) == "table" or type(r) == "userdata") and getmetatable(r)
  if type(mt) == "table" and not self.seen_mt[mt] and not self.queued_mt[mt] then
    self.queued_mt[mt] = true
    self.new_objects[#self.new_objects + 1] = { r, mt }
  end
end

-- Iterates over the targets, the methods of noted objects included.
function Registry:each()
  local k = 0
  return function()
    k = k + 1
    while k > #self.targets and #self.new_objects > 0 do
      local o = table.remove(self.new_objects, 1)
      self:walk_methods(o[1], o[2], nil)
    end
    return self.targets[k]
  end
end

function Registry:nskipped()
  local n = 0
  for _ in pairs(self.skipped) do n = n + 1 end
  return n
end

function M.new(opts)
  local self = setmetatable({
    skip = opts.skip or {}, skipped = {}, targets = {}, seen_fn = {}, seen_table = {},
    seen_mt = {}, queued_mt = {}, new_objects = {},
  }, Registry)
  -- guard(f, ...) -> ok, results: pcall, or the driver's guarded_call
  -- (a fresh instruction budget for each module loaded).
  local guard = opts.guard or pcall
  -- the walk's own work (sorting names, which a sandboxed state charges
  -- like any other) gets a fresh budget per table too
  self.guard = guard
  -- The luma table and every lazy submodule.
  for _, name in ipairs(getmetatable(luma).__lazy) do guard(function() return luma[name] end) end
  self:walk_table("luma", luma, 0)
  -- The parts of family packages (luma.linear.common, luma.linear.native,
  -- ...), which only require reaches: every luma.* module in
  -- package.preload but the data files.
  local parts = {}
  for name in pairs(package.preload) do
    if name:match("^luma%.") and not name:match("^luma%.data%.") then parts[#parts + 1] = name end
  end
  table.sort(parts)
  for _, name in ipairs(parts) do
    local ok, module = guard(require, name)
    if ok and type(module) == "table" then self:walk_table(name, module, 0) end
  end
  -- Native types: the registry's metatables named "luma.*".
  local type_names = {}
  for k, v in pairs(opts.types or {}) do
    if type(k) == "string" and k:match("^luma%.") and type(v) == "table" then
      type_names[#type_names + 1] = k
    end
  end
  table.sort(type_names)
  local selves, self_of = opts.selves or {}, opts.self_of or {}
  for _, k in ipairs(type_names) do self:walk_methods(self_of[k], opts.types[k], selves[k]) end
  return self
end

return M
