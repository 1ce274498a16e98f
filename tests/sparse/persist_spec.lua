-- Sparse matrices in files: luma.save / luma.load (format tag 9, format
-- version 3), hostile files, and LIBSVM text (compared with what
-- scikit-learn's load_svmlight_file reads, tests/sparse/reference.lua).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse
local serial = require("luma.serial")
local ref = require("sparse.reference")
local support = require("support")

-- The format's checksum (FNV-1a 64) over bytes, appended.
local function seal(bytes)
  local h = 0xcbf29ce484222325
  for i = 1, #bytes do h = (h ~ bytes:byte(i)) * 0x100000001b3 end
  return bytes .. string.pack("<i8", h)
end

-- A version-3 file holding one sparse matrix given by its raw fields.
local function sparse_file(rows, cols, indptr, indices, data, version)
  local parts = { "LUMA\x89VAL", string.pack("<I4", version or 3), "\9",
    string.pack("<i8<i8<i8", rows, cols, #data) }
  for _, p in ipairs(indptr) do parts[#parts + 1] = string.pack("<i8", p) end
  for _, c in ipairs(indices) do parts[#parts + 1] = string.pack("<i8", c) end
  for _, v in ipairs(data) do parts[#parts + 1] = string.pack("<d", v) end
  return seal(table.concat(parts))
end

describe("saving sparse matrices", function()
  it("round-trips through luma.save and luma.load, inside tables too", function()
    local S = sparse.random(40, 30, 0.1, luma.random.Generator(2))
    local path = os.tmpname()
    luma.save({ X = S, note = "tf-idf", empty = sparse.csr(0, 5, {}, {}, {}) }, path)
    local back = luma.load(path)
    os.remove(path)
    assert.is_true(sparse.issparse(back.X))
    assert.equal(S:nnz(), back.X:nnz())
    assert.is_true(back.X:todense() == S:todense())
    assert.same({ 0, 5 }, { back.empty:shape() })
    assert.equal("tf-idf", back.note)
    -- explicit zeros are saved as stored
    local Z = sparse.csr(1, 2, { 1 }, { 2 }, { 0 })
    assert.equal(1, luma.persist.decode(luma.persist.encode(Z)):nnz())
  end)

  it("writes format version 3 only for values holding a sparse matrix", function()
    local with = serial.encode({ sparse.eye(2) })
    local without = serial.encode({ luma.eye(2) })
    assert.equal(3, string.unpack("<I4", with, 9))
    assert.equal(2, string.unpack("<I4", without, 9))
    -- the bytes are the documented layout: tag 9, rows, cols, nnz, indptr,
    -- indices (0-based), data
    local one = serial.encode(sparse.csr(2, 3, { 2 }, { 3 }, { 1.5 }))
    assert.equal(sparse_file(2, 3, { 0, 0, 1 }, { 2 }, { 1.5 }), one)
  end)
end)

describe("hostile sparse files", function()
  local function refused(bytes, why)
    assert.has_error(function() serial.decode(bytes) end,
      "luma.load: the string is corrupted (" .. why .. ")")
  end

  it("are clean errors naming what is wrong", function()
    -- sound, for contrast
    assert.equal(1.5, serial.decode(sparse_file(2, 3, { 0, 0, 1 }, { 2 }, { 1.5 })):get(2, 3))
    refused(sparse_file(2, 3, { 1, 1, 1 }, { 2 }, { 1.5 }),
      "a sparse matrix whose indptr does not start at 0")
    refused(sparse_file(3, 3, { 0, 2, 1, 2 }, { 0, 1 }, { 1, 2 }),
      "a sparse matrix whose indptr decreases at row 2")
    refused(sparse_file(2, 3, { 0, 0, 0 }, { 2 }, { 1.5 }),
      "a sparse matrix whose indptr does not end at its entry count")
    refused(sparse_file(2, 3, { 0, 5, 1 }, { 2 }, { 1.5 }),
      "a sparse matrix whose indptr does not end at its entry count")
    refused(sparse_file(2, 3, { 0, 0, 1 }, { 3 }, { 1.5 }),
      "a sparse matrix whose entry 1 has column index 3, outside [0, 3)")
    refused(sparse_file(2, 3, { 0, 0, 1 }, { -1 }, { 1.5 }),
      "a sparse matrix whose entry 1 has column index -1, outside [0, 3)")
    refused(sparse_file(1, 3, { 0, 2 }, { 2, 1 }, { 1, 2 }),
      "a sparse matrix whose columns are not sorted and distinct within a row, at entry 2")
    refused(sparse_file(1, 3, { 0, 2 }, { 1, 1 }, { 1, 2 }),
      "a sparse matrix whose columns are not sorted and distinct within a row, at entry 2")
  end)

  it("refuse impossible sizes before allocating", function()
    local head = "LUMA\x89VAL" .. string.pack("<I4", 3) .. "\9"
    refused(seal(head .. string.pack("<i8<i8<i8", -1, 3, 0)), "a sparse matrix of impossible size")
    refused(seal(head .. string.pack("<i8<i8<i8", 2, 2, 5)), "a sparse matrix of impossible size")
    refused(seal(head .. string.pack("<i8<i8<i8", 1 << 30, 1 << 30, 1 << 40)),
      "a sparse matrix larger than the file")
    refused(seal(head .. string.pack("<i8<i8<i8", 1000, 10, 0)),
      "a sparse matrix larger than the file")
    -- tag 9 did not exist in versions 1 and 2
    refused(sparse_file(2, 3, { 0, 0, 1 }, { 2 }, { 1.5 }, 2), "unknown value tag")
  end)
end)

describe("read_libsvm", function()
  it("reads what scikit-learn's load_svmlight_file reads", function()
    local X, y = sparse.read_libsvm(ref.libsvm.text, { text = true, n_features = 7 })
    assert.is_true(X:todense() == luma.matrix(ref.libsvm.X))
    assert.is_true(y == luma.matrix(ref.libsvm.y))
    -- without n_features the columns are the largest index
    assert.equal(7, select(2, sparse.read_libsvm(ref.libsvm.text, { text = true }):shape()))
    assert.equal(5, sparse.read_libsvm(ref.libsvm.text, { text = true }):nnz())
  end)

  it("reads files, without a final newline and with CRLF", function()
    local path = support.write_temp("+1 2:1.5e0\r\n-1 1:-2 10:0.25", ".svm")
    local X, y = sparse.read_libsvm(path)
    os.remove(path)
    assert.same({ 2, 10 }, { X:shape() })
    assert.equal(1.5, X:get(1, 2))
    assert.equal(0.25, X:get(2, 10))
    assert.is_true(y == luma.matrix{ 1, -1 })
  end)

  it("names the line of malformed input", function()
    local function bad(text, pattern, opts)
      opts = opts or {}
      opts.text = true
      assert.error_matches(function() sparse.read_libsvm(text, opts) end, pattern)
    end
    bad("1 1:1\nx 2:1\n", "bad argument #1 to 'read_libsvm' %(the text, line 2: the label is "
      .. "not a finite number%)")
    bad("1 1:1\n\n1 0:1\n", "line 3: a feature index is not in %[1, 2%^31 %- 1%]")
    bad("1 3:1 2:1\n", "line 1, feature 2: feature indices must increase along a line")
    bad("1 3:1 3:1\n", "line 1, feature 3: feature indices must increase")
    bad("1 3:nan\n", "line 1, feature 3: a feature value is not a finite number")
    bad("1 3:1x\n", "line 1, feature 3: a feature value is not a finite number")
    bad("1 3\n", "line 1: expected index:value")
    bad("1 a:1\n", "line 1: expected index:value")
    bad("inf 1:1\n", "line 1: the label is not a finite number")
    bad("1 9:1\n", "bad argument #2 to 'read_libsvm' %(the text has feature index 9 but "
      .. "n_features is 4%)", { n_features = 4 })
    assert.error_matches(function() sparse.read_libsvm("/nonexistent/x.svm") end,
      "cannot open /nonexistent/x.svm")
    assert.error_matches(function() sparse.read_libsvm("1 1:1", { txt = true }) end,
      "unknown option")
  end)
end)
