-- luma.sparse: every operation against the same operation on the dense
-- matrix (luma.Matrix), SciPy's values for a fixed example
-- (tests/sparse/reference.lua, made by reference.py), bad input, and the
-- thread-count independence of the products.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local sparse = luma.sparse
local ref = require("sparse.reference")
local M = luma.matrix

-- A sparse matrix with negative values and a few empty rows, and its
-- dense twin.
local function example(rows, cols, density, seed)
  local g = luma.random.Generator(seed or 7)
  local S = sparse.random(rows, cols, density, g)
  -- values in [-1, 1): scale rows by +-2 and shift is not sparse; use
  -- a row scaling with signs instead
  local signs = luma.zeros(rows, 1)
  for i = 1, rows do signs:set(i, 1, i % 3 == 0 and -2 or 1) end
  S = S:multiply_rows(signs)
  return S, S:todense()
end

-- The CSR arrays of S, 0-based like SciPy's, read through the public
-- methods (get on every position): for comparison with reference values.
local function same_as_reference(S, rows, cols, r)
  local dense = luma.zeros(rows, cols)
  for i = 1, rows do
    for k = r.indptr[i] + 1, r.indptr[i + 1] do dense:set(i, r.indices[k] + 1, r.data[k]) end
  end
  assert.equal(r.indptr[rows + 1], S:nnz())
  assert.is_true(S:todense() == dense)
end

