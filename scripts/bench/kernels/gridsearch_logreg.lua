-- Grid search of a scaler + logistic regression pipeline on breast_cancer:
-- 20 values of C (10^-3 .. 10^3, geometric) x 5 stratified folds, n_jobs
-- from arg[1] (default 1; "mpi" for the mpi backend, run under mpirun);
-- prints the best of 3 searches and checks the chosen C against the
-- peer's (stderr).  Under mpirun every rank runs the searches and rank 0
-- prints.
-- SPDX-License-Identifier: MIT
local n_jobs = arg[1] == "mpi" and "mpi" or tonumber(arg[1]) or 1
local X, y = luma.datasets.load("breast_cancer")
local Cs = {}
for i = 0, 19 do Cs[#Cs + 1] = 10 ^ (-3 + 6 * i / 19) end
local model = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{},
  luma.linear.LogisticRegression{ max_iter = 1000 })
local best, search = math.huge, nil
for _ = 1, 3 do
  search = luma.model_selection.GridSearch{ estimator = model, cv = 5, n_jobs = n_jobs,
    param_grid = { logisticregression__C = Cs } }
  local t0 = luma.now()
  search:fit(X, y)
  best = math.min(best, luma.now() - t0)
end
if luma.parallel.rank() == 0 then
  io.stderr:write(string.format("best C %.6g, score %.6f\n",
    search.best_params.logisticregression__C, search.best_score))
  print("time " .. best)
end
