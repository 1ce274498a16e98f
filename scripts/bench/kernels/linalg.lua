-- One LAPACK operation on an n x n matrix (default 1000); prints the best of 3 runs.
-- Usage: luma linalg.lua OP [n], OP one of solve, cholesky, svd, eigh.
-- The matrices match linalg.py: A[i][j] = 1 / (1 + |i - j|) + n [i == j] is
-- symmetric positive definite; C adds 0.5 above the diagonal.
-- SPDX-License-Identifier: MIT
local op, n = arg[1], tonumber(arg[2]) or 1000
local I = luma.arange(n)
local J = I:t()
local A = (I - J):abs():add(1):pow(-1) + luma.eye(n) * n
local C = A + J:gt(I) * 0.5
local b = luma.ones(n, 1)
local la = luma.linalg
local run = ({
  solve = function() return la.solve(C, b) end,
  cholesky = function() return la.cholesky(A) end,
  svd = function() return la.svd(C) end,
  eigh = function() return la.eigh(A) end,
})[op]
assert(run, "unknown op " .. tostring(op))
local best = math.huge
for _ = 1, 3 do
  local t0 = luma.now()
  run()
  best = math.min(best, luma.now() - t0)
end
print("time " .. best)
