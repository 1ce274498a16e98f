-- The README's `make run` job.  For now a short tour of the matrix type;
-- it becomes a real model-selection experiment when luma.model_selection
-- lands.
local luma = require("luma")

print(string.format("Luma %s on %s (%d BLAS threads)", luma.VERSION,
  luma.config().blas_config:match("^%S+ %S+"), luma.config().blas_threads))

-- Four samples (rows) of three features (columns).
local X = luma.matrix{
  {5.1, 3.5, 1.4},
  {4.9, 3.0, 1.4},
  {6.2, 2.9, 4.3},
  {5.9, 3.0, 5.1},
}
print("X =")
print(X)

-- Column means, computed through a transposed view (no copy).
local n, d = X:shape()
local means = luma.zeros(1, d)
local Xt = X:t()
for j = 1, d do
  local s = 0
  for i = 1, n do s = s + Xt:get(j, i) end
  means:set(1, j, s / n)
end
print("column means =")
print(means)

-- Views share storage: centering a column in place changes X.
local first = X:col(1)
for i = 1, n do first:set(i, 1, first:get(i, 1) - means:get(1, 1)) end
print("X with its first column centered =")
print(X)
print(luma.help(luma.eye))
