--- luma.linear.least_squares: LinearRegression, ordinary or weighted least
-- squares (part of luma.linear, docs/LINEAR.md).
--
-- The normal equations come from the centred moments (common.moments: no
-- copy of X) and are solved through an eigendecomposition or Cholesky;
-- the qr and svd solvers factor the centred data itself.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.linear.common")
local warning, EPS = common.warning, common.EPS
local predict_linear, regression_example = common.predict_linear, common.regression_example
local moments, centred_copy = common.moments, common.centred_copy
local intercept_of, psd_solve = common.intercept_of, common.psd_solve

local M = {}

-- Residual statistics of a least-squares fit (notes 004 R5-R6): the ML
-- noise variance sum w r^2 / N and the negative log-likelihood at it,
-- (N/2)(log(2 pi sigma^2) + 1).
local function noise_statistics(self, X, y, w)
  local R = y - predict_linear(self, X)
  local R2 = R:pow(2)
  if w then R2:mul(w, R2) end
  local N = w and w:sum() or X:rows()
  local var = R2:sum(1) * (1 / N)
  local nll = (var * (2 * math.pi)):log():add(1) * (N / 2)
  if var:cols() == 1 then return var:get(1, 1), nll:get(1, 1) end
  return var, nll
end

M.LinearRegression = estimator.class{
  name = "luma.linear.LinearRegression", kind = "regressor",
  doc = "Ordinary (or weighted) least squares. solver \"auto\" solves the normal equations "
    .. "through an eigendecomposition of the centred Gram matrix (fast; accurate to about "
    .. "cond(X)^2 eps), \"cholesky\" through Cholesky, \"qr\" and \"svd\" factor the centred "
    .. "data itself (slower, accurate to cond(X) eps). Rank-deficient X gives the minimum-norm "
    .. "solution and a warning. Fitted: coef (d x k), intercept, rank, singular_values, "
    .. "noise_variance (the ML 1/N estimate, Bishop, eq. 3.21), neg_log_likelihood.",
  params = {
    { name = "fit_intercept", type = "boolean", default = true, doc = "fit an unpenalised intercept" },
    { name = "solver", type = "string", default = "auto", values = { "auto", "cholesky", "qr", "svd" },
      doc = "how the least-squares problem is solved" },
  },
  example = regression_example(function() return M.LinearRegression{} end),
  fit = function(self, X, y, sample_weight)
    local p = self.params
    local w = estimator.check_sample_weight(X, sample_weight)
    local n, d = X:shape()
    local W, rank, s
    if p.solver == "auto" or p.solver == "cholesky" then
      local G, b, xm, ym = moments(X, y, w, p.fit_intercept)
      local ok
      if p.solver == "cholesky" then
        ok, W = pcall(luma.linalg.solve, G, b, { assume = "spd" })
        if not ok then warning("LinearRegression: X^T X is singular for Cholesky; using the minimum-norm solution") end
      end
      if not ok then
        local lam
        W, rank, lam = psd_solve(G, b, math.max(n, d) * EPS)
        s = lam:clamp(0, math.huge):sqrt()
      else
        rank = d
      end
      self.coef, self.intercept = W, intercept_of(W, xm, ym, p.fit_intercept)
    else
      local Xc, yc, xm, ym = centred_copy(X, y, w, p.fit_intercept)
      if p.solver == "qr" then
        local Q, R = luma.linalg.qr(Xc)
        s = luma.linalg.svd(R, { mode = "values" })
        rank = 0
        for i = 1, s:rows() do
          if s:get(i, 1) > s:get(1, 1) * math.max(n, d) * EPS then rank = i end
        end
        if rank == d and d <= n then
          W = luma.linalg.solve_triangular(R, Q:t() * yc, { lower = false })
        else
          W = luma.linalg.lstsq(Xc, yc)
        end
      else
        W, rank, s = luma.linalg.lstsq(Xc, yc)
      end
      self.coef, self.intercept = W, intercept_of(W, xm, ym, p.fit_intercept)
    end
    self.rank, self.singular_values = rank, s
    local full = math.min(d, n - (p.fit_intercept and 1 or 0))
    if rank < full then
      warning("LinearRegression: X has rank %d < %d (collinear columns); the coefficients are "
        .. "the minimum-norm solution", rank, full)
    end
    self.noise_variance, self.neg_log_likelihood = noise_statistics(self, X, y, w)
  end,
  predict = predict_linear,
  check_state = common.check_linear_state,
}

return M
