-- Regression tests for the bugs the reliability harness found (issue 8,
-- docs/RELIABILITY.md lists them with how they were found).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

describe("reliability regressions", function()
  it("k-medoids of a 0 x 0 distance matrix (an out-of-bounds read found by the API fuzzer)", function()
    local native = require("luma.cluster.native")
    local ok, err = pcall(native.kmedoids, luma.zeros(0, 0), 1)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("D must have at least one row, got 0 x 0", 1, true), err)
    -- one point, one medoid: itself
    local medoids = native.kmedoids(luma.zeros(1, 1), 1)
    assert.equal(1, medoids:get(1, 1))
    -- distances near DBL_MAX: every BUILD gain is -inf, and no medoid was
    -- picked; now the first candidates are, in order
    for k = 1, 3 do
      local m = native.kmedoids(luma.full(3, 3, 1e308), k)
      assert.equal(k, m:rows())
      for i = 1, k do assert.equal(i, m:get(i, 1)) end
    end
  end)

  it("luma.linalg.lu of an m x 0 matrix (heap overflow found by the API fuzzer)", function()
    -- The work buffer held max(m*n, 1) doubles but the permutation needs m.
    local P, L, U = luma.linalg.lu(luma.zeros(3, 0))
    assert.same({ 3, 3 }, { P:rows(), P:cols() })
    assert.same({ 3, 0 }, { L:rows(), L:cols() })
    assert.same({ 0, 0 }, { U:rows(), U:cols() })
    assert.equal(0, (P - luma.eye(3)):abs():max())
    local P2, L2, U2 = luma.linalg.lu(luma.zeros(5, 0):t():t())
    assert.equal(5, P2:trace())
    assert.same({ 5, 0, 0 }, { L2:rows(), L2:cols(), U2:rows() })
  end)

  it("tiles an empty matrix by huge counts at once (a 31 s native loop found by the API fuzzer)", function()
    local t0 = luma.now()
    local A = luma.zeros(0, 3):tile(1 << 40)
    assert.same({ 0, 3 }, { A:rows(), A:cols() })
    local B = luma.zeros(3, 0):tile(1 << 20, 1 << 20)
    assert.same({ 3 << 20, 0 }, { B:rows(), B:cols() })
    assert.is_true(luma.now() - t0 < 1, "took " .. (luma.now() - t0) .. " s")
  end)

  it("read_libsvm keeps each value on its own line (found reviewing the fuzz target)", function()
    -- strtod skips newlines: "5:" at the end of a line used to take the
    -- next line's label as its value, silently shifting the data.
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write("1 5:\n2 1:1\n")
    f:close()
    local ok, err = pcall(luma.io.read_libsvm, path)
    assert.is_false(ok)
    assert.matches("line 1: bad value after index 5", err, 1, true)
    f = assert(io.open(path, "wb"))
    f:write("\v\n1 1:1\n")
    f:close()
    ok, err = pcall(luma.io.read_libsvm, path)
    assert.is_false(ok)
    assert.matches("line 1 has no label", err, 1, true)
    f = assert(io.open(path, "wb"))
    f:write("1 1:0.5 3:2\n-1 2:1\n")
    f:close()
    local X, y = luma.io.read_libsvm(path)
    os.remove(path)
    assert.same({ 2, 3 }, { X:rows(), X:cols() })
    assert.same({ 0.5, 0, 2, 0, 1, 0 }, { X:get(1, 1), X:get(1, 2), X:get(1, 3), X:get(2, 1),
      X:get(2, 2), X:get(2, 3) })
    assert.same({ 1, -1 }, { y:get(1, 1), y:get(2, 1) })
  end)
end)
