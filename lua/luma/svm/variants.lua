--- luma.svm.variants: the notes' own SVM forms, beside the LIBSVM ones.
--
--   L2SVC              the soft margin with squared slack (notes 002 L10):
--                      the hard-margin dual on K + I/gamma, a >= 0 only
--   NoBiasSVC          the kernel SVM without bias (notes 001 §G), its box
--                      dual solved by stochastic dual coordinate ascent
--   SubgradientSVC     the primal hinge loss by subgradient descent
--                      (notes 004 S9-S10)
--   KernelNearestPrototype  nearest class mean in feature space (kernel
--                      LwP, notes 001 §G)
--   loo_bound          the support-vector bound on leave-one-out error
--                      (notes 003 §1.16)
--   qp_primal, qp_dual the dense QP standard forms of notes 004 S13 (12.55-
--                      12.58), solved by luma.optim.qp
-- The hard margin itself is SVC{C = math.huge} (luma.svm.svc).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local G = require("luma.generative.common")
local common = require("luma.svm.common")

local variants = {}

local fail = common.fail

-- The labels of a binary-only variant as +1 (second class) / -1 (first).
local function binary_labels(name, y)
  local codes, classes = G.encode(name, y)
  if classes:rows() ~= 2 then
    fail("bad argument #2 to 'fit' (%s is a binary classifier, but y has %d classes)", name,
      classes:rows())
  end
  return codes * 2 - 3, classes
end

-- f(x) = K(x, SV) dual_coef' + intercept, positive for the second class.
local function binary_decision(self, X)
  return common.kernel_product(self, X, self.dual_coef:t()) + self.intercept:get(1, 1)
end

local function binary_predict(self, X)
  return self.classes:take(binary_decision(self, X):ge(0) + 1)
end

-- ---------------------------------------------------------- L2SVC

variants.L2SVC = estimator.class{
  name = "luma.svm.L2SVC",
  kind = "classifier",
  doc = "The soft-margin SVM with squared slack, the 2-norm soft margin (Cristianini & "
    .. "Shawe-Taylor, An Introduction to Support Vector Machines, 2000, ch. 6; the L2-loss SVM "
    .. "of Hsieh et al. 2008, with a bias): primal 1/2 |w|^2 + C sum xi_i^2, whose dual is the "
    .. "hard-margin dual on the Gram matrix K + I/(2C) with a >= 0 and no upper bound. Solved "
    .. "by SMO; the intercept from the KKT conditions y_i f(x_i) = 1 - a_i/(2C) of the support "
    .. "vectors (averaged). Binary. Fitted: classes, support, support_vectors, dual_coef, "
    .. "intercept.",
  params = common.schema({
    { name = "C", type = "number", default = 1, gt = 0,
      doc = "weight of the squared slack: 1/2 |w|^2 + C sum xi_i^2" },
  }, common.kernel_params(), common.solver_params()),
  example = common.example_classification(function() return variants.L2SVC{} end),
  fit = function(self, X, y)
    local name, p = self.__class.short_name, self.params
    local spec, data = common.training_data(name, p, X)
    local yy, classes = binary_labels(name, y)
    self.classes, self.kernel_spec = classes, spec
    local rows = luma.arange(1, X:rows())
    local coef, rho = common.solve(self, data, spec,
      { type = "c_svc", rows = rows, y = yy, C = math.huge, diag = 1 / (2 * p.C) })
    local at = common.column(common.nonzero(coef))
    common.set_support(self, X, at)
    self.dual_coef = coef:take(at):t()
    self.intercept = luma.matrix{ -rho }
  end,
  decision_function = binary_decision,
  predict = binary_predict,
}

-- ---------------------------------------------------------- NoBiasSVC

-- Stochastic dual coordinate ascent on max_a sum a_i - 1/2 a'(YKY)a,
-- 0 <= a_i <= C: each step maximizes the dual exactly in one coordinate,
-- a_i <- clip(a_i + (1 - y_i f(x_i)) / k(x_i, x_i), 0, C), and updates
-- f = K(a o y) by one column.  For the hinge loss this is the update of
-- Shalev-Shwartz & Zhang (JMLR 14, 2013) with lambda n = 1/C.
local function sdca(K, y, C, tol, max_iter, rng)
  local n = K:rows()
  local a, f = luma.zeros(n, 1), luma.zeros(n, 1)
  local epochs, converged = 0, false
  for epoch = 1, max_iter do
    epochs = epoch
    local worst = 0
    local order = rng:permutation(n)
    for s = 1, n do
      local i = math.tointeger(order:get(s, 1))
      local yi, ai, kii = y:get(i, 1), a:get(i, 1), K:get(i, i)
      local g = 1 - yi * f:get(i, 1)
      -- the projected gradient measures how far a_i is from optimal
      local pg = (ai <= 0 and math.max(g, 0)) or (ai >= C and math.min(g, 0)) or g
      worst = math.max(worst, math.abs(pg))
      if pg ~= 0 and kii > 0 then
        local new = math.min(math.max(ai + g / kii, 0), C)
        if new ~= ai then
          a:set(i, 1, new)
          f:add(K:col(i) * ((new - ai) * yi), f)
        end
      end
    end
    if worst < tol then
      converged = true
      break
    end
  end
  return a, epochs, converged
