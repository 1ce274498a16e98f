-- A detection cascade on a synthetic imbalanced problem (notes 002 §1.9
-- E8, Viola and Jones 2004): 1% positives, a small blob inside a wide
-- cloud of negatives in 6 dimensions.  Each stage is trained on all the
-- positives and the negatives the earlier stages let through; the table
-- shows each stage's rounds (stumps) and rates, then the cascade on fresh
-- test data, and how few stages the average negative costs.
--   luma scripts/examples/cascade.lua
-- SPDX-License-Identifier: MIT
local g = luma.random.Generator(7)

local function sample(n_pos, n_neg)
  local pos = g:normal(n_pos, 6) * 0.5 + 1.5 -- the rare class
  local neg = g:normal(n_neg, 6)
  local X = luma.vstack{ pos, neg }
  local y = luma.vstack{ luma.ones(n_pos, 1), luma.zeros(n_neg, 1) }
  return X, y
end

local X, y = sample(300, 30000)
local model = luma.ensemble.CascadeClassifier{ detection_rate = 0.99, false_positive_rate = 0.3,
  target_false_positive_rate = 1e-3, max_stages = 8, max_rounds = 40, seed = 1 }:fit(X, y)

print("stage  rounds  negatives  detection  false_pos  cascade_det  cascade_fp")
for s, r in ipairs(model.stage_rates) do
  print(string.format("%5d  %6d  %9d  %9.4f  %9.4f  %11.4f  %10.6f", s, r.rounds, r.negatives,
    r.detection_rate, r.false_positive_rate, r.overall_detection_rate, r.overall_false_positive_rate))
end

local Xt, yt = sample(1000, 100000)
local pred = model:predict(Xt)
local positives = yt:eq(1)
local detection = pred:mul(positives):sum() / positives:sum()
local false_pos = pred:mul(1 - positives):sum() / (1 - positives):sum()
local passed = model:stages_passed(Xt)
local cost = (passed + passed:lt(#model.stages)):mul(1 - positives):sum() / (1 - positives):sum()
print(string.format("test: detection rate %.4f, false-positive rate %.6f", detection, false_pos))
print(string.format("stages evaluated per negative: %.3f of %d", cost, #model.stages))
