--- luma.svm.common: what the SVM estimators share (not a public API):
-- the parameter schema pieces, the kernel an estimator uses (a name, a
-- luma.kernels object, a function or a precomputed Gram matrix) and its
-- checks, class and sample weights, one call of the native SMO solver
-- (src/ml/svm/smo.c) with its convergence warning, and the kernel between
-- new rows and the support vectors.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.svm.native")
local G = require("luma.generative.common")

local common = {}

common.native = native
common.fail = G.fail
local fail = G.fail

--- warning(fmt, ...): through warn(), so a host can redirect it.
function common.warning(fmt, ...)
  warn("luma.svm: " .. string.format(fmt, ...))
end

-- ----------------------------------------------------------- schema

local KERNEL_NAMES = { linear = true, poly = true, rbf = true, sigmoid = true, precomputed = true }

--- kernel_params(default_kernel): the kernel's part of a schema
-- (scikit-learn's names and defaults).
function common.kernel_params(default_kernel)
  return {
    { name = "kernel", type = "string|table|function", default = default_kernel or "rbf",
      doc = "\"linear\", \"poly\", \"rbf\", \"sigmoid\", \"precomputed\" (X is a Gram "
        .. "matrix), a luma.kernels object or a function(A, B) -> Gram matrix" },
    { name = "degree", type = "integer", default = 3, min = 0, doc = "degree of \"poly\"" },
    { name = "gamma", type = "number|string", default = "scale", gt = 0,
      doc = "kernel coefficient of rbf, poly, sigmoid: a number > 0, \"scale\" "
        .. "(1 / (n_features X:var())) or \"auto\" (1 / n_features)" },
    { name = "coef0", type = "number", default = 0, doc = "independent term of poly and sigmoid" },
  }
end

--- solver_params(): the SMO solver's part of a schema.
function common.solver_params()
  return {
    { name = "tol", type = "number", default = 1e-3, gt = 0,
      doc = "stopping tolerance on the maximal KKT violation" },
    { name = "cache_size", type = "number", default = 200, gt = 0,
      doc = "kernel cache size in MB" },
    { name = "shrinking", type = "boolean", default = true, doc = "use the shrinking heuristic" },
    { name = "max_iter", type = "integer", default = -1, min = -1,
      doc = "iteration limit (-1: none beyond libsvm's max(10^7, 100 n))" },
  }
end

--- schema(...): the concatenation of parameter lists.
function common.schema(...)
  local out = {}
  for _, list in ipairs({ ... }) do
    for _, p in ipairs(list) do out[#out + 1] = p end
  end
  return out
end

-- ----------------------------------------------------------- kernels

local NATIVE_OF_OBJECT = { linear = "linear", polynomial = "poly", rbf = "rbf",
                           sigmoid = "sigmoid", laplacian = "laplacian" }
local PAIRWISE_NAME = { linear = "linear", poly = "polynomial", rbf = "rbf", sigmoid = "sigmoid",
                        laplacian = "laplacian" }

local function gamma_value(name, gamma, X)
  if type(gamma) == "number" then return gamma end
  if gamma == "auto" then return 1 / math.max(X:cols(), 1) end
  if gamma == "scale" then
    -- scikit-learn's X.var(), for a sparse X mean(X^2) - mean(X)^2
    local var
    if luma.sparse.issparse(X) then
      local count = math.max(X:rows() * X:cols(), 1)
      var = X:pow(2):sum() / count - (X:sum() / count) ^ 2
    else
      var = X:var()
    end
    if not (var < math.huge) then
      fail("%s: gamma = \"scale\" needs X with a finite variance (X:var() is %s); give gamma "
        .. "a number", name, tostring(var))
    end
    return var ~= 0 and 1 / (math.max(X:cols(), 1) * var) or 1
  end
  fail("%s: parameter 'gamma' must be a number > 0, \"scale\" or \"auto\", got %q", name, gamma)
end

--- spec_of(name, p, X) -> spec: the kernel a fit uses, from the
-- parameters p: spec.kind is a native kernel ("linear", "poly", "rbf",
-- "sigmoid", "laplacian"), "precomputed" (X is the Gram matrix) or
-- "object" (p.kernel computes Gram matrices); gamma, coef0, degree as the
-- native kernel takes them.
function common.spec_of(name, p, X)
  local k = p.kernel
  if type(k) == "string" then
    if not KERNEL_NAMES[k] then
      fail("%s: parameter 'kernel' must be \"linear\", \"poly\", \"rbf\", \"sigmoid\", "
        .. "\"precomputed\", a luma.kernels object or a function, got %q", name, k)
    end
    if k == "precomputed" or k == "linear" then return { kind = k } end
    return { kind = k, gamma = gamma_value(name, p.gamma, X), coef0 = p.coef0, degree = p.degree }
  end
  if luma.kernels.is_kernel(k) and NATIVE_OF_OBJECT[k.kind] then
    local o = k:params()
    return { kind = NATIVE_OF_OBJECT[k.kind], gamma = o.gamma or 1 / math.max(X:cols(), 1),
             coef0 = o.coef0, degree = o.degree }
  end
  if type(k) ~= "function" and not luma.kernels.is_kernel(k) then
    fail("%s: parameter 'kernel' must be a kernel name, a luma.kernels object or a function, "
      .. "got a %s", name, type(k))
  end
  return { kind = "object" }
end

-- Largest Gram matrix whose eigenvalues fit checks (O(n^3)).
common.PSD_CHECK_LIMIT = 1000

--- check_psd(name, K): warns when the Gram matrix K has a negative
-- eigenvalue beyond rounding (the dual is then not convex: notes 004 S16
-- require k to be positive semi-definite).
function common.check_psd(name, K)
  if K:rows() > common.PSD_CHECK_LIMIT then return end
  local values = luma.linalg.eigh(K)
  local smallest, largest = values:min(), values:abs():max()
  if smallest < -1e-8 * math.max(1, largest) then
    common.warning("%s: the kernel is not positive semi-definite on the training data "
      .. "(smallest eigenvalue of the Gram matrix %.6g); the dual is not convex, so the "
      .. "solution need not be optimal", name, smallest)
  end
end

--- training_data(name, p, X) -> spec, data: the kernel of the fit and
-- the matrix the solver reads (X, or the Gram matrix of a precomputed or
-- object kernel), after the checks of each kind.
function common.training_data(name, p, X)
  G.check_finite(name, "fit", X)
  local spec = common.spec_of(name, p, X)
  local data = X
  if luma.sparse.issparse(X) then
    -- the native kernels read CSR rows; a precomputed Gram matrix, a
    -- kernel function and the laplacian (which luma.pairwise computes on
    -- dense rows only, as predictions would need) take a dense X
    if spec.kind == "precomputed" or spec.kind == "object" or spec.kind == "laplacian" then
      fail("bad argument #1 to 'fit' (%s: %s needs a dense X; convert it with X:todense())", name,
        spec.kind == "precomputed" and "a precomputed Gram matrix"
          or spec.kind == "object" and "a kernel function or object" or "the laplacian kernel")
    end
    data = X:tocsr()
  end
  if spec.kind == "precomputed" then
    local n, m = X:shape()
    if n ~= m then
      fail("bad argument #1 to 'fit' (%s: a precomputed kernel must be a square Gram matrix, "
        .. "X is %d x %d)", name, n, m)
    end
    local asym = n > 0 and (X - X:t()):abs():max() or 0
    if asym > 1e-8 * math.max(1, X:abs():max()) then
      fail("bad argument #1 to 'fit' (%s: the precomputed Gram matrix is not symmetric "
        .. "(largest |K - K'| = %.6g))", name, asym)
    end
  elseif spec.kind == "object" then
    data = p.kernel(X)
    if not luma.ismatrix(data) or data:rows() ~= X:rows() or data:cols() ~= X:rows() then
      fail("%s: the kernel function must return the %d x %d Gram matrix of X", name, X:rows(),
        X:rows())
    end
    G.check_finite(name, "fit", data)
  elseif spec.kind == "sigmoid" and X:rows() <= common.PSD_CHECK_LIMIT then
    common.check_psd(name, common.gram(spec, nil, X, X))
  end
  if spec.kind == "precomputed" or spec.kind == "object" then common.check_psd(name, data) end
  return spec, data
end

--- native_kernel(spec): the kernel name the native solver takes.
local function native_kernel(spec)
  if spec.kind == "object" then return "precomputed" end
  return spec.kind
end

--- gram(spec, kernel, A, B): the kernel between the rows of A and B
-- (kernel: the estimator's kernel parameter, used by "object").
function common.gram(spec, kernel, A, B)
  if spec.kind == "object" then return kernel(A, B) end
  local name = PAIRWISE_NAME[spec.kind]
  local opts = {}
  if spec.kind ~= "linear" then opts.gamma = spec.gamma end
  if spec.kind == "poly" or spec.kind == "sigmoid" then opts.coef0 = spec.coef0 end
  if spec.kind == "poly" then opts.degree = spec.degree end
  return luma.pairwise.kernel(A, B, name, opts)
end

--- rows_kernel(spec, data, rows, cols): the kernel between training rows
-- rows and cols (index columns) of the solver's data.
function common.rows_kernel(spec, data, rows, cols)
  if spec.kind == "precomputed" or spec.kind == "object" then
    return data:take(rows):take(cols, 2)
  end
  return common.gram(spec, nil, data:take(rows), data:take(cols))
end

-- Rows of new data per block of kernel_product: keeps each block of the
-- kernel near 4M elements (32 MB) whatever the number of support vectors.
local BLOCK_ELEMENTS = 4194304

--- kernel_product(self, X, W) -> K(X, SV) W for new rows X (the test-train
-- kernel itself when precomputed) and the support vectors of a fitted
-- estimator, a block of rows at a time so the kernel never exists whole.
function common.kernel_product(self, X, W)
  G.check_finite(self.__class.short_name, "predict", X)
  local spec = self.kernel_spec
  if spec.kind == "precomputed" then return X:take(self.support, 2) * W end
  local SV, kernel = self.support_vectors, self.params.kernel
  local n = X:rows()
  local block = math.max(256, BLOCK_ELEMENTS // math.max(SV:rows(), 1))
  if n <= block then return common.gram(spec, kernel, X, SV) * W end
  local out = luma.zeros(n, W:cols())
  for first = 1, n, block do
    local last = math.min(n, first + block - 1)
    out:sub(first, last, nil, nil):assign(common.gram(spec, kernel, X:sub(first, last, nil, nil), SV) * W)
  end
  return out
end

-- ----------------------------------------------------------- weights

--- class_factors(name, class_weight, classes, counts) -> k x 1 factors:
-- nil gives ones, "balanced" n / (k n_c) (scikit-learn), a table maps
-- labels to factors (labels not listed keep 1).
function common.class_factors(name, class_weight, classes, counts)
  local k = classes:rows()
  local f = luma.ones(k, 1)
  if class_weight == nil then return f end
  if class_weight == "balanced" then
    local n = counts:sum()
    for c = 1, k do f:set(c, 1, n / (k * counts:get(c, 1))) end
    return f
  end
  if type(class_weight) ~= "table" then
    fail("%s: parameter 'class_weight' must be nil, \"balanced\" or a table label -> weight, "
      .. "got %q", name, tostring(class_weight))
  end
  for label, w in pairs(class_weight) do
    local found = false
    for c = 1, k do
      if classes:get(c, 1) == label then
        found = true
        if type(w) ~= "number" or not (w > 0) or w == math.huge then
          fail("%s: class_weight[%s] must be a finite number > 0", name, tostring(label))
        end
        f:set(c, 1, w)
      end
    end
    if not found then
      fail("%s: class_weight names the label %s, which is not in y", name, tostring(label))
    end
  end
  return f
end

--- weights(sample_weight, factors, codes) -> n x 1: each row's factor of
-- the bound, the sample weight times its class's factor.
function common.weights(sample_weight, factors, codes)
  local w = factors:take(codes)
  if sample_weight then w = w:mul(sample_weight) end
  return w
end

--- positive_rows(w, rows) -> the index column of the rows (all rows, or
-- the given ones) whose weight is > 0: scikit-learn drops the others.
function common.positive_rows(w, rows)
  rows = rows or luma.arange(1, w:rows())
  return rows:select(w:take(rows):gt(0), 1)
end

-- ----------------------------------------------------------- solving

--- solve(self, data, spec, opts [, tally]) -> coef, rho, info: one native
-- SMO run with the estimator's kernel and solver parameters; opts carries
-- the formulation (type, rows, y, weight, C, nu, epsilon, diag).  A run
-- stopped by max_iter warns (scikit-learn's ConvergenceWarning), or, with
-- a tally ({runs, stopped}), is counted for one warning per fit
-- (warn_stopped).
function common.solve(self, data, spec, opts, tally)
  local p = self.params
  opts.kernel = native_kernel(spec)
  opts.gamma, opts.coef0, opts.degree = spec.gamma, spec.coef0, spec.degree
  opts.tol, opts.cache_size, opts.shrinking, opts.max_iter = p.tol, p.cache_size, p.shrinking,
    p.max_iter
  local coef, rho, info = native.smo(data, opts)
  local t = tally or { runs = 0, stopped = 0 }
  t.runs = t.runs + 1
  if not info.converged then t.stopped = t.stopped + 1 end
  if not tally then common.warn_stopped(self, t) end
  return coef, rho, info
end

--- warn_stopped(self, tally): the one warning of a fit whose solver runs
-- max_iter stopped before tol.
function common.warn_stopped(self, tally)
  if tally.stopped == 0 then return end
  local p = self.params
  common.warning("%s: the solver stopped after max_iter = %d iterations before reaching "
    .. "tol = %g (%d of %d runs); consider scaling the data "
    .. "(luma.preprocessing.StandardScaler)", self.__class.short_name, p.max_iter, p.tol,
    tally.stopped, tally.runs)
end

--- nonzero(coef) -> the positions (a Lua list) of the nonzero entries.
function common.nonzero(coef)
  local out = {}
  for i = 1, coef:rows() do
    if coef:get(i, 1) ~= 0 then out[#out + 1] = i end
  end
  return out
end

--- column(list) -> an n x 1 matrix of a Lua list (0 x 1 when empty).
function common.column(list)
  if #list == 0 then return luma.zeros(0, 1) end
  return luma.matrix(list)
end

--- set_support(self, X, support): support (1-based training rows), the
-- training shape (shape_fit, scikit-learn's shape_fit_) and, unless X is
-- a precomputed Gram matrix, the support vectors themselves.
function common.set_support(self, X, support)
  self.support = support
  self.shape_fit = { X:rows(), X:cols() }
  if self.kernel_spec.kind ~= "precomputed" then
    self.support_vectors = support:rows() > 0 and X:take(support) or luma.zeros(0, X:cols())
  end
end

--- example_classification(make): an estimator's example for the save/load
-- test that walks every class (a small two-class problem).
function common.example_classification(make)
  return function()
    local X = luma.matrix{ { 0, 0 }, { 1, 0.5 }, { 0.5, 1 }, { 1.5, 1.2 }, { 3, 3 }, { 3.5, 2.5 },
      { 2.5, 3.5 }, { 4, 4 }, { 0.2, 0.8 }, { 3.2, 2.9 } }
    local y = luma.matrix{ 0, 0, 0, 0, 1, 1, 1, 1, 0, 1 }
    return make(), X, y
  end
end

--- example_regression(make): the same for regressors and outlier detectors.
function common.example_regression(make)
  return function()
    local X = luma.matrix{ { 1, 2 }, { 2, 1 }, { 3, 5 }, { 4, 3 }, { 5, 6 }, { 6, 4 }, { 2, 4 },
      { 5, 2 } }
    local y = luma.matrix{ 3.1, 3.9, 8.2, 7.1, 11.3, 9.8, 6.2, 7.0 }
    return make(), X, y
  end
end

luma.doc.set(common, { name = "luma.svm.common",
  doc = "Helpers shared by the luma.svm estimators: kernel resolution and checks, class and "
    .. "sample weights, the native SMO call, kernels against support vectors." })

return common
