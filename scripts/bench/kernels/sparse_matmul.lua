-- Sparse x dense product: a 100,000 x 10,000 CSR matrix with density
-- 1e-3 (10 entries a row) times a 10,000 x 64 dense matrix, into a
-- preallocated result; best of 5.  The data come from a formula
-- sparse_matmul.py repeats with NumPy (0-based e = 0 .. 999,999): row
-- floor(e / 10), column floor(10000 f) with f the fractional part of
-- 0.6180339887498949 e (golden-ratio hashing), value 1 + e mod 7
-- (integers, so duplicate positions sum exactly in any order); the dense
-- matrix holds (q mod 13) / 13 - 0.5 at row-major position q.  Prints
-- the time; the entry count and the result's sum go to stderr.  Optional
-- arguments: rows, columns, entries per row, dense columns, repeats (the
-- csr-dense-matmul row's 1e6 x 1e5 with 1e7 entries).
-- SPDX-License-Identifier: MIT
local n, m, per, k = tonumber(arg[1]) or 100000, tonumber(arg[2]) or 10000, tonumber(arg[3]) or 10,
  tonumber(arg[4]) or 64
local repeats = tonumber(arg[5]) or 5
local e = luma.arange(0, n * per - 1)
local a = e * 0.6180339887498949
local f = a - a:floor()
local S = luma.sparse.csr(n, m, (e / per):floor() + 1, (f * m):floor() + 1, e % 7 + 1)
local q = luma.arange(0, m * k - 1)
local B = ((q % 13) / 13 - 0.5):reshape(m, k)
local out = luma.zeros(n, k)
local best = math.huge
for _ = 1, repeats do
  local t0 = luma.now()
  S:matmul(B, out)
  best = math.min(best, luma.now() - t0)
end
io.stderr:write(string.format("nnz %d sum %.10g\n", S:nnz(), out:sum()))
print("time " .. best)
