-- Element-wise operations, broadcasting, the output convention and the
-- matrix product, each on contiguous matrices and on views (transposed,
-- strided columns, sub-blocks).  Expected values are small closed forms.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local M = luma.matrix

-- The same 2 x 3 values as a contiguous matrix, a transposed view, and a
-- sub-block of a larger matrix (non-unit row stride).
local function layouts(rows)
  local plain = M(rows)
  local r, c = plain:shape()
  local transposed = M(plain:t():totable()):t()        -- rs = 1, cs = r
  local big = luma.zeros(r + 2, c + 3)
  local block = big:sub(2, r + 1, 3, c + 2)
  for i = 1, r do for j = 1, c do block:set(i, j, rows[i][j]) end end
  return { contiguous = plain, transposed = transposed, block = block }
end

describe("element-wise binary operations #smoke", function()
  local rows = {{1, 2, 3}, {4, 5, 6}}
  for name, A in pairs(layouts(rows)) do
    it("adds, subtracts, multiplies and divides on " .. name .. " input", function()
      assert.matrix_near({{2, 3, 4}, {5, 6, 7}}, A + 1)
      assert.matrix_near({{0, 1, 2}, {3, 4, 5}}, A - 1)
      assert.matrix_near({{9, 8, 7}, {6, 5, 4}}, 10 - A)
      assert.matrix_near({{2, 4, 6}, {8, 10, 12}}, 2 * A)
      assert.matrix_near({{2, 4, 6}, {8, 10, 12}}, A * 2)
      assert.matrix_near({{0.5, 1, 1.5}, {2, 2.5, 3}}, A / 2)
      assert.matrix_near({{-1, -2, -3}, {-4, -5, -6}}, -A)
      assert.matrix_near({{1, 4, 9}, {16, 25, 36}}, A:mul(A))
      assert.matrix_near({{1, 1, 1}, {1, 1, 1}}, A:div(A))
      assert.matrix_near({{0, 0, 0}, {0, 0, 0}}, A:subtract(A))
      assert.matrix_near({{1, 4, 27}, {256, 3125, 46656}}, A:pow(A))
    end)

    it("broadcasts rows, columns and 1 x 1 on " .. name .. " input", function()
      assert.matrix_near({{11, 22, 33}, {14, 25, 36}}, A + M{{10, 20, 30}})
      assert.matrix_near({{101, 102, 103}, {204, 205, 206}}, A + M{{100}, {200}})
      assert.matrix_near({{6, 7, 8}, {9, 10, 11}}, A + M{{5}})
      assert.matrix_near({{11, 12, 13}, {21, 22, 23}}, M{{10}, {20}} + M{{1, 2, 3}})
    end)
  end

  it("compares element-wise into 0/1 matrices", function()
    local A, B = M{{1, 2, 3}}, M{{3, 2, 1}}
    assert.matrix_near({{0, 1, 0}}, A:eq(B))
    assert.matrix_near({{1, 0, 1}}, A:ne(B))
    assert.matrix_near({{1, 0, 0}}, A:lt(B))
    assert.matrix_near({{1, 1, 0}}, A:le(B))
    assert.matrix_near({{0, 0, 1}}, A:gt(B))
    assert.matrix_near({{0, 1, 1}}, A:ge(2))
  end)

  it("takes maxima and minima, propagating NaN", function()
    local nan = 0 / 0
    assert.matrix_near({{3, 2, 3}}, M{{1, 2, 3}}:maximum(M{{3, 0, 1}}))
    assert.matrix_near({{1, 0, 1}}, luma.matrix.minimum(M{{1, 2, 3}}, M{{3, 0, 1}}))
    assert.matrix_near({{nan, nan}}, M{{nan, 1}}:maximum(M{{0, nan}}))
  end)

  it("chooses with where, broadcasting scalars", function()
    local A = M{{1, -2}, {-3, 4}}
    assert.matrix_near({{1, 0}, {0, 4}}, luma.matrix.where(A:gt(0), A, 0))
    assert.matrix_near({{7, 9}, {9, 8}}, luma.matrix.where(A:gt(0):t(), M{{7}, {8}}, 9))
  end)
end)

