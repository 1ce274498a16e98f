-- Reductions, scans, sorting, dot/outer/trace/kron and comparisons, on
-- contiguous matrices and on views whose "all elements" reductions take the
-- strided path.  Expected values are closed forms on small integers.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local M = luma.matrix

-- {{1,2,3},{4,5,6}} three ways: contiguous, transposed storage, and a
-- block inside a larger matrix.
local function layouts()
  local rows = {{1, 2, 3}, {4, 5, 6}}
  local big = luma.full(4, 6, 100)
  local block = big:sub(2, 3, 2, 4)
  for i = 1, 2 do for j = 1, 3 do block:set(i, j, rows[i][j]) end end
  return { contiguous = M(rows), transposed = M{{1, 4}, {2, 5}, {3, 6}}:t(), block = block }
end

describe("reductions #smoke", function()
  for name, A in pairs(layouts()) do
    it("sums, averages and takes extremes of " .. name .. " input", function()
      assert.equal(21, A:sum())
      assert.equal(720, A:prod())
      assert.equal(3.5, A:mean())
      assert.equal(1, A:min())
      assert.equal(6, A:max())
      assert.matrix_near({{5, 7, 9}}, A:sum(1))
      assert.matrix_near({{6}, {15}}, A:sum(2))
      assert.matrix_near({{2.5, 3.5, 4.5}}, A:mean(1))
      assert.matrix_near({{4, 10, 18}}, A:prod(1))
      assert.matrix_near({{1}, {4}}, A:min(2))
      assert.matrix_near({{4, 5, 6}}, A:max(1))
    end)

    it("computes variance and standard deviation with ddof on " .. name .. " input", function()
      -- 1..6: mean 3.5, squared deviations sum to 17.5.
      assert.near(17.5 / 6, A:var(), 1e-15)
      assert.near(math.sqrt(17.5 / 5), A:std(nil, 1), 1e-15)
      assert.matrix_near({{2.25, 2.25, 2.25}}, A:var(1))
      assert.matrix_near({{1}, {1}}, A:std(2, 1))
    end)

    it("finds argmin and argmax (1-based) on " .. name .. " input", function()
      assert.same({2, 3}, {A:argmax()})
      assert.same({1, 1}, {A:argmin()})
      assert.matrix_near({{2, 2, 2}}, A:argmax(1))
      assert.matrix_near({{1}, {1}}, A:argmin(2))
    end)

    it("takes norms and logsumexp of " .. name .. " input", function()
      assert.near(math.sqrt(91), A:norm(), 1e-14)
      assert.near(math.sqrt(91), A:norm("fro"), 1e-14)
      assert.equal(21, A:norm(1))
      assert.equal(6, A:norm(math.huge))
      assert.equal(6, A:norm("inf"))
      assert.equal(1, A:norm(-math.huge))
      assert.equal(6, A:norm(0))
      assert.near((1 + 8 + 27 + 64 + 125 + 216) ^ (1 / 3), A:norm(3), 1e-14)
      assert.matrix_near({{math.sqrt(17), math.sqrt(29), math.sqrt(45)}}, A:norm(2, 1), 1e-15)
      local lse = 6 + math.log(1 + math.exp(-1) + math.exp(-2) + math.exp(-3) + math.exp(-4)
        + math.exp(-5))
      assert.near(lse, A:logsumexp(), 1e-14)
      assert.matrix_near({{3 + math.log(1 + math.exp(-1) + math.exp(-2))},
        {6 + math.log(1 + math.exp(-1) + math.exp(-2))}}, A:logsumexp(2), 1e-14)
    end)

    it("scans and sorts " .. name .. " input", function()
      assert.matrix_near({{1, 2, 3}, {5, 7, 9}}, A:cumsum())
      assert.matrix_near({{1, 3, 6}, {4, 9, 15}}, A:cumsum(2))
      assert.matrix_near({{1, 2, 6}, {4, 20, 120}}, A:cumprod(2))
      assert.matrix_near({{4, 5, 6}, {1, 2, 3}}, A:sort(1, true))
      assert.matrix_near({{2, 2, 2}, {1, 1, 1}}, A:argsort(1, true))
    end)
  end

  it("keeps logsumexp finite where the naive formula overflows", function()
    assert.near(1000 + math.log(2), M{{1000, 1000}}:logsumexp(), 1e-12)
    assert.equal(-math.huge, luma.zeros(0, 3):logsumexp())
    assert.equal(-math.huge, M{{-math.huge, -math.huge}}:logsumexp())
  end)

  it("scales the 2-norm so huge and tiny values survive", function()
    assert.near(5e300, M{{3e300, 4e300}}:norm(), 1e286)
    assert.near(5e-300, M{{3e-300, 4e-300}}:norm(), 1e-314)
  end)

  it("propagates NaN through min/max and reports its position in arg*", function()
    local x = M{{1, 0 / 0, 3}}
    assert.is_true(x:max() ~= x:max())
    assert.same({1, 2}, {x:argmax()})
    assert.same({1, 2}, {x:argmin()})
  end)

  it("answers any and all as booleans, or 1/0 along a dimension", function()
    local A = M{{0, 1}, {0, 0}}
    assert.is_true(A:any())
    assert.is_false(A:all())
    assert.matrix_near({{0, 1}}, A:any(1))
    assert.matrix_near({{1}, {1}}, luma.ones(2, 2):all(2))
    assert.is_false(luma.zeros(0, 0):any())
    assert.is_true(luma.zeros(0, 0):all())
  end)

  it("gives identities and NaN for empty input", function()
    local E = luma.zeros(0, 3)
    assert.equal(0, E:sum())
    assert.equal(1, E:prod())
    assert.is_true(E:mean() ~= E:mean())
    assert.matrix_near({{0, 0, 0}}, E:sum(1))
    assert.error_matches(function() E:argmax() end,
      "calling 'argmax' on bad self %(the matrix is empty: it has no extremum to locate%)")
    assert.error_matches(function() E:argmin(1) end,
      "bad argument #1 to 'argmin' %(dimension 1 of the matrix is empty")
    assert.error_matches(function() E:allclose(E, 1e-5, -1) end,
      "bad argument #3 to 'allclose' %(atol must be >= 0")
  end)

  it("returns NaN variance when ddof leaves no degrees of freedom", function()
    local v = M{{5}}:var(nil, 1)
    assert.is_true(v ~= v)
  end)

  it("writes dimension reductions into out", function()
    local out = luma.zeros(1, 3)
    assert.equal(out, M{{1, 2, 3}, {4, 5, 6}}:sum(1, out))
    assert.matrix_near({{5, 7, 9}}, out)
    assert.has_error(function() M{{1, 2}}:sum(1, luma.zeros(2, 2)) end,
      "bad argument #2 to 'sum' (out is 2 x 2 but the result is 1 x 2)")
  end)

  it("rejects bad dimensions, norms and ddof", function()
    local A = M{{1}}
    assert.has_error(function() A:sum(3) end, "bad argument #1 to 'sum' (dim must be in [1, 2], got 3)")
    assert.has_error(function() A:norm("nuclear") end,
      "bad argument #1 to 'norm' (unknown norm 'nuclear' (use a number, \"fro\" or \"inf\"))")
    assert.has_error(function() A:norm(0.5) end,
      "bad argument #1 to 'norm' (p must be 0, >= 1 or +-inf, got 0.5)")
    assert.has_error(function() A:var(nil, -1) end, "bad argument #2 to 'var' (ddof must be >= 0)")
  end)
end)

