-- luma.save / luma.load: round trips of every kind of value, identical
-- predictions after reloading estimators and pipelines, and hostile files
-- (corrupted, truncated, wrong magic, future version, absurd sizes) that
-- must fail with a clear error and without allocating what they claim.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local serial = require("luma.serial")
local M = luma.matrix

local Ridge = estimator.class{
  name = "persist_test.Ridge", kind = "regressor", doc = "ridge",
  params = {
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty" },
    { name = "seed", type = "seed", doc = "seed" },
  },
  fit = function(self, X, y)
    local A = X:t() * X + luma.eye(X:cols()) * self.params.alpha
    self.coef = luma.linalg.solve(A, X:t() * y)
    self.info = { iterations = 1, solver = "cholesky" }
  end,
  predict = function(self, X) return X * self.coef end,
}

local function tmp() return os.tmpname() end

describe("persistence #smoke", function()
  it("round-trips plain values and matrices", function()
    local path = tmp()
    local value = { 1, 2.5, "three", true, false, n = math.mininteger, f = -0.0,
      inf = math.huge, m = M{{1, 2}, {3, 4}}, v = luma.arange(12):reshape(3, 4):t():sub(2, 3),
      e = luma.zeros(0, 3), nested = { deep = { deeper = "yes" } } }
    luma.save(value, path)
    local back = luma.load(path)
    os.remove(path)
    assert.same({ 1, 2.5, "three", true, false }, { back[1], back[2], back[3], back[4], back[5] })
    assert.equal(math.mininteger, back.n)
    assert.equal(math.huge, back.inf)
    assert.equal("-0.0", tostring(back.f))
    assert.matrix_near(value.m, back.m, 0)
    assert.matrix_near(value.v, back.v, 0) -- a view saves only its own elements
    assert.same({ 0, 3 }, { back.e:shape() })
    assert.equal("yes", back.nested.deep.deeper)
    assert.is_true(luma.ismatrix(luma.persist.decode(luma.persist.encode(M{ 0 / 0 }))))
  end)

  it("reloads estimators that predict identically", function()
    local X = luma.random.Generator(1):normal(20, 3)
    local y = X * M{1, 2, 3}
    local m = Ridge{ alpha = 0.5, seed = 3 }:fit(X, y)
    local path = tmp()
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.equal(Ridge, back.__class)
    assert.is_true(back:is_fitted())
    assert.same(m:get_params(), back:get_params())
    assert.matrix_near(m:predict(X), back:predict(X), 0)
    assert.equal("cholesky", back.info.solver)
    local unfitted = luma.persist.decode(luma.persist.encode(Ridge{}))
    assert.is_false(unfitted:is_fitted())
  end)

  it("reloads pipelines, search results and generators", function()
    local X = luma.random.Generator(2):normal(30, 2)
    local y = X * M{1, -1}
    local search = luma.model_selection.GridSearch{
      estimator = luma.pipeline.make_pipeline(Ridge{}), cv = 3,
      param_grid = { ridge__alpha = { 0.1, 10 } } }:fit(X, y)
    local back = luma.persist.decode(luma.persist.encode(search))
    assert.matrix_near(search:predict(X), back:predict(X), 0)
    assert.equal(tostring(search.results), tostring(back.results))
    local g = luma.random.Generator(9)
    g:normal()
    local g2 = luma.persist.decode(luma.persist.encode({ rng = g })).rng
    assert.equal(g:random(), g2:random())
  end)

  it("refuses what it cannot save", function()
    assert.has_error(function() luma.persist.encode({ f = print }) end,
      "luma.save: value.f is a function and cannot be saved")
    local t = {}
    t.self = t
    assert.has_error(function() luma.persist.encode(t) end,
      "luma.save: value.self contains itself (a cycle)")
    assert.has_error(function() luma.persist.encode(setmetatable({}, {})) end,
      "luma.save: value is a table and cannot be saved")
    assert.has_error(function() luma.save(1, 2) end,
      "bad argument #2 to 'save' (a file name expected, got number)")
    assert.error_matches(function() luma.save(1, "/nonexistent/dir/x.luma") end,
      "luma.save: cannot write /nonexistent/dir/x.luma %(No such file or directory%)")
  end)

  it("replaces files atomically and leaves no temporary behind", function()
    local dir = tmp()
    os.remove(dir)
    os.execute("mkdir " .. dir)
    local path = dir .. "/model.luma"
    luma.save({ version = 1 }, path)
    luma.save({ version = 2 }, path)
    assert.equal(2, luma.load(path).version)
    local listing = io.popen("ls -A " .. dir):read("a")
    assert.equal("model.luma\n", listing)
    os.execute("rm -r " .. dir)
  end)

  -- stat -c %a prints the permission bits in octal.
  local function mode_of(path)
    local p = io.popen("stat -c %a " .. path)
    local m = p:read("l")
    p:close()
    return m
  end

  it("gives a new file the umask's mode and keeps an existing file's mode", function()
    local dir = tmp()
    os.remove(dir)
    os.execute("mkdir " .. dir)
    local path = dir .. "/model.luma"
    -- A child shell with umask 027 saves a new file: 0666 & ~027 = 0640.
    local script = dir .. "/save.lua"
    local f = assert(io.open(script, "w"))
    f:write("luma.save({ 1 }, " .. string.format("%q", path) .. ")\n")
    f:close()
    assert(os.execute("umask 027 && " .. require("support").luma .. " " .. script))
    assert.equal("640", mode_of(path))
    -- An existing 0644 file stays 0644 when replaced (not 0600).
    os.execute("chmod 644 " .. path)
    luma.save({ 2 }, path)
    assert.equal("644", mode_of(path))
    assert.equal(2, luma.load(path)[1])
    os.execute("chmod 600 " .. path)
    luma.save({ 3 }, path)
    assert.equal("600", mode_of(path))
    os.execute("rm -r " .. dir)
  end)
end)

