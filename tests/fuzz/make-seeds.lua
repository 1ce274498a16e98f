-- Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/*).
-- Run from the repository root with the built binary:
--   build/luma tests/fuzz/make-seeds.lua
-- The files are small and committed; rerun this after a format change.
-- SPDX-License-Identifier: MIT
local root = "tests/fuzz/corpus/"
for _, t in ipairs{ "load", "csv", "npy", "libsvm", "chunk" } do
  os.execute("mkdir -p " .. root .. t)
end

local function write(target, name, bytes)
  local f = assert(io.open(root .. target .. "/" .. name, "wb"))
  f:write(bytes)
  f:close()
end

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local tmp = os.tmpname()

-- ------------------------------------------------------------ luma.load
-- Mode byte 1: the target recomputes the checksum (see fuzz_load.c).
local estimator = require("luma.estimator")
local Mean = estimator.class{ name = "fuzz.Mean", kind = "regressor", doc = "mean of y",
  params = { { name = "shrink", type = "number", default = 1, min = 0, max = 1, doc = "s" },
             { name = "inner", type = "estimator", default = nil, doc = "e" },
             { name = "mode", type = "string", default = "a", values = { "a", "b" }, doc = "m" } },
  fit = function(self, X, y) self.value = y:mean() * self.params.shrink end,
  predict = function(self, X) return luma.full(X:rows(), 1, self.value) end }

local X = luma.matrix{ { 1, 2 }, { 3, 4 }, { 5, 6 }, { 7, 8 } }
local y = luma.matrix{ 1, 2, 3, 4 }
local ms = luma.model_selection
local search = ms.GridSearch{ estimator = Mean{}, param_grid = { shrink = { 0.5, 1 } }, cv = 2 }
search:fit(X, y)
local values = {
  nil_value = false,
  scalar = 42,
  float = -0.5,
  string = "hello",
  matrix = X,
  view = X:t():sub(1, 2, 2, 3),
  empty = luma.zeros(0, 3),
  nested = { 1, { 2, { 3, { x = true } } }, name = "n" },
  generator = luma.random.Generator(7),
  sampler = ms.uniform(0, 1),
  fitted = Mean{ shrink = 0.5, mode = "b" }:fit(X, y),
  wrapped = Mean{ inner = Mean{} },
  pipeline = luma.pipeline.make_pipeline(Mean{}),
  results = search.results,
  search = search,
}
for name, v in pairs(values) do
  if v == false then v = nil end
  luma.save(v, tmp)
  write("load", name, "\1" .. slurp(tmp))
end
write("load", "raw-checksum", "\0" .. slurp(tmp)) -- loaded as it is

-- ---------------------------------------------------------------- CSV
-- Options byte (fuzz_csv.c): bit 0 no header, bits 1-2 delimiter
-- (, ; tab |), bit 3 '#' comments, bits 4-5 skip_rows, bit 6 columns {2, 1},
-- bit 7 na_values {"?"}.
write("csv", "basic", "\0a,b,c\n1,2,3\n4,5,6\n")
write("csv", "quoted", "\0name,\"x, y\",z\n\"a \"\"q\"\"\",1.5,NA\n\"multi\nline\",2,\n")
write("csv", "crlf-bom", "\0\xEF\xBB\xBFa,b\r\n1,2\r\n3,4\r\n")
write("csv", "categorical", "\0color,size\nred,1\nblue,2\nred,3\n,4\n")
write("csv", "semicolon-noheader", "\3" .. "1;2\n3;4\n")
write("csv", "tabs-comments", "\12# comment\na\tb\n1\t2\n# more\n3\t4\n")
write("csv", "skip-columns", "\96junk line\nx,y,z\n1,2,3\n")
write("csv", "na-values", "\128a,b\n?,1\n2,?\n")
write("csv", "numbers", "\0v\n1e300\n-inf\nnan\n0x10\n 3 \n1e-320\n")
write("csv", "ragged", "\0a,b\n1\n")
write("csv", "unterminated", "\0a,b\n\"1,2\n")

-- ---------------------------------------------------------------- .npy
luma.io.write_npy(X, tmp)
write("npy", "f8-2d", slurp(tmp))
luma.io.write_npy(luma.zeros(0, 2), tmp)
write("npy", "f8-empty", slurp(tmp))
local function npy(major, dict, data)
  local pre = "\147NUMPY" .. string.char(major, 0)
  local total = #pre + (major == 1 and 2 or 4) + #dict + 1
  local pad = (64 - total % 64) % 64
  local header = dict .. string.rep(" ", pad) .. "\n"
  local len = major == 1 and string.pack("<I2", #header) or string.pack("<I4", #header)
  return pre .. len .. header .. data
end
write("npy", "f4-1d", npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
  string.pack("<fff", 1.5, -2, 3)))
write("npy", "i2-be-fortran", npy(1, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }",
  string.pack(">i2i2i2i2", 1, -2, 3, -4)))
write("npy", "u1-v2", npy(2, "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }",
  "\1\2\3\4\5\255"))
write("npy", "bool-scalar", npy(3, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }", "\1"))
write("npy", "i8-order", npy(1, "{'shape': (1, 2), 'fortran_order': False, 'descr': '<i8', }",
  string.pack("<i8i8", -1, math.maxinteger)))

-- -------------------------------------------------------------- libsvm
-- Options byte (fuzz_libsvm.c): bit 0 set passes n_features = byte >> 1.
write("libsvm", "basic", "\0" .. "1 1:0.5 3:-2\n-1 2:1e3\n")
write("libsvm", "comments-qid", "\0# header\n+1 qid:3 1:1 2:2 # trailing\n\n0 qid:3 4:4\r\n")
write("libsvm", "n-features", "\11" .. "2 1:1 5:5\n3\n")
write("libsvm", "errors", "\0" .. "1 2:1 1:1\n")

-- -------------------------------------------------------- sandboxed chunks
write("chunk", "matrix", [[
local A = luma.matrix{{1, 2}, {3, 4}}
local B = A * A:t() + luma.eye(2)
return B:sum(), A:row(1):mean(), luma.linalg.solve(B, luma.ones(2, 1)):get(1, 1)
]])
write("chunk", "views", [[
local A = luma.arange(1, 13):reshape(3, 4)
local V = A:t():sub(2, 1, 3, 2)
V:set(1, 1, 99)
return A:get(1, 2), tostring(V), A:select(luma.matrix{1, 3}, 1):sum()
]])
write("chunk", "random", [[
local g = luma.random.Generator(3)
local X = g:normal(20, 3)
return X:std(1):max(), luma.pairwise.euclidean(X, X):trace()
]])
write("chunk", "estimator", [[
local est = require("luma.estimator")
local C = est.class{name = "s.M", kind = "regressor", doc = "m", params = {},
  fit = function(self, X, y) self.m = y:mean() end,
  predict = function(self, X) return luma.full(X:rows(), 1, self.m) end}
local X, y = luma.random.Generator(1):normal(10, 2), luma.arange(1, 11):t()
local r = luma.model_selection.cross_val_score(C{}, X, y, {cv = 3})
return luma.persist.decode(luma.persist.encode{r = C{}:fit(X, y)}).r:predict(X):sum()
]])
write("chunk", "escape-attempts", [[
local ok = pcall(luma.save, 1, "/tmp/x")
local f = load(string.dump(function() end))
return ok, f, io, os.execute, require and pcall(require, "io"), luma.io.parse_csv("a\n1\n")
]])
write("chunk", "limits", [[
pcall(function() local t = {} for i = 1, 1e8 do t[i] = luma.zeros(100, 100) end end)
while true do end
]])
write("chunk", "errors", [[
local r = {}
for _, f in ipairs{function() return luma.zeros(-1, 2) end, function() return luma.eye(2) * luma.eye(3) end,
  function() return luma.linalg.inv(luma.zeros(2, 2)) end, function() return luma.matrix{{1}, {1, 2}} end} do
  r[#r + 1] = select(2, pcall(f))
end
return table.concat(r, "\n")
]])
os.remove(tmp)
print("seed corpora written under " .. root)