describe("element-wise unary operations", function()
  it("computes the elementary functions", function()
    local x = M{{0, 1, 4}}
    assert.matrix_near({{1, math.exp(1), math.exp(4)}}, x:exp())
    assert.matrix_near({{-math.huge, 0, math.log(4)}}, x:log())
    assert.matrix_near({{0, 1, 2}}, x:sqrt())
    assert.matrix_near({{0, math.sin(1), math.sin(4)}}, x:sin())
    assert.matrix_near({{1, math.cos(1), math.cos(4)}}, x:cos())
    assert.matrix_near({{3, 2.5, 0}}, M{{-3, 2.5, 0}}:abs())
    assert.matrix_near({{-1, 1, 0}}, M{{-3, 2.5, 0}}:sign())
    assert.matrix_near({{-2, 1, 2}}, M{{-1.5, 1.5, 2.5}}:floor())
    assert.matrix_near({{-1, 2, 3}}, M{{-1.5, 1.5, 2.5}}:ceil())
    -- Halves round to even, as NumPy: -1.5 -> -2, 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.
    assert.matrix_near({{-2, 0, 2, 2}}, M{{-1.5, 0.5, 1.5, 2.5}}:round())
    assert.matrix_near({{0, 2}}, M{{-1, 2}}:relu())
    assert.matrix_near({{0.5, math.tanh(1)}}, M{{0, 1}}:tanh() + M{{0.5, 0}})
  end)

  it("agrees with the C library on long contiguous inputs (the SIMD path)", function()
    -- 37 elements: full SIMD blocks of 8 or 4 plus a scalar tail; libmvec
    -- promises 4 ulp, so a relative tolerance of 1e-15 holds.
    local n = 37
    local x = luma.zeros(n, 1)
    for i = 1, n do x:set(i, 1, (i - 19) * 0.37) end
    local pos = x:abs() + 0.01
    for name, f in pairs({ exp = math.exp, sin = math.sin, cos = math.cos }) do
      local want = x:map(f)
      assert.matrix_near(want, x[name](x), 1e-15)
      assert.matrix_near(want, x:t()[name](x:t()):t(), 1e-15) -- strided: scalar path
    end
    assert.matrix_near(pos:map(math.log), pos:log(), 1e-15)
    local special = M{{0 / 0, math.huge, -math.huge, 710, -746, 0, 1, 2, -1}}
    assert.matrix_near({{0 / 0, math.huge, 0, math.huge, 0, 1, math.exp(1), math.exp(2),
      math.exp(-1)}}, special:t():exp():t(), 1e-15)
  end)

  it("keeps log1p and expm1 accurate near zero", function()
    local tiny = 1e-12
    assert.matrix_near({{tiny - tiny * tiny / 2}}, M{{tiny}}:log1p(), 1e-15)
    assert.matrix_near({{tiny + tiny * tiny / 2}}, M{{tiny}}:expm1(), 1e-15)
  end)

  it("computes sigmoid and softplus without overflow", function()
    local s = M{{-1000, 0, 1000, 2}}:sigmoid()
    assert.matrix_near({{0, 0.5, 1, 1 / (1 + math.exp(-2))}}, s)
    local sp = M{{-1000, 0, 1000}}:softplus()
    assert.matrix_near({{0, math.log(2), 1000}}, sp)
    -- sigmoid(x) + sigmoid(-x) = 1 and softplus(x) - softplus(-x) = x
    local x = M{{-3, -0.5, 0.25, 7}}
    assert.matrix_near(luma.ones(1, 4), x:sigmoid() + (-x):sigmoid())
    assert.matrix_near(x, x:softplus() - (-x):softplus())
  end)

  it("detects NaN and infinities", function()
    local x = M{{0 / 0, math.huge, -math.huge, 1}}
    assert.matrix_near({{1, 0, 0, 0}}, x:isnan())
    assert.matrix_near({{0, 0, 0, 1}}, x:isfinite())
  end)

  it("clamps, keeping NaN, and rejects reversed bounds", function()
    assert.matrix_near({{0, 0.5, 1}}, M{{-2, 0.5, 3}}:clamp(0, 1))
    assert.has_error(function() M{{1}}:clamp(2, 1) end,
      "bad argument #2 to 'clamp' (upper bound 1.0 is below lower bound 2.0)")
  end)

  it("maps a Lua function over every element, and names a bad return", function()
    assert.matrix_near({{1, 4}, {9, 16}}, M{{1, 2}, {3, 4}}:t():t():map(function(v) return v * v end))
    assert.error_matches(function() M{{1, 2}}:map(function() return "x" end) end,
      "bad argument #1 to 'map' %(the function returned a string for element %(1, 1%), not a number%)")
  end)
end)