describe("hostile files", function()
  -- Builds a file around raw value bytes with a correct checksum, so only
  -- the value's declared sizes are wrong.
  local function with_checksum(body)
    local bytes = "LUMA\x89VAL" .. string.pack("<I4", 1) .. body
    local h = 0xcbf29ce484222325
    for i = 1, #bytes do h = ((h ~ bytes:byte(i)) * 0x100000001b3) end
    return bytes .. string.pack("<i8", h)
  end
  local good = serial.encode({ 1, 2, 3 })

  it("reject corruption, truncation, wrong magic and future versions", function()
    local flipped = good:sub(1, 20) .. string.char((good:byte(21) + 1) % 256) .. good:sub(22)
    assert.has_error(function() serial.decode(flipped) end,
      "luma.load: the string is corrupted (checksum mismatch)")
    assert.has_error(function() serial.decode(good:sub(1, #good - 3)) end,
      "luma.load: the string is corrupted (checksum mismatch)")
    assert.has_error(function() serial.decode(good:sub(1, 10)) end,
      "luma.load: the string is corrupted (truncated)")
    assert.has_error(function() serial.decode("PK\3\4 not a luma file") end,
      "luma.load: the string is not a Luma file (wrong magic)")
    local future = "LUMA\x89VAL" .. string.pack("<I4", 99) .. good:sub(13)
    assert.error_matches(function() serial.decode(future) end,
      "luma.load: the string has format version 99; this Luma %(" .. luma.VERSION:gsub("%.", "%%.")
        .. "%) reads up to 4")
  end)

  it("reject absurd declared sizes without allocating them", function()
    local huge_string = with_checksum("\5" .. string.pack("<I8", 1 << 60))
    assert.has_error(function() serial.decode(huge_string) end,
      "luma.load: the string is corrupted (a string longer than the file)")
    local huge_matrix = with_checksum("\7" .. string.pack("<I8<I8", 1 << 20, 1 << 10))
    assert.has_error(function() serial.decode(huge_matrix) end,
      "luma.load: the string is corrupted (a matrix larger than the file)")
    local impossible = with_checksum("\7" .. string.pack("<I8<I8", -1, 2))
    assert.has_error(function() serial.decode(impossible) end,
      "luma.load: the string is corrupted (a matrix of impossible size)")
    local huge_table = with_checksum("\6" .. string.pack("<I8", 1 << 62))
    assert.has_error(function() serial.decode(huge_table) end,
      "luma.load: the string is corrupted (a table larger than the file)")
    local deep = with_checksum(string.rep("\6" .. string.pack("<I8", 1) .. "\3" ..
      string.pack("<i8", 1), 200) .. "\0")
    assert.has_error(function() serial.decode(deep) end,
      "luma.load: the string is corrupted (nested too deeply)")
    assert.has_error(function() serial.decode(with_checksum("\42")) end,
      "luma.load: the string is corrupted (unknown value tag)")
    assert.has_error(function() serial.decode(with_checksum("\3" .. string.pack("<i8", 1) .. "\0")) end,
      "luma.load: the string is corrupted (trailing bytes after the value)")
  end)

  it("reject a string list in a version-1 file and absurd string-list sizes", function()
    -- tag 8 (a list of strings) arrived with format version 2
    assert.has_error(function() serial.decode(with_checksum("\8" .. string.pack("<I8", 0))) end,
      "luma.load: the string is corrupted (unknown value tag)")
    local v2 = "LUMA\x89VAL" .. string.pack("<I4", 2) .. "\8" .. string.pack("<I8", 1 << 60)
    local h = 0xcbf29ce484222325
    for i = 1, #v2 do h = ((h ~ v2:byte(i)) * 0x100000001b3) end
    assert.has_error(function() serial.decode(v2 .. string.pack("<i8", h)) end,
      "luma.load: the string is corrupted (a string list larger than the file)")
  end)

  it("never runs code named by a file", function()
    local evil = serial.encode({ __luma_type = "os.execute", params = {}, state = {} })
    assert.has_error(function() luma.persist.decode(evil) end,
      "luma.load: unknown estimator type 'os.execute' (define its class before loading)")
    local sneaky = serial.encode({ __luma_type = "luma.nonexistent.Thing" })
    assert.has_error(function() luma.persist.decode(sneaky) end,
      "luma.load: unknown estimator type 'luma.nonexistent.Thing' (define its class before loading)")
    assert.error_matches(function() luma.load("/nonexistent/model.luma") end,
      "luma.load: cannot open /nonexistent/model.luma")
  end)
end)

describe("format version 2", function()
  it("writes version 2 and stores lists of strings compactly", function()
    local bytes = serial.encode({ "Paris", "Lyon", "" })
    assert.equal(2, string.unpack("<I4", bytes, 9))
    -- magic, version, tag 8, count 3, then (length, bytes) for each string, checksum
    assert.equal("\8" .. string.pack("<I8", 3) .. string.pack("<I8", 5) .. "Paris"
      .. string.pack("<I8", 4) .. "Lyon" .. string.pack("<I8", 0), bytes:sub(13, -9))
    assert.same({ "Paris", "Lyon", "" }, serial.decode(bytes))
    -- a table that is not exactly a list of strings stays a table
    assert.same({ "a", 2 }, serial.decode(serial.encode({ "a", 2 })))
    assert.same({ "a", x = "b" }, serial.decode(serial.encode({ "a", x = "b" })))
  end)

  it("still loads files written in version 1", function()
    -- tests/io/fixtures/format-v1.luma was written by the build of commit 898f878
    -- (format version 1) with tests/io/fixtures/format-v1.lua
    local v = luma.load("tests/io/fixtures/format-v1.luma")
    assert.matrix_near({{1, 2.5}, {-3, 0 / 0}, {math.huge, -math.huge}}, v.X, 0)
    assert.same({ "alpha", "beta", "gamma" }, v.names)
    assert.equal("v1 fixture", v.label)
    assert.equal(42, v.n)
    assert.is_true(v.flag)
    assert.matrix_near({{0}, {1}, {1}}, v.y, 0)
    assert.matrix_near({{2, 3.5}}, v.scaler.mean, 0) -- the means of {1, 3} and {2, 5}
    assert.matrix_near({{0, 0}}, v.scaler:transform(luma.matrix{{2, 3.5}}), 1e-15)
  end)

  it("saves and loads Tables and Categoricals", function()
    local T = luma.Table({ x = { 1.5, 0 / 0, -2 }, city = { "Paris", false, "Lyon" } },
      { columns = { "x", "city" } })
    local path = os.tmpname()
    luma.save({ table = T, column = T.city }, path)
    local v = luma.load(path)
    os.remove(path)
    assert.is_true(luma.Table.is_table(v.table))
    assert.same({ "x", "city" }, v.table:names())
    assert.matrix_near({{1.5}, {0 / 0}, {-2}}, v.table.x, 0)
    assert.same({ "Lyon", "Paris" }, v.table.city.categories)
    assert.same({ "Paris", nil, "Lyon" }, v.table.city:totable())
    assert.is_true(luma.Table.is_categorical(v.column))
    assert.same({ "Paris", nil, "Lyon" }, v.column:totable())
  end)
end)
