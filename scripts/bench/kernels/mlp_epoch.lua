-- One epoch of Adam (batch 128) for an MLP 64-256-256-10 on 50,000 x 64,
-- ReLU, cross-entropy: the time of MLPClassifier's fit with max_iter = 1
-- (best of 3).  The data come from a formula mlp_epoch.py and
-- mlp_epoch_torch.py repeat (0-based i, j):
-- X[i][j] = sin(0.37 i + 1.91 j + 0.0013 i j), y = i mod 10.
--   luma mlp_epoch.lua [parallel]
-- "parallel": with data_parallel = true, run under mpirun (each rank takes
-- one shard of every batch); rank 0 prints the time, not mpirun's start-up.
-- SPDX-License-Identifier: MIT
local data_parallel = arg[1] == "parallel"
local n, d = 50000, 64
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local X = (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin()
local y = i - (i / 10):floor() * 10
local best = math.huge
for _ = 1, 3 do
  local m = luma.nn.MLPClassifier{ hidden_layer_sizes = { 256, 256 }, batch_size = 128, max_iter = 1,
    shuffle = false, alpha = 0, seed = 1, data_parallel = data_parallel }
  local t0 = luma.now()
  m:fit(X, y)
  best = math.min(best, luma.now() - t0)
end
if luma.mpi.rank() == 0 then print("time " .. best) end
