--- The tf-idf-like documents x words matrix of the sparse estimator rows,
-- which tfidf_data.py builds the same way with NumPy and scipy.sparse:
-- (0-based e = 0 .. n per - 1) entry e is in row floor(e / per), column
-- floor(m g^2) with g the fractional part of 0.6180339887498949 e
-- (squared: low columns are frequent words), count 1 + e mod 3
-- (duplicates summed), each row scaled to unit length; the label is 1
-- where the row's dot product with w_j = ((7 j) mod 11) / 11 - 0.45
-- (0-based j) is above 0.
--   local S, y = dofile(dir .. "/tfidf_data.lua")(n, m, per)
-- SPDX-License-Identifier: MIT
return function(n, m, per)
  local e = luma.arange(0, n * per - 1)
  local a = e * 0.6180339887498949
  local f = a - a:floor()
  local S = luma.sparse.csr(n, m, (e / per):floor() + 1, (f:pow(2) * m):floor() + 1, e % 3 + 1)
  S = S:multiply_rows(S:pow(2):sum(2):sqrt():pow(-1))
  local j = luma.arange(0, m - 1):reshape(m, 1)
  local w = (j * 7 % 11) / 11 - 0.45
  return S, (S * w):gt(0)
end
