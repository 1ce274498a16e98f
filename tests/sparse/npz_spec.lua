-- SciPy's .npz sparse format: files written by scipy.sparse.save_npz
-- (tests/sparse/fixtures, made by tests/sparse/reference/make_npz.py),
-- files SciPy reads back (when /usr/bin/python3 has scipy), and broken
-- archives refused with a message naming what is wrong.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse

local FIXTURES = "tests/sparse/fixtures/"
-- the matrix every fixture holds (make_npz.py's D)
local DENSE = { { 0, 1.5, 0, 0, -2 }, { 0, 0, 0, 0, 0 }, { 3, 0, 0.5, 0, 0 }, { 0, 0, 4, 0, 7 } }

local function assert_dense(expected, S)
  assert.are.same({ #expected, #expected[1] }, { S:shape() })
  for i = 1, #expected do
    for j = 1, #expected[1] do assert.equal(expected[i][j], S:get(i, j)) end
  end
end

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local bytes = f:read("a")
  f:close()
  return bytes
end

local function has_scipy()
  local ok = os.execute("/usr/bin/python3 -c 'import scipy.sparse' >/dev/null 2>&1")
  return ok == true or ok == 0
end

describe("reading .npz files SciPy wrote", function()
  it("reads csr (deflated) and csc (stored) in their own form", function()
    local A = sparse.read_npz(FIXTURES .. "csr_compressed.npz")
    assert.equal("csr", A:format())
    assert.equal(6, A:nnz())
    assert_dense(DENSE, A)
    local C = sparse.read_npz(FIXTURES .. "csc_stored.npz")
    assert.equal("csc", C:format())
    assert_dense(DENSE, C)
  end)

  it("reads coo as CSR, float32 and int64 data as float64, and sums duplicates", function()
    local O = sparse.read_npz(FIXTURES .. "coo_int64.npz")
    assert.equal("csr", O:format())
    assert.equal(3, O:nnz())
    assert.equal(5, O:get(3, 1)) -- 2 + 3 at the same place
    assert.equal(1, O:get(1, 2))
    assert.equal(-4, O:get(4, 5))
    assert_dense(DENSE, sparse.read_npz(FIXTURES .. "csr_float32.npz"))
    local U = sparse.read_npz(FIXTURES .. "csr_unsorted.npz")
    assert.equal(2, U:nnz())
    assert.equal(1.5, U:get(1, 2))
    assert.equal(-2, U:get(1, 5))
  end)

  it("reads from a string with bytes = true", function()
    local A = sparse.read_npz(slurp(FIXTURES .. "csr_compressed.npz"), { bytes = true })
    assert_dense(DENSE, A)
  end)

  it("refuses other dtypes and formats, and out-of-range indices", function()
    assert.error_matches(function() sparse.read_npz(FIXTURES .. "complex.npz") end,
      "bad argument #1 to 'read_npz' %(.-complex.npz: data.npy has dtype <c16; read_npz reads float, integer and bool data")
    assert.error_matches(function() sparse.read_npz(FIXTURES .. "dia.npz") end,
      "dia.npz holds a 'dia' matrix; read_npz reads csr, csc and coo")
    assert.error_matches(function() sparse.read_npz(FIXTURES .. "bad_index.npz") end,
      "bad_index.npz: entry 2 has column index 5, outside %[0, 5%)")
  end)

  it("refuses truncated and corrupted archives", function()
    local bytes = slurp(FIXTURES .. "csr_compressed.npz")
    local function read(b) return sparse.read_npz(b, { bytes = true }) end
    assert.error_matches(function() read(bytes:sub(1, 400)) end, "not a zip archive %(no end record; truncated%?%)")
    assert.error_matches(function() read(bytes:sub(1, 10)) end, "not a zip archive %(too short%)")
    assert.error_matches(function() read("") end, "too short")
    -- a flipped byte inside the first member's deflated data
    local k = 120
    local flipped = bytes:sub(1, k - 1) .. string.char(bytes:byte(k) ~ 0xff) .. bytes:sub(k + 1)
    assert.error_matches(function() read(flipped) end, "member indices.npy")
    -- the central directory cut short
    local eocd = bytes:find("PK\5\6", 1, true)
    assert.error_matches(function() read(bytes:sub(1, eocd - 10) .. bytes:sub(eocd)) end,
      "the bytes: a central directory that overlaps its end record %(damaged%)")
    assert.error_matches(function() sparse.read_npz("no/such/file.npz") end,
      "bad argument #1 to 'read_npz' %(cannot open no/such/file.npz")
    -- a zip that holds no format member
    local plain = sparse.npz_bytes(sparse.eye(2), { compressed = false }):gsub("format%.npy", "formax.npy")
    assert.error_matches(function() read(plain) end, "is not a scipy.sparse .npz %(no member format.npy%)")
  end)
end)

describe("writing .npz files", function()
  local g = luma.random.Generator(3)
  local R = sparse.random(60, 40, 0.1, g):scale(8)

  it("round-trips both kinds, compressed or not", function()
    for _, M in ipairs({ R, R:tocsc() }) do
      for _, compressed in ipairs({ true, false }) do
        local back = sparse.read_npz(sparse.npz_bytes(M, { compressed = compressed }), { bytes = true })
        assert.equal(M:format(), back:format())
        assert.is_true(M:todense() == back:todense())
        assert.equal(M:nnz(), back:nnz())
      end
    end
    local stored = sparse.npz_bytes(R, { compressed = false })
    assert.truthy(#sparse.npz_bytes(R) < #stored)
    -- members in SciPy's order, as numpy.save writes them
    local names = {}
    for name in stored:gmatch("PK\1\2.-(%a+%.npy)") do names[#names + 1] = name end
    assert.are.same({ "indices.npy", "indptr.npy", "format.npy", "shape.npy", "data.npy" }, names)
    assert.truthy(stored:find("{'descr': '<i4', 'fortran_order': False, 'shape': (240,), }", 1, true))
  end)

  it("writes files scipy.sparse.load_npz reads", function()
    if not has_scipy() then
      pending("/usr/bin/python3 has no scipy")
      return
    end
    local csr, csc = os.tmpname(), os.tmpname()
    sparse.write_npz(csr, R)
    sparse.write_npz(csc, R:tocsc(), { compressed = false })
    -- SciPy prints the sum of the squares and the checksum of the indices
    local cmd = string.format("/usr/bin/python3 -c \"import scipy.sparse as sp, sys\n"
      .. "for p in sys.argv[1:]:\n m = sp.load_npz(p); m.check_format(full_check=True)\n"
      .. " print(m.format, m.shape[0], m.shape[1], m.nnz, repr(float((m.multiply(m)).sum())))\" %s %s",
      csr, csc)
    local p = io.popen(cmd)
    local out = p:read("a")
    p:close()
    os.remove(csr)
    os.remove(csc)
    local squares = R:norm() ^ 2
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.equal(2, #lines)
    for k, fmt in ipairs({ "csr", "csc" }) do
      local f, r, c, nnz, sum = lines[k]:match("^(%a+) (%d+) (%d+) (%d+) (%S+)$")
      assert.equal(fmt, f)
      assert.are.same({ 60, 40, 240 }, { tonumber(r), tonumber(c), tonumber(nnz) })
      assert.near(squares, tonumber(sum), 1e-9 * squares)
    end
  end)

  it("refuses what is not a sparse matrix and unknown options", function()
    assert.error_matches(function() sparse.npz_bytes(luma.eye(2)) end,
      "bad argument #1 to 'npz_bytes' %(luma.SparseMatrix or luma.SparseCSC expected, got luma.Matrix%)")
    assert.error_matches(function() sparse.npz_bytes(R, { compress = true }) end, "compress")
    assert.error_matches(function() sparse.write_npz("/no/such/dir/x.npz", R) end,
      "bad argument #1 to 'write_npz' %(cannot open /no/such/dir/x.npz")
  end)
end)
