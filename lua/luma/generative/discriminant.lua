--- luma.discriminant: Gaussian generative classifiers and prototypes.
--
-- LinearDiscriminantAnalysis (one Gaussian per class, shared covariance),
-- QuadraticDiscriminantAnalysis (one covariance per class),
-- NearestCentroid (learning with prototypes, Euclidean or Mahalanobis) and
-- GaussianImputer (missing features from the class-conditional Gaussian),
-- after notes 001 §E (L437–541) and notes 002 §1.2 (C2, Gaussian
-- discriminant analysis).  scikit-learn's names, parameters and fitted
-- attributes where it has the estimator.
--
-- Convention (BRIEF, notes 001 §3 "Gaussian covariance MLE uses 1/n"):
-- by default every fitted covariance divides by the number of rows it is
-- estimated from -- n for LDA's pooled within-class covariance, n_k for
-- QDA's per-class ones.  scikit-learn's LDA with solver "eigen" or "lsqr"
-- does the same (with empirical priors); its default "svd" solver and its
-- QDA divide by n - K and n_k - 1, which covariance_divisor = "unbiased"
-- selects.  See docs/CLASSIFIERS.md.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local classstats = require("luma.generative.native")
local G = require("luma.generative.common")

local linalg = luma.linalg
local fail = G.fail

local discriminant = {}

local LOG_2PI = math.log(2 * math.pi)

-- The class priors: the parameter checked, or the class frequencies.
local function class_priors(name, priors, counts, n)
  if priors ~= nil then return G.priors(name, "priors", priors, counts:rows()) end
  return counts / n
end

-- Number of entries of the column s above threshold.
local function count_above(s, threshold)
  return math.tointeger(s:gt(threshold):sum())
end

-- The covariance_divisor parameter, shared by LDA and QDA.
local DIVISOR_PARAM = { name = "covariance_divisor", type = "string", default = "n",
  values = { "n", "unbiased" },
  doc = "what the covariances divide the scatter by: \"n\" the rows they are estimated "
    .. "from (maximum likelihood), \"unbiased\" that count minus the means fitted (n - K "
    .. "pooled, n_k - 1 per class), as scikit-learn's QDA and LDA solver \"svd\"" }

-- A small fixed three-class problem for the persistence registry test.
local function example_data()
  local X = luma.matrix{
    { 1.0, 2.1, 0.3 }, { 1.3, 1.8, 0.1 }, { 0.8, 2.4, 0.5 }, { 1.1, 2.2, 0.0 },
    { 3.1, 0.2, 1.1 }, { 2.8, 0.5, 1.4 }, { 3.3, 0.1, 0.9 }, { 3.0, 0.4, 1.6 },
    { 0.2, 0.3, 3.0 }, { 0.5, 0.1, 2.7 }, { 0.1, 0.6, 3.2 }, { 0.4, 0.2, 2.9 } }
  local y = luma.matrix{ 1, 1, 1, 1, 2, 2, 2, 2, 5, 5, 5, 5 }
  return X, y
end
discriminant.example_data = example_data

-- ------------------------------------------------------------------ LDA

local LDA_NAME = "LinearDiscriminantAnalysis"

