--- luma.linear.common: helpers shared by the parts of luma.linear
-- (least_squares, ridge, lasso, logistic, bayes, robust); not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local core = require("luma.linear.native")

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

--- check_linear_state(self): the check_state of the classes predicting
-- X * coef + intercept (luma.load runs it on the models it restores):
-- coef a d x k matrix, d the fitted columns, and intercept a number or a
-- 1 x k matrix.
function common.check_linear_state(self)
  local coef, intercept, d = self.coef, self.intercept, self.n_features_in
  if not luma.ismatrix(coef) or (d and coef:rows() ~= d) then
    error(string.format("coef must be a %s x k matrix", d and tostring(d) or "d"), 0)
  end
  if type(intercept) ~= "number" and not (luma.ismatrix(intercept) and intercept:rows() == 1
      and intercept:cols() == coef:cols()) then
    error(string.format("intercept must be a number or a 1 x %d matrix", coef:cols()), 0)
  end
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


-- ------------------------------------------- least-squares moments
-- (least_squares, ridge and lasso all start from the centred, weighted
-- problem and end with the same intercept)

-- Weighted means and centred moments (luma.linear.native.moments), its
-- argument errors re-raised as those of the caller's function fname.
function common.moments(X, y, w, center, fname)
  local ok, G, b, xm, ym, yty = pcall(core.moments, X, y, w, center)
  if not ok then
    local arg, why = tostring(G):match("bad argument #(%d) to '[^']*' %((.*)%)$")
    -- raised from varying depths: no position rather than a wrong one
    if arg then error(string.format("bad argument #%s to '%s' (%s)", arg, fname or "fit", why), 0) end
    error(G, 0)
  end
  return G, b, xm, ym, yty
end

-- X and y centred (when center) and scaled by sqrt(w) row by row: the
-- weighted problem as an ordinary one.  Also returns the means.
function common.centred_copy(X, y, w, center, fname)
  local _, _, xm, ym = common.moments(X, y, w, center, fname) -- checks finiteness and weights
  local Xc, yc = X - xm, y - ym
  if w then
    local s = w:sqrt()
    Xc:mul(s, Xc)
    yc:mul(s, yc)
  end
  return Xc, yc, xm, ym
end

-- The fitted intercept b = ymean - xmean W (a number for one target).
function common.intercept_of(W, xm, ym, center)
  if not center then return W:cols() == 1 and 0 or luma.zeros(1, W:cols()) end
  local b = ym - xm * W
  return W:cols() == 1 and b:get(1, 1) or b
end

-- Minimum-norm solution of G W = B for symmetric positive semi-definite G
-- through its eigendecomposition; eigenvalues below tol * the largest
-- count as zero.  Returns W, the rank and the eigenvalues (descending).
function common.psd_solve(G, B, tol)
  local lam, V = luma.linalg.eigh(G, { order = "descending" })
  local d = lam:rows()
  local top = d > 0 and lam:get(1, 1) or 0
  local rank = 0
  for i = 1, d do
    if lam:get(i, 1) > tol * top then rank = i end
  end
  if rank == 0 then return luma.zeros(d, B:cols()), 0, lam end
  local Vr = V:sub(1, d, 1, rank)
  local inv = lam:sub(1, rank, 1, 1):pow(-1)
  return Vr * ((Vr:t() * B):mul(inv)), rank, lam
end

--- coef_table(est) -> luma.Table: the fitted coefficients by feature, one
-- row per input column named by est:feature_names() (feature_names_in
-- after a fit on a luma.Table or inside a pipeline fitted on one, else
-- x1 .. xd) and a last "(intercept)" row; one column "coef", or one per
-- class or target ("coef_<label>", "coef1" ..).  Printing the result
-- shows the aligned table.
function common.coef_table(self)
  local name = self.__class.short_name
  if not self:is_fitted() then common.fail(2, "%s: coef_table called before fit", name) end
  local coef = rawget(self, "coef")
  local d = rawget(self, "n_features_in")
  if not luma.ismatrix(coef) or coef:rows() ~= d then
    common.fail(2, "%s: coef_table needs coef with one row per feature (%d), which this model "
      .. "does not have", name, d or 0)
  end
  local names = require("luma.estimator").input_names(self)
  names[#names + 1] = "(intercept)"
  local k = coef:cols()
  local intercept = rawget(self, "intercept") or 0
  local columns, order = { feature = names }, { "feature" }
  local classes = rawget(self, "classes")
  for j = 1, k do
    local label = k == 1 and "coef"
      or (luma.ismatrix(classes) and classes:rows() == k and ("coef_" .. string.format("%.15g",
        classes:get(j, 1))) or ("coef" .. j))
    local col = luma.zeros(d + 1, 1)
    col:sub(1, d, 1, 1):assign(coef:col(j))
    col:set(d + 1, 1, type(intercept) == "number" and intercept or intercept:get(1, j))
    columns[label], order[#order + 1] = col, label
  end
  return luma.Table(columns, { columns = order, dtypes = { feature = "category" } })
end

return common
