-- The Luma side of the tree and ensemble rows:
--   luma trees.lua MODEL N D DATA_DIR PYTHON [THREADS]
-- Reads make_classification(N, D, random_state=0) from the .npy files
-- trees.py writes (running it once to create them), so both sides fit the
-- same data.  Prints "time <seconds>" of the timed work.
local model, n, d, dir, python = arg[1], tonumber(arg[2]), tonumber(arg[3]), arg[4], arg[5]
local threads = tonumber(arg[6] or "1")
local prefix = string.format("%s/classification-%dx%d", dir, n, d)
local f = io.open(prefix .. "-y.npy", "rb")
if f then
  f:close()
else
  local here = arg[0]:match("^(.*)/[^/]*$") or "."
  assert(os.execute(string.format("%s %s/trees.py data %d %d %s", python, here, n, d, dir)))
end
local X = luma.io.read_npy(prefix .. "-X.npy")
local y = luma.io.read_npy(prefix .. "-y.npy")
luma.config{ threads = threads }

if model == "tree" then
  local t0 = luma.now()
  luma.tree.DecisionTreeClassifier{ seed = 0 }:fit(X, y)
  print("time " .. (luma.now() - t0))
end
