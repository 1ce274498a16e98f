-- Element-wise arithmetic of sparse matrices: S + T, S - T, -S,
-- S:multiply, S:maximum, S:minimum, and sums with dense matrices.  Each
-- result is checked against the same operation on the dense matrices
-- (values are small integers and halves, so every sum and product is
-- exact), and its stored entries against SciPy's rule: positions whose
-- result is exactly zero are not stored (csr_binop_csr), a product with
-- a dense matrix keeps S's structure.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse

-- S has a row (2) that T lacks and T a column (4) that S lacks; S(1,1) +
-- T(1,1) cancels, so S + T stores 5 entries of the 6 positions.
local S_DENSE = { { 1, 0, 2, 0 }, { 0, 0, 0, -3 }, { 0, 4, 0.5, 0 } }
local T_DENSE = { { -1, 0, 0, 5 }, { 0, 0, 0, 0 }, { 0, 2, 1.5, 0 } }

local function dense(t) return luma.matrix(t) end
local S = sparse.from_dense(dense(S_DENSE))
local T = sparse.from_dense(dense(T_DENSE))

local function assert_same(expected, M)
  local r, c = expected:shape()
  assert.same({ r, c }, { M:shape() })
  for i = 1, r do
    for j = 1, c do assert.equal(expected:get(i, j), M:get(i, j)) end
  end
end

-- How many elements of a dense matrix are not zero.
local function nonzeros(M)
  local n = 0
  for i = 1, M:rows() do
    for j = 1, M:cols() do if M:get(i, j) ~= 0 then n = n + 1 end end
  end
  return n
end

local function elementwise(a, b, f)
  local out = luma.zeros(a:rows(), a:cols())
  for i = 1, a:rows() do
    for j = 1, a:cols() do out:set(i, j, f(a:get(i, j), b:get(i, j))) end
  end
  return out
end

