-- Native functions that take a vector of n elements refuse a matrix that
-- merely has n elements: reading element k of a 2 x 3 matrix as (k, 0)
-- would run past its two rows (the API fuzzer under ASan found one such
-- read in decomposition's range_pass; these are the others of the kind).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local function refuses(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  assert.matches(pattern, err)
end

describe("native vector arguments", function()
  local M23 = luma.ones(2, 3)

  it("text weights: idf", function()
    local native = require("luma.text.native")
    local X = luma.sparse.from_dense(luma.ones(2, 6))
    refuses("idf has 6 values %(a vector expected%)", function() native.weights(X, { idf = M23 }) end)
    assert.equal(12, native.weights(X, { idf = luma.ones(6, 1) }):sum())
  end)

  it("generative center: scale", function()
    local native = require("luma.generative.native")
    local X, codes, means = luma.ones(4, 6), luma.matrix{ 1, 2, 1, 2 }, luma.zeros(2, 6)
    refuses("scale must be a vector of 6 elements", function() native.center(X, codes, means, M23) end)
    assert.equal(48, native.center(X, codes, means, luma.ones(1, 6):mul(2)):sum())
  end)

  it("decomposition cd_sweep: order", function()
    local native = require("luma.decomposition.native")
    local W, HHt, XHt = luma.ones(3, 6), luma.eye(6), luma.ones(3, 6)
    refuses("order must be a vector of 6 elements", function() native.cd_sweep(W, HHt, XHt, M23) end)
  end)

  it("mixture estep: log_weights", function()
    local native = require("luma.mixture.native")
    local X, means = luma.zeros(3, 1), luma.zeros(6, 1)
    refuses("log_weights must be a vector of 6 elements", function()
      native.estep(X, means, luma.eye(1), M23)
    end)
  end)

  it("cluster dbscan: ind, counts and weights", function()
    local native = require("luma.cluster.native")
    local ind, counts = luma.matrix{ 1, 2, 3, 4, 5, 6 }, luma.ones(6, 1)
    refuses("ind must be a vector", function() native.dbscan(M23, counts, 1) end)
    refuses("counts must be a vector", function() native.dbscan(ind, M23, 1) end)
    refuses("weights must be a vector of 6 elements", function() native.dbscan(ind, counts, 1, M23) end)
  end)
end)
