-- Sparse x sparse: two 200,000 x 200,000 CSR matrices with 10 entries a
-- row (2 x 10^6 entries), multiplied (about 2 x 10^7 multiply-adds, a
-- product of about 2 x 10^7 entries); best of 3.  The data come from the
-- formula of sparse_add.lua (columns by golden-ratio hashing with the
-- ratios 0.6180339887498949 and 0.7548776662466927, values 1 + e mod 7
-- and 1 + e mod 5), which sparse_spgemm.py repeats with NumPy.  Prints the
-- time; the product's entry count and sum go to stderr.
-- SPDX-License-Identifier: MIT
local n, per = 200000, 10
local e = luma.arange(0, n * per - 1)
local rows = (e / per):floor() + 1
local function column(ratio)
  local a = e * ratio
  return ((a - a:floor()) * n):floor() + 1
end
local A = luma.sparse.csr(n, n, rows, column(0.6180339887498949), e % 7 + 1)
local B = luma.sparse.csr(n, n, rows, column(0.7548776662466927), e % 5 + 1)
local best, C = math.huge, nil
for _ = 1, 3 do
  C = nil
  collectgarbage()
  local t0 = luma.now()
  C = A * B
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("nnz %d sum %.10g\n", C:nnz(), C:sum()))
print("time " .. best)
