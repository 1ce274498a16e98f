--- luma.model_selection: choosing and evaluating models by resampling
-- (docs/ESTIMATORS.md, "Model selection and pipelines").  The package
-- table gathers the public members of its parts:
--   splitters   KFold, StratifiedKFold, the repeated, leave-out, shuffle,
--               group, time-series and predefined splitters,
--               train_test_split, check_cv
--   validation  cross_validate, cross_val_score, cross_val_predict
--   search      GridSearch, RandomSearch, Results, the samplers uniform,
--               log_uniform, randint (and their metatable Sampler)
--   curves      validation_curve, learning_curve
--   common      helpers the parts share (scorers, fit_and_score, checks);
--               not re-exported
local luma = require("luma")

local ms = {}

for _, part in ipairs({ "splitters", "validation", "search", "curves" }) do
  for name, value in pairs(require("luma.model_selection." .. part)) do ms[name] = value end
end

luma.doc.set(ms, { name = "luma.model_selection",
  doc = "Splitters (KFold, StratifiedKFold, RepeatedKFold, RepeatedStratifiedKFold, "
    .. "LeaveOneOut, LeavePOut, ShuffleSplit, StratifiedShuffleSplit, GroupKFold, "
    .. "TimeSeriesSplit, PredefinedSplit), train_test_split, check_cv, cross_validate, "
    .. "cross_val_score, cross_val_predict, GridSearch, RandomSearch (with uniform, "
    .. "log_uniform, randint), validation_curve and learning_curve." })

return ms