-- Method calls number arguments after self, as Lua does: in A:add(1, out)
-- out is argument #2.
describe("output argument", function()
  it("writes into out and returns it, also in place", function()
    local A = M{{1, 2}, {3, 4}}
    local out = luma.zeros(2, 2)
    assert.equal(out, A:add(1, out))
    assert.matrix_near({{2, 3}, {4, 5}}, out)
    assert.equal(A, A:exp(A))
    assert.matrix_near({{math.exp(1), math.exp(2)}, {math.exp(3), math.exp(4)}}, A)
  end)

  it("writes into a view of a larger matrix", function()
    local big = luma.zeros(3, 3)
    M{{1, 2}, {3, 4}}:mul(10, big:sub(2, 3, 2, 3))
    assert.matrix_near({{0, 0, 0}, {0, 10, 20}, {0, 30, 40}}, big)
  end)

  it("rejects a wrong shape and a differently laid out alias", function()
    local A = M{{1, 2}, {3, 4}}
    assert.has_error(function() A:add(1, luma.zeros(2, 3)) end,
      "bad argument #2 to 'add' (out is 2 x 3 but the result is 2 x 2)")
    assert.has_error(function() A:exp(A:t()) end,
      "bad argument #1 to 'exp' (out overlaps an input with a different layout (use a copy))")
  end)
end)

describe("matrix product", function()
  local A = M{{1, 2, 3}, {4, 5, 6}}
  local expected_AAt = {{14, 32}, {32, 77}}
  local expected_AtA = {{17, 22, 27}, {22, 29, 36}, {27, 36, 45}}

  it("multiplies contiguous matrices and transposed views", function()
    assert.matrix_near(expected_AAt, A * A:t())
    assert.matrix_near(expected_AtA, A:t() * A)
    assert.matrix_near({{14}, {32}}, A * M{1, 2, 3})
  end)

  for name, L in pairs(layouts({{1, 2, 3}, {4, 5, 6}})) do
    it("multiplies " .. name .. " operands", function()
      assert.matrix_near(expected_AAt, L * L:t())
      assert.matrix_near(expected_AtA, L:t():matmul(L))
    end)
  end

  it("copies a strided operand BLAS cannot read directly", function()
    local big = M{{1, 0, 2, 0, 3}, {0, 0, 0, 0, 0}, {4, 0, 5, 0, 6}}
    local strided = big:t():t() -- same as big
    local every_other = luma.zeros(2, 3)
    for i = 1, 2 do for j = 1, 3 do every_other:set(i, j, strided:get(2 * i - 1, 2 * j - 1)) end end
    assert.matrix_near(expected_AAt, every_other * every_other:t())
  end)

  it("writes into out, including a transposed out", function()
    local out = luma.zeros(2, 2)
    assert.equal(out, A:matmul(A:t(), out))
    assert.matrix_near(expected_AAt, out)
    local outT = luma.zeros(3, 2)
    local B = M{{1, 0, 1}, {0, 1, 0}, {1, 1, 1}}
    A:matmul(B, outT:t())
    -- A B = [[4, 5, 4], [10, 11, 10]], stored transposed.
    assert.matrix_near({{4, 10}, {5, 11}, {4, 10}}, outT)
    assert.matrix_near((A * B):t(), outT)
  end)

  it("handles empty inner dimensions as zeros", function()
    assert.matrix_near({{0, 0}, {0, 0}}, luma.zeros(2, 0) * luma.zeros(0, 2))
    assert.same({0, 4}, {(luma.zeros(0, 3) * luma.zeros(3, 4)):shape()})
  end)

  it("matches a naive triple loop on a 7 x 5 by 5 x 9 product", function()
    local X, Y = luma.zeros(7, 5), luma.zeros(5, 9)
    for i = 1, 7 do for j = 1, 5 do X:set(i, j, math.sin(i * 5 + j)) end end
    for i = 1, 5 do for j = 1, 9 do Y:set(i, j, math.cos(i * 9 + j)) end end
    local naive = luma.zeros(7, 9)
    for i = 1, 7 do
      for j = 1, 9 do
        local s = 0
        for k = 1, 5 do s = s + X:get(i, k) * Y:get(k, j) end
        naive:set(i, j, s)
      end
    end
    assert.matrix_near(naive, X * Y, 1e-14)
  end)

  it("names both shapes when inner dimensions differ", function()
    assert.has_error(function() return A * A end,
      "bad argument #2 to 'mul' (cannot multiply 2 x 3 by 2 x 3 (inner dimensions differ))")
  end)

  it("refuses an out that shares memory with an operand", function()
    local S = M{{1, 2}, {3, 4}}
    assert.has_error(function() S:matmul(S, S) end,
      "bad argument #2 to 'matmul' (out must not share memory with an operand of a product)")
  end)
end)