-- svd solver: never forms the within-class covariance.  The centred rows,
-- scaled by 1/(std sqrt(m)), have R (of their QR) with R^T R = the
-- standardized pooled covariance; the SVD of R whitens it.  This is
-- scikit-learn's _solve_svd, whose divisor m is n - K; here m is the
-- divisor of covariance_divisor (n by default).
local function lda_svd(self, X, codes, counts, means, vars, m)
  local n, d = X:shape()
  local k = counts:rows()
  local tol = self.params.tol
  local pooled_var = (counts:t() * vars) / m -- 1 x d: sum_k n_k var_k / m
  local std = luma.matrix.where(pooled_var:eq(0), 1, pooled_var:sqrt())
  local inv_std = std:pow(-1)
  local Xs = classstats.center(X, codes, means, inv_std / math.sqrt(m))
  local R = linalg.qr(Xs, { mode = "r" })
  local _, S, Vt = linalg.svd(R)
  local rank = count_above(S, tol)
  if rank == 0 then fail("%s.fit: the within-class scatter is zero", LDA_NAME) end
  -- scalings whiten the within-class covariance: scalings^T Sw scalings = I
  local scalings = Vt:sub(1, rank, 1, d):div(std):t():div(S:sub(1, rank, 1, 1):t())
  local priors = self.priors
  local xbar = priors:t() * means
  local centers = means - xbar
  -- between-class scatter, whitened; its SVD gives the discriminant axes
  local weights = (priors * (n / math.max(k - 1, 1))):sqrt()
  local _, S2, Vt2 = linalg.svd(centers:mul(weights) * scalings)
  local rank2 = count_above(S2, tol * S2:get(1, 1))
  self.scalings = scalings * Vt2:sub(1, rank2, 1, rank):t()
  local power = S2:mul(S2)
  self.explained_variance_ratio = (power / power:sum()):sub(1, math.min(rank2, self.max_components), 1, 1):copy()
  local projected = centers * self.scalings
  local intercept = projected:mul(projected):sum(2) * -0.5 + priors:log()
  local coef = projected * self.scalings:t()
  self.xbar = xbar
  return coef, intercept - coef * xbar:t()
end

-- Pooled within-class covariance: the scatter divided by m (n, or n - K
-- for covariance_divisor = "unbiased").
local function pooled_covariance(X, codes, means, m)
  local Xc = classstats.center(X, codes, means)
  local Sw = (Xc:t() * Xc) / m
  return (Sw + Sw:t()) * 0.5 -- exactly symmetric for eigh
end

-- scikit-learn's shrunk_covariance: (1 - a) S + a tr(S)/d I.  Linear in
-- S, so shrinking the pooled covariance equals pooling per-class shrunk
-- ones (what scikit-learn does) when the priors are the class frequencies.
local function shrink(S, alpha)
  if alpha == nil or alpha == 0 then return S end
  local d = S:rows()
  return S * (1 - alpha) + luma.eye(d) * (alpha * S:trace() / d)
end

-- The Ledoit-Wolf shrunk covariance of the rows of X (divided by n), as
-- scikit-learn's LDA computes it for shrinkage = "auto": estimated on the
-- standardized columns, then scaled back.  The shrinkage a minimises the
-- expected Frobenius loss of (1 - a) S + a mu I (Ledoit and Wolf 2004):
-- a = min(b, c) / c with c = |S - mu I|_F^2 / d and b = (sum_i |x_i|^4 -
-- n |S|_F^2) / (d n^2).
local function ledoit_wolf(X)
  local n, d = X:shape()
  local mean = X:mean(1)
  local scale = X:var(1):sqrt()
  scale = luma.matrix.where(scale:eq(0), 1, scale) -- constant columns stay as they are
  local Z = (X - mean):div(scale)
  local S = (Z:t() * Z) / n
  local mu = S:trace() / d
  local S2 = S:pow(2):sum()
  local c = (S2 - 2 * mu * S:trace() + d * mu * mu) / d
  local b = (Z:pow(2):sum(2):pow(2):sum() / n - S2) / (d * n)
  local a = c > 0 and math.min(b, c) / c or 0
  local shrunk = S * (1 - a)
  shrunk:diag():add(a * mu, shrunk:diag())
  return shrunk:mul(scale:t() * scale), a
end

-- The pooled within-class covariance under Ledoit-Wolf shrinkage of each
-- class (weights n_k / n, as the unshrunk pooled estimate).
local function ledoit_wolf_pooled(X, codes, counts)
  local n, d = X:shape()
  local Sw = luma.zeros(d, d)
  for k = 1, counts:rows() do
    Sw = Sw + ledoit_wolf(X:select(codes:eq(k), 1)) * (counts:get(k, 1) / n)
  end
  return Sw
end

