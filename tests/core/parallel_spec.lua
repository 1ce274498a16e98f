-- Native threads (src/ml/core/parallel.c, src/vm/threads.c): the per-state
-- thread count, results that do not depend on it, and threads surviving
-- the fork pool.  Interrupts and the instruction budget inside native
-- loops are tested from C (tests/c/test_embed.c), where a state can be
-- made with limits.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with

-- Runs fn once per thread count and returns the results of each run.
local function with_threads(counts, fn)
  local saved = luma.config().threads
  local results = {}
  for i, n in ipairs(counts) do
    luma.config{ threads = n }
    results[i] = fn()
  end
  luma.config{ threads = saved }
  return results
end

-- Identical bits (NaN equal to NaN), not merely close values.
local function same_bits(a, b)
  local na, nb = a:isnan(), b:isnan()
  return na:eq(nb):all() and luma.matrix.where(na, 0, a):eq(luma.matrix.where(nb, 0, b)):all()
end

describe("luma.config{threads = n}", function()
  it("sets this state's thread count, capped at the cores", function()
    local cfg = luma.config()
    assert.is_true(cfg.cores >= 1)
    local saved = cfg.threads
    assert.equal(1, luma.config{ threads = 1 }.threads)
    assert.equal(cfg.cores, luma.config{ threads = cfg.cores + 7 }.threads)
    luma.config{ threads = saved }
  end)

  it("rejects counts that are not positive integers and unknown settings", function()
    errors_with("bad argument #1 to 'config' %(threads must be an integer >= 1, got 0%)",
      function() luma.config{ threads = 0 } end)
    errors_with("threads must be an integer >= 1, got %-2", function() luma.config{ threads = -2 } end)
    errors_with("threads must be an integer >= 1, got 1.5", function() luma.config{ threads = 1.5 } end)
    errors_with("threads must be an integer >= 1, got 2", function() luma.config{ threads = "2" } end)
    errors_with("bad argument #1 to 'config'.*thread", function() luma.config{ thread = 2 } end)
  end)

  it("starts from LUMA_NUM_THREADS, and warns about a bad value", function()
    local out = support.luma_run({ "-e", "print(luma.config().threads)" }, nil,
      { LUMA_NUM_THREADS = "1" })
    assert.equal("1\n", out)
    local out2, err = support.luma_run({ "-e", "print(luma.config().threads == luma.config().cores)" },
      nil, { LUMA_NUM_THREADS = "zero" })
    assert.equal("true\n", out2)
    assert.matches("LUMA_NUM_THREADS must be a positive integer", err)
  end)
end)

describe("threaded kernels", function()
  local g = luma.random.Generator(7)
  -- Sizes that make several chunks (bands of 128 rows, 256-row blocks,
  -- 32768-element runs), with ragged last chunks.
  local X = g:normal(700, 13)
  local Y = g:normal(390, 13)
  X:set(5, 3, 0 / 0) -- a NaN row must give NaN rows and columns in every split

  it("give bit-identical distances and kernels for 1 and 2 threads", function()
    local runs = with_threads({ 1, 2 }, function()
      return {
        luma.pairwise.distances(X),
        luma.pairwise.distances(X, Y, "sqeuclidean"),
        luma.pairwise.distances(X, Y, "cosine"),
        luma.pairwise.distances(X, "manhattan"),
        luma.pairwise.distances(X, Y, "minkowski", { p = 3 }),
        luma.pairwise.kernel(X, Y, "rbf", { gamma = 0.1 }),
        luma.pairwise.kernel(X, "polynomial"),
        luma.pairwise.kernel(X:t():t(), Y, "laplacian"),
      }
    end)
    for i = 1, #runs[1] do
      assert.is_true(same_bits(runs[1][i], runs[2][i]), "result " .. i .. " differs")
    end
  end)

  it("compute the same distances as the direct formula", function()
    -- Euclidean by the Gram identity against the direct sum of squares
    -- (minkowski p = 2) on rows without NaN: cancellation bounds the error
    -- by about eps * |x|^2 (docs/ARCHITECTURE.md).
    local clean = X:sub(6, 700, 1, 13)
    local D = with_threads({ 2 }, function() return luma.pairwise.distances(clean) end)[1]
    local direct = luma.pairwise.distances(clean, "minkowski", { p = 2 })
    assert.is_true((D - direct):abs():max() < 1e-12 * 13 * 50)
    assert.is_true(D:eq(D:t()):all())
    assert.equal(0, D:diag():abs():max())
    -- the NaN row stays NaN in the self case, its diagonal included
    local Dn = luma.pairwise.distances(X)
    assert.is_true(Dn:row(5):isnan():all() and Dn:col(5):isnan():all())
  end)

  it("give bit-identical element-wise results on large and strided operands", function()
    local A = g:normal(600, 300)      -- 180,000 elements: several chunks
    local view = A:t():sub(1, 250, 1, 500) -- strided, not contiguous
    local row = g:normal(1, 300)
    local col = g:normal(600, 1)
    local wide = g:normal(1, 100000)  -- one wide row: split by columns
    local runs = with_threads({ 1, 2 }, function()
      return {
        A + row, A:mul(col), A:exp(), A:sigmoid(), view:sqrt(), view - 1,
        wide:exp(), wide:maximum(0.5), A:pow(2), A:lt(col),
      }
    end)
    for i = 1, #runs[1] do
      assert.is_true(same_bits(runs[1][i], runs[2][i]), "result " .. i .. " differs")
    end
    -- and the chunked results equal an element-by-element computation
    local s = runs[2][1]
    for _, ij in ipairs({ { 1, 1 }, { 600, 300 }, { 333, 17 } }) do
      local i, j = ij[1], ij[2]
      assert.equal(A:get(i, j) + row:get(1, j), s:get(i, j))
    end
  end)

  it("keep working in fork pool workers after a parallel region", function()
    local D0 = with_threads({ 2 }, function() return luma.pairwise.distances(X, Y) end)[1]
    local sums = luma.parallel.map(function(i)
      return luma.pairwise.distances(X, Y):sum() + (X:exp():sum() * 0) + i
    end, { 1, 2, 3, 4 }, { n_jobs = 2 })
    for i = 1, 4 do
      local expect = D0:sum() + i
      assert.is_true(sums[i] == expect or (sums[i] ~= sums[i] and expect ~= expect))
    end
  end)
end)
