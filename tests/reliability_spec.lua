-- Regression tests for the bugs the reliability harness found (issue 8,
-- docs/RELIABILITY.md lists them with how they were found).
local luma = require("luma")

describe("reliability regressions", function()
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
end)