local function lda_fit(self, X, y)
  local p = self.params
  local n, d = X:shape()
  local codes, classes, counts = G.encode(LDA_NAME, y)
  local k = classes:rows()
  local _, means, vars = G.moments(LDA_NAME, X, codes, k, true)
  if n <= k then
    fail("bad argument #1 to 'fit' (%s needs more rows than classes, got %d rows for %d classes)",
      LDA_NAME, n, k)
  end
  if p.shrinkage ~= nil and p.solver == "svd" then
    fail("%s: shrinkage needs solver \"lsqr\" or \"eigen\", not \"svd\"", LDA_NAME)
  end
  local auto = p.shrinkage == "auto"
  if type(p.shrinkage) == "string" and not auto then
    fail("%s: shrinkage must be a number in [0, 1] or \"auto\", got %q", LDA_NAME, p.shrinkage)
  end
  local max_components = math.min(k - 1, d)
  if p.n_components ~= nil and p.n_components > max_components then
    fail("%s: n_components = %d is more than min(n_classes - 1, n_features) = %d", LDA_NAME,
      p.n_components, max_components)
  end
  self.max_components = p.n_components or max_components
  self.classes = classes
  self.class_count = counts
  self.means = means
  self.priors = class_priors(LDA_NAME, p.priors, counts, n)
  -- the divisor of the pooled covariance; the Ledoit-Wolf estimates, made
  -- with n, are scaled by n / m to match
  local m = p.covariance_divisor == "unbiased" and n - k or n
  local coef, intercept
  if p.solver == "svd" then
    coef, intercept = lda_svd(self, X, codes, counts, means, vars, m)
    if p.store_covariance then self.covariance = pooled_covariance(X, codes, means, m) end
  else
    local Sw_raw = pooled_covariance(X, codes, means, m)
    local Sw = auto and ledoit_wolf_pooled(X, codes, counts) * (n / m)
      or shrink(Sw_raw, p.shrinkage)
    self.covariance = Sw
    local ok, solved = pcall(linalg.solve, Sw, means:t(), { assume = "spd" })
    if not ok then
      fail("%s.fit: the within-class covariance is singular (%s); use solver \"svd\" or "
        .. "shrinkage", LDA_NAME, tostring(solved))
    end
    coef = solved:t()
    if p.solver == "eigen" then
      local mu = counts:t() * means / n
      local centers = means - mu
      local St = Sw_raw + centers:t() * centers:mul(counts / n)
      St = auto and ledoit_wolf(X) * (n / m) or shrink((St + St:t()) * 0.5, p.shrinkage)
      local evals, evecs = linalg.eigh_generalized(St - Sw, Sw, { order = "descending" })
      self.scalings = evecs
      self.explained_variance_ratio = (evals / evals:sum()):sub(1, self.max_components, 1, 1):copy()
      -- scikit-learn's eigen coef_ = means evecs evecs^T = means Sw^-1
      coef = means * evecs * evecs:t()
    end
    intercept = means:mul(coef):sum(2) * -0.5 + self.priors:log()
  end
  if k == 2 then
    -- scikit-learn's binary convention: one row, class 2 against class 1
    self.coef = coef:row(2) - coef:row(1)
    self.intercept = intercept:sub(2, 2, 1, 1) - intercept:get(1, 1)
  else
    self.coef = coef
    self.intercept = intercept:t():copy()
  end
end

local function linear_scores(self, X, method)
  G.check_finite(LDA_NAME, method, X)
  local scores = X * self.coef:t() + self.intercept
  return scores
end

-- Joint log-likelihood up to a per-row constant, n x k.
local function lda_jll(self, X, method)
  local scores = linear_scores(self, X, method)
  if scores:cols() == 1 then return luma.matrix.hstack{ luma.zeros(X:rows(), 1), scores } end
  return scores
end

