-- Run by tests/nn/parallel_spec.lua, alone or under mpirun: trains with
-- data-parallel gradients and prints what every rank ends with.
--   luma parallel_job.lua train   -- "weights <rank> <digest of every weight>"
--   luma parallel_job.lua leave   -- rank 2 ends before the exchanges; the
--                                    others print "left <rank> <error>"
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local mpi = luma.mpi
local mode = arg[1]
local rank = mpi.rank()

-- a classifier of 3 classes on 90 rows, 6 shards: 1, 2 or 3 ranks give
-- the same weights
local g = luma.random.Generator(4)
local X = g:normal(90, 4)
local y = (X:col(1) * 2 + X:col(2)):gt(0) + (X:col(3) - X:col(4)):gt(0.5)
local function fit()
  return luma.nn.MLPClassifier{ hidden_layer_sizes = { 8 }, batch_size = 20, max_iter = 5,
    seed = 1, data_parallel = 6, alpha = 0.01 }:fit(X, y)
end

if mode == "train" then
  local m = fit()
  local parts = {}
  for i = 1, #m.coefs do parts[#parts + 1] = mpi.digest(m.coefs[i]) .. mpi.digest(m.intercepts[i]) end
  print(string.format("weights %d %s %.17g", rank, table.concat(parts, ""), m.loss))
elseif mode == "leave" then
  if rank == 2 then return end
  local ok, err = pcall(fit)
  print(string.format("left %d %s", rank, ok and "no error" or tostring(err)))
end
