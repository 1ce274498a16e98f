--- luma.svm.svc: the kernel SVM classifiers, SVC (C-SVC) and NuSVC
-- (Schölkopf's nu-SVC as LIBSVM solves it), with LIBSVM's one-vs-one
-- scheme and voting for more than two classes.
--
-- The dual of notes 000 Ch. 8 / 003 §1.16 / 004 S11,
--   min_a 1/2 sum_ij a_i a_j y_i y_j k(x_i, x_j) - sum_i a_i
--   s.t. sum_i y_i a_i = 0, 0 <= a_i <= C_i,
-- solved by SMO (src/ml/svm/smo.c); the decision f(x) = sum_i a_i y_i
-- k(x_i, x) + b with b from the free support vectors (0 < a_i < C_i), as
-- the notes' KKT recovery averaged over all of them (LIBSVM's rule; notes
-- 004 S12 and its erratum: the signed mean, not a median of |y - w.x|).
-- C = math.huge is the hard margin (notes 000 Ch. 8, 004 S4): data that
-- no kernel expansion separates are refused before solving.  SVC's nu
-- option is the notes' parameterisation C = 1/(nu N) (000 Ch. 8), not
-- NuSVC's nu (see docs/SVM.md).
--
-- Attributes follow scikit-learn: classes, support (1-based rows),
-- support_vectors, n_support, dual_coef ((k-1) x n_SV, y_i a_i), intercept
-- (one per pair), n_iter, coef (linear kernel), probA/probB (probability).
-- With two classes dual_coef and intercept have the signs that make
-- decision_function positive for the second class.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local G = require("luma.generative.common")
local common = require("luma.svm.common")
local platt = require("luma.svm.platt")

local fail = common.fail

local svc = {}

local pair_coef -- defined after fitting, which uses it for coef

-- ----------------------------------------------------------- hard margin