describe("sparse element-wise arithmetic", function()
  it("adds and subtracts two sparse matrices, storing no exact zeros", function()
    local sum = S + T
    assert.is_true(sparse.issparse(sum))
    assert.equal("csr", sum:format())
    assert_same(dense({ { 0, 0, 2, 5 }, { 0, 0, 0, -3 }, { 0, 6, 2, 0 } }), sum:todense())
    assert.equal(5, sum:nnz())
    local diff = S - T
    assert_same(dense({ { 2, 0, 2, -5 }, { 0, 0, 0, -3 }, { 0, 2, -1, 0 } }), diff:todense())
    assert.equal(6, diff:nnz())
    -- S - S is empty, not a matrix of stored zeros
    assert.equal(0, (S - S):nnz())
    assert.equal(0, (S - S):sum())
  end)

  it("negates, and takes 0 + S, S - 0 and 0 - S", function()
    assert_same(dense(S_DENSE):mul(-1), (-S):todense())
    assert.equal(S:nnz(), (-S):nnz())
    assert_same(dense(S_DENSE), (0 + S):todense())
    assert_same(dense(S_DENSE), (S - 0):todense())
    assert_same(dense(S_DENSE):mul(-1), (0 - S):todense())
  end)

  it("multiplies element-wise, keeping the positions stored in both", function()
    local p = S:multiply(T)
    assert_same(dense({ { -1, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 8, 0.75, 0 } }), p:todense())
    assert.equal(3, p:nnz())
    assert_same(dense(S_DENSE):mul(2.5), S:multiply(2.5):todense())
  end)

  it("takes the element-wise maximum and minimum with implicit zeros, NaN winning", function()
    assert_same(dense({ { 1, 0, 2, 5 }, { 0, 0, 0, 0 }, { 0, 4, 1.5, 0 } }), S:maximum(T):todense())
    assert.equal(5, S:maximum(T):nnz()) -- max(-3, 0) = 0 is not stored
    assert_same(dense({ { -1, 0, 0, 0 }, { 0, 0, 0, -3 }, { 0, 2, 0.5, 0 } }), S:minimum(T):todense())
    assert.equal(4, S:minimum(T):nnz())
    local N = sparse.csr(3, 4, { 1 }, { 2 }, { 0 / 0 })
    local m = S:maximum(N)
    assert.is_true(m:get(1, 2) ~= m:get(1, 2))
    m = N:minimum(S)
    assert.is_true(m:get(1, 2) ~= m:get(1, 2))
  end)

  it("sums a sparse and a dense matrix into a dense one, either way round", function()
    local D = dense({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } })
    local expected = D + dense(S_DENSE)
    assert.is_true(luma.ismatrix(S + D))
    assert_same(expected, S + D)
    assert_same(expected, D + S)
    assert_same(expected, D:add(S))
    assert_same(D - dense(S_DENSE), D - S)
    assert_same(dense(S_DENSE) - D, S - D)
    assert_same(dense(S_DENSE) - D, S:tocsc() - D)
    assert_same(D - dense(S_DENSE), D - S:tocsc())
  end)

  it("multiplies by a dense matrix of S's shape, keeping S's structure, or by a row or column", function()
    local D = dense({ { 2, 7, 0, 1 }, { 1, 1, 1, 1 }, { 3, 1, 4, 9 } })
    local p = S:multiply(D)
    assert_same(dense({ { 2, 0, 0, 0 }, { 0, 0, 0, -3 }, { 0, 4, 2, 0 } }), p:todense())
    assert.equal(S:nnz(), p:nnz()) -- 2 * 0 stays stored, as SciPy's product with a dense matrix
    assert_same(dense({ { 2, 0, 0, 0 }, { 0, 0, 0, -3 }, { 0, 4, 2, 0 } }), S:tocsc():multiply(D):todense())
    assert.equal("csc", S:tocsc():multiply(D):format())
    local row = dense({ { 1, 2, 3, 4 } })
    assert_same(dense({ { 1, 0, 6, 0 }, { 0, 0, 0, -12 }, { 0, 8, 1.5, 0 } }), S:multiply(row):todense())
    local col = dense({ { 2 }, { 3 }, { 4 } })
    assert_same(dense({ { 2, 0, 4, 0 }, { 0, 0, 0, -9 }, { 0, 16, 2, 0 } }), S:multiply(col):todense())
  end)

  it("gives the left operand's format when CSR and CSC meet", function()
    local C = S:tocsc()
    assert.equal("csc", (C + T):format())
    assert.equal("csr", (S + T:tocsc()):format())
    assert.equal("csc", (C - T:tocsc()):format())
    assert.equal("csc", C:multiply(T):format())
    assert.equal("csc", (-C):format())
    for _, M in ipairs({ C + T, S + T:tocsc(), C + T:tocsc() }) do
      assert_same((S + T):todense(), M:todense())
      assert.equal(5, M:nnz())
    end
    assert_same(S:maximum(T):todense(), C:maximum(T):todense())
    assert_same(S:minimum(T):todense(), S:minimum(T:tocsc()):todense())
  end)

  it("agrees with dense arithmetic on random matrices, entry for entry", function()
    local g = luma.random.Generator(7)
    for _, shape in ipairs({ { 40, 30 }, { 1, 50 }, { 50, 1 }, { 0, 5 } }) do
      -- integers 0..3 and quarters: every result below is exact
      local A = sparse.from_dense(sparse.random(shape[1], shape[2], 0.2, g):todense():mul(4):floor())
      local B = sparse.from_dense(sparse.random(shape[1], shape[2], 0.3, g):todense():mul(4):floor():div(4))
      local a, b = A:todense(), B:todense()
      local cases = {
        { A + B, elementwise(a, b, function(x, y) return x + y end) },
        { A - B, elementwise(a, b, function(x, y) return x - y end) },
        { A:multiply(B), elementwise(a, b, function(x, y) return x * y end) },
        { A:maximum(B), elementwise(a, b, math.max) },
        { A:minimum(B), elementwise(a, b, math.min) },
      }
      for _, c in ipairs(cases) do
        assert_same(c[2], c[1]:todense())
        assert.equal(nonzeros(c[2]), c[1]:nnz())
      end
    end
  end)

  it("rejects other shapes, nonzero numbers and other types, naming the problem", function()
    local E = sparse.eye(3)
    assert.has_error(function() return S + E end,
      "bad argument #2 to 'add' (cannot add a 3 x 4 and a 3 x 3 matrix element-wise)")
    assert.has_error(function() return S - luma.ones(4, 3) end,
      "bad argument #2 to 'sub' (cannot subtract a 3 x 4 and a 4 x 3 matrix element-wise)")
    assert.has_error(function() return luma.ones(4, 3) + S end,
      "bad argument #2 to 'add' (cannot add a 4 x 3 and a 3 x 4 matrix element-wise)")
    assert.has_error(function() return S:multiply(E) end,
      "bad argument #1 to 'multiply' (cannot multiply a 3 x 4 and a 3 x 3 matrix element-wise)")
    assert.has_error(function() return S:multiply(luma.ones(2, 2)) end,
      "bad argument #1 to 'multiply' (cannot multiply a 3 x 4 and a 2 x 2 matrix element-wise)")
    assert.has_error(function() return S:maximum(E) end,
      "bad argument #1 to 'maximum' (cannot take the maximum of a 3 x 4 and a 3 x 3 matrix element-wise)")
    assert.has_error(function() return S + 1 end,
      "bad argument #2 to 'add' (cannot add a nonzero number and a sparse matrix (every element "
        .. "would become stored): use S:todense())")
    assert.has_error(function() return 2 - S end)
    assert.has_error(function() return S + "1" end)
    assert.has_error(function() return S:maximum(luma.ones(3, 4)) end,
      "bad argument #1 to 'maximum' (luma.SparseMatrix or luma.SparseCSC expected, got luma.Matrix)")
    assert.has_error(function() return S:multiply("x") end)
    -- a dense add with an out argument stays dense-only
    assert.has_error(function() return luma.ones(3, 4):add(S, luma.zeros(3, 4)) end)
  end)
end)
