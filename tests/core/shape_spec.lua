-- Construction (diag, linspace, arange, stacking), rearrangement (reshape,
-- flatten, take, select, tile, slice, assign) and A[i][j] indexing, on
-- contiguous matrices and on views.  Expected values are written out by
-- hand from the definitions.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local M = luma.matrix

-- {{1,2,3},{4,5,6}} three ways: contiguous, transposed storage, and a
-- block inside a larger matrix.
local function layouts()
  local big = luma.full(4, 6, 100)
  local block = big:sub(2, 3, 2, 4)
  block:assign(M{{1, 2, 3}, {4, 5, 6}})
  return { contiguous = M{{1, 2, 3}, {4, 5, 6}}, transposed = M{{1, 4}, {2, 5}, {3, 6}}:t(),
           block = block }
end

describe("construction #smoke", function()
  it("builds and extracts diagonals", function()
    assert.matrix_near({{1, 0}, {0, 2}}, luma.diag{1, 2})
    assert.matrix_near({{0, 7, 0}, {0, 0, 8}, {0, 0, 0}}, luma.diag(M{7, 8}, 1))
    assert.matrix_near({{0, 0}, {5, 0}}, luma.diag(M{{5}}, -1))
    local A = M{{1, 2, 3}, {4, 5, 6}}
    assert.matrix_near({{1}, {5}}, luma.diag(A))
    assert.matrix_near({{2}, {6}}, luma.diag(A, 1))
    assert.matrix_near({{4}}, luma.diag(A, -1))
    local D = A:diag()
    D:assign(0) -- a view: writes reach A
    assert.matrix_near({{0, 2, 3}, {4, 0, 6}}, A)
    assert.matrix_near({{3}}, A:diag(2))
  end)

  it("spaces points evenly with exact end points", function()
    assert.matrix_near({{0}, {0.25}, {0.5}, {0.75}, {1}}, luma.linspace(0, 1, 5))
    assert.equal(50, luma.linspace(0, 1):rows())
    assert.matrix_near({{3}}, luma.linspace(3, 9, 1))
    assert.equal(0, luma.linspace(0, 1, 0):rows())
    assert.equal(0.3, luma.linspace(0.1, 0.3, 3):get(3, 1))
  end)

  it("counts like Lua's numeric for, ends included", function()
    assert.matrix_near({{1}, {2}, {3}, {4}}, luma.arange(4))
    assert.matrix_near({{2}, {4}, {6}}, luma.arange(2, 7, 2))
    assert.matrix_near({{5}, {4}, {3}}, luma.arange(5, 3, -1))
    assert.equal(11, luma.arange(0, 1, 0.1):rows()) -- 1 included despite 0.1's rounding
    assert.equal(0, luma.arange(3, 1):rows())
    assert.equal(0, luma.arange(0):rows())
  end)

  it("stacks matrices and views", function()
    local A, B = M{{1, 2}, {3, 4}}, M{{5}, {6}}
    assert.matrix_near({{1, 2, 5}, {3, 4, 6}}, luma.hstack{A, B})
    assert.matrix_near({{1, 2}, {3, 4}, {1, 3}}, luma.vstack{A, A:col(1):t()})
    assert.matrix_near({{1, 3, 1, 2}, {2, 4, 3, 4}}, luma.hstack{A:t(), A})
  end)

  it("finds nonzero positions", function()
    assert.matrix_near({{2}, {3}, {6}}, M.find(M{{0, 1, 2}, {0, 0, -1}}))
    assert.equal(0, M.find(luma.zeros(2, 2)):rows())
  end)
end)

