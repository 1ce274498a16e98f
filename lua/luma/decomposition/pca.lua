--- luma.decomposition PCA and IncrementalPCA: principal component analysis
-- (notes 000 Ch. 4, 001 §I, 002 U1–U3, 003 §1.13, 004 P1–P14, P20).
--
-- Convention (BRIEF, notes 004 P1, 003 §3.10): the covariance divides by
-- N, so explained_variance = s^2 / N by default; ddof = 1 gives
-- scikit-learn's s^2 / (N - 1) for ported code.  Ratios, singular values
-- and components do not depend on it.  Components follow scikit-learn's
-- sign convention (svd_flip deciding by U), whatever the solver, so they
-- match sklearn.decomposition.PCA exactly.
--
-- Notes' errata implemented corrected:
--   * whitening is L^{-1/2} U^T (x - mean) (notes 003 §3.10 print L^{-1});
--   * the distortion J is the sum of the discarded eigenvalues i > M
--     (notes 003 sum over all of them): reconstruction_error;
--   * with N < D the centred covariance has D - N + 1 zero eigenvalues at
--     least (rank <= N - 1; notes 004 §4.8 count D - N + 1 zero eigenvalues
--     for rank N, which is inconsistent): the Gram solver keeps min(N, D).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local fail, check_finite = common.fail, common.check_finite
local linalg = luma.linalg

local M = {}

local NAME = "PCA"
local LOG_2PI = math.log(2 * math.pi)

-- ------------------------------------------------- choosing n_components

-- Minka's (2000) log-evidence of a rank-`rank` PPCA model given the
-- spectrum (eigenvalues, descending): scikit-learn's _assess_dimension.
local function assess_dimension(spectrum, rank, n)
  local d = #spectrum
  local eps = 1e-15
  if spectrum[rank] < eps then return -math.huge end
  local lgamma = luma.special.lgamma
  local pu = -rank * math.log(2)
  for i = 1, rank do
    pu = pu + lgamma((d - i + 1) / 2) - math.log(math.pi) * (d - i + 1) / 2
  end
  local pl = 0
  for i = 1, rank do pl = pl + math.log(spectrum[i]) end
  pl = -pl * n / 2
  local rest = 0
  for i = rank + 1, d do rest = rest + spectrum[i] end
  local v = math.max(eps, rest / (d - rank))
  local pv = -math.log(v) * n * (d - rank) / 2
  local m = d * rank - rank * (rank + 1) / 2
  local pp = math.log(2 * math.pi) * (m + rank) / 2
  local pa = 0
  for i = 1, rank do
    for j = i + 1, d do
      local sj = j > rank and v or spectrum[j]
      pa = pa + math.log((spectrum[i] - spectrum[j]) * (1 / sj - 1 / spectrum[i])) + math.log(n)
    end
  end
  return pu + pl + pv + pp - pa / 2 - rank * math.log(n) / 2
end

-- The rank in 1..d-1 of the largest Minka evidence.
local function infer_dimension(variances, n)
  local spectrum = {}
  for i = 1, variances:rows() do spectrum[i] = variances:get(i, 1) end
  local best, best_ll = 1, -math.huge
  for rank = 1, #spectrum - 1 do
    local ll = assess_dimension(spectrum, rank, n)
    if ll > best_ll then best, best_ll = rank, ll end
  end
  return best
end