discriminant.LinearDiscriminantAnalysis = estimator.class{
  name = "luma.discriminant.LinearDiscriminantAnalysis",
  kind = "classifier",
  doc = "Linear discriminant analysis (Hastie, Tibshirani and Friedman, The Elements of "
    .. "Statistical Learning, sec. 4.3; Fisher's discriminant, Bishop, sec. 4.1.4): one "
    .. "Gaussian per class with a shared covariance, pooled over the classes and divided by n "
    .. "(the maximum-likelihood estimate) or n - K (covariance_divisor = \"unbiased\", "
    .. "scikit-learn's solver \"svd\"), and class priors. Predicts the "
    .. "class of largest posterior; transform projects onto at most K - 1 discriminant "
    .. "directions. Fitted: classes, priors, means, coef, intercept (one row for two "
    .. "classes), scalings, explained_variance_ratio, xbar (svd), covariance (eigen, lsqr, "
    .. "or svd with store_covariance).",
  params = {
    { name = "solver", type = "string", default = "svd", values = { "svd", "lsqr", "eigen" },
      doc = "svd: SVD of the centred data, no covariance formed (default); lsqr: solve with "
        .. "the covariance; eigen: generalized eigenproblem of between and within scatter" },
    { name = "shrinkage", type = "number|string", min = 0, max = 1,
      doc = "covariance shrinkage (1 - a) S + a tr(S)/d I, or \"auto\": Ledoit-Wolf per "
        .. "class (lsqr and eigen only)" },
    { name = "priors", type = "matrix|table",
      doc = "class priors in the order of the sorted classes (default: class frequencies)" },
    { name = "n_components", type = "integer", min = 1,
      doc = "dimensions kept by transform (default and maximum: min(K - 1, d))" },
    { name = "store_covariance", type = "boolean", default = false,
      doc = "also compute the covariance with the svd solver" },
    { name = "tol", type = "number", default = 1e-4, gt = 0,
      doc = "singular values of the standardized data below tol count as zero (svd)" },
    DIVISOR_PARAM,
  },
  example = function()
    local X, y = example_data()
    return discriminant.LinearDiscriminantAnalysis{}, X, y
  end,
  fit = lda_fit,
  decision_function = function(self, X)
    return linear_scores(self, X, "decision_function")
  end,
  predict = function(self, X)
    return G.decide(lda_jll(self, X, "predict"), self.classes)
  end,
  predict_log_proba = function(self, X)
    return G.log_proba(lda_jll(self, X, "predict_log_proba"))
  end,
  predict_proba = function(self, X)
    return G.log_proba(lda_jll(self, X, "predict_proba")):exp()
  end,
  transform = function(self, X)
    if self.params.solver == "lsqr" then
      fail("%s: transform is not available with solver \"lsqr\" (use \"svd\" or \"eigen\")",
        LDA_NAME)
    end
    G.check_finite(LDA_NAME, "transform", X)
    local m = self.max_components
    if self.params.solver == "svd" then
      m = math.min(m, self.scalings:cols())
      return (X - self.xbar) * self.scalings:sub(1, self.scalings:rows(), 1, m)
    end
    return X * self.scalings:sub(1, self.scalings:rows(), 1, m)
  end,
}

-- ------------------------------------------------------------------ QDA

local QDA_NAME = "QuadraticDiscriminantAnalysis"

