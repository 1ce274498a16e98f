--- luma.ensemble.cascade: CascadeClassifier (part of luma.ensemble,
-- docs/ENSEMBLE.md), the attentional cascade of boosted stumps of notes
-- 002 §1.9 E8 (Viola and Jones, Robust Real-Time Face Detection, IJCV
-- 57, 2004): for rare positives among many negatives.
--
-- Stage t is a boosted classifier (the notes' discrete AdaBoost over
-- stumps by default) trained on all the positives and on the negatives
-- that stages 1..t-1 let through.  Rounds are added until the stage meets
-- both targets on its training rows: its threshold is lowered until it
-- keeps detection_rate of the positives, and it must then pass at most
-- false_positive_rate of its negatives.  Stages are added until the
-- cascade's false-positive rate (the product of the stages') reaches
-- target_false_positive_rate or no negative gets through.  A row is
-- positive only if every stage says so, so most negatives are rejected
-- after a stage or two.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.ensemble.common")
local boosting = require("luma.ensemble.weight_boosting")

local fail = common.fail

local cascade = {}

-- The stage's decision after t rounds: sum_s alpha_s h_s(x).
local function stage_scores(stage, X)
  local f = luma.zeros(X:rows(), 1)
  for s = 1, stage.rounds do
    local m = stage.booster.estimators[s]
    f = f + (m:predict(X):eq(stage.booster.classes:get(2, 1)) * 2 - 1)
      * stage.booster.estimator_weights:get(s, 1)
  end
  return f
end

-- The threshold keeping at least a fraction `rate` of the positive
-- scores (the largest such one: the ceil(rate n)-th largest score).
local function detection_threshold(scores, rate)
  local sorted = scores:sort(1)
  local n = sorted:rows()
  local keep = math.max(1, math.ceil(rate * n - 1e-12))
  return sorted:get(n - keep + 1, 1)
end

local function fit_cascade(self, X, y)
  local name, p = self.__class.short_name, self.params
  local _, classes = common.encode_classes(name, y)
  if classes:rows() ~= 2 then
    fail(2, "bad argument #2 to 'fit' (%s is for two classes, y has %d)", name, classes:rows())
  end
  local positive = p.positive_label == nil and classes:get(2, 1) or p.positive_label
  if not classes:eq(positive):any() then
    fail(2, "%s: positive_label %s is not a class", name, tostring(positive))
  end
  self.classes, self.positive_label = classes, positive
  local negative = classes:get(1, 1) == positive and classes:get(2, 1) or classes:get(1, 1)
  self.negative_label = negative
  local is_pos = y:eq(positive)
  local Xp = X:select(is_pos, 1)
  local Xn = X:select(1 - is_pos, 1)
  local seeds = common.seeds(p.seed, p.max_stages)
  self.stages, self.stage_rates = {}, {}
  local overall_fp, overall_det = 1, 1
  for s = 1, p.max_stages do
    if Xn:rows() == 0 or overall_fp <= p.target_false_positive_rate then break end
    local Xs = luma.vstack{ Xp, Xn }
    local ys = luma.vstack{ luma.ones(Xp:rows(), 1), luma.zeros(Xn:rows(), 1) }
    local booster = boosting.AdaBoostClassifier{ estimator = p.estimator, algorithm = "discrete",
      n_estimators = p.max_rounds, seed = seeds[s] }:fit(Xs, ys)
    local stage = { booster = booster, rounds = 0 }
    local fp_rate, det_rate, threshold
    -- add rounds until the stage meets both targets (or runs out of rounds)
    local f_pos, f_neg = luma.zeros(Xp:rows(), 1), luma.zeros(Xn:rows(), 1)
    for t = 1, #booster.estimators do
      local m, alpha = booster.estimators[t], booster.estimator_weights:get(t, 1)
      f_pos = f_pos + (m:predict(Xp) * 2 - 1) * alpha
      f_neg = f_neg + (m:predict(Xn) * 2 - 1) * alpha
      threshold = detection_threshold(f_pos, p.detection_rate)
      det_rate = f_pos:ge(threshold):mean()
      fp_rate = f_neg:ge(threshold):mean()
      stage.rounds = t
      if fp_rate <= p.false_positive_rate then break end
    end
    stage.threshold = threshold
    stage.booster.estimators = { table.unpack(booster.estimators, 1, stage.rounds) }
    stage.booster.estimator_weights = booster.estimator_weights:sub(1, stage.rounds, 1, 1):copy()
    overall_fp, overall_det = overall_fp * fp_rate, overall_det * det_rate
    self.stages[s] = stage
    self.stage_rates[s] = { rounds = stage.rounds, detection_rate = det_rate,
      false_positive_rate = fp_rate, negatives = Xn:rows(), overall_detection_rate = overall_det,
      overall_false_positive_rate = overall_fp }
    -- the negatives this stage lets through train the next one
    Xn = Xn:select(f_neg:ge(threshold), 1)
  end