-- Gavish and Donoho (2014), "The optimal hard threshold for singular
-- values is 4/sqrt(3)": for an n x d matrix with aspect ratio beta =
-- min/max, keep the singular values above lambda(beta) sqrt(max(n, d))
-- sigma when the noise level sigma is known (lambda(1) = 4/sqrt(3), the
-- notes' 4 sigma sqrt(D)/sqrt(3) for a square matrix, 004 P20), and above
-- omega(beta) times the median singular value otherwise (their
-- approximation omega = 0.56 b^3 - 0.95 b^2 + 1.82 b + 1.43).
local function gavish_donoho(s, n, d, sigma)
  local beta = math.min(n, d) / math.max(n, d)
  local tau
  if sigma then
    local lambda = math.sqrt(2 * (beta + 1) + 8 * beta / (beta + 1 + math.sqrt(beta ^ 2 + 14 * beta + 1)))
    tau = lambda * math.sqrt(math.max(n, d)) * sigma
  else
    local sorted = s:sort()
    local m = sorted:rows()
    local median = m % 2 == 1 and sorted:get((m + 1) // 2, 1)
      or (sorted:get(m // 2, 1) + sorted:get(m // 2 + 1, 1)) / 2
    tau = (0.56 * beta ^ 3 - 0.95 * beta ^ 2 + 1.82 * beta + 1.43) * median
  end
  return math.max(1, math.tointeger(s:gt(tau):sum()))
end

-- ------------------------------------------------------------- solvers
-- Each returns the singular values s (a column, descending), Vt (rows:
-- right singular vectors), a function deciders(k) giving n x k columns
-- proportional to U's first k (for svd_flip) and whether s is the whole
-- spectrum (min(n, d) values) rather than a truncation.

-- SVD of the centred data (notes 004 P9, 001 §I), X - 1 mean formed
-- inside common.svd.
local function solve_full(X, mean)
  local U, s, Vt = common.svd(X, mean)
  return s, Vt, function(k) return U:sub(nil, nil, 1, k) end, true
end

-- Eigendecomposition of the scatter matrix Xc^T Xc (notes 004 P3, 000 Ch. 4
-- five steps), eigenvalues s^2.
local function solve_eigh(Xc)
  local n, d = Xc:shape()
  local m = math.min(n, d)
  local w, V = linalg.eigh(Xc:t() * Xc, { order = "descending" })
  local s = w:sub(1, m, 1, 1):maximum(0):sqrt()
  local Vt = V:sub(nil, nil, 1, m):t():copy()
  return s, Vt, function(k) return Xc * Vt:sub(1, k, nil, nil):t() end, true
end

-- The Gram trick for N << D (notes 004 P13): eigenvectors c of Xc Xc^T
-- (N x N) give the components Xc^T c, normalised to unit length.
local function solve_gram(Xc)
  local n, d = Xc:shape()
  local m = math.min(n, d)
  local w, C = linalg.eigh(Xc * Xc:t(), { order = "descending" })
  local s = w:sub(1, m, 1, 1):maximum(0):sqrt()
  local U = C:sub(nil, nil, 1, m)
  local Vt = (Xc:t() * U):t()
  local norms = Vt:norm(2, 2)
  Vt = Vt:div(luma.matrix.where(norms:gt(0), norms, 1))
  return s, Vt, function(k) return U:sub(nil, nil, 1, k) end, true
end

-- The notes' power method with peeling on the scatter matrix (notes 001
-- §I, 004 P12): luma.linalg.power_iteration.
local function solve_power(Xc, k, p, rng)
  local vals, V = linalg.power_iteration(Xc:t() * Xc,
    { k = k, max_iter = p.max_iter, tol = p.tol, rng = rng })
  local s = vals:maximum(0):sqrt()
  local Vt = V:t():copy()
  return s, Vt, function(kk) return Xc * Vt:sub(1, kk, nil, nil):t() end, false
end

-- scikit-learn's choice for svd_solver = "auto" (1.2.1): full for small
-- data and for n_components that need the whole spectrum, randomized for
-- few components of large data.
local function auto_solver(k, n, d)
  if math.max(n, d) <= 500 or math.type(k) ~= "integer" then return "full" end
  if k >= 1 and k < 0.8 * math.min(n, d) then return "randomized" end
  return "full"
end

-- Checks n_components (an integer count, a variance fraction, "mle" or
-- "gavish_donoho") against the data and the solver.
local function check_n_components(k, solver, n, d)
  if type(k) == "string" then
    if k ~= "mle" and k ~= "gavish_donoho" then
      fail("%s: n_components must be an integer, a fraction in (0, 1), \"mle\" or "
        .. "\"gavish_donoho\", got %q", NAME, k)
    end
    if k == "mle" and n < d then
      fail("bad argument #1 to 'fit' (%s: n_components = \"mle\" needs n_samples >= n_features, "
        .. "X is %d x %d)", NAME, n, d)
    end
  elseif math.type(k) == "float" then
    if not (k > 0 and k < 1) then
      fail("%s: n_components = %s must be an integer count or a fraction in (0, 1)", NAME,
        common.number_text(k))
    end
  elseif k ~= nil then
    common.check_components(NAME, k, n, d)
  end
  if (type(k) == "string" or math.type(k) == "float") and (solver == "randomized" or solver == "power") then
    fail("%s: n_components = %s needs the whole spectrum: use svd_solver \"full\", "
      .. "\"covariance_eigh\" or \"gram\", not %q", NAME, type(k) == "string" and string.format("%q", k)
      or common.number_text(k), solver)
  end
end

-- The number of components to keep from a whole spectrum.
local function choose_k(p, s, variances, n, d)
  local k = p.n_components
  if k == nil then return s:rows() end
  if k == "mle" then return infer_dimension(variances, n) end
  if k == "gavish_donoho" then return gavish_donoho(s, n, d, p.noise_std) end
  if math.type(k) == "float" then
    -- the first count whose cumulated ratio exceeds k (scikit-learn's
    -- searchsorted(side = "right") + 1)
    local cum = (variances / variances:sum()):cumsum()
    return math.min(math.tointeger(cum:le(k):sum()) + 1, s:rows())
  end
  return k
end

local function pca_fit(self, X)
  local p = self.params
  local n, d = X:shape()
  check_finite(NAME, "fit", X)
  if n - p.ddof < 1 then
    fail("bad argument #1 to 'fit' (%s needs at least %d rows with ddof = %d, X has %d)", NAME,
      p.ddof + 1, p.ddof, n)
  end
  local solver = p.svd_solver
  if solver == "auto" then solver = auto_solver(p.n_components or math.min(n, d), n, d) end
  check_n_components(p.n_components, solver, n, d)
  local mean = common.column_means(X)
  local m = math.min(n, d)
  local divisor = n - p.ddof
  local s, Vt, deciders, whole, U
  local total -- total variance (trace of the covariance)
  if solver == "randomized" then
    local k = p.n_components or m
    local ss
    U, s, Vt, ss = common.randomized_svd(X, k, { mean = mean, n_oversamples = p.n_oversamples,
      n_iter = common.power_iterations(p.iterated_power, k, n, d), total = true,
      normalizer = p.power_iteration_normalizer == "none" and "none" or "qr", rng = estimator.rng(p.seed) })
    total = ss / divisor
  elseif solver == "full" then
    s, Vt, deciders, whole = solve_full(X, mean)
  else
    local Xc = X - mean
    if solver == "covariance_eigh" then s, Vt, deciders, whole = solve_eigh(Xc)
    elseif solver == "gram" then s, Vt, deciders, whole = solve_gram(Xc)
    else
      s, Vt, deciders, whole = solve_power(Xc, p.n_components or m, p, estimator.rng(p.seed))
      total = Xc:pow(2):sum() / divisor
    end
  end
  local variances = s:pow(2) / divisor
  if whole then total = variances:sum() end
  local k = whole and choose_k(p, s, variances, n, d) or s:rows()
  if deciders then common.svd_flip(nil, Vt:sub(1, k, nil, nil), true, deciders(k)) end
  self.n_components = k
  self.n_samples = n
  self.mean = mean
  self.components = Vt:sub(1, k, nil, nil):copy()
  self.singular_values = s:sub(1, k, 1, 1):copy()
  self.explained_variance = variances:sub(1, k, 1, 1):copy()
  self.explained_variance_ratio = self.explained_variance / total
  -- sigma^2 of probabilistic PCA: the mean discarded variance (notes 004
  -- P18, (10.79)), over the min(n, d) directions the data can span.
  if k < m then
    if whole then
      self.noise_variance = variances:sub(k + 1, m, 1, 1):mean()
    else
      self.noise_variance = (total - self.explained_variance:sum()) / (m - k)
    end
  else
    self.noise_variance = 0
  end
  self.n_features_out = k
end

local function name_of(self) return self.__class.short_name end

local function pca_transform(self, X)
  check_finite(name_of(self), "transform", X)
  local Z = (X - self.mean) * self.components:t()
  if self.params.whiten then Z = Z:div(self.explained_variance:sqrt():t()) end
  return Z
end

local function pca_inverse(self, Z)
  check_finite(name_of(self), "inverse_transform", Z)
  if self.params.whiten then Z = Z:mul(self.explained_variance:sqrt():t()) end
  return Z * self.components + self.mean
end

-- The PPCA model of the fit (Tipping and Bishop 1999; notes 004 P16,
-- P18): C = W^T diag(ev) W + sigma^2 (I - W^T W) for the orthonormal
-- rows W of components, i.e. the sample covariance on the principal
-- subspace and sigma^2 on its complement.  Its inverse and log-determinant
-- are closed forms: C^-1 = W^T diag(1/ev - 1/sigma^2) W + I/sigma^2 and
-- log|C| = sum log ev + (d - k) log sigma^2.  (scikit-learn multiplies
-- the components by sqrt(ev) when whiten is set, which changes its score;
-- the model here does not depend on whiten.)
local function ppca_parts(self, method)
  local d = self.components:cols()
  local k = self.n_components
  local sigma2 = self.noise_variance
  local ev = self.explained_variance:maximum(sigma2)
  if (k < d and not (sigma2 > 0)) or not (ev:min() > 0) then
    fail("%s.%s: the PPCA covariance is singular (noise_variance = %s with %d of %d "
      .. "components); fit fewer components than min(n_samples, n_features) = %d", name_of(self), method,
      common.number_text(sigma2), k, d, math.min(self.n_samples, d))
  end
  return d, k, sigma2, ev
end

local function reconstruction_error(self, X)
  common.check_fitted(self, "reconstruction_error")
  if not luma.ismatrix(X) or X:cols() ~= self.n_features_in then
    fail("bad argument #1 to 'reconstruction_error' (X must be a matrix with %d columns)",
      self.n_features_in)
  end
  check_finite(name_of(self), "reconstruction_error", X)
  local Xr = X - self.mean
  local R = Xr - (Xr * self.components:t()) * self.components
  return R:pow(2):sum() / X:rows()
end

local function pca_get_covariance(self)
  common.check_fitted(self, "get_covariance")
  local d, _, sigma2, ev = ppca_parts(self, "get_covariance")
  local W = self.components
  local C = W:t() * W:mul(ev - sigma2)
  C:diag():add(sigma2, C:diag())
  return (C + C:t()) * 0.5
end

local function pca_get_precision(self)
  common.check_fitted(self, "get_precision")
  local d, k, sigma2, ev = ppca_parts(self, "get_precision")
  local W = self.components
  local coef = k < d and (ev:pow(-1) - 1 / sigma2) or ev:pow(-1)
  local P = W:t() * W:mul(coef)
  if k < d then P:diag():add(1 / sigma2, P:diag()) end
  return (P + P:t()) * 0.5
end

local function pca_score_samples(self, X)
  check_finite(name_of(self), "score_samples", X)
  local d, k, sigma2, ev = ppca_parts(self, "score_samples")
  local Xr = X - self.mean
  local P = Xr * self.components:t()
  local quad, logdet
  if k < d then
    quad = P:pow(2) * (ev:pow(-1) - 1 / sigma2) + Xr:pow(2):sum(2) / sigma2
    logdet = ev:log():sum() + (d - k) * math.log(sigma2)
  else
    quad = P:pow(2) * ev:pow(-1)
    logdet = ev:log():sum()
  end
  return (quad + (d * LOG_2PI + logdet)) * -0.5
end

-- The records of the methods PCA and IncrementalPCA share.
local PCA_METHOD_DOCS = {
  partial_fit = { signature = "est:partial_fit(X) -> est",
    doc = "Updates the fit with one more batch of rows (the first call starts it). Returns "
      .. "the estimator." },
  score = { signature = "est:score(X) -> number",
    doc = "The average log-likelihood of the rows of X under the probabilistic PCA model of "
      .. "the fit (Tipping and Bishop 1999). Returns a number (greater is better)." },
  score_samples = { signature = "est:score_samples(X) -> matrix",
    doc = "The log-likelihood of each row of X under the probabilistic PCA model. Returns "
      .. "an n x 1 matrix." },
  get_covariance = { signature = "est:get_covariance() -> matrix",
    doc = "The covariance of the probabilistic PCA model, W^T diag(ev) W + sigma^2 (I - "
      .. "W^T W). Returns a d x d matrix." },
  get_precision = { signature = "est:get_precision() -> matrix",
    doc = "The inverse of get_covariance(), in closed form. Returns a d x d matrix." },
  reconstruction_error = { signature = "est:reconstruction_error(X) -> number",
    doc = "The mean squared distance between the rows of X and their reconstruction from "
      .. "the kept components (on the training data, the sum of the discarded variances "
      .. "with ddof = 0). Returns a number." },
}

M.PCA = estimator.class{
  name = "luma.decomposition.PCA",
  kind = "transformer",
  doc = "Principal component analysis: the centred data projected on the directions of "
    .. "largest variance, the top right singular vectors of X - mean (Jolliffe, Principal "
    .. "Component Analysis, 2002; Bishop, Pattern Recognition and Machine Learning, sec. 12.1). "
    .. "Solvers: full (SVD), covariance_eigh (eigenvectors of the covariance), gram (the "
    .. "N x N Gram matrix, for N << D), randomized (Halko et al. 2011, seeded) and power "
    .. "(power iteration with peeling). n_components is a count, a fraction of variance to "
    .. "keep, \"mle\" (Minka 2000) or \"gavish_donoho\" (the optimal hard threshold). "
    .. "Fitted: components (k x d, scikit-learn's signs), explained_variance (divisor "
    .. "N - ddof), explained_variance_ratio, singular_values, mean, noise_variance, "
    .. "n_components. score is the average PPCA log-likelihood; reconstruction_error(X) the "
    .. "mean squared distance to the reconstruction; get_covariance and get_precision give "
    .. "the PPCA covariance and its inverse.",
  params = {
    { name = "n_components", type = "number|string",
      doc = "components to keep: a count in 1..min(N, D), a fraction in (0, 1) of the "
        .. "variance to explain, \"mle\" or \"gavish_donoho\"; nil keeps min(N, D)" },
    { name = "whiten", type = "boolean", default = false,
      doc = "scale the projections to unit variance (L^{-1/2} U^T (x - mean))" },
    { name = "svd_solver", type = "string", default = "auto",
      values = { "auto", "full", "covariance_eigh", "gram", "randomized", "power" },
      doc = "how the spectrum is computed; auto follows scikit-learn (full for data up to "
        .. "500 on a side, randomized for fewer than 80% of the components of larger data)" },
    { name = "ddof", type = "integer", default = 0, min = 0, max = 1,
      doc = "explained_variance divides by N - ddof: 0 (the maximum-likelihood 1/N, Luma's "
        .. "convention) or 1 (scikit-learn's 1/(N - 1))" },
    { name = "iterated_power", type = "integer|string", default = "auto",
      doc = "power iterations of the randomized solver (\"auto\": 7 for few components, else 4)" },
    { name = "n_oversamples", type = "integer", default = 10, min = 0,
      doc = "extra random directions of the randomized solver" },
    { name = "power_iteration_normalizer", type = "string", default = "auto",
      values = { "auto", "QR", "none" },
      doc = "orthonormalization between the randomized solver's products (auto: QR)" },
    { name = "noise_std", type = "number", gt = 0,
      doc = "known noise standard deviation for n_components = \"gavish_donoho\" (nil: "
        .. "estimated from the median singular value)" },
    { name = "max_iter", type = "integer", default = 1000, min = 1,
      doc = "iterations per component of the power solver" },
    { name = "tol", type = "number", default = 1e-10, gt = 0,
      doc = "convergence tolerance of the power solver" },
    { name = "seed", type = "seed", doc = "randomized and power solvers' random start" },
  },
  example = function() return M.PCA{ n_components = 2 }, common.example_data() end,
  method_docs = PCA_METHOD_DOCS,
  fit = pca_fit,
  transform = pca_transform,
  inverse_transform = pca_inverse,
  score_samples = pca_score_samples,
  score = function(self, X) return pca_score_samples(self, X):mean() end,
  get_covariance = function(self) return pca_get_covariance(self) end,
  get_precision = function(self) return pca_get_precision(self) end,
  reconstruction_error = function(self, X) return reconstruction_error(self, X) end,
}

-- ---------------------------------------------------- IncrementalPCA

local INAME = "IncrementalPCA"

-- One batch of Ross et al. (2008)'s incremental SVD, as scikit-learn's
-- IncrementalPCA.partial_fit: the SVD of the previous components scaled
-- by their singular values, the batch centred on its own mean, and a row
-- correcting for the shift between the old and the new mean; column
-- means and variances are updated exactly (Chan, Golub and LeVeque).
local function ipca_batch(self, X)
  local p = self.params
  local n, d = X:shape()
  local k = self.n_components
  if k == nil then
    k = p.n_components or math.min(n, d)
  end
  if k > d then
    fail("bad argument #1 to 'fit' (%s: n_components = %d is more than n_features = %d)", INAME, k, d)
  end
  if k > n then
    fail("bad argument #1 to 'fit' (%s: n_components = %d is more than the %d rows of a batch)",
      INAME, k, n)
  end
  local seen = self.n_samples_seen or 0
  local total = seen + n
  local batch_mean = common.column_means(X)
  local batch_var = X:var(1)
  local mean, var
  if seen == 0 then
    mean, var = batch_mean, batch_var
  else
    local delta = batch_mean - self.mean
    mean = self.mean + delta * (n / total)
    -- pooled sums of squared deviations
    var = (self.var * seen + batch_var * n + delta:pow(2) * (seen * n / total)) / total
  end
  local Xc = X - batch_mean
  if seen > 0 then
    local correction = (self.mean - batch_mean) * math.sqrt(seen / total * n)
    Xc = luma.matrix.vstack{ self.components:mul(self.singular_values), Xc, correction }
  end
  local U, S, Vt = common.svd(Xc)
  common.svd_flip(U, Vt, false)
  local divisor = total - p.ddof
  if divisor < 1 then
    fail("bad argument #1 to 'fit' (%s needs at least %d rows with ddof = %d)", INAME, p.ddof + 1, p.ddof)
  end
  local variances = S:pow(2) / divisor
  self.n_samples_seen = total
  self.n_samples = total
  self.n_components = k
  self.components = Vt:sub(1, k, nil, nil):copy()
  self.singular_values = S:sub(1, k, 1, 1):copy()
  self.mean, self.var = mean, var
  self.explained_variance = variances:sub(1, k, 1, 1):copy()
  self.explained_variance_ratio = S:sub(1, k, 1, 1):pow(2) / (var:sum() * total)
  local m = S:rows()
  if k ~= n and k ~= d and k < m then
    self.noise_variance = variances:sub(k + 1, m, 1, 1):mean()
  else
    self.noise_variance = 0
  end
  self.n_features_out = k
end

-- scikit-learn's gen_batches: batches of batch_size rows, a last short
-- one only if it has at least min_size rows (otherwise merged).
local function batches(n, size, min_size)
  local out, start = {}, 1
  for _ = 1, n // size do
    local stop = start + size - 1
    if stop + min_size <= n then
      out[#out + 1] = { start, stop }
      start = stop + 1
    end
  end
  if start <= n then out[#out + 1] = { start, n } end
  return out
end

M.IncrementalPCA = estimator.class{
  name = "luma.decomposition.IncrementalPCA",
  kind = "transformer",
  doc = "PCA fitted in batches of rows with constant memory (Ross, Lim, Lin and Yang, "
    .. "Incremental learning for robust visual tracking, 2008), as scikit-learn's "
    .. "IncrementalPCA: each batch updates the components, singular values, means and "
    .. "variances; partial_fit(X) adds one batch. Fitted attributes, transform, "
    .. "inverse_transform and score as PCA's (the components are exact when every batch "
    .. "keeps all its directions); signs follow svd_flip deciding by the rows of components.",
  params = {
    { name = "n_components", type = "integer", min = 1,
      doc = "components to keep (nil: min(rows of the first batch, n_features))" },
    { name = "whiten", type = "boolean", default = false,
      doc = "scale the projections to unit variance" },
    { name = "batch_size", type = "integer", min = 1, doc = "rows per batch (nil: 5 n_features)" },
    { name = "ddof", type = "integer", default = 0, min = 0, max = 1,
      doc = "explained_variance divides by N - ddof (1: scikit-learn's N - 1)" },
  },
  example = function() return M.IncrementalPCA{ n_components = 2, batch_size = 6 }, common.example_data() end,
  method_docs = PCA_METHOD_DOCS,
  fit = function(self, X)
    check_finite(INAME, "fit", X)
    local size = self.params.batch_size or 5 * X:cols()
    for _, b in ipairs(batches(X:rows(), size, self.params.n_components or 0)) do
      ipca_batch(self, X:sub(b[1], b[2], nil, nil))
    end
  end,
  partial_fit = function(self, X)
    if not luma.ismatrix(X) then
      fail("bad argument #1 to 'partial_fit' (X must be a luma.Matrix, got %s)", type(X))
    end
    if self:is_fitted() and X:cols() ~= self.n_features_in then
      fail("bad argument #1 to 'partial_fit' (X has %d columns but %s was fitted on %d)", X:cols(),
        INAME, self.n_features_in)
    end
    check_finite(INAME, "partial_fit", X)
    ipca_batch(self, X)
    rawset(self, "n_features_in", X:cols())
    rawset(self, "__fitted", true)
    return self
  end,
  transform = pca_transform,
  inverse_transform = pca_inverse,
  score_samples = pca_score_samples,
  score = function(self, X) return pca_score_samples(self, X):mean() end,
  get_covariance = function(self) return pca_get_covariance(self) end,
  get_precision = function(self) return pca_get_precision(self) end,
  reconstruction_error = function(self, X) return reconstruction_error(self, X) end,
}

return M
