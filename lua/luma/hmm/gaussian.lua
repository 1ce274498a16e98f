--- luma.hmm GaussianHMM and GMMHMM: hidden Markov models with Gaussian
-- and Gaussian-mixture emissions (notes 003 §1.14 and §3 item 13, 002
-- §1.16 Q13; hmmlearn's GaussianHMM and GMMHMM).
--
-- The Gaussian pieces are luma.mixture's (lua/luma/mixture/gaussian.lua):
-- the log-densities of every state in one pass (log_resp_of, full and tied
-- covariances in its C kernel), the weighted M-step estimates (estimate),
-- precisions through Cholesky factors, with the same four covariance
-- layouts: "full" (a table of k d x d matrices), "tied" (one d x d),
-- "diag" (k x d variances), "spherical" (k x 1).  The M-step is the
-- maximum-likelihood one of 003 §3 item 13 (corrected: gamma-weighted
-- means and covariances about the new means) with min_covar added to the
-- diagonal; hmmlearn's weak emission priors (covars_prior = 1e-2) are not
-- applied.  Initialization (hmmlearn's): luma.cluster.KMeans (k-means++,
-- n_init = 10, seeded from the fit's generator) for the means, the data
-- covariance (divisor n) plus min_covar for every state's covariance.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local base = require("luma.hmm.base")
local chain = require("luma.markov.chain")
local G = require("luma.mixture.gaussian")
local mcommon = require("luma.mixture.common")
local mixture_native = require("luma.mixture.native")
local dcommon = require("luma.decomposition.common")

local M = {}
local fail = base.fail
local linalg = luma.linalg

local COVARIANCE_TYPES = { "full", "tied", "diag", "spherical" }

-- k-means labels and centres of the rows of X (luma.cluster.KMeans with a
-- seed drawn from rng, so that each call gets its own stream).
local function kmeans(X, k, rng)
  local km = luma.cluster.KMeans{ n_clusters = k, n_init = 10,
    seed = math.tointeger(rng:integers(1, 2147483647)) }:fit(X)
  return km.labels, km.cluster_centers
end

-- The data covariance (divisor n) plus min_covar, in the layout of ctype
-- for m components.
local function data_covariance(X, m, ctype, min_covar)
  local d = X:cols()
  local Xc = X - X:mean(1)
  local C = (Xc:t() * Xc) / X:rows() + luma.eye(d) * min_covar
  if ctype == "tied" then return C end
  if ctype == "full" then
    local out = {}
    for c = 1, m do out[c] = C:copy() end
    return out
  end
  local diag = C:diag():reshape(1, d)
  if ctype == "diag" then return luma.ones(m, 1) * diag end
  return luma.full(m, 1, diag:mean())
end

-- covars given by the user, checked for the layout (positive definiteness
-- is checked with the Cholesky factors).
local function covariance_param(cov, m, d, ctype, what)
  local function square(S, which)
    if not luma.ismatrix(S) or S:rows() ~= d or S:cols() ~= d or not S:isfinite():all() then
      fail("bad argument to 'fit' (%s must be a finite %d x %d matrix)", which, d, d)
    end
    return S:copy()
  end
  if ctype == "full" then
    if type(cov) ~= "table" or luma.ismatrix(cov) or #cov ~= m then
      fail("bad argument to 'fit' (%s must be a table of %d matrices for covariance_type "
        .. "\"full\")", what, m)
    end
    local out = {}
    for c = 1, m do out[c] = square(cov[c], what .. "[" .. c .. "]") end
    return out
  elseif ctype == "tied" then
    return square(cov, what)
  end
  local cols = ctype == "diag" and d or 1
  if not luma.ismatrix(cov) or cov:rows() ~= m or cov:cols() ~= cols or not cov:isfinite():all() then
    fail("bad argument to 'fit' (%s must be a finite %d x %d matrix for covariance_type %q)",
      what, m, cols, ctype)
  end
  return cov:copy()
end

-- Cholesky factors of the precisions (luma.mixture's), with an error that
-- names the HMM's own guard.
local function precision_cholesky(self, covs, ctype)
  local proxy = { __class = self.__class, params = { reg_covar = self.params.min_covar } }
  local ok, out = pcall(G.precision_cholesky, proxy, covs, ctype)
  if not ok then
    fail("%s.fit: a covariance is singular or not positive definite (a state collapsed on "
      .. "too few distinct points); raise min_covar (it is %s) or use fewer states",
      self.__class.short_name, dcommon.number_text(self.params.min_covar))
  end
  return out
end

local function check_X(self, method, X)
  dcommon.check_finite(self.__class.short_name, method, X)
end

-- Free covariance parameters of m components in d dimensions.
local function covariance_params(m, d, ctype)
  return ({ full = m * d * (d + 1) / 2, tied = d * (d + 1) / 2, diag = m * d, spherical = m })[ctype]
end

-- Draws for the rows of Z (n x d standard normals) selected by mask:
-- mu + L z with Sigma = L L^T, added into out.
local function add_gaussian(out, Z, mask, mu, cov, ctype, c)
  local Y
  if ctype == "full" or ctype == "tied" then
    local S = ctype == "full" and cov[c] or cov
    Y = Z * linalg.cholesky(S):t()
  elseif ctype == "diag" then
    Y = Z:mul(cov:row(c):sqrt())
  else
    Y = Z * math.sqrt(cov:get(c, 1))
  end
  return out + (Y + mu):mul(mask)
end

-- ------------------------------------------------------------ GaussianHMM

local gauss = { check_X = check_X }

function gauss.initialize(self, X, rng)
  local p = self.params
  local k, d, ctype = p.n_components, X:cols(), p.covariance_type
  if p.means_init then
    self.means = mcommon.matrix_param(self.__class.short_name, "means_init", p.means_init, k, d)
  else
    base.check_rows(self, X, k)
    local _, centres = kmeans(X, k, rng)
    self.means = centres
  end
  self.covars = p.covars_init and covariance_param(p.covars_init, k, d, ctype, "covars_init")
    or data_covariance(X, k, ctype, p.min_covar)
  self.precisions_cholesky = precision_cholesky(self, self.covars, ctype)
end

function gauss.log_emission(self, X)
  local lr, norm = G.log_resp_of(X, self.means, self.precisions_cholesky,
    self.params.covariance_type, luma.zeros(self.params.n_components, 1))
  return lr + norm
end

function gauss.m_step(self, X, gamma)
  local ctype = self.params.covariance_type
  local _, means, covs = G.estimate(X, gamma:log(), self.params.min_covar, ctype)
  self.means, self.covars = means, covs
  self.precisions_cholesky = precision_cholesky(self, covs, ctype)
end

function gauss.n_emission_params(self)
  local k, d = self.params.n_components, self.n_features_in
  return k * d + covariance_params(k, d, self.params.covariance_type)
end

function gauss.sample_emission(self, states, rng)
  local n, d = states:rows(), self.means:cols()
  local Z = rng:normal(n, d)
  local out = luma.zeros(n, d)
  for c = 1, self.params.n_components do
    out = add_gaussian(out, Z, states:eq(c), self.means:row(c), self.covars,
      self.params.covariance_type, c)
  end
  return out
end

local COVARIANCE_PARAMS = {
  { name = "covariance_type", type = "string", default = "diag", values = COVARIANCE_TYPES,
    doc = "one covariance per state, one shared, diagonal ones, or one variance each" },
  { name = "min_covar", type = "number", default = 1e-3, min = 0,
    doc = "added to the covariances' diagonal (the guard against collapsing states)" },
}

M.GaussianHMM = base.class({
  name = "luma.hmm.GaussianHMM",
  doc = "A hidden Markov model with Gaussian emissions (Rabiner 1989; Bishop, Pattern "
    .. "Recognition and Machine Learning, sec. 13.2), as hmmlearn's GaussianHMM. Rows of X are "
    .. "observations; several sequences are stacked with lengths. startprob is the "
    .. "distribution of the first observation's state. Fitted: startprob (1 x k), transmat "
    .. "(k x k, row-stochastic), means (k x d), covars and precisions_cholesky in "
    .. "luma.mixture's layouts (full: a table of k d x d matrices; tied: d x d; diag: k x d; "
    .. "spherical: k x 1), history, n_iter, converged. Methods: predict (Viterbi), "
    .. "predict_proba (smoothing), filter, posteriors (gamma and xi), decode, score (log p(X)), "
    .. "sample, aic, bic.",
  params = {
    COVARIANCE_PARAMS[1], COVARIANCE_PARAMS[2],
    { name = "means_init", type = "matrix", doc = "initial means (k x d; default k-means centres)" },
    { name = "covars_init", type = "matrix|table",
      doc = "initial covariances in the covariance_type's layout (default the data covariance)" },
  },
  example = function()
    return M.GaussianHMM{ n_components = 2, seed = 1 }, mcommon.example_data()
  end,
}, gauss)

-- ---------------------------------------------------------------- GMMHMM

local gmm = { check_X = check_X }

local function log_weights(self, c)
  return self.weights:row(c):t():log()
end

function gmm.initialize(self, X, rng)
  local p = self.params
  local k, m, d, ctype = p.n_components, p.n_mix, X:cols(), p.covariance_type
  local name = self.__class.short_name
  if p.weights_init then
    self.weights = mcommon.matrix_param(name, "weights_init", p.weights_init, k, m)
    for c = 1, k do
      chain.check_distribution(self.weights:row(c), m, "fit", "row " .. c .. " of weights_init")
    end
  else
    self.weights = luma.full(k, m, 1 / m)
  end
  local means = {}
  if p.means_init then
    if type(p.means_init) ~= "table" or #p.means_init ~= k then
      fail("bad argument to 'fit' (means_init must be a table of %d matrices, %d x %d each)", k, m, d)
    end
    for c = 1, k do
      means[c] = mcommon.matrix_param(name, "means_init[" .. c .. "]", p.means_init[c], m, d)
    end
  else
    -- k-means into k states, then each state's points into n_mix
    base.check_rows(self, X, k)
    local labels = kmeans(X, k, rng)
    for c = 1, k do
      local rows = X:select(labels:eq(c), 1)
      if rows:rows() >= m then
        local _, centres = kmeans(rows, m, rng)
        means[c] = centres
      else
        means[c] = X:take(rng:choice(X:rows(), m, { replace = false }))
      end
    end
  end
  self.means = means
  local covars, pchol = {}, {}
  for c = 1, k do
    covars[c] = p.covars_init
      and covariance_param(type(p.covars_init) == "table" and p.covars_init[c] or nil, m, d,
        ctype, "covars_init[" .. c .. "]")
      or data_covariance(X, m, ctype, p.min_covar)
    pchol[c] = precision_cholesky(self, covars[c], ctype)
  end
  self.covars, self.precisions_cholesky = covars, pchol
end

-- log p(x_t | state c) = logsumexp over the state's components, and the
-- within-state log-responsibilities (what the M-step weights by gamma).
function gmm.log_emission(self, X)
  local k, ctype = self.params.n_components, self.params.covariance_type
  local norms, resp = {}, {}
  for c = 1, k do
    resp[c], norms[c] = G.log_resp_of(X, self.means[c], self.precisions_cholesky[c], ctype,
      log_weights(self, c))
  end
  return luma.matrix.hstack(norms), resp
end

-- Each state's mixture refitted with weights gamma_t(c) r_t(c, m)
-- (Rabiner 1989, eqs. 52-54).
function gmm.m_step(self, X, gamma, resp)
  local p = self.params
  local ctype, reg = p.covariance_type, p.min_covar
  for c = 1, p.n_components do
    local log_r = resp[c] + gamma:col(c):log()
    local nk, means, covs
    if ctype == "tied" then
      -- pooled over the state's components, divided by the state's weight
      local scatter
      nk, means, scatter = mixture_native.moments(X, log_r, { log = true, eps = 10 * mcommon.EPS })
      local S = scatter[1]
      for j = 2, #scatter do S = S + scatter[j] end
      S = (S + S:t()) * (0.5 / nk:sum())
      S:diag():add(reg, S:diag())
      covs = S
    else
      nk, means, covs = G.estimate(X, log_r, reg, ctype)
    end
    self.weights:row(c):assign((nk / nk:sum()):t())
    self.means[c], self.covars[c] = means, covs
    self.precisions_cholesky[c] = precision_cholesky(self, covs, ctype)
  end
end

function gmm.n_emission_params(self)
  local k, m, d = self.params.n_components, self.params.n_mix, self.n_features_in
  return k * ((m - 1) + m * d + covariance_params(m, d, self.params.covariance_type))
end

function gmm.sample_emission(self, states, rng)
  local p = self.params
  local n, d = states:rows(), self.n_features_in
  local comps = chain.draw_rows(self.weights, states, rng)
  local Z = rng:normal(n, d)
  local out = luma.zeros(n, d)
  for c = 1, p.n_components do
    for j = 1, p.n_mix do
      out = add_gaussian(out, Z, states:eq(c):mul(comps:eq(j)), self.means[c]:row(j),
        self.covars[c], p.covariance_type, j)
    end
  end
  return out
end

M.GMMHMM = base.class({
  name = "luma.hmm.GMMHMM",
  doc = "A hidden Markov model whose states emit from Gaussian mixtures (Juang, Levinson and "
    .. "Sondhi 1986; Rabiner 1989, sec. IV-A), as hmmlearn's GMMHMM. Fitted: startprob, "
    .. "transmat, weights (k x n_mix), means (a table of k n_mix x d matrices), covars and "
    .. "precisions_cholesky (a table of k, each in luma.mixture's layout for n_mix components), "
    .. "history, n_iter, converged. Methods as GaussianHMM.",
  params = {
    { name = "n_mix", type = "integer", default = 1, min = 1, doc = "Gaussians per state" },
    COVARIANCE_PARAMS[1], COVARIANCE_PARAMS[2],
    { name = "weights_init", type = "matrix", doc = "initial mixture weights (k x n_mix, rows summing to 1)" },
    { name = "means_init", type = "table", doc = "initial means: a table of k n_mix x d matrices" },
    { name = "covars_init", type = "table",
      doc = "initial covariances: a table of k, each in the covariance_type's layout" },
  },
  example = function()
    return M.GMMHMM{ n_components = 2, n_mix = 2, seed = 1 }, mcommon.example_data()
  end,
}, gmm)

return M
