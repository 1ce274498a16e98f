-- Issue 24: the largest dimension (2^31 - 1) and empty matrices whose
-- other dimension is huge.  Kernels return before walking the rows of
-- nothing (tests/c/limits_probe.lua times every function on these shapes;
-- here the results).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local MAX = (1 << 31) - 1

describe("dimension limits", function()
  it("allows 2^31 - 1 rows or columns and refuses more, before allocating", function()
    local E = luma.zeros(MAX, 0)
    assert.same({ MAX, 0 }, { E:shape() })
    assert.same({ 0, MAX }, { luma.ones(0, MAX):shape() })
    assert.has_error(function() luma.zeros(MAX + 1, 0) end,
      "bad argument #1 to 'zeros' (rows must be in [0, 2147483647], got 2147483648)")
    assert.has_error(function() luma.full(0, MAX + 1, 1) end,
      "bad argument #2 to 'full' (cols must be in [0, 2147483647], got 2147483648)")
    assert.has_error(function() luma.zeros(-1, 0) end,
      "bad argument #1 to 'zeros' (rows must be in [0, 2147483647], got -1)")
    assert.error_matches(function() luma.zeros(2.5, 1) end, "bad argument #1 to 'zeros'")
    assert.error_matches(function() luma.linspace(0, 1, MAX + 1) end,
      "bad argument #3 to 'linspace' %(n must be in %[0, 2147483647%]")
  end)

  it("checks reshape, tile, kron and outer results before allocating", function()
    assert.error_matches(function() luma.zeros(3, 0):reshape(MAX + 1, 0) end,
      "cannot reshape 3 x 0 %(0 elements%) into 2147483648 x 0")
    assert.error_matches(function() luma.zeros(4, 0):reshape(-3, 0) end,
      "cannot reshape 4 x 0 %(0 elements%) into %-3 x 0")
    assert.error_matches(function() luma.ones(2, 0):tile(1 << 30) end,
      "tiling 2 x 0 by 1073741824 x 1 is too large")
    assert.error_matches(function() luma.ones(1 << 20, 1):kron(luma.ones(1 << 12, 1)) end,
      "the Kronecker product would be 4294967296 x 1: too large")
    assert.error_matches(function() luma.zeros(1 << 21, 1):outer(luma.zeros(1 << 20, 1)) end,
      "cannot create a 2097152 x 1048576 luma.Matrix")
    -- within the limits an empty result is fine
    assert.same({ 0, 3 }, { luma.zeros(0, 3):tile(1 << 40):shape() })
    assert.same({ 1 << 20, 0 }, { luma.ones(1, 0):tile(1 << 20):shape() })
  end)

  it("computes on 2^31 - 1 x 0 matrices and their transposes without walking rows", function()
    local E = luma.zeros(MAX, 0)
    for _, A in ipairs{ E, E:t(), luma.zeros(0, MAX), luma.zeros(0, MAX):t() } do
      local r, c = A:shape()
      assert.equal(0, A:sum())
      assert.equal(1, A:prod())
      assert.equal(0, A:norm())
      assert.is_true(A:all())
      assert.is_false(A:any())
      assert.equal(-math.huge, A:logsumexp())
      assert.same({ r, c }, { A:exp():shape() })
      assert.same({ r, c }, { (A + 1):shape() })
      assert.same({ r, c }, { A:copy():shape() })
      assert.same({ r, c }, { A:clamp(0, 1):shape() })
      assert.equal(string.format("matrix %d x %d", r, c), tostring(A):match("^[^\n(]*"):gsub(" $", ""))
      assert.equal(0, A:unique():rows())
      assert.equal(0, A:select(A):rows())
      assert.equal(0, luma.matrix.find(A):rows())
      assert.is_true(A:allclose(A))
      assert.is_true(A:equal(A))
      assert.equal(0, luma.persist.decode(luma.persist.encode(A)):rows() * c)
    end
    assert.same({ 0, MAX }, { E:t():sort():shape() })
    assert.same({ 0, MAX }, { E:t():cumsum(2):shape() })
    assert.same({ 1, 0 }, { E:sum(1):shape() })
    assert.same({ 0, 0 }, { E:take({}, 1):shape() })
    assert.same({ MAX, 0 }, { E:take({}, 2):shape() })
    assert.equal(0, #E:t():totable())
    assert.same({ MAX, 0 }, { E:softmax(2):shape() })
  end)
end)