end

variants.NoBiasSVC = estimator.class{
  name = "luma.svm.NoBiasSVC",
  kind = "classifier",
  doc = "The kernel SVM without bias (Steinwart, Hush & Scovel, Training SVMs without offset, "
    .. "JMLR 2011): primal min 1/2 |w|^2 + C sum xi_i with y_i w.phi(x_i) >= 1 - xi_i, dual "
    .. "max sum a_i - 1/2 sum a_i a_j y_i y_j k(x_i, x_j) "
    .. "over the box 0 <= a_i <= C (no equality constraint), solved by stochastic dual "
    .. "coordinate ascent (Shalev-Shwartz & Zhang 2013); predicts sign(sum a_i y_i k(x_i, x)). "
    .. "Binary. Fitted: classes, support, support_vectors, dual_coef, n_iter (epochs).",
  params = common.schema({
    { name = "C", type = "number", default = 1, gt = 0, doc = "box bound of the dual" },
  }, common.kernel_params(), {
    { name = "tol", type = "number", default = 1e-6, gt = 0,
      doc = "stop when no projected gradient exceeds tol in an epoch" },
    { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "epochs" },
    { name = "seed", type = "seed", doc = "seed of the coordinate order" },
  }),
  example = common.example_classification(function() return variants.NoBiasSVC{} end),
  fit = function(self, X, y)
    local name, p = self.__class.short_name, self.params
    local spec, data = common.training_data(name, p, X)
    local yy, classes = binary_labels(name, y)
    self.classes, self.kernel_spec = classes, spec
    local all = luma.arange(1, X:rows())
    local K = common.rows_kernel(spec, data, all, all)
    local a, epochs, converged = sdca(K, yy, p.C, p.tol, p.max_iter, estimator.rng(p.seed))
    if not converged then
      common.warning("%s: SDCA stopped after max_iter = %d epochs before reaching tol = %g",
        name, p.max_iter, p.tol)
    end
    local coef = a:mul(yy)
    local at = common.column(common.nonzero(coef))
    common.set_support(self, X, at)
    self.dual_coef = coef:take(at):t()
    self.intercept = luma.matrix{ 0 }
    self.n_iter = epochs
  end,
  decision_function = binary_decision,
  predict = binary_predict,
}

-- ---------------------------------------------------------- SubgradientSVC

-- The primal objective 1/2 |w|^2 + C sum max(0, 1 - y_i (w.x_i + b)).
local function primal_objective(X, y, C, w, b)
  local margins = (X * w + b):mul(y)
  return 0.5 * w:dot(w) + C * (-margins + 1):maximum(0):sum()
end

