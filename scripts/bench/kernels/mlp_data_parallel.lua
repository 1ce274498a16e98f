-- One epoch of Adam (batch 128) for the MLP 64-256-256-10 of mlp_epoch.lua
-- on its 50,000 x 64 data: with data_parallel = true under mpirun (each
-- rank takes one shard of every batch), or alone without it.  Rank 0
-- prints the time of the fit (best of 3), not mpirun's start-up.
--   luma mlp_data_parallel.lua parallel | alone
local mode = arg[1]
local n, d = 50000, 64
local i = luma.arange(0, n - 1)
local j = luma.arange(0, d - 1):t()
local X = (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin()
local y = i - (i / 10):floor() * 10
local best = math.huge
for _ = 1, 3 do
  local m = luma.nn.MLPClassifier{ hidden_layer_sizes = { 256, 256 }, batch_size = 128, max_iter = 1,
    shuffle = false, alpha = 0, seed = 1, data_parallel = mode == "parallel" }
  local t0 = luma.now()
  m:fit(X, y)
  best = math.min(best, luma.now() - t0)
end
if luma.mpi.rank() == 0 then print("time " .. best) end