local function qda_fit(self, X, y)
  local p = self.params
  local n, d = X:shape()
  local codes, classes, counts = G.encode(QDA_NAME, y)
  local k = classes:rows()
  local _, means = G.moments(QDA_NAME, X, codes, k, false)
  self.classes = classes
  self.class_count = counts
  self.means = means
  self.priors = class_priors(QDA_NAME, p.priors, counts, n)
  local unbiased = p.covariance_divisor == "unbiased" and 1 or 0
  if unbiased == 1 and counts:min() < 2 then
    fail("%s.fit: covariance_divisor = \"unbiased\" needs at least 2 rows per class, class "
      .. "%s has 1", QDA_NAME, G.number_text(classes:get(counts:argmin(), 1)))
  end
  local Xc = classstats.center(X, codes, means)
  local r = p.reg_param
  self.rotations, self.scalings, self.covariance = {}, {}, p.store_covariance and {} or nil
  for c = 1, k do
    local rows = Xc:select(codes:eq(c), 1)
    -- maximum-likelihood covariance: divided by n_k (BRIEF convention),
    -- or n_k - 1 with covariance_divisor = "unbiased" (scikit-learn's QDA)
    local S = (rows:t() * rows) / (counts:get(c, 1) - unbiased)
    S = (S + S:t()) * 0.5
    -- reg_param as scikit-learn: (1 - r) Sigma + r I
    if r > 0 then S = S * (1 - r) + luma.eye(d) * r end
    local w, V = linalg.eigh(S, { order = "descending" })
    local smallest, largest = w:get(d, 1), w:get(1, 1)
    if not (smallest > largest * d * 2.2e-16) then
      fail("%s.fit: the covariance of class %s is singular (%d rows, %d features); raise "
        .. "reg_param", QDA_NAME, G.number_text(classes:get(c, 1)), math.tointeger(counts:get(c, 1)), d)
    end
    self.rotations[c], self.scalings[c] = V, w
    if self.covariance then self.covariance[c] = S end
  end
end

-- Joint log-likelihood n x k: log prior - (1/2)(Mahalanobis^2 + log|Sigma_k|),
-- scikit-learn's QDA decision values (the -(d/2) log 2 pi common to all
-- classes is left out).  Per class it keeps the log-determinant, which is
-- the term notes 001 L523 drops from the binary constant c (erratum 5:
-- c = ... + ln|L+| - ln|L-|).
local function qda_jll(self, X, method)
  G.check_finite(QDA_NAME, method, X)
  local k = self.classes:rows()
  local jll = luma.zeros(X:rows(), k)
  for c = 1, k do
    local w = self.scalings[c]
    local Z = (X - self.means:row(c)) * self.rotations[c]:div(w:sqrt():t())
    local logdet = w:log():sum()
    jll:col(c):assign(Z:mul(Z):sum(2) * -0.5 + (math.log(self.priors:get(c, 1)) - 0.5 * logdet))
  end
  return jll
end

discriminant.QuadraticDiscriminantAnalysis = estimator.class{
  name = "luma.discriminant.QuadraticDiscriminantAnalysis",
  kind = "classifier",
  doc = "Quadratic discriminant analysis (The Elements of Statistical Learning, sec. 4.3): "
    .. "one Gaussian per "
    .. "class with its own covariance, divided by n_k (maximum likelihood) or n_k - 1 "
    .. "(covariance_divisor = \"unbiased\", scikit-learn's QDA), and class priors. The decision keeps both log-determinants "
    .. "(both enter the Gaussian log-densities). Fitted: classes, priors, means, rotations and scalings (per "
    .. "class: eigenvectors and eigenvalues of the covariance), covariance (with "
    .. "store_covariance).",
  params = {
    { name = "priors", type = "matrix|table",
      doc = "class priors in the order of the sorted classes (default: class frequencies)" },
    { name = "reg_param", type = "number", default = 0, min = 0, max = 1,
      doc = "each covariance becomes (1 - reg_param) Sigma + reg_param I" },
    { name = "store_covariance", type = "boolean", default = false,
      doc = "keep the per-class covariance matrices in covariance" },
    DIVISOR_PARAM,
  },
  example = function()
    local X, y = example_data()
    return discriminant.QuadraticDiscriminantAnalysis{ reg_param = 0.1 }, X, y
  end,
  fit = qda_fit,
  decision_function = function(self, X)
    return G.binary_decision(qda_jll(self, X, "decision_function"))
  end,
  predict = function(self, X)
    return G.decide(qda_jll(self, X, "predict"), self.classes)
  end,
  predict_log_proba = function(self, X)
    return G.log_proba(qda_jll(self, X, "predict_log_proba"))
  end,
  predict_proba = function(self, X)
    return G.log_proba(qda_jll(self, X, "predict_proba")):exp()
  end,
}

-- ------------------------------------------------------ NearestCentroid

local NC_NAME = "NearestCentroid"

