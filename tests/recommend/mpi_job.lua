-- Run by tests/recommend/recommend_spec.lua alone or under mpirun: fits
-- AltMin and ImplicitALS with the half-sweeps' rows shared among the
-- ranks (mpi = true) and prints "factors <rank> <digests>".
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local mpi = luma.mpi

-- 37 users x 23 items (odd sizes: the ranks' blocks differ in size)
local g = luma.random.Generator(6)
local R = luma.sparse.random(37, 23, 0.3, g)
local explicit = luma.recommend.AltMin{ n_factors = 3, max_iter = 4, seed = 1, mpi = true }:fit(R)
local implicit = luma.recommend.ImplicitALS{ n_factors = 3, max_iter = 3, seed = 1, mpi = true }
  :fit(R)
print(string.format("factors %d %s %s %s %s", mpi.rank(), mpi.digest(explicit.user_factors),
  mpi.digest(explicit.item_factors), mpi.digest(implicit.user_factors),
  mpi.digest(implicit.item_factors)))
