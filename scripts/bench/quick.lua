-- `make bench-quick` (run.lua --quick): the rows that move first when the
-- core changes -- the matrix type's dense kernels and element-wise loops,
-- the cost of a call from Lua, the optimizer with a native loss, a
-- distance matrix and a BLAS-backed fit -- with fewer runs per side than
-- `make bench` so that the whole list takes under 3 minutes (README.md,
-- "Quick subset").  runs: per side (default: the row's own).  Read as data,
-- in an empty environment; every name must be a file in rows/.
-- SPDX-License-Identifier: MIT
return {
  { name = "matmul-2000", runs = 3 },
  { name = "add-1e7", runs = 3 },
  { name = "exp-1e7", runs = 3 },
  { name = "small-3x3-calls", runs = 3 },
  { name = "logreg-lbfgs-1e5x50-k2", runs = 3 },
  { name = "optim-lbfgs-logistic-1e5x50", runs = 3 },
  { name = "pairwise-euclidean-5000", runs = 3 },
  { name = "kmeans-lloyd-2e5x20-k16", runs = 2 },
}