describe("arithmetic operators", function()
  local rows = {{1, -2, 3.5}, {-4, 0, 7}}
  for name, A in pairs(layouts(rows)) do
    it("raise, floor-divide and take remainders element-wise on " .. name .. " input", function()
      assert.matrix_near({{1, 4, 12.25}, {16, 0, 49}}, A ^ 2)
      assert.matrix_near(A:pow(2), A ^ 2, 0)
      assert.matrix_near({{2, 0.25, 2 ^ 3.5}, {1 / 16, 1, 128}}, 2 ^ A, 1e-15)
      assert.matrix_near({{1, -0.5, 42.875}, {-4, math.huge, 343}}, A ^ M{{1, -1, 3}}, 1e-15)
      assert.matrix_near({{0, -1, 1}, {-2, 0, 3}}, A // 2, 0)
      assert.matrix_near({{1, 0, 1.5}, {0, 0, 1}}, A % 2, 0)
      -- the sign of the divisor, as Lua's floats: 3.5 % -2 = -0.5, -4 % -2 = -0
      assert.matrix_near({{-1, 0, -0.5}, {0, 0, -1}}, A % -2, 0)
      assert.matrix_near(A:idiv(2), A // 2, 0)
      assert.matrix_near(A:mod(2), A % 2, 0)
      assert.matrix_near({{-1, 2, -3.5}, {4, 0, -7}}, -A, 0)
    end)
  end

  it("agree with Lua's own // and % on floats, zero and infinite divisors included", function()
    -- (floats: Lua's integer // and % by 0 are errors, not values)
    local xs = { -7.5, -3.0, -1.0, -0.25, 0.0, 0.25, 1.0, 3.0, 7.5, math.huge, -math.huge }
    local ys = { -2.0, -0.5, 0.5, 3.0, 0.0, math.huge, -math.huge }
    local X, Y = M(xs), M{ ys }
    local Q, R = X // Y, X % Y
    for i, x in ipairs(xs) do
      for j, y in ipairs(ys) do
        local q, r = x // y, x % y
        for _, pair in ipairs({ { q, Q:get(i, j), "//" }, { r, R:get(i, j), "%" } }) do
          local want, got = pair[1], pair[2]
          assert(want == got or (want ~= want and got ~= got), string.format(
            "%g %s %g: Lua gives %g, the matrix %g", x, pair[3], y, want, got))
        end
      end
    end
  end)

  it("compare whole matrices with ==: same shape and equal elements", function()
    local A = M{{1, 2}, {3, 4}}
    assert.is_true(A == M{{1, 2}, {3, 4}})
    assert.is_true(A == A:t():t()) -- a view with the same values
    assert.is_false(A == M{{1, 2}, {3, 5}})
    assert.is_false(A == A:t())
    assert.is_false(M{1, 2} == M{{1, 2}}) -- a column is not a row
    assert.is_false(A == 1)               -- never equal to a number or another type
    assert.is_true(A ~= M{{1, 2}})
    local N = M{{0 / 0}}
    assert.is_true(N == N)                -- the same object (Lua does not ask __eq)
    assert.is_false(N == M{{0 / 0}})      -- NaN equals nothing, as in A:eq(B)
    assert.matrix_near({{1, 0}, {1, 1}}, A:eq(M{{1, 0}, {3, 4}}), 0) -- element-wise
  end)

  it("refuse <, <=, > and >= with the element-wise methods named", function()
    local A = M{{1, 2}}
    for _, f in ipairs({ function() return A < A:t():t() end, function() return A <= 2 end,
      function() return 0 > A end, function() return A >= A end }) do
      assert.has_error(f, "cannot order luma.Matrix values with <, <=, > or >=: use A:lt(B), "
        .. "A:le(B), A:gt(B) or A:ge(B) for element-wise comparisons (1 where true)")
    end
  end)
end)

describe("operator errors", function()
  it("points matrix division at solve", function()
    assert.has_error(function() return M{{1}} / M{{1}} end,
      "cannot divide by a matrix: use luma.linalg.solve(A, B) for A^-1 B, or A:div(B) "
      .. "for element-wise division")
  end)

  it("names shapes that do not broadcast", function()
    assert.has_error(function() return M{{1, 2, 3}} + M{{1, 2}} end,
      "bad argument #2 to 'add' (shapes 1 x 3 and 1 x 2 do not broadcast together)")
    assert.has_error(function() return M{{1, 2, 3}} ^ M{{1, 2}} end,
      "bad argument #2 to 'pow' (shapes 1 x 3 and 1 x 2 do not broadcast together)")
    assert.has_error(function() return M{{1, 2, 3}} % M{{1, 2}} end,
      "bad argument #2 to 'mod' (shapes 1 x 3 and 1 x 2 do not broadcast together)")
  end)

  it("rejects strings and tables as operands", function()
    assert.has_error(function() return M{{1}} + "1" end,
      "bad argument #2 to 'add' (luma.Matrix or number expected, got string)")
    assert.has_error(function() return M{{1}}:add({}) end,
      "bad argument #1 to 'add' (luma.Matrix or number expected, got table)")
  end)
end)
