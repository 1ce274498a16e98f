-- The peer side of the SVM rows: LIBSVM's svm-train then svm-predict on
-- the same file and parameters as svm.lua (-c, -g, -e, -m 100), or
-- LIBLINEAR's train (-s 1: L2-loss dual coordinate descent, -B 1: the
-- intercept feature, -e 0.1); prints "time <s>" for the whole run.
--   svm_tools.lua BUILD CASE
-- SPDX-License-Identifier: MIT
local build, case = arg[1] or "build", arg[2] or "twoclass"
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local pipe = assert(io.popen(string.format("%q %q %q %q", arg[-1], here .. "/svm_data.lua",
  build, case)))
local path = pipe:read("l")
pipe:close()
local model, out = path .. ".model", path .. ".out"
local commands
if case == "linear" then
  commands = { string.format("liblinear-train -q -s 1 -c 0.1 -e 0.1 -B 1 %q %q", path, model) }
else
  local cg = case == "digits" and "-c 10 -g 0.001" or "-c 1 -g 0.02"
  commands = {
    string.format("svm-train -q %s -e 0.001 -m 100 %q %q", cg, path, model),
    string.format("svm-predict -q %q %q %q", path, model, out),
  }
end
local t0 = luma.now()
for _, c in ipairs(commands) do assert(os.execute(c .. " >/dev/null"), c) end
print("time " .. (luma.now() - t0))
os.remove(model)
os.remove(out)
