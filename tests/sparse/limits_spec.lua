-- Sparse kernels under a sandboxed host's limits: products whose work
-- far exceeds the instruction budget end with the limit's error (the
-- kernels charge the meter as they go), the state's memory limit covers
-- sparse storage, and a sandboxed script cannot read files.
-- SPDX-License-Identifier: MIT
local support = require("support")

-- 2000 x 2000 with 200,000 entries (about 3 million units to make); its
-- square takes about 6 * 10^7 units, a dense product with 2000 x 200
-- about 4 * 10^7, a 2000 x 2000 dense times it about 4 * 10^8.
local SETUP = [[
  A = luma.sparse.random(2000, 2000, 0.05, luma.random.Generator(1))
  B = luma.ones(2000, 200)
  C = luma.ones(500, 2000)]]

describe("sparse products in a sandboxed state", function()
  local run, dir = support.sandboxed_runner(SETUP)

  for _, r in ipairs({
    { "sparse x sparse", "local P = A * A" },
    { "sparse x dense", "local P = A * B" },
    { "dense x sparse", "local P = C * A" },
    { "a transpose chain", "for _ = 1, 100 do A = A:t() end" },
    { "CSC x dense", "local K = A:tocsc() local P = K * B" },
    { "dense x CSC", "local K = A:tocsc() local P = C * K" },
    { "S^T X", "local P = A:tmatmul(B)" },
    { "sparse pairwise distances", "local P = luma.pairwise.distances(A, A:sub(1, 1000))" },
    { "a CSC conversion chain", "for _ = 1, 100 do A = A:tocsc():tocsr() end" },
    { "a sparse sum chain", "for _ = 1, 100 do A = A + A end" },
    { "an element-wise product chain", "local K = A:binarize() for _ = 1, 100 do A = A:multiply(K) end" },
    { "a maximum chain", "local K = A:tocsc() for _ = 1, 100 do A = A:maximum(K) end" },
  }) do
    it(r[1] .. " stops with the instruction limit's error", function()
      local took, message, next_run = run(r[2])
      assert.truthy(message:find("instruction limit exceeded (10000000 instructions)", 1, true),
        message)
      assert.is_true(took < 10, took .. " s")
      assert.equal("2", next_run)
    end)
  end

  it("small products finish within the same limits", function()
    local _, message = run("local P = A:sub(1, 10) * A assert(P:rows() == 10)")
    assert.equal("finished", message)
  end)

  it("charges sparse storage to the memory limit", function()
    local _, message, next_run = run("local S = luma.sparse.eye(8000000)")
    assert.truthy(message:find("not enough memory", 1, true), message)
    assert.equal("2", next_run)
  end)

  it("refuses .npz files but reads and writes their bytes", function()
    local _, message = run("luma.sparse.read_npz('/etc/hostname')")
    assert.truthy(message:find("'read_npz' is not available in a sandboxed state", 1, true), message)
    local _, ok = run("local S = luma.sparse.read_npz(luma.sparse.npz_bytes(A:sub(1, 50)), "
      .. "{bytes = true}) assert(S:nnz() == A:sub(1, 50):nnz())")
    assert.equal("finished", ok)
  end)

  it("refuses files but parses text", function()
    local _, message = run("luma.sparse.read_libsvm('/etc/hostname')")
    assert.truthy(message:find("'read_libsvm' is not available in a sandboxed state", 1, true),
      message)
    local _, ok = run("local X = luma.sparse.read_libsvm('1 2:3', {text = true}) "
      .. "assert(X:get(1, 2) == 3)")
    assert.equal("finished", ok)
  end)

  teardown(function() os.execute("rm -rf " .. support.quote(dir)) end)
end)
