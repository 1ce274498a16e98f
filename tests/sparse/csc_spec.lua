-- luma.SparseCSC: construction, conversion both ways, column slicing,
-- reductions, norms and products, each against the dense matrix it
-- holds (values are small integers and halves: sums are exact), and
-- luma.save of a CSC matrix (format tag 10).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse
local serial = require("luma.serial")

-- the 4 x 5 matrix of tests/sparse/reference/make_npz.py
local DENSE = { { 0, 1.5, 0, 0, -2 }, { 0, 0, 0, 0, 0 }, { 3, 0, 0.5, 0, 0 }, { 0, 0, 4, 0, 7 } }

local function assert_dense(expected, M)
  local r, c = M:shape()
  assert.equal(#expected, r)
  assert.equal(#expected[1], c)
  for i = 1, r do
    for j = 1, c do assert.equal(expected[i][j], M:get(i, j)) end
  end
end

local function to_table(M)
  local t = {}
  for i = 1, M:rows() do
    t[i] = {}
    for j = 1, M:cols() do t[i][j] = M:get(i, j) end
  end
  return t
end

describe("CSC matrices", function()
  local S = sparse.from_dense(luma.matrix(DENSE))
  local C = S:tocsc()

  it("hold the same elements as the CSR they come from, and convert back", function()
    assert.equal("csc", C:format())
    assert.equal("csr", S:format())
    assert.are.same({ 4, 5 }, { C:shape() })
    assert.equal(6, C:nnz())
    assert.equal(4, #C)
    assert_dense(DENSE, C:todense())
    assert_dense(DENSE, C)
    local back = C:tocsr()
    assert.equal("csr", back:format())
    assert_dense(DENSE, back:todense())
    assert.equal(C, C:tocsc()) -- immutable: itself
    assert.truthy(sparse.issparse(C))
    assert.truthy(tostring(C):find("4 x 5 %(CSC%), 6 stored entries\n  %(3, 1%)  3"))
  end)

  it("is built from coordinates, duplicates summed, like csr", function()
    local A = sparse.csc(3, 2, { 1, 3, 1, 1 }, { 2, 1, 2, 1 }, { 1, 2, 3, 4 })
    assert.equal(3, A:nnz())
    assert_dense({ { 4, 4 }, { 0, 0 }, { 2, 0 } }, A:todense())
    assert.equal("csr", sparse.csr(A):format())
    assert_dense({ { 4, 4 }, { 0, 0 }, { 2, 0 } }, sparse.csr(A):todense())
  end)

  it("transposes to a CSR holding the same arrays", function()
    local T = C:t()
    assert.equal("csr", T:format())
    assert_dense(to_table(S:t():todense()), T:todense())
  end)

  it("slices columns and rows on both kinds", function()
    local want = { { 1.5, 0, 0 }, { 0, 0, 0 }, { 0, 0.5, 0 } }
    assert_dense(want, C:sub(1, 3, 2, 4):todense())
    assert_dense(want, S:sub(1, 3, 2, 4):todense())
    assert.equal("csc", C:sub(1, 3, 2, 4):format())
    local cols = { { -2, 0, 0 }, { 0, 0, 0 }, { 0, 3, 3 }, { 7, 0, 0 } }
    assert_dense(cols, C:take_cols({ 5, 1, 1 }):todense())
    assert_dense(cols, S:take_cols({ 5, 1, 1 }):todense())
    assert.equal("csr", S:take_cols({ 5, 1, 1 }):format())
    assert_dense({ { 0 }, { 0 }, { 0.5 }, { 4 } }, C:col(3):todense())
    assert_dense({ { 0 }, { 0 }, { 0.5 }, { 4 } }, S:col(3):todense())
    assert.equal(0, C:sub(2, 2, 1, 5):nnz())
  end)

  it("sums, averages and scales per axis", function()
    assert.equal(14, C:sum())
    assert_dense({ { 3, 1.5, 4.5, 0, 5 } }, C:sum(1))
    assert_dense({ { -0.5 }, { 0 }, { 3.5 }, { 11 } }, C:sum(2))
    assert_dense({ { 0.75, 0.375, 1.125, 0, 1.25 } }, C:mean(1))
    assert.equal(14 / 20, C:mean())
    assert_dense({ { 0, 1.5, 0, 0, -2 }, { 0, 0, 0, 0, 0 }, { 9, 0, 1.5, 0, 0 }, { 0, 0, 16, 0, 28 } },
      C:multiply_rows({ 1, 2, 3, 4 }):todense())
    assert_dense({ { 0, 3, 0, 0, -10 }, { 0, 0, 0, 0, 0 }, { 3, 0, 1.5, 0, 0 }, { 0, 0, 12, 0, 35 } },
      C:multiply_cols({ 1, 2, 3, 4, 5 }):todense())
    assert_dense({ { 0, 3, 0, 0, -4 }, { 0, 0, 0, 0, 0 }, { 6, 0, 1, 0, 0 }, { 0, 0, 8, 0, 14 } },
      (2 * C):todense())
    assert.equal("csc", (C * 2):format())
  end)

  it("has the Frobenius, 1 and infinity norms on both kinds", function()
    -- 1.5^2 + 2^2 + 3^2 + 0.5^2 + 4^2 + 7^2 = 80.5
    assert.equal(math.sqrt(80.5), C:norm())
    assert.equal(9, C:norm(1))      -- column 5: |-2| + 7
    assert.equal(11, C:norm("inf")) -- row 4: 4 + 7
    assert.equal(9, S:norm(1))
    assert.equal(11, S:norm(math.huge))
  end)

  it("multiplies dense matrices from both sides, as the dense product does", function()
    local B = luma.matrix({ { 1, 2 }, { 3, 4 }, { 5, 6 }, { 7, 8 }, { 9, 10 } })
    local want = to_table(luma.matrix(DENSE) * B)
    assert_dense(want, C * B)
    assert_dense(want, C:matmul(B))
    local Dl = luma.matrix({ { 1, 2, 3, 4 }, { -1, 0, 1, 0.5 } })
    assert_dense(to_table(Dl * luma.matrix(DENSE)), Dl * C)
    assert_dense(to_table(luma.matrix(DENSE):t() * Dl:t()), C:tmatmul(Dl:t()))
    assert_dense(to_table(luma.matrix(DENSE):t() * Dl:t()), S:tmatmul(Dl:t()))
    -- sparse x sparse in any mix is CSR
    local P = C * C:t()
    assert.equal("csr", P:format())
    assert_dense(to_table(luma.matrix(DENSE) * luma.matrix(DENSE):t()), P:todense())
    assert_dense(to_table(luma.matrix(DENSE) * luma.matrix(DENSE):t()), (S * C:t():tocsc()):todense())
  end)

  it("gives bit-identical products for any thread count", function()
    local R = sparse.random(3000, 500, 0.01, luma.random.Generator(11)):tocsc()
    local B = luma.random.Generator(12):normal(500, 70)
    local A = luma.random.Generator(13):normal(40, 3000)
    local saved = luma.config().threads
    luma.config{ threads = 1 }
    local one, left_one, t_one = R * B, A * R, R:tmatmul(A:t())
    luma.config{ threads = math.max(2, luma.config().cores) }
    local many, left_many, t_many = R * B, A * R, R:tmatmul(A:t())
    luma.config{ threads = saved }
    assert.is_true(one == many)
    assert.is_true(left_one == left_many)
    assert.is_true(t_one == t_many)
    assert.matrix_near(R:todense() * B, one, 1e-12)
    assert.matrix_near(A * R:todense(), left_one, 1e-12)
  end)

  it("refuses bad arguments with the function's name", function()
    assert.error_matches(function() C:get(5, 1) end, "bad argument #1 to 'get' %(row index 5 out of range %[1, 4%]%)")
    assert.error_matches(function() C:take_cols({ 6 }) end, "indices%[1%] is 6, out of range %[1, 5%]")
    assert.error_matches(function() C:sub(1, 4, 3, 2) end, "last column 2 is before first column 3")
    assert.error_matches(function() C:matmul(luma.zeros(4, 2)) end,
      "cannot multiply 4 x 5 by 4 x 2 %(inner dimensions differ%)")
    assert.error_matches(function() local _ = luma.zeros(2, 5) * C end,
      "cannot multiply 2 x 5 by 4 x 5 %(inner dimensions differ%)")
    assert.error_matches(function() C:multiply_rows({ 1, 2 }) end,
      "v has 2 elements but the matrix is 4 x 5 %(one per row%)")
    assert.error_matches(function() sparse.csc(2, 2, { 3 }, { 1 }, { 1 }) end,
      "bad argument #3 to 'csc' %(i%[1%] is 3, out of range %[1, 2%]%)")
  end)

  it("round-trips through luma.save as format version 4", function()
    local bytes = serial.encode({ m = C })
    assert.equal(4, string.unpack("<I4", bytes, 9))
    local back = serial.decode(bytes).m
    assert.equal("csc", back:format())
    assert_dense(DENSE, back:todense())
    assert.equal(3, string.unpack("<I4", serial.encode(S), 9))
  end)
end)
