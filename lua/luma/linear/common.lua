--- luma.linear_common: helpers shared by the files of luma.linear
-- (linear, linear_logistic, linear_bayes, linear_robust); not a public API.
local luma = require("luma")

local common = {}

common.EPS = 2.220446049250313e-16

function common.fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

--- warning(fmt, ...): through warn(), so a host can redirect it.
function common.warning(fmt, ...)
  warn("luma.linear: " .. string.format(fmt, ...))
end

--- predict_linear(self, X): X * coef + intercept.
function common.predict_linear(self, X)
  return X * self.coef + self.intercept
end

--- regression_example(make): the example function of a regressor class
-- (small data for the save/load test that walks every class).
function common.regression_example(make)
  return function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 }, { 2, 4 }, { 5, 2 } }
    local y = luma.matrix{ 3.1, 3.9, 8.2, 7.1, 11.3, 9.8, 6.2, 7.0 }
    return make(), X, y
  end
end

--- kernel_matrix(p, X [, Y]): the kernel of an estimator's parameters p:
-- p.kernel a luma.kernels object, or a luma.pairwise.kernel name taking
-- p.gamma (rbf, laplacian, polynomial, sigmoid), p.degree (polynomial)
-- and p.coef0 (polynomial, sigmoid).
function common.kernel_matrix(p, X, Y)
  if type(p.kernel) ~= "string" then return p.kernel(X, Y) end
  local k, opts = p.kernel, {}
  if k == "rbf" or k == "laplacian" or k == "polynomial" or k == "sigmoid" then opts.gamma = p.gamma end
  if k == "polynomial" then opts.degree = p.degree end
  if k == "polynomial" or k == "sigmoid" then opts.coef0 = p.coef0 end
  return luma.pairwise.kernel(X, Y, k, opts)
end

return common
