-- Memory-mapped .npy matrices: luma.io.read_npy(path, {mmap = true})
-- (copy-on-write) and luma.io.open_npy (shared for "w+"/"r+").  Expected
-- values come from the same data read without mapping (a converted copy)
-- or held in memory; inputs the writer cannot produce (Fortran order,
-- other dtypes, a misaligned data offset) are built byte by byte from
-- NumPy's format description.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local npy = require("io.npy_bytes")
local io_ = luma.io
local M = luma.matrix

local function mapped(path) return io_.read_npy(path, { mmap = true }) end

-- The message of the error fn raises, without the "where: luma.io.f: path: "
-- prefix.
local function why(path, fn, ...)
  local ok, e = pcall(fn, ...)
  assert.is_false(ok)
  local quoted = path:gsub("%p", "%%%0")
  return (tostring(e):gsub("^.-luma%.io%.[%w_]+: " .. quoted .. ": ", ""))
end

-- The mappings of path in this process (one line of /proc/self/maps each).
local function live_mappings(path)
  local n = 0
  for line in io.lines("/proc/self/maps") do
    if line:sub(-#path) == path then n = n + 1 end
  end
  return n
end

-- A field of /proc/self/status in MB ("RssAnon", "RssFile").
local function status_mb(field)
  for line in io.lines("/proc/self/status") do
    local kb = line:match("^" .. field .. ":%s+(%d+) kB")
    if kb then return tonumber(kb) / 1024 end
  end
  error("no " .. field .. " in /proc/self/status")
end

describe("read_npy {mmap = true} #smoke", function()
  local X = luma.random.Generator(3):normal(40, 5)
  local path

  before_each(function()
    path = os.tmpname()
    io_.write_npy(X, path)
  end)
  after_each(function() os.remove(path) end)

  it("maps the elements in place, copy-on-write: the file never changes", function()
    local A = mapped(path)
    assert.matrix_near(X, A, 0)
    assert.is_true(A:is_contiguous())
    A:set(1, 1, 99)
    A:row(2):fill(-1)
    A:mul(2, A) -- in place through the whole mapping
    assert.equal(198, A:get(1, 1))
    assert.matrix_near((X * 2):sub(3, 40), A:sub(3, 40), 0)
    assert.matrix_near(X, io_.read_npy(path), 0) -- the file still holds X
    assert.matrix_near(X, mapped(path), 0)      -- and so does a new mapping
  end)

  it("survives Luma's writers replacing the mapped file (they rename, never truncate)", function()
    -- Truncating a mapped file makes every access past its new end a SIGBUS;
    -- write_npy, write_csv, luma.save and open_npy "w+" write a new file
    -- and rename it over the path, so this mapping keeps the old pages.
    local A = mapped(path)
    io_.write_npy(luma.zeros(1, 1), path)
    assert.matrix_near(X, A, 0)
    luma.save(luma.zeros(1, 1), path)
    io_.open_npy(path, 1, 1, { mode = "w+" })
    assert.matrix_near(X, A, 0)
    assert.matrix_near({ { 0 } }, io_.read_npy(path), 0)
  end)

  it("serves products, reductions, views, saving and a model fit like any matrix", function()
    local A = mapped(path)
    assert.matrix_near(X:t() * X, A:t() * A, 1e-12)
    assert.matrix_near(X:sum(1), A:sum(1), 1e-12)
    assert.matrix_near(X:sub(5, 20, 2, 4):mean(2), A:sub(5, 20, 2, 4):mean(2), 1e-12)
    assert.matrix_near(X:col(3):t() * X:col(2), A:col(3):t() * A:col(2), 1e-12)
    assert.matrix_near(X:row(7) * X:row(8):t(), A:row(7) * A:row(8):t(), 1e-12)
    local y = X * M{ 1, -2, 0.5, 3, 0 } + 4
    local ref = luma.linear.Ridge{ alpha = 0.5 }:fit(X:sub(1, 30), y:sub(1, 30))
    local fit = luma.linear.Ridge{ alpha = 0.5 }:fit(A:sub(1, 30), y:sub(1, 30))
    assert.matrix_near(ref.coef, fit.coef, 1e-12)
    assert.matrix_near(ref:predict(X:sub(31, 40)), fit:predict(A:sub(31, 40)), 1e-12)
    local saved = os.tmpname()
    luma.save(A:sub(2, 5, 1, 3), saved) -- a view of a mapping saves its own elements
    assert.matrix_near(X:sub(2, 5, 1, 3), luma.load(saved), 0)
    os.remove(saved)
  end)

  it("maps a Fortran-order file as a column-major strided matrix", function()
    -- Decision (docs/MATRIX.md): a Fortran-order rows x cols array is the
    -- transpose of a C-order cols x rows one, so it maps with strides
    -- (1, rows) instead of failing; its transpose is C-contiguous.
    local fpath = support.write_temp(npy(
      "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
      string.pack("<dddddd", 1, 4, 2, 5, 3, 6)))
    local F = mapped(fpath)
    assert.matrix_near({ { 1, 2, 3 }, { 4, 5, 6 } }, F, 0)
    assert.matrix_near(io_.read_npy(fpath), F, 0)
    assert.is_false(F:is_contiguous())
    assert.is_true(F:t():is_contiguous())
    assert.matrix_near({ { 14, 32 }, { 32, 77 } }, F * F:t(), 0)
    assert.matrix_near({ { 5, 7, 9 } }, F:sum(1), 0)
    os.remove(fpath)
  end)

  it("lets the collector pace itself by the mapped bytes and unmap what is garbage", function()
    -- The collector sees only a mapped matrix's small headers: without the
    -- mapping charged as collector debt, this loop kept all 100 mappings
    -- of 8 MB alive (measured); charged, a cycle ends every few of them.
    local big = os.tmpname()
    io_.write_npy(luma.ones(1024, 1024), big)
    local most = 0
    for _ = 1, 100 do
      assert.equal(1024 * 1024, mapped(big):sum())
      most = math.max(most, live_mappings(big))
    end
    assert.is_true(most <= 10, most .. " mappings alive at once")
    collectgarbage()
    assert.equal(0, live_mappings(big))
    os.remove(big)
  end)
end)

describe("open_npy", function()
  local path
  before_each(function() path = os.tmpname() end)
  after_each(function() os.remove(path) end)

  it("creates a zero-filled file with \"w+\" whose writes land in the file", function()
    local W = io_.open_npy(path, 3, 2, { mode = "w+" })
    assert.matrix_near({ { 0, 0 }, { 0, 0 }, { 0, 0 } }, W, 0)
    W:set(1, 2, 7)
    W:row(3):assign(M{ { 8, 9 } })
    -- visible to another reader at once: the mapping is the file's pages
    assert.matrix_near({ { 0, 7 }, { 0, 0 }, { 8, 9 } }, io_.read_npy(path), 0)
    local col = W:col(1) -- a view keeps the mapping alive without its base
    W = nil
    collectgarbage()
    col:fill(-1)
    col = nil
    collectgarbage()
    assert.equal(0, live_mappings(path))
    assert.matrix_near({ { -1, 7 }, { -1, 0 }, { -1, 9 } }, io_.read_npy(path), 0)
    local f = assert(io.open(path, "rb"))
    assert.equal(128 + 6 * 8, #f:read("a")) -- the header, then the elements
    f:close()
  end)

  it("writes through with \"r+\" (the default) and copies on write with \"r\"", function()
    io_.write_npy(M{ { 1, 2 }, { 3, 4 } }, path)
    local R = io_.open_npy(path, { mode = "r" })
    R:set(1, 1, 100)
    assert.matrix_near({ { 1, 2 }, { 3, 4 } }, io_.read_npy(path), 0)
    local S = io_.open_npy(path, 2, 2) -- "r+", shape checked against the file
    S:set(2, 1, -3)
    assert.matrix_near({ { 1, 2 }, { -3, 4 } }, io_.read_npy(path), 0)
    assert.equal(100, R:get(1, 1)) -- R keeps its private copy of the page it wrote
    assert.matrix_near({ { 1, 2 }, { -3, 4 } }, io_.open_npy(path, nil, nil, { mode = "r" }), 0)
  end)

  it("creates an empty array", function()
    local E = io_.open_npy(path, 0, 4, { mode = "w+" })
    assert.same({ 0, 4 }, { E:shape() })
    assert.same({ 0, 4 }, { io_.read_npy(path):shape() })
    assert.same({ 0, 4 }, { mapped(path):shape() })
  end)

  it("checks its arguments", function()
    local function err(...)
      local ok, e = pcall(function(...)
        local A = io_.open_npy(...) -- not a tail call: the error names 'open_npy'
        return A
      end, ...)
      assert.is_false(ok)
      return (e:gsub("^[^:]*:%d+: ", "")) -- without the caller's position
    end
    assert.equal("bad argument #2 to 'open_npy' (rows must be in [0, 1099511627776], got -1)",
      err(path, -1, 2, { mode = "w+" }))
    assert.equal("bad argument #3 to 'open_npy' (cols must be in [0, 1099511627776], got -5)",
      err(path, 2, -5, { mode = "w+" }))
    assert.matches("number has no integer representation", err(path, 2.5, 2, { mode = "w+" }))
    assert.equal("bad argument #3 to 'open_npy' (a 1048576 x 1048577 array has more than "
      .. "2^40 elements)", err(path, 1 << 20, (1 << 20) + 1, { mode = "w+" }))
    assert.equal("bad argument #4 to 'open_npy' (option 'mode' must be one of r+|r|w+)",
      err(path, 2, 2, { mode = "a" }))
    assert.matches("unknown option 'mmap'", err(path, 2, 2, { mmap = true }))
    assert.equal("bad argument #2 to 'open_npy' (mode \"w+\" needs rows and cols)",
      err(path, { mode = "w+" }))
    io_.write_npy(luma.zeros(2, 3), path)
    assert.equal("holds a 2 x 3 array, not 3 x 2", why(path, io_.open_npy, path, 3, 2))
    local missing = path .. ".missing"
    assert.equal("luma.io.open_npy: cannot open " .. missing .. " (No such file or directory)",
      err(missing))
    assert.equal("luma.io.open_npy: /tmp is not a regular file", err("/tmp", { mode = "r" }))
    assert.equal("luma.io.open_npy: cannot create /nonexistent/x.npy (No such file or directory)",
      err("/nonexistent/x.npy", 1, 1, { mode = "w+" }))
    local _, e = pcall(io_.read_npy, path, { mode = "r" })
    assert.matches("unknown option 'mode'", e)
  end)
end)

describe("mapping bad .npy files", function()
  local paths = {}
  local function file(bytes)
    paths[#paths + 1] = support.write_temp(bytes)
    return paths[#paths]
  end
  after_each(function()
    for _, p in ipairs(paths) do os.remove(p) end
    paths = {}
  end)
  local f8 = "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), }"

  -- Each refusal holds for read_npy {mmap = true} and open_npy "r+".
  local function refused(bytes)
    local path = file(bytes)
    local msg = why(path, mapped, path)
    assert.equal(msg, why(path, io_.open_npy, path))
    return msg
  end

  it("refuses a file that is not a .npy file", function()
    assert.equal("not a .npy file (wrong magic)", refused("a,b,c\n1,2,3\n"))
    assert.equal("not a .npy file (wrong magic)", refused(""))
  end)

  it("refuses a truncated file before touching its data (never a SIGBUS past the end)", function()
    assert.equal("truncated data (the file is shorter than its shape says)",
      refused(npy(f8, string.rep("\0", 15 * 8))))
    assert.equal("truncated header", refused(npy(f8, ""):sub(1, 40)))
  end)

  it("refuses dtypes other than little-endian float64, suggesting mmap = false", function()
    local hint = "; luma.io.read_npy with mmap = false reads it (a converted copy)"
    local function dtype(descr, data)
      local dict = "{'descr': '" .. descr .. "', 'fortran_order': False, 'shape': (2,), }"
      return refused(npy(dict, data))
    end
    assert.equal("dtype '<f4' (float32) cannot be mapped as float64 elements" .. hint,
      dtype("<f4", string.pack("<ff", 1, 2)))
    assert.equal("dtype '>f8' (float64, big-endian) cannot be mapped as float64 elements" .. hint,
      dtype(">f8", string.pack(">dd", 1, 2)))
    assert.equal("dtype '<i8' (int64) cannot be mapped as float64 elements" .. hint,
      dtype("<i8", string.pack("<i8i8", 1, 2)))
    assert.equal("dtype '|u1' (uint8) cannot be mapped as float64 elements" .. hint,
      dtype("|u1", "\1\2"))
    assert.equal("dtype '|b1' (bool) cannot be mapped as float64 elements" .. hint,
      dtype("|b1", "\1\0"))
    -- the suggestion holds: the copying reader converts
    local path = file(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
      string.pack("<ff", 1.5, 2)))
    assert.matrix_near({ { 1.5 }, { 2 } }, io_.read_npy(path), 0)
  end)

  it("refuses data that does not start at a multiple of 8 bytes", function()
    -- NumPy pads headers to 64 bytes; a hand-made header may not: data at
    -- byte 68 would make every element misaligned.
    local dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"
    local hlen = 68 - 10
    local header = dict .. string.rep(" ", hlen - #dict - 1) .. "\n"
    local path = file("\147NUMPY\1\0" .. string.pack("<I2", hlen) .. header
      .. string.pack("<dd", 1, 2))
    assert.equal("the data starts at byte 68, not a multiple of 8, so it cannot be mapped as "
      .. "float64 elements; luma.io.read_npy with mmap = false reads it (a converted copy)",
      why(path, mapped, path))
    assert.matrix_near({ { 1 }, { 2 } }, io_.read_npy(path), 0)
  end)
end)

describe("file mapping in a sandboxed state", function()
  it("is refused by read_npy {mmap = true} and open_npy", function()
    -- A sandboxed state exists only through the C API: a small host
    -- compiled against this build's libluma.a runs the calls.
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    local host = assert(support.compile_host([[
#include <stdio.h>
#include "luma.h"
int main(int argc, char **argv) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  lua_State *L = luma_newstate(&opts);
  for (int i = 1; i < argc; i++) {
    if (luma_run_string(L, argv[i], "=sandboxed", 0) == LUA_OK) puts("ran");
    else puts(lua_tostring(L, -1));
    lua_settop(L, 0);
  }
  luma_close(L);
  return 0;
}
]], dir))
    local target = dir .. "/x.npy"
    local out, _, status = support.run(table.concat({ support.quote(host),
      support.quote("luma.io.read_npy('" .. target .. "', {mmap = true})"),
      support.quote("luma.io.open_npy('" .. target .. "', 2, 2, {mode = 'w+'})") }, " "))
    assert.equal(0, status)
    local first, second = out:match("^(.-)\n(.*)$")
    assert.matches("'luma.io.read_npy' is not available in a sandboxed state", first, 1, true)
    assert.matches("'luma.io.open_npy' is not available in a sandboxed state", second, 1, true)
    assert.is_nil(io.open(target, "rb")) -- nothing was created
    os.execute("rm -rf " .. support.quote(dir))
  end)
end)

describe("a 2 GB mapped file", function()
  it("is written in blocks and fits a model with anonymous memory well under its size", function()
    -- 4,194,304 x 64 doubles = 2^31 bytes.  Pages of a file mapping count
    -- in the process's RssFile: they are the page cache's, clean ones are
    -- dropped under memory pressure and dirty ones written back, so they
    -- need no RAM of the process's own.  What must stay small is RssAnon,
    -- the memory only this process holds (heap, Lua objects, copies): a
    -- fit that copied X would add 2 GB there.  Measured at 7 s on 2 cores.
    local n, d, block = 4194304, 64, 65536
    local path = os.tmpname()
    local df = io.popen("df -Pk " .. support.quote(path)):read("a")
    local free_kb = tonumber(df:match("\n%S+%s+%d+%s+%d+%s+(%d+)"))
    if not free_kb or free_kb < 3 * 1024 * 1024 then
      os.remove(path)
      pending("fewer than 3 GB free next to " .. path)
      return
    end
    -- Under the sanitizers, ASan's quarantine keeps up to 256 MB of freed
    -- blocks and its shadow adds an eighth of the heap.
    local bound = os.getenv("LUMA_SANITIZED") == "1" and 1024 or 512
    local most = 0
    local function sample() most = math.max(most, status_mb("RssAnon")) end

    local g = luma.random.Generator(11)
    local X = io_.open_npy(path, n, d, { mode = "w+" })
    for r = 1, n, block do
      X:sub(r, r + block - 1):assign(g:normal(block, d))
      if r % (16 * block) == 1 then sample() end
    end
    sample()
    X = nil
    collectgarbage() -- unmaps (the pages stay in the file)
    local f = assert(io.open(path, "rb"))
    assert.equal(128 + n * d * 8, f:seek("end"))
    f:close()

    local Xm = mapped(path)
    local w = luma.arange(1, d) * 0.125 - 4 -- y = X w + 3 exactly, up to rounding
    local y = Xm * w + 3
    sample()
    local m = luma.linear.LinearRegression{}:fit(Xm, y)
    sample()
    assert.matrix_near(w, m.coef, 1e-10)
    assert.near(3, m.intercept, 1e-10)
    assert.is_true(most < bound,
      string.format("RssAnon reached %.0f MB (bound %d MB)", most, bound))
    assert.is_true(status_mb("RssFile") > most, "the data was read through the mapping")
    Xm, m = nil, nil
    collectgarbage()
    os.remove(path)
  end)
end)
