--- luma.ensemble: ensembles of estimators, mostly of trees (docs/ENSEMBLE.md).
--
-- One part per concern, merged here into the table users get as
-- luma.ensemble:
--   forest    RandomForestClassifier/Regressor, ExtraTreesClassifier/Regressor
--   bagging   BaggingClassifier/Regressor
--   weight_boosting  AdaBoostClassifier, AdaBoostRegressor
--   gradient_boosting  GradientBoostingClassifier/Regressor
--   hist_gradient_boosting  HistGradientBoostingClassifier/Regressor
--             (C kernels: luma.ensemble.native, src/ml/ensemble)
--   voting    VotingClassifier/Regressor, StackingClassifier/Regressor
--   cascade   CascadeClassifier
--   common    helpers of the parts (not public)
-- The CART trees and their C kernels are luma.tree's (luma.tree.native).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local ensemble = {}

local PARTS = { "forest", "bagging", "weight_boosting", "gradient_boosting",
                "hist_gradient_boosting", "voting", "cascade" }
local names = {}
for _, part in ipairs(PARTS) do
  for name, member in pairs(require("luma.ensemble." .. part)) do
    ensemble[name] = member
    names[#names + 1] = name
  end
end
table.sort(names)

luma.doc.set(ensemble, { name = "luma.ensemble",
  doc = "Ensembles: " .. table.concat(names, ", ") .. "." })

return ensemble