describe("luma.sparse construction #smoke", function()
  it("csr sums duplicates and sorts columns as SciPy does", function()
    local S = sparse.csr(5, 6, ref.I, ref.J, ref.V)
    assert.same({ 5, 6 }, { S:shape() })
    same_as_reference(S, 5, 6, ref)
    -- indices and values as matrices (columns or rows) give the same
    local S2 = sparse.csr(5, 6, M(ref.I), M(ref.J):t(), M(ref.V))
    assert.is_true(S2:todense() == S:todense())
    assert.equal(5.5, S:get(2, 3)) -- -2 + 0.5 + 7
    assert.equal(6.5, S:get(5, 1)) -- 4 + 2.5
    assert.equal(0, S:get(1, 1))
  end)

  it("from_dense keeps |x| > tol, NaN included, and todense inverts it", function()
    local D = M{{0, 1e-3, 2}, {0 / 0, 0, -3}, {0, 0, 0}}
    local S = sparse.from_dense(D)
    assert.equal(4, S:nnz())
    local back = S:todense()
    assert.equal(2, back:get(1, 3))
    assert.is_true(back:get(2, 1) ~= back:get(2, 1))
    assert.equal(3, sparse.from_dense(D, 1e-2):nnz()) -- 1e-3 dropped, NaN kept
    -- from a view, and into a given out that is a transposed view
    local V = M{{1, 0}, {0, 2}, {3, 0}}:t()
    local out = luma.full(3, 2, 9):t()
    assert.equal(out, sparse.from_dense(V):todense(out))
    assert.is_true(out == V)
    assert.error_matches(function() S:todense(luma.zeros(2, 3)) end,
      "out is 2 x 3 but the result is 3 x 3")
  end)

  it("eye and random", function()
    assert.is_true(sparse.eye(4):todense() == luma.eye(4))
    assert.is_true(sparse.eye(2, 3):todense() == luma.eye(2, 3))
    assert.is_true(sparse.eye(3, 2):todense() == luma.eye(3, 2))
    assert.equal(0, sparse.eye(0):nnz())
    -- SciPy's entry counts: round(density * rows * cols), halves to even
    local counts = {}
    for k, d in ipairs({ 0.1, 0.5, 1 / 126, 1.5 / 63 }) do
      counts[k] = sparse.random(7, 9, d, luma.random.Generator(0)):nnz()
    end
    assert.same(ref.random_nnz, counts)
    -- every position distinct (canonical), values in [0, 1), reproducible
    local g1, g2 = luma.random.Generator(3), luma.random.Generator(3)
    local A, B = sparse.random(50, 40, 0.3, g1), sparse.random(50, 40, 0.3, g2)
    assert.equal(600, A:nnz())
    assert.is_true(A:todense() == B:todense())
    local D = A:todense()
    assert.equal(600, D:ne(0):sum())
    assert.is_true(D:min() >= 0 and D:max() < 1)
    -- density 1 fills every position
    assert.equal(12, sparse.random(3, 4, 1):nnz())
    assert.equal(0, sparse.from_dense(sparse.random(3, 4, 1):todense()):todense():eq(0):sum())
  end)

  it("prints its shape and first entries", function()
    local S = sparse.csr(2, 3, { 1, 2 }, { 3, 1 }, { 0.5, -2 })
    assert.equal("sparse matrix 2 x 3 (CSR), 2 stored entries\n  (1, 3)  0.5\n  (2, 1)  -2",
      tostring(S))
    assert.equal(2, #S)
    assert.is_true(sparse.issparse(S))
    assert.is_false(sparse.issparse(S:todense()))
    local big = tostring(sparse.eye(100))
    assert.truthy(big:find("\n  ...$"))
  end)
end)

describe("luma.sparse queries against the dense matrix", function()
  local S, D = example(30, 20, 0.15)

  it("shape, get, row, take and sub", function()
    assert.same({ 30, 20 }, { S:shape() })
    assert.equal(30, S:rows())
    assert.equal(20, S:cols())
    for i = 1, 30 do
      for j = 1, 20 do assert.equal(D:get(i, j), S:get(i, j)) end
    end
    assert.is_true(S:row(7):todense() == D:row(7))
    local idx = { 5, 1, 30, 5 }
    assert.is_true(S:take(idx):todense() == D:take(M(idx)))
    assert.is_true(S:take(M(idx)):todense() == D:take(M(idx)))
    assert.is_true(S:sub(4, 17):todense() == D:sub(4, 17))
    assert.is_true(S:sub():todense() == D)
    assert.equal(0, S:take({}):rows())
  end)

  it("coo lists the stored entries row by row, explicit zeros included", function()
    local S = luma.sparse.csr(3, 4, { 3, 1, 1, 3 }, { 2, 4, 1, 2 }, { 5, 7, 0, -1 })
    local i, j, v = S:coo()
    -- (3, 2) appears twice and is summed to 4; (1, 1) is a stored 0
    assert.matrix_near({ { 1 }, { 1 }, { 3 } }, i, 0)
    assert.matrix_near({ { 1 }, { 4 }, { 2 } }, j, 0)
    assert.matrix_near({ { 0 }, { 7 }, { 4 } }, v, 0)
    local ei, ej, ev = luma.sparse.csr(2, 2, {}, {}, {}):coo()
    assert.same({ 0, 0, 0 }, { ei:rows(), ej:rows(), ev:rows() })
  end)

  it("transpose", function()
    local T = S:t()
    assert.same({ 20, 30 }, { T:shape() })
    assert.is_true(T:todense() == D:t())
    assert.is_true(T:t():todense() == D)
  end)

  it("sum, mean and the Frobenius norm", function()
    local R = sparse.csr(5, 6, ref.I, ref.J, ref.V)
    assert.equal(ref.sum, R:sum())
    assert.matrix_near({ ref.sum1 }, R:sum(1))
    assert.matrix_near(M(ref.sum2), R:sum(2))
    assert.near(ref.mean, R:mean(), 1e-15)
    assert.equal(ref.fro, R:norm())
    assert.equal(ref.fro, R:norm("fro"))
    assert.near(D:sum(), S:sum(), 1e-12)
    assert.matrix_near(D:sum(1), S:sum(1))
    assert.matrix_near(D:sum(2), S:sum(2))
    assert.matrix_near(D:mean(1), S:mean(1))
    assert.matrix_near(D:mean(2), S:mean(2))
    assert.near(D:mean(), S:mean(), 1e-12)
    assert.near(math.sqrt((D ^ 2):sum()), S:norm(), 1e-12)
    local E = sparse.csr(0, 3, {}, {}, {})
    assert.equal(0, E:sum())
    assert.is_true(E:mean() ~= E:mean())
  end)

  it("scaling and diagonal scaling", function()
    assert.is_true(S:scale(-2.5):todense() == D * -2.5)
    assert.is_true((S * 3):todense() == D * 3)
    assert.is_true((3 * S):todense() == D * 3)
    local r = luma.linspace(1, 2, 30)
    local c = luma.linspace(-1, 1, 20)
    assert.is_true(S:multiply_rows(r):todense() == luma.diag(r) * D)
    assert.is_true(S:multiply_cols(c):todense() == D * luma.diag(c))
    assert.is_true(S:multiply_cols(c:t()):todense() == D * luma.diag(c))
  end)

  it("eliminate_zeros drops stored zeros only", function()
    local Z = sparse.csr(2, 3, { 1, 1, 2 }, { 1, 2, 3 }, { 0, 5, 0 })
    assert.equal(3, Z:nnz())
    local E = Z:eliminate_zeros()
    assert.equal(1, E:nnz())
    assert.is_true(E:todense() == Z:todense())
    assert.equal(3, Z:nnz()) -- immutable
    -- a product that cancels keeps its zero until eliminated, as SciPy
    local P = sparse.csr(1, 2, { 1, 1 }, { 1, 2 }, { 1, 1 }) * sparse.csr(2, 1, { 1, 2 }, { 1, 1 }, { 1, -1 })
    assert.equal(1, P:nnz())
    assert.equal(0, P:eliminate_zeros():nnz())
  end)
end)

describe("luma.sparse products", function()
  it("match SciPy on the reference example", function()
    local R = sparse.csr(5, 6, ref.I, ref.J, ref.V)
    assert.is_true(R:matmul(M(ref.B)) == M(ref.AB))
    local P = R * R:t()
    same_as_reference(P, 5, 5, ref.AAt)
  end)

  it("sparse x dense equals the dense product, also into out and from views", function()
    local S, D = example(200, 60, 0.05)
    local B = luma.random.Generator(9):normal(60, 7)
    local want = D * B
    assert.matrix_near(want, S:matmul(B))
    assert.matrix_near(want, S * B)
    local out = luma.zeros(200, 7)
    assert.equal(out, S:matmul(B, out))
    assert.matrix_near(want, out)
    -- a transposed (column-major) right operand is read through a copy
    local Bt = B:t():copy():t()
    assert.matrix_near(want, S:matmul(Bt))
    -- a vector
    assert.matrix_near(D * B:col(2), S * B:col(2))
  end)

  it("dense x sparse equals the dense product", function()
    local S, D = example(60, 45, 0.1)
    local A = luma.random.Generator(4):normal(13, 60)
    local want = A * D
    assert.matrix_near(want, A:matmul(S))
    assert.matrix_near(want, A * S)
    assert.matrix_near(want, sparse.dense_matmul(A, S))
    local out = luma.zeros(13, 45)
    sparse.dense_matmul(A:t():copy():t(), S, out)
    assert.matrix_near(want, out)
  end)

  it("sparse x sparse (Gustavson) equals the dense product and is canonical", function()
    local A, DA = example(40, 70, 0.08, 1)
    local B, DB = example(70, 35, 0.1, 2)
    local P = A * B
    assert.same({ 40, 35 }, { P:shape() })
    assert.matrix_near(DA * DB, P:todense())
    -- canonical: t():t() rebuilds the same arrays, so equal dense and nnz
    assert.equal(P:nnz(), P:t():t():nnz())
    -- rows dense enough to take the marker scan instead of the sort
    local W = sparse.random(5, 8, 0.9, luma.random.Generator(5))
    local V = sparse.random(8, 6, 0.9, luma.random.Generator(6))
    assert.matrix_near(W:todense() * V:todense(), (W * V):todense())
    assert.matrix_near(DA * DA:t(), (A * A:t()):todense())
  end)

  -- rows of about 2,000 columns out of 100,000: sorted by the quicksort
  -- path (short rows take insertion sort, dense ones the marker scan);
  -- the first 5,000 columns checked against the dense product, every
  -- row's columns checked strictly increasing in storage order
  it("sparse x sparse sorts long rows", function()
    local g = luma.random.Generator(21)
    local A = sparse.random(60, 400, 0.05, g)
    local B = sparse.random(400, 100000, 0.001, g)
    local P = A * B
    local i, j = P:coo()
    local longest, run = 0, 0
    for k = 1, P:nnz() do
      if k > 1 and i:get(k, 1) == i:get(k - 1, 1) then
        assert.is_true(j:get(k, 1) > j:get(k - 1, 1))
        run = run + 1
      else
        run = 1
      end
      longest = math.max(longest, run)
    end
    assert.is_true(longest > 1000, longest)
    assert.matrix_near(A:todense() * B:sub(1, 400, 1, 5000):todense(), P:sub(1, 60, 1, 5000):todense(), 1e-12)
    -- the same product on one thread and on several
    local saved = luma.config().threads
    luma.config{ threads = 1 }
    local one = A * B
    luma.config{ threads = math.max(2, luma.config().cores) }
    local many = A * B
    luma.config{ threads = saved }
    assert.equal(one:nnz(), many:nnz())
    assert.is_true(one:todense() == many:todense())
  end)

  it("are bit-identical for any thread count", function()
    local S = sparse.random(3000, 500, 0.01, luma.random.Generator(11))
    local B = luma.random.Generator(12):normal(500, 16)
    local A = luma.random.Generator(13):normal(40, 3000)
    local saved = luma.config().threads
    luma.config{ threads = 1 }
    local one, dense_one = S * B, A * S
    luma.config{ threads = math.max(2, luma.config().cores) }
    local many, dense_many = S * B, A * S
    luma.config{ threads = saved }
    assert.is_true(one == many)
    assert.is_true(dense_one == dense_many)
  end)

  it("handle empty shapes", function()
    local E = sparse.csr(0, 4, {}, {}, {})
    assert.same({ 0, 3 }, { (E * luma.zeros(4, 3)):shape() })
    assert.same({ 4, 0 }, { (sparse.eye(4) * luma.zeros(4, 0)):shape() })
    assert.same({ 0, 5 }, { (E * sparse.eye(4, 5)):shape() })
    assert.is_true(sparse.csr(3, 4, {}, {}, {}):matmul(luma.ones(4, 2)) == luma.zeros(3, 2))
  end)
end)

describe("luma.sparse bad input", function()
  local S = sparse.eye(3)

  it("names the function, the argument and both shapes", function()
    assert.error_matches(function() S:matmul(luma.zeros(4, 2)) end,
      "bad argument #1 to 'matmul' %(cannot multiply 3 x 3 by 4 x 2 %(inner dimensions differ%)%)")
    assert.error_matches(function() luma.zeros(2, 4):matmul(S) end,
      "cannot multiply 2 x 4 by 3 x 3 %(inner dimensions differ%)")
    assert.error_matches(function() local _ = S * sparse.eye(2) end,
      "cannot multiply 3 x 3 by 2 x 2 %(inner dimensions differ%)")
    assert.error_matches(function() S:matmul(luma.zeros(3, 2), luma.zeros(2, 2)) end,
      "out is 2 x 2 but the result is 3 x 2")
    assert.error_matches(function() S:matmul("x") end,
      "bad argument #1 to 'matmul' %(luma.Matrix, luma.SparseMatrix or luma.SparseCSC expected, got string%)")
    assert.error_matches(function() S:multiply_rows({ 1, 2 }) end,
      "bad argument #1 to 'multiply_rows' %(v has 2 elements but the matrix is 3 x 3 %(one per row%)%)")
    assert.error_matches(function() S:multiply_cols(luma.zeros(2, 2)) end,
      "v must be a vector %(n x 1 or 1 x n%), got a 2 x 2 matrix")
  end)

  it("refuses out-of-range and non-integer indices and bad sizes", function()
    assert.error_matches(function() sparse.csr(3, 4, { 1, 4 }, { 1, 1 }, { 1, 1 }) end,
      "bad argument #3 to 'csr' %(i%[2%] is 4, out of range %[1, 3%]%)")
    assert.error_matches(function() sparse.csr(3, 4, { 1 }, { 0 }, { 1 }) end,
      "bad argument #4 to 'csr' %(j%[1%] is 0, out of range %[1, 4%]%)")
    assert.error_matches(function() sparse.csr(3, 4, { 1.5 }, { 1 }, { 1 }) end,
      "i%[1%] is 1.5, not an integer index")
    assert.error_matches(function() sparse.csr(3, 4, { 0 / 0 }, { 1 }, { 1 }) end,
      "i%[1%] is [-]?nan, not an integer index")
    assert.error_matches(function() sparse.csr(3, 4, { 1, 2 }, { 1 }, { 1, 2 }) end,
      "bad argument #4 to 'csr' %(i has 2 elements but j has 1%)")
    assert.error_matches(function() sparse.csr(3, 4, { 1 }, { 1 }, { "x" }) end,
      "v%[1%] is a string, expected a number")
    assert.error_matches(function() sparse.csr(-1, 4, {}, {}, {}) end,
      "bad argument #1 to 'csr' %(rows must be in %[0, 2147483647%], got %-1%)")
    assert.error_matches(function() S:get(4, 1) end,
      "bad argument #1 to 'get' %(row index 4 out of range %[1, 3%]%)")
    assert.error_matches(function() S:take({ 1, 9 }) end, "indices%[2%] is 9, out of range %[1, 3%]")
    assert.error_matches(function() S:row(0) end, "row index 0 out of range %[1, 3%]")
    assert.error_matches(function() S:sub(3, 2) end, "last row 2 is before first row 3")
    assert.error_matches(function() S:sub(1, 2, 3, 2) end, "last column 2 is before first column 3")
    assert.error_matches(function() S:sub(1, 2, 1, 5) end, "last column index 5 out of range %[1, 3%]")
    assert.error_matches(function() S:sum(3) end, "dim must be 1 or 2, got 3")
    assert.error_matches(function() S:norm(2) end, "unknown norm 2.0 %(valid: \"fro\", 1, \"inf\"%)")
    assert.error_matches(function() S:norm("nuc") end, "unknown norm 'nuc'")
  end)

  it("refuses non-finite parameters", function()
    assert.error_matches(function() sparse.random(3, 3, 0 / 0) end,
      "bad argument #3 to 'random' %(density must be finite, got [-]?nan%)")
    assert.error_matches(function() sparse.random(3, 3, 1.5) end,
      "density must be in %[0, 1%], got 1.5")
    assert.error_matches(function() sparse.from_dense(luma.eye(2), math.huge) end,
      "bad argument #2 to 'from_dense' %(tol must be finite, got inf%)")
    assert.error_matches(function() sparse.from_dense(luma.eye(2), -1) end,
      "tol must be >= 0, got %-1")
    assert.error_matches(function() sparse.random(1 << 30, 1 << 30, 1) end,
      "asks for .* entries, more than 2%^40")
  end)
end)

describe("luma.sparse help", function()
  it("documents every function and method", function()
    for name, f in pairs(sparse) do
      if type(f) == "function" then
        assert.truthy(luma.help(f):find(name, 1, true), name)
      end
    end
    local text = luma.help(sparse.eye(1))
    for _, m in ipairs({ "matmul", "todense", "multiply_rows", "eliminate_zeros", "t", "take" }) do
      assert.truthy(text:find(m, 1, true), m)
    end
  end)
end)
