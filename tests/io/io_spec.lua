-- luma.io: CSV and .npy files.  CSV expectations are read off the input
-- text; .npy inputs are built byte by byte from NumPy's format description
-- (docs: numpy.lib.format), and written files are checked byte for byte.
local luma = require("luma")
local io_ = luma.io
local M = luma.matrix
local npy = require("io.npy_bytes") -- a .npy file's bytes from a header dictionary and data

local function write(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

describe("read_csv #smoke", function()
  it("reads numbers under a header", function()
    local X, info = io_.read_csv(write("a,b,c\n1,2,3\n4.5,-6e2, 7\n"))
    assert.matrix_near({{1, 2, 3}, {4.5, -600, 7}}, X, 0)
    assert.same({ "a", "b", "c" }, info.columns)
    assert.equal(2, info.rows)
    assert.same({}, info.categories)
  end)

  it("handles quotes, CRLF, a BOM, NA values, comments and other delimiters", function()
    local text = "\239\187\191id;label;v\r\n# a comment\r\n1;\"semi;colon\";NA\r\n2;\"say \"\"hi\"\"\";\r\n"
      .. "3;\"two\nlines\";4\r\n"
    local X, info = io_.read_csv(write(text), { delimiter = ";", comment = "#" })
    assert.equal(3, X:rows())
    assert.same({ "id", "label", "v" }, info.columns)
    assert.same({ "semi;colon", "say \"hi\"", "two\nlines" }, info.categories.label)
    assert.matrix_near({{1, 1, 0 / 0}, {2, 2, 0 / 0}, {3, 3, 4}}, X, 0)
    local T = io_.read_csv(write("1\t2\n3\t4\n"), { delimiter = "\t", header = false })
    assert.matrix_near({{1, 2}, {3, 4}}, T, 0)
  end)

  it("maps text columns to codes in order of first appearance", function()
    local X, info = io_.read_csv(write("color,size\nred,1\nblue,2\nred,3\n,4\n"))
    assert.matrix_near({{1, 1}, {2, 2}, {1, 3}, {0 / 0, 4}}, X, 0)
    assert.same({ "red", "blue" }, info.categories.color)
    assert.is_nil(info.categories.size)
    -- a column with one non-number is categorical throughout
    local Y, yinfo = io_.read_csv(write("v\n10\nx\n10\n"))
    assert.matrix_near({{1}, {2}, {1}}, Y, 0)
    assert.same({ "10", "x" }, yinfo.categories.v)
  end)

  it("selects columns by name or index, in the order given", function()
    local path = write("a,b,c\n1,2,3\n4,5,6\n")
    local X, info = io_.read_csv(path, { columns = { "c", 1 } })
    assert.matrix_near({{3, 1}, {6, 4}}, X, 0)
    assert.same({ "c", "a" }, info.columns)
    local Y, yinfo = io_.read_csv(write("1,2\n3,4\n"), { header = false, columns = { 2 } })
    assert.matrix_near({{2}, {4}}, Y, 0)
    assert.same({ "2" }, yinfo.columns)
    local Z = io_.read_csv(write("junk line\nx\n1\n"), { skip_rows = 1 })
    assert.matrix_near({{1}}, Z, 0)
    local H, hinfo = io_.read_csv(write("a,b\n"))
    assert.same({ 0, 2 }, { H:shape() })
    assert.equal(0, hinfo.rows)
  end)

  it("parses CSV text without a file", function()
    local X, info = io_.parse_csv("x,y\n1,a\n2,b\n")
    assert.matrix_near({{1, 1}, {2, 2}}, X, 0)
    assert.same({ "a", "b" }, info.categories.y)
    assert.has_error(function() io_.parse_csv("a,b\n1\n") end,
      "luma.io.read_csv: the text: line 2 has 1 fields but the header has 2")
    assert.has_error(function() io_.parse_csv(42) end,
      "bad argument #1 to 'parse_csv' (string expected, got number)")
  end)

  it("round-trips through write_csv exactly", function()
    local A = M{{0.1, 1 / 3, -0.0}, {1e-300, 1e300, 2 ^ 53 + 2}, {0 / 0, math.huge, -math.huge}}
    local path = os.tmpname()
    io_.write_csv(path, A:t():t(), { header = { "x", "y,z", "q\"uote" } })
    assert.equal("x,\"y,z\",\"q\"\"uote\"\n", slurp(path):match("^[^\n]*\n"))
    local B, info = io_.read_csv(path)
    assert.matrix_near(A, B, 0)
    assert.same({ "x", "y,z", "q\"uote" }, info.columns)
    io_.write_csv(path, M{{1.5, 2}}, { delimiter = ";", precision = 3 })
    assert.equal("1.5;2\n", slurp(path))
  end)

  it("reports malformed files and bad options", function()
    local ragged = write("a,b\n1,2\n3\n")
    assert.has_error(function() io_.read_csv(ragged) end,
      "luma.io.read_csv: " .. ragged .. ": line 3 has 1 fields but the header has 2")
    local wide = write("a,b\n1,2,3\n")
    assert.has_error(function() io_.read_csv(wide) end,
      "luma.io.read_csv: " .. wide .. ": line 2 has more than the 2 fields of the header")
    local open = write("a\n\"never closed\n")
    assert.has_error(function() io_.read_csv(open) end,
      "luma.io.read_csv: " .. open .. ": the quoted field starting on line 2 never ends")
    local empty = write("")
    assert.has_error(function() io_.read_csv(empty) end, "luma.io.read_csv: " .. empty .. " is empty")
    assert.error_matches(function() io_.read_csv("/nonexistent/x.csv") end,
      "luma.io.read_csv: cannot open /nonexistent/x.csv %(No such file or directory%)")
    local ok = write("a,b\n1,2\n")
    assert.has_error(function() io_.read_csv(ok, { columns = { "z" } }) end,
      "bad argument #2 to 'read_csv' (option 'columns': z is not a column of " .. ok .. ")")
    assert.has_error(function() io_.read_csv(ok, { delimiter = ";;" }) end,
      "bad argument #2 to 'read_csv' (option 'delimiter' must be one character (not a quote or newline))")
    assert.has_error(function() io_.read_csv(ok, { sep = ";" }) end,
      "bad argument #2 to 'read_csv' (unknown option 'sep' (valid: header|delimiter|columns|na_values|skip_rows|comment))")
    assert.has_error(function() io_.write_csv(os.tmpname(), M{{1, 2}}, { header = { "a" } }) end,
      "bad argument #3 to 'write_csv' (option 'header' must list 2 column names)")
  end)
end)

describe("libsvm format #smoke", function()
  it("reads sparse rows into dense matrices and writes them back", function()
    local path = write("# a comment\n1 1:0.5 3:2\n-1 qid:3 2:4 # trailing comment\n\n0\n")
    local X, y = io_.read_libsvm(path)
    assert.matrix_near({{0.5, 0, 2}, {0, 4, 0}, {0, 0, 0}}, X, 0)
    assert.matrix_near({{1}, {-1}}, y:sub(1, 2), 0)
    local wide = io_.read_libsvm(path, { n_features = 5 })
    assert.same({ 3, 5 }, { wide:shape() })
    local out = os.tmpname()
    io_.write_libsvm(out, X, y)
    assert.equal("1 1:0.5 3:2\n-1 2:4\n0\n", slurp(out))
    local X2, y2 = io_.read_libsvm(out)
    assert.matrix_near(X, X2, 0)
    assert.matrix_near(y, y2, 0)
  end)

  it("names malformed lines", function()
    local bad = write("1 2:1 1:3\n")
    assert.has_error(function() io_.read_libsvm(bad) end, "luma.io.read_libsvm: " .. bad
      .. ": line 1: expected index:value with increasing indices from 1")
    local nolabel = write("x 1:2\n")
    assert.has_error(function() io_.read_libsvm(nolabel) end,
      "luma.io.read_libsvm: " .. nolabel .. ": line 1 has no label")
    local narrow = write("1 4:1\n")
    assert.has_error(function() io_.read_libsvm(narrow, { n_features = 2 }) end,
      "luma.io.read_libsvm: " .. narrow .. " uses feature 4 but n_features is 2")
    assert.has_error(function() io_.write_libsvm(os.tmpname(), M{{1}}, M{{1, 2}}) end,
      "bad argument #3 to 'write_libsvm' (y must be a 1 x 1 column, got 1 x 2)")
  end)
end)

describe("npy #smoke", function()
  it("reads every supported dtype, order and version", function()
    local function read(dict, data, major) return io_.read_npy(write(npy(dict, data, major))) end
    assert.matrix_near({{1, 2, 3}, {4, 5, 6}}, read(
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
      string.pack("<dddddd", 1, 2, 3, 4, 5, 6)), 0)
    assert.matrix_near({{1, 2, 3}, {4, 5, 6}}, read(
      "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
      string.pack("<dddddd", 1, 4, 2, 5, 3, 6)), 0)
    assert.matrix_near({{0.5}, {-2}}, read("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
      string.pack(">ff", 0.5, -2)), 0)
    assert.matrix_near({{-3, 7}}, read("{'descr': '<i2', 'fortran_order': False, 'shape': (1, 2), }",
      string.pack("<i2i2", -3, 7)), 0)
    assert.matrix_near({{-1}, {2 ^ 40}}, read("{'descr': '>i8', 'fortran_order': False, 'shape': (2,), }",
      string.pack(">i8i8", -1, 1 << 40)), 0)
    assert.matrix_near({{255}, {0}}, read("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }",
      "\255\0"), 0)
    assert.matrix_near({{1}, {0}}, read("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
      "\1\0"), 0)
    assert.matrix_near({{42}}, read("{'descr': '<u4', 'fortran_order': False, 'shape': (), }",
      string.pack("<I4", 42)), 0)
    assert.matrix_near({{7}}, read("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }",
      string.pack("<d", 7), 2), 0)
    assert.equal(0, read("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", ""):rows())
  end)

  it("writes what NumPy writes, byte for byte", function()
    local path = os.tmpname()
    io_.write_npy(path, M{{1, 2}, {3, 4}}:t()) -- a transposed view: 2 x 2 of 1 3 / 2 4
    local expected = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
      string.pack("<dddd", 1, 3, 2, 4))
    assert.equal(expected, slurp(path))
    assert.equal(0, (#expected - 32) % 64) -- data starts at a multiple of 64 (128 here)
    assert.matrix_near({{1, 3}, {2, 4}}, io_.read_npy(path), 0)
  end)

  it("rejects malformed, truncated and unsupported files", function()
    local function err(bytes)
      local path = write(bytes)
      local ok, e = pcall(io_.read_npy, path)
      assert.is_false(ok)
      return (e:gsub("^.-" .. path:gsub("%p", "%%%0") .. ": ", ""))
    end
    local f8 = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"
    assert.equal("not a .npy file (wrong magic)", err("PK\3\4whatever"))
    assert.equal("truncated data (the file is shorter than its shape says)",
      err(npy(f8, string.pack("<ddd", 1, 2, 3))))
    assert.equal("truncated header", err(npy(f8, ""):sub(1, 30)))
    assert.equal("unsupported .npy format version", err("\147NUMPY\9\0\10\0{}"))
    assert.equal("unsupported dtype (float64, float32, integers and bool are read)",
      err(npy("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", string.rep("\0", 16))))
    assert.equal("unsupported dtype (float64, float32, integers and bool are read)",
      err(npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "\0")))
    assert.equal("unsupported shape (at most two dimensions)",
      err(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1), }", string.pack("<d", 1))))
    assert.equal("shape too large",
      err(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 1000000000), }", "")))
    assert.equal("malformed header", err(npy("{'descr': '<f8', 'evil': __import__('os')}", "")))
  end)

  it("round-trips through NumPy when it is installed", function()
    local has_numpy = os.execute("/usr/bin/python3 -c 'import numpy' 2>/dev/null")
    if not has_numpy then
      pending("python3-numpy is not installed")
      return
    end
    local path = os.tmpname()
    io_.write_npy(path, M{{1.5, -2}, {0.25, 8}})
    local out = io.popen("/usr/bin/python3 -c \"import numpy as np; a = np.load('" .. path
      .. "'); np.save('" .. path .. ".npy', (a * 2).astype(np.float32).T)\""):read("a")
    assert.equal("", out)
    assert.matrix_near({{3, 0.5}, {-4, 16}}, io_.read_npy(path .. ".npy"), 0)
    os.remove(path .. ".npy")
  end)
end)
