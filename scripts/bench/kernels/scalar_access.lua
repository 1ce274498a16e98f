-- Scalar access from a script loop: X:get(i, j), X:set(i, j, v) and
-- X[i][j] on a 100 x 100 matrix at a fixed element, 10^6 calls each;
-- prints the seconds per call of get and set together (the mean of the
-- two), loop included.  With SCALAR_ACCESS set to "index" it times
-- X[i][j] reads instead.
-- SPDX-License-Identifier: MIT
local X = luma.random.Generator(1):normal(100, 100)
local calls = 1000000
local mode = os.getenv("SCALAR_ACCESS") or "getset"
local i, j = 37, 42
local sum = 0
local t0 = luma.now()
if mode == "index" then
  for _ = 1, calls do sum = sum + X[i][j] end
  print("time " .. (luma.now() - t0) / calls)
else
  for _ = 1, calls do sum = sum + X:get(i, j) end
  for k = 1, calls do X:set(i, j, k) end
  print("time " .. (luma.now() - t0) / (2 * calls))
end
assert(sum == sum)