variants.SubgradientSVC = estimator.class{
  name = "luma.svm.SubgradientSVC",
  kind = "classifier",
  doc = "The linear soft-margin SVM in its unconstrained primal (Deisenroth, Faisal and Ong, "
    .. "Mathematics for Machine Learning, eq. 12.31), 1/2 |w|^2 + C sum max(0, 1 - y_i (w.x_i "
    .. "+ b)), by full-batch subgradient descent with the hinge subgradient of their eq. 12.54 "
    .. "(0 at the kink) and Pegasos' step 1/(lambda t), lambda = 1/(C n) (Shalev-Shwartz et "
    .. "al. 2007); b is not regularized. Keeps the best iterate. Binary. Fitted: classes, "
    .. "coef, intercept, objective, n_iter.",
  params = {
    { name = "C", type = "number", default = 1, gt = 0, doc = "weight of the hinge loss" },
    { name = "max_iter", type = "integer", default = 1000, min = 1, doc = "subgradient steps" },
    { name = "fit_intercept", type = "boolean", default = true, doc = "learn the bias b" },
  },
  example = common.example_classification(function() return variants.SubgradientSVC{} end),
  fit = function(self, X, y)
    local name, p = self.__class.short_name, self.params
    G.check_finite(name, "fit", X)
    local yy, classes = binary_labels(name, y)
    local n, d = X:shape()
    local lambda = 1 / (p.C * n)
    local w, b = luma.zeros(d, 1), 0
    local best_w, best_b = w:copy(), b
    local best = primal_objective(X, yy, p.C, w, b)
    for t = 1, p.max_iter do
      -- the violators (y f < 1) carry the hinge's subgradient -y_i x_i
      local viol = (X * w + b):mul(yy):lt(1):mul(yy)
      local eta = 1 / (lambda * t)
      w = w * (1 - eta * lambda) + X:t() * viol * (eta / n)
      if p.fit_intercept then b = b + eta / n * viol:sum() end
      local obj = primal_objective(X, yy, p.C, w, b)
      if obj < best then best, best_w, best_b = obj, w, b end
    end
    self.classes = classes
    self.coef, self.intercept = best_w:t(), luma.matrix{ best_b }
    self.objective, self.n_iter = best, p.max_iter
  end,
  decision_function = function(self, X)
    return X * self.coef:t() + self.intercept:get(1, 1)
  end,
  predict = function(self, X)
    return self.classes:take((X * self.coef:t() + self.intercept:get(1, 1)):ge(0) + 1)
  end,
}

-- ---------------------------------------------------------- prototypes

variants.KernelNearestPrototype = estimator.class{
  name = "luma.svm.KernelNearestPrototype",
  kind = "classifier",
  doc = "Kernel nearest prototype (Schölkopf & Smola, Learning with Kernels, 2002, sec. 1.2): "
    .. "the class whose mean in feature space is nearest, d_c(x) = k(x, x) - (2/n_c) sum_{i in "
    .. "c} k(x, x_i) + (1/n_c^2) sum_{i,j in c} k(x_i, x_j), the last term computed at fit. "
    .. "Their binary rule sign(d_- - d_+) extends to argmin_c d_c. decision_function: d_1 - "
    .. "d_2 for two classes (positive for the second), else -d. Keeps the training rows.",
  params = common.kernel_params(),
  example = common.example_classification(function() return variants.KernelNearestPrototype{} end),
  fit = function(self, X, y)
    local name = self.__class.short_name
    local spec, data = common.training_data(name, self.params, X)
    local codes, classes, counts = G.encode(name, y)
    local k, n = classes:rows(), X:rows()
    self.classes, self.kernel_spec = classes, spec
    local all = luma.arange(1, n)
    common.set_support(self, X, all)
    -- M (n x k): column c is 1/n_c on class c's rows, so K M are the means
    local M = luma.zeros(n, k)
    for c = 1, k do M:col(c):assign(codes:eq(c) / counts:get(c, 1)) end
    self.membership = M
    local K = common.rows_kernel(spec, data, all, all)
    self.self_similarity = (M:t() * K):mul(M:t()):sum(2):t() -- 1 x k: m_c' K m_c
  end,
  decision_function = function(self, X)
    local D = common.kernel_product(self, X, self.membership) * -2 + self.self_similarity
    if self.classes:rows() == 2 then return D:col(1) - D:col(2) end
    return D:neg()
  end,
  predict = function(self, X)
    local D = common.kernel_product(self, X, self.membership) * -2 + self.self_similarity
    return self.classes:take(D:argmin(2))
  end,
}

-- ---------------------------------------------------------- bounds and QPs

