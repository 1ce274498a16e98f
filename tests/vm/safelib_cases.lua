-- The cases of tests/vm/safelib_spec.lua: run as one chunk in a plain
-- state (stock Lua's string and table functions) and in a sandboxed one
-- (Luma's replacements, src/vm/safelib.c); returns one line per case,
-- "name: results", results and error messages serialized, for the spec
-- to compare line by line.  Only the standard library is used (the
-- sandbox has no io), and the random cases come from a fixed-seed
-- generator written here, so both states see the same ones.
-- SPDX-License-Identifier: MIT

local lines = {}

local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  if math.type(v) == "float" then return string.format("%.17g", v) end
  return tostring(v)
end

-- Calls f(...) in protected mode and records its results or its error.
local function case(name, f, ...)
  local r = table.pack(pcall(f, ...))
  local parts = {}
  for i = 2, r.n do parts[#parts + 1] = show(r[i]) end
  lines[#lines + 1] = name .. ": " .. (r[1] and "" or "error ") .. table.concat(parts, ", ")
end

-- Every result of a gmatch loop (at most 50 iterations), or its error.
local function gmatch_all(s, p, init)
  local out = {}
  for a, b, c in string.gmatch(s, p, init) do
    out[#out + 1] = show(a) .. "/" .. show(b) .. "/" .. show(c)
    if #out == 50 then break end
  end
  return table.concat(out, " ")
end

-- A fixed-seed generator (a 64-bit LCG): the same cases in both states.
local seed = 20240527
local function rand(n)
  seed = seed * 6364136223846793005 + 1442695040888963407
  return (seed >> 33) % n + 1
end
local function pick(list) return list[rand(#list)] end

-- ------------------------------------------------------------ patterns

local classic = {
  { "hello world", "o w" }, { "hello world", "l+" }, { "hello", "l*" }, { "hello", "l-" },
  { "hello", "^h" }, { "hello", "^e" }, { "hello", "o$" }, { "hello", "l$" }, { "a$b", "$b" },
  { "a$b", "a$" }, { "key = value", "(%w+)%s*=%s*(%w+)" }, { "  trim me  ", "^%s*(.-)%s*$" },
  { "THE (quick) fox", "%((%a+)%)" }, { "f(a(b)c)d", "%b()" }, { "f(a(b)c", "%b()" },
  { "xax", "%bxx" }, { "THE (quick) fox", "%f[%a]%a+" }, { "hello world", "%f[%w]%w+%f[%W]" },
  { "THE END", "%f[%l]" }, { "a,b,,c", "([^,]*)" }, { "hello", "()ll()" }, { "hello", "()" },
  { "abcabc", "(abc)%1" }, { "abcabd", "(ab)(c)%1%2" }, { "aaa", "(a)%1*" }, { "aa", "()%1" },
  { "[x]", "[]]" }, { "[x]", "[^]]+" }, { "a-b", "[a-]" }, { "a-b", "[-b]+" }, { "a]b", "[%]]" },
  { "x^y", "[%^x]+" }, { "x^y", "[x^]+" }, { "a.b", "%." }, { "a.b", "." }, { "a%b", "%%" },
  { "\0a\0", "%z" }, { "\0a\0", "%Z+" }, { "ab\0cd", "b\0c" }, { "ab\0cd", "[\0]" },
  { "\200\201abc", "[\200-\210]+" }, { "tab\there", "%c" }, { "Ab1_ ,", "%u%l%d%p?" },
  { "0xfF zz", "%x+" }, { "x y\nz", "%S+" }, { "hello", "" }, { "", "" }, { "", "a*" },
  { "", "^$" }, { "abc", "^(a)(b)(c)$" }, { "aaab", "a-b" }, { "aaab", "a-" }, { "aaab", "a?a?b" },
  { "aaa", "^a+$" }, { "abc", "%a+%d?" }, { "2024-05-27", "(%d+)-(%d+)-(%d+)" },
  { "a.b.c", "(.-)%.(.*)" }, { "((a)(b))", "%((%b())" }, { "abc", "b%f[%z]" }, { "abc", "c%f[%z]" },
  { "abc", "%f[%Z]a" }, { "q", "%q" }, { "Q", "%Q" }, { "aXb", "%A" },
  -- malformed patterns: an error where the matcher gets to the bad spot
  { "a", "a%" }, { "b", "a%" }, { "a", "%" }, { "a", "[a" }, { "a", "[a%" }, { "a", "[%" },
  { "a", "[^" }, { "a", "[]" }, { "a", "[^]" }, { "a", "%b" }, { "a", "%ba" }, { "(", "%b(" },
  { "a", "%f" }, { "a", "%fa" }, { "a", "%f[a" }, { "a", "%1" }, { "a", "%0" }, { "a", "(a%1)" },
  { "a", "a)" }, { "a", "(a))" }, { "a", "(a" }, { "a", "()a" }, { "b", "x%1" }, { "a", "a%9" },
  { string.rep("a", 40), string.rep("(a)", 32) }, { string.rep("a", 40), string.rep("(a)", 33) },
  { string.rep("a", 300), string.rep("a?", 199) }, { string.rep("a", 300), string.rep("a?", 200) },
  { string.rep("a", 300), string.rep("a*", 199) }, { string.rep("a", 300), string.rep("a*", 200) },
  { string.rep("a", 300), string.rep("a-", 200) }, { string.rep("a", 300), string.rep("()", 33) },
  { "", string.rep("a?", 300) }, { "b", string.rep("a?", 300) },
}

for k, c in ipairs(classic) do
  local s, p = c[1], c[2]
  case("find " .. k, string.find, s, p)
  case("match " .. k, string.match, s, p)
  case("gmatch " .. k, gmatch_all, s, p)
  case("gsub " .. k, string.gsub, s, p, "<%0>")
  for _, init in ipairs({ -100, -3, -1, 0, 2, #s, #s + 1, #s + 2, math.maxinteger,
                          math.mininteger }) do
    case("find " .. k .. " at " .. init, string.find, s, p, init)
    case("match " .. k .. " at " .. init, string.match, s, p, init)
    case("gmatch " .. k .. " at " .. init, gmatch_all, s, p, init)
    case("plain " .. k .. " at " .. init, string.find, s, p, init, true)
  end
end

-- gsub: empty matches, counts, each kind of replacement
local function repl_fn(...)
  local n = select("#", ...)
  if n == 0 then return nil end
  local a = ...
  if a == "b" then return false end
  if a == "c" then return 42 end
  return "[" .. table.concat({ ... }, "|") .. "]"
end
local tables = { { a = "A", b = false, c = 3, ["1"] = "one" }, setmetatable({}, {
  __index = function(_, k) return k == "x" and "X" or nil end }) }
local templates = { "-", "%0", "%1", "<%1,%2>", "%%", "%", "x%", "%a", "%2", "%9", "()%0()", "" }
local gsubs = {
  { "abc", "" }, { "abc", "%a*" }, { "abc", "%a-" }, { "abc", "()" }, { "a b c", "%s*" },
  { "hello world", "(o)" }, { "hello world", "o" }, { "abc", "(a)(b)" }, { "abc", "^a" },
  { "abc", "^" }, { "aaa", "^a" }, { "x=1, y=2", "(%w+)=(%w+)" }, { "abc", "(a" },
  { "abc", "." }, { "1x2y", "%d" }, { "a,b", "()" }, { "", "" }, { "", "x*" },
}
for k, g in ipairs(gsubs) do
  for t, tpl in ipairs(templates) do
    for _, n in ipairs({ "none", -1, 0, 1, 2, 100 }) do
      if n == "none" then
        case(("gsub %d tpl %d"):format(k, t), string.gsub, g[1], g[2], tpl)
      else
        case(("gsub %d tpl %d n %d"):format(k, t, n), string.gsub, g[1], g[2], tpl, n)
      end
    end
  end
  case(("gsub %d fn"):format(k), string.gsub, g[1], g[2], repl_fn)
  case(("gsub %d fn 1"):format(k), string.gsub, g[1], g[2], repl_fn, 1)
  for t, tab in ipairs(tables) do
    case(("gsub %d table %d"):format(k, t), string.gsub, g[1], g[2], tab)
  end
  case(("gsub %d number"):format(k), string.gsub, g[1], g[2], 7)
  case(("gsub %d number 1.5"):format(k), string.gsub, g[1], g[2], 7.5)
end
case("gsub fn table", string.gsub, "abc", "%w", function() return {} end)
case("gsub table value", string.gsub, "abc", "%w", { a = {} })
case("gsub bad repl", string.gsub, "abc", "b", true)
case("gsub no repl", string.gsub, "abc", "b")
case("gsub bad n", string.gsub, "abc", "b", "x", "many")
case("gsub float n", string.gsub, "abc", "b", "x", 1.5)
case("gsub n order", string.gsub, "abc", "b", nil, "x")
case("gsub errors in fn", string.gsub, "abc", "b", function() error("inner") end)
case("gsub fn yields captures", string.gsub, "k1=v1 k2=v2", "(%w+)=(%w+)",
  function(k, v) return v .. "=" .. k end)
case("gsub position capture table", string.gsub, "abc", "()b", { [2] = "two" })

-- argument errors and method calls
case("find no args", string.find)
case("find nil subject", string.find, nil, "x")
case("find table pattern", string.find, "x", {})
case("find float init", string.find, "abc", "b", 1.5)
case("find string init", string.find, "abc", "b", "2")
case("find bad init", string.find, "abc", "b", "x")
case("find number subject", string.find, 12345, 34)
case("match number pattern", string.match, 12345, 3)
case("gmatch no pattern", string.gmatch, "abc")
case("method find", function() return ("hello"):find("l+") end)
case("method gsub", function() return ("hello"):gsub("l", "L") end)
case("method bad arg", function() return ("x"):find({}) end)
case("gmatch keeps going", function()
  local it = ("a1b2"):gmatch("%a(%d)")
  return it(), it(), it(), it()
end)
case("gmatch anchor is literal", gmatch_all, "^a^a", "^a")
case("find anchored with init", string.find, "^a^a", "^a", 2)
case("plain with specials", string.find, "a.b(c", ".b(", 1, true)
case("plain empty", string.find, "abc", "", 10, true)
case("plain at end", string.find, "abc", "", 4, true)
case("plain long", string.find, string.rep("ab", 500) .. "c", string.rep("ab", 100) .. "c", 1, true)
case("plain near miss", string.find, string.rep("a", 1000), string.rep("a", 99) .. "b")
case("plain found late", string.find, string.rep("a", 1000) .. "b", string.rep("a", 99) .. "b")

-- random patterns and subjects
local atoms = {
  "a", "b", "c", "x", " ", ".", "%a", "%d", "%s", "%w", "%p", "%A", "%S", "%x", "%u", "%l", "%c",
  "%g", "%z", "%%", "%.", "%(", "%]", "[abc]", "[^a]", "[a-c]", "[%a_]", "[^%s]", "[]]", "[^]a]",
  "[a-]", "[%]]", "[-a]", "[%w%p]", "[\0-\31]", "\0", "-", "^", "$",
}
local quantifiers = { "", "", "", "*", "+", "-", "?" }
local specials = { "()", "%b()", "%bab", "%f[%w]", "%f[^a]", "%f[%z]", "%b()", "%f[%W]" }
local backrefs = { "%1", "%2", ")" }
local broken = { "%", "[a", "%b", "%f", "%fa", "[%" }
local subject_bytes = { "a", "b", "c", "x", "1", "2", " ", "_", "(", ")", "[", "]", "%", ".",
  "\0", "\n", "A", "B", "\200", "-", "^", "$" }

local function random_pattern()
  local parts, quantified, depth = {}, 0, 0
  if rand(6) == 1 then parts[1] = "^" end
  for _ = 1, rand(7) do
    local r = rand(10)
    if r == 1 and rand(3) == 1 then
      parts[#parts + 1] = pick(backrefs)
    elseif r <= 6 then
      local q = pick(quantifiers)
      if q ~= "" and q ~= "?" then
        if quantified >= 3 then q = "" else quantified = quantified + 1 end
      end
      parts[#parts + 1] = pick(atoms) .. q
    elseif r <= 8 then
      parts[#parts + 1] = pick(specials)
    elseif depth < 3 then
      parts[#parts + 1] = "("
      depth = depth + 1
    else
      parts[#parts + 1] = ")"
      depth = depth - 1
    end
  end
  for _ = 1, depth do
    if rand(4) > 1 then parts[#parts + 1] = ")" end
  end
  if rand(8) == 1 then parts[#parts + 1] = "$" end
  if rand(25) == 1 then parts[#parts + 1] = pick(broken) end
  return table.concat(parts)
end

local function random_subject()
  local b = {}
  for i = 1, rand(21) - 1 do b[i] = pick(subject_bytes) end
  return table.concat(b)
end

for k = 1, 6000 do
  local s, p = random_subject(), random_pattern()
  local init = rand(3) == 1 and rand(#s + 5) - 3 or nil
  case("random find " .. k, string.find, s, p, init)
  case("random match " .. k, string.match, s, p, init)
  case("random gmatch " .. k, gmatch_all, s, p, init)
  case("random gsub " .. k, string.gsub, s, p, pick(templates), rand(3) == 1 and rand(4) - 1 or nil)
  case("random gsub fn " .. k, string.gsub, s, p, repl_fn)
  case("random plain " .. k, string.find, s, pick(subject_bytes) .. pick(subject_bytes), init, true)
end

-- long subjects: the scans and copies work a chunk at a time
local long = string.rep("ab", 100000) .. "c" .. string.rep("(x)", 30000) .. string.rep("a", 70000)
local function summary(...)
  local r = table.pack(...)
  for i = 1, r.n do
    if type(r[i]) == "string" and #r[i] > 40 then
      r[i] = #r[i] .. ":" .. r[i]:sub(1, 10) .. ".." .. r[i]:sub(-10)
    end
  end
  return table.unpack(r, 1, r.n)
end
for k, p in ipairs({ "c", "c(", "ca", "%(x%)%(x%)$", "a+$", "(a*)$", "b.-c", "b.*c", "c.-(%(x%))",
                     "%b()", "c%b()%b()", "[^ab]", "%f[c]", "a+", "(x)%)%(%1", "ab", "a*", "ba.-ab",
                     "(x)%)%((x)%)(%(x%))" }) do
  case("long find " .. k, function() return summary(string.find(long, p)) end)
  case("long find " .. k .. " at -1000", function() return summary(string.find(long, p, -1000)) end)
  case("long match " .. k, function() return summary(string.match(long, p)) end)
  case("long gsub " .. k, function() return summary(string.gsub(long, p, "<%0>")) end)
  case("long gmatch " .. k, function()
    local n, last = 0, nil
    for m in long:gmatch(p) do
      n, last = n + 1, m
      if n == 400000 then break end
    end
    return summary(n, last)
  end)
end
case("long plain", function() return string.find(long, string.rep("ab", 5000) .. "c", 1, true) end)
case("long plain miss", function() return string.find(long, string.rep("a", 500) .. "b", 1, true) end)
case("long concat", function()
  local t = {}
  for i = 1, 20000 do t[i] = i end
  return summary(table.concat(t, ","))
end)
case("long rep", function() return summary(string.rep("xyz", 100000, "--")) end)

-- ---------------------------------------------------------- string.rep

for _, c in ipairs({ { "ab", 3 }, { "ab", 3, "," }, { "", 5 }, { "", 5, "" }, { "", 5, "-" },
                     { "x", 0 }, { "x", -1 }, { "x", 1, "," }, { "abc", 2, "" }, { "a", 70000 },
                     { "ab", 40000, "-" }, { "", 1e6 }, { "", 1e6, "" },
                     { "x", 2 ^ 31 }, { "x", 2 ^ 31 - 1, "x" }, { "", 2 ^ 31, "x" },
                     { "x", 1.5 }, { "x", "3" }, { 12, 2 }, { "x", 2, 3 } }) do
  case("rep " .. show(c[1]) .. " " .. show(c[2]) .. " " .. show(c[3]), function(...)
    local r = string.rep(...)
    return #r, r:sub(1, 20), r:sub(-20)
  end, c[1], c[2], c[3])
end
case("rep no count", string.rep, "x")

-- ---------------------------------------------------------------- table

local function list(t, n) -- t[1 .. n] as text, holes shown as nil
  local out = {}
  for i = 1, n or #t do out[i] = show(rawget(t, i)) end
  return table.concat(out, ",")
end

local function insert_case(name, t, ...)
  local args = table.pack(...)
  case(name, function()
    local r = table.pack(table.insert(t, table.unpack(args, 1, args.n)))
    return r.n, list(t, 8)
  end)
end
insert_case("insert end", { 1, 2, 3 }, 4)
insert_case("insert front", { 1, 2, 3 }, 1, 0)
insert_case("insert middle", { 1, 2, 3 }, 2, 9)
insert_case("insert after end", { 1, 2, 3 }, 4, 9)
insert_case("insert past end", { 1, 2, 3 }, 5, 9)
insert_case("insert zero", { 1, 2, 3 }, 0, 9)
insert_case("insert negative", { 1, 2, 3 }, -1, 9)
insert_case("insert empty", {}, 1, "x")
insert_case("insert nil value", { 1, 2 }, 1, nil)
insert_case("insert float pos", { 1, 2 }, 1.5, 9)
insert_case("insert string pos", { 1, 2 }, "1", 9)
insert_case("insert too many", { 1 }, 1, 2, 3)
insert_case("insert too few", { 1 })
case("insert not a table", table.insert, "abc", 1)
case("insert nil", table.insert, nil, 1)
case("insert bad len", table.insert, setmetatable({}, { __len = function() return "x" end }), 1)
case("insert float len", table.insert, setmetatable({}, { __len = function() return 2.5 end }), 1)
case("insert maxint len", table.insert, setmetatable({}, {
  __len = function() return math.maxinteger end, __newindex = function() end }), 1)
case("insert maxint len pos", table.insert, setmetatable({}, {
  __len = function() return math.maxinteger end }), 1, 1)

local function remove_case(name, t, ...)
  local args = table.pack(...)
  case(name, function()
    local r = table.pack(table.remove(t, table.unpack(args, 1, args.n)))
    return r.n, show(r[1]), list(t, 6)
  end)
end
remove_case("remove last", { 1, 2, 3 })
remove_case("remove first", { 1, 2, 3 }, 1)
remove_case("remove middle", { 1, 2, 3 }, 2)
remove_case("remove size+1", { 1, 2, 3 }, 4)
remove_case("remove size+2", { 1, 2, 3 }, 5)
remove_case("remove zero", { 1, 2, 3 }, 0)
remove_case("remove zero of empty", {}, 0)
remove_case("remove empty", {})
remove_case("remove empty at 1", {}, 1)
remove_case("remove empty at -1", {}, -1)
remove_case("remove negative", { 1, 2, 3 }, -1)
remove_case("remove nil pos", { 1, 2, 3 }, nil)
remove_case("remove float pos", { 1, 2, 3 }, 1.5)
case("remove not a table", table.remove, 5)

local function move_case(name, a1, f, e, t, a2)
  case(name, function()
    local r = table.move(a1, f, e, t, a2)
    return r == a1, r == a2, list(a1, 8), a2 and list(a2, 8) or ""
  end)
end
move_case("move forward", { 1, 2, 3, 4, 5 }, 1, 3, 2)
move_case("move backward", { 1, 2, 3, 4, 5 }, 2, 4, 1)
move_case("move overlap tail", { 1, 2, 3, 4, 5 }, 1, 5, 3)
move_case("move to other", { 1, 2, 3 }, 1, 3, 2, { "a", "b", "c", "d" })
move_case("move empty range", { 1, 2, 3 }, 3, 1, 1)
move_case("move same", { 1, 2, 3 }, 1, 3, 1)
move_case("move negative", { [-1] = "m", [0] = "z", 1, 2 }, -1, 1, 3)
case("move too many", table.move, {}, -1, math.maxinteger, 1)
case("move wrap", table.move, {}, 1, 5, math.maxinteger)
case("move max edge", function() return list(table.move({ 1, 2 }, 1, 2, math.maxinteger - 1), 2) end)
case("move missing arg", table.move, {}, 1, 2)
case("move bad dest", table.move, {}, 1, 2, 1, "x")
case("move nil dest", function() return list(table.move({ 1, 2 }, 1, 2, 3, nil), 4) end)
case("move proxy", function()
  local log = {}
  local src = setmetatable({}, { __index = function(_, k) return k * 10 end })
  local dst = setmetatable({}, { __newindex = function(_, k, v) log[#log + 1] = k .. "=" .. v end })
  table.move(src, 1, 4, 2, dst)
  return table.concat(log, " ")
end)
case("move eq metamethod", function()
  local mt = { __eq = function() return true end }
  local a, b = setmetatable({ 1, 2, 3, 4 }, mt), setmetatable({ 9, 9, 9, 9 }, mt)
  table.move(a, 1, 3, 2, b)
  return list(b, 4)
end)

for _, c in ipairs({ { { 1, 2, 3 } }, { { 1, 2, 3 }, ", " }, { { "a", "b" }, "", 2 },
                     { { "a", "b", "c" }, "-", 2, 3 }, { { "a", "b", "c" }, "-", 3, 2 },
                     { { 1, 2.5, "x" }, "/" }, { {}, "x" }, { { 1, {}, 3 } }, { { 1, 2, 3 }, ",", 1, 5 },
                     { { 1, 2 }, {} }, { { 1, 2 }, ",", "x" }, { { 1, true } }, { { [0] = "z", "a" }, "", 0 },
                     { { "a" }, ",", math.maxinteger, math.maxinteger } }) do
  local name = {}
  for i = 1, 4 do name[i] = type(c[i]) == "table" and "{" .. #c[i] .. "}" or show(c[i]) end
  case("concat " .. table.concat(name, " "), table.concat, table.unpack(c, 1, 4))
end
case("concat not a table", table.concat, "abc")
case("concat proxy", table.concat, setmetatable({}, {
  __len = function() return 4 end, __index = function(_, i) return "<" .. i .. ">" end }), ",")

-- sort: random arrays (distinct values, so the order is the same whatever
-- the algorithm), with and without a comparator, and the errors
local function sorted(t, cmp)
  table.sort(t, cmp)
  return list(t, #t)
end
for k = 1, 300 do
  local n = rand(k <= 200 and 40 or 400)
  local a, b, c = {}, {}, {}
  local used = {}
  for i = 1, n do
    local v
    repeat v = rand(100000) until not used[v]
    used[v] = true
    a[i], b[i], c[i] = v, v, "s" .. v
  end
  case("sort numbers " .. k, sorted, a)
  case("sort descending " .. k, sorted, b, function(x, y) return x > y end)
  case("sort strings " .. k, sorted, c)
end
for _, n in ipairs({ 0, 1, 2, 3, 5, 12, 13, 100, 1000 }) do
  local up, down, same, organ = {}, {}, {}, {}
  for i = 1, n do up[i], down[i], same[i], organ[i] = i, n - i, 7, i <= n // 2 and i or n - i end
  case("sort ascending input " .. n, sorted, up)
  case("sort descending input " .. n, sorted, down)
  case("sort equal input " .. n, sorted, same)
  case("sort organ pipe " .. n, sorted, organ)
end
-- McIlroy's adversary ("A killer adversary for quicksort", 1999): the
-- comparison decides values as late as it can, against whichever sort
-- runs, so each state builds the input that drives its own sort to its
-- worst case (in Luma's, the heapsort fallback)
local function antiqsort(n)
  local val, gas, solid, candidate, ptr = {}, n, 0, nil, {}
  for i = 1, n do val[i], ptr[i] = gas, i end
  table.sort(ptr, function(x, y)
    if val[x] == gas and val[y] == gas then
      if x == candidate then val[x] = solid else val[y] = solid end
      solid = solid + 1
    end
    if val[x] == gas then candidate = x elseif val[y] == gas then candidate = y end
    return val[x] < val[y]
  end)
  for i = 1, n do
    if val[i] == gas then val[i], solid = solid, solid + 1 end
  end
  return val
end
for _, n in ipairs({ 20, 100, 1000, 5000 }) do
  case("sort adversary " .. n, sorted, antiqsort(n))
  case("sort adversary descending " .. n, sorted, antiqsort(n), function(x, y) return x > y end)
end
case("sort mixed", sorted, { 1, "x" })
case("sort nil hole", sorted, { 3, nil, 1 })
case("sort bad comparator", table.sort, { 3, 2, 1 }, 5)
case("sort always true", table.sort, { 5, 3, 9, 1, 7, 2, 8, 4, 6, 0, 11, 15, 13, 12, 14, 10 },
  function() return true end)
case("sort error in comparator", table.sort, { 3, 2, 1 }, function() error("cmp") end)
case("sort too big", table.sort, setmetatable({}, { __len = function() return 2 ^ 31 end }))
case("sort not a table", table.sort, "abc")
case("sort proxy", function()
  local store = { 5, 1, 4, 2, 3, 9, 8, 7, 6, 10, 12, 11, 14, 13, 15 }
  local p = setmetatable({}, { __len = function() return #store end,
    __index = function(_, i) return store[i] end, __newindex = function(_, i, v) store[i] = v end })
  table.sort(p)
  return list(store)
end)
case("sort lt metamethod", function()
  local mt = { __lt = function(x, y) return x.v < y.v end }
  local t = {}
  for i = 1, 30 do t[i] = setmetatable({ v = (i * 17) % 31 }, mt) end
  table.sort(t)
  local out = {}
  for i = 1, #t do out[i] = t[i].v end
  return table.concat(out, ",")
end)

return table.concat(lines, "\n") .. "\n"