-- Nearest shrunken centroids (Tibshirani, Hastie, Narasimhan and Chu 2002;
-- scikit-learn's shrink_threshold): each centroid's deviation from the
-- overall mean, in units of m_k s_j (m_k = sqrt(1/n_k - 1/n), s_j the
-- pooled within-class std of feature j plus its median), is soft-
-- thresholded by the threshold, so features that separate no class fall
-- back to the overall mean.
local function shrunken_centroids(X, codes, counts, means, threshold)
  local n = X:rows()
  local k = means:rows()
  if (X:max(1) - X:min(1)):max() == 0 then
    fail("%s.fit: shrink_threshold needs a feature that varies; all are constant", NC_NAME)
  end
  if n <= k then
    fail("%s.fit: shrink_threshold needs more rows than classes (%d rows, %d classes)", NC_NAME, n, k)
  end
  local overall = X:mean(1)
  local within = classstats.center(X, codes, means)
  local s = (within:pow(2):sum(1) * (1 / (n - k))):sqrt()
  s = s + luma.stats.median(s:t()):get(1, 1)
  local units = (counts:pow(-1) - 1 / n):sqrt() * s -- k x d: m_k s_j
  local deviation = (means - overall):div(units)
  local shrunk = (deviation:abs() - threshold):clamp(0, math.huge):mul(deviation:sign())
  return units:mul(shrunk) + overall
end

-- Distances from the rows of X to the centroids (n x k).
local function centroid_distances(self, X)
  if self.params.metric == "mahalanobis" then
    return luma.pairwise.distances(X, self.centroids, "mahalanobis", { cov = self.covariance })
  end
  return luma.pairwise.distances(X, self.centroids, "euclidean")
end

discriminant.NearestCentroid = estimator.class{
  name = "luma.discriminant.NearestCentroid",
  kind = "classifier",
  doc = "Learning with prototypes (the nearest-centroid classifier): each class is "
    .. "represented by its mean, and a point gets the class of the nearest one, by Euclidean "
    .. "distance or by Mahalanobis distance under the pooled within-class covariance "
    .. "(divided by n, as LDA's). Ties go to the first class in sorted order (scikit-learn's "
    .. "rule). shrink_threshold gives "
    .. "nearest shrunken centroids (Tibshirani et al. 2002). Fitted: classes, centroids, "
    .. "covariance (mahalanobis).",
  params = {
    { name = "metric", type = "string", default = "euclidean",
      values = { "euclidean", "mahalanobis" }, doc = "distance to the class means" },
    { name = "shrink_threshold", type = "number", min = 0,
      doc = "soft threshold on the standardized centroid deviations (nil: none)" },
  },
  example = function()
    local X, y = example_data()
    return discriminant.NearestCentroid{ metric = "mahalanobis" }, X, y
  end,
  fit = function(self, X, y)
    local codes, classes, counts = G.encode(NC_NAME, y)
    local _, means = G.moments(NC_NAME, X, codes, classes:rows(), false)
    self.classes, self.class_count, self.centroids = classes, counts, means
    if self.params.shrink_threshold then
      self.centroids = shrunken_centroids(X, codes, counts, means, self.params.shrink_threshold)
    end
    if self.params.metric == "mahalanobis" then
      local S = pooled_covariance(X, codes, means, X:rows())
      local ok, why = pcall(linalg.cholesky, S)
      if not ok then
        fail("%s.fit: the pooled covariance is singular (%s); use metric \"euclidean\"",
          NC_NAME, tostring(why))
      end
      self.covariance = S
    end
  end,
  -- Negative squared distances to the centroids (n x k): larger is
  -- closer, so the wrappers in luma.multiclass can use it as a score.
  decision_function = function(self, X)
    G.check_finite(NC_NAME, "decision_function", X)
    local D = centroid_distances(self, X)
    return G.binary_decision(-D:mul(D))
  end,
  predict = function(self, X)
    G.check_finite(NC_NAME, "predict", X)
    return self.classes:take(centroid_distances(self, X):argmin(2))
  end,
}

-- ------------------------------------------------------ GaussianImputer

local GI_NAME = "GaussianImputer"

-- The 1-based positions where the row vector flags (1 x d, 0/1) is 1 or 0.
local function split_positions(flags)
  local missing, observed = {}, {}
  for j = 1, flags:cols() do
    if flags:get(1, j) ~= 0 then missing[#missing + 1] = j else observed[#observed + 1] = j end
  end
  return missing, observed
end

-- Fills the rows `rows` of out (all sharing one missing pattern) from the
-- class-conditional Gaussians.  labels: the rows' class codes, or nil to
-- classify each row from its observed features.
local function impute_pattern(self, out, rows, missing, observed, labels)
  local k = self.classes:rows()
  local R = luma.matrix(rows)
  local nr, nm, no = #rows, #missing, #observed
  local fills, scores = {}, luma.zeros(nr, k)
  local Mi, Oi = luma.matrix(missing), no > 0 and luma.matrix(observed) or nil
  local Xo = no > 0 and out:take(R):take(Oi, 2) or nil
  for c = 1, k do
    local mu, S = self.means:row(c), self.covariances[c]
    local mu_m = mu:take(Mi, 2)
    local log_prior = math.log(self.priors:get(c, 1))
    if no == 0 then
      fills[c] = luma.zeros(nr, nm) + mu_m
      scores:col(c):fill(log_prior)
    else
      -- x_m = mu_m + S_mo S_oo^-1 (x_o - mu_o)   (notes 001 §E, L535-536)
      local S_oo = S:take(Oi):take(Oi, 2)
      local S_mo = S:take(Mi):take(Oi, 2)
      local Zc = Xo - mu:take(Oi, 2)
      local ok, W = pcall(linalg.solve, S_oo, Zc:t(), { assume = "spd" })
      if not ok then
        fail("%s: the covariance of class %s over the observed features is singular; raise "
          .. "reg_covar", GI_NAME, G.number_text(self.classes:get(c, 1)))
      end
      fills[c] = (S_mo * W):t() + mu_m
      -- log N(x_o; mu_o, S_oo) + log prior: the marginal of the observed
      -- features classifies the row (notes 001 §E, L527-534)
      local _, logdet = linalg.slogdet(S_oo)
      scores:col(c):assign(Zc:mul(W:t()):sum(2) * -0.5 + (log_prior - 0.5 * (logdet + no * LOG_2PI)))
    end
  end
  local filled = luma.zeros(nr, nm)
  if labels == nil and self.params.assign == "soft" then
    local post = scores:log_softmax(2):exp()
    for c = 1, k do filled = filled + fills[c]:mul(post:col(c)) end
  else
    local chosen = labels or scores:argmax(2)
    for c = 1, k do
      local mask = chosen:eq(c)
      filled = luma.matrix.where(mask, fills[c], filled)
    end
  end
  for r = 1, nr do
    for a = 1, nm do out:set(rows[r], missing[a], filled:get(r, a)) end
  end
end

local function gi_transform(self, X, y)
  local i, j, v = classstats.first_nonfinite(luma.matrix.where(X:isnan(), 0, X))
  if i then
    fail("bad argument #1 to 'transform' (%s: X has an infinite element, %s at row %d, column %d)",
      GI_NAME, G.number_text(v), i, j)
  end
  local codes
  if y ~= nil then
    if not luma.ismatrix(y) or y:rows() ~= X:rows() or y:cols() ~= 1 then
      fail("bad argument #2 to 'transform' (%s: y must be a column with one label per row of X)",
        GI_NAME)
    end
    codes = G.codes(GI_NAME, "transform", y, self.classes)
  end
  local out = X:copy()
  local nan = X:isnan()
  local incomplete = luma.matrix.find(nan:sum(2):gt(0))
  -- group the incomplete rows by their pattern of missing features
  local groups, order = {}, {}
  for r = 1, incomplete:rows() do
    local row = math.tointeger(incomplete:get(r, 1))
    local flags = nan:row(row)
    local key = table.concat(flags:totable()[1], ",")
    local g = groups[key]
    if not g then
      g = { flags = flags, rows = {} }
      groups[key] = g
      order[#order + 1] = key
    end
    g.rows[#g.rows + 1] = row
  end
  for _, key in ipairs(order) do
    local g = groups[key]
    local missing, observed = split_positions(g.flags)
    local labels = codes and codes:take(luma.matrix(g.rows)) or nil
    impute_pattern(self, out, g.rows, missing, observed, labels)
  end
  return out
end

discriminant.GaussianImputer = estimator.class{
  name = "luma.discriminant.GaussianImputer",
  kind = "transformer",
  requires_y = true,
  doc = "Class-conditional Gaussian imputation. fit(X, y) learns per "
    .. "class the mean and the maximum-likelihood covariance (1/n_k, plus reg_covar on the "
    .. "diagonal) from the class's complete rows (rows with a NaN are skipped), and class "
    .. "priors from all rows. transform(X [, y]) replaces each NaN by the conditional mean "
    .. "mu_m + S_mo S_oo^-1 (x_o - mu_o) of the row's class given its observed features. "
    .. "With y the class is known; without y it is predicted from the observed features "
    .. "alone, argmax_k log pi_k + log N(x_o; mu_k,o, S_k,oo) (assign = "
    .. "\"hard\"), or the conditional means are averaged with those posterior weights (assign "
    .. "= \"soft\", the mixture's conditional mean). A row with every feature missing gets "
    .. "the mean of its class (or of the most probable class a priori). Infinite values are "
    .. "errors; rows without NaN are returned unchanged. Fitted: classes, priors, means, "
    .. "covariances, class_count (complete rows per class).",
  params = {
    { name = "assign", type = "string", default = "hard", values = { "hard", "soft" },
      doc = "without y: impute from the most probable class or the posterior-weighted average" },
    { name = "reg_covar", type = "number", default = 0, min = 0,
      doc = "added to the diagonal of every class covariance" },
  },
  example = function()
    local X, y = example_data()
    X = X:copy()
    X:set(2, 3, 0 / 0)
    X:set(7, 1, 0 / 0)
    return discriminant.GaussianImputer{ reg_covar = 1e-3 }, X, y
  end,
  fit = function(self, X, y)
    local nan = X:isnan()
    local i, j, v = classstats.first_nonfinite(luma.matrix.where(nan, 0, X))
    if i then
      fail("bad argument #1 to 'fit' (%s: X has an infinite element, %s at row %d, column %d)",
        GI_NAME, G.number_text(v), i, j)
    end
    local codes, classes, counts = G.encode(GI_NAME, y)
    local complete = nan:sum(2):eq(0)
    local Xc, cc = X:select(complete, 1), codes:select(complete, 1)
    local k, d = classes:rows(), X:cols()
    local complete_counts, means = classstats.moments(Xc, cc, k, false)
    self.classes, self.class_count = classes, complete_counts
    self.priors = counts / X:rows()
    self.means = means
    self.covariances = {}
    local centred = classstats.center(Xc, cc, means)
    for c = 1, k do
      local n_c = complete_counts:get(c, 1)
      if n_c < 1 then
        fail("bad argument #1 to 'fit' (%s: class %s has no row without missing features)",
          GI_NAME, G.number_text(classes:get(c, 1)))
      end
      local rows = centred:select(cc:eq(c), 1)
      local S = (rows:t() * rows) / n_c
      self.covariances[c] = (S + S:t()) * 0.5 + luma.eye(d) * self.params.reg_covar
    end
  end,
  transform = gi_transform,
  fit_transform = function(self, X, y)
    return self:fit(X, y):transform(X, y)
  end,
}

luma.doc.set(discriminant, { name = "luma.discriminant",
  doc = "Gaussian generative classifiers and prototypes: LinearDiscriminantAnalysis, "
    .. "QuadraticDiscriminantAnalysis, NearestCentroid, GaussianImputer; see "
    .. "docs/CLASSIFIERS.md." })

discriminant.LOG_2PI = LOG_2PI

luma.doc.set(example_data, { name = "luma.discriminant.example_data",
  signature = "example_data() -> X, y",
  doc = "A small fixed three-class problem (12 x 3, labels 1, 2 and 5), for examples and "
    .. "the save/load test." })

return discriminant