-- Whether the labels y (+1/-1 list) of the points with Gram matrix K can
-- be separated with margin 1 by some f = sum_j beta_j k(x_j, .) + b: the
-- feasibility LP y_i (K beta + b)_i >= 1 (the representer theorem makes
-- this the hard-margin primal's feasible set).
local function separable(K, y)
  local n = K:rows()
  local A = luma.zeros(n, n + 1)
  for i = 1, n do
    local s = -y[i]
    A:row(i):sub(1, 1, 1, n):assign(K:row(i) * s)
    A:set(i, n + 1, s)
  end
  local lp = luma.optim.linprog(luma.zeros(n + 1, 1),
    { A_ub = A, b_ub = luma.full(n, 1, -1), lower = -math.huge, upper = math.huge })
  return lp.status ~= "infeasible"
end

-- ----------------------------------------------------------- fitting

-- The sub-problem of classes i and j: their rows (class i first, each in
-- training order), +1/-1 labels and weights.
local function pair_problem(members, w, i, j)
  local rows = luma.matrix.vstack{ members[i], members[j] }
  local ni = members[i]:rows()
  local y = luma.ones(rows:rows(), 1)
  y:sub(ni + 1, rows:rows(), 1, 1):fill(-1)
  return rows, y, w:take(rows), ni
end

-- Decision values (positive for the +1 rows' class) of test from a model
-- solved on train, positions into rows; for Platt's cross-validation.
local function fold_decisions(self, data, spec, solve_opts, rows, y, w, tally)
  return function(train, test)
    local tr = common.column(train)
    local ytr = y:take(tr)
    local pos = ytr:gt(0):sum()
    if pos == 0 or pos == ytr:rows() then
      -- one class in the training part: LIBSVM's constant decision
      local v = pos > 0 and 1 or -1
      local out = {}
      for i = 1, #test do out[i] = v end
      return out
    end
    local opts = {}
    for k, v in pairs(solve_opts) do opts[k] = v end
    opts.rows, opts.y, opts.weight = rows:take(tr), ytr, w:take(tr)
    local coef, rho = common.solve(self, data, spec, opts, tally)
    local sv = common.nonzero(coef)
    local svm = common.column(sv)
    local K = common.rows_kernel(spec, data, rows:take(common.column(test)), opts.rows:take(svm))
    local dec = K * coef:take(svm) - rho
    local out = {}
    for i = 1, #test do out[i] = dec:get(i, 1) end
    return out
  end
end

-- Fits the one-vs-one machines; formulation "c_svc" or "nu_svc".
local function fit_classifier(self, X, y, sample_weight, formulation)
  local name = self.__class.short_name
  local p = self.params
  local spec, data = common.training_data(name, p, X)
  local codes, classes, counts = G.encode(name, y)
  local factors = common.class_factors(name, p.class_weight, classes, counts)
  local w = common.weights(sample_weight, factors, codes)
  local k, n = classes:rows(), X:rows()
  local all = luma.arange(1, n)
  local members = {}
  for c = 1, k do
    members[c] = common.positive_rows(w, all:select(codes:eq(c), 1))
    if members[c]:rows() == 0 then
      fail("bad argument #3 to 'fit' (%s: every sample of class %s has weight 0)", name,
        G.number_text(classes:get(c, 1)))
    end
  end
  local solve_opts = { type = formulation }
  if formulation == "nu_svc" then
    solve_opts.nu = p.nu
    for i = 1, k - 1 do
      for j = i + 1, k do
        local n1, n2 = members[i]:rows(), members[j]:rows()
        if p.nu * (n1 + n2) / 2 > math.min(n1, n2) then
          fail("%s: specified nu is infeasible (parameter 'nu' = %g needs nu (n_i + n_j) / 2 "
            .. "<= min(n_i, n_j) for every pair of classes; classes %s and %s have %d and %d "
            .. "samples)", name, p.nu, G.number_text(classes:get(i, 1)),
            G.number_text(classes:get(j, 1)), n1, n2)
        end
      end
    end
  else
    -- the notes' nu: C = 1 / (nu N) (000 Ch. 8), N the training samples
    solve_opts.C = p.nu and 1 / (p.nu * n) or p.C
  end
  self.classes = classes
  self.kernel_spec = spec
  local rng = p.probability and estimator.rng(p.seed)
  local tally = { runs = 0, stopped = 0 }
  local machines, coefs, rhos, iters = {}, {}, {}, {}
  local probA, probB = {}, {}
  local on_support = {}
  for i = 1, k - 1 do
    for j = i + 1, k do
      local rows, yy, ww, ni = pair_problem(members, w, i, j)
      if solve_opts.C == math.huge then
        local ylist = {}
        for r = 1, yy:rows() do ylist[r] = yy:get(r, 1) end
        if not separable(common.rows_kernel(spec, data, rows, rows), ylist) then
          fail("%s: C = math.huge is the hard margin, but classes %s and %s are not separable "
            .. "with this kernel (use a finite C)", name, G.number_text(classes:get(i, 1)),
            G.number_text(classes:get(j, 1)))
        end
      end
      if p.probability then
        local labels = {}
        for r = 1, yy:rows() do labels[r] = yy:get(r, 1) end
        local dec = platt.cv_decisions(rows:rows(), rng,
          fold_decisions(self, data, spec, solve_opts, rows, yy, ww, tally))
        probA[#probA + 1], probB[#probB + 1] = platt.sigmoid_train(dec, labels)
      end
      local opts = { rows = rows, y = yy, weight = ww }
      for key, v in pairs(solve_opts) do opts[key] = v end
      local coef, rho, info = common.solve(self, data, spec, opts, tally)
      machines[#machines + 1] = { i = i, j = j, rows = rows, ni = ni }
      coefs[#coefs + 1], rhos[#rhos + 1], iters[#iters + 1] = coef, rho, info.iterations
      for r = 1, rows:rows() do
        if coef:get(r, 1) ~= 0 then on_support[rows:get(r, 1)] = true end
      end
    end
  end

  common.warn_stopped(self, tally)

  -- support vectors grouped by class, training order within a class
  local support, n_support, position = {}, {}, {}
  for c = 1, k do
    local count = 0
    for r = 1, members[c]:rows() do
      local row = members[c]:get(r, 1)
      if on_support[row] then
        support[#support + 1] = row
        position[row] = #support
        count = count + 1
      end
    end
    n_support[c] = count
  end
  local nsv = #support
  -- LIBSVM's layout: the coefficient of a class-i support vector in the
  -- machine (i, j) sits in row j - 1, of a class-j one in row i
  local dual = luma.zeros(k - 1, nsv)
  for pi, pr in ipairs(machines) do
    local coef = coefs[pi]
    for r = 1, pr.rows:rows() do
      local v = coef:get(r, 1)
      if v ~= 0 then
        local at = position[pr.rows:get(r, 1)]
        dual:set(r <= pr.ni and pr.j - 1 or pr.i, at, v)
      end
    end
  end
  local intercept = luma.matrix(rhos):neg()
  if k == 2 then
    -- scikit-learn's binary signs: positive decisions for the second class
    dual = dual:neg()
    intercept = intercept:neg()
  end
  common.set_support(self, X, common.column(support))
  self.n_support = common.column(n_support)
  self.dual_coef = dual
  self.intercept = intercept
  self.n_iter = common.column(iters)
  if p.probability then
    self.probA, self.probB = common.column(probA), common.column(probB)
  end
  if spec.kind == "linear" then self.coef = pair_coef(self):t() * self.support_vectors end
end

-- n_SV x pairs: each one-vs-one machine's coefficients over all support
-- vectors (zero for the other classes).
pair_coef = function(self)
  local k = self.classes:rows()
  local nsv = self.dual_coef:cols()
  if k == 2 then return self.dual_coef:t() end
  local start = { 1 }
  for c = 1, k do start[c + 1] = start[c] + self.n_support:get(c, 1) end
  local W = luma.zeros(nsv, k * (k - 1) / 2)
  local pair = 0
  for i = 1, k - 1 do
    for j = i + 1, k do
      pair = pair + 1
      local ci, cj = start[i + 1] - start[i], start[j + 1] - start[j]
      if ci > 0 then
        W:sub(start[i], start[i + 1] - 1, pair, pair):assign(
          self.dual_coef:sub(j - 1, j - 1, start[i], start[i + 1] - 1):t())
      end
      if cj > 0 then
        W:sub(start[j], start[j + 1] - 1, pair, pair):assign(
          self.dual_coef:sub(i, i, start[j], start[j + 1] - 1):t())
      end
    end
  end
  return W
end

-- One-vs-one decision values, n x pairs, in LIBSVM's signs (positive for
-- the pair's first class).
local function ovo_values(self, X)
  local D = common.kernel_product(self, X, pair_coef(self)) + self.intercept:t()
  if self.classes:rows() == 2 then D = D:neg() end
  return D
end

-- LIBSVM's vote: the pair's first class when its value is > 0, else the
-- second; the most votes win, ties going to the lower class.
local function vote(self, D)
  local k = self.classes:rows()
  local votes = luma.zeros(D:rows(), k)
  local pair = 0
  for i = 1, k - 1 do
    for j = i + 1, k do
      pair = pair + 1
      local first = D:col(pair):gt(0)
      votes:col(i):assign(votes:col(i) + first)
      votes:col(j):assign(votes:col(j) - first + 1)
    end
  end
  return self.classes:take(votes:argmax(2))
end

-- scikit-learn's _ovr_decision_function: votes plus the summed
-- confidences squashed into (-1/3, 1/3), one column per class.
local function ovr_shape(D, k)
  local n = D:rows()
  local votes, conf = luma.zeros(n, k), luma.zeros(n, k)
  local pair = 0
  for i = 1, k - 1 do
    for j = i + 1, k do
      pair = pair + 1
      local d = D:col(pair)
      local second = d:lt(0)
      conf:col(i):assign(conf:col(i) + d)
      conf:col(j):assign(conf:col(j) - d)
      votes:col(i):assign(votes:col(i) - second + 1)
      votes:col(j):assign(votes:col(j) + second)
    end
  end
  return votes + conf:div(conf:abs():add(1):mul(3))
end

local function predict(self, X)
  return vote(self, ovo_values(self, X))
end

local function decision_function(self, X)
  local D = ovo_values(self, X)
  local k = self.classes:rows()
  if k == 2 then return D:neg() end
  if self.params.decision_function_shape == "ovr" then return ovr_shape(D, k) end
  return D
end

local function predict_proba(self, X)
  if not self.probA then
    fail("%s: predict_proba needs probability = true at fit", self.__class.short_name)
  end
  return platt.proba(ovo_values(self, X), self.probA, self.probB, self.classes:rows())
end

local function classifier_params()
  return {
    { name = "class_weight", type = "string|table",
      doc = "nil, \"balanced\" or a table label -> factor of C" },
    { name = "probability", type = "boolean", default = false,
      doc = "fit Platt's sigmoid by internal 5-fold cross-validation (predict_proba)" },
    { name = "decision_function_shape", type = "string", default = "ovr",
      values = { "ovr", "ovo" }, doc = "decision_function with more than two classes: one "
        .. "column per class (\"ovr\", from the votes) or per pair (\"ovo\")" },
    { name = "seed", type = "seed", doc = "seed of the probability folds" },
  }
end

svc.SVC = estimator.class{
  sparse = true,
  name = "luma.svm.SVC",
  kind = "classifier",
  doc = "C-support vector classifier (Cortes & Vapnik 1995; Deisenroth, Faisal and Ong, "
    .. "Mathematics for Machine Learning, ch. 12) solved by SMO with LIBSVM's working-set "
    .. "selection, shrinking and kernel cache; one-vs-one for more than two classes. C = "
    .. "math.huge is the hard margin (non-separable data are an error); nu, when set, gives C = "
    .. "1/(nu N) (Murphy, Machine Learning: A Probabilistic Perspective, sec. 14.5.2), unlike "
    .. "NuSVC. fit(X, y [, sample_weight]). "
    .. "Fitted: classes, support, support_vectors, n_support, dual_coef, intercept, n_iter, "
    .. "coef (linear kernel), probA, probB.",
  params = common.schema({
    { name = "C", type = "number", default = 1, gt = 0,
      doc = "penalty of the slack (math.huge: hard margin)" },
    { name = "nu", type = "number", gt = 0, max = 1,
      doc = "C = 1/(nu N) when set (overrides C; Murphy's parameterisation, not NuSVC's nu)" },
  }, common.kernel_params(), common.solver_params(), classifier_params()),
  example = common.example_classification(function() return svc.SVC{ kernel = "linear" } end),
  fit = function(self, X, y, sample_weight)
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    fit_classifier(self, X, y, sample_weight, "c_svc")
  end,
  predict = predict,
  decision_function = decision_function,
  predict_proba = predict_proba,
}

svc.NuSVC = estimator.class{
  sparse = true,
  name = "luma.svm.NuSVC",
  kind = "classifier",
  doc = "Nu-support vector classifier (Schölkopf et al. 2000, as LIBSVM solves it): nu in "
    .. "(0, 1] bounds the fraction of margin errors from above and of support vectors from "
    .. "below; the solution is a C-SVC with C = 1/r for the solver's r. One-vs-one for more "
    .. "than two classes; an infeasible nu is an error. fit(X, y [, sample_weight]). Fitted "
    .. "attributes as SVC.",
  params = common.schema({
    { name = "nu", type = "number", default = 0.5, gt = 0, max = 1,
      doc = "upper bound on the fraction of margin errors, lower bound on that of support "
        .. "vectors" },
  }, common.kernel_params(), common.solver_params(), classifier_params()),
  example = common.example_classification(function() return svc.NuSVC{} end),
  fit = function(self, X, y, sample_weight)
    sample_weight = estimator.check_sample_weight(X, sample_weight)
    fit_classifier(self, X, y, sample_weight, "nu_svc")
  end,
  predict = predict,
  decision_function = decision_function,
  predict_proba = predict_proba,
}

return svc