end

-- How many stages each row passes (all of them: positive).
local function passed(self, X)
  local n = X:rows()
  local alive = luma.ones(n, 1)
  local count = luma.zeros(n, 1)
  for _, stage in ipairs(self.stages) do
    local ok = stage_scores(stage, X):ge(stage.threshold):mul(alive)
    count = count + ok
    alive = ok
  end
  return count
end

cascade.CascadeClassifier = estimator.class{
  name = "luma.ensemble.CascadeClassifier",
  kind = "classifier",
  doc = "An attentional cascade of boosted stumps (Viola and Jones 2004) "
    .. "for rare positives: stage t is discrete AdaBoost trained on all positives and the "
    .. "negatives stages 1..t-1 let through, with rounds added until its threshold keeps "
    .. "detection_rate of the positives while passing at most false_positive_rate of its "
    .. "negatives; stages are added until the product of the false-positive rates reaches "
    .. "target_false_positive_rate. A row is positive only if every stage accepts it. "
    .. "Fitted: stages, stage_rates (per stage: rounds, detection_rate, false_positive_rate, "
    .. "negatives, and the cascade's running rates), classes, positive_label.",
  params = {
    { name = "detection_rate", type = "number", default = 0.99, gt = 0, max = 1,
      doc = "least fraction of the positives each stage keeps" },
    { name = "false_positive_rate", type = "number", default = 0.5, gt = 0, lt = 1,
      doc = "most fraction of its negatives a stage may pass" },
    { name = "target_false_positive_rate", type = "number", default = 1e-3, gt = 0, lt = 1,
      doc = "stop adding stages once the cascade's false-positive rate is this low" },
    { name = "max_stages", type = "integer", default = 10, min = 1, doc = "most stages" },
    { name = "max_rounds", type = "integer", default = 50, min = 1,
      doc = "most boosting rounds (stumps) per stage" },
    { name = "estimator", type = "estimator", doc = "the weak learner (default: a stump)" },
    { name = "positive_label", type = "number", doc = "the rare class (default: the larger label)" },
    { name = "seed", type = "seed", doc = "seeds of the weak learners" },
  },
  example = function()
    local g = luma.random.Generator(1)
    local X = g:normal(300, 2)
    local y = X:col(1):add(X:col(2)):gt(1.5)
    return cascade.CascadeClassifier{ max_stages = 3, max_rounds = 5 }, X, y
  end,
  method_docs = {
    stages_passed = { signature = "est:stages_passed(X) -> counts",
      doc = "How many stages in a row accept each row of X (the cascade's length: positive). "
        .. "Returns an n x 1 matrix." },
  },
  fit = fit_cascade,
  stages_passed = function(self, X)
    common.fitted_check(self, "stages_passed", X)
    return passed(self, X)
  end,
  predict = function(self, X)
    local pos = passed(self, X):eq(#self.stages)
    return pos * self.positive_label + (1 - pos) * self.negative_label
  end,
}

return cascade