describe("rearrangement #smoke", function()
  for name, A in pairs(layouts()) do
    it("reshapes and flattens " .. name .. " input in row-major order", function()
      assert.matrix_near({{1, 2}, {3, 4}, {5, 6}}, A:reshape(3, 2))
      assert.matrix_near({{1, 2, 3, 4, 5, 6}}, A:reshape(1, -1))
      assert.matrix_near({{1}, {2}, {3}, {4}, {5}, {6}}, A:flatten())
      assert.matrix_near({{1, 2}, {3, 4}, {5, 6}}, A:reshape(-1, 2))
    end)

    it("takes rows and columns of " .. name .. " input", function()
      assert.matrix_near({{4, 5, 6}, {1, 2, 3}, {4, 5, 6}}, A:take{2, 1, 2})
      assert.matrix_near({{3, 1}, {6, 4}}, A:take(M{3, 1}, 2))
      local out = luma.zeros(1, 3)
      assert.equal(out, A:take({2}, 1, out))
      assert.matrix_near({{4, 5, 6}}, out)
      assert.equal(0, A:take({}):rows())
    end)

    it("selects by mask from " .. name .. " input", function()
      assert.matrix_near({{2}, {4}, {6}}, A:select(M{{0, 1, 0}, {1, 0, 1}}))
      assert.matrix_near({{5}, {6}}, A:select(A:gt(4)))
      assert.matrix_near({{4, 5, 6}}, A:select(M{0, 1}, 1))
      assert.matrix_near({{1, 3}, {4, 6}}, A:select(M{{1, 0, 1}}, 2))
    end)

    it("tiles and slices " .. name .. " input", function()
      assert.matrix_near({{1, 2, 3, 1, 2, 3}, {4, 5, 6, 4, 5, 6}}, A:tile(1, 2))
      assert.matrix_near({{1, 2, 3}, {4, 5, 6}, {1, 2, 3}, {4, 5, 6}}, A:tile(2))
      assert.matrix_near({{1, 3}, {4, 6}}, A:slice(nil, {1, 3, 2}))
      assert.matrix_near({{5}}, A:slice(2, 2))
      assert.matrix_near({{2, 3}}, A:slice(1, {2}))
    end)

    it("indexes " .. name .. " input with A[i][j]", function()
      assert.equal(6, A[2][3])
      assert.matrix_near({{4, 5, 6}}, A[2])
      local B = A:copy()
      B[1][2] = 20
      B[2] = 0
      assert.matrix_near({{1, 20, 3}, {0, 0, 0}}, B)
      B[2] = M{7, 8, 9}
      assert.matrix_near({{7, 8, 9}}, B[2])
    end)
  end

  it("reshapes contiguous matrices as views and others as copies", function()
    local A = M{{1, 2}, {3, 4}}
    A:reshape(1, 4):assign(0)
    assert.matrix_near({{0, 0}, {0, 0}}, A)
    local T = M{{1, 2}, {3, 4}}
    T:t():reshape(1, 4):assign(0)
    assert.matrix_near({{1, 2}, {3, 4}}, T)
    assert.equal(T, T:contiguous())
    assert.is_true(T:t():contiguous():is_contiguous())
  end)

  it("assigns into views, with broadcasting and masks", function()
    local A = luma.zeros(3, 3)
    A:sub(1, 2, 2, 3):assign(M{{1, 2}, {3, 4}})
    assert.matrix_near({{0, 1, 2}, {0, 3, 4}, {0, 0, 0}}, A)
    A:col(1):assign(9)
    A:row(3):assign(M{{7, 8, 9}})
    assert.matrix_near({{9, 1, 2}, {9, 3, 4}, {7, 8, 9}}, A)
    A:assign(-1, A:gt(8))
    assert.matrix_near({{-1, 1, 2}, {-1, 3, 4}, {7, 8, -1}}, A)
    A:assign(M{{10, 20, 30}}, M{{1, 0, 0}, {0, 0, 0}, {0, 0, 1}})
    assert.matrix_near({{10, 1, 2}, {-1, 3, 4}, {7, 8, 30}}, A)
  end)

  it("assigns overlapping views as if through a copy", function()
    local A = M{{1, 2, 3, 4}}
    A:sub(1, 1, 2, 4):assign(A:sub(1, 1, 1, 3))
    assert.matrix_near({{1, 1, 2, 3}}, A)
    local B = M{{1, 2}, {3, 4}}
    B:assign(B:t())
    assert.matrix_near({{1, 3}, {2, 4}}, B)
  end)
end)

