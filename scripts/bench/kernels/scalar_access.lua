-- Scalar access from a script loop: X:get(i, j), X:set(i, j, v) and
-- X[i][j] on a 100 x 100 matrix, 10^6 calls each; prints the seconds per
-- call of get and set together (the mean of the two).  With SCALAR_ACCESS
-- set to "index" it times X[i][j] instead.
local X = luma.random.Generator(1):normal(100, 100)
local calls = 1000000
local mode = os.getenv("SCALAR_ACCESS") or "getset"
local sum = 0
local t0 = luma.now()
if mode == "index" then
  for k = 1, calls do
    local i = k % 100 + 1
    sum = sum + X[i][(k * 7) % 100 + 1]
  end
  print("time " .. (luma.now() - t0) / calls)
else
  for k = 1, calls do
    sum = sum + X:get(k % 100 + 1, (k * 7) % 100 + 1)
  end
  for k = 1, calls do
    X:set(k % 100 + 1, (k * 7) % 100 + 1, k)
  end
  print("time " .. (luma.now() - t0) / (2 * calls))
end
assert(sum == sum)
