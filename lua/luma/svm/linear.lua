--- luma.svm.linear: linear SVMs by coordinate descent, LinearSVC and
-- LinearSVR (LIBLINEAR's methods, src/ml/svm/linear.c), one-vs-rest for
-- more than two classes (notes 002 §1.5 M1, which recommends it for SVMs).
--
-- LinearSVC minimizes 1/2 |w|^2 + C sum_i loss(y_i w.x_i) with the hinge
-- or its square (penalty "l2", dual coordinate descent of Hsieh et al.
-- 2008), or |w|_1 + C sum_i max(0, 1 - y_i w.x_i)^2 (penalty "l1", primal
-- coordinate descent of Yuan et al. 2010).  As in LIBLINEAR, the intercept
-- is the weight of a constant feature intercept_scaling and is
-- regularized with the rest.  LinearSVR is the epsilon-insensitive
-- regression form (Ho & Lin 2012).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local G = require("luma.generative.common")
local common = require("luma.svm.common")

local linear = {}

local fail = common.fail

local function draw_seed(rng)
  return math.tointeger(rng:integers(0, 2 ^ 31 - 1, 1):get(1, 1))
end

-- One native run; splits the constant feature's weight off as intercept.
-- A run that max_iter stopped counts in tally.
local function run(self, X, opts, rng, tally)
  local p = self.params
  opts.bias = p.fit_intercept and p.intercept_scaling or 0
  opts.max_iter, opts.seed = p.max_iter, draw_seed(rng)
  local w, dual, info = common.native.linear(X, opts)
  if not info.converged then tally.stopped = tally.stopped + 1 end
  tally.runs = tally.runs + 1
  local d = X:cols()
  local coef = w:sub(1, d, 1, 1):t():copy()
  local intercept = p.fit_intercept and w:get(d + 1, 1) * p.intercept_scaling or 0
  return coef, intercept, dual, info
end

-- The one warning of a fit whose runs max_iter stopped.
local function warn_stopped(self, tally)
  if tally.stopped == 0 then return end
  common.warning("%s: coordinate descent stopped after max_iter = %d passes before reaching "
    .. "tol = %g (%d of %d runs); increase max_iter or scale the data", self.__class.short_name,
    self.params.max_iter, self.params.tol, tally.stopped, tally.runs)
end

local function check_intercept_scaling(name, p)
  if p.fit_intercept and not (p.intercept_scaling > 0) then
    fail("%s: parameter 'intercept_scaling' must be > 0 when fit_intercept is true", name)
  end
end

linear.LinearSVC = estimator.class{
  name = "luma.svm.LinearSVC",
  kind = "classifier",
  doc = "Linear support vector classifier by coordinate descent (LIBLINEAR's solvers): "
    .. "penalty \"l2\" with loss \"squared_hinge\" or \"hinge\" (dual coordinate descent, Hsieh "
    .. "et al. 2008), penalty \"l1\" with \"squared_hinge\" (primal coordinate descent, Yuan et "
    .. "al. 2010, dual = false); one-vs-rest for more than two classes. The intercept is the "
    .. "weight of a constant feature intercept_scaling, regularized as in LIBLINEAR. "
    .. "fit(X, y [, sample_weight]). X may be sparse. Fitted: classes, coef (1 or "
    .. "k rows), intercept, n_iter.",
  params = {
    { name = "penalty", type = "string", default = "l2", values = { "l1", "l2" },
      doc = "norm of the penalty" },
    { name = "loss", type = "string", default = "squared_hinge",
      values = { "hinge", "squared_hinge" }, doc = "hinge (L1-loss) or its square (L2-loss)" },
    { name = "dual", type = "boolean", default = true,
      doc = "solve the dual (penalty l2) or the primal (penalty l1)" },
    { name = "tol", type = "number", default = 1e-4, gt = 0, doc = "stopping tolerance" },
    { name = "C", type = "number", default = 1, gt = 0, doc = "penalty of the loss" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "learn an intercept" },
    { name = "intercept_scaling", type = "number", default = 1,
      doc = "value of the constant feature whose weight is the intercept" },
    { name = "class_weight", type = "string|table",
      doc = "nil, \"balanced\" or a table label -> factor of C" },
    { name = "seed", type = "seed", doc = "seed of the coordinate order" },
    { name = "max_iter", type = "integer", default = 1000, min = 1,
      doc = "passes over the data" },
  },
  sparse = true,
  example = common.example_classification(function() return linear.LinearSVC{} end),
  fit = function(self, X, y, sample_weight)
    -- rows are taken in CSR form; the solvers then read CSR rows (dual)
    -- or CSC columns (the l1 primal)
    if luma.sparse.issparse(X) then X = X:tocsr() end
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    local name, p = self.__class.short_name, self.params
    check_intercept_scaling(name, p)
    local solver, loss
    if p.penalty == "l1" then
      if p.loss ~= "squared_hinge" or p.dual then
        fail("%s: penalty = \"l1\" needs loss = \"squared_hinge\" and dual = false", name)
      end
      solver, loss = "svc_l1", 2
    else
      if p.loss == "hinge" and not p.dual then
        fail("%s: loss = \"hinge\" with penalty = \"l2\" needs dual = true", name)
      end
      -- dual = false with the squared hinge has the same optimum: the dual solver serves both
      solver, loss = "svc_dual", p.loss == "hinge" and 1 or 2
    end
    G.check_finite(name, "fit", X)
    local codes, classes, counts = G.encode(name, y)
    local factors = common.class_factors(name, p.class_weight, classes, counts)
    local C = common.weights(sample_weight, factors, codes):mul(p.C)
    local rows = common.positive_rows(C)
    local Xr, codes_r = X:take(rows), codes:take(rows)
    if solver == "svc_l1" and luma.sparse.issparse(Xr) then Xr = Xr:tocsc() end
    C = C:take(rows)
    local rng = estimator.rng(p.seed)
    local k = classes:rows()
    local targets = k == 2 and { 2 } or {}
    if k > 2 then for c = 1, k do targets[c] = c end end
    local coef, intercept, iters = luma.zeros(#targets, X:cols()), luma.zeros(#targets, 1), {}
    local tally = { runs = 0, stopped = 0 }
    for t, c in ipairs(targets) do
      local yy = codes_r:eq(c) * 2 - 1
      local tol = p.tol
      if solver == "svc_l1" then
        -- LIBLINEAR's primal tolerance: tol min(n+, n-) / n
        local pos = yy:gt(0):sum()
        tol = tol * math.max(math.min(pos, yy:rows() - pos), 1) / yy:rows()
      end
      local w, b, _, info = run(self, Xr, { solver = solver, y = yy, C = C, loss = loss,
        tol = tol }, rng, tally)
      coef:row(t):assign(w)
      intercept:set(t, 1, b)
      iters[t] = info.iterations
    end
    warn_stopped(self, tally)
    self.classes = classes
    self.coef, self.intercept = coef, intercept
    self.n_iter = math.max(table.unpack(iters))
  end,
  decision_function = function(self, X)
    return X * self.coef:t() + self.intercept:t()
  end,
  predict = function(self, X)
    local D = X * self.coef:t() + self.intercept:t()
    if self.classes:rows() == 2 then return self.classes:take(D:gt(0) + 1) end
    return self.classes:take(D:argmax(2))
  end,
}

linear.LinearSVR = estimator.class{
  name = "luma.svm.LinearSVR",
  kind = "regressor",
  doc = "Linear support vector regression by dual coordinate descent (Ho & Lin 2012, "
    .. "LIBLINEAR): loss \"epsilon_insensitive\" (L1) or \"squared_epsilon_insensitive\" (L2). "
    .. "fit(X, y [, sample_weight]). Fitted: coef (1 x d), intercept, n_iter.",
  params = {
    { name = "epsilon", type = "number", default = 0, min = 0,
      doc = "half-width of the insensitive tube" },
    { name = "tol", type = "number", default = 1e-4, gt = 0, doc = "stopping tolerance" },
    { name = "C", type = "number", default = 1, gt = 0, doc = "penalty of the loss" },
    { name = "loss", type = "string", default = "epsilon_insensitive",
      values = { "epsilon_insensitive", "squared_epsilon_insensitive" }, doc = "L1 or L2 loss" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "learn an intercept" },
    { name = "intercept_scaling", type = "number", default = 1,
      doc = "value of the constant feature whose weight is the intercept" },
    { name = "dual", type = "boolean", default = true, doc = "solve the dual (the only solver)" },
    { name = "seed", type = "seed", doc = "seed of the coordinate order" },
    { name = "max_iter", type = "integer", default = 1000, min = 1,
      doc = "passes over the data" },
  },
  sparse = true,
  example = common.example_regression(function() return linear.LinearSVR{} end),
  fit = function(self, X, y, sample_weight)
    if luma.sparse.issparse(X) then X = X:tocsr() end -- the solver reads rows
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    local name, p = self.__class.short_name, self.params
    check_intercept_scaling(name, p)
    if y:cols() ~= 1 then
      fail("bad argument #2 to 'fit' (%s: y must be one column, got %d)", name, y:cols())
    end
    G.check_finite(name, "fit", X)
    local C = (sample_weight or luma.ones(X:rows(), 1)) * p.C
    local rows = common.positive_rows(C)
    local tally = { runs = 0, stopped = 0 }
    local w, b, _, info = run(self, X:take(rows), { solver = "svr_dual", y = y:take(rows),
      C = C:take(rows), loss = p.loss == "epsilon_insensitive" and 1 or 2, epsilon = p.epsilon,
      tol = p.tol }, estimator.rng(p.seed), tally)
    warn_stopped(self, tally)
    self.coef, self.intercept, self.n_iter = w, luma.matrix{ b }, info.iterations
  end,
  predict = function(self, X)
    return X * self.coef:t() + self.intercept:get(1, 1)
  end,
}

return linear
