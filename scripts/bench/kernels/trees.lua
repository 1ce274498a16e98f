-- The Luma side of the tree and ensemble rows:
--   luma trees.lua MODEL N D DATA_DIR PYTHON [THREADS]
-- MODEL as in trees.py (tree, forest, hgb).  Reads make_classification(N,
-- D, random_state=0) from the .npy files trees.py writes (running it once
-- to create them), so both sides fit the same data.  Prints "time
-- <seconds>" of the timed work (and the hgb test accuracy to stderr).
-- SPDX-License-Identifier: MIT
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

if model == "forest" then
  local t0 = luma.now()
  local m = luma.ensemble.RandomForestClassifier{ n_estimators = 100, seed = 0 }:fit(X, y)
  m:predict(X)
  print("time " .. (luma.now() - t0))
end

if model == "hgb" then
  local cut = n * 4 // 5
  local Xtr, ytr = X:sub(1, cut, 1, d):copy(), y:sub(1, cut, 1, 1):copy()
  local Xte, yte = X:sub(cut + 1, n, 1, d):copy(), y:sub(cut + 1, n, 1, 1):copy()
  local t0 = luma.now()
  local m = luma.ensemble.HistGradientBoostingClassifier{ max_iter = 100, early_stopping = false }
    :fit(Xtr, ytr)
  local elapsed = luma.now() - t0
  io.stderr:write(string.format("accuracy %.6f\n", m:score(Xte, yte)))
  print("time " .. elapsed)
end
