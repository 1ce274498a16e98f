-- The matrix type's foundation: construction, shape, element access, views
-- sharing storage, printing and argument errors.  (The full matrix and
-- linear-algebra suite arrives with the matrix issue.)
-- SPDX-License-Identifier: MIT
local luma = require("luma")

describe("matrix construction #smoke", function()
  it("builds from nested tables, flat tables and a flat table plus shape", function()
    local A = luma.matrix{{1, 2, 3}, {4, 5, 6}}
    assert.same({2, 3}, {A:shape()})
    assert.matrix_near({{1, 2, 3}, {4, 5, 6}}, A)
    assert.matrix_near({{1}, {2}, {3}}, luma.matrix{1, 2, 3})
    assert.matrix_near({{1, 2}, {3, 4}, {5, 6}}, luma.matrix({1, 2, 3, 4, 5, 6}, 3, 2))
    assert.same({0, 1}, {luma.matrix{}:shape()}) -- an empty column
  end)

  it("has zeros, ones, full and eye", function()
    assert.matrix_near({{0, 0, 0}, {0, 0, 0}}, luma.zeros(2, 3))
    assert.matrix_near({{1}, {1}}, luma.ones(2))
    assert.matrix_near({{7.5, 7.5}}, luma.full(1, 2, 7.5))
    assert.matrix_near({{1, 0, 0}, {0, 1, 0}}, luma.eye(2, 3))
    assert.matrix_near({{1, 0}, {0, 1}}, luma.eye(2))
    assert.same({0, 5}, {luma.zeros(0, 5):shape()})
  end)

  it("recognizes matrices and views", function()
    local A = luma.zeros(2, 2)
    assert.is_true(luma.ismatrix(A))
    assert.is_true(luma.ismatrix(A:t()))
    assert.is_false(luma.ismatrix({}))
    assert.is_false(luma.ismatrix(nil))
  end)
end)