describe("softmax", function()
  it("normalizes each row of a matrix and a vector along its length", function()
    local S = M{{1, 2, 3}, {1, 1, 1}}:softmax()
    local e = math.exp
    local z = e(1) + e(2) + e(3)
    assert.matrix_near({{e(1) / z, e(2) / z, e(3) / z}, {1 / 3, 1 / 3, 1 / 3}}, S, 1e-15)
    assert.matrix_near(luma.ones(2, 1), S:sum(2), 1e-15)
    assert.matrix_near({{0.5}, {0.5}}, M{7, 7}:softmax())
  end)

  it("is stable for large scores and consistent with log_softmax", function()
    local x = M{{1000, 1001, 1002}}
    assert.matrix_near(M{{0, 1, 2}}:softmax(), x:softmax(), 1e-15)
    assert.matrix_near(x:softmax():log(), x:log_softmax(), 1e-13)
    assert.matrix_near({{1000 - x:logsumexp(), 1001 - x:logsumexp(), 1002 - x:logsumexp()}},
      x:log_softmax(), 1e-13)
  end)
end)

describe("sorting", function()
  it("sorts stably with NaN last, ascending and descending", function()
    local nan = 0 / 0
    local x = M{3, nan, 1, 3, 2}
    assert.matrix_near({{1}, {2}, {3}, {3}, {nan}}, x:sort())
    assert.matrix_near({{3}, {5}, {1}, {4}, {2}}, x:argsort())
    assert.matrix_near({{3}, {3}, {2}, {1}, {nan}}, x:sort(nil, true))
    -- Ties keep their original order in both directions.
    assert.matrix_near({{1}, {4}, {5}, {3}, {2}}, x:argsort(nil, true))
  end)

  it("sorts rows of a matrix along dim 2 and in place", function()
    local A = M{{3, 1, 2}, {9, 7, 8}}
    assert.equal(A, A:sort(2, false, A))
    assert.matrix_near({{1, 2, 3}, {7, 8, 9}}, A)
  end)

  it("sorts a long reversed sequence (merge sort across many runs)", function()
    local n = 1000
    local x = luma.zeros(n, 1)
    for i = 1, n do x:set(i, 1, n - i) end
    local s = x:sort()
    for i = 1, n, 97 do assert.equal(i - 1, s:get(i, 1)) end
    assert.equal(n, x:argsort():get(1, 1))
  end)

  it("finds unique values with counts, NaN counted once", function()
    local values, counts = M{{3, 1, 0 / 0}, {3, 1, 0 / 0}}:unique()
    assert.matrix_near({{1}, {3}, {0 / 0}}, values)
    assert.matrix_near({{2}, {2}, {2}}, counts)
    local v0, c0 = luma.zeros(0, 0):unique()
    assert.same({0, 1}, {v0:shape()})
    assert.same({0, 1}, {c0:shape()})
  end)

  it("gives each element's position among the unique values (inverse)", function()
    local A = M{{3, 1}, {0 / 0, 3}, {1, -2}}
    local values, _, positions = A:unique{ inverse = true }
    assert.matrix_near({{3, 2}, {4, 3}, {2, 1}}, positions)
    -- values:take(positions) rebuilds the elements, NaN included
    assert.matrix_near(A:flatten(), values:take(positions:flatten()))
    -- a strided view reads its own elements
    local _, _, p2 = A:t():unique{ inverse = true }
    assert.matrix_near(positions:t(), p2)
    local _, _, p0 = luma.zeros(0, 3):unique{ inverse = true }
    assert.same({0, 3}, {p0:shape()})
    assert.has_error(function() A:unique{ inverted = true } end)
  end)
end)

