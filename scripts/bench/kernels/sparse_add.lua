-- Sparse + sparse: two 1,000,000 x 100,000 CSR matrices with 10 entries
-- a row each (10^7 entries), added; best of 3.  The data come from the
-- formula of sparse_matmul.lua, which sparse_add.py repeats with NumPy
-- (0-based e = 0 .. 9,999,999): row floor(e / 10), column floor(100000 f)
-- with f the fractional part of 0.6180339887498949 e for the first
-- matrix and of 0.7548776662466927 e for the second, values 1 + e mod 7
-- and -(1 + e mod 5) (integers: sums are exact, and some cancel).  Prints
-- the time; the result's entry count and sum go to stderr.
-- SPDX-License-Identifier: MIT
local n, m, per = 1000000, 100000, 10
local e = luma.arange(0, n * per - 1)
local rows = (e / per):floor() + 1
local function column(ratio)
  local a = e * ratio
  return ((a - a:floor()) * m):floor() + 1
end
local A = luma.sparse.csr(n, m, rows, column(0.6180339887498949), e % 7 + 1)
local B = luma.sparse.csr(n, m, rows, column(0.7548776662466927), -(e % 5 + 1))
local best, C = math.huge, nil
for _ = 1, 3 do
  C = nil
  collectgarbage()
  local t0 = luma.now()
  C = A + B
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("nnz %d sum %.10g\n", C:nnz(), C:sum()))
print("time " .. best)