describe("matrix access and views", function()
  it("gets and sets elements 1-based", function()
    local A = luma.zeros(2, 2)
    assert.equal(A, A:set(2, 1, 3.5))
    assert.equal(3.5, A:get(2, 1))
    assert.equal(2, #A)
  end)

  it("shares storage between a matrix and its views", function()
    local A = luma.matrix{{1, 2, 3}, {4, 5, 6}}
    local T, r, c, S = A:t(), A:row(2), A:col(3), A:sub(1, 2, 2, 3)
    assert.matrix_near({{1, 4}, {2, 5}, {3, 6}}, T)
    assert.matrix_near({{4, 5, 6}}, r)
    assert.matrix_near({{3}, {6}}, c)
    assert.matrix_near({{2, 3}, {5, 6}}, S)
    T:set(3, 2, 60)
    assert.equal(60, A:get(2, 3))
    assert.equal(60, S:get(2, 2))
    assert.is_false(T:is_contiguous())
    assert.is_true(A:is_contiguous())
    assert.is_true(T:copy():is_contiguous())
  end)

  it("keeps the base alive through its views", function()
    local v = luma.matrix{{1, 2}, {3, 4}}:t():col(1)
    collectgarbage()
    collectgarbage()
    assert.matrix_near({{1}, {2}}, v)
  end)

  it("fills views without touching other elements", function()
    local A = luma.zeros(3, 3)
    A:sub(2, 3, 2, 3):fill(1)
    assert.matrix_near({{0, 0, 0}, {0, 1, 1}, {0, 1, 1}}, A)
  end)

  it("converts to nested tables", function()
    assert.same({{1, 3}, {2, 4}}, luma.matrix{{1, 2}, {3, 4}}:t():totable())
  end)
end)

describe("matrix printing", function()
  it("prints integers, decimals and views with the shape in the header", function()
    assert.equal("matrix 2 x 2\n[[1  2]\n [3  4]]", tostring(luma.matrix{{1, 2}, {3, 4}}))
    -- Decimals are aligned: trailing zeros are trimmed only where every
    -- element has them (NumPy prints the same row as [0.5 , 1.25]).
    assert.equal("matrix 1 x 2\n[[0.50  1.25]]", tostring(luma.matrix{{0.5, 1.25}}))
    assert.equal("matrix 1 x 2\n[[0.5  1.5]]", tostring(luma.matrix{{0.5, 1.5}}))
    assert.equal("matrix 2 x 1 (view)\n[[1]\n [2]]", tostring(luma.matrix{{1, 2}}:t()))
    assert.equal("matrix 0 x 3\n[]", tostring(luma.zeros(0, 3)))
  end)

  it("uses scientific notation for extreme magnitudes and shows NaN", function()
    assert.equal("matrix 1 x 2\n[[1.0000e+10  2.0000e-03]]", tostring(luma.matrix{{1e10, 2e-3}}))
    assert.equal("matrix 1 x 2\n[[nan  1.5]]", tostring(luma.matrix{{0 / 0, 1.5}}))
  end)

  it("elides large matrices around edge items", function()
    local text = tostring(luma.zeros(100, 100))
    assert.matches("^matrix 100 x 100\n%[%[0  0  0  ...  0  0  0%]\n", text)
    assert.matches("\n ...\n", text)
    local lines = 0
    for _ in text:gmatch("\n") do lines = lines + 1 end
    assert.equal(7, lines) -- header, 3 rows, "...", 3 rows
  end)

  it("honours set_printoptions and rejects bad options", function()
    luma.matrix.set_printoptions{precision = 2}
    assert.equal("matrix 1 x 1\n[[3.14]]", tostring(luma.matrix{{math.pi}}))
    luma.matrix.set_printoptions{precision = 4}
    assert.has_error(function() luma.matrix.set_printoptions{precision = 40} end,
      "bad argument #1 to 'set_printoptions' (bad option 'precision' (valid: precision "
      .. "0..17, threshold >= 1, edgeitems >= 1, all integers))")
  end)
end)

describe("matrix argument errors", function()
  it("names ragged rows and non-numbers", function()
    assert.has_error(function() luma.matrix{{1, 2}, {3}} end,
      "bad argument #1 to 'matrix' (ragged rows: row 1 has 2 elements but row 2 has 1)")
    assert.has_error(function() luma.matrix{{1, "x"}} end,
      "bad argument #1 to 'matrix' (element [1][2] is a string, expected a number)")
    assert.has_error(function() luma.matrix{{1}, 2} end,
      "bad argument #1 to 'matrix' (row 2 is a number, expected a table)")
    assert.has_error(function() luma.matrix({1, 2, 3}, 2, 2) end,
      "bad argument #1 to 'matrix' (table has 3 numbers but the shape 2 x 2 needs 4)")
  end)

  it("rejects negative and absurd sizes without allocating", function()
    assert.has_error(function() luma.zeros(-1, 2) end,
      "bad argument #1 to 'zeros' (rows must be in [0, 2147483647], got -1)")
    assert.has_error(function() luma.zeros(2 ^ 30, 2 ^ 30) end,
      "'zeros' cannot create a 1073741824 x 1073741824 luma.Matrix (sizes must be >= 0, each "
      .. "at most 2^31 - 1, and the product at most 2^40)")
    -- every creator names itself (each size allowed, their product not)
    local g = luma.random.Generator(1)
    assert.error_matches(function() g:uniform(2 ^ 30, 2 ^ 30) end,
      "'uniform' cannot create a 1073741824 x 1073741824 luma%.Matrix")
  end)

  it("checks indices against the shape", function()
    local A = luma.zeros(2, 3)
    assert.has_error(function() A:get(3, 1) end,
      "bad argument #1 to 'get' (row index 3 out of range [1, 2])")
    assert.has_error(function() A:set(1, 0, 1) end,
      "bad argument #2 to 'set' (column index 0 out of range [1, 3])")
    assert.has_error(function() A:sub(2, 1) end,
      "bad argument #2 to 'sub' (last row 1 is before first row 2)")
  end)

  it("says what it expected when given something else", function()
    local get = luma.zeros(1, 1).get
    assert.has_error(function() get({}, 1, 1) end,
      "bad argument #1 to 'get' (luma.Matrix expected, got table)")
  end)

  -- The type check compares metatables by address, from a per-state
  -- cache in a Luma state (this spec also runs in the luma binary, #smoke)
  -- and through the registry in a stock Lua: neither lets another
  -- userdata through, nor a matrix-like table.
  it("rejects userdata of other types, also through __index called directly", function()
    local A = luma.zeros(2, 2)
    local gen = luma.random.Generator(1)
    assert.has_error(function() A.get(gen, 1, 1) end,
      "bad argument #1 to 'get' (luma.Matrix expected, got luma.Generator)")
    assert.has_error(function() A.set(io.stdout, 1, 1, 5) end,
      "bad argument #1 to 'set' (luma.Matrix expected, got FILE*)")
    assert.has_error(function() gen.normal(A) end,
      "bad argument #1 to 'normal' (luma.Generator expected, got luma.Matrix)")
    local index = getmetatable(A).__index
    assert.error_matches(function() index(io.stdout, 1) end, "luma%.Matrix expected, got FILE%*")
    assert.error_matches(function() index(gen, 1) end, "luma%.Matrix expected, got luma%.Generator")
    -- (a table carrying the metatable is named by its __name, as Lua does)
    assert.error_matches(function() index(setmetatable({}, getmetatable(A)), 1) end,
      "bad argument #1 to 'index' %(luma%.Matrix expected")
    assert.equal(A.get, index(A, "get", "extra"))
    assert.equal(2, luma.matrix{{1, 2}, {3, 4}}[1][2])
    assert.is_false(luma.ismatrix(gen))
  end)
end)
