--- luma.preprocessing.common: helpers shared by the parts of
-- luma.preprocessing (scalers, impute, encoders, features); not a public
-- API.
local luma = require("luma")

local common = {}

--- fail(level, fmt, ...): error(string.format(fmt, ...), level) as the
-- caller would raise it (level 1 is the caller's own position).
function common.fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end
local fail = common.fail

-- NaN and Inf would silently poison means, ranges and codes; only the
-- imputer and FunctionTransformer accept them.
local function check_finite(self, method, X)
  if not X:isfinite():all() then
    fail(4, "bad argument #1 to '%s' (X contains NaN or Inf; %s needs finite values; "
      .. "impute them first, e.g. with luma.preprocessing.SimpleImputer)", method,
      self.__class.short_name)
  end
end

--- finite_only(spec): wraps a class spec's fit and transform so both
-- refuse non-finite X; returns spec.
function common.finite_only(spec)
  for _, method in ipairs({ "fit", "transform" }) do
    local impl = spec[method]
    spec[method] = function(self, X, ...)
      check_finite(self, method, X)
      return impl(self, X, ...)
    end
  end
  return spec
end

--- example(cls_fn): the example function of a transformer class (a small
-- matrix with mixed signs for the tests that walk every class).
function common.example(cls_fn)
  return function()
    local X = luma.matrix{ { 1, -2, 3 }, { 4, 5, -6 }, { 7, 8, 9 }, { -1, 0, 2 } }
    return cls_fn(), X, nil
  end
end

return common
