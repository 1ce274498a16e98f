-- A grid search spread over the ranks of an MPI job (docs/PARALLEL.md):
-- every rank runs this script; rank 0 hands out the 60 (C, fold) fits,
-- the other ranks run them, and every rank ends with the same results.
--   mpirun -np 3 build/luma scripts/examples/mpi_search.lua [model.luma]
--   sbatch scripts/examples/sbatch_search.sh         (under Slurm)
--   build/luma scripts/examples/mpi_search.lua       (alone: one rank)
-- With a file name, rank 0 saves the refitted best model there.
-- (The gallery runs it alone, without a file name:)
-- gallery-args:
-- SPDX-License-Identifier: MIT
local X, y = luma.datasets.load("breast_cancer")
local Cs = {}
for i = 0, 11 do Cs[#Cs + 1] = 10 ^ (-3 + 6 * i / 11) end

local search = luma.model_selection.GridSearch{
  estimator = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{},
    luma.linear.LogisticRegression{ max_iter = 1000 }),
  param_grid = { logisticregression__C = Cs },
  cv = 5,
  backend = "mpi",
}
search:fit(X, y)

-- Every rank holds the same results; one of them reports.
if luma.parallel.rank() == 0 then
  print(string.format("%d ranks (%d fitting)", luma.parallel.size(),
    math.max(luma.parallel.size() - 1, 1)))
  print(search.results)
  print(string.format("best C %.4g, cross-validated accuracy %.4f",
    search.best_params.logisticregression__C, search.best_score))
  if arg[1] then luma.save(search.best_estimator, arg[1]) end
end
