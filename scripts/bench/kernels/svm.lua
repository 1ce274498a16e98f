-- Luma's side of the SVM rows: reads CASE's LIBSVM file (svm_data.lua),
-- fits, predicts the same rows, prints "time <s>" for all of it (reading
-- included, as the tools' time includes their parsing) and the support
-- vector count on stderr.
--   svm.lua BUILD CASE [THREADS]
-- CASE "twoclass": SVC C = 1, gamma = 0.02, tol = 1e-3, cache 100 MB;
-- "digits": SVC C = 10, gamma = 0.001, tol = 1e-3, cache 100 MB (one-vs-one);
-- "linear": LinearSVC C = 0.1, tol = 0.1 (fit only, as LIBLINEAR's train).
-- SPDX-License-Identifier: MIT
local build, case, threads = arg[1] or "build", arg[2] or "twoclass", tonumber(arg[3]) or 1
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local pipe = assert(io.popen(string.format("%q %q %q %q", arg[-1], here .. "/svm_data.lua",
  build, case)))
local path = pipe:read("l")
pipe:close()
luma.config{ threads = math.tointeger(threads) }
local t0 = luma.now()
local X, y = luma.io.read_libsvm(path)
if case == "linear" then
  luma.svm.LinearSVC{ C = 0.1, tol = 0.1 }:fit(X, y)
else
  local p = case == "digits" and { C = 10, gamma = 0.001 } or { C = 1, gamma = 0.02 }
  p.tol, p.cache_size = 1e-3, 100
  local m = luma.svm.SVC(p):fit(X, y)
  m:predict(X)
  io.stderr:write("nSV " .. m.support:rows() .. "\n")
end
print("time " .. (luma.now() - t0))
