-- luma.nn.DataParallel and MLPClassifier's data_parallel (lua/luma/nn/parallel.lua,
-- luma.mpi.allgather): alone, the gradient over shards is the batch's;
-- under mpirun (tests/nn/parallel_job.lua) 1, 2 and 3 ranks end with the
-- same weights bit for bit, and a rank that leaves ends the job with an
-- error instead of a hang.  Without mpirun the mpirun specs are pending.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local nn = luma.nn

local JOB = "tests/nn/parallel_job.lua"
local have_mpirun = os.execute("command -v mpirun > /dev/null 2>&1") == true
local usable = have_mpirun and luma.mpi.available and os.getenv("LUMA_SANITIZED") ~= "1"

local function model()
  return nn.Sequential(nn.Linear(4, 6, { generator = luma.random.Generator(1) }), nn.Tanh(),
    nn.Linear(6, 3, { generator = luma.random.Generator(2) }))
end

local g = luma.random.Generator(9)
local X = g:normal(10, 4)
local y = luma.matrix{ 1, 2, 3, 1, 2, 3, 3, 2, 1, 1 }
local loss_fn = nn.CrossEntropyLoss()

describe("luma.nn.DataParallel alone", function()
  it("gives the whole batch's loss and gradient from any number of shards", function()
    local reference = model()
    local expected = loss_fn(reference(X), y)
    expected:backward()
    for _, shards in ipairs({ 1, 3, 4, 10, 13 }) do -- 13 > 10 rows: three empty shards
      local m = model()
      local dp = nn.DataParallel{ params = m:parameters(), shards = shards }
      local loss = dp:backward(function(Xs, ys) return loss_fn(m(Xs), ys) end, X, y)
      assert.are.near(expected.value:get(1, 1), loss, 1e-14)
      for i, p in ipairs(m:parameters()) do
        assert.matrix_near(reference:parameters()[i].grad, p.grad, 1e-14)
      end
    end
  end)

  it("adds to gradients the parameters already have", function()
    local m = model()
    local params = m:parameters()
    local dp = nn.DataParallel{ params = params, shards = 2 }
    dp:backward(function(Xs, ys) return loss_fn(m(Xs), ys) end, X, y)
    local once = params[1].grad:copy()
    dp:backward(function(Xs, ys) return loss_fn(m(Xs), ys) end, X, y)
    assert.matrix_near(once * 2, params[1].grad, 1e-14)
  end)

  it("refuses bad parameters, shards, data and losses", function()
    local m = model()
    errors_with("DataParallel: params must be a non%-empty list of Variables", function()
      nn.DataParallel{ params = {} }
    end)
    errors_with("DataParallel: params%[2%] is a number", function()
      nn.DataParallel{ params = { m:parameters()[1], 3 } }
    end)
    errors_with("DataParallel: shards must be a positive integer, got 0", function()
      nn.DataParallel{ params = m:parameters(), shards = 0 }
    end)
    local dp = nn.DataParallel{ params = m:parameters(), shards = 2 }
    local function f(Xs, ys) return loss_fn(m(Xs), ys) end
    errors_with("the data matrices have 10 and 9 rows", function() dp:backward(f, X, y:sub(1, 9)) end)
    errors_with("no data matrices", function() dp:backward(f) end)
    errors_with("bad argument #3 to 'backward' %(luma.Matrix expected, got table%)", function()
      dp:backward(f, X, { 1, 2 })
    end)
    errors_with("fn must return a 1 x 1 Variable %(the shard's mean loss%), got a 5 x 3 Variable",
      function() dp:backward(function(Xs) return m(Xs) end, X) end)
    errors_with("bad argument #1 to 'backward' %(function expected", function() dp:backward(1, X) end)
  end)

  it("is an MLP option that refuses batch norm and dropout", function()
    local Xc, yc = g:normal(40, 3), luma.arange(1, 40) % 2
    local plain = nn.MLPClassifier{ hidden_layer_sizes = { 5 }, max_iter = 3, seed = 2, batch_size = 10 }:fit(Xc, yc)
    local sharded = nn.MLPClassifier{ hidden_layer_sizes = { 5 }, max_iter = 3, seed = 2, batch_size = 10,
      data_parallel = 4 }:fit(Xc, yc)
    -- the same batches and steps; the shards' sums differ only in rounding
    assert.matrix_near(plain.coefs[1], sharded.coefs[1], 1e-12)
    assert.are.near(plain.loss, sharded.loss, 1e-12)
    errors_with("data_parallel cannot be combined with batch_norm or dropout", function()
      nn.MLPClassifier{ max_iter = 1, data_parallel = true, batch_norm = true }:fit(Xc, yc)
    end)
    errors_with("parameter 'data_parallel' must be a boolean or integer >= 1, got 0", function()
      nn.MLPClassifier{ data_parallel = 0 }
    end)
  end)

  it("luma.mpi.allgather alone returns a copy and its rows", function()
    local M = luma.matrix{ { 1, 2 }, { 3, 4 } }
    local all, counts = luma.mpi.allgather(M)
    assert.are.same({ 2 }, counts)
    assert.is_true(all:equal(M))
    all:set(1, 1, 9)
    assert.are.equal(1, M:get(1, 1))
  end)
end)

describe("luma.nn.DataParallel under mpirun", function()
  local function under_mpirun(name, fn)
    if usable then it(name, fn) else pending(name .. " (no mpirun or no MPI in this build)") end
  end
  local env = { OMPI_ALLOW_RUN_AS_ROOT = "1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = "1",
    -- one BLAS thread alone too, as every rank has under mpirun: bit for bit
    -- needs the same products, which the thread count may change
    LUMA_NUM_THREADS = "1", OPENBLAS_NUM_THREADS = "1" }
  local function job(np, mode, extra)
    local all_env = {}
    for k, v in pairs(env) do all_env[k] = v end
    for k, v in pairs(extra or {}) do all_env[k] = v end
    local cmd = np == 1 and string.format("timeout 60 %s %s %s", support.quote(support.luma), JOB, mode)
      or string.format("timeout 60 mpirun --oversubscribe -np %d %s %s %s", np,
        support.quote(support.luma), JOB, mode)
    local out, err, code = support.run(cmd, nil, all_env)
    return out .. err, code
  end

  under_mpirun("ends with the same weights bit for bit with 1, 2 and 3 ranks", function()
    local seen = {}
    for np = 1, 3 do
      local out, code = job(np, "train")
      assert.equal(0, code, out)
      local ranks = 0
      for _, weights in out:gmatch("weights (%d+) (%S+ %S+)") do
        ranks = ranks + 1
        seen[#seen + 1] = weights
      end
      assert.equal(np, ranks, out)
    end
    for i = 2, #seen do assert.equal(seen[1], seen[i]) end
  end)

  under_mpirun("ends with an error, not a hang, when a rank leaves", function()
    local t0 = luma.now()
    local out = job(3, "leave", { LUMA_MPI_TIMEOUT = "5" })
    assert.matches("left 0 luma%.mpi%.allgather: rank 2 %(pid %d+ on [^)]+%) shut MPI down", out)
    assert.is_true(luma.now() - t0 < 30, "took " .. (luma.now() - t0) .. " s")
  end)
end)