--- loo_bound(model) -> n_SV / N: the support-vector bound on the
-- leave-one-out error of a fitted kernel SVM trained on N points (removing
-- a non-support vector leaves the solution, which classifies it correctly,
-- unchanged).  Notes 003 §1.16 state it in expectation, E[E_out] <=
-- E[#SV]/(N - 1) for training sets of N - 1 points, with "=" for "<=".
function variants.loo_bound(model)
  if not (estimator.is_estimator(model) and model:is_fitted() and model.support) then
    error("bad argument #1 to 'loo_bound' (a fitted SVM with support vectors expected)", 2)
  end
  return model.support:rows() / model.shape_fit[1]
end

local function qp_inputs(fname, X, y)
  if not luma.ismatrix(X) or not luma.ismatrix(y) or y:rows() ~= X:rows() or y:cols() ~= 1 then
    error(string.format("bad argument #2 to '%s' (y must be an n x 1 matrix of +1/-1 for the "
      .. "n rows of X)", fname), 3)
  end
  if not y:eq(1):add(y:eq(-1)):all() then
    error(string.format("bad argument #2 to '%s' (labels must be +1 or -1)", fname), 3)
  end
end

local function check_C(fname, C)
  if type(C) ~= "number" or not (C > 0) then
    error(string.format("bad argument #3 to '%s' (C must be a number > 0, got %s)", fname, tostring(C)), 3)
  end
end

--- qp_primal(X, y, C) -> {w, b, xi, result}: the soft-margin primal of
-- notes 004 (12.55-12.56) as a dense QP over v = [w; b; xi]: P =
-- blockdiag(I_D, 0_{N+1}), q = [0_{D+1}; C 1_N], [[-YX, -y, -I], [0, 0,
-- -I]] v <= [-1_N; 0_N].
function variants.qp_primal(X, y, C)
  qp_inputs("qp_primal", X, y)
  check_C("qp_primal", C)
  local n, d = X:shape()
  local m = d + 1 + n
  local P = luma.zeros(m, m)
  P:sub(1, d, 1, d):assign(luma.eye(d))
  local q = luma.zeros(m, 1)
  q:sub(d + 2, m, 1, 1):fill(C)
  local A = luma.zeros(2 * n, m)
  A:sub(1, n, 1, d):assign(-X:mul(y))
  A:sub(1, n, d + 1, d + 1):assign(-y)
  A:sub(1, n, d + 2, m):assign(-luma.eye(n))
  A:sub(n + 1, 2 * n, d + 2, m):assign(-luma.eye(n))
  local h = luma.zeros(2 * n, 1)
  h:sub(1, n, 1, 1):fill(-1)
  local r = luma.optim.qp(P, q, { A_ub = A, b_ub = h })
  return { w = r.x:sub(1, d, 1, 1):copy(), b = r.x:get(d + 1, 1),
           xi = r.x:sub(d + 2, m, 1, 1):copy(), result = r }
end

--- qp_dual(K, y, C) -> {alpha, b, result}: the dual of notes 004 (12.57),
-- min 1/2 a'YKYa - 1'a with 0 <= a <= C and y'a = 0 (given to the solver
-- as an equality: (12.58)'s pair of inequalities leaves an interior point
-- method no interior); b from the free multipliers (0 < a_i < C).
function variants.qp_dual(K, y, C)
  qp_inputs("qp_dual", K, y)
  if K:rows() ~= K:cols() then
    error(string.format("bad argument #1 to 'qp_dual' (K must be a square Gram matrix, got %d x %d)",
      K:rows(), K:cols()), 2)
  end
  check_C("qp_dual", C)
  local n = K:rows()
  local Q = K:mul(y * y:t())
  local r = luma.optim.qp(Q, luma.full(n, 1, -1),
    { A_eq = y:t(), b_eq = luma.zeros(1, 1), lower = 0, upper = C })
  local a = r.x
  local f = K * a:mul(y)
  local sum, count = 0, 0
  local scale = 1e-6 * C
  for i = 1, n do
    local ai = a:get(i, 1)
    if ai > scale and ai < C - scale then
      sum, count = sum + y:get(i, 1) - f:get(i, 1), count + 1
    end
  end
  return { alpha = a, b = count > 0 and sum / count or 0, result = r }
end

local doc = luma.doc.set
doc(variants.loo_bound, { name = "luma.svm.loo_bound", signature = "loo_bound(model) -> number",
  doc = "n_SV / N for a kernel SVM fitted on N points: an upper bound on its leave-one-out "
    .. "error, since removing a point that is not a support vector leaves the solution "
    .. "unchanged (Vapnik, The Nature of Statistical Learning Theory, 1995, gives the bound in "
    .. "expectation). Returns a number in [0, 1]." })
doc(variants.qp_primal, { name = "luma.svm.qp_primal", signature = "qp_primal(X, y, C) -> table",
  doc = "The soft-margin primal as the dense QP of Deisenroth, Faisal and Ong (Mathematics for "
    .. "Machine Learning, eqs. 12.55-12.56) over [w; b; xi], solved by luma.optim.qp; y is "
    .. "+1/-1. Returns {w, b, xi, result}. A check of SMO, not a fast solver." })
doc(variants.qp_dual, { name = "luma.svm.qp_dual", signature = "qp_dual(K, y, C) -> table",
  doc = "The soft-margin dual (Deisenroth, Faisal and Ong, Mathematics for Machine Learning, "
    .. "eq. 12.57) on the Gram matrix K, solved by luma.optim.qp; y is +1/-1. Returns {alpha, "
    .. "b (from the free multipliers), result}." })

return variants
