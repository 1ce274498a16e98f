--- luma.decomposition KernelPCA: PCA in the feature space of a kernel
-- (notes 004 P23, 001 §F–G), scikit-learn's KernelPCA (1.2.1).
--
-- The Gram matrix K of the training rows is double-centred (the feature
-- vectors' mean moved to the origin), its top eigenpairs (lambda_j, a_j)
-- give the training projections a_j sqrt(lambda_j), and a new row x
-- projects as k_c(x)^T a_j / sqrt(lambda_j), k_c(x) its kernel row
-- centred with the training means (Schölkopf, Smola and Müller 1998).
-- The pre-image map (inverse_transform) is kernel ridge regression from
-- the projections back to the rows (Bakir, Weston and Schölkopf 2004),
-- with the same kernel, as scikit-learn does.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local fail, check_finite = common.fail, common.check_finite

local M = {}

local NAME = "KernelPCA"

-- The options each named kernel takes (luma.kernels refuses others).
local KERNEL_OPTIONS = {
  linear = {}, cosine = {}, rbf = { "gamma" }, laplacian = { "gamma" },
  polynomial = { "degree", "gamma", "coef0" }, sigmoid = { "gamma", "coef0" },
}
local ALIASES = { poly = "polynomial" }

-- The kernel function of the parameters: a luma.kernels object as given,
-- or a named kernel whose gamma, when not given, is 1 / n_features of the
-- rows it is applied to (luma.kernels' and scikit-learn 1.2.1's rule: the
-- pre-image kernel on the k-dimensional projections takes 1 / k); nil for
-- "precomputed".  Rebuilt from the parameters at each use: fitted state
-- holds only numbers and matrices, which luma.save can write.
local function kernel_of(p)
  local k = p.kernel
  if type(k) ~= "string" then
    if not luma.kernels.is_kernel(k) then
      fail("%s: kernel must be a kernel name, \"precomputed\" or a luma.kernels object", NAME)
    end
    return k
  end
  if k == "precomputed" then return nil end
  local name = ALIASES[k] or k
  local options = KERNEL_OPTIONS[name]
  if options == nil then
    fail("%s: unknown kernel %q (linear, poly, rbf, sigmoid, cosine, laplacian, precomputed "
      .. "or a luma.kernels object)", NAME, k)
  end
  local values = { gamma = p.gamma, degree = p.degree, coef0 = p.coef0 }
  local opts = {}
  for _, o in ipairs(options) do opts[o] = values[o] end
  return luma.kernels[name](opts)
end

local function gram(self, X, Y)
  local kernel = kernel_of(self.params)
  if kernel == nil then return X end -- precomputed
  return kernel(X, Y)
end

-- scikit-learn's _check_psd_eigenvalues: significant negative eigenvalues
-- are an error, small ones and tiny positive ones become 0.
local function check_psd(w)
  local top = w:max()
  if top < 0 then
    fail("%s.fit: every eigenvalue of the centred kernel is negative (largest %s): the kernel "
      .. "is not positive semi-definite", NAME, common.number_text(top))
  end
  local low = w:min()
  if low < -1e-5 * top and low < -1e-10 then
    fail("%s.fit: the centred kernel has significant negative eigenvalues (%s of the largest): "
      .. "the kernel is not positive semi-definite", NAME, common.number_text(-low / top))
  end
  return luma.matrix.where(w:lt(1e-12 * top), 0, w)
end

local function fit(self, X)
  local p = self.params
  check_finite(NAME, "fit", X)
  local n = X:rows()
  if p.kernel == "precomputed" and X:cols() ~= n then
    fail("bad argument #1 to 'fit' (%s: a precomputed kernel must be square, got %d x %d)", NAME,
      n, X:cols())
  end
  if p.fit_inverse_transform and p.kernel == "precomputed" then
    fail("%s: fit_inverse_transform needs a kernel on the rows, not \"precomputed\"", NAME)
  end
  kernel_of(p) -- checks the kernel parameter
  local K = gram(self, X)
  self.K_fit_rows = K:mean(1)
  self.K_fit_all = self.K_fit_rows:mean()
  local Kc = K - self.K_fit_rows - K:mean(2) + self.K_fit_all
  Kc = (Kc + Kc:t()) * 0.5
  local k = p.n_components and math.min(n, p.n_components) or n
  local w, V = luma.linalg.eigh(Kc, { order = "descending" })
  w = check_psd(w:sub(1, k, 1, 1):copy())
  V = V:sub(nil, nil, 1, k):copy()
  common.svd_flip(V, luma.zeros(k, 1), true)
  if p.remove_zero_eig or p.n_components == nil then
    local keep = luma.matrix.find(w:gt(0))
    w, V = w:take(keep), V:take(keep, 2)
  end
  self.eigenvalues, self.eigenvectors = w, V
  self.X_fit = X:copy()
  self.n_components = w:rows()
  local Z = V:mul(w:sqrt():t())
  if p.fit_inverse_transform then
    local Kz = gram(self, Z)
    Kz:diag():add(p.alpha, Kz:diag())
    self.dual_coef = luma.linalg.solve(Kz, X, { assume = "spd" })
    self.X_transformed_fit = Z
    self.n_features_out = self.n_components
  end
  return Z
end

local function transform(self, X)
  check_finite(NAME, "transform", X)
  local K = gram(self, X, self.X_fit)
  if self.params.kernel == "precomputed" and K:cols() ~= self.X_fit:rows() then
    fail("bad argument #1 to 'transform' (%s: a precomputed kernel needs %d columns, one per "
      .. "training row)", NAME, self.X_fit:rows())
  end
  local Kc = K - self.K_fit_rows - K:mean(2) + self.K_fit_all
  local w = self.eigenvalues
  local scale = luma.matrix.where(w:gt(0), w:sqrt(), math.huge):pow(-1)
  return Kc * self.eigenvectors:mul(scale:t())
end

M.KernelPCA = estimator.class{
  name = "luma.decomposition.KernelPCA",
  kind = "transformer",
  doc = "Kernel PCA (Schölkopf, Smola and Müller, Nonlinear component analysis as a kernel "
    .. "eigenvalue problem, 1998), as scikit-learn's KernelPCA: the top eigenvectors of the "
    .. "double-centred Gram matrix of any kernel (a name with gamma, degree and coef0, a "
    .. "luma.kernels object, or \"precomputed\"). fit_inverse_transform learns a pre-image "
    .. "map by kernel ridge regression (Bakir, Weston and Schölkopf 2004). Fitted: eigenvalues "
    .. "(k x 1), eigenvectors (n x k, unit norm, scikit-learn's signs), n_components, and "
    .. "dual_coef for the inverse.",
  params = {
    { name = "n_components", type = "integer", min = 1,
      doc = "components to keep (nil: every non-zero eigenvalue)" },
    { name = "kernel", type = "string|table", default = "linear",
      doc = "linear, poly, rbf, sigmoid, cosine, laplacian, precomputed, or a luma.kernels object" },
    { name = "gamma", type = "number", gt = 0, doc = "rbf, laplacian, poly, sigmoid (nil: 1 / n_features)" },
    { name = "degree", type = "integer", default = 3, min = 1, doc = "poly: degree" },
    { name = "coef0", type = "number", default = 1, doc = "poly and sigmoid: constant term" },
    { name = "alpha", type = "number", default = 1, gt = 0, doc = "ridge penalty of the pre-image map" },
    { name = "fit_inverse_transform", type = "boolean", default = false,
      doc = "learn inverse_transform (kernel ridge from the projections to the rows)" },
    { name = "remove_zero_eig", type = "boolean", default = false,
      doc = "drop components with a zero eigenvalue (always when n_components is nil)" },
  },
  example = function() return M.KernelPCA{ n_components = 2, kernel = "rbf", gamma = 0.5 }, common.example_data() end,
  method_docs = {
    inverse_transform = { signature = "est:inverse_transform(Z) -> matrix",
      doc = "The pre-images of projected rows by the kernel ridge map learned with "
        .. "fit_inverse_transform. Returns an n x d matrix." },
  },
  fit = function(self, X) fit(self, X) end,
  fit_transform = fit,
  transform = transform,
  inverse_transform = function(self, Z)
    if not self.params.fit_inverse_transform then
      fail("%s: inverse_transform needs fit_inverse_transform = true", NAME)
    end
    check_finite(NAME, "inverse_transform", Z)
    return gram(self, Z, self.X_transformed_fit) * self.dual_coef
  end,
}

return M
