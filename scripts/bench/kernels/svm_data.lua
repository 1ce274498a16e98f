-- The data files of the SVM benchmark rows, in LIBSVM's text format so
-- that Luma (luma.io.read_libsvm) and the LIBSVM / LIBLINEAR tools read
-- the very same numbers.  Written once into the build directory:
--   svm_data.lua BUILD CASE  -> prints the path of CASE's file
-- CASE "twoclass": 20,000 x 50, X[i][j] = sin(0.37 i + 1.91 j + 0.0013 i j)
--   (0-based), label +1 where x1+..+x5 + x6 x11 + .. + x10 x15 + 0.8 sin(0.731 i) > 0;
-- CASE "digits": luma.datasets "digits" (1,797 x 64, labels 0..9);
-- CASE "linear": 100,000 x 100, X[i][j] = round(8 sin(0.37 i + 1.91 j +
--   0.0013 i j)) / 8 (eighths: exact in binary, so short in the file), label +1
--   where sum_j cos(0.77 j) x_j + 0.5 sin(0.731 i) > 0.
-- SPDX-License-Identifier: MIT
local build, case = arg[1] or "build", arg[2] or "twoclass"

local function grid(n, d)
  local i = luma.arange(0, n - 1)
  local j = luma.arange(0, d - 1):t()
  return (i * 0.37 + j * 1.91 + (i * j:mul(0.0013))):sin(), i, j
end

local MAKERS = {
  twoclass = function()
    local X, i = grid(20000, 50)
    local s = X:sub(nil, nil, 1, 5):sum(2) + X:sub(nil, nil, 6, 10):mul(X:sub(nil, nil, 11, 15)):sum(2)
      + (i * 0.731):sin():mul(0.8)
    return X, s:gt(0) * 2 - 1
  end,
  digits = function() return luma.datasets.load("digits") end,
  linear = function()
    local S, i, j = grid(100000, 100)
    local X = (S * 8):round() / 8
    local s = X * (j * 0.77):cos():t() + (i * 0.731):sin():mul(0.5)
    return X, s:gt(0) * 2 - 1
  end,
}

local path = string.format("%s/bench-svm-%s.txt", build, case)
local f = io.open(path, "rb")
if f then
  f:close()
else
  local X, y = assert(MAKERS[case], "unknown case " .. case)()
  luma.io.write_libsvm(X, y, path .. ".tmp")
  assert(os.rename(path .. ".tmp", path))
end
print(path)