describe("dot, outer, trace, kron", function()
  it("takes dot products of vectors in any orientation and of matrices", function()
    assert.equal(32, M{1, 2, 3}:dot(M{{4, 5, 6}}))
    assert.equal(91, luma.matrix.dot(M{{1, 2, 3}, {4, 5, 6}}, M{{1, 2, 3}, {4, 5, 6}}))
    assert.has_error(function() M{1, 2}:dot(M{1, 2, 3}) end,
      "bad argument #1 to 'dot' (cannot take the dot product of 2 x 1 and 3 x 1)")
  end)

  it("forms outer and Kronecker products and the trace", function()
    assert.matrix_near({{3, 4}, {6, 8}}, M{1, 2}:outer(M{{3, 4}}))
    assert.matrix_near({{0, 1, 0, 2}, {1, 0, 2, 0}, {0, 3, 0, 4}, {3, 0, 4, 0}},
      M{{1, 2}, {3, 4}}:kron(M{{0, 1}, {1, 0}}))
    assert.equal(5, M{{1, 2}, {3, 4}}:trace())
    assert.equal(6, M{{1, 2, 3}, {4, 5, 6}}:trace())
  end)

  it("satisfies (A kron B)(C kron D) = (AC) kron (BD)", function()
    local A, B = M{{1, 2}, {3, 4}}, M{{0, 1}, {2, 3}}
    local C, D = M{{2, 0}, {1, 1}}, M{{1, 1}, {0, 2}}
    assert.matrix_near((A * C):kron(B * D), A:kron(B) * C:kron(D))
  end)
end)

describe("comparisons", function()
  it("uses NumPy's allclose rule and defaults", function()
    local A = M{{1, 1000}}
    assert.is_true(A:allclose(M{{1 + 1e-9, 1000 + 1e-3}}))
    assert.is_false(A:allclose(M{{1 + 1e-4, 1000}}))
    assert.is_true(A:allclose(M{{1.01, 1000}}, 0.1))
    assert.is_false(A:allclose(M{{1, 1000, 0}}))
    assert.is_false(M{{0 / 0}}:allclose(M{{0 / 0}}))
    assert.is_true(M{{math.huge}}:allclose(M{{math.huge}}))
  end)

  it("tests exact equality of shape and elements", function()
    assert.is_true(M{{1, 2}}:equal(M{{1, 2}}:t():t()))
    assert.is_false(M{{1, 2}}:equal(M{1, 2}))
  end)
end)