describe("shape errors", function()
  local A = M{{1, 2, 3}, {4, 5, 6}}
  it("names the problem", function()
    assert.has_error(function() A:reshape(4, 2) end,
      "bad argument #1 to 'reshape' (cannot reshape 2 x 3 (6 elements) into 4 x 2)")
    assert.has_error(function() A:reshape(-1, 4) end,
      "bad argument #1 to 'reshape' (cannot reshape 2 x 3 (6 elements) into -1 x 4)")
    assert.has_error(function() A:take{3} end,
      "bad argument #1 to 'take' (index 3.0 (entry 1) is not an integer in [1, 2])")
    assert.has_error(function() A:take({1.5}) end,
      "bad argument #1 to 'take' (index 1.5 (entry 1) is not an integer in [1, 2])")
    assert.has_error(function() A:take({"a"}) end,
      "bad argument #1 to 'take' (index 1 is a string, expected an integer)")
    assert.has_error(function() A:take(A) end,
      "bad argument #1 to 'take' (indices must be a vector, got a 2 x 3 matrix)")
    assert.has_error(function() A:take({1}, 3) end,
      "bad argument #2 to 'take' (dim must be in [1, 2], got 3)")
    assert.has_error(function() A:take({1}, 1, luma.zeros(2, 3)) end,
      "bad argument #3 to 'take' (out is 2 x 3 but the result is 1 x 3)")
    assert.has_error(function() A:select(M{1, 0}) end,
      "bad argument #1 to 'select' (mask is 2 x 1 but the matrix is 2 x 3 (pass dim to select rows or columns))")
    assert.has_error(function() A:select(M{1, 0, 1}, 1) end,
      "bad argument #1 to 'select' (mask must be a vector of 2 entries (one per row), got 3 x 1)")
    assert.has_error(function() A:copy():assign(M{1, 2, 3}) end,
      "bad argument #1 to 'assign' (cannot assign a 3 x 1 matrix into a 2 x 3 one)")
    assert.has_error(function() A:copy():assign(1, M{1, 0}) end,
      "bad argument #2 to 'assign' (mask is 2 x 1 but the matrix is 2 x 3)")
    assert.has_error(function() A:assign("x") end,
      "bad argument #1 to 'assign' (luma.Matrix or number expected, got string)")
    assert.has_error(function() A:slice({2, 1}) end,
      "bad argument #1 to 'slice' (row range 2..1 is not within [1, 2])")
    assert.has_error(function() A:slice(nil, {1, 3, 0}) end,
      "bad argument #2 to 'slice' (column step must be >= 1, got 0 (use take to reorder))")
    assert.has_error(function() A:slice({"a"}) end,
      "bad argument #1 to 'slice' (row range must be {first, last [, step]} of integers)")
    assert.has_error(function() A:diag(3) end,
      "bad argument #1 to 'diag' (diagonal 3 is outside a 2 x 3 matrix)")
    assert.has_error(function() luma.diag{1, "x"} end,
      "bad argument #1 to 'diag' (element [2] is a string, expected a number)")
    assert.has_error(function() luma.hstack{A, M{1, 2, 3}} end,
      "bad argument #1 to 'hstack' (entry 2 has 3 rows but entry 1 has 2)")
    assert.has_error(function() luma.vstack{A, 5} end,
      "bad argument #1 to 'vstack' (entry 2 is a number, expected a luma.Matrix)")
    assert.has_error(function() luma.vstack{} end,
      "bad argument #1 to 'vstack' (expected a non-empty list of matrices)")
    assert.has_error(function() luma.arange(1, 2, 0) end,
      "bad argument #3 to 'arange' (step must not be 0)")
    assert.error_matches(function() luma.arange(1, 1e15, 1e-3) end,
      "bad argument #1 to 'arange' %(arange would have [%d.e+]+ elements %(at most 2%^31 %- 1%)%)")
    assert.has_error(function() luma.linspace(0, math.huge, 3) end,
      "bad argument #2 to 'linspace' (stop must be finite, got inf)")
    assert.has_error(function() A:tile(2 ^ 40, 2) end)
    -- each factor within 2^40 but their product over it (found by the API fuzzer)
    local big = luma.zeros(3, 5):t():t()
    assert.error_matches(function() big:tile(2 ^ 32, 2 ^ 32) end,
      "bad argument #1 to 'tile' %(tiling 3 x 5 by 4294967296 x 4294967296 is too large %(at "
      .. "most 2%^31 %- 1 rows and columns, 2%^40 elements%)%)")
    assert.has_error(function() return A[3] end,
      "bad argument #2 to 'index' (row index 3 out of range [1, 2])")
    assert.has_error(function() return A[1][4] end,
      "bad argument #2 to 'index' (column index 4 out of range [1, 3])")
    assert.has_error(function() A.x = 1 end,
      "cannot set field 'x' of a luma.Matrix (matrices have no fields)")
    assert.error_matches(function() A[1] = M{1, 2} end,
      "bad argument #3 to '%a+' %(cannot store a 2 x 1 matrix in a row of 3 elements%)")
  end)
end)
