--- luma.preprocessing: transformers under the estimator contract.
--
-- Scalers, normalizers, encoders, imputers, polynomial and basis
-- expansions (notes 000 §6.4, §7.3) and a function wrapper.  All are
-- estimator.class transformers: fit(X), transform(X), fit_transform(X),
-- inverse_transform(X) where it exists; fitted attributes use
-- scikit-learn's names without the trailing underscore.  Encoders give
-- codes 1..k (Luma is 1-based; scikit-learn uses 0..k-1).
--
-- The classes live in one part per concern, each a module returning its
-- classes; this file merges them into the package table:
--   scalers.lua   StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler,
--                 Normalizer, Binarizer
--   impute.lua    SimpleImputer
--   encoders.lua  OrdinalEncoder, OneHotEncoder, LabelEncoder
--   features.lua  PolynomialFeatures, RBFFeatures, ArctanFeatures,
--                 HeavisideFeatures, FunctionTransformer
--   common.lua    the helpers the parts share (finite-input check, the
--                 example data); not re-exported
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local pp = {}
for _, part in ipairs({ "scalers", "impute", "encoders", "features" }) do
  for name, class in pairs(require("luma.preprocessing." .. part)) do pp[name] = class end
end

luma.doc.set(pp, { name = "luma.preprocessing",
  doc = "StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler, Normalizer, Binarizer, "
    .. "SimpleImputer, OrdinalEncoder, OneHotEncoder, LabelEncoder, PolynomialFeatures, "
    .. "RBFFeatures, ArctanFeatures, HeavisideFeatures, FunctionTransformer." })

return pp
